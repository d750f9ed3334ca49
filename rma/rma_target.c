/*
 * rma_target.c - the target's side: the messages of a window's context, the lock words and the
 * accumulate lock, and carrying out what the origins send (operations and control messages),
 * from the slots a window keeps posted, on the progress engine.
 *
 * Layer: rma.  Must not: apply an operation of one origin before the ones it sent earlier (the
 * slots are served in the order they matched), or answer an unlock, flush or complete before
 * the data of that origin's earlier operations has landed.
 */
#include "config.h"

#include "rma/rma_int.h"

#include "btl/btl.h"
#include "coll/coll.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "runtime/info.h"
#include "base/log.h"
#include "runtime/op/op.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"
#include "runtime/runtime.h"
#include "runtime/thread.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static bool rma_may_run(const struct comm_win *win, int origin, const char *msg);
static void rma_handle_now(struct comm_win *win, int origin, const char *msg, size_t len);

/* Guarded by the core lock: the windows whose targets receive messages. */
static struct comm_win *rma_windows;
static bool rma_hook_added;

int comm_rma_apply(struct comm_rma_ctl *ctl, void *addr, const void *in, MPI_Count count,
                   struct comm_datatype *tdt, struct comm_op *op)
{
    int rc;

    if (op == NULL) {
        return MPI_ERR_OP;
    }
    if (ctl != NULL) {
        comm_rma_acc_lock(ctl);
    }
    rc = comm_op_reduce(op, in, addr, count, tdt);
    if (ctl != NULL) {
        comm_rma_acc_unlock(ctl);
    }
    return rc == COMM_OK ? MPI_SUCCESS : MPI_ERR_OP;
}

/* ---- lock words ------------------------------------------------------------------------ */

bool comm_rma_try_lock(struct comm_rma_ctl *ctl, int lock_type)
{
    uint64_t cur = __atomic_load_n(&ctl->lock, __ATOMIC_RELAXED);

    if (lock_type == MPI_LOCK_EXCLUSIVE) {
        uint64_t zero = 0;

        return __atomic_compare_exchange_n(&ctl->lock, &zero, RMA_LOCK_EXCL, false,
                                           __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
    }
    while ((cur & RMA_LOCK_EXCL) == 0) {
        if (__atomic_compare_exchange_n(&ctl->lock, &cur, cur + 1, true, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
            return true;
        }
    }
    return false;
}

void comm_rma_unlock_ctl(struct comm_rma_ctl *ctl, int lock_type)
{
    if (lock_type == MPI_LOCK_EXCLUSIVE) {
        __atomic_store_n(&ctl->lock, 0, __ATOMIC_RELEASE);
    } else {
        __atomic_sub_fetch(&ctl->lock, 1, __ATOMIC_RELEASE);
    }
}

void comm_rma_acc_lock(struct comm_rma_ctl *ctl)
{
    unsigned spins = 0;

    for (;;) {
        uint32_t zero = 0;

        if (__atomic_compare_exchange_n(&ctl->acc, &zero, 1, true, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
            return;
        }
        /* The holder may be descheduled (more ranks than cores): give it the core. */
        if (++spins % 64 == 0) {
            sched_yield();
        }
    }
}

void comm_rma_acc_unlock(struct comm_rma_ctl *ctl)
{
    __atomic_store_n(&ctl->acc, 0, __ATOMIC_RELEASE);
}

/* ---- point-to-point on the window's context -------------------------------------------- */

static struct comm_request *rma_req(enum comm_request_kind kind, struct comm_win *win, int peer,
                                    int tag, const void *buf, MPI_Count count,
                                    struct comm_datatype *dt, bool keep,
                                    void (*on_done)(struct comm_request *), void *ctx)
{
    struct comm_request *req = comm_request_alloc(kind);

    if (req == NULL) {
        return NULL;
    }
    req->comm = win->comm;
    comm_communicator_retain(win->comm);
    req->dt = dt;
    comm_datatype_retain(dt);
    req->buf = (void *)(uintptr_t)buf;
    req->count = count;
    req->peer = peer;
    req->tag = tag;
    req->mode = COMM_SEND_STANDARD;
    req->user_freed = !keep;
    req->on_complete = on_done;
    req->on_complete_ctx = ctx;
    return req;
}

struct comm_request *comm_rma_send(struct comm_win *win, int peer, int tag, const void *buf,
                                   MPI_Count count, struct comm_datatype *dt, bool own, bool keep,
                                   void (*on_done)(struct comm_request *), void *ctx)
{
    struct comm_request *req =
        rma_req(COMM_REQUEST_SEND, win, peer, tag, buf, count, dt, keep, on_done, ctx);

    if (req == NULL) {
        if (own) {
            free((void *)(uintptr_t)buf);
        }
        return NULL;
    }
    if (own) {
        req->coll = (void *)(uintptr_t)buf;
        req->coll_free = free;
    }
    if (comm_p2p_start_send(req) < 0) {
        return NULL; /* logged by the engine */
    }
    return req; /* when !keep, it may already be gone: only a non-NULL test is allowed */
}

struct comm_request *comm_rma_recv(struct comm_win *win, int peer, int tag, void *buf,
                                   MPI_Count count, struct comm_datatype *dt, bool keep,
                                   void (*on_done)(struct comm_request *), void *ctx)
{
    struct comm_request *req =
        rma_req(COMM_REQUEST_RECV, win, peer, tag, buf, count, dt, keep, on_done, ctx);

    if (req == NULL) {
        return NULL;
    }
    if (comm_p2p_start_recv(req) < 0) {
        return NULL;
    }
    return req;
}

/* ---- the target's side ------------------------------------------------------------------ */

static void rma_ack(struct comm_win *win, int origin)
{
    if (comm_rma_send(win, origin, RMA_TAG_ACK, NULL, 0, comm_datatype_lookup(MPI_BYTE), false,
                      false, NULL, NULL) == NULL) {
        comm_log_error("rma", "cannot answer rank %d of a window", origin);
    }
}

static int rma_lock_type(uint8_t code)
{
    return code == 2 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
}

/* An unlock, flush or complete from ORIGIN whose earlier operations have all landed. */
static void rma_control_done(struct comm_win *win, int origin, int type, int lock_type, bool ack)
{
    switch (type) {
    case RMA_AM_UNLOCK:
        comm_rma_unlock_ctl(win->my_ctl, lock_type);
        if (ack) {
            rma_ack(win, origin);
        }
        break;
    case RMA_AM_FLUSH:
        rma_ack(win, origin);
        break;
    default:
        break;
    }
}

static void rma_fetch(struct comm_win *win, int origin, const struct rma_hdr *h, char *addr,
                      struct comm_datatype *tdt, const char *data);

/* Context of a message whose data still arrives. */
struct rma_arrival {
    struct rma_hdr h;
    struct comm_win *win;
    int origin;
    int kind;
    void *addr;  /* in the window */
    void *block; /* ACC: the received data's buffer (laid out by tdt) */
    void *in;
    MPI_Count tcount;
    struct comm_datatype *tdt; /* one reference */
    struct comm_op *op;
};

static void rma_landed(struct comm_win *win, int origin)
{
    struct comm_rma_peer *p = &win->peers[origin];

    win->applied++;
    p->got++;
    p->pending--;
    if (p->pending == 0 && p->deferred != 0) {
        int type = p->deferred;

        p->deferred = 0;
        rma_control_done(win, origin, type, p->deferred_lock, p->deferred_ack);
    }
}

static void rma_arrival_done(struct comm_request *req)
{
    struct rma_arrival *a = req->on_complete_ctx;

    if (a->kind == COMM_RMA_ACC && req->error == MPI_SUCCESS) {
        comm_rma_apply(a->win->my_ctl, a->addr, a->in, a->tcount, a->tdt, a->op);
    } else if (a->kind == COMM_RMA_GET_ACC && req->error == MPI_SUCCESS) {
        rma_fetch(a->win, a->origin, &a->h, a->addr, a->tdt, a->in);
    }
    if (req->error != MPI_SUCCESS) {
        comm_log_error("rma", "the data of an operation from rank %d did not arrive (error %d)",
                       a->origin, req->error);
    }
    rma_landed(a->win, a->origin);
    free(a->block);
    comm_datatype_release(a->tdt);
    comm_op_release(a->op);
    free(a);
}

/* The window memory an operation names, checked against the window (or the attached memory
 * of a dynamic window); NULL when it lies outside (logged). */
static char *rma_target_addr(struct comm_win *win, int origin, uint64_t disp, MPI_Count count,
                             const struct comm_datatype *dt)
{
    MPI_Aint lo = 0, hi = 0;

    if (count > 0 && dt->size > 0) {
        lo = dt->true_lb;
        hi = (MPI_Aint)((count - 1) * dt->extent) + dt->true_lb + dt->true_extent;
    }
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        if (hi == lo) {
            return (char *)(uintptr_t)disp;
        }
        for (struct rma_region *r = win->regions; r != NULL; r = r->next) {
            uintptr_t a = (uintptr_t)disp;

            if ((MPI_Aint)(a + (uintptr_t)lo) >= (MPI_Aint)r->base &&
                a + (uintptr_t)hi <= r->base + r->len) {
                return (char *)a;
            }
        }
        comm_log_error("rma",
                       "rank %d reached address %#llx of a dynamic window outside any memory "
                       "attached to it",
                       origin, (unsigned long long)disp);
        return NULL;
    }
    if (hi > lo && ((MPI_Aint)disp + lo < 0 || (MPI_Aint)disp + hi > win->wsize)) {
        comm_log_error("rma", "rank %d reached bytes [%lld, %lld) of a window of %lld bytes",
                       origin, (long long)((MPI_Aint)disp + lo), (long long)((MPI_Aint)disp + hi),
                       (long long)win->wsize);
        return NULL;
    }
    return (char *)win->base + disp;
}

/* Carries out the messages ORIGIN sent behind its lock request (now granted) or after a fence
 * (now finished here), until one of them has to wait again. */
static void rma_replay(struct comm_win *win, int origin)
{
    struct comm_rma_peer *p = &win->peers[origin];

    while (p->held_head != NULL && rma_may_run(win, origin, p->held_head->msg)) {
        struct rma_held *m = p->held_head;

        p->held_head = m->next;
        if (p->held_head == NULL) {
            p->held_tail = NULL;
        }
        rma_handle_now(win, origin, m->msg, m->len);
        free(m);
    }
}

static void rma_grant_waiters(struct comm_win *win)
{
    while (win->waiters != NULL) {
        struct rma_waiter *w = win->waiters;

        if (!comm_rma_try_lock(win->my_ctl, w->lock_type)) {
            /* Grant in order: a waiting exclusive lock keeps later shared ones waiting. */
            break;
        }
        rma_ack(win, w->origin);
        win->waiters = w->next;
        win->peers[w->origin].blocked = false;
        rma_replay(win, w->origin);
        free(w);
    }
}

/* Tells ORIGIN the memory attached to this dynamic window. */
static void rma_send_regions(struct comm_win *win, int origin)
{
    uint64_t *list = malloc(2 * RMA_MAX_REGIONS * sizeof(*list));
    int n = 0;

    if (list == NULL) {
        comm_log_error("rma", "out of memory for the regions rank %d asked for", origin);
        return;
    }
    for (struct rma_region *r = win->regions; r != NULL && n < RMA_MAX_REGIONS; r = r->next) {
        list[2 * n] = r->base;
        list[2 * n + 1] = r->len;
        n++;
    }
    comm_rma_send(win, origin, RMA_TAG_REGIONS, list, 2 * n, comm_datatype_lookup(MPI_UINT64_T),
                  true, false, NULL, NULL);
}

static void rma_handle_control(struct comm_win *win, int origin, const struct rma_hdr *h)
{
    struct comm_rma_peer *p = &win->peers[origin];
    int lock_type = rma_lock_type(h->lock);

    if (h->type == RMA_AM_REGIONS) {
        rma_send_regions(win, origin);
        return;
    }
    if (h->type == RMA_AM_LOCK) {
        struct rma_waiter *w;

        if (win->waiters == NULL && comm_rma_try_lock(win->my_ctl, lock_type)) {
            rma_ack(win, origin);
            return;
        }
        /* What the origin sent after asking waits for the lock with it. */
        p->blocked = true;
        w = malloc(sizeof(*w));
        if (w == NULL) {
            comm_log_error("rma", "out of memory for a lock request of rank %d", origin);
            return;
        }
        *w = (struct rma_waiter){.origin = origin, .lock_type = lock_type};
        struct rma_waiter **tail = &win->waiters;
        while (*tail != NULL) {
            tail = &(*tail)->next;
        }
        *tail = w;
        return;
    }
    if (p->pending > 0) {
        p->deferred = h->type;
        p->deferred_lock = lock_type;
        p->deferred_ack = (h->flags & RMA_HDR_ACK) != 0;
        return;
    }
    rma_control_done(win, origin, h->type, lock_type, (h->flags & RMA_HDR_ACK) != 0);
    if (h->type == RMA_AM_UNLOCK) {
        rma_grant_waiters(win);
    }
}

/* GET_ACC and CAS: the old contents go back to the origin, packed. */
static void rma_fetch(struct comm_win *win, int origin, const struct rma_hdr *h, char *addr,
                      struct comm_datatype *tdt, const char *data)
{
    size_t bytes = (size_t)h->tcount * (size_t)tdt->size;
    char *old = malloc(bytes > 0 ? bytes : 1);
    struct comm_op *op = comm_op_lookup((MPI_Op)(uintptr_t)h->op);

    if (old == NULL) {
        comm_log_error("rma", "out of memory for a fetch of rank %d", origin);
        return;
    }
    comm_rma_acc_lock(win->my_ctl);
    comm_datatype_pack(tdt, addr, h->tcount, 0, old, bytes);
    if (h->type == COMM_RMA_CAS) {
        /* data: the new value, then the value to compare with. */
        if (memcmp(old, data + bytes, bytes) == 0) {
            comm_datatype_unpack(tdt, addr, h->tcount, 0, data, bytes);
        }
    } else if (op != NULL && op->index != COMM_OP_NO_OP) {
        void *block;
        void *in = comm_coll_alloc_buffer(h->tcount, tdt, &block);

        if (in != NULL) {
            comm_datatype_unpack(tdt, in, h->tcount, 0, data, bytes);
            comm_op_reduce(op, in, addr, h->tcount, tdt);
            free(block);
        }
    }
    comm_rma_acc_unlock(win->my_ctl);
    if (comm_rma_send(win, origin, RMA_TAG_RESP, old, (MPI_Count)bytes,
                      comm_datatype_lookup(MPI_BYTE), true, false, NULL, NULL) == NULL) {
        comm_log_error("rma", "cannot send rank %d what it fetched", origin);
    }
}

/* A PUT or ACC whose data comes in its own message. */
static void rma_expect_data(struct comm_win *win, int origin, const struct rma_hdr *h, char *addr,
                            struct comm_datatype *tdt)
{
    struct rma_arrival *a = calloc(1, sizeof(*a));
    void *buf = addr;

    if (a == NULL) {
        comm_log_error("rma", "out of memory for an operation of rank %d", origin);
        return;
    }
    *a = (struct rma_arrival){.h = *h,
                              .win = win,
                              .origin = origin,
                              .kind = h->type,
                              .addr = addr,
                              .tcount = h->tcount,
                              .tdt = tdt};
    comm_datatype_retain(tdt);
    if (h->type == COMM_RMA_ACC) {
        a->op = comm_op_lookup((MPI_Op)(uintptr_t)h->op);
        comm_op_retain(a->op);
        a->in = comm_coll_alloc_buffer(h->tcount, tdt, &a->block);
        buf = a->in;
    } else if (h->type == COMM_RMA_GET_ACC) {
        /* The data stays packed: the fetch applies it as it does inline data. */
        a->block = malloc(h->len > 0 ? h->len : 1);
        a->in = a->block;
        buf = a->in;
    }
    win->peers[origin].pending++;
    if (buf == NULL ||
        comm_rma_recv(win, origin, RMA_TAG_DATA, buf,
                      h->type == COMM_RMA_GET_ACC ? (MPI_Count)h->len : h->tcount,
                      h->type == COMM_RMA_GET_ACC ? comm_datatype_lookup(MPI_BYTE) : tdt, false,
                      rma_arrival_done, a) == NULL) {
        comm_log_error("rma", "cannot receive the data of an operation of rank %d", origin);
    }
}

static void rma_discard_done(struct comm_request *req)
{
    struct rma_arrival *a = req->on_complete_ctx;

    rma_landed(a->win, a->origin);
    free(a->block);
    free(a);
}

/*
 * An operation this target cannot carry out (outside its memory, malformed; logged): it still
 * counts as done, so that the origin's synchronization ends, a fetch is answered with nothing
 * (the origin's receive ends short), and data on its way is received and dropped, so that it
 * cannot meet the receive of a later operation.
 */
static void rma_refuse(struct comm_win *win, int origin, const struct rma_hdr *h)
{
    if (h->type == COMM_RMA_GET || h->type == COMM_RMA_GET_ACC || h->type == COMM_RMA_CAS) {
        comm_rma_send(win, origin, RMA_TAG_RESP, NULL, 0, comm_datatype_lookup(MPI_BYTE), false,
                      false, NULL, NULL);
    }
    if (!(h->flags & RMA_HDR_INLINE) && h->type != COMM_RMA_GET && h->type != COMM_RMA_CAS &&
        h->len > 0) {
        struct rma_arrival *a = calloc(1, sizeof(*a));

        if (a != NULL) {
            a->win = win;
            a->origin = origin;
            a->block = malloc(h->len);
        }
        if (a != NULL && a->block != NULL) {
            win->peers[origin].pending++;
            if (comm_rma_recv(win, origin, RMA_TAG_DATA, a->block, (MPI_Count)h->len,
                              comm_datatype_lookup(MPI_BYTE), false, rma_discard_done, a) != NULL) {
                return;
            }
            win->peers[origin].pending--;
        }
        if (a != NULL) {
            free(a->block);
        }
        free(a);
    }
    win->applied++;
    win->peers[origin].got++;
}

/* Whether MSG of ORIGIN may be carried out now: its origin does not wait for a lock here,
 * and it does not belong to an epoch after a fence this process has not finished. */
static bool rma_may_run(const struct comm_win *win, int origin, const char *msg)
{
    struct rma_hdr h;

    memcpy(&h, msg, sizeof(h));
    return !win->peers[origin].blocked && (int32_t)(h.epoch - win->fences_done) <= 0;
}

void comm_rma_handle(struct comm_win *win, int origin, const char *msg, size_t len)
{
    if (len < sizeof(struct rma_hdr)) {
        comm_log_error("rma", "a message of %zu bytes from rank %d is too short", len, origin);
        return;
    }
    if (win->peers[origin].held_head != NULL || !rma_may_run(win, origin, msg)) {
        struct rma_held *m = malloc(sizeof(*m) + len);
        struct comm_rma_peer *p = &win->peers[origin];

        if (m == NULL) {
            comm_log_error("rma", "out of memory holding a message of rank %d", origin);
            return;
        }
        m->next = NULL;
        m->len = len;
        memcpy(m->msg, msg, len);
        if (p->held_tail != NULL) {
            p->held_tail->next = m;
        } else {
            p->held_head = m;
        }
        p->held_tail = m;
        return;
    }
    rma_handle_now(win, origin, msg, len);
}

void comm_rma_fence_passed(struct comm_win *win)
{
    win->fences_done++;
    for (int r = 0; r < win->size; r++) {
        rma_replay(win, r);
    }
}

static void rma_handle_now(struct comm_win *win, int origin, const char *msg, size_t len)
{
    struct rma_hdr h;
    struct comm_datatype *tdt = NULL, *owned = NULL;
    const char *data;
    char *addr;

    memcpy(&h, msg, sizeof(h));
    if (h.type >= RMA_AM_LOCK) {
        rma_handle_control(win, origin, &h);
        return;
    }
    if (h.flags & RMA_HDR_DT) {
        if (h.dt_len <= len - sizeof(h) &&
            comm_datatype_wire_read(msg + sizeof(h), h.dt_len, &owned) == COMM_OK) {
            tdt = owned;
        }
    } else {
        tdt = comm_datatype_lookup((MPI_Datatype)(uintptr_t)h.tdt);
    }
    data = msg + sizeof(h) + h.dt_len;
    if (tdt == NULL || h.dt_len > len - sizeof(h) ||
        ((h.flags & RMA_HDR_INLINE) && h.len > len - sizeof(h) - h.dt_len)) {
        comm_log_error("rma", "a malformed operation from rank %d", origin);
        rma_refuse(win, origin, &h);
        goto out;
    }
    addr = rma_target_addr(win, origin, h.disp, h.tcount, tdt);
    if (addr == NULL) {
        rma_refuse(win, origin, &h);
        goto out;
    }
    switch (h.type) {
    case COMM_RMA_PUT:
        if (!(h.flags & RMA_HDR_INLINE)) {
            rma_expect_data(win, origin, &h, addr, tdt);
            goto out;
        }
        comm_datatype_unpack(tdt, addr, h.tcount, 0, data, h.len);
        break;
    case COMM_RMA_ACC:
        if (!(h.flags & RMA_HDR_INLINE)) {
            rma_expect_data(win, origin, &h, addr, tdt);
            goto out;
        } else {
            void *block;
            void *in = comm_coll_alloc_buffer(h.tcount, tdt, &block);

            if (in == NULL) {
                comm_log_error("rma", "out of memory for an accumulate of rank %d", origin);
                break;
            }
            comm_datatype_unpack(tdt, in, h.tcount, 0, data, h.len);
            comm_rma_apply(win->my_ctl, addr, in, h.tcount, tdt,
                           comm_op_lookup((MPI_Op)(uintptr_t)h.op));
            free(block);
        }
        break;
    case COMM_RMA_GET:
        if (comm_rma_send(win, origin, RMA_TAG_RESP, addr, h.tcount, tdt, false, false, NULL,
                          NULL) == NULL) {
            comm_log_error("rma", "cannot send rank %d what it reads", origin);
        }
        break;
    case COMM_RMA_GET_ACC:
        if (!(h.flags & RMA_HDR_INLINE)) {
            rma_expect_data(win, origin, &h, addr, tdt);
            goto out;
        }
        rma_fetch(win, origin, &h, addr, tdt, data);
        break;
    case COMM_RMA_CAS:
        rma_fetch(win, origin, &h, addr, tdt, data);
        break;
    default:
        comm_log_error("rma", "an operation of unknown type %d from rank %d", h.type, origin);
        goto out;
    }
    win->applied++;
    win->peers[origin].got++;
out:
    if (owned != NULL) {
        comm_datatype_free(owned);
    }
}

static int rma_post_slot(struct comm_win *win, unsigned i)
{
    win->slots[i] = comm_rma_recv(win, MPI_ANY_SOURCE, RMA_TAG_OP, win->slot_buf[i], RMA_SLOT_BYTES,
                                  comm_datatype_lookup(MPI_BYTE), true, NULL, NULL);
    return win->slots[i] != NULL ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* Serves WIN's slots in the order they were posted; returns the messages carried out. */
static int rma_serve(struct comm_win *win)
{
    int n = 0;

    for (;;) {
        unsigned i = win->slot_head;
        struct comm_request *req = win->slots[i];

        if (req == NULL || !comm_request_is_complete(req)) {
            break;
        }
        win->slots[i] = NULL;
        if (req->error == MPI_SUCCESS && !req->cancelled) {
            comm_rma_handle(win, req->status.MPI_SOURCE, win->slot_buf[i],
                            (size_t)comm_status_bytes(&req->status));
        } else if (req->error != MPI_SUCCESS) {
            comm_log_error("rma", "a one-sided message failed (error %d)", req->error);
        }
        comm_request_free(req);
        rma_post_slot(win, i);
        win->slot_head = (i + 1) % COMM_RMA_SLOTS;
        n++;
    }
    if (win->waiters != NULL) {
        rma_grant_waiters(win);
    }
    return n;
}

/* The progress hook: every window whose targets receive messages. */
static int rma_progress(void)
{
    int n = 0;

    for (struct comm_win *w = rma_windows; w != NULL; w = w->next) {
        n += rma_serve(w);
    }
    return n;
}

int comm_rma_target_open(struct comm_win *win)
{
    for (unsigned i = 0; i < COMM_RMA_SLOTS; i++) {
        win->slot_buf[i] = malloc(RMA_SLOT_BYTES);
        if (win->slot_buf[i] == NULL || rma_post_slot(win, i) != MPI_SUCCESS) {
            return MPI_ERR_NO_MEM;
        }
    }
    comm_core_lock();
    if (!rma_hook_added) {
        rma_hook_added = comm_progress_add_hook(rma_progress) == COMM_OK;
    }
    win->next = rma_windows;
    rma_windows = win;
    comm_core_unlock();
    return MPI_SUCCESS;
}

void comm_rma_target_close(struct comm_win *win)
{
    comm_core_lock();
    for (struct comm_win **link = &rma_windows; *link != NULL; link = &(*link)->next) {
        if (*link == win) {
            *link = win->next;
            break;
        }
    }
    comm_core_unlock();
    for (unsigned i = 0; i < COMM_RMA_SLOTS; i++) {
        struct comm_request *req = win->slots[i];

        if (req != NULL) {
            comm_p2p_cancel(req);
            comm_progress_wait(comm_progress_flag_done, &req->complete);
            comm_request_free(req);
        }
        free(win->slot_buf[i]);
    }
}
