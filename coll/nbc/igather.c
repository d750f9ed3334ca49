/*
 * igather.c - MPI_Igather and MPI_Iscatter: the root exchanges with every rank at once.
 *
 * Layer: coll.  Cost: one round; the root posts size-1 messages.
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "runtime/communicator.h"
#include "runtime/datatype.h"

int comm_coll_igather(struct comm_coll_sched *s, const void *sbuf, MPI_Count scount,
                      struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                      struct comm_datatype *rdt, int root)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int err = MPI_SUCCESS;

    if (comm->rank != root) {
        err = comm_coll_sched_send(s, sbuf, scount, sdt, root);
        return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    for (int r = 0; r < comm->size && err == MPI_SUCCESS; r++) {
        void *block = comm_coll_block(rbuf, r, rcount, rdt->extent);

        if (r != root) {
            err = comm_coll_sched_recv(s, block, rcount, rdt, r);
        } else if (sbuf != NULL) {
            err = comm_coll_sched_send(s, sbuf, scount, sdt, r);
            if (err == MPI_SUCCESS) {
                err = comm_coll_sched_recv(s, block, rcount, rdt, r);
            }
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_iscatter(struct comm_coll_sched *s, const void *sbuf, MPI_Count scount,
                       struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                       struct comm_datatype *rdt, int root)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int err = MPI_SUCCESS;

    if (comm->rank != root) {
        err = comm_coll_sched_recv(s, rbuf, rcount, rdt, root);
        return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    for (int r = 0; r < comm->size && err == MPI_SUCCESS; r++) {
        const void *block = comm_coll_block(sbuf, r, scount, sdt->extent);

        if (r != root) {
            err = comm_coll_sched_send(s, block, scount, sdt, r);
        } else if (rbuf != NULL) {
            err = comm_coll_sched_send(s, block, scount, sdt, r);
            if (err == MPI_SUCCESS) {
                err = comm_coll_sched_recv(s, rbuf, rcount, rdt, r);
            }
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}
