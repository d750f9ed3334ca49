/*
 * reduce_scatter_recursive_halving.c - reduce-scatter by recursive vector halving and distance
 * halving.
 *
 * In each step a rank keeps half of the blocks it still handles and exchanges the other half
 * with the rank at distance pof2/2, then pof2/4, ... 1, reducing what it receives into the half
 * it kept; after log2 p steps each rank holds its own block, reduced over every rank.  A
 * non-power-of-two size first folds ranks 0..2r-1 in pairs (r = p - 2^floor(log2 p)): the even
 * rank of a pair hands its vector to the odd one, which then handles both their blocks and at
 * the end gives the even rank its block.  Uneven blocks (MPI_Reduce_scatter) are fine: a rank
 * handles whole blocks, whatever their sizes.
 * Wins: short and medium vectors with a commutative operation.  Cost: log2 p steps (plus two
 * for a non-power-of-two size); each rank sends, receives and reduces about (p-1)/p of the
 * vector (the folded pairs move one whole vector more).  Restrictions: commutative operations.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005), section 4.4.
 */
#include "config.h"

#include "coll/coll_blocks.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>

int comm_coll_reduce_scatter_recursive_halving(const void *sbuf, void *rbuf, const int *rcounts,
                                               struct comm_datatype *dt, struct comm_op *op,
                                               struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, err;
    struct comm_coll_blocks_fold fold;
    MPI_Count *displs = malloc((size_t)(size + 1) * sizeof(*displs));
    MPI_Count *group = malloc((size_t)(size + 1) * sizeof(*group));
    void *acc = NULL, *acc_block = NULL;

    if (displs == NULL || group == NULL) {
        err = MPI_ERR_NO_MEM;
        goto out_free;
    }
    comm_coll_blocks_prefix(rcounts, size, displs);
    comm_coll_blocks_fold_init(comm, &fold);
    comm_coll_blocks_fold_group(&fold, displs, group);
    /* In place, rbuf holds the whole vector and can carry the work. */
    if (sbuf == rbuf) {
        acc = rbuf;
    } else {
        acc = comm_coll_alloc_buffer(displs[size], dt, &acc_block);
        if (acc == NULL) {
            err = MPI_ERR_NO_MEM;
            goto out_free;
        }
    }
    err = comm_coll_copy(sbuf, acc, displs[size], dt);
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_fold_in(acc, displs[size], dt, op, &fold,
                                       COMM_COLL_TAG_REDUCE_SCATTER, comm);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_halve(NULL, acc, group, dt, op, &fold, COMM_COLL_TAG_REDUCE_SCATTER, comm);
    }
    /* A folded pair's odd rank holds both blocks: the even rank's goes back to it. */
    if (err == MPI_SUCCESS && rank < 2 * fold.rem) {
        int even = rank - rank % 2;

        err = comm_coll_blocks_fold_out(acc, displs[even], rcounts[even], dt, &fold,
                                        COMM_COLL_TAG_REDUCE_SCATTER, comm);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_copy((char *)acc + (MPI_Aint)displs[rank] * dt->extent, rbuf, rcounts[rank],
                             dt);
    }
out_free:
    comm_coll_free_buffer(acc_block);
    free(group);
    free(displs);
    return err;
}
