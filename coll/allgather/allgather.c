/*
 * allgather.c - the registry of allgather algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/allgather/allgather.h"

const struct comm_coll_algorithm comm_coll_allgather_algorithms[] = {
    {.name = "ring", .fn.allgatherv = comm_coll_allgather_ring},
    {.name = "recursive_doubling", .fn.allgatherv = comm_coll_allgather_recursive_doubling},
    {.name = "bruck", .fn.allgatherv = comm_coll_allgather_bruck},
};

const size_t comm_coll_allgather_nalgorithms =
    sizeof(comm_coll_allgather_algorithms) / sizeof(comm_coll_allgather_algorithms[0]);

size_t comm_coll_allgather_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
