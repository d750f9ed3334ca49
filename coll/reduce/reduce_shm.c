/*
 * reduce_shm.c - shared-memory reduce for communicators whose members all run on this host.
 *
 * The message goes through in pieces of one slot (64-256 KiB, see coll_shm.h; whole elements,
 * in the datatype's memory layout): every rank copies its piece into its own slot of the
 * communicator's segment (coll/shm/coll_shm.h); then each rank combines its 1/p share of the
 * piece across all the slots, in rank order (s0 op (s1 op (... op s(p-1))), so
 * non-commutative operations are right); the root copies the result out.  Two sets of slots
 * alternate, so the next piece is copied in while the root copies this one out.  A short
 * vector ((p-1)n up to COMM_COLL_SHM_FOLD_BYTES) is folded whole by the root, and the others
 * leave as soon as their vector is in their slot.
 * Wins: on one host, at every size measured (2-8 ranks, 8 B-16 MiB): one handoff instead of
 * log2 p messages for short vectors, and for long ones every rank combines 1/p of the message
 * where a tree combines it whole log2 p times.  Cost: per piece two waits for all ranks; per
 * rank n bytes copied in and (p-1)n/p combined, n bytes copied out at the root.
 * Restrictions: every member on this host, an element of at most 64 KiB and a positive
 * extent; otherwise (and when the segment cannot be made) it is the binomial reduce.
 */
#include "config.h"

#include "coll/reduce/reduce.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_reduce_shm(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                         struct comm_op *op, int root, struct comm_communicator *comm)
{
    struct comm_coll_shm *shm = NULL;
    int err = MPI_SUCCESS;

    if (comm_coll_shm_reduce_fits(dt)) {
        bool now = (size_t)(count * dt->size) > COMM_COLL_SHM_LINE_BYTES ||
                   comm_coll_is_forced(comm, COMM_COLL_REDUCE);

        err = comm_coll_shm_get(comm, now, &shm);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (shm == NULL || !comm_coll_shm_slots_ready(shm)) {
        return comm_coll_reduce_binomial(sbuf, rbuf, count, dt, op, root, comm);
    }
    return comm_coll_shm_reduce(shm, sbuf, rbuf, count, dt, op, root);
}
