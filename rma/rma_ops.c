/*
 * rma_ops.c - the origin's side: puts, gets and accumulates by the path each target has, and
 * the synchronization calls that end their epochs.
 *
 * Layer: rma.  Must not: return from a call that completes operations at their targets (fence,
 * complete, unlock, flush) before the targets have them: direct ones are done when the call
 * that made them returns; cma ones too; messages are counted, and the target says when it has
 * carried them out (an answer to an unlock or flush, the counts of a fence, the complete
 * message of an access epoch, which the target serves after the data before it).
 */
#include "config.h"

#include "rma/rma_int.h"

#include "btl/btl.h"
#include "coll/coll.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "base/log.h"
#include "runtime/op/op.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"
#include "runtime/thread.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* ---- helpers ---------------------------------------------------------------------------- */

/* Completion callback of an origin's request: CTX is its target's struct comm_rma_peer. */
static void rma_origin_done(struct comm_request *req)
{
    struct comm_rma_peer *p = req->on_complete_ctx;

    p->outstanding--;
}

static struct comm_datatype *rma_byte(void)
{
    return comm_datatype_lookup(MPI_BYTE);
}

/* Bytes of the target's window from which OP's elements are laid out. */
static MPI_Aint rma_disp_bytes(const struct comm_win *win, const struct comm_rma_op *op)
{
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        return op->disp;
    }
    return op->disp * (MPI_Aint)win->peers[op->target].disp_unit;
}

bool comm_win_op_in_range(const struct comm_win *win, const struct comm_rma_op *op)
{
    const struct comm_datatype *dt = op->tdt;
    MPI_Aint at, lo, hi;

    if (op->target == MPI_PROC_NULL || op->tcount == 0 || dt->size == 0 ||
        win->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        return true;
    }
    at = rma_disp_bytes(win, op);
    lo = at + dt->true_lb;
    hi = at + (MPI_Aint)((op->tcount - 1) * dt->extent) + dt->true_lb + dt->true_extent;
    return lo >= 0 && hi <= (MPI_Aint)win->peers[op->target].size;
}

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

/* The origin's data of OP packed (malloc'ed, *LEN_OUT bytes); NULL when out of memory. */
static char *rma_pack_origin(const struct comm_rma_op *op, size_t *len_out)
{
    size_t len = (size_t)op->ocount * (size_t)op->odt->size;
    char *out = malloc(len > 0 ? len : 1);

    if (out != NULL) {
        comm_datatype_pack(op->odt, op->origin, op->ocount, 0, out, len);
    }
    *len_out = len;
    return out;
}

/* A request already complete, for the request forms of operations done on the spot. */
static struct comm_request *rma_done_request(struct comm_win *win)
{
    struct comm_request *req = comm_request_alloc(COMM_REQUEST_SEND);

    if (req == NULL) {
        return NULL;
    }
    req->comm = win->comm;
    comm_communicator_retain(win->comm);
    req->peer = MPI_PROC_NULL;
    comm_status_set_empty(&req->status);
    comm_request_complete(req, MPI_SUCCESS);
    return req;
}

/* ---- direct: loads and stores ----------------------------------------------------------- */

static int rma_direct(struct comm_win *win, const struct comm_rma_op *op, char *taddr)
{
    struct comm_rma_peer *p = &win->peers[op->target];
    size_t tbytes = (size_t)op->tcount * (size_t)op->tdt->size;
    void *block;
    char *tmp;
    int err = MPI_SUCCESS;

    if (op->odt->contiguous && op->tdt->contiguous &&
        (op->kind == COMM_RMA_PUT || op->kind == COMM_RMA_GET)) {
        /* The common case: one copy of one block. */
        char *o = (char *)(uintptr_t)op->origin + op->odt->lb;
        char *t = taddr + op->tdt->lb;

        memcpy(op->kind == COMM_RMA_PUT ? t : o, op->kind == COMM_RMA_PUT ? o : t, tbytes);
        return MPI_SUCCESS;
    }
    switch (op->kind) {
    case COMM_RMA_PUT:
        if (op->odt->contiguous) {
            comm_datatype_unpack(op->tdt, taddr, op->tcount, 0,
                                 (const char *)op->origin + op->odt->lb, tbytes);
        } else if (op->tdt->contiguous) {
            comm_datatype_pack(op->odt, op->origin, op->ocount, 0, taddr + op->tdt->lb, tbytes);
        } else {
            size_t len;

            tmp = rma_pack_origin(op, &len);
            if (tmp == NULL) {
                return MPI_ERR_NO_MEM;
            }
            comm_datatype_unpack(op->tdt, taddr, op->tcount, 0, tmp, tbytes);
            free(tmp);
        }
        return MPI_SUCCESS;
    case COMM_RMA_GET:
        if (op->odt->contiguous) {
            comm_datatype_pack(op->tdt, taddr, op->tcount, 0,
                               (char *)(uintptr_t)op->origin + op->odt->lb, tbytes);
        } else if (op->tdt->contiguous) {
            comm_datatype_unpack(op->odt, (void *)(uintptr_t)op->origin, op->ocount, 0,
                                 taddr + op->tdt->lb, tbytes);
        } else {
            tmp = malloc(tbytes > 0 ? tbytes : 1);
            if (tmp == NULL) {
                return MPI_ERR_NO_MEM;
            }
            comm_datatype_pack(op->tdt, taddr, op->tcount, 0, tmp, tbytes);
            comm_datatype_unpack(op->odt, (void *)(uintptr_t)op->origin, op->ocount, 0, tmp,
                                 tbytes);
            free(tmp);
        }
        return MPI_SUCCESS;
    default:
        break;
    }
    if (op->tdt->contiguous && (op->ocount == 0 || op->odt->contiguous) &&
        (op->kind == COMM_RMA_CAS || op->kind == COMM_RMA_GET_ACC || op->kind == COMM_RMA_ACC) &&
        (op->kind == COMM_RMA_ACC || op->rdt->contiguous)) {
        /* Dense blocks on every side: the origin's data is already laid out as the target's,
         * and the old contents go straight to the result. */
        const char *in = (const char *)op->origin + (op->ocount > 0 ? op->odt->lb : 0);
        char *t = taddr + op->tdt->lb;

        comm_rma_acc_lock(p->ctl);
        if (op->kind != COMM_RMA_ACC) {
            memcpy((char *)op->result + op->rdt->lb, t, tbytes);
        }
        if (op->kind == COMM_RMA_CAS) {
            if (memcmp(t, op->compare, tbytes) == 0) {
                memcpy(t, in, tbytes);
            }
        } else if (op->ocount > 0 && op->op->index != COMM_OP_NO_OP) {
            err = comm_op_reduce(op->op, in - op->tdt->lb, taddr, op->tcount, op->tdt) == COMM_OK
                      ? MPI_SUCCESS
                      : MPI_ERR_OP;
        }
        comm_rma_acc_unlock(p->ctl);
        return err;
    }
    /* Accumulates: the origin's data laid out as the target's, then the op under the lock. */
    tmp = NULL;
    block = NULL;
    if (op->kind != COMM_RMA_CAS && op->ocount > 0) {
        tmp = comm_coll_alloc_buffer(op->tcount, op->tdt, &block);
        if (tmp == NULL) {
            return MPI_ERR_NO_MEM;
        }
        if (op->odt->contiguous) {
            comm_datatype_unpack(op->tdt, tmp, op->tcount, 0,
                                 (const char *)op->origin + op->odt->lb, tbytes);
        } else {
            size_t len;
            char *packed = rma_pack_origin(op, &len);

            if (packed == NULL) {
                free(block);
                return MPI_ERR_NO_MEM;
            }
            comm_datatype_unpack(op->tdt, tmp, op->tcount, 0, packed, tbytes);
            free(packed);
        }
    }
    comm_rma_acc_lock(p->ctl);
    if (op->kind == COMM_RMA_GET_ACC || op->kind == COMM_RMA_CAS) {
        /* The old contents, in the result's layout. */
        size_t rbytes = (size_t)op->rcount * (size_t)op->rdt->size;
        char *old = malloc(rbytes > 0 ? rbytes : 1);

        if (old == NULL) {
            comm_rma_acc_unlock(p->ctl);
            free(block);
            return MPI_ERR_NO_MEM;
        }
        comm_datatype_pack(op->tdt, taddr, op->tcount, 0, old, rbytes);
        if (op->kind == COMM_RMA_CAS) {
            size_t n = (size_t)op->tdt->size;

            if (memcmp(old, op->compare, n) == 0) {
                memcpy(taddr, op->origin, n);
            }
        } else if (tmp != NULL && op->op->index != COMM_OP_NO_OP) {
            err = comm_op_reduce(op->op, tmp, taddr, op->tcount, op->tdt) == COMM_OK ? MPI_SUCCESS
                                                                                     : MPI_ERR_OP;
        }
        comm_datatype_unpack(op->rdt, op->result, op->rcount, 0, old, rbytes);
        free(old);
    } else if (tmp != NULL) {
        err = comm_op_reduce(op->op, tmp, taddr, op->tcount, op->tdt) == COMM_OK ? MPI_SUCCESS
                                                                                 : MPI_ERR_OP;
    }
    comm_rma_acc_unlock(p->ctl);
    free(block);
    return err;
}

/* ---- cma: single copies into and out of the target's memory ------------------------------ */

/* Moves OP's data (a put or a get) piece by piece of the target type. */
static int rma_cma(struct comm_win *win, const struct comm_rma_op *op)
{
    struct comm_rma_peer *p = &win->peers[op->target];
    size_t tbytes = (size_t)op->tcount * (size_t)op->tdt->size;
    uint64_t at = p->base + (uint64_t)rma_disp_bytes(win, op);
    bool put = op->kind == COMM_RMA_PUT;
    char *tmp = NULL, *local;
    struct comm_dt_cursor cur;
    size_t done = 0;
    int rc = COMM_OK;

    if (op->odt->contiguous) {
        local = (char *)(uintptr_t)op->origin + op->odt->lb;
    } else {
        tmp = malloc(tbytes > 0 ? tbytes : 1);
        if (tmp == NULL) {
            return MPI_ERR_NO_MEM;
        }
        if (put) {
            comm_datatype_pack(op->odt, op->origin, op->ocount, 0, tmp, tbytes);
        }
        local = tmp;
    }
    /* The target type's pieces, at addresses of the target (a cursor over address 0). */
    comm_datatype_cursor_init(&cur, op->tdt, NULL, op->tcount, 0);
    while (done < tbytes && rc == COMM_OK) {
        void *piece;
        size_t n = comm_datatype_cursor_next(&cur, &piece, tbytes - done);
        struct iovec iov = {local + done, n};

        if (n == 0) {
            break;
        }
        rc = put ? p->ep->module->ops->put(p->ep, &iov, 1, at + (uint64_t)(uintptr_t)piece, 0, n)
                 : p->ep->module->ops->get(p->ep, &iov, 1, at + (uint64_t)(uintptr_t)piece, 0, n);
        done += n;
    }
    if (rc == COMM_OK && !put && tmp != NULL) {
        comm_datatype_unpack(op->odt, (void *)(uintptr_t)op->origin, op->ocount, 0, tmp, tbytes);
    }
    free(tmp);
    if (rc != COMM_OK) {
        comm_log_error("rma", "single copy %s rank %d failed", put ? "to" : "from", op->target);
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

/* Sends the lock request of TARGET's epoch, asked for lazily (comm_win_lock), before its first
 * operation; with WAIT, returns once it is granted (an RDMA operation does not wait behind it
 * at the target as messages do).  Called with the core lock held. */
static int rma_lock_now(struct comm_win *win, int target, bool wait)
{
    struct comm_rma_peer *p = &win->peers[target];
    struct rma_hdr h = {.type = RMA_AM_LOCK,
                        .lock = p->lock_type == MPI_LOCK_EXCLUSIVE ? 2 : 1,
                        .epoch = win->fences_done};
    char *msg;

    if (p->lock_pending) {
        msg = malloc(sizeof(h));
        if (msg == NULL) {
            return MPI_ERR_NO_MEM;
        }
        memcpy(msg, &h, sizeof(h));
        p->lock_pending = false;
        p->lock_req =
            comm_rma_recv(win, target, RMA_TAG_ACK, NULL, 0, rma_byte(), true, NULL, NULL);
        if (p->lock_req == NULL || comm_rma_send(win, target, RMA_TAG_OP, msg, sizeof(h),
                                                 rma_byte(), true, false, NULL, NULL) == NULL) {
            return MPI_ERR_OTHER;
        }
    }
    if (wait && p->lock_req != NULL && !comm_request_is_complete(p->lock_req)) {
        comm_core_unlock();
        comm_progress_wait(comm_progress_flag_done, &p->lock_req->complete);
        comm_core_lock();
    }
    return MPI_SUCCESS;
}

/* The end of a lazily asked lock's epoch: its grant received and let go. */
static void rma_lock_done(struct comm_rma_peer *p)
{
    if (p->lock_req != NULL) {
        comm_progress_wait(comm_progress_flag_done, &p->lock_req->complete);
        comm_request_free(p->lock_req);
        p->lock_req = NULL;
    }
    p->lock_pending = false;
}

/* ---- net: RDMA writes and reads ---------------------------------------------------------- */

/* One operation in flight through the network btl: its pieces, and what to do when the last
 * has ended (unpack a get into a non-contiguous origin, free the bounce buffer). */
struct rma_net_op {
    struct comm_rma_peer *p;
    unsigned pieces;
    int status;
    char *tmp;
    void *origin;
    MPI_Count ocount;
    struct comm_datatype *odt; /* one reference, while a get's data must be unpacked */
    size_t bytes;
};

static void rma_net_done(void *ctx, int status)
{
    struct rma_net_op *n = ctx;

    if (status != COMM_OK) {
        n->status = status;
    }
    if (--n->pieces > 0) {
        return;
    }
    if (n->status != COMM_OK) {
        comm_log_error("rma", "an RDMA %s of rank %ld's window failed", n->odt ? "read" : "write",
                       n->p->world);
    } else if (n->odt != NULL && n->tmp != NULL) {
        comm_datatype_unpack(n->odt, n->origin, n->ocount, 0, n->tmp, n->bytes);
    }
    comm_datatype_release(n->odt);
    free(n->tmp);
    n->p->outstanding--;
    free(n);
}

static int rma_net(struct comm_win *win, const struct comm_rma_op *op)
{
    struct comm_rma_peer *p = &win->peers[op->target];
    const struct comm_btl_ops *ops = p->ep->module->ops;
    size_t tbytes = (size_t)op->tcount * (size_t)op->tdt->size;
    uint64_t at = p->base + (uint64_t)rma_disp_bytes(win, op);
    bool put = op->kind == COMM_RMA_PUT;
    struct rma_net_op *n = calloc(1, sizeof(*n));
    struct comm_dt_cursor cur;
    size_t done = 0;
    char *local;
    int rc = COMM_OK;

    if (n == NULL) {
        return MPI_ERR_NO_MEM;
    }
    *n = (struct rma_net_op){.p = p, .pieces = 1, .status = COMM_OK, .bytes = tbytes};
    if (op->odt->contiguous) {
        local = (char *)(uintptr_t)op->origin + op->odt->lb;
    } else {
        n->tmp = malloc(tbytes > 0 ? tbytes : 1);
        if (n->tmp == NULL) {
            free(n);
            return MPI_ERR_NO_MEM;
        }
        if (put) {
            comm_datatype_pack(op->odt, op->origin, op->ocount, 0, n->tmp, tbytes);
        } else {
            n->origin = (void *)(uintptr_t)op->origin;
            n->ocount = op->ocount;
            n->odt = op->odt;
            comm_datatype_retain(n->odt);
        }
        local = n->tmp;
    }
    p->outstanding++;
    /* One piece per contiguous run of the target type; the extra count keeps the operation
     * alive until every piece has begun. */
    comm_datatype_cursor_init(&cur, op->tdt, NULL, op->tcount, 0);
    while (done < tbytes) {
        void *piece;
        size_t len = comm_datatype_cursor_next(&cur, &piece, tbytes - done);
        struct iovec iov = {local + done, len};
        uint64_t remote = at + (uint64_t)(uintptr_t)piece;

        if (len == 0) {
            break;
        }
        n->pieces++;
        do {
            rc = put ? ops->write_start(p->ep, &iov, 1, remote, p->key, len, rma_net_done, n)
                     : ops->get_start(p->ep, &iov, 1, remote, p->key, len, rma_net_done, n);
            if (rc == COMM_AGAIN) {
                comm_progress_poll();
            }
        } while (rc == COMM_AGAIN);
        if (rc != COMM_OK) {
            n->pieces--;
            n->status = rc;
            break;
        }
        done += len;
    }
    rma_net_done(n, rc == COMM_OK ? COMM_OK : rc);
    return rc == COMM_OK ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* ---- messages --------------------------------------------------------------------------- */

static int rma_message(struct comm_win *win, const struct comm_rma_op *op,
                       struct comm_request **req_out)
{
    struct comm_rma_peer *p = &win->peers[op->target];
    bool derived = !op->tdt->predefined;
    size_t dt_len = derived ? comm_datatype_wire_size(op->tdt) : 0;
    size_t data = 0, cap;
    struct rma_hdr h = {.type = (uint8_t)op->kind,
                        .epoch = win->fences_done,
                        .disp = (uint64_t)rma_disp_bytes(win, op),
                        .tcount = op->tcount,
                        .tdt = derived ? 0 : (uint64_t)(uintptr_t)op->tdt->handle,
                        .dt_len = (uint32_t)dt_len,
                        .op = op->op != NULL ? (uint32_t)(uintptr_t)op->op->handle : 0};
    struct comm_request *user = NULL;
    char *msg;

    if (derived) {
        h.flags |= RMA_HDR_DT;
    }
    if (op->kind != COMM_RMA_GET) {
        data = (size_t)op->tcount * (size_t)op->tdt->size;
        if (op->kind == COMM_RMA_CAS) {
            data *= 2;
        }
    }
    h.len = data;
    cap = sizeof(h) + dt_len;
    if (cap + data <= RMA_SLOT_BYTES || op->kind == COMM_RMA_CAS) {
        h.flags |= RMA_HDR_INLINE;
        cap += data;
    }
    msg = malloc(cap);
    if (msg == NULL) {
        return MPI_ERR_NO_MEM;
    }
    memcpy(msg, &h, sizeof(h));
    if (derived && comm_datatype_wire_write(op->tdt, msg + sizeof(h), dt_len) != COMM_OK) {
        free(msg);
        return MPI_ERR_NO_MEM;
    }
    if (h.flags & RMA_HDR_INLINE) {
        char *at = msg + sizeof(h) + dt_len;

        if (op->kind == COMM_RMA_CAS) {
            memcpy(at, op->origin, data / 2);
            memcpy(at + data / 2, op->compare, data / 2);
        } else if (data > 0) {
            comm_datatype_pack(op->odt, op->origin, op->ocount, 0, at, data);
        }
    }
    /* The answer's receive goes first: it must be posted before the target can answer. */
    if (op->kind == COMM_RMA_GET || op->kind == COMM_RMA_GET_ACC || op->kind == COMM_RMA_CAS) {
        void *into = op->kind == COMM_RMA_GET ? (void *)(uintptr_t)op->origin : op->result;
        MPI_Count n = op->kind == COMM_RMA_GET ? op->ocount : op->rcount;
        struct comm_datatype *dt = op->kind == COMM_RMA_GET ? op->odt : op->rdt;

        p->outstanding++;
        user = comm_rma_recv(win, op->target, RMA_TAG_RESP, into, n, dt, req_out != NULL,
                             rma_origin_done, p);
        if (user == NULL) {
            p->outstanding--;
            free(msg);
            return MPI_ERR_OTHER;
        }
    }
    p->outstanding++;
    p->sent++;
    if (op->kind == COMM_RMA_PUT || op->kind == COMM_RMA_ACC) {
        p->unflushed++; /* the target's answer to a fetch says it is done; these need asking */
    }
    if (comm_rma_send(win, op->target, RMA_TAG_OP, msg, (MPI_Count)cap, rma_byte(), true, false,
                      rma_origin_done, p) == NULL) {
        return MPI_ERR_OTHER;
    }
    if (!(h.flags & RMA_HDR_INLINE) && data > 0) {
        p->outstanding++;
        user = comm_rma_send(win, op->target, RMA_TAG_DATA, op->origin, op->ocount, op->odt, false,
                             req_out != NULL, rma_origin_done, p);
        if (user == NULL) {
            return MPI_ERR_OTHER;
        }
    }
    if (req_out != NULL) {
        *req_out = user != NULL ? user : rma_done_request(win);
        if (*req_out == NULL) {
            return MPI_ERR_NO_MEM;
        }
    }
    return MPI_SUCCESS;
}

int comm_win_op(struct comm_win *win, const struct comm_rma_op *op, struct comm_request **req_out)
{
    struct comm_rma_peer *p;
    int err;

    if (op->target == MPI_PROC_NULL) {
        if (req_out != NULL) {
            *req_out = rma_done_request(win);
        }
        return MPI_SUCCESS;
    }
    p = &win->peers[op->target];
    comm_core_lock();
    if (win->any_messages && (++win->ops_started & 15) == 0) {
        /* A program that spins on operations to targets it reaches directly (a lock taken with
         * compare-and-swap on itself) must still serve the others' messages. */
        comm_progress_poll();
    }
    if (op->target != win->rank &&
        (p->path == COMM_RMA_DIRECT || p->path == COMM_RMA_CMA || p->path == COMM_RMA_NET)) {
        /* Conservative: an accumulate to such a target is a message, but it still counts. */
        win->bypassed = true;
    }
    if (p->path == COMM_RMA_DIRECT &&
        (p->direct != NULL || win->flavor == MPI_WIN_FLAVOR_DYNAMIC)) {
        char *taddr = win->flavor == MPI_WIN_FLAVOR_DYNAMIC ? (char *)(uintptr_t)op->disp
                                                            : p->direct + rma_disp_bytes(win, op);

        err = rma_direct(win, op, taddr);
        if (err == MPI_SUCCESS && req_out != NULL) {
            *req_out = rma_done_request(win);
        }
    } else if (p->path == COMM_RMA_NET && req_out == NULL &&
               (op->kind == COMM_RMA_PUT || op->kind == COMM_RMA_GET) &&
               (size_t)op->tcount * (size_t)op->tdt->size >= win->rdma_min) {
        err = rma_lock_now(win, op->target, true);
        if (err == MPI_SUCCESS) {
            err = rma_net(win, op);
        }
    } else if (p->path == COMM_RMA_CMA && (op->kind == COMM_RMA_PUT || op->kind == COMM_RMA_GET)) {
        err = rma_cma(win, op);
        if (err == MPI_SUCCESS && req_out != NULL) {
            *req_out = rma_done_request(win);
        }
    } else {
        err = rma_lock_now(win, op->target, false);
        if (err == MPI_SUCCESS) {
            err = rma_message(win, op, req_out);
        }
    }
    comm_core_unlock();
    return err;
}

/* ---- waiting ---------------------------------------------------------------------------- */

struct rma_wait_peers {
    struct comm_win *win;
    int target; /* COMM_RMA_ALL: all */
};

static bool rma_locally_done(void *arg)
{
    const struct rma_wait_peers *w = arg;

    if (w->target >= 0) {
        return w->win->peers[w->target].outstanding == 0;
    }
    for (int r = 0; r < w->win->size; r++) {
        if (w->win->peers[r].outstanding != 0) {
            return false;
        }
    }
    return true;
}

static void rma_wait_local(struct comm_win *win, int target)
{
    struct rma_wait_peers w = {win, target};

    if (win->any_messages && !rma_locally_done(&w)) {
        comm_progress_wait(rma_locally_done, &w);
    }
}

/* Waits for every request of N. */
static bool rma_all_complete(void *arg)
{
    struct comm_request **reqs = arg;

    for (; *reqs != NULL; reqs++) {
        if (!comm_request_is_complete(*reqs)) {
            return false;
        }
    }
    return true;
}

static void rma_wait_requests(struct comm_request **reqs, int n)
{
    int err = MPI_SUCCESS;

    comm_progress_wait(rma_all_complete, reqs);
    for (int i = 0; i < n; i++) {
        if (reqs[i]->error != MPI_SUCCESS) {
            err = reqs[i]->error;
        }
        comm_request_free(reqs[i]);
    }
    if (err != MPI_SUCCESS) {
        comm_log_error("rma", "a synchronization message failed (error %d)", err);
    }
}

/* Sends control message TYPE to each target of TARGETS (N of them) and, with ACK, waits for
 * their answers. */
static int rma_control(struct comm_win *win, const int *targets, int n, int type, int lock_type,
                       bool ack)
{
    struct comm_request **reqs = calloc((size_t)n + 1, sizeof(*reqs));
    struct rma_hdr h = {.type = (uint8_t)type,
                        .epoch = win->fences_done,
                        .lock = (uint8_t)(lock_type == MPI_LOCK_EXCLUSIVE ? 2 : 1),
                        .flags = ack ? RMA_HDR_ACK : 0};
    int k = 0;

    if (reqs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_core_lock();
    for (int i = 0; i < n; i++) {
        char *msg = malloc(sizeof(h));

        if (msg == NULL) {
            break;
        }
        memcpy(msg, &h, sizeof(h));
        if (ack) {
            reqs[k] =
                comm_rma_recv(win, targets[i], RMA_TAG_ACK, NULL, 0, rma_byte(), true, NULL, NULL);
            if (reqs[k] == NULL) {
                free(msg);
                break;
            }
            k++;
        }
        if (comm_rma_send(win, targets[i], RMA_TAG_OP, msg, sizeof(h), rma_byte(), true, false,
                          NULL, NULL) == NULL) {
            break;
        }
    }
    comm_core_unlock();
    rma_wait_requests(reqs, k);
    free(reqs);
    return k == (ack ? n : 0) ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* ---- fence ------------------------------------------------------------------------------ */

static bool rma_applied_enough(void *arg)
{
    const struct comm_win *win = arg;

    return win->applied >= win->fence_expected;
}

int comm_win_fence(struct comm_win *win, int assert)
{
    bool barrier = true;
    int err = MPI_SUCCESS;

    if (!win->any_messages || (assert &MPI_MODE_NOPRECEDE)) {
        rma_wait_local(win, COMM_RMA_ALL);
    } else {
        /* Per target: how many messages it was sent, ever (it waits until it carried out as
         * many), and whether anyone reached another rank without messages (then a barrier
         * keeps those from landing before a target is done with this epoch's messages; the
         * next epoch's messages wait by themselves, by their epoch number). */
        uint64_t *sent = malloc((size_t)win->size * 2 * sizeof(*sent)), mine[2];
        int *counts = malloc((size_t)win->size * sizeof(int));

        if (sent == NULL || counts == NULL) {
            free(sent);
            free(counts);
            return MPI_ERR_NO_MEM;
        }
        for (int r = 0; r < win->size; r++) {
            sent[2 * r] = win->peers[r].sent;
            sent[2 * r + 1] = win->bypassed;
            counts[r] = 2;
        }
        err = win->comm->coll->reduce_scatter(sent, mine, counts,
                                              comm_datatype_lookup(MPI_UINT64_T),
                                              comm_op_lookup(MPI_SUM), win->comm);
        free(sent);
        free(counts);
        if (err != MPI_SUCCESS) {
            return err;
        }
        win->fence_expected = mine[0];
        comm_progress_wait(rma_applied_enough, win);
        /* This process's gets were answered meanwhile (their targets counted them). */
        rma_wait_local(win, COMM_RMA_ALL);
        for (int r = 0; r < win->size; r++) {
            win->peers[r].unflushed = 0;
        }
        barrier = mine[1] > 0;
    }
    comm_core_lock();
    win->bypassed = false;
    comm_rma_fence_passed(win);
    comm_core_unlock();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (barrier) {
        /* No member starts the next epoch before every member has ended this one. */
        err = comm_rma_barrier(win);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    win->fence_open = !(assert &MPI_MODE_NOSUCCEED);
    return err;
}

/* ---- post, start, complete, wait --------------------------------------------------------- */

static int *rma_copy_ranks(const int *ranks, int n)
{
    int *c = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));

    if (c != NULL && n > 0) {
        memcpy(c, ranks, (size_t)n * sizeof(int));
    }
    return c;
}

int comm_win_post(struct comm_win *win, const int *ranks, int n, int assert)
{
    int *copy = rma_copy_ranks(ranks, n);
    struct comm_request **reqs = calloc((size_t)n + 1, sizeof(*reqs));
    uint64_t *counts = calloc((size_t)n + 1, sizeof(*counts));
    int err = MPI_SUCCESS;

    if (copy == NULL || reqs == NULL || counts == NULL) {
        free(copy);
        free(reqs);
        free(counts);
        return MPI_ERR_NO_MEM;
    }
    free(win->post_ranks);
    free(win->complete_reqs);
    free(win->complete_counts);
    win->post_ranks = copy;
    win->npost = n;
    win->complete_reqs = reqs;
    win->complete_counts = counts;
    win->exposed = true;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    comm_core_lock();
    for (int i = 0; i < n; i++) {
        reqs[i] = comm_rma_recv(win, ranks[i], RMA_TAG_COMPLETE, &counts[i], 1,
                                comm_datatype_lookup(MPI_UINT64_T), true, NULL, NULL);
        if (reqs[i] == NULL) {
            err = MPI_ERR_OTHER;
            break;
        }
        if (!(assert &MPI_MODE_NOCHECK) &&
            comm_rma_send(win, ranks[i], RMA_TAG_POST, NULL, 0, rma_byte(), false, false, NULL,
                          NULL) == NULL) {
            err = MPI_ERR_OTHER;
            break;
        }
    }
    comm_core_unlock();
    return err;
}

int comm_win_start(struct comm_win *win, const int *ranks, int n, int assert)
{
    int *copy = rma_copy_ranks(ranks, n);
    struct comm_request **reqs;
    int k = 0;

    if (copy == NULL) {
        return MPI_ERR_NO_MEM;
    }
    free(win->start_ranks);
    win->start_ranks = copy;
    win->nstart = n;
    win->access = COMM_RMA_PSCW;
    if (assert & MPI_MODE_NOCHECK) {
        return MPI_SUCCESS;
    }
    reqs = calloc((size_t)n + 1, sizeof(*reqs));
    if (reqs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_core_lock();
    for (int i = 0; i < n; i++) {
        reqs[k] = comm_rma_recv(win, ranks[i], RMA_TAG_POST, NULL, 0, rma_byte(), true, NULL, NULL);
        if (reqs[k] != NULL) {
            k++;
        }
    }
    comm_core_unlock();
    rma_wait_requests(reqs, k);
    free(reqs);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return k == n ? MPI_SUCCESS : MPI_ERR_OTHER;
}

int comm_win_complete(struct comm_win *win)
{
    int err = MPI_SUCCESS;

    rma_wait_local(win, COMM_RMA_ALL);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* Each target hears how many data messages it was sent: it waits for them. */
    comm_core_lock();
    for (int i = 0; i < win->nstart; i++) {
        struct comm_rma_peer *p = &win->peers[win->start_ranks[i]];
        uint64_t *count = malloc(sizeof(*count));

        if (count == NULL) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        *count = p->sent;
        p->unflushed = 0;
        if (comm_rma_send(win, win->start_ranks[i], RMA_TAG_COMPLETE, count, 1,
                          comm_datatype_lookup(MPI_UINT64_T), true, false, NULL, NULL) == NULL) {
            err = MPI_ERR_OTHER;
            break;
        }
    }
    comm_core_unlock();
    win->access = COMM_RMA_NONE;
    win->nstart = 0;
    return err;
}

/* Whether every origin of the exposure epoch has completed, and its data was carried out. */
static bool rma_all_completed(void *arg)
{
    const struct comm_win *win = arg;

    for (int i = 0; i < win->npost; i++) {
        if (!comm_request_is_complete(win->complete_reqs[i]) ||
            win->peers[win->post_ranks[i]].got < win->complete_counts[i]) {
            return false;
        }
    }
    return true;
}

static void rma_end_exposure(struct comm_win *win)
{
    comm_core_lock();
    for (int i = 0; i < win->npost; i++) {
        comm_request_free(win->complete_reqs[i]);
        win->complete_reqs[i] = NULL;
    }
    win->exposed = false;
    win->npost = 0;
    comm_core_unlock();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

int comm_win_wait(struct comm_win *win)
{
    comm_progress_wait(rma_all_completed, win);
    rma_end_exposure(win);
    return MPI_SUCCESS;
}

int comm_win_test(struct comm_win *win, bool *flag)
{
    comm_progress();
    comm_core_lock();
    *flag = rma_all_completed(win);
    comm_core_unlock();
    if (*flag) {
        rma_end_exposure(win);
    }
    return MPI_SUCCESS;
}

/* ---- locks ------------------------------------------------------------------------------ */

struct rma_spin {
    struct comm_rma_ctl *ctl;
    int lock_type;
};

static bool rma_try_ctl(void *arg)
{
    const struct rma_spin *s = arg;

    return comm_rma_try_lock(s->ctl, s->lock_type);
}

static int rma_lock_one(struct comm_win *win, int lock_type, int target)
{
    struct comm_rma_peer *p = &win->peers[target];

    p->lock_type = lock_type;
    p->lock_pending = false;
    if (p->ctl != NULL && p->path != COMM_RMA_MESSAGES) {
        struct rma_spin s = {p->ctl, lock_type};

        if (!comm_rma_try_lock(p->ctl, lock_type)) {
            comm_progress_wait(rma_try_ctl, &s);
        }
        p->lock_direct = true;
        return MPI_SUCCESS;
    }
    p->lock_direct = false;
    p->lock_pending = true; /* asked for with the epoch's first operation */
    return MPI_SUCCESS;
}

int comm_win_lock(struct comm_win *win, int lock_type, int target, int assert)
{
    int err = MPI_SUCCESS;

    win->nlocks++;
    win->access = COMM_RMA_LOCKS;
    if (target == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    (void)assert; /* a lock granted by messages is asked for when first used, whatever the
                     assertion: its unlock gives it back */
    rma_lock_one(win, lock_type, target);
    win->peers[target].unflushed = 0;
    return err;
}

/* Ends the lock on TARGET: its operations done there, then the lock let go. */
static int rma_unlock_one(struct comm_win *win, int target)
{
    struct comm_rma_peer *p = &win->peers[target];
    int err = MPI_SUCCESS;

    rma_wait_local(win, target);
    if (p->lock_direct) {
        if (p->unflushed > 0) {
            err = rma_control(win, &target, 1, RMA_AM_FLUSH, 0, true);
        }
        /* Releasing the lock orders this epoch's stores before it. */
        comm_rma_unlock_ctl(p->ctl, p->lock_type);
    } else if (!p->lock_pending) {
        /* Fetches were answered, so done: only puts and accumulates need the target's word. */
        err = rma_control(win, &target, 1, RMA_AM_UNLOCK, p->lock_type, p->unflushed > 0);
        rma_lock_done(p);
    }
    p->lock_pending = false;
    p->unflushed = 0;
    p->lock_type = 0;
    p->lock_direct = false;
    return err;
}

int comm_win_unlock(struct comm_win *win, int target)
{
    int err = MPI_SUCCESS;

    if (target != MPI_PROC_NULL) {
        err = rma_unlock_one(win, target);
    }
    if (--win->nlocks == 0) {
        win->access = COMM_RMA_NONE;
    }
    return err;
}

int comm_win_lock_all(struct comm_win *win, int assert)
{
    int *remote = malloc((size_t)win->size * sizeof(int)), n = 0, err = MPI_SUCCESS;

    if (remote == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < win->size; r++) {
        rma_lock_one(win, MPI_LOCK_SHARED, r);
        win->peers[r].unflushed = 0;
    }
    (void)assert;
    (void)n;
    free(remote);
    win->access = COMM_RMA_LOCK_ALL;
    return err;
}

int comm_win_unlock_all(struct comm_win *win)
{
    int *remote = malloc((size_t)win->size * sizeof(int)), *flush, n = 0, nf = 0, nq = 0;
    int err = MPI_SUCCESS, e;

    flush = malloc((size_t)win->size * sizeof(int));
    if (remote == NULL || flush == NULL) {
        free(remote);
        free(flush);
        return MPI_ERR_NO_MEM;
    }
    rma_wait_local(win, COMM_RMA_ALL);
    for (int r = 0; r < win->size; r++) {
        struct comm_rma_peer *p = &win->peers[r];

        if (p->lock_direct) {
            if (p->unflushed > 0) {
                flush[nf++] = r;
            }
        } else if (!p->lock_pending && p->unflushed > 0) {
            remote[n++] = r;
        } else if (!p->lock_pending) {
            /* Nothing to confirm: let go without waiting (listed from the end). */
            remote[win->size - 1 - nq++] = r;
        }
    }
    if (nf > 0) {
        err = rma_control(win, flush, nf, RMA_AM_FLUSH, 0, true);
    }
    if (n > 0) {
        e = rma_control(win, remote, n, RMA_AM_UNLOCK, MPI_LOCK_SHARED, true);
        err = err != MPI_SUCCESS ? err : e;
    }
    if (nq > 0) {
        e = rma_control(win, remote + win->size - nq, nq, RMA_AM_UNLOCK, MPI_LOCK_SHARED, false);
        err = err != MPI_SUCCESS ? err : e;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int r = 0; r < win->size; r++) {
        struct comm_rma_peer *p = &win->peers[r];

        if (p->lock_direct) {
            comm_rma_unlock_ctl(p->ctl, MPI_LOCK_SHARED);
        } else {
            rma_lock_done(p);
        }
        p->lock_type = 0;
        p->lock_direct = false;
        p->unflushed = 0;
    }
    free(remote);
    free(flush);
    win->access = COMM_RMA_NONE;
    return err;
}

int comm_win_flush(struct comm_win *win, int target, bool local)
{
    int *need, n = 0, err = MPI_SUCCESS;

    if (target == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (!win->any_messages) {
        /* Every operation was done when its call returned. */
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return MPI_SUCCESS;
    }
    /* Serve the others too, even when nothing of ours waits (see comm_win_op). */
    comm_progress();
    rma_wait_local(win, target);
    if (local) {
        return MPI_SUCCESS;
    }
    need = malloc((size_t)win->size * sizeof(int));
    if (need == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (int r = target >= 0 ? target : 0; r < (target >= 0 ? target + 1 : win->size); r++) {
        if (win->peers[r].unflushed > 0 && !win->peers[r].lock_pending) {
            need[n++] = r;
            win->peers[r].unflushed = 0;
        }
    }
    if (n > 0) {
        err = rma_control(win, need, n, RMA_AM_FLUSH, 0, true);
    }
    free(need);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return err;
}

int comm_win_sync(struct comm_win *win)
{
    (void)win;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    comm_progress();
    return MPI_SUCCESS;
}
