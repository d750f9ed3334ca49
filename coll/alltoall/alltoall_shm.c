/*
 * alltoall_shm.c - shared-memory all-to-all for communicators whose members all run on this
 * host, for short blocks.
 *
 * Every rank packs its p blocks, one after another, into its own slot of the communicator's
 * segment (coll/shm/coll_shm.h) and publishes a step; once every rank has published it, each
 * rank unpacks block `rank` of every slot into its receive buffer, and publishes that it is
 * done (the slots' next writer waits for that, two exchanges later).  Two sets of slots
 * alternate, as for the reductions.
 * Wins: on one host, while a rank's p blocks fit a slot (256 KiB up to 8 ranks): one wait for
 * all ranks instead of p-1 messages each way, and no rendezvous for blocks above the eager size
 * (4 ranks, 8 KiB: 7-9 against 17-19 us; 64 KiB: 26-28 against 56-72 us; 8 ranks, 32 KiB: 47
 * against 194-204 us).  Cost: per rank p blocks copied in and p copied out, which on 2 ranks
 * loses to one copy by the pairwise exchange from 32 KiB.
 * When a rank's p blocks fit its mailbox (COMM_COLL_SHM_MAIL_BYTES), they go there instead: the
 * step shares their line, so a peer takes one handoff, and no second step releases a slot
 * (2 ranks, 8 to 128 B: 0.17-0.18 against 0.22-0.23 us through the slots, best of 7 runs;
 * Open MPI 0.21-0.22).
 * Restrictions: every member on this host, the plain form (every block the same size), and p
 * blocks that fit a slot; otherwise (and when the segment cannot be made) it is the pairwise
 * exchange.  With MPI_IN_PLACE the blocks are packed from the receive buffer before anything
 * is written to it.
 */
#include "config.h"

#include "coll/alltoall/alltoall.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdbool.h>

int comm_coll_alltoall_shm(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                           struct comm_datatype *const *sdts, void *rbuf, const int *rcounts,
                           const MPI_Aint *rdispls, struct comm_datatype *const *rdts,
                           struct comm_communicator *comm)
{
    struct comm_coll_shm *shm = NULL;
    const void *from = sbuf == NULL ? rbuf : sbuf; /* in place: packed before any unpacking */
    int p = comm->size, me = comm->rank, err;
    /* The plain form: one block size everywhere, on every rank (what makes the choice the
     * same on every member). */
    size_t block = (size_t)rcounts[0] * rdts[0]->size, sblock, take;
    const int *fcounts = sbuf == NULL ? rcounts : scounts;
    const MPI_Aint *fdispls = sbuf == NULL ? rdispls : sdispls;
    struct comm_datatype *const *fdts = sbuf == NULL ? rdts : sdts;
    unsigned half = 0;
    uint64_t step = 0;
    char *out;
    bool mail;

    sblock = (size_t)fcounts[0] * fdts[0]->size;
    /* A send block of another size than the receive blocks (an erroneous call) moves what
     * fits, and says so, without leaving the others waiting. */
    take = sblock < block ? sblock : block;
    err = block * (size_t)p <= comm_coll_shm_slot_size(p)
              ? comm_coll_shm_get(comm, block * (size_t)p > COMM_COLL_SHM_MAIL_BYTES, &shm)
              : MPI_SUCCESS;
    if (err != MPI_SUCCESS) {
        return err;
    }
    /* A few bytes in all (8-byte blocks up to 63 ranks) go through the mailboxes: one wait per
     * peer, and no step to release the slots. */
    mail = shm != NULL && block * (size_t)p <= COMM_COLL_SHM_MAIL_BYTES;
    if (!mail && (shm == NULL || !comm_coll_shm_slots_ready(shm))) {
        return comm_coll_alltoall_pairwise(sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls,
                                           rdts, comm);
    }
    if (mail) {
        out = comm_coll_shm_mail_begin(shm);
    } else {
        half = comm_coll_shm_claim_half(shm);
        step = shm->step;
        out = comm_coll_shm_slot(shm, half + (unsigned)me);
    }
    for (int r = 0; r < p; r++) {
        comm_datatype_pack(fdts[r], (const char *)from + fdispls[r], fcounts[r], 0,
                           out + (size_t)r * block, take);
    }
    if (mail) {
        comm_coll_shm_mail_post(shm);
    } else {
        comm_coll_shm_post(shm, step + 1);
        comm_coll_shm_wait_all(shm, step + 1);
    }
    for (int i = 0; i < p; i++) {
        int r = (me + i) % p;
        const char *in =
            mail ? comm_coll_shm_mail_read(shm, r) : comm_coll_shm_slot(shm, half + (unsigned)r);

        comm_datatype_unpack(rdts[r], (char *)rbuf + rdispls[r], rcounts[r], 0,
                             in + (size_t)me * block, take);
    }
    if (!mail) {
        comm_coll_shm_post(shm, step + 2);
        shm->step = step + 2;
        comm_coll_shm_release_half(shm, half, step + 2);
    }
    return sblock == block ? MPI_SUCCESS : MPI_ERR_TRUNCATE;
}
