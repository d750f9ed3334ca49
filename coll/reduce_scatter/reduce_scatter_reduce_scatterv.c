/*
 * reduce_scatter_reduce_scatterv.c - reduce-scatter as a reduce of the whole vector to rank 0
 * followed by a scatter of the blocks.
 *
 * Wins: short vectors, and any operation (the reduce keeps rank order, so non-commutative
 * operations are exact).  Cost: the selected reduce of the whole vector plus a scatter; rank 0
 * handles all the data.  Restrictions: none.
 */
#include "config.h"

#include "coll/reduce_scatter/reduce_scatter.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>

int comm_coll_reduce_scatter_reduce_scatterv(const void *sbuf, void *rbuf, const int *rcounts,
                                             struct comm_datatype *dt, struct comm_op *op,
                                             struct comm_communicator *comm)
{
    MPI_Count total = 0;
    int *displs = malloc((size_t)comm->size * sizeof(*displs));
    void *whole = NULL, *block = NULL;
    int err;

    if (displs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < comm->size; r++) {
        displs[r] = (int)total;
        total += rcounts[r];
    }
    if (comm->rank == 0) {
        whole = comm_coll_alloc_buffer(total, dt, &block);
        if (whole == NULL) {
            free(displs);
            return MPI_ERR_NO_MEM;
        }
    }
    err = total > 0 ? comm->coll->reduce(sbuf, whole, total, dt, op, 0, comm) : MPI_SUCCESS;
    if (err == MPI_SUCCESS) {
        err = comm->coll->scatterv(whole, rcounts, displs, dt, rbuf, rcounts[comm->rank], dt, 0,
                                   comm);
    }
    comm_coll_free_buffer(block);
    free(displs);
    return err;
}
