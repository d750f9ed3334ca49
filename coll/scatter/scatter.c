/*
 * scatter.c - the registry of scatter algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/scatter/scatter.h"

const struct comm_coll_algorithm comm_coll_scatter_algorithms[] = {
    {.name = "linear", .fn.scatterv = comm_coll_scatter_linear},
    {.name = "binomial",
     .restrictions = COMM_COLL_UNIFORM_ONLY,
     .fn.scatterv = comm_coll_scatter_binomial},
};

const size_t comm_coll_scatter_nalgorithms =
    sizeof(comm_coll_scatter_algorithms) / sizeof(comm_coll_scatter_algorithms[0]);

size_t comm_coll_scatter_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
