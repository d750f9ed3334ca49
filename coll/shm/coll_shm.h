/*
 * coll_shm.h - the shared-memory segment that the shm collective algorithms of a host-local
 * communicator work in, and the waiting and copying they share.
 *
 * Layer: coll.  Must not: be used on a communicator whose members are not all on this host;
 * send point-to-point messages except while making the segment.
 *
 * Life cycle: the segment is made at the first shm collective on a communicator that moves
 * more than a control line holds, or at the first one after COMM_COLL_SHM_LAZY small ones
 * (which the callers run with messages: a communicator that lives for a few barriers never
 * pays for a segment), or at the first one of an algorithm forced with COMM_COLL_<OP>.  That
 * is a collective step: every member takes part, at the same call, since every member makes
 * the same calls with the same sizes.  The segment lives in comm->coll_state until the communicator
 * is freed or the library finalizes; freeing only unmaps it, with no message.  Rank 0 creates the
 * file
 * /<nspace>.coll.<context>.<world rank of rank 0>, the others map it, and rank 0 unlinks it
 * once every member has agreed that it could map it, so nothing stays in /dev/shm.  When any
 * member fails, all of them learn it and the communicator keeps the message-based algorithms
 * for good.  Only the control lines' memory is reserved then (a barrier needs no more); rank 0
 * reserves the slots' at the first broadcast or reduction and says on its line whether it
 * could, so a full /dev/shm sends the communicator back to messages instead of raising SIGBUS.
 *
 * Layout: one control line per rank (only its rank writes it), then two mailboxes per rank
 * (below), then 2 * size data slots of slot_size bytes.  Each rank's line holds a step counter
 * that only grows: every member goes through the same steps in the same order (collectives are
 * called in the same order everywhere), so a counter value names the same point of the same
 * collective on every rank, and "every rank has reached step S" is what the algorithms wait
 * for.  The owner of a line publishes a step with a release store after its writes to the
 * slots; a reader loads it with acquire before reading them.  No counter is ever reset.
 *
 * Slots are reused without a handshake of their own: before writing into a slot a rank waits
 * until every rank has reached the step after which nobody reads the slot's old contents
 * (comm_coll_shm's free_at, the same on every rank because every rank does the same steps).
 * The data a root puts in its own control line (a broadcast of a few bytes, which then travel
 * in the line that announces them) are reused the same way (line_free_at).
 *
 * Mailboxes: for a few bytes per rank the data travel in the line that says they are there, so
 * a reader takes one handoff per peer instead of two (the step's line, then the slot's).  Each
 * rank has two, used alternately by the mail exchanges, which count their own steps
 * (mail_step, the same on every rank).  A mail exchange is all-to-all: every rank posts, then
 * waits for every other rank's mailbox of this exchange.  That is what lets a rank rewrite its
 * mailbox two exchanges later without a handshake: it has seen every rank post the exchange in
 * between, and a rank posts only after it has read everything of the exchange before.
 *
 * Threads: as for every collective (coll.h): one thread at a time per communicator, without
 * the core lock.
 */
#ifndef COMM_COLL_SHM_H
#define COMM_COLL_SHM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coll/coll.h"

/* A slot is the largest piece of a message one rank puts in the segment at a time; larger
 * messages go through in pieces, pipelined over the slots.  Larger slots mean fewer handoffs
 * (256 KiB pieces move large messages 10-40% faster than 64 KiB ones here), so a communicator
 * gets the largest slots, from COMM_COLL_SHM_SLOT_MIN to COMM_COLL_SHM_SLOT_MAX, whose 2p fit
 * in COMM_COLL_SHM_DATA bytes: 256 KiB up to 8 ranks, 64 KiB from 32. */
enum {
    COMM_COLL_SHM_SLOT_MIN = 64 * 1024,
    COMM_COLL_SHM_SLOT_MAX = 256 * 1024,
    COMM_COLL_SHM_DATA = 4 * 1024 * 1024,
};

/* Reductions of vectors up to this many bytes times (p - 1) are folded whole by every rank that
 * wants the result (one wait) rather than shared out (two waits per piece). */
enum { COMM_COLL_SHM_FOLD_BYTES = 64 * 1024 };

/* What a rank's control line carries besides its step: a broadcast of up to this many bytes
 * from that rank as root (the rest of the 128-byte line pair). */
enum { COMM_COLL_SHM_LINE_BYTES = 128 - 16 };

/* One rank's control line: never shares a cache line (or the adjacent-line prefetch pair) with
 * another rank's. */
struct comm_coll_shm_line {
    _Alignas(128) _Atomic uint64_t step;
    _Atomic uint32_t slots; /* rank 0's line only: COMM_COLL_SHM_SLOTS_* */
    char data[COMM_COLL_SHM_LINE_BYTES];
};

/* Whether the data slots can be used: rank 0 reserves their memory at their first use. */
enum { COMM_COLL_SHM_SLOTS_UNKNOWN, COMM_COLL_SHM_SLOTS_READY, COMM_COLL_SHM_SLOTS_REFUSED };

/* A rank's mailbox: a step and up to COMM_COLL_SHM_MAIL_BYTES of data, the first 120 of them
 * in the step's line pair; a reader who saw the step asks for the other lines all at once. */
enum { COMM_COLL_SHM_MAIL_BYTES = 512 - 8 };

struct comm_coll_shm_mail {
    _Alignas(128) _Atomic uint64_t step;
    char data[COMM_COLL_SHM_MAIL_BYTES];
};

/* One communicator's segment, as this process sees it.  Owned by the communicator
 * (coll_state); used by the thread in its collective. */
struct comm_coll_shm {
    bool usable;     /* false: the segment could not be made; use message-based algorithms */
    int slots_state; /* COMM_COLL_SHM_SLOTS_*, as this rank last saw it */
    int fd;          /* rank 0, until the slots are reserved: the segment's file; else -1 */
    int rank, size;  /* the communicator's */
    void *base;      /* the mapping */
    size_t len;      /* of the mapping */
    struct comm_coll_shm_line *lines; /* size of them */
    struct comm_coll_shm_mail *mail;  /* 2 * size of them: exchange k uses [(k & 1) * size] */
    uint64_t mail_step;               /* the last mail exchange this rank posted */
    char *slots;                      /* nslots * slot_size bytes */
    size_t slot_size;                 /* the same on every rank: it follows from size */
    unsigned nslots;                  /* 2 * size */
    uint64_t step;                    /* the last step this rank published */
    uint64_t *free_at;                /* per slot: the step every rank must reach first */
    uint64_t line_free_at;            /* the same for the lines' data: the last step using any */
    unsigned next_ring;               /* broadcasts: the next slot of the ring */
    unsigned next_half;               /* reductions: the half of the slots to use next */
};

/*
 * The segment of COMM, made at the first call with NOW set, or at the first after
 * COMM_COLL_SHM_LAZY calls without (a collective step on COMM: every member must call it at the
 * same point, with the same NOW).  Callers set NOW when the call needs the slots or its
 * algorithm was forced.  *shm_out is NULL when COMM cannot use one (not host-local, a single
 * rank, not made yet, or the segment could not be made on some member, which every member then
 * knows); the caller falls back to a message-based algorithm.  Returns MPI_SUCCESS, or the
 * MPI error of a failed message while agreeing (then *shm_out is NULL).
 */
int comm_coll_shm_get(struct comm_communicator *comm, bool now, struct comm_coll_shm **shm_out);

/* Whether the shared-memory algorithms may serve COMM: every member on this host, and shared
 * memory not turned off with COMM_SHM=0. */
bool comm_coll_shm_allowed(const struct comm_communicator *comm);

/* Whether the data slots can be used; at the first call on a communicator (every member calls
 * it at the same point, with no message), rank 0 reserves their memory and tells the others
 * whether it could.  When it could not, every member keeps message-based algorithms for
 * everything but the barrier. */
bool comm_coll_shm_slots_ready(struct comm_coll_shm *shm);

/* The slot bytes of a communicator of SIZE ranks (see COMM_COLL_SHM_DATA): a multiple of the
 * page, the same on every member. */
size_t comm_coll_shm_slot_size(int size);

/*
 * The next half of the slots (size of them, one a rank; returns the first one's index), once
 * every rank is done with their last use; then release them with the step after which nobody
 * reads them again.  Reductions and all-to-all exchanges take halves in turn.
 */
unsigned comm_coll_shm_claim_half(struct comm_coll_shm *shm);
void comm_coll_shm_release_half(struct comm_coll_shm *shm, unsigned half, uint64_t step);

/* Slot I (0 <= I < nslots). */
static inline char *comm_coll_shm_slot(const struct comm_coll_shm *shm, unsigned i)
{
    return shm->slots + (size_t)i * shm->slot_size;
}

/* Publishes STEP (>= the last one) on this rank's line, after every write before it. */
void comm_coll_shm_post(struct comm_coll_shm *shm, uint64_t step);

/* Waits until rank RANK, or every rank, has published STEP or a later one; every write they
 * made before publishing it is then visible.  Keeps point-to-point moving, and yields the
 * core when ranks outnumber cores. */
void comm_coll_shm_wait(const struct comm_coll_shm *shm, int rank, uint64_t step);
void comm_coll_shm_wait_all(const struct comm_coll_shm *shm, uint64_t step);

/* A mail exchange: comm_coll_shm_mail_begin returns this rank's mailbox for the next exchange
 * (COMM_COLL_SHM_MAIL_BYTES to fill), comm_coll_shm_mail_post publishes it, and
 * comm_coll_shm_mail_read waits for RANK's of the same exchange and returns its data (this
 * rank's own too).  Every rank must read every other rank's mailbox before its next
 * exchange. */
char *comm_coll_shm_mail_begin(struct comm_coll_shm *shm);
void comm_coll_shm_mail_post(struct comm_coll_shm *shm);
const char *comm_coll_shm_mail_read(const struct comm_coll_shm *shm, int rank);

/* Copies COUNT elements of DT laid out from SRC to the same layout at DST; touches nothing
 * of DST but the type's data bytes.  SRC and DST must not overlap. */
void comm_coll_shm_copy(const void *src, void *dst, MPI_Count count,
                        const struct comm_datatype *dt);

/*
 * Reduction of COUNT elements of DT with OP, in rank order, through the segment: the result
 * goes to RBUF on ROOT, or on every rank when ROOT is COMM_COLL_SHM_ALL.  SBUF may equal RBUF.
 * Returns MPI_SUCCESS, or MPI_ERR_OP when OP fails on DT.  The caller has checked that
 * comm_coll_shm_reduce_fits(DT).
 */
enum { COMM_COLL_SHM_ALL = -1 };
int comm_coll_shm_reduce(struct comm_coll_shm *shm, const void *sbuf, void *rbuf, MPI_Count count,
                         struct comm_datatype *dt, struct comm_op *op, int root);

/* Whether elements of DT can go through the slots in memory layout (a positive extent and an
 * element that fits a slot). */
bool comm_coll_shm_reduce_fits(const struct comm_datatype *dt);

#endif
