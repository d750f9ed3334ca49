/*
 * nbc_build.c - from a collective call's arguments (struct comm_coll_args) to its schedule:
 * the builder of each operation picks the intra- or intercommunicator schedule.  The
 * nonblocking calls, the blocking intercommunicator calls and the persistent collectives all
 * come through here, so one table of builders serves every form.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/inter/inter.h"
#include "coll/nbc/nbc.h"
#include "runtime/comm/communicator.h"

static bool build_is_inter(const struct comm_coll_sched *s)
{
    return comm_coll_sched_comm(s)->inter;
}

int comm_coll_build_barrier(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    (void)a;
    return build_is_inter(s) ? comm_coll_inter_ibarrier(s) : comm_coll_ibarrier(s);
}

int comm_coll_build_bcast(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    return build_is_inter(s) ? comm_coll_inter_ibcast(s, a->rbuf, a->rcount, a->rdt, a->root)
                             : comm_coll_ibcast(s, a->rbuf, a->rcount, a->rdt, a->root);
}

int comm_coll_build_reduce(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    if (a->rcount == 0) {
        return MPI_SUCCESS;
    }
    return build_is_inter(s)
               ? comm_coll_inter_ireduce(s, a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->root)
               : comm_coll_ireduce(s, a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->root);
}

int comm_coll_build_allreduce(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    if (a->rcount == 0) {
        return MPI_SUCCESS;
    }
    return build_is_inter(s)
               ? comm_coll_inter_iallreduce(s, a->sbuf, a->rbuf, a->rcount, a->rdt, a->op)
               : comm_coll_iallreduce(s, a->sbuf, a->rbuf, a->rcount, a->rdt, a->op);
}

int comm_coll_build_gather(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    return build_is_inter(s) ? comm_coll_inter_igatherv(s, a) : comm_coll_igatherv(s, a);
}

int comm_coll_build_scatter(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    return build_is_inter(s) ? comm_coll_inter_iscatterv(s, a) : comm_coll_iscatterv(s, a);
}

int comm_coll_build_allgather(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    return build_is_inter(s) ? comm_coll_inter_iallgatherv(s, a) : comm_coll_iallgatherv(s, a);
}

int comm_coll_build_alltoall(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    return build_is_inter(s) ? comm_coll_inter_ialltoallw(s, a) : comm_coll_ialltoallw(s, a);
}

int comm_coll_build_reduce_scatter(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    MPI_Count total = 0;

    for (int r = 0; r < comm->size; r++) {
        total += comm_coll_args_rcount(a, r);
    }
    if (total == 0) {
        return MPI_SUCCESS;
    }
    return comm->inter ? comm_coll_inter_ireduce_scatter(s, a) : comm_coll_ireduce_scatter(s, a);
}

int comm_coll_build_scan(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    return a->rcount == 0 ? MPI_SUCCESS
                          : comm_coll_iscan(s, a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, false);
}

int comm_coll_build_exscan(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    return a->rcount == 0 ? MPI_SUCCESS
                          : comm_coll_iscan(s, a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, true);
}
