/*
 * rma_int.h - what the files of rma/ share: the messages on a window's context, and helpers.
 *
 * Layer: rma.  Private to rma/.
 *
 * Messages travel on the window's own communicator (point-to-point context), by tag:
 *   OP    origin -> target: an operation or a control message (struct rma_hdr, then the
 *         target type's description when it is derived, then the data when it fits the
 *         target's slots).  The target keeps COMM_RMA_SLOTS receives posted for them, from any
 *         origin, and carries them out in the order they matched, so what one origin sends is
 *         done in the order it was sent.  A message sent after a fence the target has not
 *         finished yet waits (held, with what its origin sends after it) until it has.
 *   DATA  origin -> target: the data of a put or accumulate too large for a slot, right after
 *         its OP; the target receives a put's straight into the window.
 *   RESP  target -> origin: what a get, get-accumulate or compare-and-swap fetched, received
 *         by the origin straight into its buffer (posted before the OP left).
 *   ACK   target -> origin: a lock granted, an unlock or flush carried out.
 *   POST  target -> origin: MPI_Win_post.
 *   REGIONS target -> origin: the memory attached to a dynamic window (base, length pairs), the
 *         answer to a REGIONS control message.
 *   COMPLETE origin -> target: MPI_Win_complete, with the number of data messages the origin
 *         has sent the target, ever: the target's MPI_Win_wait waits until it carried out as
 *         many from it.
 */
#ifndef COMM_RMA_INT_H
#define COMM_RMA_INT_H

#include "rma/rma.h"
#include "runtime/datatype/datatype.h"

#include <stdint.h>

struct comm_request;

enum {
    RMA_TAG_OP = 1,
    RMA_TAG_DATA = 2,
    RMA_TAG_RESP = 3,
    RMA_TAG_ACK = 4,
    RMA_TAG_POST = 5,
    RMA_TAG_COMPLETE = 6,
    RMA_TAG_REGIONS = 7,
};

/* Message types (the data ones are the comm_rma_kind values). */
enum {
    RMA_AM_LOCK = 10,
    RMA_AM_UNLOCK,
    RMA_AM_FLUSH,
    RMA_AM_REGIONS,
};

/* Most regions a dynamic window's target tells an origin about. */
enum { RMA_MAX_REGIONS = 1024 };

enum {
    RMA_HDR_INLINE = 1 << 0, /* the data follows the header (and the type description) */
    RMA_HDR_DT = 1 << 1,     /* a derived target type's description follows the header */
    RMA_HDR_ACK = 1 << 2,    /* unlock: answer when done */
};

struct rma_hdr {
    uint8_t type;
    uint8_t flags;
    uint8_t lock; /* LOCK, UNLOCK: 1 shared, 2 exclusive */
    uint8_t pad;
    uint32_t op; /* ACC, GET_ACC: the predefined op's handle */
    uint32_t dt_len;
    uint32_t epoch; /* the fences the origin had completed when it sent this */
    uint64_t disp;  /* bytes from the window's base (dynamic: an address) */
    int64_t tcount;
    uint64_t tdt; /* a predefined target type's handle (no RMA_HDR_DT) */
    uint64_t len; /* bytes of data (packed) */
};

/* Bytes a slot receives: a header, a small type description and data. */
enum { RMA_SLOT_BYTES = 8192 };

/* The lock word: exclusive, or a count of shared holders. */
#define RMA_LOCK_EXCL (UINT64_C(1) << 63)

/* MPI_BYTE, the type of the window's own messages. */
static inline struct comm_datatype *rma_byte(void)
{
    return comm_datatype_lookup(MPI_BYTE);
}

/* Lock words and the accumulate lock (rma_target.c). */
bool comm_rma_try_lock(struct comm_rma_ctl *ctl, int lock_type);
void comm_rma_unlock_ctl(struct comm_rma_ctl *ctl, int lock_type);
void comm_rma_acc_lock(struct comm_rma_ctl *ctl);
void comm_rma_acc_unlock(struct comm_rma_ctl *ctl);

/* A barrier of the window's members (rma_sync.c): in the segment when they all run on this
 * host, else the communicator's. */
int comm_rma_barrier(struct comm_win *win);

/* Point-to-point on the window's context (rma_target.c).  A request the engine frees itself when
 * it completes, or (KEEP) one the caller owns; ON_DONE/CTX: its completion callback.  BUF
 * (when OWN) is freed with the request.  NULL when out of memory or it could not start. */
struct comm_request *comm_rma_send(struct comm_win *win, int peer, int tag, const void *buf,
                                   MPI_Count count, struct comm_datatype *dt, bool own, bool keep,
                                   void (*on_done)(struct comm_request *), void *ctx);
struct comm_request *comm_rma_recv(struct comm_win *win, int peer, int tag, void *buf,
                                   MPI_Count count, struct comm_datatype *dt, bool keep,
                                   void (*on_done)(struct comm_request *), void *ctx);

/* Carries out one message that reached the target, or holds it (rma_target.c). */
void comm_rma_handle(struct comm_win *win, int origin, const char *msg, size_t len);

/* The target's side of a fence is over: messages of the next epoch may be carried out. */
void comm_rma_fence_passed(struct comm_win *win);

/* Applies an accumulate of COUNT elements of TDT at ADDR from IN (laid out as TDT), under the
 * target's accumulate lock CTL (NULL: none needed) (rma_target.c). */
int comm_rma_apply(struct comm_rma_ctl *ctl, void *addr, const void *in, MPI_Count count,
                   struct comm_datatype *tdt, struct comm_op *op);

/* A lock request that waits at the target for the lock. */
struct rma_waiter {
    int origin;
    int lock_type;
    struct rma_waiter *next;
};

/* A message held behind a lock its origin waits for. */
struct rma_held {
    struct rma_held *next;
    size_t len;
    char msg[];
};

/* Memory attached to a dynamic window. */
struct rma_region {
    uintptr_t base;
    size_t len;
    struct rma_region *next;
};

/* The target's side of a window whose members send it messages (rma_target.c): posts its slots
 * and serves them on the progress engine from now on (MPI_SUCCESS, or MPI_ERR_NO_MEM when a
 * slot's buffer cannot be had: the slots posted before it stay posted, the buffers in
 * win->slot_buf for the caller to free), and stops (cancels the slots, frees them). */
int comm_rma_target_open(struct comm_win *win);
void comm_rma_target_close(struct comm_win *win);

#endif
