/*
 * reduce_scatter.c - the registry of reduce-scatter algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/reduce_scatter/reduce_scatter.h"

const struct comm_coll_algorithm comm_coll_reduce_scatter_algorithms[] = {
    {.name = "reduce_scatterv", .fn.reduce_scatter = comm_coll_reduce_scatter_reduce_scatterv},
    {.name = "recursive_halving",
     .restrictions = COMM_COLL_COMMUTATIVE_ONLY,
     .fn.reduce_scatter = comm_coll_reduce_scatter_recursive_halving},
    {.name = "ring",
     .restrictions = COMM_COLL_COMMUTATIVE_ONLY,
     .fn.reduce_scatter = comm_coll_reduce_scatter_ring},
};

const size_t comm_coll_reduce_scatter_nalgorithms =
    sizeof(comm_coll_reduce_scatter_algorithms) / sizeof(comm_coll_reduce_scatter_algorithms[0]);

size_t comm_coll_reduce_scatter_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
