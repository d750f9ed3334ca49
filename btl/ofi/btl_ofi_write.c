/*
 * btl_ofi_write.c - the sender's write of a large message into memory its receiver offered
 * (put_start), with completion data that names the receive on the receiver's side; and the
 * one-sided write into a peer's registered memory (write_start), done once it has landed.
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

/* Posts the next piece of the one-sided write A: at most a write piece, inside one local piece,
 * with delivery completion (the next once it has landed).  COMM_OK, COMM_AGAIN (the provider is
 * busy), COMM_ERR_NOT_SUPPORTED (no delivery completion; logged once) or a status (logged). */
static int ofi_write_post_one_sided(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    size_t piece = a->ep->same_host ? m->rma_piece : m->rma_piece_far;
    void *desc = NULL;
    size_t n;
    char *from;
    ssize_t ret;

    while (a->loff == a->iov[a->li].iov_len) { /* write_start checked the pieces cover len */
        a->li++;
        a->loff = 0;
    }
    from = (char *)a->iov[a->li].iov_base + a->loff;
    n = a->iov[a->li].iov_len - a->loff;
    if (n > a->len - a->landed) {
        n = a->len - a->landed;
    }
    if (piece > 0 && n > piece) {
        n = piece;
    }
    if (n > m->max_msg_size) {
        n = m->max_msg_size;
    }
    if ((m->mr_mode & FI_MR_LOCAL) && a->local == NULL) {
        int rc = comm_btl_ofi_mr_cache_acquire(&m->mrs, from, n, &a->local);

        if (rc < 0) {
            return rc;
        }
    }
    if (a->local != NULL) {
        desc = comm_btl_ofi_mr_desc(a->local, a->ep->home);
    }
    ret = ofi_write_landed(m, a, from, n, desc);
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
    if (ret != 0) {
        comm_log_error("btl_ofi", "writing %zu bytes to rank %ld failed: %s", n, a->ep->base.peer,
                       comm_btl_ofi_fi_strerror((int)-ret));
        return COMM_ERR_SYSTEM;
    }
    a->posting = n;
    return COMM_OK;
}

/* Posts the next piece of A, a message or a one-sided write. */
static int ofi_write_post_next(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    return a->one_sided ? ofi_write_post_one_sided(m, a) : ofi_write_post(m, a);
}

/* Frees A and lets go of its registration. */
static void ofi_write_free(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
    if (a->local != NULL) {
        comm_btl_ofi_mr_cache_release(&m->mrs, a->local);
    }
    free(a);
}

static void ofi_write_wait(struct btl_ofi_module *m, struct btl_ofi_awrite *a)
{
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

int comm_btl_ofi_write_start(struct comm_btl_endpoint *base, const struct iovec *local,
                             size_t nlocal, uint64_t remote, const struct comm_btl_key *remote_key,
                             size_t len, comm_btl_get_done_fn done, void *ctx)
{
    struct btl_ofi_endpoint *ep = (struct btl_ofi_endpoint *)base;
    struct btl_ofi_module *m = (struct btl_ofi_module *)base->module;
    struct btl_ofi_awrite *a;
    size_t have = 0;
    int rc;

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
    a->one_sided = true;
    a->niov = nlocal;
    memcpy(a->iov, local, nlocal * sizeof(a->iov[0]));
    /* The first piece now, so that a busy provider or a refusal leaves nothing begun. */
    rc = ofi_write_post_one_sided(m, a);
    if (rc != COMM_OK) {
        ofi_write_free(m, a);
        return rc;
    }
    return COMM_OK;
}

void comm_btl_ofi_awrite_ended(struct btl_ofi_module *m, struct btl_ofi_awrite *a, int status)
{
    if (status == COMM_OK && a->landed + a->posting < a->len) {
        /* A piece landed: the next one is posted by this progress call (advance_writes). */
        a->landed += a->posting;
        if (a->one_sided) {
            a->loff += a->posting;
            if (a->local != NULL) { /* the next piece may lie elsewhere */
                comm_btl_ofi_mr_cache_release(&m->mrs, a->local);
                a->local = NULL;
            }
        }
        a->posting = 0;
        ofi_write_wait(m, a);
        return;
    }
    a->status = status;
    a->next = m->writes_ended;
    m->writes_ended = a;
    m->writes_stirred = true;
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
        if (m->writes_waiting == NULL) {
            m->writes_waiting_tail = NULL;
        }
        if (rc < 0) {
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
