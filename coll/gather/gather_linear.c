/*
 * gather_linear.c - linear gather: every rank sends its block to the root, which receives
 * them in rank order, straight into place.
 *
 * Wins: few ranks, or uneven blocks (MPI_Gatherv).  Cost: the root receives p-1 messages one
 * after another: (p-1) latencies plus the whole data through the root.  Restrictions: none.
 */
#include "config.h"

#include "coll/gather/gather.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_gather_linear(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                            void *rbuf, const int *rcounts, const int *displs,
                            struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    int err = MPI_SUCCESS;

    if (comm->rank != root) {
        return comm_coll_send(sbuf, scount, sdt, root, COMM_COLL_TAG_GATHER, comm);
    }
    for (int r = 0; r < comm->size && err == MPI_SUCCESS; r++) {
        char *block = (char *)rbuf + (MPI_Aint)displs[r] * rdt->extent;

        if (r != root) {
            err = comm_coll_recv(block, rcounts[r], rdt, r, COMM_COLL_TAG_GATHER, comm);
        } else if (sbuf != NULL) {
            /* Our own block, through the pack format, since the two types may differ. */
            err = comm_coll_sendrecv(sbuf, scount, sdt, root, block, rcounts[r], rdt, root,
                                     COMM_COLL_TAG_GATHER, comm);
        }
    }
    return err;
}
