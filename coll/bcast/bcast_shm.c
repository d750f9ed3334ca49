/*
 * bcast_shm.c - shared-memory broadcast for communicators whose members all run on this host.
 *
 * The root packs the message, one slot (64-256 KiB, see coll_shm.h) at a time, into a ring of
 * 2p slots of the communicator's segment (coll/shm/coll_shm.h) and publishes each piece with
 * its step counter; the others unpack each piece as soon as it is published and publish that
 * they have.  The root reuses a slot once every rank has read it, so it can run up to 2p
 * pieces ahead of the slowest reader: the copies in and out overlap.  Derived datatypes are
 * packed and unpacked at any byte offset, so the root and the others may use different types
 * of the same signature.  A message of up to COMM_COLL_SHM_LINE_BYTES travels in the root's
 * control line instead, with the step that announces it.
 * Wins: on one host, from the shortest messages (one handoff instead of log2 p message
 * latencies) to the longest (every rank copies the message once, all at the same time, where
 * a tree moves it log2 p times in sequence).  Cost: the root copies n bytes in, every other
 * rank n bytes out; one flag handoff per piece.  Restrictions: every member on this host;
 * otherwise (and when the segment cannot be made) it is the binomial broadcast.
 */
#include "config.h"

#include "coll/bcast/bcast.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

/* A message that fits the root's control line goes in it: the others take it with the step
 * that announces it, in one cache-line handoff instead of two (the step's, then a slot's). */
static void bcast_shm_line(void *buf, MPI_Count count, struct comm_datatype *dt, size_t total,
                           int root, struct comm_coll_shm *shm)
{
    uint64_t step = shm->step + 1;

    if (shm->rank == root) {
        comm_coll_shm_wait_all(shm, shm->line_free_at);
        comm_datatype_pack(dt, buf, count, 0, shm->lines[root].data, total);
    } else {
        comm_coll_shm_wait(shm, root, step);
        comm_datatype_unpack(dt, buf, count, 0, shm->lines[root].data, total);
    }
    comm_coll_shm_post(shm, step);
    shm->step = step;
    shm->line_free_at = step;
}

int comm_coll_bcast_shm(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                        struct comm_communicator *comm)
{
    struct comm_coll_shm *shm;
    struct comm_dt_cursor cursor;
    size_t total = (size_t)count * (size_t)dt->size;
    bool now = total > COMM_COLL_SHM_LINE_BYTES || comm_coll_is_forced(comm, COMM_COLL_BCAST);
    int err = comm_coll_shm_get(comm, now, &shm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (shm != NULL && total > 0 && total <= COMM_COLL_SHM_LINE_BYTES) {
        bcast_shm_line(buf, count, dt, total, root, shm);
        return MPI_SUCCESS;
    }
    if (shm == NULL || !comm_coll_shm_slots_ready(shm)) {
        return comm_coll_bcast_binomial(buf, count, dt, root, comm);
    }
    comm_datatype_cursor_init(&cursor, dt, buf, count, 0);
    for (size_t done = 0; done < total; done += shm->slot_size) {
        size_t len = total - done < shm->slot_size ? total - done : shm->slot_size;
        unsigned slot = shm->next_ring;
        uint64_t step = shm->step + 1;

        shm->next_ring = (slot + 1) % shm->nslots;
        if (comm->rank == root) {
            comm_coll_shm_wait_all(shm, shm->free_at[slot]);
            comm_datatype_cursor_pack(&cursor, comm_coll_shm_slot(shm, slot), len);
        } else {
            comm_coll_shm_wait(shm, root, step);
            comm_datatype_cursor_unpack(&cursor, comm_coll_shm_slot(shm, slot), len);
        }
        comm_coll_shm_post(shm, step);
        shm->step = step;
        shm->free_at[slot] = step;
    }
    return MPI_SUCCESS;
}
