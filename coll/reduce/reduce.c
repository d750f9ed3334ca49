/*
 * reduce.c - the registry of reduce algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/reduce/reduce.h"
#include "coll/hier/hier.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"
#include "runtime/op/op.h"

/* Indexes into the table. */
enum {
    REDUCE_BINOMIAL,
    REDUCE_REDUCE_SCATTER_GATHER,
    REDUCE_SHM,
    REDUCE_HIER,
};

const struct comm_coll_algorithm comm_coll_reduce_algorithms[] = {
    [REDUCE_BINOMIAL] = {.name = "binomial", .fn.reduce = comm_coll_reduce_binomial},
    [REDUCE_REDUCE_SCATTER_GATHER] = {.name = "reduce_scatter_gather",
                                      .restrictions = COMM_COLL_COMMUTATIVE_ONLY,
                                      .fn.reduce = comm_coll_reduce_reduce_scatter_gather},
    [REDUCE_SHM] = {.name = "shm",
                    .restrictions = COMM_COLL_HOST_LOCAL_ONLY,
                    .fn.reduce = comm_coll_reduce_shm},
    [REDUCE_HIER] = {.name = "hier",
                     .restrictions = COMM_COLL_MULTI_HOST_ONLY | COMM_COLL_COMMUTATIVE_ONLY,
                     .fn.reduce = comm_coll_reduce_hier},
};

const size_t comm_coll_reduce_nalgorithms =
    sizeof(comm_coll_reduce_algorithms) / sizeof(comm_coll_reduce_algorithms[0]);

/*
 * Vector sizes (bytes) where the choice changes, from the OSU-style benchmark at 2 to 8 ranks
 * on one host: from LONG the halving and gather, which move and reduce each element about
 * once, beat the binomial tree's log2 p whole-vector rounds.  A non-power-of-two size first
 * folds a whole vector, which at 3 and 5 ranks costs what the halving saves; from 6 ranks and
 * LONG_FOLDED it pays.
 */
enum {
    REDUCE_LONG = 256 << 10,
    REDUCE_LONG_FOLDED = 1 << 20,
    REDUCE_FOLDED_MIN_SIZE = 6,
};

size_t comm_coll_reduce_choose(const struct comm_coll_call *call)
{
    int size = call->comm->size;

    /* Within a host the shared buffer wins at every size, and keeps rank order. */
    if (size > 1 && comm_coll_shm_allowed(call->comm)) {
        return REDUCE_SHM;
    }
    /* Across racks, from a size: each level's links carry the vector once (hier.h). */
    if (call->op != NULL && call->op->commutative &&
        call->bytes >= comm_coll_hier_floor(COMM_COLL_HIER_REDUCE_FLOOR) &&
        comm_coll_hier_spans_switches(call->comm)) {
        return REDUCE_HIER;
    }
    /* The binomial tree keeps rank order. */
    if (size == 1 || call->op == NULL || !call->op->commutative) {
        return REDUCE_BINOMIAL;
    }
    if ((size & (size - 1)) == 0) {
        return call->bytes < REDUCE_LONG ? REDUCE_BINOMIAL : REDUCE_REDUCE_SCATTER_GATHER;
    }
    if (size < REDUCE_FOLDED_MIN_SIZE || call->bytes < REDUCE_LONG_FOLDED) {
        return REDUCE_BINOMIAL;
    }
    return REDUCE_REDUCE_SCATTER_GATHER;
}
