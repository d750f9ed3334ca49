/*
 * igatherv.c - MPI_Igather(v) and MPI_Iscatter(v) on an intracommunicator: the root exchanges
 * with every rank at once.  The root's own block goes through a message to itself, which
 * converts between the send and receive types.
 *
 * Layer: coll.  Cost: one round; the root posts size-1 messages.
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_igatherv(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int root = a->root, err = MPI_SUCCESS;

    if (comm->rank != root) {
        err = comm_coll_sched_send(s, a->sbuf, a->scount, a->sdt, root);
        return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    for (int r = 0; r < comm->size && err == MPI_SUCCESS; r++) {
        void *block = comm_coll_args_rblock(a, r);

        if (r == root && a->sbuf == NULL) {
            continue; /* in place: the root's block is there already */
        }
        if (r == root) {
            err = comm_coll_sched_send(s, a->sbuf, a->scount, a->sdt, r);
        }
        if (err == MPI_SUCCESS) {
            err = comm_coll_sched_recv(s, block, comm_coll_args_rcount(a, r),
                                       comm_coll_args_rdt(a, r), r);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_iscatterv(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int root = a->root, err = MPI_SUCCESS;

    if (comm->rank != root) {
        err = comm_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, root);
        return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    for (int r = 0; r < comm->size && err == MPI_SUCCESS; r++) {
        if (r == root && a->rbuf == NULL) {
            continue; /* in place: the root keeps its block where it is */
        }
        err = comm_coll_sched_send(s, comm_coll_args_sblock(a, r), comm_coll_args_scount(a, r),
                                   comm_coll_args_sdt(a, r), r);
        if (err == MPI_SUCCESS && r == root) {
            err = comm_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, r);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}
