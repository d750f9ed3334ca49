/*
 * scatter_linear.c - linear scatter: the root sends each rank its block in rank order.
 *
 * Wins: few ranks, or uneven blocks (MPI_Scatterv).  Cost: the root sends p-1 messages one
 * after another.  Restrictions: none.
 */
#include "config.h"

#include "coll/scatter/scatter.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_scatter_linear(const void *sbuf, const int *scounts, const int *displs,
                             struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                             struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    int err = MPI_SUCCESS;

    if (comm->rank != root) {
        return comm_coll_recv(rbuf, rcount, rdt, root, COMM_COLL_TAG_SCATTER, comm);
    }
    for (int r = 0; r < comm->size && err == MPI_SUCCESS; r++) {
        const char *block = (const char *)sbuf + (MPI_Aint)displs[r] * sdt->extent;

        if (r != root) {
            err = comm_coll_send(block, scounts[r], sdt, r, COMM_COLL_TAG_SCATTER, comm);
        } else if (rbuf != NULL) {
            err = comm_coll_sendrecv(block, scounts[r], sdt, root, rbuf, rcount, rdt, root,
                                     COMM_COLL_TAG_SCATTER, comm);
        }
    }
    return err;
}
