/*
 * reduce_scatter_ring.c - ring reduce-scatter.
 *
 * In step s (0..p-2) rank r sends its partial result of block r-s-1 to rank r+1 and reduces
 * block r-s-2, received from rank r-1, into its own; after p-1 steps block r has passed every
 * rank and ends, fully reduced, at rank r.  Blocks travel in segments, each sent on as soon as
 * it is reduced, so that sending, receiving and reducing overlap.  Uneven blocks
 * (MPI_Reduce_scatter) are fine.
 * Wins: long vectors, and non-power-of-two sizes, which the halving must fold.  Cost: p-1
 * steps; each rank sends, receives and reduces (p-1)/p of the vector, and talks only to its
 * neighbours.  Restrictions: commutative operations (a block is reduced in ring order).
 * Reference: Patarasuk and Yuan, "Bandwidth Optimal All-reduce Algorithms for Clusters of
 * Workstations" (2009).
 */
#include "config.h"

#include "coll/coll_blocks.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>

int comm_coll_reduce_scatter_ring(const void *sbuf, void *rbuf, const int *rcounts,
                                  struct comm_datatype *dt, struct comm_op *op,
                                  struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, err;
    MPI_Count *displs = malloc((size_t)(size + 1) * sizeof(*displs));
    void *acc = NULL, *acc_block = NULL;

    if (displs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_coll_blocks_prefix(rcounts, size, displs);
    /* In place, rbuf holds the whole vector and can carry the work. */
    if (sbuf == rbuf) {
        acc = rbuf;
    } else {
        acc = comm_coll_alloc_buffer(displs[size], dt, &acc_block);
        if (acc == NULL) {
            free(displs);
            return MPI_ERR_NO_MEM;
        }
    }
    err = comm_coll_copy(sbuf, acc, displs[size], dt);
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_ring_reduce_scatter(acc, displs, dt, op,
                                                   COMM_COLL_TAG_REDUCE_SCATTER, comm);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_copy((char *)acc + (MPI_Aint)displs[rank] * dt->extent, rbuf, rcounts[rank],
                             dt);
    }
    comm_coll_free_buffer(acc_block);
    free(displs);
    return err;
}
