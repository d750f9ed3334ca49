/*
 * iallgather.c - MPI_Iallgather and MPI_Ialltoall: every rank exchanges with every other at
 * once.  The rank's own block goes through a message to itself, which converts between the
 * send and receive types.
 *
 * Layer: coll.  Cost: one round of 2(size-1) messages per rank; for the small and moderate
 * sizes nonblocking collectives are used at, posting everything at once lets the transfers
 * overlap the caller's computation.
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "runtime/communicator.h"
#include "runtime/datatype.h"

int comm_coll_iallgather(struct comm_coll_sched *s, const void *sbuf, MPI_Count scount,
                         struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                         struct comm_datatype *rdt)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int err = MPI_SUCCESS;

    if (sbuf == NULL) { /* in place: our block is in rbuf already */
        sbuf = comm_coll_block(rbuf, comm->rank, rcount, rdt->extent);
        scount = rcount;
        sdt = rdt;
    }
    for (int r = 0; r < comm->size && err == MPI_SUCCESS; r++) {
        if (r == comm->rank && sbuf == comm_coll_block(rbuf, r, rcount, rdt->extent)) {
            continue;
        }
        err =
            comm_coll_sched_recv(s, comm_coll_block(rbuf, r, rcount, rdt->extent), rcount, rdt, r);
        if (err == MPI_SUCCESS) {
            err = comm_coll_sched_send(s, sbuf, scount, sdt, r);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_ialltoall(struct comm_coll_sched *s, const void *sbuf, MPI_Count scount,
                        struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                        struct comm_datatype *rdt)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int size = comm->size, err = MPI_SUCCESS;

    if (sbuf == NULL) { /* in place: send from a copy of rbuf */
        void *copy = comm_coll_sched_elements(s, (MPI_Count)size * rcount, rdt);

        if (copy == NULL) {
            return MPI_ERR_NO_MEM;
        }
        err = comm_coll_copy(rbuf, copy, (MPI_Count)size * rcount, rdt);
        sbuf = copy;
        scount = rcount;
        sdt = rdt;
    }
    for (int r = 0; r < size && err == MPI_SUCCESS; r++) {
        err =
            comm_coll_sched_recv(s, comm_coll_block(rbuf, r, rcount, rdt->extent), rcount, rdt, r);
        if (err == MPI_SUCCESS) {
            err = comm_coll_sched_send(s, comm_coll_block(sbuf, r, scount, sdt->extent), scount,
                                       sdt, r);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}
