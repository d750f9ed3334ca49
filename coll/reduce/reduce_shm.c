/*
 * reduce_shm.c - shared-memory reduce for communicators whose members all run on this host.
 *
 * The message goes through in pieces of one slot (COMM_COLL_SHM_SLOT bytes, whole elements,
 * in the datatype's memory layout): every rank copies its piece into its own slot of the
 * communicator's segment (coll/shm/coll_shm.h); then each rank combines its 1/p share of the
 * piece across all the slots, in rank order (s0 op (s1 op (... op s(p-1))), so
 * non-commutative operations are right); the root copies the result out.  Two sets of slots
 * alternate, so the next piece is copied in while the root copies this one out.
 * Wins: on one host, for all but perhaps the shortest messages: every rank does 1/p of the
 * combining and no rank copies more than twice the message.  Cost: per piece three flag
 * handoffs; per rank n bytes copied in and (p-1)n/p combined, n bytes copied out at the root.
 * Restrictions: every member on this host, an element of at most one slot and a positive
 * extent; otherwise (and when the segment cannot be made) it is the binomial reduce.
 */
#include "config.h"

#include "coll/reduce/reduce.h"
#include "coll/shm/coll_shm.h"
#include "runtime/communicator.h"
#include "runtime/datatype.h"

int comm_coll_reduce_shm(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                         struct comm_op *op, int root, struct comm_communicator *comm)
{
    struct comm_coll_shm *shm = NULL;
    int err = MPI_SUCCESS;

    if (comm_coll_shm_reduce_fits(dt)) {
        err = comm_coll_shm_get(comm, &shm);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (shm == NULL || !comm_coll_shm_slots_ready(shm)) {
        return comm_coll_reduce_binomial(sbuf, rbuf, count, dt, op, root, comm);
    }
    return comm_coll_shm_reduce(shm, sbuf, rbuf, count, dt, op, root);
}
