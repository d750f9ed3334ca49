/*
 * barrier_shm.c - shared-memory barrier for communicators whose members all run on this host.
 *
 * Every rank publishes the next step on its own cache line of the communicator's segment
 * (coll/shm/coll_shm.h), then waits until every line shows that step: a rank leaves only
 * when all have entered.  No message is sent (except once, to make the segment).
 * Wins: on one host, always; it costs one cache-line handoff per rank instead of ceil(log2 p)
 * message latencies.  Cost: one store and p line reads per rank.  Restrictions: every member
 * on this host; otherwise (and when the segment cannot be made) it is the dissemination
 * barrier.
 */
#include "config.h"

#include "coll/barrier/barrier.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"

int comm_coll_barrier_shm(struct comm_communicator *comm)
{
    struct comm_coll_shm *shm;
    int err = comm_coll_shm_get(comm, comm_coll_is_forced(comm, COMM_COLL_BARRIER), &shm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (shm == NULL) {
        return comm_coll_barrier_dissemination(comm);
    }
    shm->step++;
    comm_coll_shm_post(shm, shm->step);
    comm_coll_shm_wait_all(shm, shm->step);
    return MPI_SUCCESS;
}
