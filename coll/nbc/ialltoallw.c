/*
 * ialltoallw.c - MPI_Iallgather(v) and MPI_Ialltoall(v,w) on an intracommunicator: every rank
 * exchanges with every other at once.  The rank's own block goes through a message to itself,
 * which converts between the send and receive types.
 *
 * Layer: coll.  Cost: one round of 2(size-1) messages per rank (two rounds for alltoall in
 * place, which first copies what it sends); for the small and moderate sizes nonblocking
 * collectives are used at, posting everything at once lets the transfers overlap the caller's
 * computation.
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_iallgatherv(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    const void *sbuf = a->sbuf;
    MPI_Count scount = a->scount;
    struct comm_datatype *sdt = a->sdt;
    int err = MPI_SUCCESS;

    if (sbuf == NULL) { /* in place: our block is in rbuf already */
        sbuf = comm_coll_args_rblock(a, comm->rank);
        scount = comm_coll_args_rcount(a, comm->rank);
        sdt = comm_coll_args_rdt(a, comm->rank);
    }
    for (int r = 0; r < comm->size && err == MPI_SUCCESS; r++) {
        if (r == comm->rank && a->sbuf == NULL) {
            continue;
        }
        err = comm_coll_sched_recv(s, comm_coll_args_rblock(a, r), comm_coll_args_rcount(a, r),
                                   comm_coll_args_rdt(a, r), r);
        if (err == MPI_SUCCESS) {
            err = comm_coll_sched_send(s, sbuf, scount, sdt, r);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_ialltoallw(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int size = comm->size, err = MPI_SUCCESS;
    const void **from = comm_coll_sched_buffer(s, (size_t)size * sizeof(*from));

    if (from == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < size && err == MPI_SUCCESS; r++) {
        if (a->sbuf != NULL) {
            from[r] = comm_coll_args_sblock(a, r);
            continue;
        }
        /* In place: send from a copy of rbuf, made when the schedule starts. */
        from[r] =
            comm_coll_sched_elements(s, comm_coll_args_rcount(a, r), comm_coll_args_rdt(a, r));
        err = from[r] == NULL
                  ? MPI_ERR_NO_MEM
                  : comm_coll_sched_copy(s, comm_coll_args_rblock(a, r), (void *)(uintptr_t)from[r],
                                         comm_coll_args_rcount(a, r), comm_coll_args_rdt(a, r));
    }
    if (err == MPI_SUCCESS && a->sbuf == NULL) {
        err = comm_coll_sched_round(s);
    }
    for (int r = 0; r < size && err == MPI_SUCCESS; r++) {
        err = comm_coll_sched_recv(s, comm_coll_args_rblock(a, r), comm_coll_args_rcount(a, r),
                                   comm_coll_args_rdt(a, r), r);
        if (err == MPI_SUCCESS) {
            err = a->sbuf == NULL ? comm_coll_sched_send(s, from[r], comm_coll_args_rcount(a, r),
                                                         comm_coll_args_rdt(a, r), r)
                                  : comm_coll_sched_send(s, from[r], comm_coll_args_scount(a, r),
                                                         comm_coll_args_sdt(a, r), r);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}
