/*
 * alltoall.c - the registry of all-to-all algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/alltoall/alltoall.h"

const struct comm_coll_algorithm comm_coll_alltoall_algorithms[] = {
    {.name = "pairwise", .fn.alltoallw = comm_coll_alltoall_pairwise},
    {.name = "bruck",
     .restrictions = COMM_COLL_UNIFORM_ONLY,
     .fn.alltoallw = comm_coll_alltoall_bruck},
};

const size_t comm_coll_alltoall_nalgorithms =
    sizeof(comm_coll_alltoall_algorithms) / sizeof(comm_coll_alltoall_algorithms[0]);

size_t comm_coll_alltoall_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
