/*
 * p2p.c - point-to-point protocols: eager, eager-sync, rendezvous with a single-copy read
 * (shared out between the receiver's read and the sender's write for large messages), and the
 * pipelined copy when the transport cannot read peer memory.  See p2p.h.
 *
 * A shared-out rendezvous: the receiver of an RTS of at least the btl's split_min bytes, into
 * contiguous memory, on a btl that can also write peer memory, registers the second part,
 * sends SHARE (its buffer, the split point and that registration's key) and reads the first
 * part while the sender writes the rest with put and answers SHARED (how much it wrote: 0 when
 * it could not, and the receiver reads that part too).  The receiver then deregisters,
 * completes and sends FIN, once it has every byte and the sender has said that it writes no
 * more; the sender completes at FIN.  So both cores copy at once, and the receiver of a large
 * message waits for its sender to enter the library.  Only when the sender has a core to spare
 * (see p2p_share_out).
 *
 * A read the transport can do without waiting (get_start) is begun, and the receive completes,
 * FIN going back, when the transport says it ended; so the reads of messages that arrive one
 * after another overlap.  Into non-contiguous memory only when the transport stripes the
 * message (several rails): read whole into a buffer of the request's, then unpacked.
 * Otherwise the receiver waits in get.
 *
 * A written rendezvous: the receiver of an RTS of at most the btl's write_max bytes, into
 * contiguous memory, registers that memory and sends CTW (its buffer, that registration's key
 * and a token naming the receive).  The sender writes the message there with put_start and
 * completes when its write has left; the receiver's btl hands it the token once the bytes are
 * in place, and it completes.  No FIN: the reply a receiver sends next is not queued behind
 * one (between two simulated hosts a ping-pong of 128 KiB messages took 33.9 us one way
 * against 42.2 read, medians of 5 runs).  A sender that cannot write answers NOWRITE, and the
 * receiver reads after all.  A message above the endpoint's write_alone_above is offered only
 * while no other offer to that sender is under way: the btl writes it in pieces one after
 * another, which the reads of a stream outrun.
 *
 * Layer: runtime core.  Must not: check MPI arguments, or reach into a btl's internals.
 */
#include "config.h"

#include "runtime/p2p/p2p.h"
#include "btl/btl.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/job_topo.h"
#include "base/error.h"
#include "base/log.h"
#include "runtime/thread.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum p2p_type {
    P2P_EAGER = 1,
    P2P_EAGER_SYNC,
    P2P_RTS,
    P2P_ACK,
    P2P_FIN,
    P2P_CTS,
    P2P_DATA,
    P2P_SHARE,
    P2P_SHARED,
    P2P_CTW,
    P2P_NOWRITE,
};

/* Every fragment that takes part in matching starts with this. */
struct p2p_match_hdr {
    uint8_t type;
    uint8_t pad[3];
    int32_t src;
    int32_t tag;
    uint32_t ctx;
    uint64_t len; /* bytes of the whole message */
};

struct p2p_sync_hdr {
    struct p2p_match_hdr m;
    uint64_t sreq;
};

struct p2p_rts_hdr {
    struct p2p_match_hdr m;
    uint64_t sreq;
    uint64_t addr;
    struct comm_btl_key key;
};

/* ACK, FIN, CTS, DATA, SHARE, SHARED, CTW and NOWRITE. */
struct p2p_ctl_hdr {
    uint8_t type;
    uint8_t pad[7];
    uint64_t sreq;
    uint64_t rreq;
    uint64_t offset; /* DATA: where this fragment goes; SHARE: where the sender's part starts;
                      * CTW and NOWRITE: the receive's token */
    uint64_t len;    /* CTS and CTW: bytes wanted; DATA: bytes in this fragment; SHARE: bytes
                      * of the sender's part; SHARED: bytes it wrote */
    uint64_t addr;   /* SHARE and CTW: the receiver's buffer */
    struct comm_btl_key key; /* SHARE: the receiver's registration of the sender's part; CTW: of the
                              * whole */
};

struct comm_p2p_ctl_pending {
    struct comm_p2p_ctl_pending *next;
    struct p2p_ctl_hdr hdr;
};

/* Guarded by: the core lock; set up at init. */
static struct comm_proc *p2p_procs;
static long p2p_nprocs;
static struct comm_proc *p2p_busy; /* peers with something waiting to go out */

struct comm_proc *comm_p2p_proc(long world_rank)
{
    return &p2p_procs[world_rank];
}

static void p2p_mark_busy(struct comm_proc *proc)
{
    if (!proc->in_busy_list) {
        proc->in_busy_list = true;
        proc->busy_next = p2p_busy;
        p2p_busy = proc;
    }
}

static struct comm_request *p2p_request_of(uint64_t id)
{
    return (struct comm_request *)(uintptr_t)id;
}

static uint64_t p2p_id_of(struct comm_request *req)
{
    return (uint64_t)(uintptr_t)req;
}

/* ---- sending control fragments ---------------------------------------------------- */

static void p2p_send_ctl(struct comm_proc *proc, const struct p2p_ctl_hdr *hdr)
{
    struct comm_btl_endpoint *ep = proc->ep;
    struct comm_p2p_ctl_pending *p;

    if (proc->ctl_head == NULL &&
        ep->module->ops->send(ep, hdr, sizeof(*hdr), NULL, 0) == COMM_OK) {
        return;
    }
    p = malloc(sizeof(*p));
    if (p == NULL) {
        /* Nothing sensible remains: the peer would wait forever for this answer. */
        comm_log_error("runtime", "out of memory queueing a control message to rank %ld",
                       proc->rank);
        return;
    }
    p->hdr = *hdr;
    p->next = NULL;
    if (proc->ctl_tail != NULL) {
        proc->ctl_tail->next = p;
    } else {
        proc->ctl_head = p;
    }
    proc->ctl_tail = p;
    p2p_mark_busy(proc);
}

static void p2p_answer(long peer, enum p2p_type type, uint64_t sreq, uint64_t rreq, uint64_t len)
{
    struct p2p_ctl_hdr h = {.type = (uint8_t)type, .sreq = sreq, .rreq = rreq, .len = len};

    p2p_send_ctl(&p2p_procs[peer], &h);
}

/* ---- sending messages ------------------------------------------------------------- */

/* Address of the packed bytes of a contiguous buffer. */
static char *p2p_contig_base(const struct comm_request *req)
{
    return (char *)req->buf + req->dt->true_lb;
}

static void p2p_pack(const struct comm_request *req, size_t offset, void *out, size_t len)
{
    if (req->dt->contiguous) {
        memcpy(out, p2p_contig_base(req) + offset, len);
    } else {
        comm_datatype_pack(req->dt, req->buf, req->count, offset, out, len);
    }
}

static void p2p_fill_match(struct p2p_match_hdr *h, const struct comm_request *req,
                           enum p2p_type type)
{
    h->type = (uint8_t)type;
    h->pad[0] = h->pad[1] = h->pad[2] = 0;
    h->src = req->comm->rank;
    h->tag = req->tag;
    h->ctx = req->comm->context_id + (req->collective ? 1u : 0u);
    h->len = req->len;
}

/* Sends the match-carrying fragment of REQ.  COMM_AGAIN: no room, retry later. */
static int p2p_send_match(struct comm_request *req)
{
    struct comm_btl_endpoint *ep = req->proc->ep;
    const struct comm_btl_ops *ops = ep->module->ops;
    bool sync = req->mode == COMM_SEND_SYNC;
    int rc;

    if (req->len <= ep->module->eager_limit) {
        size_t hlen = sync ? sizeof(struct p2p_sync_hdr) : sizeof(struct p2p_match_hdr);
        void *slot;

        rc = ops->reserve(ep, hlen + req->len, &slot);
        if (rc != COMM_OK) {
            return rc;
        }
        if (sync) {
            struct p2p_sync_hdr *h = slot;
            p2p_fill_match(&h->m, req, P2P_EAGER_SYNC);
            h->sreq = p2p_id_of(req);
        } else {
            p2p_fill_match(slot, req, P2P_EAGER);
        }
        if (req->len > 0) {
            p2p_pack(req, 0, (char *)slot + hlen, req->len);
        }
        ops->commit(ep, slot, hlen + req->len);
        if (sync) {
            req->state = COMM_REQUEST_WAIT_ACK;
        } else {
            comm_request_complete(req, MPI_SUCCESS);
        }
        return COMM_OK;
    } else {
        struct p2p_rts_hdr h;
        struct comm_btl_key key = {{0}};

        if (!req->dt->contiguous && req->bounce == NULL) {
            req->bounce = malloc(req->len);
            if (req->bounce == NULL) {
                comm_log_error("runtime",
                               "out of memory packing a %zu-byte message for rank "
                               "%d",
                               req->len, req->peer);
                return COMM_ERR_NOMEM;
            }
            comm_datatype_pack(req->dt, req->buf, req->count, 0, req->bounce, req->len);
        }
        p2p_fill_match(&h.m, req, P2P_RTS);
        h.sreq = p2p_id_of(req);
        h.addr = (uint64_t)(uintptr_t)(req->bounce ? req->bounce : p2p_contig_base(req));
        /* Registered once, even if the RTS must wait for room; released when the peer
         * has read it (FIN) or when it was streamed. */
        if (!req->rndv_registered) {
            rc = ops->register_mem(ep->module, (void *)(uintptr_t)h.addr, req->len, &key);
            if (rc < 0 && rc != COMM_ERR_NOT_SUPPORTED) {
                return rc;
            }
            req->rndv_key = key;
            req->rndv_registered = rc == COMM_OK;
        }
        h.key = req->rndv_key;
        rc = ops->send(ep, &h, sizeof(h), NULL, 0);
        if (rc != COMM_OK) {
            return rc;
        }
        req->state = COMM_REQUEST_WAIT_FIN;
        req->proc->rndv_out++;
        return COMM_OK;
    }
}

/* Releases the registration of a rendezvous send once the peer no longer needs it. */
static void p2p_release_rndv(struct comm_request *req)
{
    if (req->rndv_registered) {
        struct comm_btl_module *module = req->proc->ep->module;

        module->ops->deregister_mem(module, &req->rndv_key);
        req->rndv_registered = false;
    }
}

/* Streams the DATA fragments of REQ after a CTS.  COMM_AGAIN: no room for the rest. */
static int p2p_stream(struct comm_request *req)
{
    struct comm_btl_endpoint *ep = req->proc->ep;
    const struct comm_btl_ops *ops = ep->module->ops;
    size_t room = ep->module->max_fragment - sizeof(struct p2p_ctl_hdr);

    while (req->done < req->want) {
        size_t n = req->want - req->done < room ? req->want - req->done : room;
        struct p2p_ctl_hdr *h;
        void *slot;
        int rc = ops->reserve(ep, sizeof(*h) + n, &slot);

        if (rc != COMM_OK) {
            return rc;
        }
        h = slot;
        memset(h, 0, sizeof(*h));
        h->type = P2P_DATA;
        h->rreq = req->peer_req;
        h->offset = req->done;
        h->len = n;
        if (req->bounce != NULL) {
            memcpy(h + 1, (char *)req->bounce + req->done, n);
        } else {
            p2p_pack(req, req->done, h + 1, n);
        }
        ops->commit(ep, slot, sizeof(*h) + n);
        req->done += n;
    }
    p2p_release_rndv(req);
    comm_request_complete(req, MPI_SUCCESS);
    return COMM_OK;
}

static void p2p_enqueue(struct comm_proc *proc, struct comm_request *req)
{
    req->queue_next = NULL;
    if (proc->send_tail != NULL) {
        proc->send_tail->queue_next = req;
    } else {
        proc->send_head = req;
    }
    proc->send_tail = req;
    p2p_mark_busy(proc);
}

/* Pushes what waits for PROC; returns whether anything is still waiting. */
static bool p2p_push(struct comm_proc *proc)
{
    struct comm_btl_endpoint *ep = proc->ep;

    while (proc->ctl_head != NULL) {
        struct comm_p2p_ctl_pending *p = proc->ctl_head;

        if (ep->module->ops->send(ep, &p->hdr, sizeof(p->hdr), NULL, 0) != COMM_OK) {
            return true;
        }
        proc->ctl_head = p->next;
        if (proc->ctl_head == NULL) {
            proc->ctl_tail = NULL;
        }
        free(p);
    }
    while (proc->send_head != NULL) {
        struct comm_request *req = proc->send_head;
        struct comm_request *next = req->queue_next;
        int rc;

        /* Off the queue first: finishing may complete and free the request. */
        proc->send_head = next;
        if (next == NULL) {
            proc->send_tail = NULL;
        }
        rc = req->state == COMM_REQUEST_STREAM ? p2p_stream(req) : p2p_send_match(req);
        if (rc == COMM_AGAIN) {
            req->queue_next = next;
            proc->send_head = req;
            if (next == NULL) {
                proc->send_tail = req;
            }
            return true;
        }
        if (rc < 0) {
            comm_request_complete(req, MPI_ERR_OTHER);
        }
    }
    return false;
}

static int p2p_start_send(struct comm_request *req)
{
    struct comm_proc *proc = &p2p_procs[comm_communicator_peer_world_rank(req->comm, req->peer)];
    int rc;

    req->proc = proc;
    req->len = (size_t)(req->count * req->dt->size);
    req->done = 0;
    req->complete = false;
    req->cancelled = false;
    req->error = MPI_SUCCESS;
    req->state = COMM_REQUEST_QUEUED;
    req->rndv_registered = false;
    if (proc->send_head == NULL && proc->ctl_head == NULL) {
        rc = p2p_send_match(req);
        if (rc != COMM_AGAIN) {
            return rc;
        }
    }
    p2p_enqueue(proc, req);
    return COMM_OK;
}

int comm_p2p_start_send(struct comm_request *req)
{
    int rc;

    comm_core_lock();
    rc = p2p_start_send(req);
    comm_core_unlock();
    return rc;
}

/* ---- receiving -------------------------------------------------------------------- */

/* A matched message, wherever it waited. */
struct p2p_arrival {
    long peer;
    int src;
    int tag;
    int type;
    uint64_t len;
    uint64_t sreq;
    uint64_t addr;
    struct comm_btl_key key;
    const void *data; /* eager payload */
};

static void p2p_finish_recv(struct comm_request *req)
{
    int error = req->want < req->msg_len ? MPI_ERR_TRUNCATE : MPI_SUCCESS;

    comm_status_set_bytes(&req->status, (MPI_Count)req->want);
    comm_request_complete(req, error);
}

/*
 * A non-contiguous receive whose blocks are small (fewer than READ_GATHER_MIN bytes in the
 * iovec of one read) is read into a bounce buffer, READ_BOUNCE bytes at a time, and unpacked:
 * a read per 256 blocks of one strided int each was a network round trip per KiB (4 MiB of a
 * vector of ints took 2.5 s over TCP on one host, against 0.1 s for 8 MiB contiguous).
 */
enum { P2P_READ_GATHER_MIN = 64 * 1024, P2P_READ_BOUNCE = 1 << 20 };

/* Reads the message of the RTS A into REQ from byte DONE on through a bounce buffer. */
static int p2p_read_bounced(struct comm_request *req, const struct p2p_arrival *a, size_t done)
{
    struct comm_btl_endpoint *ep = p2p_procs[a->peer].ep;
    size_t room = req->want - done < P2P_READ_BOUNCE ? req->want - done : P2P_READ_BOUNCE;
    char *bounce = malloc(room);
    int rc = COMM_OK;

    if (bounce == NULL) {
        comm_log_error("runtime", "out of memory reading a %zu-byte message from rank %ld",
                       req->want, a->peer);
        return COMM_ERR_NOMEM;
    }
    while (done < req->want && rc == COMM_OK) {
        size_t n = req->want - done < room ? req->want - done : room;
        struct iovec iov = {bounce, n};

        rc = ep->module->ops->get(ep, &iov, 1, a->addr + done, &a->key, n);
        if (rc == COMM_OK) {
            comm_datatype_unpack(req->dt, req->buf, req->count, done, bounce, n);
            done += n;
        }
    }
    free(bounce);
    return rc;
}

/* Reads the message of an RTS into REQ with the transport's get, piece by piece. */
static int p2p_read(struct comm_request *req, const struct p2p_arrival *a)
{
    struct comm_btl_endpoint *ep = p2p_procs[a->peer].ep;
    const struct comm_btl_ops *ops = ep->module->ops;
    struct comm_dt_cursor cursor;
    struct iovec iov[256];
    size_t done = 0;

    if (req->dt->contiguous) {
        iov[0].iov_base = p2p_contig_base(req);
        iov[0].iov_len = req->want;
        return ops->get(ep, iov, 1, a->addr, &a->key, req->want);
    }
    comm_datatype_cursor_init(&cursor, req->dt, req->buf, req->count, 0);
    while (done < req->want) {
        size_t n = 0, bytes = 0;
        int rc;

        while (n < sizeof(iov) / sizeof(iov[0]) && done + bytes < req->want) {
            void *ptr;
            size_t got = comm_datatype_cursor_next(&cursor, &ptr, req->want - done - bytes);

            if (got == 0) {
                break;
            }
            iov[n].iov_base = ptr;
            iov[n].iov_len = got;
            bytes += got;
            n++;
        }
        if (bytes == 0) {
            return COMM_ERR_INTERNAL;
        }
        if (bytes < P2P_READ_GATHER_MIN && done + bytes < req->want) {
            return p2p_read_bounced(req, a, done);
        }
        rc = ops->get(ep, iov, n, a->addr + done, &a->key, bytes);
        if (rc != COMM_OK) {
            return rc;
        }
        done += bytes;
    }
    return COMM_OK;
}

/*
 * Shares out the read of an RTS into REQ (see the top of this file) when the btl splits
 * messages of this size and can write the peer's memory, and REQ's memory is contiguous; and
 * when the sender has a core to spare: not when ranks outnumber cores, nor while the sender is
 * reading a message of ours (an exchange: both cores copy already, and the handshake would only
 * add to it).  Returns whether it did: REQ then completes when the sender's SHARED arrives.
 */
static bool p2p_share_out(struct comm_request *req, const struct p2p_arrival *a)
{
    struct comm_btl_endpoint *ep = p2p_procs[a->peer].ep;
    const struct comm_btl_ops *ops = ep->module->ops;
    size_t split_min = ep->module->split_min;
    /* This side's part ends on a page boundary of the message. */
    size_t split = (req->want / 2) & ~(size_t)4095;
    struct p2p_ctl_hdr h = {.type = P2P_SHARE};
    struct iovec iov;

    if (split_min == 0 || req->want < split_min || split == 0 || !req->dt->contiguous ||
        p2p_procs[a->peer].rndv_out > 0 || comm_progress_is_polite() ||
        ops->put(ep, NULL, 0, 0, NULL, 0) != COMM_OK ||
        ops->register_mem(ep->module, p2p_contig_base(req) + split, req->want - split,
                          &req->split_own_key) != COMM_OK) {
        return false;
    }
    req->state = COMM_REQUEST_SHARED;
    req->peer_req = a->sreq;
    req->split_peer = a->peer;
    req->split = split;
    req->split_addr = a->addr;
    req->split_key = a->key;
    h.sreq = a->sreq;
    h.rreq = p2p_id_of(req);
    h.offset = split;
    h.len = req->want - split;
    h.addr = (uint64_t)(uintptr_t)p2p_contig_base(req);
    h.key = req->split_own_key;
    p2p_send_ctl(&p2p_procs[a->peer], &h);
    iov.iov_base = p2p_contig_base(req);
    iov.iov_len = split;
    req->split_rc = ops->get(ep, &iov, 1, a->addr, &a->key, split);
    return true;
}

/* Guarded by the core lock: a failed put has been reported. */
static bool p2p_put_refused_told;

/* The sender's side of SHARE: writes its part into the receiver's memory and says how much
 * it wrote (nothing when it cannot: the receiver then reads that part itself). */
static void p2p_on_share(long peer, const struct p2p_ctl_hdr *h)
{
    struct comm_request *req = p2p_request_of(h->sreq);
    struct comm_btl_endpoint *ep = p2p_procs[peer].ep;
    char *src = req->bounce != NULL ? req->bounce : p2p_contig_base(req);
    struct iovec iov = {src + h->offset, (size_t)h->len};
    int rc = ep->module->ops->put(ep, &iov, 1, h->addr + h->offset, &h->key, (size_t)h->len);

    if (rc < 0 && !p2p_put_refused_told) {
        /* Once per process: a refusal is a setting or a permission, the same next time. */
        p2p_put_refused_told = true;
        comm_log_info("runtime",
                      "writing part of a %llu-byte message into rank %ld failed "
                      "(%s): the receiver reads it itself",
                      (unsigned long long)(h->offset + h->len), peer, comm_strerror(rc));
    }
    p2p_answer(peer, P2P_SHARED, h->sreq, h->rreq, rc == COMM_OK ? h->len : 0);
}

/* A read into REQ from world rank PEER has ended with RC: lets the sender complete (FIN), then
 * completes REQ. */
static void p2p_end_read(struct comm_request *req, long peer, int rc)
{
    p2p_answer(peer, P2P_FIN, req->peer_req, 0, 0);
    if (req->bounce != NULL) {
        /* Read whole into its own buffer (p2p_read_start_packed): into place now. */
        if (rc == COMM_OK) {
            comm_datatype_unpack(req->dt, req->buf, req->count, 0, req->bounce, req->want);
        }
        free(req->bounce);
        req->bounce = NULL;
    }
    if (rc < 0) {
        comm_log_error("runtime", "reading a %zu-byte message from rank %ld failed: %s",
                       req->msg_len, peer, comm_strerror(rc));
        comm_status_set_bytes(&req->status, 0);
        comm_request_complete(req, MPI_ERR_OTHER);
        return;
    }
    p2p_finish_recv(req);
}

/* The receiver's side of SHARED: reads the sender's part if it could not write it, then
 * completes and lets the sender complete. */
static void p2p_on_shared(const struct p2p_ctl_hdr *h)
{
    struct comm_request *req = p2p_request_of(h->rreq);
    struct comm_btl_endpoint *ep = p2p_procs[req->split_peer].ep;
    int rc = req->split_rc;

    /* The sender is done with this side's memory, whatever it wrote. */
    ep->module->ops->deregister_mem(ep->module, &req->split_own_key);
    if (rc == COMM_OK && h->len < req->want - req->split) {
        struct iovec iov = {p2p_contig_base(req) + req->split, req->want - req->split};

        rc = ep->module->ops->get(ep, &iov, 1, req->split_addr + req->split, &req->split_key,
                                  iov.iov_len);
    }
    p2p_end_read(req, req->split_peer, rc);
}

/* The transport's word that the read get_start began for REQ has ended. */
static void p2p_on_read_done(void *ctx, int status)
{
    struct comm_request *req = ctx;

    p2p_end_read(req, req->read_peer, status);
}

/*
 * Begins reading the message of an RTS into INTO (REQ's contiguous memory, or a buffer of its
 * own) without waiting for it, so that the reads of messages that follow overlap; REQ
 * completes when the transport says the read ended.  Returns COMM_OK when begun, else what
 * get_start said.
 */
static int p2p_read_start(struct comm_request *req, const struct p2p_arrival *a, void *into)
{
    struct comm_btl_endpoint *ep = p2p_procs[a->peer].ep;
    struct iovec iov = {into, req->want};
    int rc;

    req->read_peer = a->peer;
    req->peer_req = a->sreq;
    rc =
        ep->module->ops->get_start(ep, &iov, 1, a->addr, &a->key, req->want, p2p_on_read_done, req);
    if (rc == COMM_OK) {
        req->state = COMM_REQUEST_READING;
    }
    return rc;
}

/*
 * A message into non-contiguous memory that the transport stripes (the endpoint's stripe_min):
 * begun like a contiguous one into a buffer of the request's own and unpacked when the read
 * ends (p2p_end_read), so that it too is read in pieces over the rails.
 * COMM_ERR_NOT_SUPPORTED when it is not for this (p2p_read then reads it in place).
 */
static int p2p_read_start_packed(struct comm_request *req, const struct p2p_arrival *a)
{
    size_t stripe_min = p2p_procs[a->peer].ep->stripe_min;
    int rc;

    if (stripe_min == 0 || req->want < stripe_min) {
        return COMM_ERR_NOT_SUPPORTED;
    }
    req->bounce = malloc(req->want);
    if (req->bounce == NULL) {
        return COMM_ERR_NOT_SUPPORTED; /* read in place, piece by piece */
    }
    rc = p2p_read_start(req, a, req->bounce);
    if (rc != COMM_OK) {
        free(req->bounce);
        req->bounce = NULL;
    }
    return rc;
}

/* ---- the written rendezvous ------------------------------------------------------- */

/*
 * Receives offered to their senders, by token: the low P2P_WRITE_SLOT_BITS bits name a slot,
 * the others count the slot's uses, so that a token from a write that ended long ago cannot
 * name a later receive.  32 bits: what every provider's completion data holds.  Guarded by
 * the core lock.
 */
enum { P2P_WRITE_SLOT_BITS = 12, P2P_WRITE_SLOTS = 1 << P2P_WRITE_SLOT_BITS };
static struct comm_request *p2p_write_slot[P2P_WRITE_SLOTS];
static uint32_t p2p_write_uses[P2P_WRITE_SLOTS];
static uint32_t p2p_write_free[P2P_WRITE_SLOTS]; /* free slots, a stack */
static size_t p2p_write_nfree;

static void p2p_write_slots_init(void)
{
    for (size_t i = 0; i < P2P_WRITE_SLOTS; i++) {
        p2p_write_slot[i] = NULL;
        p2p_write_free[i] = (uint32_t)(P2P_WRITE_SLOTS - 1 - i);
    }
    p2p_write_nfree = P2P_WRITE_SLOTS;
}

/* A token for REQ, or 0 when every slot is taken. */
static uint32_t p2p_write_token_take(struct comm_request *req)
{
    uint32_t slot, uses;

    if (p2p_write_nfree == 0) {
        return 0;
    }
    slot = p2p_write_free[--p2p_write_nfree];
    uses = (p2p_write_uses[slot] + 1) & (UINT32_MAX >> P2P_WRITE_SLOT_BITS);
    p2p_write_uses[slot] = uses == 0 ? 1 : uses; /* never a token of 0 */
    p2p_write_slot[slot] = req;
    return p2p_write_uses[slot] << P2P_WRITE_SLOT_BITS | slot;
}

/* The receive TOKEN names, or NULL when it names none now. */
static struct comm_request *p2p_write_token_find(uint64_t token)
{
    uint32_t slot = (uint32_t)token & (P2P_WRITE_SLOTS - 1);

    if (token == 0 || token > UINT32_MAX || p2p_write_slot[slot] == NULL ||
        p2p_write_uses[slot] != (uint32_t)token >> P2P_WRITE_SLOT_BITS) {
        return NULL;
    }
    return p2p_write_slot[slot];
}

static void p2p_write_token_give_back(struct comm_request *req)
{
    uint32_t slot = req->write_token & (P2P_WRITE_SLOTS - 1);

    p2p_write_slot[slot] = NULL;
    p2p_write_free[p2p_write_nfree++] = slot;
    req->write_token = 0;
}

/* Ends an offer: frees REQ's token and its registration. */
static void p2p_write_offer_end(struct comm_request *req)
{
    struct comm_btl_module *module = p2p_procs[req->read_peer].ep->module;

    p2p_procs[req->read_peer].writes_offered--;
    p2p_write_token_give_back(req);
    module->ops->deregister_mem(module, &req->split_own_key);
}

/* Tells the receiver PEER that the sender SREQ does not write its receive RREQ (TOKEN). */
static void p2p_say_nowrite(long peer, uint64_t sreq, uint64_t rreq, uint64_t token)
{
    struct p2p_ctl_hdr h = {.type = P2P_NOWRITE, .sreq = sreq, .rreq = rreq, .offset = token};

    p2p_send_ctl(&p2p_procs[peer], &h);
}

/*
 * Offers REQ's memory to the sender of the RTS A, who then writes the message (see the top of
 * this file): when the btl writes messages of this size and REQ's memory is contiguous and
 * can be registered, and, for one above the endpoint's write_alone_above, when no other offer
 * to that sender is under way (a stream is read); never one the btl stripes (the endpoint's
 * stripe_min).  Returns whether it did.
 */
static bool p2p_offer_write(struct comm_request *req, const struct p2p_arrival *a)
{
    struct comm_proc *proc = &p2p_procs[a->peer];
    struct comm_btl_module *module = proc->ep->module;
    size_t alone = proc->ep->write_alone_above;
    struct p2p_ctl_hdr h = {.type = P2P_CTW};

    if (req->want > module->write_max || !req->dt->contiguous ||
        (proc->ep->stripe_min > 0 && req->want >= proc->ep->stripe_min) ||
        (alone > 0 && req->want > alone && proc->writes_offered > 0)) {
        return false;
    }
    req->write_token = p2p_write_token_take(req);
    if (req->write_token == 0) {
        return false; /* thousands offered already: this one is read */
    }
    if (module->ops->register_mem(module, p2p_contig_base(req), req->want, &req->split_own_key) !=
        COMM_OK) {
        p2p_write_token_give_back(req);
        return false;
    }
    req->state = COMM_REQUEST_OFFERED;
    req->read_peer = a->peer;
    req->peer_req = a->sreq;
    req->split_addr = a->addr;
    req->split_key = a->key;
    h.sreq = a->sreq;
    h.rreq = p2p_id_of(req);
    h.offset = req->write_token;
    h.len = req->want;
    h.addr = (uint64_t)(uintptr_t)p2p_contig_base(req);
    h.key = req->split_own_key;
    proc->writes_offered++;
    p2p_send_ctl(proc, &h);
    return true;
}

/* The transport's word that the write put_start began for REQ (a send) ended with STATUS. */
static void p2p_on_write_done(void *ctx, int status)
{
    struct comm_request *req = ctx;

    if (status == COMM_OK) {
        req->proc->rndv_out--;
        p2p_release_rndv(req);
        comm_request_complete(req, MPI_SUCCESS);
        return;
    }
    /* Logged by the btl.  The receiver reads the message after all and answers FIN. */
    req->state = COMM_REQUEST_WAIT_FIN;
    p2p_say_nowrite(req->proc->rank, p2p_id_of(req), req->peer_req, req->write_token);
}

/* The sender's side of CTW: writes the message into the receiver's memory, or says it cannot
 * (NOWRITE: the receiver then reads it). */
static void p2p_on_ctw(long peer, const struct p2p_ctl_hdr *h)
{
    struct comm_request *req = p2p_request_of(h->sreq);
    struct comm_btl_endpoint *ep = p2p_procs[peer].ep;
    const char *src = req->bounce != NULL ? req->bounce : p2p_contig_base(req);
    int rc = COMM_ERR_BAD_PARAM;

    req->peer_req = h->rreq;
    if (h->len <= req->len) {
        rc = ep->module->ops->put_start(ep, src, (size_t)h->len, h->addr, &h->key,
                                        (uint32_t)h->offset, p2p_on_write_done, req);
    }
    if (rc == COMM_OK) {
        req->state = COMM_REQUEST_WRITING;
        req->write_token = (uint32_t)h->offset;
        return;
    }
    p2p_say_nowrite(peer, h->sreq, h->rreq, h->offset);
}

static void p2p_fetch(struct comm_request *req, const struct p2p_arrival *a);

/* Guarded by the core lock: a sender's refusal to write has been reported. */
static bool p2p_nowrite_told;

/* The receiver's side of NOWRITE: the sender did not write, so this side reads. */
static void p2p_on_nowrite(long peer, const struct p2p_ctl_hdr *h)
{
    struct comm_request *req = p2p_write_token_find(h->offset);
    struct p2p_arrival a = {.peer = peer, .type = P2P_RTS, .sreq = h->sreq};

    if (req == NULL || p2p_id_of(req) != h->rreq) {
        /* Its write ended here before the sender saw it fail: every byte is in place. */
        p2p_answer(peer, P2P_FIN, h->sreq, 0, 0);
        return;
    }
    if (!p2p_nowrite_told) {
        /* Once per process: a sender's transport or settings, the same next time. */
        p2p_nowrite_told = true;
        comm_log_info("runtime",
                      "rank %ld did not write a %zu-byte message into this rank's memory "
                      "(its COMM_OFI_WRITE_MAX, or its transport): this rank reads such "
                      "messages instead",
                      peer, req->want);
    }
    p2p_write_offer_end(req);
    a.len = req->msg_len;
    a.addr = req->split_addr;
    a.key = req->split_key;
    p2p_fetch(req, &a);
}

/* The btls' function for writes that ended here: the message of the receive TOKEN names is in
 * place. */
static void p2p_on_written(uint32_t token)
{
    struct comm_request *req = p2p_write_token_find(token);

    if (req == NULL) {
        comm_log_error("runtime",
                       "a peer wrote a message for receive %#x, which is not waiting "
                       "for one: ignored",
                       (unsigned)token);
        return;
    }
    p2p_write_offer_end(req);
    p2p_finish_recv(req);
}

/* Delivers a matched message into REQ. */
static void p2p_deliver(struct comm_request *req, const struct p2p_arrival *a)
{
    size_t capacity = req->len;

    req->status.MPI_SOURCE = a->src;
    req->status.MPI_TAG = a->tag;
    req->msg_len = (size_t)a->len;
    req->want = a->len < capacity ? (size_t)a->len : capacity;
    if (a->type == P2P_EAGER || a->type == P2P_EAGER_SYNC) {
        if (req->want > 0) {
            if (req->dt->contiguous) {
                memcpy(p2p_contig_base(req), a->data, req->want);
            } else {
                comm_datatype_unpack(req->dt, req->buf, req->count, 0, a->data, req->want);
            }
        }
        if (a->type == P2P_EAGER_SYNC) {
            p2p_answer(a->peer, P2P_ACK, a->sreq, 0, 0);
        }
        p2p_finish_recv(req);
        return;
    }
    /* Rendezvous: have the sender write it, share it out, read it, or ask for it in
     * fragments. */
    if (req->want > 0 && (p2p_offer_write(req, a) || p2p_share_out(req, a))) {
        return;
    }
    p2p_fetch(req, a);
}

/* Reads the message of the RTS A into REQ, or asks for it in fragments. */
static void p2p_fetch(struct comm_request *req, const struct p2p_arrival *a)
{
    int rc = req->want == 0        ? COMM_ERR_NOT_SUPPORTED
             : req->dt->contiguous ? p2p_read_start(req, a, p2p_contig_base(req))
                                   : p2p_read_start_packed(req, a);

    if (rc == COMM_OK) {
        return;
    }
    if (rc == COMM_ERR_NOT_SUPPORTED) {
        rc = req->want > 0 ? p2p_read(req, a) : COMM_OK;
    }
    if (rc == COMM_ERR_NOT_SUPPORTED) {
        req->state = COMM_REQUEST_RECEIVING;
        req->done = 0;
        p2p_answer(a->peer, P2P_CTS, a->sreq, p2p_id_of(req), req->want);
        return;
    }
    req->peer_req = a->sreq;
    p2p_end_read(req, a->peer, rc);
}

static void p2p_arrival_of(const struct comm_unexpected *u, struct p2p_arrival *a)
{
    a->peer = u->peer;
    a->src = u->src;
    a->tag = u->tag;
    a->type = u->type;
    a->len = u->len;
    a->sreq = u->sreq;
    a->addr = u->addr;
    a->key = u->key;
    a->data = u->data;
}

/* The queues a request matches in: collectives have their own, so their traffic never meets
 * the user's receives. */
static struct comm_match_queues *p2p_queues(const struct comm_request *req)
{
    return req->collective ? &req->comm->coll_match : &req->comm->match;
}

static void p2p_on_match_frag(long peer, const void *data, size_t len)
{
    const struct p2p_match_hdr *h = data;
    struct comm_communicator *comm = comm_communicator_by_context(h->ctx & ~1u);
    struct comm_match_queues *queues;
    struct p2p_arrival a = {
        .peer = peer, .src = h->src, .tag = h->tag, .type = h->type, .len = h->len};
    size_t hlen = sizeof(*h), payload = 0;
    struct comm_posted *posted;
    struct comm_unexpected *u;

    if (h->type == P2P_EAGER_SYNC) {
        a.sreq = ((const struct p2p_sync_hdr *)data)->sreq;
        hlen = sizeof(struct p2p_sync_hdr);
    } else if (h->type == P2P_RTS) {
        const struct p2p_rts_hdr *r = data;
        a.sreq = r->sreq;
        a.addr = r->addr;
        a.key = r->key;
        hlen = sizeof(*r);
    }
    if (h->type != P2P_RTS) {
        payload = len - hlen;
    }
    a.data = (const char *)data + hlen;
    queues = comm == NULL ? NULL : (h->ctx & 1u) ? &comm->coll_match : &comm->match;
    posted = queues == NULL ? NULL : comm_match_take_posted(queues, h->src, h->tag);
    if (posted != NULL) {
        struct comm_request *req =
            (struct comm_request *)((char *)posted - offsetof(struct comm_request, posted));
        p2p_deliver(req, &a);
        return;
    }
    u = comm_match_unexpected_alloc(payload);
    if (u == NULL) {
        comm_log_error("runtime",
                       "out of memory keeping a %zu-byte unexpected message from "
                       "rank %ld",
                       payload, peer);
        return;
    }
    u->src = a.src;
    u->tag = a.tag;
    u->peer = peer;
    u->type = a.type;
    u->len = a.len;
    u->sreq = a.sreq;
    u->addr = a.addr;
    u->key = a.key;
    u->data_len = payload;
    memcpy(u->data, a.data, payload);
    if (queues == NULL) {
        comm_communicator_park(h->ctx, u); /* the communicator is not made here yet */
    } else {
        comm_match_add_unexpected(queues, u);
    }
}

static void p2p_on_data(const struct p2p_ctl_hdr *h)
{
    struct comm_request *req = p2p_request_of(h->rreq);
    size_t n = (size_t)h->len;

    if (req->dt->contiguous) {
        memcpy(p2p_contig_base(req) + h->offset, h + 1, n);
    } else {
        comm_datatype_unpack(req->dt, req->buf, req->count, (size_t)h->offset, h + 1, n);
    }
    req->done += n;
    if (req->done >= req->want) {
        p2p_finish_recv(req);
    }
}

/* The btls' receive function: every fragment of every peer arrives here. */
static void p2p_on_fragment(long peer, const void *data, size_t len)
{
    const struct p2p_ctl_hdr *c = data;
    struct comm_request *req;

    switch (((const uint8_t *)data)[0]) {
    case P2P_EAGER:
    case P2P_EAGER_SYNC:
    case P2P_RTS:
        p2p_on_match_frag(peer, data, len);
        break;
    case P2P_ACK:
        comm_request_complete(p2p_request_of(c->sreq), MPI_SUCCESS);
        break;
    case P2P_FIN:
        req = p2p_request_of(c->sreq);
        req->proc->rndv_out--;
        p2p_release_rndv(req);
        comm_request_complete(req, MPI_SUCCESS);
        break;
    case P2P_CTS:
        req = p2p_request_of(c->sreq);
        req->proc->rndv_out--;
        req->peer_req = c->rreq;
        req->want = (size_t)c->len;
        req->done = 0;
        req->state = COMM_REQUEST_STREAM;
        p2p_enqueue(req->proc, req);
        break;
    case P2P_DATA:
        p2p_on_data(c);
        break;
    case P2P_SHARE:
        p2p_on_share(peer, c);
        break;
    case P2P_SHARED:
        p2p_on_shared(c);
        break;
    case P2P_CTW:
        p2p_on_ctw(peer, c);
        break;
    case P2P_NOWRITE:
        p2p_on_nowrite(peer, c);
        break;
    default:
        comm_log_error("runtime", "fragment of unknown type %u from rank %ld dropped",
                       ((const uint8_t *)data)[0], peer);
        break;
    }
}

static int p2p_start_recv(struct comm_request *req)
{
    struct comm_unexpected *u;
    struct p2p_arrival a;

    req->len = (size_t)(req->count * req->dt->size);
    req->complete = false;
    req->cancelled = false;
    req->error = MPI_SUCCESS;
    comm_status_set_empty(&req->status);
    u = comm_match_find_unexpected(p2p_queues(req), req->peer, req->tag, true);
    if (u != NULL) {
        p2p_arrival_of(u, &a);
        p2p_deliver(req, &a);
        comm_match_unexpected_free(u);
        return COMM_OK;
    }
    req->state = COMM_REQUEST_QUEUED;
    req->posted.src = req->peer;
    req->posted.tag = req->tag;
    comm_match_post(p2p_queues(req), &req->posted);
    return COMM_OK;
}

int comm_p2p_start_recv(struct comm_request *req)
{
    int rc;

    comm_core_lock();
    rc = p2p_start_recv(req);
    comm_core_unlock();
    return rc;
}

static int p2p_start_mrecv(struct comm_request *req, struct comm_unexpected *msg)
{
    struct p2p_arrival a;

    req->len = (size_t)(req->count * req->dt->size);
    req->complete = false;
    req->cancelled = false;
    req->error = MPI_SUCCESS;
    comm_status_set_empty(&req->status);
    p2p_arrival_of(msg, &a);
    p2p_deliver(req, &a);
    comm_match_unexpected_free(msg);
    return COMM_OK;
}

int comm_p2p_start_mrecv(struct comm_request *req, struct comm_unexpected *msg)
{
    int rc;

    comm_core_lock();
    rc = p2p_start_mrecv(req, msg);
    comm_core_unlock();
    return rc;
}

static bool p2p_cancel(struct comm_request *req)
{
    if (req->complete) {
        return false;
    }
    if (req->kind == COMM_REQUEST_RECV) {
        if (req->state != COMM_REQUEST_QUEUED ||
            !comm_match_unpost(p2p_queues(req), &req->posted)) {
            return false;
        }
    } else {
        struct comm_proc *proc = req->proc;
        struct comm_request **link = &proc->send_head, *prev = NULL;

        /* Only a send that has not left can be taken back. */
        if (req->state != COMM_REQUEST_QUEUED) {
            return false;
        }
        while (*link != NULL && *link != req) {
            prev = *link;
            link = &(*link)->queue_next;
        }
        if (*link == NULL) {
            return false;
        }
        *link = req->queue_next;
        if (proc->send_tail == req) {
            proc->send_tail = prev;
        }
        p2p_release_rndv(req); /* registered before its RTS found room */
    }
    req->cancelled = true;
    comm_status_set_cancelled(&req->status, true);
    comm_request_complete(req, MPI_SUCCESS);
    return true;
}

bool comm_p2p_cancel(struct comm_request *req)
{
    bool rc;

    comm_core_lock();
    rc = p2p_cancel(req);
    comm_core_unlock();
    return rc;
}

int comm_p2p_probe(struct comm_communicator *comm, int source, int tag, bool take,
                   struct comm_unexpected **msg_out, MPI_Status *status_out)
{
    struct comm_unexpected *u;

    /* Under the lock to the end: a message not taken may be received by another thread. */
    comm_core_lock();
    u = comm_match_find_unexpected(&comm->match, source, tag, take);
    if (u != NULL) {
        comm_status_set_empty(status_out);
        status_out->MPI_SOURCE = u->src;
        status_out->MPI_TAG = u->tag;
        comm_status_set_bytes(status_out, (MPI_Count)u->len);
        if (msg_out != NULL) {
            *msg_out = u;
        }
    }
    comm_core_unlock();
    return u == NULL ? COMM_ERR_NOT_FOUND : COMM_OK;
}

struct p2p_probe_args {
    struct comm_communicator *comm;
    int source;
    int tag;
    bool take;
    struct comm_unexpected **msg_out;
    MPI_Status *status_out;
    bool found;
};

/* Asked again after it said yes (comm_progress_wait), it must not take a second message. */
static bool p2p_probe_found(void *arg)
{
    struct p2p_probe_args *p = arg;

    if (!p->found) {
        p->found = comm_p2p_probe(p->comm, p->source, p->tag, p->take, p->msg_out, p->status_out) ==
                   COMM_OK;
    }
    return p->found;
}

void comm_p2p_probe_wait(struct comm_communicator *comm, int source, int tag, bool take,
                         struct comm_unexpected **msg_out, MPI_Status *status_out)
{
    struct p2p_probe_args p = {.comm = comm,
                               .source = source,
                               .tag = tag,
                               .take = take,
                               .msg_out = msg_out,
                               .status_out = status_out};

    comm_progress_wait(p2p_probe_found, &p);
}

/* ---- progress ------------------------------------------------------------------------- */

/* Point-to-point's poller (the first the progress engine runs): the transports, then what
 * waits to go out. */
static int p2p_poll(void)
{
    int n = comm_btl_progress_all();
    struct comm_proc **link = &p2p_busy;

    while (*link != NULL) {
        struct comm_proc *proc = *link;

        if (p2p_push(proc)) {
            link = &proc->busy_next;
        } else {
            proc->in_busy_list = false;
            *link = proc->busy_next;
            n++;
        }
    }
    return n;
}

/* ---- set-up ----------------------------------------------------------------------------- */

/* ---- what a stuck wait waits for (COMM_TIMEOUT_MS) ------------------------------------- */

/* What this rank waits for from one peer (or, at index p2p_nprocs, from any). */
struct p2p_wait {
    unsigned recvs;     /* receives posted */
    uint64_t recv_max;  /* bytes they take */
    int tag;            /* the first's tag */
    bool collective;    /* the first is a collective's */
    const char *comm;   /* the first's communicator, named */
    int comm_size;
};

static void p2p_note_posted(struct comm_communicator *c, void *arg)
{
    struct p2p_wait *w = arg;
    const struct comm_match_queues *queues[2] = {&c->match, &c->coll_match};

    for (int q = 0; q < 2; q++) {
        for (const struct comm_posted *p = queues[q]->posted_head; p != NULL; p = p->next) {
            const struct comm_request *req =
                (const struct comm_request *)((const char *)p - offsetof(struct comm_request, posted));
            long peer = p->src == MPI_ANY_SOURCE ? p2p_nprocs
                                                 : comm_communicator_peer_world_rank(c, p->src);
            struct p2p_wait *pw = &w[peer];

            if (pw->recvs++ == 0) {
                pw->tag = p->tag;
                pw->collective = q == 1;
                pw->comm = c->name[0] != '\0' ? c->name : NULL;
                pw->comm_size = c->size;
            }
            pw->recv_max += req->len;
        }
    }
}

/* Says, one warning a peer (at most 32 of them), what this rank waits for: receives posted,
 * sends not yet gone or not yet read, memory offered for writes. */
void comm_p2p_report_waits(void)
{
    struct p2p_wait *w = calloc((size_t)p2p_nprocs + 1, sizeof(*w));
    long said = 0, more = 0;

    if (w == NULL) {
        comm_log_warn("runtime", "  (out of memory listing what it waits for)");
        return;
    }
    comm_communicator_each(p2p_note_posted, w);
    for (long r = 0; r <= p2p_nprocs; r++) {
        char line[768], comm[MPI_MAX_OBJECT_NAME + 32];
        size_t used = 0;
        unsigned queued = 0;
        uint64_t queued_bytes = 0;
        const struct comm_proc *proc = r < p2p_nprocs ? &p2p_procs[r] : NULL;

        if (proc != NULL) {
            for (const struct comm_request *s = proc->send_head; s != NULL; s = s->queue_next) {
                queued++;
                queued_bytes += s->len - s->done;
            }
        }
        if (w[r].recvs == 0 && queued == 0 &&
            (proc == NULL || (proc->rndv_out == 0 && proc->ctl_head == NULL &&
                              proc->writes_offered == 0))) {
            continue;
        }
        if (said == 32) {
            more++;
            continue;
        }
        said++;
        if (w[r].comm != NULL) {
            snprintf(comm, sizeof(comm), "%s", w[r].comm);
        } else {
            snprintf(comm, sizeof(comm), "a communicator of %d ranks", w[r].comm_size);
        }
        if (proc != NULL) {
            used = (size_t)snprintf(line, sizeof(line), "  rank %ld (host %s):", r,
                                    comm_job_topo_host(r));
        } else {
            used = (size_t)snprintf(line, sizeof(line), "  any rank:");
        }
        if (w[r].recvs > 0 && used < sizeof(line)) {
            used += (size_t)snprintf(line + used, sizeof(line) - used,
                                     " %u receive%s posted (up to %llu bytes; the first: tag %d on "
                                     "%s%s)",
                                     w[r].recvs, w[r].recvs == 1 ? "" : "s",
                                     (unsigned long long)w[r].recv_max, w[r].tag, comm,
                                     w[r].collective ? ", inside a collective" : "");
        }
        if (queued > 0 && used < sizeof(line)) {
            used += (size_t)snprintf(line + used, sizeof(line) - used,
                                     " %u send%s waiting to go out (%llu bytes)", queued,
                                     queued == 1 ? "" : "s", (unsigned long long)queued_bytes);
        }
        if (proc != NULL && proc->rndv_out > 0 && used < sizeof(line)) {
            used += (size_t)snprintf(line + used, sizeof(line) - used,
                                     " %d large send%s it has not finished reading (unseen here while it reads)",
                                     proc->rndv_out,
                                     proc->rndv_out == 1 ? "" : "s");
        }
        if (proc != NULL && proc->writes_offered > 0 && used < sizeof(line)) {
            used += (size_t)snprintf(line + used, sizeof(line) - used,
                                     " %d receive%s it has not finished writing (unseen here while it writes)",
                                     proc->writes_offered,
                                     proc->writes_offered == 1 ? "" : "s");
        }
        if (proc != NULL && proc->ctl_head != NULL && used < sizeof(line)) {
            used += (size_t)snprintf(line + used, sizeof(line) - used,
                                     " answers waiting for room to go out");
        }
        if (proc != NULL && proc->ep != NULL && used + 3 < sizeof(line)) {
            char link[256];

            proc->ep->module->ops->describe(proc->ep, link, sizeof(link));
            if (link[0] != '\0') {
                snprintf(line + used, sizeof(line) - used, "; %s", link);
            }
        }
        comm_log_warn("runtime", "%s", line);
    }
    if (more > 0) {
        comm_log_warn("runtime", "  and %ld more peers", more);
    }
    if (said == 0) {
        comm_log_warn("runtime", "  no peer: nothing posted or waiting to go out (a one-sided "
                                 "operation, or a wait on this rank's own requests)");
    }
    free(w);
}

int comm_p2p_init(long rank, long size, const long *local_peers, size_t nlocal)
{
    int rc;

    p2p_procs = calloc((size_t)size, sizeof(*p2p_procs));
    if (p2p_procs == NULL) {
        return COMM_ERR_NOMEM;
    }
    p2p_nprocs = size;
    rc = comm_progress_add_hook(p2p_poll);
    if (rc < 0) {
        return rc;
    }
    p2p_write_slots_init();
    for (long r = 0; r < size; r++) {
        struct comm_btl_peer peer = {.rank = r,
                                     .is_self = r == rank,
                                     .local_rank = -1,
                                     .host = comm_job_topo_host(r),
                                     .level = comm_job_topo_shared_level(rank, r)};

        p2p_procs[r].rank = r;
        for (size_t i = 0; i < nlocal; i++) {
            if (local_peers[i] == r) {
                peer.same_host = true;
                peer.local_rank = (long)i;
            }
        }
        rc = comm_btl_connect_peer(&peer, &p2p_procs[r].ep);
        if (rc < 0) {
            return rc;
        }
    }
    return COMM_OK;
}

comm_btl_recv_fn comm_p2p_receiver(void)
{
    return p2p_on_fragment;
}

comm_btl_written_fn comm_p2p_written(void)
{
    return p2p_on_written;
}

int comm_p2p_finalize(void)
{
    struct timespec start, now;

    /* What waits to go out (answers to peers, buffered sends) leaves first.  A peer that
     * finalized without receiving what was sent to it would make this wait forever. */
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (p2p_busy != NULL) {
        comm_progress();
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 10) {
            comm_log_warn("runtime",
                          "MPI_Finalize: messages to rank %ld could not be delivered "
                          "in 10 s (did it finalize without receiving them?)",
                          p2p_busy->rank);
            break;
        }
    }
    /* Then what the transports hold leaves this process: nothing progresses in the fence. */
    while (comm_btl_flush_all() == COMM_AGAIN) {
        comm_progress();
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 10) {
            comm_log_warn("runtime", "MPI_Finalize: the transports could not send everything "
                                     "out in 10 s");
            break;
        }
    }
    free(p2p_procs);
    p2p_procs = NULL;
    return COMM_OK;
}
