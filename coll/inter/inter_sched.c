/*
 * inter_sched.c - the schedules of every collective on an intercommunicator (inter.h): the
 * nonblocking and persistent calls, and the blocking ones inter.c does not have.
 *
 * Work inside a group runs on the local intracommunicator with the intracommunicator builders
 * (coll/nbc/), as steps of the same schedule (comm_coll_sched_set_comm); the groups meet
 * through their rank 0s, or directly for the operations whose blocks go rank to rank.
 *
 * Layer: coll.  Algorithms: barrier as a local barrier, an exchange of the rank 0s and a local
 * bcast; bcast as the root's send to the other group's rank 0 and a local bcast there;
 * reduce as a local reduce to rank 0, which sends to the root; allreduce as a local reduce, an
 * exchange of the rank 0s and a local bcast; reduce-scatter likewise, with a local scatterv
 * at the end; gather(v), scatter(v), allgather(v) and alltoall(v,w) as direct exchanges with
 * the remote ranks, every message posted at once.
 */
#include "config.h"

#include "coll/inter/inter.h"
#include "coll/nbc/nbc.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

/* Between the groups' rank 0s: SBUF goes out, RBUF comes in (either may be absent). */
static int inter_leaders(struct comm_coll_sched *s, struct comm_communicator *inter,
                         const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt)
{
    int err = MPI_SUCCESS;

    comm_coll_sched_set_comm(s, inter);
    if (inter->local_comm->rank == 0) {
        err = comm_coll_sched_send(s, sbuf, count, dt, 0);
        err = err == MPI_SUCCESS ? comm_coll_sched_recv(s, rbuf, count, dt, 0) : err;
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_inter_ibarrier(struct comm_coll_sched *s)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int err;

    comm_coll_sched_set_comm(s, inter->local_comm);
    err = comm_coll_ibarrier(s);
    err = err == MPI_SUCCESS ? inter_leaders(s, inter, NULL, NULL, 0, byte) : err;
    comm_coll_sched_set_comm(s, inter->local_comm);
    err = err == MPI_SUCCESS ? comm_coll_ibcast(s, NULL, 0, byte, 0) : err;
    comm_coll_sched_set_comm(s, inter);
    return err;
}

int comm_coll_inter_ibcast(struct comm_coll_sched *s, void *buf, MPI_Count count,
                           struct comm_datatype *dt, int root)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    int err = MPI_SUCCESS;

    if (root == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (root == MPI_ROOT) {
        err = comm_coll_sched_send(s, buf, count, dt, 0);
        return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    if (inter->local_comm->rank == 0) {
        err = comm_coll_sched_recv(s, buf, count, dt, root);
        err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    comm_coll_sched_set_comm(s, inter->local_comm);
    err = err == MPI_SUCCESS ? comm_coll_ibcast(s, buf, count, dt, 0) : err;
    comm_coll_sched_set_comm(s, inter);
    return err;
}

/* The reduction of the local group's SBUF, at local rank 0 in the buffer returned. */
static int inter_local_reduce(struct comm_coll_sched *s, struct comm_communicator *inter,
                              const void *sbuf, MPI_Count count, struct comm_datatype *dt,
                              struct comm_op *op, void **reduced_out)
{
    void *acc = comm_coll_sched_elements(s, count, dt);
    int err;

    if (acc == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_coll_sched_set_comm(s, inter->local_comm);
    err = comm_coll_ireduce(s, sbuf, acc, count, dt, op, 0);
    comm_coll_sched_set_comm(s, inter);
    *reduced_out = acc;
    return err;
}

int comm_coll_inter_ireduce(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                            MPI_Count count, struct comm_datatype *dt, struct comm_op *op, int root)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    void *acc = NULL;
    int err;

    if (root == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (root == MPI_ROOT) {
        err = comm_coll_sched_recv(s, rbuf, count, dt, 0);
        return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    err = inter_local_reduce(s, inter, sbuf, count, dt, op, &acc);
    if (err == MPI_SUCCESS && inter->local_comm->rank == 0) {
        err = comm_coll_sched_send(s, acc, count, dt, root);
        err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    return err;
}

int comm_coll_inter_iallreduce(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                               MPI_Count count, struct comm_datatype *dt, struct comm_op *op)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    void *acc = NULL;
    int err = inter_local_reduce(s, inter, sbuf, count, dt, op, &acc);

    err = err == MPI_SUCCESS ? inter_leaders(s, inter, acc, rbuf, count, dt) : err;
    comm_coll_sched_set_comm(s, inter->local_comm);
    err = err == MPI_SUCCESS ? comm_coll_ibcast(s, rbuf, count, dt, 0) : err;
    comm_coll_sched_set_comm(s, inter);
    return err;
}

int comm_coll_inter_ireduce_scatter(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    MPI_Count total = 0;
    void *acc = NULL, *theirs;
    int err;

    /* The standard asks both groups for vectors of the same length. */
    for (int r = 0; r < inter->size; r++) {
        total += comm_coll_args_rcount(a, r);
    }
    theirs = comm_coll_sched_elements(s, total, a->rdt);
    if (theirs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = inter_local_reduce(s, inter, a->sbuf, total, a->rdt, a->op, &acc);
    err = err == MPI_SUCCESS ? inter_leaders(s, inter, acc, theirs, total, a->rdt) : err;
    comm_coll_sched_set_comm(s, inter->local_comm);
    err = err == MPI_SUCCESS ? comm_coll_ireduce_scatter_spread(s, theirs, a) : err;
    comm_coll_sched_set_comm(s, inter);
    return err;
}

int comm_coll_inter_igatherv(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    int err = MPI_SUCCESS;

    if (a->root == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (a->root != MPI_ROOT) {
        err = comm_coll_sched_send(s, a->sbuf, a->scount, a->sdt, a->root);
        return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    for (int r = 0; r < inter->remote_size && err == MPI_SUCCESS; r++) {
        err = comm_coll_sched_recv(s, comm_coll_args_rblock(a, r), comm_coll_args_rcount(a, r),
                                   comm_coll_args_rdt(a, r), r);
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_inter_iscatterv(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    int err = MPI_SUCCESS;

    if (a->root == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (a->root != MPI_ROOT) {
        err = comm_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, a->root);
        return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    for (int r = 0; r < inter->remote_size && err == MPI_SUCCESS; r++) {
        err = comm_coll_sched_send(s, comm_coll_args_sblock(a, r), comm_coll_args_scount(a, r),
                                   comm_coll_args_sdt(a, r), r);
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_inter_iallgatherv(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    int err = MPI_SUCCESS;

    for (int r = 0; r < inter->remote_size && err == MPI_SUCCESS; r++) {
        err = comm_coll_sched_recv(s, comm_coll_args_rblock(a, r), comm_coll_args_rcount(a, r),
                                   comm_coll_args_rdt(a, r), r);
        err = err == MPI_SUCCESS ? comm_coll_sched_send(s, a->sbuf, a->scount, a->sdt, r) : err;
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_inter_ialltoallw(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *inter = comm_coll_sched_comm(s);
    int err = MPI_SUCCESS;

    for (int r = 0; r < inter->remote_size && err == MPI_SUCCESS; r++) {
        err = comm_coll_sched_recv(s, comm_coll_args_rblock(a, r), comm_coll_args_rcount(a, r),
                                   comm_coll_args_rdt(a, r), r);
        if (err == MPI_SUCCESS) {
            err = comm_coll_sched_send(s, comm_coll_args_sblock(a, r), comm_coll_args_scount(a, r),
                                       comm_coll_args_sdt(a, r), r);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}
