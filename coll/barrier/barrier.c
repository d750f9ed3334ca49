/*
 * barrier.c - the registry of barrier algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/barrier/barrier.h"

const struct comm_coll_algorithm comm_coll_barrier_algorithms[] = {
    {.name = "dissemination", .fn.barrier = comm_coll_barrier_dissemination},
    {.name = "shm", .fn.barrier = comm_coll_barrier_shm},
};

const size_t comm_coll_barrier_nalgorithms =
    sizeof(comm_coll_barrier_algorithms) / sizeof(comm_coll_barrier_algorithms[0]);

size_t comm_coll_barrier_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
