/*
 * bcast.c - the registry of broadcast algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/bcast/bcast.h"

const struct comm_coll_algorithm comm_coll_bcast_algorithms[] = {
    {.name = "binomial", .fn.bcast = comm_coll_bcast_binomial},
    {.name = "scatter_allgather", .fn.bcast = comm_coll_bcast_scatter_allgather},
    {.name = "chain", .fn.bcast = comm_coll_bcast_chain},
};

const size_t comm_coll_bcast_nalgorithms =
    sizeof(comm_coll_bcast_algorithms) / sizeof(comm_coll_bcast_algorithms[0]);

size_t comm_coll_bcast_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
