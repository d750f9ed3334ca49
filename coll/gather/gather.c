/*
 * gather.c - the registry of gather algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/gather/gather.h"

const struct comm_coll_algorithm comm_coll_gather_algorithms[] = {
    {.name = "linear", .fn.gatherv = comm_coll_gather_linear},
    {.name = "binomial",
     .restrictions = COMM_COLL_UNIFORM_ONLY,
     .fn.gatherv = comm_coll_gather_binomial},
};

const size_t comm_coll_gather_nalgorithms =
    sizeof(comm_coll_gather_algorithms) / sizeof(comm_coll_gather_algorithms[0]);

size_t comm_coll_gather_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
