/*
 * barrier.c - the registry of barrier algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/barrier/barrier.h"
#include "coll/hier/hier.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"

const struct comm_coll_algorithm comm_coll_barrier_algorithms[] = {
    {.name = "dissemination", .fn.barrier = comm_coll_barrier_dissemination},
    {.name = "shm", .restrictions = COMM_COLL_HOST_LOCAL_ONLY, .fn.barrier = comm_coll_barrier_shm},
    {.name = "hier", .restrictions = COMM_COLL_MULTI_HOST_ONLY, .fn.barrier = comm_coll_barrier_hier},
};

const size_t comm_coll_barrier_nalgorithms =
    sizeof(comm_coll_barrier_algorithms) / sizeof(comm_coll_barrier_algorithms[0]);

/* Index of each algorithm in the table above. */
enum { BARRIER_DISSEMINATION, BARRIER_SHM, BARRIER_HIER };

/* On one host a barrier is a handoff of cache lines, which beats log2 p message latencies (or
 * ties with them when ranks outnumber cores); across hosts with several ranks in one, the
 * hierarchy (one message per host goes out; hier.h); else dissemination. */
size_t comm_coll_barrier_choose(const struct comm_coll_call *call)
{
    if (comm_coll_shm_allowed(call->comm) && call->comm->size > 1) {
        return BARRIER_SHM;
    }
    return comm_coll_hier_pays(call->comm) ? BARRIER_HIER : BARRIER_DISSEMINATION;
}
