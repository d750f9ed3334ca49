/*
 * rma_ops.c - the origin's side: puts, gets and accumulates by the path each target has
 * (direct loads and stores, CMA, RDMA, or messages the target carries out).
 *
 * Layer: rma.  Must not: wait for an operation's completion at its target (rma_sync.c's calls
 * do); direct and cma operations are done when the call that made them returns.
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
            rc = put ? ops->write_start(p->ep, &iov, 1, remote, &p->key, len, rma_net_done, n)
                     : ops->get_start(p->ep, &iov, 1, remote, &p->key, len, rma_net_done, n);
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
