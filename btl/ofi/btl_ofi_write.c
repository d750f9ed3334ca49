/*
 * btl_ofi_write.c - the sender's write of a large message into memory its receiver offered
 * (put_start), with completion data that names the receive on the receiver's side; and the
 * one-sided write into a peer's registered memory (write_start), done once it has landed.
 *
 * A one-sided write goes in pieces, each with delivery completion, inside one local piece; it
 * is done when every piece has landed.  On one rail a piece goes once the one before it has
 * landed.  One of COMM_RAIL_STRIPE_MIN bytes or more to a peer with several rails is striped as
 * a get is (btl_ofi_rail.c): up to BTL_OFI_READS_IN_FLIGHT pieces at once, each posted to the
 * rail where it would end first.  A striped piece that fails takes its rail out and is written
 * again on another (it ended: no late copy of it can land); one on a rail that stalls waits
 * for it.
 *
 * Layer: btl/ofi.  Must not: call the runtime (a done function, the written function) from
 * anywhere but progress, write messages without the provider's remote-write capability and
 * completion data (m->write), or report a one-sided write done before the provider said it
 * landed (delivery completion).
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "base/error.h"
#include "base/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t comm_btl_ofi_write_size(const struct btl_ofi_module *m, const struct btl_ofi_endpoint *ep)
{
    return ep->same_host ? m->write_piece : m->write_piece_far;
}

/* Writes N bytes at FROM to A's remote memory where its landed bytes end, reporting completion
 * only once they are in the peer's memory; the provider's return. */
static ssize_t ofi_write_landed(struct btl_ofi_module *m, struct btl_ofi_awrite *a,
                                const char *from, size_t n, void *desc)
{
    struct iovec iov = {(void *)(uintptr_t)from, n};
    struct fi_rma_iov rma = {btl_ofi_raddr(m, a->ep->home, a->raddr + a->landed, &a->key), n,
                             btl_ofi_rkey(m, a->ep, a->ep->home, &a->key)};
    struct fi_msg_rma msg = {.msg_iov = &iov,
                             .desc = &desc,
                             .iov_count = 1,
                             .addr = a->ep->addr,
                             .rma_iov = &rma,
                             .rma_iov_count = 1,
                             .context = &a->op.ctx};

    return fi_writemsg(m->rails[a->ep->home].ep, &msg, FI_COMPLETION | FI_DELIVERY_COMPLETE);
}

/* Posts the next piece of A (all of it when it fits one): COMM_OK, COMM_AGAIN (the provider is
 * busy: again at the next progress call) or a status (logged).  A piece before the last is
 * written with delivery completion, so that the next leaves only once it has landed; the last
 * carries the token. */
static int ofi_write_post(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    void *desc = a->local != NULL ? comm_btl_ofi_mr_desc(a->local, a->ep->home) : NULL;
    size_t n = comm_btl_ofi_write_next(a->len, a->landed, comm_btl_ofi_write_size(m, a->ep));
    const char *from = (const char *)a->buf + a->landed;
    ssize_t ret;

    if (a->landed + n < a->len) {
        ret = ofi_write_landed(m, a, from, n, desc);
        if (ret == -FI_EBADFLAGS || ret == -FI_ENOSYS || ret == -FI_EOPNOTSUPP) {
            /* Once per process: every later message is written whole. */
            comm_log_info("btl_ofi",
                          "provider %s does not report writes as landed (%s): messages are "
                          "written whole",
                          m->provider, comm_btl_ofi_fi_strerror((int)-ret));
            m->write_piece = m->write_piece_far = 0;
            return ofi_write_post(m, a);
        }
    } else {
        ret = fi_writedata(m->rails[a->ep->home].ep, from, n, desc, a->token, a->ep->addr,
                           btl_ofi_raddr(m, a->ep->home, a->raddr + a->landed, &a->key),
                           btl_ofi_rkey(m, a->ep, a->ep->home, &a->key), &a->op.ctx);
    }
    if (ret == -FI_EAGAIN) {
        return COMM_AGAIN;
    }
    if (ret != 0) {
        comm_log_error("btl_ofi", "writing %zu bytes to rank %ld failed: %s", a->len,
                       a->ep->base.peer, comm_btl_ofi_fi_strerror((int)-ret));
        return COMM_ERR_SYSTEM;
    }
    a->posting = n;
    if (n < a->len) {
        m->write_pieces++;
        m->writes_pieced += a->landed == 0;
    }
    return COMM_OK;
}

/* Whether A is done: a failure with nothing in flight, or every byte landed. */
static bool ofi_pieces_done(const struct btl_ofi_awrite *a)
{
    return a->inflight == 0 && (a->status != COMM_OK || (a->posted == a->len && a->redo == 0));
}

/* Posts piece P of the one-sided write A (the next bytes of A, or P's own again when it is to
 * be redone): on the home rail, or striped on the rail where it would end first.  COMM_OK,
 * COMM_AGAIN (the provider is busy, or the rail failed to take it: again at the next progress
 * call), COMM_ERR_NOT_SUPPORTED (no delivery completion; logged once) or a status (logged). */
static int ofi_wpiece_post(struct btl_ofi_module *m, struct btl_ofi_awrite *a,
                           struct btl_ofi_wpiece *p)
{
    size_t piece = a->ep->same_host ? m->rma_piece : m->rma_piece_far;
    size_t n = p->len, off = p->off;
    const char *from = p->from;
    uint64_t now = 0;
    unsigned rail = a->ep->home;
    void *desc = NULL;
    struct iovec iov;
    struct fi_rma_iov rma;
    struct fi_msg_rma msg = {.desc = &desc, .iov_count = 1, .rma_iov = &rma, .rma_iov_count = 1};
    ssize_t ret;

    if (!p->redo) {
        while (a->loff == a->iov[a->li].iov_len) { /* write_start checked they cover len */
            a->li++;
            a->loff = 0;
        }
        from = (const char *)a->iov[a->li].iov_base + a->loff;
        n = a->iov[a->li].iov_len - a->loff;
        n = n < a->len - a->posted ? n : a->len - a->posted;
        n = piece > 0 && n > piece ? piece : n;
        n = n > m->max_msg_size ? m->max_msg_size : n;
        off = a->posted;
    }
    if (a->striped) {
        now = comm_btl_ofi_now_ns();
        rail = (unsigned)comm_btl_ofi_rail_pick(m, a->ep, n, now);
    }
    if ((m->mr_mode & FI_MR_LOCAL) && p->local == NULL) {
        int rc = comm_btl_ofi_mr_cache_acquire(&m->mrs, (void *)(uintptr_t)from, n, &p->local);

        if (rc < 0) {
            return rc;
        }
    }
    if (p->local != NULL) {
        desc = comm_btl_ofi_mr_desc(p->local, rail);
    }
    iov = (struct iovec){(void *)(uintptr_t)from, n};
    rma = (struct fi_rma_iov){btl_ofi_raddr(m, rail, a->raddr + off, &a->key), n,
                              btl_ofi_rkey(m, a->ep, rail, &a->key)};
    msg.msg_iov = &iov;
    msg.addr = a->ep->rail_addr[rail];
    msg.context = &p->op.ctx;
    ret = fi_writemsg(m->rails[rail].ep, &msg, FI_COMPLETION | FI_DELIVERY_COMPLETE);
    if (ret == -FI_EAGAIN) {
        return COMM_AGAIN;
    }
    if (ret == -FI_EBADFLAGS || ret == -FI_ENOSYS || ret == -FI_EOPNOTSUPP) {
        /* Transmit completion would not say the bytes are in the peer's memory, which is
         * what a one-sided write must know before it ends: no fallback. */
        if (!m->rma_write_refused) {
            comm_log_info("btl_ofi",
                          "provider %s does not report writes as landed (%s): one-sided "
                          "writes go through messages",
                          m->provider, comm_btl_ofi_fi_strerror((int)-ret));
        }
        m->rma_write_refused = true;
        return COMM_ERR_NOT_SUPPORTED;
    }
    if (ret != 0 && rail != a->ep->home) {
        char cause[160];

        snprintf(cause, sizeof(cause), "a write could not be posted: %s",
                 comm_btl_ofi_fi_strerror((int)-ret));
        comm_btl_ofi_rail_failed(m, rail, cause);
        return COMM_AGAIN;
    }
    if (ret != 0) {
        comm_log_error("btl_ofi", "writing %zu bytes to rank %ld failed: %s", n, a->ep->base.peer,
                       comm_btl_ofi_fi_strerror((int)-ret));
        return COMM_ERR_SYSTEM;
    }
    if (a->striped) {
        comm_btl_ofi_rail_posted(m, rail, n, now);
    }
    p->busy = true;
    p->rail = rail;
    a->inflight++;
    m->wpieces++;
    if (p->redo) {
        p->redo = false;
        a->redo--;
        return COMM_OK;
    }
    p->from = from;
    p->len = n;
    p->off = off;
    a->loff += n;
    a->posted += n;
    return COMM_OK;
}

/* Posts the one-sided write A's pieces while it has free ones: COMM_OK, or the first post's
 * COMM_AGAIN or failure (which ends A once its pieces in flight are back). */
static int ofi_write_feed(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    for (size_t i = 0; i < a->npieces && a->status == COMM_OK; i++) {
        struct btl_ofi_wpiece *p = &a->pieces[i];
        int rc;

        if (p->busy || (!p->redo && a->posted == a->len)) {
            continue;
        }
        if (!p->redo && p->local != NULL) { /* the next bytes may lie elsewhere */
            comm_btl_ofi_mr_cache_release(&m->mrs, p->local);
            p->local = NULL;
        }
        rc = ofi_wpiece_post(m, a, p);
        if (rc == COMM_AGAIN) {
            return rc;
        }
        if (rc < 0) {
            a->status = rc;
        }
    }
    return a->status;
}

/* Posts the next piece of A, a message, or the next pieces of a one-sided write (a failure is
 * then A's status, and A ends once its pieces in flight are back). */
static int ofi_write_post_next(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    if (a->npieces > 0) {
        return ofi_write_feed(m, a) == COMM_AGAIN ? COMM_AGAIN : COMM_OK;
    }
    return ofi_write_post(m, a);
}

/* A has ended: its done function is called by this or the next progress call. */
static void ofi_write_end(struct btl_ofi_module *m, struct btl_ofi_awrite *a, int status)
{
    a->status = status;
    a->next = m->writes_ended;
    m->writes_ended = a;
    m->writes_stirred = true;
}

/* Frees A and lets go of its registrations. */
static void ofi_write_free(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    if (a->local != NULL) {
        comm_btl_ofi_mr_cache_release(&m->mrs, a->local);
    }
    for (size_t i = 0; i < a->npieces; i++) {
        if (a->pieces[i].local != NULL) {
            comm_btl_ofi_mr_cache_release(&m->mrs, a->pieces[i].local);
        }
    }
    if (a->pieces != &a->piece) {
        free(a->pieces);
    }
    free(a);
}

static void ofi_write_wait(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    if (a->queued) {
        return;
    }
    a->queued = true;
    a->next = NULL;
    if (m->writes_waiting_tail != NULL) {
        m->writes_waiting_tail->next = a;
    } else {
        m->writes_waiting = a;
    }
    m->writes_waiting_tail = a;
    m->writes_stirred = true;
}

int comm_btl_ofi_put_start(struct comm_btl_endpoint *base, const void *local, size_t len,
                           uint64_t remote, const struct comm_btl_key *remote_key, uint32_t token,
                           comm_btl_get_done_fn done, void *ctx)
{
    struct btl_ofi_endpoint *ep = (struct btl_ofi_endpoint *)base;
    struct btl_ofi_module *m = (struct btl_ofi_module *)base->module;
    struct btl_ofi_awrite *a;
    int rc;

    if (!m->write || !btl_ofi_rkey_set(remote_key) || len == 0 || len > m->max_msg_size) {
        return COMM_ERR_NOT_SUPPORTED;
    }
    a = calloc(1, sizeof(*a));
    if (a == NULL) {
        return COMM_ERR_NOMEM;
    }
    a->op.type = BTL_OFI_OP_AWRITE;
    a->ep = ep;
    a->buf = local;
    a->len = len;
    a->raddr = remote;
    a->key = *remote_key;
    a->token = token;
    a->done = done;
    a->ctx = ctx;
    if (m->mr_mode & FI_MR_LOCAL) {
        rc = comm_btl_ofi_mr_cache_acquire(&m->mrs, (void *)(uintptr_t)local, len, &a->local);
        if (rc < 0) {
            free(a);
            return rc;
        }
    }
    rc = m->writes_waiting != NULL ? COMM_AGAIN : ofi_write_post(m, a);
    if (rc == COMM_AGAIN) {
        ofi_write_wait(m, a);
    } else if (rc < 0) {
        ofi_write_free(m, a);
        return rc;
    }
    m->writes_started++;
    return COMM_OK;
}

/* Begins the one-sided write A: its first pieces now, so that a busy provider or a refusal
 * leaves nothing begun (COMM_AGAIN or the status, A freed); the rest from progress. */
static int ofi_write_start_pieces(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    int rc;

    a->pieces = &a->piece;
    a->npieces = 1;
    if (a->striped) {
        a->pieces = calloc(BTL_OFI_READS_IN_FLIGHT, sizeof(*a->pieces));
        a->npieces = BTL_OFI_READS_IN_FLIGHT;
        if (a->pieces == NULL) {
            a->npieces = 0;
            ofi_write_free(m, a);
            return COMM_ERR_NOMEM;
        }
    }
    for (size_t i = 0; i < a->npieces; i++) {
        a->pieces[i].op.type = BTL_OFI_OP_WPIECE;
        a->pieces[i].a = a;
    }
    rc = ofi_write_feed(m, a);
    if (a->inflight == 0) {
        ofi_write_free(m, a);
        return rc == COMM_OK ? COMM_ERR_INTERNAL : rc;
    }
    if (rc == COMM_AGAIN) {
        ofi_write_wait(m, a);
    }
    return COMM_OK;
}

int comm_btl_ofi_write_start(struct comm_btl_endpoint *base, const struct iovec *local,
                             size_t nlocal, uint64_t remote, const struct comm_btl_key *remote_key,
                             size_t len, comm_btl_get_done_fn done, void *ctx)
{
    struct btl_ofi_endpoint *ep = (struct btl_ofi_endpoint *)base;
    struct btl_ofi_module *m = (struct btl_ofi_module *)base->module;
    struct btl_ofi_awrite *a;
    size_t have = 0;

    if (!m->remote_write || m->rma_write_refused || !btl_ofi_rkey_set(remote_key)) {
        return COMM_ERR_NOT_SUPPORTED;
    }
    if (len == 0) {
        return COMM_OK;
    }
    for (size_t i = 0; i < nlocal && have < len; i++) {
        have += local[i].iov_len;
    }
    if (have < len) {
        comm_log_error("btl_ofi", "a write of %zu bytes to rank %ld was given only %zu local bytes",
                       len, base->peer, have);
        return COMM_ERR_BAD_PARAM;
    }
    a = calloc(1, sizeof(*a) + nlocal * sizeof(a->iov[0]));
    if (a == NULL) {
        return COMM_ERR_NOMEM;
    }
    a->op.type = BTL_OFI_OP_AWRITE;
    a->ep = ep;
    a->len = len;
    a->raddr = remote;
    a->key = *remote_key;
    a->done = done;
    a->ctx = ctx;
    a->niov = nlocal;
    memcpy(a->iov, local, nlocal * sizeof(a->iov[0]));
    a->striped = __builtin_popcount(ep->rails) > 1 && m->stripe_min > 0 && len >= m->stripe_min;
    return ofi_write_start_pieces(m, a);
}

void comm_btl_ofi_awrite_ended(struct btl_ofi_module *m, struct btl_ofi_awrite *a, int status)
{
    if (status == COMM_OK && a->landed + a->posting < a->len) {
        /* A piece landed: the next one is posted by this progress call (advance_writes). */
        a->landed += a->posting;
        a->posting = 0;
        ofi_write_wait(m, a);
        return;
    }
    ofi_write_end(m, a, status);
}

void comm_btl_ofi_wpiece_ended(struct btl_ofi_module *m, struct btl_ofi_wpiece *p, bool ok,
                               const char *cause)
{
    struct btl_ofi_awrite *a = p->a;

    p->busy = false;
    a->inflight--;
    m->wpieces--;
    if (a->striped) {
        comm_btl_ofi_rail_done(m, p->rail, p->len, ok);
    }
    /* Striped, written again on another rail, unless every rail failed it in turn. */
    if (!ok && a->striped && ++p->fails <= 2 * m->nrails) {
        comm_btl_ofi_rail_failed(m, p->rail, cause);
        p->redo = true;
        a->redo++;
    } else if (!ok) {
        comm_log_error("btl_ofi", "writing %zu bytes to rank %ld failed: %s", a->len,
                       a->ep->base.peer, cause);
        a->status = COMM_ERR_SYSTEM;
    }
    if (a->queued) {
        return; /* progress posts its next pieces, or ends it (advance_writes) */
    }
    if (ofi_pieces_done(a)) {
        ofi_write_end(m, a, a->status);
    } else if (a->status == COMM_OK && (a->redo > 0 || a->posted < a->len)) {
        ofi_write_wait(m, a);
    }
}

void comm_btl_ofi_note_written(struct btl_ofi_module *m, uint64_t token)
{
    if (m->nwritten == m->written_cap) {
        size_t cap = m->written_cap ? 2 * m->written_cap : 64;
        uint32_t *grown = realloc(m->written, cap * sizeof(*grown));

        if (grown == NULL) {
            /* The receive it names would wait forever: say which. */
            comm_log_error("btl_ofi", "out of memory noting the end of a peer's write (%#llx)",
                           (unsigned long long)token);
            return;
        }
        m->written = grown;
        m->written_cap = cap;
    }
    m->written[m->nwritten++] = (uint32_t)token;
    m->writes_stirred = true;
}

int comm_btl_ofi_advance_writes(struct btl_ofi_module *m)
{
    struct btl_ofi_awrite *ended;
    size_t nwritten;
    int n = 0;

    m->writes_stirred = false;
    while (m->writes_waiting != NULL) {
        struct btl_ofi_awrite *a = m->writes_waiting;
        int rc = ofi_write_post_next(m, a);

        if (rc == COMM_AGAIN) {
            m->writes_stirred = true;
            break;
        }
        m->writes_waiting = a->next;
        a->queued = false;
        if (m->writes_waiting == NULL) {
            m->writes_waiting_tail = NULL;
        }
        if (a->npieces > 0 && ofi_pieces_done(a)) {
            ofi_write_end(m, a, a->status); /* its last pieces came back while it waited */
        } else if (rc < 0) {
            comm_btl_ofi_awrite_ended(m, a, rc);
        }
    }
    /* Taken whole first: a done function may begin writes that end in this call. */
    ended = m->writes_ended;
    m->writes_ended = NULL;
    while (ended != NULL) {
        struct btl_ofi_awrite *a = ended;

        ended = a->next;
        a->done(a->ctx, a->status);
        ofi_write_free(m, a);
        n++;
    }
    nwritten = m->nwritten;
    for (size_t i = 0; i < nwritten && m->base.written != NULL; i++) {
        m->base.written(m->written[i]);
        n++;
    }
    /* The runtime's written function sends answers, which may poll and note more. */
    for (size_t i = nwritten; i < m->nwritten; i++) {
        m->written[i - nwritten] = m->written[i];
    }
    m->nwritten -= nwritten;
    if (m->nwritten > 0 || m->writes_ended != NULL) {
        m->writes_stirred = true;
    }
    return n;
}

void comm_btl_ofi_drop_writes(struct btl_ofi_module *m)
{
    struct btl_ofi_awrite *lists[2] = {m->writes_waiting, m->writes_ended};

    for (size_t i = 0; i < 2; i++) {
        while (lists[i] != NULL) {
            struct btl_ofi_awrite *a = lists[i];

            lists[i] = a->next;
            ofi_write_free(m, a);
        }
    }
    m->writes_waiting = m->writes_waiting_tail = m->writes_ended = NULL;
    free(m->written);
    m->written = NULL;
    m->nwritten = m->written_cap = 0;
}
