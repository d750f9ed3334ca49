/*
 * btl_ofi_rdma.c - memory registration and reading a peer's memory with fi_read: the single
 * copy of large messages between hosts.
 *
 * Layer: btl/ofi.  Must not: deliver fragments while a read is in flight (they are queued for
 * the next progress call), or assume a memory-registration mode the provider did not ask for.
 *
 * Keys: a registration is made on every rail, and the comm_btl_key the runtime carries to the
 * peer holds the key of each: W[K] is rail K's.  W[0] also names the registration here (the
 * cache finds it by that) and is never 0.  With FI_MR_VIRT_ADDR on rails[0], W[0] is its
 * provider's key plus one and remote addresses are virtual addresses.  Without it, remote
 * addresses are offsets into the registration, so W[0] is the registration's base address,
 * given to the provider as the requested key; a provider that both wants offsets and chooses
 * its own keys (FI_MR_PROV_KEY) gets no reads there, and large messages are copied through
 * fragments instead.  The other rails' keys are the providers' own (FI_MR_PROV_KEY: verbs, a
 * key for each device) or, where comm requests them, rails[0]'s requested key with the rail's
 * index in its top byte, so that a read naming the memory with the wrong rail's key fails.
 * The reader's rail K reads with the key of the peer's rail it is paired with there
 * (btl_ofi_rkey).
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "base/error.h"
#include "base/log.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Registers [ptr, ptr+len) on rail R's domain (and endpoint, with FI_MR_ENDPOINT). */
static int ofi_mr_open_on(const struct btl_ofi_rail *r, void *ptr, size_t len, uint64_t access,
                          uint64_t requested_key, struct fid_mr **mr_out)
{
    struct fid_mr *mr;
    int ret = fi_mr_reg(r->domain, ptr, len, access, 0, requested_key, 0, &mr, NULL);

    if (ret != 0) {
        comm_log_error("btl_ofi", "registering %zu bytes at %p on %s failed: %s", len, ptr,
                       r->name[0] ? r->name : "the endpoint's domain",
                       comm_btl_ofi_fi_strerror(-ret));
        return COMM_ERR_SYSTEM;
    }
    if (r->mr_mode & FI_MR_ENDPOINT) {
        ret = fi_mr_bind(mr, &r->ep->fid, 0);
        if (ret == 0) {
            ret = fi_mr_enable(mr);
        }
        if (ret != 0) {
            comm_log_error("btl_ofi", "binding a registration to the endpoint failed: %s",
                           comm_btl_ofi_fi_strerror(-ret));
            fi_close(&mr->fid);
            return COMM_ERR_SYSTEM;
        }
    }
    *mr_out = mr;
    return COMM_OK;
}

int comm_btl_ofi_register_local(struct btl_ofi_module *m, unsigned k, void *ptr, size_t len,
                                uint64_t access, struct fid_mr **mr_out, void **desc_out)
{
    struct fid_mr *mr;
    int rc;

    *mr_out = NULL;
    *desc_out = NULL;
    if (!(m->mr_mode & FI_MR_LOCAL)) {
        return COMM_OK;
    }
    rc = ofi_mr_open_on(&m->rails[k], ptr, len, access, m->next_key++, &mr);
    if (rc < 0) {
        return rc;
    }
    *mr_out = mr;
    *desc_out = fi_mr_desc(mr);
    return COMM_OK;
}

/* A registration of the cache: the same memory on every rail, and the keys that name it. */
struct ofi_mr_set {
    struct fid_mr *mr[BTL_OFI_RAILS_MAX];
    struct comm_btl_key key;
};

_Static_assert((int)BTL_OFI_RAILS_MAX <= (int)COMM_BTL_KEY_WORDS, "a key word for every rail");

static void ofi_mr_set_close(struct ofi_mr_set *set)
{
    for (unsigned k = 0; k < BTL_OFI_RAILS_MAX; k++) {
        if (set->mr[k] != NULL) {
            int ret = fi_close(&set->mr[k]->fid);

            if (ret != 0) {
                comm_log_warn("btl_ofi", "releasing a registration failed: %s",
                              comm_btl_ofi_fi_strerror(-ret));
            }
        }
    }
    free(set);
}

void *comm_btl_ofi_mr_desc(const struct comm_btl_ofi_mr *entry, unsigned k)
{
    const struct ofi_mr_set *set = entry->handle;

    return k == 0 ? entry->desc : set->mr[k] != NULL ? fi_mr_desc(set->mr[k]) : NULL;
}

/* Registers ENTRY on the rails beyond rails[0], asking for rails[0]'s REQUESTED key with the
 * rail's index in the top byte (the providers choosing their own keys ignore it); a rail that
 * cannot register it, or gives no key, is taken out (its pieces could not name the memory). */
static void ofi_cache_register_rails(struct btl_ofi_module *m, struct comm_btl_ofi_mr *entry,
                                     struct ofi_mr_set *set, uint64_t access, uint64_t requested)
{
    for (unsigned k = 1; k < m->nrails; k++) {
        struct btl_ofi_rail *r = &m->rails[k];
        uint64_t key = FI_KEY_NOTAVAIL;

        if (ofi_mr_open_on(r, (void *)entry->base, entry->len, access,
                           requested | (uint64_t)k << 56, &set->mr[k]) == COMM_OK) {
            key = fi_mr_key(set->mr[k]);
        }
        if (key == FI_KEY_NOTAVAIL) {
            if (set->mr[k] != NULL) {
                fi_close(&set->mr[k]->fid);
                set->mr[k] = NULL;
            }
            comm_btl_ofi_rail_failed(m, k, "it could not register memory");
        }
        set->key.w[k] = key;
    }
}

/* The cache's register function: a registration peers may read and reads may land in (and,
 * when the provider writes remote memory, that peers may write and writes may leave from). */
static int ofi_cache_register(void *ctx, struct comm_btl_ofi_mr *entry)
{
    struct btl_ofi_module *m = ctx;
    uint64_t requested = m->virt_addr ? m->next_key++ : (uint64_t)entry->base;
    uint64_t access = FI_READ | FI_REMOTE_READ | (m->remote_write ? FI_WRITE | FI_REMOTE_WRITE : 0);
    struct ofi_mr_set *set;
    struct fid_mr *mr;
    uint64_t key;
    int rc;

    /* With offsets the key is the base address: a registration in use may hold it already
     * (two large sends of different lengths from one buffer).  This message is then copied
     * through fragments instead. */
    if (!m->virt_addr && comm_btl_ofi_mr_cache_find_key(&m->mrs, requested) != NULL) {
        return COMM_ERR_NOT_SUPPORTED;
    }
    set = calloc(1, sizeof(*set));
    if (set == NULL) {
        return COMM_ERR_NOMEM;
    }
    rc = ofi_mr_open_on(&m->rails[0], (void *)entry->base, entry->len, access, requested, &mr);
    if (rc < 0) {
        free(set);
        return rc;
    }
    set->mr[0] = mr;
    key = fi_mr_key(mr);
    if (key == FI_KEY_NOTAVAIL || (m->virt_addr && key == UINT64_MAX) ||
        (!m->virt_addr && key != requested)) {
        comm_log_error("btl_ofi", "provider %s gave a registration key comm cannot use",
                       m->provider);
        ofi_mr_set_close(set);
        return COMM_ERR_NOT_SUPPORTED;
    }
    ofi_cache_register_rails(m, entry, set, access, requested);
    entry->key = m->virt_addr ? key + 1 : key;
    set->key.w[0] = entry->key;
    entry->handle = set;
    entry->desc = fi_mr_desc(mr);
    return COMM_OK;
}

static void ofi_cache_deregister(void *ctx, struct comm_btl_ofi_mr *entry)
{
    (void)ctx;
    ofi_mr_set_close(entry->handle);
}

void comm_btl_ofi_rdma_init(struct btl_ofi_module *m, long cache_size)
{
    bool prov_key = (m->mr_mode & FI_MR_PROV_KEY) != 0;

    m->virt_addr = (m->mr_mode & FI_MR_VIRT_ADDR) != 0;
    m->next_key = 1;
    m->rma = (m->info->caps & FI_RMA) != 0 &&
             (m->virt_addr || (!prov_key && m->info->domain_attr->mr_key_size >= 8));
    if ((m->info->caps & FI_RMA) != 0 && !m->rma) {
        comm_log_info("btl_ofi",
                      "provider %s addresses remote memory by offset and chooses "
                      "its own keys: large messages are copied through fragments",
                      m->provider);
    }
    comm_btl_ofi_mr_cache_init(&m->mrs, (size_t)cache_size, ofi_cache_register,
                               ofi_cache_deregister, m);
}

int comm_btl_ofi_register(struct comm_btl_module *module, void *ptr, size_t len,
                          struct comm_btl_key *key_out)
{
    struct btl_ofi_module *m = (struct btl_ofi_module *)module;
    struct comm_btl_ofi_mr *mr;

    if (!m->rma || comm_btl_ofi_mr_cache_acquire(&m->mrs, ptr, len, &mr) < 0) {
        return COMM_ERR_NOT_SUPPORTED; /* the receiver asks for fragments instead */
    }
    *key_out = ((const struct ofi_mr_set *)mr->handle)->key;
    return COMM_OK;
}

int comm_btl_ofi_deregister(struct comm_btl_module *module, const struct comm_btl_key *key)
{
    struct btl_ofi_module *m = (struct btl_ofi_module *)module;
    struct comm_btl_ofi_mr *mr = comm_btl_ofi_mr_cache_find_key(&m->mrs, key->w[0]);

    if (mr != NULL) {
        comm_btl_ofi_mr_cache_release(&m->mrs, mr);
    }
    return COMM_OK;
}

/* One batch of reads in flight: their contexts and the local registrations they use. */
struct ofi_batch {
    struct btl_ofi_read reads[BTL_OFI_READS_IN_FLIGHT];
    struct comm_btl_ofi_mr *local[BTL_OFI_READS_IN_FLIGHT];
    size_t n;
};

/* Waits for every read of the batch, polling the completion queue (receives are queued). */
static int ofi_wait_batch(struct btl_ofi_module *m, struct ofi_batch *b)
{
    int status = COMM_OK;
    unsigned idle = 0;

    for (size_t i = 0; i < b->n; i++) {
        while (!b->reads[i].done) {
            int rc = comm_btl_ofi_poll(m);

            if (rc < 0) {
                return rc;
            }
            /* A software provider serves the read on the peer's core: when ranks share
             * cores, spinning here would starve it. */
            if (rc == 0 && ++idle > 64) {
                sched_yield();
            }
        }
        if (b->reads[i].status < 0) {
            status = b->reads[i].status;
        }
        if (b->local[i] != NULL) {
            comm_btl_ofi_mr_cache_release(&m->mrs, b->local[i]);
            b->local[i] = NULL;
        }
    }
    b->n = 0;
    return status;
}

/* Posts one read of [local, local+n) from the peer's RADDR in its registration RK, retrying
 * while the provider is busy. */
static int ofi_post_read(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep, struct ofi_batch *b,
                         void *local, size_t n, uint64_t raddr, const struct comm_btl_key *rk)
{
    struct btl_ofi_read *r = &b->reads[b->n];
    void *desc = NULL;
    ssize_t ret;

    memset(r, 0, sizeof(*r));
    r->op.type = BTL_OFI_OP_READ;
    b->local[b->n] = NULL;
    if (m->mr_mode & FI_MR_LOCAL) {
        int rc = comm_btl_ofi_mr_cache_acquire(&m->mrs, local, n, &b->local[b->n]);

        if (rc < 0) {
            return rc;
        }
        desc = comm_btl_ofi_mr_desc(b->local[b->n], ep->home);
    }
    b->n++;
    for (;;) {
        ret = fi_read(m->rails[ep->home].ep, local, n, desc, ep->addr,
                      btl_ofi_raddr(m, ep->home, raddr, rk), btl_ofi_rkey(m, ep, ep->home, rk),
                      &r->op.ctx);
        if (ret != -FI_EAGAIN) {
            break;
        }
        if (comm_btl_ofi_poll(m) < 0) {
            ret = -FI_EIO;
            break;
        }
    }
    if (ret != 0) {
        comm_log_error("btl_ofi", "reading %zu bytes from rank %ld failed: %s", n, ep->base.peer,
                       comm_btl_ofi_fi_strerror((int)-ret));
        r->done = true;
        r->status = COMM_ERR_SYSTEM;
        return COMM_ERR_SYSTEM;
    }
    return COMM_OK;
}

/* Pieces from a peer on another host are smaller: between two simulated hosts under bbr,
 * streams of 1-4 MiB messages moved 5000-5700 MB/s in 128 KiB pieces against 2300-2900 in
 * 512 KiB ones or whole (under cubic the tuners keep them whole); on loopback 512 KiB pieces
 * were faster than 128 KiB ones. */
size_t comm_btl_ofi_read_size(const struct btl_ofi_module *m, const struct btl_ofi_endpoint *ep,
                              enum comm_btl_ofi_read_way way)
{
    if (way == COMM_BTL_OFI_READ_WHOLE) {
        return m->read_whole;
    }
    return ep->same_host ? m->read_piece : m->read_piece_far;
}

/* Reads LEN bytes at the peer's RADDR into the contiguous DST, in reads of at most PIECE bytes,
 * several in flight. */
static int ofi_read_into(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                         struct ofi_batch *batch, char *dst, size_t len, uint64_t raddr,
                         const struct comm_btl_key *rk, size_t piece)
{
    while (len > 0) {
        size_t n = len < piece ? len : piece; /* at most max_msg_size */
        int rc;

        if (batch->n == BTL_OFI_READS_IN_FLIGHT) {
            rc = ofi_wait_batch(m, batch);
            if (rc < 0) {
                return rc;
            }
        }
        rc = ofi_post_read(m, ep, batch, dst, n, raddr, rk);
        if (rc < 0) {
            return rc;
        }
        dst += n;
        raddr += n;
        len -= n;
    }
    return COMM_OK;
}

/* Small pieces (a vector of a few elements per block): one read of the whole range into a
 * bounce buffer, then copied out, beats a read per piece by orders of magnitude. */
static int ofi_get_scattered(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                             const struct iovec *local, size_t nlocal, uint64_t raddr,
                             const struct comm_btl_key *rk, size_t len)
{
    struct ofi_batch batch = {.n = 0};
    size_t li = 0, loff = 0;

    if (m->bounce == NULL) {
        m->bounce = malloc(BTL_OFI_BOUNCE);
        if (m->bounce == NULL) {
            return COMM_ERR_NOMEM;
        }
    }
    while (len > 0) {
        size_t n = len < BTL_OFI_BOUNCE ? len : BTL_OFI_BOUNCE;
        int rc = ofi_read_into(m, ep, &batch, m->bounce, n, raddr, rk, m->read_piece);
        int wrc = ofi_wait_batch(m, &batch);

        if (rc < 0 || wrc < 0) {
            return rc < 0 ? rc : wrc;
        }
        for (size_t done = 0; done < n;) {
            size_t piece;

            if (li == nlocal) {
                return COMM_ERR_BAD_PARAM; /* the local side is smaller than LEN */
            }
            piece = local[li].iov_len - loff;
            if (piece > n - done) {
                piece = n - done;
            }
            memcpy((char *)local[li].iov_base + loff, m->bounce + done, piece);
            done += piece;
            loff += piece;
            if (loff == local[li].iov_len) {
                li++;
                loff = 0;
            }
        }
        raddr += n;
        len -= n;
    }
    return COMM_OK;
}

static uint64_t ofi_now_ns(void)
{
    return comm_btl_ofi_now_ns();
}

int comm_btl_ofi_get(struct comm_btl_endpoint *base, const struct iovec *local, size_t nlocal,
                     uint64_t remote, const struct comm_btl_key *remote_key, size_t len)
{
    struct btl_ofi_endpoint *ep = (struct btl_ofi_endpoint *)base;
    struct btl_ofi_module *m = (struct btl_ofi_module *)base->module;
    uint64_t raddr = remote;
    struct ofi_batch batch = {.n = 0};
    enum comm_btl_ofi_read_way way;
    size_t left = len;
    uint64_t start;
    int rc = COMM_OK, wrc;

    if (!m->rma || !btl_ofi_rkey_set(remote_key)) {
        return COMM_ERR_NOT_SUPPORTED;
    }
    if (nlocal > 1 && len < nlocal * BTL_OFI_SMALL_PIECE) {
        return ofi_get_scattered(m, ep, local, nlocal, raddr, remote_key, len);
    }
    way = comm_btl_ofi_tune_choose(&ep->tune, len);
    start = ofi_now_ns();
    for (size_t i = 0; i < nlocal && left > 0 && rc == COMM_OK; i++) {
        size_t n = local[i].iov_len < left ? local[i].iov_len : left;

        rc = ofi_read_into(m, ep, &batch, local[i].iov_base, n, raddr, remote_key,
                           comm_btl_ofi_read_size(m, ep, way));
        raddr += n;
        left -= n;
    }
    wrc = ofi_wait_batch(m, &batch);
    if (rc == COMM_OK) {
        rc = wrc;
    }
    if (rc == COMM_OK && left > 0) {
        return COMM_ERR_BAD_PARAM; /* the local side is smaller than LEN */
    }
    if (rc == COMM_OK) {
        comm_btl_ofi_tune_record(&ep->tune, len, way, ofi_now_ns() - start);
    }
    return rc;
}

/* A shadow of at least N bytes, free, or NULL when out of memory. */
static struct btl_ofi_shadow *ofi_shadow_take(struct btl_ofi_module *m, size_t n)
{
    struct btl_ofi_shadow *sh = m->shadows_free;

    if (sh == NULL) {
        sh = calloc(1, sizeof(*sh));
        if (sh == NULL) {
            return NULL;
        }
        sh->op.type = BTL_OFI_OP_SHADOW;
        sh->next_made = m->shadows;
        m->shadows = sh;
    } else {
        m->shadows_free = sh->next_free;
    }
    if (sh->cap < n) {
        char *buf = malloc(n);

        if (buf == NULL) {
            sh->next_free = m->shadows_free;
            m->shadows_free = sh;
            return NULL;
        }
        free(sh->buf);
        sh->buf = buf;
        sh->cap = n;
    }
    return sh;
}

static void ofi_shadow_give(struct btl_ofi_module *m, struct btl_ofi_shadow *sh)
{
    sh->a = NULL;
    sh->next_free = m->shadows_free;
    m->shadows_free = sh;
}

void comm_btl_ofi_shadow_ended(struct btl_ofi_module *m, struct btl_ofi_shadow *sh, bool ok)
{
    struct btl_ofi_aread *a = sh->a;

    if (a != NULL) {
        a->shadow = NULL;
        if (ok) {
            memcpy(a->dst, sh->buf, a->len);
        }
    }
    ofi_shadow_give(m, sh);
    if (a == NULL) {
        m->rails[sh->rail].orphans--;
    } else if (ok) {
        comm_btl_ofi_aread_ended(m, a, true);
    }
}

void comm_btl_ofi_shadows_free(struct btl_ofi_module *m)
{
    while (m->shadows != NULL) {
        struct btl_ofi_shadow *sh = m->shadows;

        m->shadows = sh->next_made;
        free(sh->buf);
        free(sh);
    }
    m->shadows_free = NULL;
}

unsigned comm_btl_ofi_gets_reread(struct btl_ofi_module *m, unsigned k)
{
    unsigned n = 0;

    for (struct btl_ofi_get *g = m->gets; g != NULL; g = g->next) {
        for (size_t i = 0; i < BTL_OFI_READS_IN_FLIGHT; i++) {
            struct btl_ofi_aread *a = &g->reads[i];

            if (a->busy && a->rail == k && a->shadow != NULL) {
                a->shadow->a = NULL; /* an orphan: what it brings lands in it, unread */
                a->shadow = NULL;
                m->rails[k].orphans++;
                comm_btl_ofi_aread_redo(m, a);
                n++;
            }
        }
    }
    return n;
}

/* Posts the next read of G with its free slot A (or A's piece again, when it is to be redone),
 * on the rail it would end first on when G is striped, else on the home rail: COMM_OK,
 * COMM_AGAIN (the provider is busy: again at the next progress call) or a status. */
static int ofi_get_post(struct btl_ofi_module *m, struct btl_ofi_get *g, struct btl_ofi_aread *a)
{
    size_t n = a->redo ? a->len : g->left < g->piece ? g->left : g->piece;
    char *dst = a->redo ? a->dst : g->dst;
    uint64_t raddr = a->redo ? a->raddr : g->raddr;
    uint64_t now = 0;
    int rail = (int)g->ep->home;
    void *desc = NULL;
    struct btl_ofi_shadow *sh = NULL;
    ssize_t ret;

    if (g->striped) {
        now = comm_btl_ofi_now_ns();
        rail = comm_btl_ofi_rail_pick(m, g->ep, n, now);
    }
    /* Off the home rail, into a shadow (COMM_RAIL_REREAD), so that it can be read again
     * elsewhere at once if its rail stalls; not where reads need local registrations. */
    if (g->striped && m->reread && (unsigned)rail != g->ep->home && !(m->mr_mode & FI_MR_LOCAL)) {
        sh = ofi_shadow_take(m, n);
        if (sh == NULL) {
            return COMM_ERR_NOMEM;
        }
        sh->a = a;
        sh->rail = (unsigned)rail;
    }
    if ((m->mr_mode & FI_MR_LOCAL) && a->local == NULL) {
        int rc = comm_btl_ofi_mr_cache_acquire(&m->mrs, dst, n, &a->local);

        if (rc < 0) {
            return rc;
        }
    }
    if (a->local != NULL) {
        desc = comm_btl_ofi_mr_desc(a->local, (unsigned)rail);
    }
    ret = fi_read(m->rails[rail].ep, sh != NULL ? sh->buf : dst, n, sh != NULL ? NULL : desc,
                  g->ep->rail_addr[rail], btl_ofi_raddr(m, (unsigned)rail, raddr, &g->key),
                  btl_ofi_rkey(m, g->ep, (unsigned)rail, &g->key),
                  sh != NULL ? &sh->op.ctx : &a->op.ctx);
    if (ret != 0 && sh != NULL) {
        ofi_shadow_give(m, sh);
        sh = NULL;
    }
    if (ret == -FI_EAGAIN) {
        return COMM_AGAIN;
    }
    if (ret != 0 && (unsigned)rail != g->ep->home) {
        char cause[160];

        snprintf(cause, sizeof(cause), "a read could not be posted: %s",
                 comm_btl_ofi_fi_strerror((int)-ret));
        comm_btl_ofi_rail_failed(m, (unsigned)rail, cause);
        return COMM_AGAIN; /* on another rail, at the next progress call */
    }
    if (ret != 0 && comm_btl_ofi_link_error((int)-ret)) {
        char cause[160];

        snprintf(cause, sizeof(cause), "a read could not be posted: %s",
                 comm_btl_ofi_fi_strerror((int)-ret));
        comm_btl_ofi_link_failed(m, g->ep, cause);
        return COMM_AGAIN; /* once the link is tried again */
    }
    if (ret != 0) {
        comm_log_error("btl_ofi", "reading %zu bytes from rank %ld failed: %s", n, g->ep->base.peer,
                       comm_btl_ofi_fi_strerror((int)-ret));
        return COMM_ERR_SYSTEM;
    }
    a->busy = true;
    a->shadow = sh;
    a->len = n;
    a->rail = (unsigned)rail;
    a->dst = dst;
    a->raddr = raddr;
    g->inflight++;
    if (++m->areads > m->areads_most) {
        m->areads_most = m->areads;
    }
    m->aread_bytes += n;
    if (g->striped) {
        comm_btl_ofi_rail_posted(m, (unsigned)rail, n, now);
    }
    if (a->redo) {
        a->redo = false;
        g->redo--;
        return COMM_OK;
    }
    g->dst += n;
    g->raddr += n;
    g->left -= n;
    return COMM_OK;
}

void comm_btl_ofi_aread_ended(struct btl_ofi_module *m, struct btl_ofi_aread *a, bool ok)
{
    if (ok) {
        a->get->ep->proved = true;
    }
    a->busy = false;
    a->get->inflight--;
    m->areads--;
    m->aread_bytes -= a->len;
    m->gets_stirred = true;
    if (a->get->striped) {
        comm_btl_ofi_rail_done(m, a->rail, a->len, ok);
    }
}

void comm_btl_ofi_aread_redo(struct btl_ofi_module *m, struct btl_ofi_aread *a)
{
    comm_btl_ofi_aread_ended(m, a, false);
    a->redo = true;
    a->get->redo++;
}

/* Whether the module may post one more read for G.  Eight reads at least; for a peer on
 * another host, up to 32 while less than 8 MiB is in flight.  Between two hosts of the
 * simulated cluster, eight reads of 256 KiB left the path half idle, under cubic and bbr
 * alike, where eight of 1 MiB filled it; on loopback more reads than eight were slower. */
static bool ofi_reads_room(const struct btl_ofi_module *m, const struct btl_ofi_get *g)
{
    if (m->areads < BTL_OFI_READS_IN_FLIGHT) {
        return true;
    }
    return !g->ep->same_host && m->areads < BTL_OFI_READS_MOST &&
           m->aread_bytes < BTL_OFI_READ_BYTES;
}

/* Releases what G's ended reads held, and posts its next reads while slots are free. */
static void ofi_get_feed(struct btl_ofi_module *m, struct btl_ofi_get *g)
{
    for (size_t i = 0; i < BTL_OFI_READS_IN_FLIGHT; i++) {
        struct btl_ofi_aread *a = &g->reads[i];

        if (a->busy) {
            continue;
        }
        if (a->redo && g->status != COMM_OK) {
            a->redo = false; /* the get failed: nothing is read again */
            g->redo--;
        }
        if (a->local != NULL && !a->redo) {
            comm_btl_ofi_mr_cache_release(&m->mrs, a->local);
            a->local = NULL;
        }
        /* Reads in flight are bounded for the module, not per get: the oldest gets go first,
         * and a flood of messages does not flood the peer with requests. */
        if (g->ep->link == BTL_OFI_LINK_DOWN && g->status == COMM_OK) {
            m->gets_stirred = true; /* read once the link is tried again (btl_ofi_link.c) */
            break;
        }
        if (g->status == COMM_OK && (g->left > 0 || a->redo) && ofi_reads_room(m, g)) {
            int rc = ofi_get_post(m, g, a);

            if (rc == COMM_AGAIN) {
                m->gets_stirred = true; /* again at the next progress call */
                break;
            }
            if (rc < 0) {
                g->status = rc;
                m->gets_stirred = true; /* to be ended once its reads in flight are back */
            }
        }
    }
}

int comm_btl_ofi_get_start(struct comm_btl_endpoint *base, const struct iovec *local, size_t nlocal,
                           uint64_t remote, const struct comm_btl_key *remote_key, size_t len,
                           comm_btl_get_done_fn done, void *ctx)
{
    struct btl_ofi_endpoint *ep = (struct btl_ofi_endpoint *)base;
    struct btl_ofi_module *m = (struct btl_ofi_module *)base->module;
    struct btl_ofi_get *g;

    /* Contiguous memory only: scattered pieces go through get and its bounce buffer. */
    if (!m->rma || !btl_ofi_rkey_set(remote_key) || nlocal != 1 || local[0].iov_len < len) {
        return COMM_ERR_NOT_SUPPORTED;
    }
    g = calloc(1, sizeof(*g));
    if (g == NULL) {
        return COMM_ERR_NOMEM;
    }
    g->ep = ep;
    g->dst = local[0].iov_base;
    g->left = len;
    g->len = len;
    g->raddr = remote;
    g->key = *remote_key;
    if (ep->gets_now == 0) {
        g->way = comm_btl_ofi_tune_choose(&ep->tune, len);
    } else if (ep->same_host) {
        g->way = COMM_BTL_OFI_READ_PIECES; /* btl_ofi_endpoint.same_host says why */
    } else {
        g->streamed = true;
        g->way = comm_btl_ofi_tune_choose(&ep->stream_tune, len);
    }
    /* Striped: in pieces, each to the rail where it ends first. */
    if (__builtin_popcount(ep->rails) > 1 && m->stripe_min > 0 && len >= m->stripe_min) {
        g->striped = true;
        g->way = COMM_BTL_OFI_READ_PIECES;
        g->streamed = false; /* the tuners compare ways of one rail */
    }
    g->piece = comm_btl_ofi_read_size(m, ep, g->way);
    g->done = done;
    g->ctx = ctx;
    g->alone = m->gets == NULL;
    g->seq = ++m->gets_started;
    ep->gets_now++;
    if (++m->gets_now > m->gets_most) {
        m->gets_most = m->gets_now;
    }
    for (size_t i = 0; i < BTL_OFI_READS_IN_FLIGHT; i++) {
        g->reads[i].op.type = BTL_OFI_OP_AREAD;
        g->reads[i].get = g;
    }
    if (m->gets_tail != NULL) {
        m->gets_tail->next = g;
    } else {
        m->gets = g;
    }
    m->gets_tail = g;
    g->start_ns = ofi_now_ns();
    /* The older gets first, while the module has reads to spare (a stream of messages
     * leaves many gets waiting for the bound: no need to walk them all). */
    for (struct btl_ofi_get *o = m->gets; o != NULL && ofi_reads_room(m, o); o = o->next) {
        ofi_get_feed(m, o);
    }
    return COMM_OK;
}

/* Reports EP's run of streamed messages to its tuner, if it counted any. */
static void ofi_stream_close(struct btl_ofi_endpoint *ep)
{
    if (ep->seg_open && ep->seg_bytes > 0 && ep->seg_end > ep->seg_from) {
        comm_btl_ofi_tune_record_bytes(&ep->stream_tune, ep->seg_len, ep->seg_way, ep->seg_bytes,
                                       ep->seg_end - ep->seg_from);
    }
    ep->seg_open = false;
}

/* Begins EP's run of messages of LEN's class read WAY at NOW. */
static void ofi_stream_open(struct btl_ofi_endpoint *ep, enum comm_btl_ofi_read_way way, size_t len,
                            uint64_t now)
{
    ep->seg_open = true;
    ep->seg_way = way;
    ep->seg_len = len;
    ep->seg_bytes = 0;
    ep->seg_count = 0;
    ep->seg_from = now;
    ep->seg_end = now;
}

/*
 * Adds the get G, ended at NOW (the time of this walk of advance_gets), to its peer's run of
 * streamed messages: the run grows while they are read the same way, and is reported when the
 * way or the class changes, the stream breaks, or it holds a turn's worth of messages.
 */
static void ofi_stream_take(struct btl_ofi_get *g, uint64_t now)
{
    struct btl_ofi_endpoint *ep = g->ep;
    bool timed;

    if (ep->last_end_ns != now) { /* the first of the peer's gets to end in this walk */
        ep->prev_end_ns = ep->last_end_ns;
        ep->last_end_ns = now;
    }
    /* Timed from the end of the peer's gets before this walk, which G must have waited
     * through. */
    timed = g->status == COMM_OK && g->streamed && ep->prev_end_ns != 0 &&
            g->start_ns <= ep->prev_end_ns;
    if (ep->seg_open && timed && g->way == ep->seg_way &&
        comm_btl_ofi_tune_class_of(&ep->stream_tune, g->len) ==
            comm_btl_ofi_tune_class_of(&ep->stream_tune, ep->seg_len)) {
        if (now == ep->seg_from) {
            return; /* ended with the message that opened the run, overlapped as it was */
        }
        ep->seg_bytes += g->len;
        ep->seg_count++;
        ep->seg_end = now;
        if (ep->seg_count >= BTL_OFI_STREAM_BATCH) {
            ofi_stream_close(ep);
            ofi_stream_open(ep, ep->seg_way, ep->seg_len, now); /* where this one ended */
        }
        return;
    }
    ofi_stream_close(ep);
    if (timed) {
        ofi_stream_open(ep, g->way, g->len, now);
    }
}

int comm_btl_ofi_advance_gets(struct btl_ofi_module *m)
{
    struct btl_ofi_get *ended = NULL, **ended_tail = &ended, **link = &m->gets, *last = NULL;
    int n = 0;

    m->gets_stirred = false; /* a feed below may set it again */
    while (*link != NULL) {
        struct btl_ofi_get *g = *link;

        ofi_get_feed(m, g);
        if (g->inflight > 0 || ((g->left > 0 || g->redo > 0) && g->status == COMM_OK)) {
            last = g;
            link = &g->next;
            continue;
        }
        *link = g->next;
        g->next = NULL;
        *ended_tail = g; /* in the order they began */
        ended_tail = &g->next;
        m->gets_now--;
        g->ep->gets_now--;
    }
    m->gets_tail = last;
    if (ended != NULL) {
        uint64_t now = ofi_now_ns();

        for (struct btl_ofi_get *g = ended; g != NULL; g = g->next) {
            /* Timed alone only when it had the path to itself, as the tuner compares ways. */
            if (g->status == COMM_OK && g->alone && g->seq == m->gets_started) {
                comm_btl_ofi_tune_record(&g->ep->tune, g->len, g->way, now - g->start_ns);
            }
            ofi_stream_take(g, now);
        }
    }
    /* Their done functions last: they may begin other gets. */
    while (ended != NULL) {
        struct btl_ofi_get *g = ended;

        ended = g->next;
        g->done(g->ctx, g->status);
        free(g);
        n++;
    }
    return n;
}

void comm_btl_ofi_drop_gets(struct btl_ofi_module *m)
{
    while (m->gets != NULL) {
        struct btl_ofi_get *g = m->gets;

        m->gets = g->next;
        for (size_t i = 0; i < BTL_OFI_READS_IN_FLIGHT; i++) {
            if (g->reads[i].local != NULL) {
                comm_btl_ofi_mr_cache_release(&m->mrs, g->reads[i].local);
            }
        }
        free(g);
    }
    m->gets_tail = NULL;
}
