/*
 * allreduce_rabenseifner.c - Rabenseifner's allreduce: a reduce-scatter by recursive halving
 * followed by an allgather by recursive doubling.
 *
 * The vector is cut into pof2 nearly equal blocks (pof2 = 2^floor(log2 p)).  In the
 * reduce-scatter each rank keeps half of what it handles and swaps the other half with the rank
 * at distance pof2/2, then pof2/4, ... 1, reducing what it receives, until it holds one block
 * reduced over every rank; the allgather retraces those steps in reverse and gives every rank
 * every block.  A non-power-of-two size first folds ranks 0..2r-1 in pairs (r = p - pof2): the
 * even rank of a pair hands its vector to the odd one, and gets the result back at the end.
 * Wins: long vectors with a commutative operation.  Cost: 2 log2 p steps (plus two for a
 * non-power-of-two size); each rank sends and receives 2 (p-1)/p of the vector and reduces
 * (p-1)/p of it (the folded pairs move two whole vectors more).  Restrictions: commutative
 * operations.
 * Reference: Rabenseifner, "Optimization of Collective Reduction Operations" (ICCS 2004);
 * Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication Operations in
 * MPICH" (2005).
 */
#include "config.h"

#include "coll/allreduce/allreduce.h"
#include "coll/coll_blocks.h"
#include "runtime/comm/communicator.h"

#include <stdlib.h>

int comm_coll_allreduce_rabenseifner(const void *sbuf, void *rbuf, MPI_Count count,
                                     struct comm_datatype *dt, struct comm_op *op,
                                     struct comm_communicator *comm)
{
    struct comm_coll_blocks_fold fold;
    MPI_Count *group;
    int err;

    comm_coll_blocks_fold_init(comm, &fold);
    group = malloc((size_t)(fold.pof2 + 1) * sizeof(*group));
    if (group == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_coll_blocks_split(count, fold.pof2, group);
    if (fold.rem == 0 && fold.pof2 > 1 && sbuf != NULL && sbuf != rbuf) {
        /* Nobody folds: the first halving step reads the send buffer, and fills half of the
         * receive buffer without a copy of the whole vector. */
        err = comm_coll_blocks_halve(sbuf, rbuf, group, dt, op, &fold, COMM_COLL_TAG_ALLREDUCE,
                                     comm);
    } else {
        err = comm_coll_copy(sbuf, rbuf, count, dt);
        if (err == MPI_SUCCESS) {
            err = comm_coll_blocks_fold_in(rbuf, count, dt, op, &fold, COMM_COLL_TAG_ALLREDUCE,
                                           comm);
        }
        if (err == MPI_SUCCESS) {
            err = comm_coll_blocks_halve(NULL, rbuf, group, dt, op, &fold,
                                         COMM_COLL_TAG_ALLREDUCE, comm);
        }
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_double(rbuf, group, dt, &fold, COMM_COLL_TAG_ALLREDUCE, comm);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_fold_out(rbuf, 0, count, dt, &fold, COMM_COLL_TAG_ALLREDUCE, comm);
    }
    free(group);
    return err;
}
