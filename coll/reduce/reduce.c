/*
 * reduce.c - the registry of reduce algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/reduce/reduce.h"

const struct comm_coll_algorithm comm_coll_reduce_algorithms[] = {
    {.name = "binomial", .fn.reduce = comm_coll_reduce_binomial},
    {.name = "shm", .fn.reduce = comm_coll_reduce_shm},
};

const size_t comm_coll_reduce_nalgorithms =
    sizeof(comm_coll_reduce_algorithms) / sizeof(comm_coll_reduce_algorithms[0]);

size_t comm_coll_reduce_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
