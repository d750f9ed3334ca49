/*
 * rma_win.c - windows: making and freeing them, the host's segment, lock words, and the
 * target's side of operations that arrive as messages.
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

static const struct comm_setting rma_settings[] = {
    {.name = "COMM_RMA_RDMA_MIN",
     .type = COMM_SETTING_INT,
     .default_value = "8192",
     .help = "puts and gets of at least this many bytes to a window on another host are RDMA "
             "writes and reads; smaller ones travel as messages, with the epoch's lock request",
     .audience = COMM_AUDIENCE_TUNER,
     .min = 0,
     .max = 1L << 40},
    {.name = "COMM_RMA_SHM",
     .type = COMM_SETTING_BOOL,
     .default_value = "1",
     .help = "reach windows of ranks on the same host directly (shared memory, CMA) rather than "
             "with messages",
     .audience = COMM_AUDIENCE_TUNER},
};

const struct comm_setting_table comm_rma_settings = {
    .component = "rma",
    .count = sizeof(rma_settings) / sizeof(rma_settings[0]),
    .settings = rma_settings,
};

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

static bool rma_may_run(const struct comm_win *win, int origin, const char *msg);
static void rma_handle_now(struct comm_win *win, int origin, const char *msg, size_t len);

/* Memory attached to a dynamic window. */
struct rma_region {
    uintptr_t base;
    size_t len;
    struct rma_region *next;
};

/* Guarded by the core lock: the windows whose targets receive messages. */
static struct comm_win *rma_windows;
static bool rma_hook_added;

const char *comm_rma_path_name(enum comm_rma_path path)
{
    switch (path) {
    case COMM_RMA_DIRECT:
        return "direct";
    case COMM_RMA_CMA:
        return "cma";
    case COMM_RMA_NET:
        return "net";
    case COMM_RMA_MESSAGES:
    case COMM_RMA_NPATHS:
        return "messages";
    }
    return "?";
}

struct comm_win *comm_win_lookup(MPI_Win handle)
{
    struct comm_win *w = (struct comm_win *)handle;

    if (handle == MPI_WIN_NULL || (uintptr_t)handle < 0x1000 || w->magic != COMM_WIN_MAGIC) {
        return NULL;
    }
    return w;
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

/* ---- the barrier of a window inside one host --------------------------------------------- */

struct rma_bar_wait {
    const struct comm_rma_ctl *bar;
    uint64_t gen;
};

static bool rma_bar_passed(void *arg)
{
    const struct rma_bar_wait *w = arg;

    return __atomic_load_n(&w->bar->lock, __ATOMIC_ACQUIRE) != w->gen;
}

/* The barrier in the segment: every member runs on this host. */
static void rma_seg_barrier(struct comm_win *win)
{
    /* lock: the generation; acc: members arrived in this one. */
    struct rma_bar_wait w = {win->bar, __atomic_load_n(&win->bar->lock, __ATOMIC_ACQUIRE)};

    if (__atomic_add_fetch(&win->bar->acc, 1, __ATOMIC_ACQ_REL) == (uint32_t)win->nlocal) {
        __atomic_store_n(&win->bar->acc, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&win->bar->lock, w.gen + 1, __ATOMIC_RELEASE);
        return;
    }
    for (int spin = 0; spin < 200; spin++) {
        if (rma_bar_passed(&w)) {
            return;
        }
        __builtin_ia32_pause();
    }
    comm_progress_wait(rma_bar_passed, &w);
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

/* ---- making windows --------------------------------------------------------------------- */

/* What each member tells the others when the window is made. */
struct rma_wire_peer {
    uint64_t base;
    uint64_t size;
    int64_t disp_unit;
    uint64_t key; /* its registration with the network btl (second exchange) */
};

int comm_rma_barrier(struct comm_win *win)
{
    if (win->seg != NULL && win->nlocal == win->size) {
        rma_seg_barrier(win);
        return MPI_SUCCESS;
    }
    return win->comm->coll->barrier(win->comm);
}

static int rma_allgather(const void *mine, void *all, size_t bytes, struct comm_communicator *c)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int *counts = malloc((size_t)c->size * sizeof(int)), *displs;
    int err;

    displs = malloc((size_t)c->size * sizeof(int));
    if (counts == NULL || displs == NULL) {
        free(counts);
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < c->size; i++) {
        counts[i] = (int)bytes;
        displs[i] = (int)bytes * i;
    }
    err = c->coll->allgather(mine, (MPI_Count)bytes, byte, all, counts, displs, byte, c);
    free(counts);
    free(displs);
    return err;
}

static int rma_allreduce_int(int *value, MPI_Op op, struct comm_communicator *c)
{
    struct comm_datatype *dt = comm_datatype_lookup(MPI_INT);
    struct comm_op *o = comm_op_lookup(op);
    int in = *value;

    return c->coll->allreduce(&in, value, 1, dt, o, c);
}

static void rma_seg_name(char *out, size_t len, const struct comm_win *win, long leader)
{
    snprintf(out, len, "/%s.win.%u.%ld", comm_runtime_job()->nspace,
             (unsigned)win->comm->context_id, leader);
    for (size_t i = 1; out[i] != '\0'; i++) {
        if (out[i] == '/') {
            out[i] = '_';
        }
    }
}

static size_t rma_align(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/*
 * Makes the host's segment: control lines for the members of this host, then (allocate
 * flavors) their windows, each after the previous one (adjacent for MPI_Win_allocate_shared,
 * a cache line apart otherwise).  The lowest rank of the host creates it; all agree whether
 * every host's worked.  Returns MPI_SUCCESS with win->seg set, or MPI_SUCCESS with no segment
 * (not wanted, or it failed and the window can do without), or an error.
 */
static int rma_make_segment(struct comm_win *win, const struct rma_wire_peer *all, bool want,
                            uint64_t *offsets)
{
    bool alloc = win->flavor == MPI_WIN_FLAVOR_ALLOCATE || win->flavor == MPI_WIN_FLAVOR_SHARED;
    char name[COMM_PMIX_NAME_MAX + 64];
    int nlocal = 0, leader = -1, ok = 1, err, fd = -1;
    size_t lines, len, off;
    void *seg = NULL;

    for (int r = 0; r < win->size; r++) {
        if (comm_communicator_is_local(win->peers[r].world)) {
            if (leader < 0) {
                leader = r;
            }
            nlocal++;
        }
    }
    /* A control line per member of this host, and one for the barrier of fences. */
    lines = rma_align((size_t)(nlocal + 1) * sizeof(struct comm_rma_ctl), 4096);
    off = lines;
    for (int r = 0; r < win->size; r++) {
        if (!comm_communicator_is_local(win->peers[r].world)) {
            continue;
        }
        offsets[r] = off;
        if (alloc) {
            off += win->flavor == MPI_WIN_FLAVOR_SHARED ? (size_t)all[r].size
                                                        : rma_align((size_t)all[r].size, 64);
        }
    }
    len = rma_align(off > 0 ? off : 1, 4096);
    if (want) {
        rma_seg_name(name, sizeof(name), win, win->peers[leader].world);
        if (leader == win->rank) {
            fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
            if (fd < 0 || ftruncate(fd, (off_t)len) != 0 ||
                posix_fallocate(fd, 0, (off_t)len) != 0) {
                comm_log_warn("rma", "cannot make the window segment %s of %zu bytes: %s", name,
                              len, strerror(errno));
                ok = 0;
            }
        }
    }
    err = comm_rma_barrier(win); /* no segment yet: the communicator's */
    if (err != MPI_SUCCESS) {
        goto out;
    }
    if (want && ok) {
        if (fd < 0) {
            fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
        }
        seg = fd >= 0 ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
        if (seg == MAP_FAILED) {
            comm_log_warn("rma", "cannot map the window segment %s: %s", name, strerror(errno));
            seg = NULL;
            ok = 0;
        }
    }
    if (!want) {
        ok = 0;
    }
    /* Also the barrier after which the name may go. */
    err = rma_allreduce_int(&ok, MPI_MIN, win->comm);
    if (want && leader == win->rank && fd >= 0) {
        shm_unlink(name);
    }
    if (fd >= 0) {
        close(fd);
    }
    if (err != MPI_SUCCESS || !ok) {
        if (seg != NULL) {
            munmap(seg, len);
        }
        return err;
    }
    win->seg = seg;
    win->seg_len = len;
    win->bar = (struct comm_rma_ctl *)((char *)seg + (size_t)nlocal * sizeof(struct comm_rma_ctl));
    win->nlocal = nlocal;
    int li = 0;
    for (int r = 0; r < win->size; r++) {
        if (comm_communicator_is_local(win->peers[r].world)) {
            win->peers[r].ctl =
                (struct comm_rma_ctl *)((char *)seg + (size_t)li * sizeof(struct comm_rma_ctl));
            li++;
        }
    }
    return MPI_SUCCESS;
out:
    if (fd >= 0) {
        close(fd);
        if (leader == win->rank) {
            shm_unlink(name);
        }
    }
    return err;
}

static bool rma_cma_works(struct comm_rma_peer *p)
{
    struct comm_proc *proc = comm_p2p_proc(p->world);
    struct comm_btl_endpoint *ep = proc != NULL ? proc->ep : NULL;

    if (ep == NULL || strcmp(ep->module->ops->name, "shm") != 0) {
        return false;
    }
    if (ep->module->ops->put(ep, NULL, 0, 0, 0, 0) != COMM_OK) {
        return false;
    }
    p->ep = ep;
    return true;
}

/* Whether PEER's window can be written and read through its network btl (net). */
static bool rma_net_works(struct comm_win *win, struct comm_rma_peer *p)
{
    struct comm_proc *proc = comm_p2p_proc(p->world);
    struct comm_btl_endpoint *ep = proc != NULL ? proc->ep : NULL;

    if (ep == NULL || p->key == 0 || win->reg_module == NULL || ep->module != win->reg_module ||
        strcmp(ep->module->ops->name, "ofi") != 0) {
        return false;
    }
    if (ep->module->ops->write_start(ep, NULL, 0, 0, p->key, 0, NULL, NULL) != COMM_OK) {
        return false;
    }
    p->ep = ep;
    return true;
}

/* Registers the window's memory with the network btl that reaches some member, so that those
 * members can write and read it (net).  Nothing when no member is reached that way. */
static void rma_register(struct comm_win *win)
{
    struct comm_btl_module *m = NULL;
    uint64_t key = 0;

    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC || win->wsize == 0 || win->base == NULL) {
        return;
    }
    for (int r = 0; r < win->size && m == NULL; r++) {
        struct comm_proc *proc = comm_p2p_proc(win->peers[r].world);

        if (r != win->rank && proc != NULL && proc->ep != NULL &&
            strcmp(proc->ep->module->ops->name, "ofi") == 0) {
            m = proc->ep->module;
        }
    }
    if (m == NULL || m->ops->register_mem(m, win->base, (size_t)win->wsize, &key) != COMM_OK) {
        return;
    }
    win->reg_module = m;
    win->reg_key = key;
}

static bool rma_shm_allowed(void)
{
    bool on = true;

    comm_config_get_bool(&rma_settings[1], &on);
    return on && comm_btl_shm_is_enabled();
}

/* Decides how this process reaches each member (see rma.h). */
static void rma_choose_paths(struct comm_win *win, const uint64_t *offsets)
{
    bool alloc = win->flavor == MPI_WIN_FLAVOR_ALLOCATE || win->flavor == MPI_WIN_FLAVOR_SHARED;

    for (int r = 0; r < win->size; r++) {
        struct comm_rma_peer *p = &win->peers[r];

        p->path = COMM_RMA_MESSAGES;
        if (r == win->rank) {
            p->path = COMM_RMA_DIRECT;
            p->direct = win->flavor == MPI_WIN_FLAVOR_DYNAMIC ? NULL : win->base;
        } else if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC && p->ctl != NULL && alloc) {
            p->path = COMM_RMA_DIRECT;
            p->direct = (char *)win->seg + offsets[r];
        } else if (win->flavor == MPI_WIN_FLAVOR_CREATE && p->ctl != NULL && rma_cma_works(p)) {
            p->path = COMM_RMA_CMA;
        } else if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC && rma_net_works(win, p)) {
            p->path = COMM_RMA_NET;
        }
    }
}

static void rma_log_paths(const struct comm_win *win)
{
    int n[COMM_RMA_NPATHS] = {0};

    for (int r = 0; r < win->size; r++) {
        n[win->peers[r].path]++;
    }
    comm_log_info("rma",
                  "window of %d ranks (%s): %d targets direct, %d through CMA, %d through "
                  "RDMA, %d through messages%s; accumulates %s",
                  win->size,
                  win->flavor == MPI_WIN_FLAVOR_CREATE     ? "create"
                  : win->flavor == MPI_WIN_FLAVOR_ALLOCATE ? "allocate"
                  : win->flavor == MPI_WIN_FLAVOR_SHARED   ? "allocate_shared"
                                                           : "dynamic",
                  n[COMM_RMA_DIRECT], n[COMM_RMA_CMA], n[COMM_RMA_NET], n[COMM_RMA_MESSAGES],
                  n[COMM_RMA_MESSAGES] > 0 ? " (carried out by the target's progress)" : "",
                  n[COMM_RMA_MESSAGES] + n[COMM_RMA_CMA] + n[COMM_RMA_NET] > 0
                      ? "to other targets are carried out by the target (comm uses no network "
                        "atomics, so that they stay atomic with those done in shared memory)"
                      : "are done in shared memory under the target's lock");
}

int comm_win_create(struct comm_communicator *comm, int flavor, void *base, MPI_Aint size,
                    int disp_unit, void **base_out, struct comm_win **win_out)
{
    struct comm_win *win = calloc(1, sizeof(*win));
    struct rma_wire_peer mine, *all = NULL;
    uint64_t *offsets = NULL;
    bool want_seg;
    int err = MPI_ERR_NO_MEM, msgs;

    if (win == NULL) {
        return MPI_ERR_NO_MEM;
    }
    win->handle = (MPI_Win)win;
    win->comm = comm;
    win->rank = comm->rank;
    win->size = comm->size;
    win->flavor = flavor;
    win->base = flavor == MPI_WIN_FLAVOR_CREATE ? base : NULL;
    win->wsize = flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0 : size;
    win->disp_unit = disp_unit;
    win->model = MPI_WIN_UNIFIED;
    {
        long min = 8192;

        comm_config_get_int(&rma_settings[0], &min);
        win->rdma_min = (size_t)min;
    }
    win->my_ctl = &win->own_ctl;
    win->peers = calloc((size_t)comm->size, sizeof(*win->peers));
    all = calloc((size_t)comm->size, sizeof(*all));
    offsets = calloc((size_t)comm->size, sizeof(*offsets));
    if (win->peers == NULL || all == NULL || offsets == NULL) {
        goto fail;
    }
    for (int r = 0; r < comm->size; r++) {
        win->peers[r].world = comm_communicator_world_rank(comm, r);
    }
    mine = (struct rma_wire_peer){.base = (uint64_t)(uintptr_t)win->base,
                                  .size = (uint64_t)win->wsize,
                                  .disp_unit = disp_unit};
    err = rma_allgather(&mine, all, sizeof(mine), comm);
    if (err != MPI_SUCCESS) {
        goto fail;
    }
    if (flavor == MPI_WIN_FLAVOR_SHARED && !comm->host_local) {
        err = MPI_ERR_RMA_SHARED;
        goto fail;
    }
    /* A segment when ranks of this host can use one (every host decides alike). */
    want_seg = flavor == MPI_WIN_FLAVOR_SHARED;
    if (!want_seg && rma_shm_allowed()) {
        int nlocal = 0;

        for (int r = 0; r < comm->size; r++) {
            nlocal += comm_communicator_is_local(win->peers[r].world);
        }
        want_seg = nlocal > 1;
    }
    err = rma_make_segment(win, all, want_seg, offsets);
    if (err != MPI_SUCCESS) {
        goto fail;
    }
    if (flavor == MPI_WIN_FLAVOR_SHARED && win->seg == NULL) {
        err = MPI_ERR_NO_MEM;
        goto fail;
    }
    if (win->seg != NULL) {
        win->my_ctl = win->peers[win->rank].ctl;
    } else {
        win->peers[win->rank].ctl = &win->own_ctl;
    }
    if (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED) {
        if (win->seg != NULL) {
            win->base = (char *)win->seg + offsets[win->rank];
        } else {
            win->owned = malloc(size > 0 ? (size_t)size : 1);
            if (win->owned == NULL) {
                err = MPI_ERR_NO_MEM;
            }
            win->base = win->owned;
        }
        msgs = err == MPI_SUCCESS;
        err = rma_allreduce_int(&msgs, MPI_MIN, comm);
        if (err == MPI_SUCCESS && !msgs) {
            err = MPI_ERR_NO_MEM;
        }
        if (err != MPI_SUCCESS) {
            goto fail;
        }
        if (size == 0 && flavor == MPI_WIN_FLAVOR_ALLOCATE) {
            win->base = NULL;
        }
    }
    for (int r = 0; r < comm->size; r++) {
        win->peers[r].size = all[r].size;
        win->peers[r].disp_unit = (int)all[r].disp_unit;
    }
    /* Where each window is, and its registration, now that the memory is settled. */
    rma_register(win);
    mine = (struct rma_wire_peer){.base = (uint64_t)(uintptr_t)win->base, .key = win->reg_key};
    err = rma_allgather(&mine, all, sizeof(mine), comm);
    if (err != MPI_SUCCESS) {
        goto fail;
    }
    for (int r = 0; r < comm->size; r++) {
        win->peers[r].base = all[r].base;
        win->peers[r].key = all[r].key;
    }
    rma_choose_paths(win, offsets);
    msgs = 0;
    for (int r = 0; r < comm->size; r++) {
        msgs |= win->peers[r].path == COMM_RMA_MESSAGES;
        /* Accumulates to cma and net targets are messages too. */
        msgs |= win->peers[r].path == COMM_RMA_CMA || win->peers[r].path == COMM_RMA_NET;
    }
    err = rma_allreduce_int(&msgs, MPI_MAX, comm);
    if (err != MPI_SUCCESS) {
        goto fail;
    }
    win->any_messages = msgs != 0;
    if (win->any_messages) {
        for (unsigned i = 0; i < COMM_RMA_SLOTS; i++) {
            win->slot_buf[i] = malloc(RMA_SLOT_BYTES);
            if (win->slot_buf[i] == NULL || rma_post_slot(win, i) != MPI_SUCCESS) {
                err = MPI_ERR_NO_MEM;
                goto fail; /* collective from here on would hang: every rank allocates alike */
            }
        }
        comm_core_lock();
        if (!rma_hook_added) {
            rma_hook_added = comm_progress_add_hook(rma_progress) == COMM_OK;
        }
        win->next = rma_windows;
        rma_windows = win;
        comm_core_unlock();
    }
    if (win->rank == 0) {
        rma_log_paths(win);
    }
    win->magic = COMM_WIN_MAGIC;
    if (base_out != NULL) {
        *base_out = win->base;
    }
    free(all);
    free(offsets);
    *win_out = win;
    return MPI_SUCCESS;

fail:
    for (unsigned i = 0; i < COMM_RMA_SLOTS; i++) {
        free(win->slot_buf[i]);
    }
    if (win->reg_key != 0) {
        win->reg_module->ops->deregister_mem(win->reg_module, win->reg_key);
    }
    if (win->seg != NULL) {
        munmap(win->seg, win->seg_len);
    }
    free(win->owned);
    free(win->peers);
    free(all);
    free(offsets);
    free(win);
    return err;
}

int comm_win_free(struct comm_win *win)
{
    int err = comm_rma_barrier(win);

    if (win->any_messages) {
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
    while (win->waiters != NULL) {
        struct rma_waiter *w = win->waiters;

        win->waiters = w->next;
        free(w);
    }
    while (win->regions != NULL) {
        struct rma_region *r = win->regions;

        win->regions = r->next;
        free(r);
    }
    if (win->reg_key != 0) {
        win->reg_module->ops->deregister_mem(win->reg_module, win->reg_key);
    }
    if (win->seg != NULL) {
        munmap(win->seg, win->seg_len);
    }
    free(win->owned);
    for (int r = 0; r < win->size; r++) {
        free(win->peers[r].regions);
        while (win->peers[r].held_head != NULL) {
            struct rma_held *m = win->peers[r].held_head;

            win->peers[r].held_head = m->next;
            free(m);
        }
    }
    free(win->peers);
    free(win->start_ranks);
    free(win->post_ranks);
    free(win->complete_reqs);
    free(win->complete_counts);
    win->magic = 0;
    comm_communicator_free(win->comm);
    free(win);
    return err;
}

int comm_win_shared_query(struct comm_win *win, int rank, MPI_Aint *size, int *disp_unit,
                          void *baseptr)
{
    if (rank == MPI_PROC_NULL) {
        for (int r = 0; r < win->size; r++) {
            if (win->peers[r].size > 0) {
                rank = r;
                break;
            }
        }
    }
    if (rank == MPI_PROC_NULL || win->peers[rank].direct == NULL) {
        *size = 0;
        *disp_unit = rank == MPI_PROC_NULL ? 1 : win->peers[rank].disp_unit;
        *(void **)baseptr = NULL;
        return rank == MPI_PROC_NULL ? MPI_SUCCESS
               : win->flavor == MPI_WIN_FLAVOR_SHARED || win->peers[rank].size == 0
                   ? MPI_SUCCESS
                   : MPI_ERR_RMA_FLAVOR;
    }
    *size = (MPI_Aint)win->peers[rank].size;
    *disp_unit = win->peers[rank].disp_unit;
    *(void **)baseptr = win->peers[rank].direct;
    return MPI_SUCCESS;
}

static bool rma_regions_cover(const uint64_t *regions, int n, uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < n; i++) {
        if (lo >= regions[2 * i] && hi <= regions[2 * i] + regions[2 * i + 1]) {
            return true;
        }
    }
    return false;
}

bool comm_win_dynamic_covers(struct comm_win *win, int target, MPI_Aint disp, MPI_Count count,
                             const struct comm_datatype *dt)
{
    struct comm_rma_peer *p = &win->peers[target];
    struct rma_hdr h = {.type = RMA_AM_REGIONS, .epoch = win->fences_done};
    struct comm_request *req;
    uintptr_t lo, hi;
    uint64_t *list;
    char *msg;
    bool ok;

    if (count == 0 || dt->size == 0) {
        return true;
    }
    lo = (uintptr_t)disp + (uintptr_t)dt->true_lb;
    hi = (uintptr_t)disp + (uintptr_t)((count - 1) * dt->extent + dt->true_lb + dt->true_extent);
    comm_core_lock();
    if (target == win->rank) {
        ok = false;
        for (struct rma_region *r = win->regions; r != NULL && !ok; r = r->next) {
            ok = lo >= r->base && hi <= r->base + r->len;
        }
        comm_core_unlock();
        return ok;
    }
    if (rma_regions_cover(p->regions, p->nregions, lo, hi)) {
        comm_core_unlock();
        return true;
    }
    /* Ask the target what it has attached now. */
    list = malloc(2 * RMA_MAX_REGIONS * sizeof(*list));
    msg = malloc(sizeof(h));
    if (list == NULL || msg == NULL) {
        free(list);
        free(msg);
        comm_core_unlock();
        return false;
    }
    memcpy(msg, &h, sizeof(h));
    req = comm_rma_recv(win, target, RMA_TAG_REGIONS, list, 2 * RMA_MAX_REGIONS,
                        comm_datatype_lookup(MPI_UINT64_T), true, NULL, NULL);
    if (req == NULL ||
        comm_rma_send(win, target, RMA_TAG_OP, msg, sizeof(h), comm_datatype_lookup(MPI_BYTE), true,
                      false, NULL, NULL) == NULL) {
        free(list);
        comm_core_unlock();
        return false;
    }
    comm_core_unlock();
    comm_progress_wait(comm_progress_flag_done, &req->complete);
    comm_core_lock();
    free(p->regions);
    p->regions = list;
    p->nregions = req->error == MPI_SUCCESS
                      ? (int)(comm_status_bytes(&req->status) / (2 * sizeof(uint64_t)))
                      : 0;
    comm_request_free(req);
    ok = rma_regions_cover(p->regions, p->nregions, lo, hi);
    comm_core_unlock();
    return ok;
}

int comm_win_attach(struct comm_win *win, void *base, MPI_Aint size)
{
    struct rma_region *r = malloc(sizeof(*r));

    if (r == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (struct rma_region *o = win->regions; o != NULL; o = o->next) {
        if ((uintptr_t)base < o->base + o->len && o->base < (uintptr_t)base + (size_t)size) {
            free(r);
            return MPI_ERR_RMA_ATTACH;
        }
    }
    *r = (struct rma_region){.base = (uintptr_t)base, .len = (size_t)size};
    comm_core_lock();
    r->next = win->regions;
    win->regions = r;
    comm_core_unlock();
    return MPI_SUCCESS;
}

int comm_win_detach(struct comm_win *win, const void *base)
{
    comm_core_lock();
    for (struct rma_region **link = &win->regions; *link != NULL; link = &(*link)->next) {
        if ((*link)->base == (uintptr_t)base) {
            struct rma_region *r = *link;

            *link = r->next;
            comm_core_unlock();
            free(r);
            return MPI_SUCCESS;
        }
    }
    comm_core_unlock();
    return MPI_ERR_RMA_ATTACH;
}
