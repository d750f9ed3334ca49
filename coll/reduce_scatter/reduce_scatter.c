/*
 * reduce_scatter.c - the registry of reduce-scatter algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "runtime/comm/communicator.h"
#include "runtime/op/op.h"

/* Indexes into the table. */
enum {
    REDUCE_SCATTER_REDUCE_SCATTERV,
    REDUCE_SCATTER_RECURSIVE_HALVING,
    REDUCE_SCATTER_RING,
    REDUCE_SCATTER_HIER,
};

const struct comm_coll_algorithm comm_coll_reduce_scatter_algorithms[] = {
    [REDUCE_SCATTER_REDUCE_SCATTERV] = {.name = "reduce_scatterv",
                                        .fn.reduce_scatter =
                                            comm_coll_reduce_scatter_reduce_scatterv},
    [REDUCE_SCATTER_RECURSIVE_HALVING] = {.name = "recursive_halving",
                                          .restrictions = COMM_COLL_COMMUTATIVE_ONLY,
                                          .fn.reduce_scatter =
                                              comm_coll_reduce_scatter_recursive_halving},
    [REDUCE_SCATTER_RING] = {.name = "ring",
                             .restrictions = COMM_COLL_COMMUTATIVE_ONLY,
                             .fn.reduce_scatter = comm_coll_reduce_scatter_ring},
    [REDUCE_SCATTER_HIER] = {.name = "hier",
                             .restrictions = COMM_COLL_COMMUTATIVE_ONLY | COMM_COLL_MULTI_HOST_ONLY,
                             .fn.reduce_scatter = comm_coll_reduce_scatter_hier},
};

const size_t comm_coll_reduce_scatter_nalgorithms =
    sizeof(comm_coll_reduce_scatter_algorithms) / sizeof(comm_coll_reduce_scatter_algorithms[0]);

/*
 * Sizes (bytes of the whole vector, which is what the API describes for both forms) where the
 * choice changes, from the OSU-style benchmark at 2 to 8 ranks on one host: below LONG the
 * reduce of the whole vector and its scatter cost no more than the halving; from there the
 * halving, which moves and reduces each element about once, wins, until for a
 * non-power-of-two size its fold of a whole vector costs more, from RING_LONG, than the
 * ring's p-1 steps.
 */
enum {
    REDUCE_SCATTER_LONG = 16 << 10,
    REDUCE_SCATTER_RING_LONG = 128 << 10,
};

size_t comm_coll_reduce_scatter_choose(const struct comm_coll_call *call)
{
    int size = call->comm->size;

    /* Across racks each group's part crosses its uplink once (coll/hier/hier.h). */
    if (call->op != NULL && call->op->commutative &&
        call->bytes >= comm_coll_hier_floor(COMM_COLL_HIER_REDUCE_SCATTER_FLOOR) &&
        comm_coll_hier_spans_switches(call->comm)) {
        return REDUCE_SCATTER_HIER;
    }
    /* reduce_scatterv keeps rank order. */
    if (size == 1 || call->op == NULL || !call->op->commutative ||
        call->bytes < REDUCE_SCATTER_LONG) {
        return REDUCE_SCATTER_REDUCE_SCATTERV;
    }
    if ((size & (size - 1)) == 0 || call->bytes < REDUCE_SCATTER_RING_LONG) {
        return REDUCE_SCATTER_RECURSIVE_HALVING;
    }
    return REDUCE_SCATTER_RING;
}
