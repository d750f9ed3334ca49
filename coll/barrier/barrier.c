/*
 * barrier.c - the registry of barrier algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/barrier/barrier.h"
#include "coll/shm/coll_shm.h"
#include "runtime/communicator.h"

const struct comm_coll_algorithm comm_coll_barrier_algorithms[] = {
    {.name = "dissemination", .fn.barrier = comm_coll_barrier_dissemination},
    {.name = "shm", .restrictions = COMM_COLL_HOST_LOCAL_ONLY, .fn.barrier = comm_coll_barrier_shm},
};

const size_t comm_coll_barrier_nalgorithms =
    sizeof(comm_coll_barrier_algorithms) / sizeof(comm_coll_barrier_algorithms[0]);

/* Index of each algorithm in the table above. */
enum { BARRIER_DISSEMINATION, BARRIER_SHM };

/* On one host a barrier is a handoff of cache lines, which beats log2 p message latencies (or
 * ties with them when ranks outnumber cores); across hosts, dissemination. */
size_t comm_coll_barrier_choose(const struct comm_coll_call *call)
{
    return comm_coll_shm_allowed(call->comm) && call->comm->size > 1 ? BARRIER_SHM : BARRIER_DISSEMINATION;
}
