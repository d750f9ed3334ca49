/*
 * reduce_reduce_scatter_gather.c - Rabenseifner's reduce: a reduce-scatter by recursive
 * halving followed by a binomial gather of the blocks to the root.
 *
 * The vector is cut into pof2 nearly equal blocks (pof2 = 2^floor(log2 p)).  In the
 * reduce-scatter each rank keeps half of what it handles and swaps the other half with the rank
 * at distance pof2/2, then pof2/4, ... 1, reducing what it receives, until it holds one block
 * reduced over every rank; the gather retraces those steps in reverse, one way, toward the
 * root.  A non-power-of-two size first folds ranks 0..2r-1 in pairs (r = p - pof2): the even
 * rank of a pair hands its vector to the odd one; when the root is such an even rank, its odd
 * partner gathers the result and sends it on.
 * Wins: long vectors with a commutative operation.  Cost: 2 log2 p steps (plus one or two for
 * a non-power-of-two size); each rank sends and receives about (p-1)/p of the vector and
 * reduces as much, where a binomial tree moves and reduces the whole vector log2 p times.
 * Restrictions: commutative operations.
 * Reference: Rabenseifner, "Optimization of Collective Reduction Operations" (ICCS 2004);
 * Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication Operations in
 * MPICH" (2005).
 */
#include "config.h"

#include "coll/coll_blocks.h"
#include "coll/reduce/reduce.h"
#include "runtime/comm/communicator.h"

#include <stdlib.h>

int comm_coll_reduce_reduce_scatter_gather(const void *sbuf, void *rbuf, MPI_Count count,
                                           struct comm_datatype *dt, struct comm_op *op, int root,
                                           struct comm_communicator *comm)
{
    struct comm_coll_blocks_fold fold;
    MPI_Count *group;
    int rank = comm->rank, newroot, err;
    bool root_folded;
    void *acc = rbuf, *acc_block = NULL;

    comm_coll_blocks_fold_init(comm, &fold);
    /* The remaining rank that gathers: the root, or its odd partner if the root folded out. */
    root_folded = root < 2 * fold.rem && root % 2 == 0;
    newroot = root < 2 * fold.rem ? root / 2 : root - fold.rem;
    group = malloc((size_t)(fold.pof2 + 1) * sizeof(*group));
    if (group == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_coll_blocks_split(count, fold.pof2, group);
    /* The root works in rbuf; the others need room for the whole vector. */
    if (rank != root) {
        acc = comm_coll_alloc_buffer(count, dt, &acc_block);
        if (acc == NULL) {
            free(group);
            return MPI_ERR_NO_MEM;
        }
    }
    err = comm_coll_copy(sbuf, acc, count, dt);
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_fold_in(acc, count, dt, op, &fold, COMM_COLL_TAG_REDUCE, comm);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_halve(NULL, acc, group, dt, op, &fold, COMM_COLL_TAG_REDUCE, comm);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_gather(acc, group, dt, newroot, &fold, COMM_COLL_TAG_REDUCE, comm);
    }
    if (err == MPI_SUCCESS && root_folded) {
        if (rank == root) {
            err = comm_coll_recv(rbuf, count, dt, root + 1, COMM_COLL_TAG_REDUCE, comm);
        } else if (rank == root + 1) {
            err = comm_coll_send(acc, count, dt, root, COMM_COLL_TAG_REDUCE, comm);
        }
    }
    comm_coll_free_buffer(acc_block);
    free(group);
    return err;
}
