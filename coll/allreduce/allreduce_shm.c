/*
 * allreduce_shm.c - shared-memory allreduce for communicators whose members all run on this
 * host.
 *
 * As the shm reduce (coll/reduce/reduce_shm.c): pieces of one slot, every rank copies its
 * piece into its own slot of the communicator's segment (coll/shm/coll_shm.h), combines its
 * 1/p share across all slots in rank order (so non-commutative operations are right), and
 * then every rank copies the whole result out.  Two sets of slots alternate, so the next
 * piece is copied in while this one is copied out.  A short vector ((p-1)n up to
 * COMM_COLL_SHM_FOLD_BYTES) is folded whole by every rank, in the same order, which needs one
 * wait for all instead of two.  Every rank gets the very same bytes.
 * Wins: on one host, at every size measured (2-8 ranks, 8 B-16 MiB): the message is combined
 * once, shared among the ranks, where recursive doubling combines it whole log2 p times.
 * Cost: per piece two waits for all ranks; per rank n bytes copied in, (p-1)n/p combined, n
 * copied out.
 * Restrictions: every member on this host, an element of at most 64 KiB and a positive
 * extent; otherwise (and when the segment cannot be made) it is recursive doubling.
 */
#include "config.h"

#include "coll/allreduce/allreduce.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_allreduce_shm(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                            struct comm_op *op, struct comm_communicator *comm)
{
    struct comm_coll_shm *shm = NULL;
    int err = MPI_SUCCESS;

    if (comm_coll_shm_reduce_fits(dt)) {
        bool now = (size_t)(count * dt->size) > COMM_COLL_SHM_LINE_BYTES ||
                   comm_coll_is_forced(comm, COMM_COLL_ALLREDUCE);

        err = comm_coll_shm_get(comm, now, &shm);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (shm == NULL || !comm_coll_shm_slots_ready(shm)) {
        return comm_coll_allreduce_recursive_doubling(sbuf, rbuf, count, dt, op, comm);
    }
    return comm_coll_shm_reduce(shm, sbuf, rbuf, count, dt, op, COMM_COLL_SHM_ALL);
}
