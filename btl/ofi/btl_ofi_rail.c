/*
 * btl_ofi_rail.c - rails: one endpoint per network device, and large reads spread over them.
 *
 * Layer: btl/ofi.  Must not: put a piece on a rail that does not reach its peer, or read a
 * piece again while its first read could still land.
 *
 * Which rails: one per (provider, device) of the fabrics on this host's path up the topology
 * (a switch's Provider= and Nics=, lowest level first; comm_btl_ofi_rail_plan), plus the host
 * level's with COMM_OFI_HOST_PROVIDER; without fabrics in the file, the host's own Nics=, else
 * COMM_DEVICE_ALLOWLIST when it names several, else the job's interfaces when comm-run chose
 * several, as one fabric that serves every peer.  Each opens on its own (its fabric's provider,
 * else COMM_BACKEND's candidates); one that cannot is a warning naming the host and the device,
 * and the first that opens is rails[0], whose info is the module's.  Each rail publishes its
 * address; a peer's rail is paired with ours when both run the same provider on the same
 * fabric (libfabric's fabric name: the IP network for tcp, the subnet for verbs).  A peer is
 * served by the paired rails of the fabric of the lowest level it shares with this rank, else
 * of the next level up that has some (a warning says so once per level), and its fragments,
 * writes and synchronous reads go on the first of them (ep->home), the same at both ends.
 *
 * Striping: the pieces of an asynchronous get of COMM_RAIL_STRIPE_MIN bytes or more go, one by
 * one as slots free, to the rail on which the piece would end first: the bytes already on it
 * plus the piece, over what it delivers.  What it delivers is measured: bytes of pieces
 * completed while the rail was busy, over that time, in samples of BTL_OFI_RAIL_SAMPLE_NS,
 * smoothed (half the last sample, half the rate before).  So the rails' shares follow their
 * rates, and a rail that slows down or is shared gets less within a few samples.  Rails start
 * equal.  Registrations are made on every rail, each with its own key, and the key the runtime
 * carries holds them all (btl_ofi_rdma.c, "Keys"): a piece on rail K names the memory with the
 * key of the peer's rail paired with K, whether comm chose it or the provider did
 * (FI_MR_PROV_KEY: verbs, a key per device).  A rail that addresses memory by offsets where
 * rails[0] addresses it virtually (the base is not carried then), or that differs from it in
 * needing local registrations (FI_MR_LOCAL), is not used.  One that addresses it virtually
 * where rails[0] uses offsets (libfabric's shm beside net) is read and written at the virtual
 * address (btl_ofi_raddr).
 *
 * A rail fails when a piece on it completes in error or none completes for
 * COMM_RAIL_TIMEOUT_MS while some are on it (a gap between progress calls does not count): it
 * is taken out of the schedule (a warning names host, rail and cause), a piece that failed is
 * read again on the other rails, and so are the pieces still on it, at once, where they land in
 * shadows (off the home rail with COMM_RAIL_REREAD: struct btl_ofi_shadow; the others wait for
 * it, comm_btl_ofi_rail_failed says why).  After BTL_OFI_RAIL_RETRY_NS, once nothing is left on
 * it, it is tried with one piece, and is back when that piece completes (taken out again if
 * that piece stalls too).  rails[0] is never taken out for a stall, and a peer's pieces fall
 * back to its home rail when no other rail to it is up.
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "btl/ofi/btl_ofi_settings.h"
#include "pmix-glue/pmix_client.h"
#include "base/error.h"
#include "base/log.h"

#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    BTL_OFI_RAIL_RATE0 = 100 << 20, /* bytes per second every rail starts with */
};
static const uint64_t BTL_OFI_RAIL_SAMPLE_NS = 50000000;  /* 50 ms */
static const uint64_t BTL_OFI_RAIL_RETRY_NS = 1000000000; /* 1 s */

static const char rails_key[] = "btl.ofi.rails";

/* What a rank publishes for each rail beyond the home one. */
struct ofi_rail_published {
    char provider[64];
    char fabric[64];
    uint32_t addr_format;
    uint32_t addr_len;
    unsigned char addr[BTL_OFI_ADDR_MAX];
};

const char *comm_btl_ofi_peer_host(const struct btl_ofi_endpoint *ep)
{
    return ep->host != NULL ? ep->host : "?";
}

uint64_t comm_btl_ofi_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int comm_btl_ofi_open_objects(struct btl_ofi_rail *r, long size, size_t cq_size, size_t tx_size,
                              size_t rx_size, char *why, size_t len)
{
    struct fi_info *info = r->info;
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_DATA, .wait_obj = FI_WAIT_NONE};
    struct fi_av_attr av_attr = {.type = info->domain_attr->av_type != FI_AV_UNSPEC
                                             ? info->domain_attr->av_type
                                             : FI_AV_TABLE,
                                 .count = (size_t)size};
    const char *what = "fi_fabric";
    int ret;

    cq_attr.size = cq_size;
    /* Queues as deep as comm uses, not the provider's default (software providers allocate
     * a buffer per slot: tcp;ofi_rxm's defaults cost 64 MB per rank). */
    if (info->tx_attr->size == 0 || info->tx_attr->size > tx_size) {
        info->tx_attr->size = tx_size;
    }
    if (info->rx_attr->size == 0 || info->rx_attr->size > rx_size) {
        info->rx_attr->size = rx_size;
    }
    r->mr_mode = (uint64_t)info->domain_attr->mr_mode;
    if (r->fabric == NULL && (ret = comm_btl_ofi_fi_fabric(info->fabric_attr, &r->fabric)) != 0) {
        goto fail;
    }
    what = "fi_domain";
    if (r->domain == NULL && (ret = fi_domain(r->fabric, info, &r->domain, NULL)) != 0) {
        goto fail;
    }
    what = "fi_cq_open";
    if (r->cq == NULL && (ret = fi_cq_open(r->domain, &cq_attr, &r->cq, NULL)) != 0) {
        goto fail;
    }
    what = "fi_av_open";
    if (r->av == NULL && (ret = fi_av_open(r->domain, &av_attr, &r->av, NULL)) != 0) {
        goto fail;
    }
    what = "fi_endpoint";
    if ((ret = fi_endpoint(r->domain, info, &r->ep, NULL)) != 0) {
        goto fail;
    }
    what = "binding the completion queue";
    if ((ret = fi_ep_bind(r->ep, &r->cq->fid, FI_TRANSMIT | FI_RECV)) != 0) {
        goto fail;
    }
    what = "binding the address vector";
    if ((ret = fi_ep_bind(r->ep, &r->av->fid, 0)) != 0) {
        goto fail;
    }
    what = "fi_enable";
    if ((ret = fi_enable(r->ep)) != 0) {
        goto fail;
    }
    return COMM_OK;
fail:
    snprintf(why, len, "%s failed: %s", what, comm_btl_ofi_fi_strerror(ret < 0 ? -ret : ret));
    return COMM_ERR_SYSTEM;
}

/* Whether rail R can carry pieces of reads of memory registered on every rail: it reads remote
 * memory, and can name it with its own key and the address the runtime carries. */
static bool ofi_rail_compatible(const struct btl_ofi_module *m, const struct btl_ofi_rail *r,
                                char *why, size_t len)
{
    uint64_t caps = FI_RMA | FI_READ | FI_REMOTE_READ;

    if ((r->info->caps & caps) != caps) {
        snprintf(why, len, "provider %s does not read remote memory there",
                 r->info->fabric_attr->prov_name);
        return false;
    }
    if (((r->mr_mode ^ m->mr_mode) & FI_MR_LOCAL) != 0) {
        snprintf(why, len, "provider %s %s local registrations, unlike the home rail's %s",
                 r->info->fabric_attr->prov_name, (r->mr_mode & FI_MR_LOCAL) ? "needs" : "needs no",
                 m->provider);
        return false;
    }
    /* Offsets from a base that rails[0] does not carry (its key is the provider's then). */
    if (!(r->mr_mode & FI_MR_VIRT_ADDR) && (m->mr_mode & FI_MR_VIRT_ADDR)) {
        snprintf(why, len, "provider %s addresses registered memory unlike the home rail's %s",
                 r->info->fabric_attr->prov_name, m->provider);
        return false;
    }
    /* The key comm requests there carries the rail's index in its top byte. */
    if (!(r->mr_mode & FI_MR_PROV_KEY) && r->info->domain_attr->mr_key_size < 8) {
        snprintf(why, len, "provider %s takes registration keys of %zu bytes, comm's need 8",
                 r->info->fabric_attr->prov_name, r->info->domain_attr->mr_key_size);
        return false;
    }
    return true;
}

int comm_btl_ofi_rails_add(struct btl_ofi_module *m, struct fi_info *info, const char *name,
                           uint32_t fabrics, long size, const size_t sizes[3], char *why,
                           size_t len)
{
    struct btl_ofi_rail *r = &m->rails[m->nrails];
    int rc;

    memset(r, 0, sizeof(*r));
    snprintf(r->name, sizeof(r->name), "%s", name);
    r->info = info;
    r->mr_mode = (uint64_t)info->domain_attr->mr_mode;
    if (!ofi_rail_compatible(m, r, why, len)) {
        comm_btl_ofi_rail_close(r);
        return COMM_ERR_NOT_SUPPORTED;
    }
    /* As deep as the first rail's: it may carry some peers' fragments too. */
    rc = comm_btl_ofi_open_objects(r, size, sizes[0], sizes[1], sizes[2], why, len);
    if (rc < 0) {
        comm_btl_ofi_rail_close(r);
        return rc;
    }
    r->fabrics = fabrics;
    r->rate = BTL_OFI_RAIL_RATE0;
    m->nrails++;
    return COMM_OK;
}

void comm_btl_ofi_rails_home(struct btl_ofi_module *m, const char *name, uint32_t fabrics)
{
    struct btl_ofi_rail *r = &m->rails[0];

    snprintf(r->name, sizeof(r->name), "%s", name);
    r->mr_mode = m->mr_mode;
    r->rate = BTL_OFI_RAIL_RATE0;
    r->fabrics = fabrics;
    m->nrails = 1;
}

void comm_btl_ofi_rail_close(struct btl_ofi_rail *r)
{
    comm_btl_ofi_close_fid(r->ep != NULL ? &r->ep->fid : NULL, "endpoint");
    comm_btl_ofi_close_fid(r->av != NULL ? &r->av->fid : NULL, "address vector");
    comm_btl_ofi_close_fid(r->cq != NULL ? &r->cq->fid : NULL, "completion queue");
    comm_btl_ofi_close_fid(r->domain != NULL ? &r->domain->fid : NULL, "domain");
    comm_btl_ofi_close_fid(r->fabric != NULL ? &r->fabric->fid : NULL, "fabric");
    if (r->info != NULL) {
        comm_btl_ofi_fi_freeinfo(r->info);
    }
    r->ep = NULL;
    r->av = NULL;
    r->cq = NULL;
    r->domain = NULL;
    r->fabric = NULL;
    r->info = NULL;
}

int comm_btl_ofi_rails_publish(struct btl_ofi_module *m)
{
    struct ofi_rail_published *pub;
    unsigned n = m->nrails;
    int rc;

    if (!m->railed) {
        return COMM_OK;
    }
    pub = calloc(n, sizeof(*pub));
    if (pub == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (unsigned k = 0; k < m->nrails; k++) {
        struct btl_ofi_rail *r = &m->rails[k];
        struct ofi_rail_published *p = &pub[k];
        size_t len = sizeof(p->addr);
        int ret = fi_getname(&r->ep->fid, p->addr, &len);

        if (ret != 0) {
            comm_log_error("btl_ofi", "fi_getname of rail %s failed: %s", r->name,
                           comm_btl_ofi_fi_strerror(-ret));
            free(pub);
            return COMM_ERR_SYSTEM;
        }
        snprintf(p->provider, sizeof(p->provider), "%s", r->info->fabric_attr->prov_name);
        snprintf(p->fabric, sizeof(p->fabric), "%s", r->info->fabric_attr->name);
        p->addr_format = r->info->addr_format;
        p->addr_len = (uint32_t)len;
    }
    rc = comm_pmix_put(rails_key, pub, n * sizeof(*pub));
    free(pub);
    return rc;
}

/* Pairs each of this rank's rails with the peer's rail on the same provider and fabric, from
 * what EP's peer published: sets EP->rail_addr; returns the rails paired (bit K: rail K). */
static uint32_t ofi_rails_pair(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                               struct ofi_rail_published *pub, size_t n)
{
    uint32_t paired = 0;

    for (unsigned k = 0; k < m->nrails; k++) {
        const struct btl_ofi_rail *r = &m->rails[k];

        if (m->host_fabric >= 0 && r->fabrics == 1u << m->host_fabric && !ep->same_host) {
            continue; /* the host's own fabric: another host's address there means nothing */
        }
        for (size_t j = 0; j < n; j++) {
            struct ofi_rail_published *p = &pub[j];
            fi_addr_t addr = FI_ADDR_UNSPEC;

            p->provider[sizeof(p->provider) - 1] = '\0';
            p->fabric[sizeof(p->fabric) - 1] = '\0';
            if (p->addr_len > sizeof(p->addr) || p->addr_format != r->info->addr_format ||
                strcmp(p->provider, r->info->fabric_attr->prov_name) != 0 ||
                strcmp(p->fabric, r->info->fabric_attr->name) != 0) {
                continue;
            }
            if (fi_av_insert(r->av, p->addr, 1, &addr, 0, NULL) != 1) {
                comm_log_warn("btl_ofi",
                              "host %s: cannot insert the address of rank %ld on rail %s: "
                              "that rail does not serve it",
                              m->host, ep->base.peer, r->name);
                break;
            }
            ep->rail_addr[k] = addr;
            ep->peer_rail[k] = (uint8_t)j;
            paired |= 1u << k;
            break;
        }
    }
    return paired;
}

/* "rack r0 (sockets on eth1)" for messages: fabric F as the topology names it. */
static void ofi_fabric_text(const struct btl_ofi_module *m, unsigned f, char *out, size_t len)
{
    const struct btl_ofi_fabric *fab = &m->fabrics[f];
    size_t used = (size_t)snprintf(out, len, "%s %s (", fab->level_name, fab->where);
    bool any = false;

    for (unsigned k = 0; k < m->nrails && used < len; k++) {
        const struct btl_ofi_rail *r = &m->rails[k];

        if (fab->rails & (1u << k)) {
            used += (size_t)snprintf(out + used, len - used, "%s%s on %s", any ? ", " : "",
                                     r->info->fabric_attr->prov_name,
                                     r->name[0] ? r->name : "the job's devices");
            any = true;
        }
    }
    if (used < len) {
        snprintf(out + used, len - used, "%s)", any ? "" : "no rail open");
    }
}

/*
 * Among the rails SET, the home one: the first in this rank's order, which is the topology
 * file's (its fabrics from the top level down, each in its Nics= order) or the allowlist's, the
 * same on every host, so both ends choose the same.  Fragments are not spread over the rails:
 * a rail that goes down would stop every peer whose fragments it carries until it is back,
 * where losing any rail but this one costs only its bandwidth.
 */
static unsigned ofi_rails_home_of(uint32_t set)
{
    return set != 0 ? (unsigned)__builtin_ctz(set) : 0;
}

int comm_btl_ofi_rails_connect(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                               const struct comm_btl_peer *peer)
{
    struct ofi_rail_published *pub = NULL;
    size_t len = 0;
    uint32_t paired, set = 0;
    unsigned first = m->nfabrics, f;
    char why[1024];
    size_t used = 0;

    if (comm_pmix_get(ep->base.peer, rails_key, (void **)&pub, &len) < 0 || len == 0 ||
        len % sizeof(*pub) != 0) {
        comm_log_error("btl_ofi",
                       "host %s: rank %ld (host %s) published no rails (%s): set the same "
                       "topology file and COMM_DEVICE_ALLOWLIST on every host",
                       m->host, ep->base.peer, comm_btl_ofi_peer_host(ep),
                       pub == NULL ? "none" : "malformed");
        free(pub);
        return COMM_ERR_UNREACHABLE;
    }
    paired = ofi_rails_pair(m, ep, pub, len / sizeof(*pub));
    free(pub);
    /* The fabric of the lowest level both share; a peer under no common switch goes over the
     * highest.  One that does not reach the peer gives way to the next level up. */
    for (f = 0; f < m->nfabrics && m->fabrics[f].level < peer->level; f++) {
    }
    first = f < m->nfabrics || m->nfabrics == 0 ? f : m->nfabrics - 1;
    why[0] = '\0';
    for (f = first; f < m->nfabrics; f++) {
        set = m->fabrics[f].rails & paired;
        if (set != 0) {
            break;
        }
        used += (size_t)snprintf(why + used, sizeof(why) - used, "%s%s %s: %s", used ? "; " : "",
                                 m->fabrics[f].level_name, m->fabrics[f].where,
                                 m->fabrics[f].rails == 0 ? m->fabrics[f].why
                                                          : "its host has no rail on it");
        if (used >= sizeof(why)) {
            used = sizeof(why) - 1;
        }
    }
    if (set == 0) {
        comm_log_error("btl_ofi", "host %s: no rail reaches rank %ld (host %s): %s", m->host,
                       ep->base.peer, comm_btl_ofi_peer_host(ep), why);
        return COMM_ERR_UNREACHABLE;
    }
    if (f != first && !m->fabrics[first].warned) {
        char over[256];

        m->fabrics[first].warned = true;
        ofi_fabric_text(m, f, over, sizeof(over));
        comm_log_warn("btl_ofi",
                      "host %s: the %s fabric does not serve rank %ld on host %s (%s); its "
                      "peers go over %s",
                      m->host, m->fabrics[first].level_name, ep->base.peer,
                      comm_btl_ofi_peer_host(ep), why, over);
    }
    ep->rails = set;
    ep->fabric = f;
    ep->home = ofi_rails_home_of(set);
    ep->addr = ep->rail_addr[ep->home];
    if (__builtin_popcount(set) > 1 && m->stripe_min > 0) {
        ep->base.stripe_min = m->stripe_min;
    }
    return COMM_OK;
}

/* Whether rail R may take a piece now: up, or taken out and due to be tried again: nothing left on
 * it, not even a read no get waits for (while those are pending, libfabric 1.17's net gave later
 * reads on the same rail wrong bytes: they read memory their sender had since let go). */
static bool ofi_rail_usable(const struct btl_ofi_rail *r, uint64_t now)
{
    return !r->down || (r->inflight == 0 && r->orphans == 0 && now >= r->retry_ns);
}

int comm_btl_ofi_rail_pick(struct btl_ofi_module *m, const struct btl_ofi_endpoint *ep, size_t n,
                           uint64_t now)
{
    int best = -1;
    double best_end = 0;

    for (unsigned k = 0; k < m->nrails; k++) {
        const struct btl_ofi_rail *r = &m->rails[k];
        double end;

        if (!(ep->rails & (1u << k)) || !ofi_rail_usable(r, now)) {
            continue;
        }
        end = (double)(r->inflight_bytes + n) / r->rate;
        if (best < 0 || end < best_end) {
            best = (int)k;
            best_end = end;
        }
    }
    /* None up: the home rail, which fragments to the peer need anyway. */
    return best >= 0 ? best : (int)ep->home;
}

void comm_btl_ofi_rail_posted(struct btl_ofi_module *m, unsigned k, size_t n, uint64_t now)
{
    struct btl_ofi_rail *r = &m->rails[k];

    if (r->inflight == 0) {
        r->sample_from = now;
        r->sample_bytes = 0;
        r->last_done_ns = now;
    }
    r->inflight++;
    r->inflight_bytes += n;
}

/* Rail R, taken out, delivered a piece: it is back in the schedule, a new sample from NOW. */
static void ofi_rail_back(const struct btl_ofi_module *m, struct btl_ofi_rail *r, uint64_t now)
{
    r->down = false;
    r->sample_from = now;
    r->sample_bytes = 0;
    comm_log_warn("btl_ofi", "host %s: rail %s is back: a piece on it completed", m->host, r->name);
}

void comm_btl_ofi_rail_done(struct btl_ofi_module *m, unsigned k, size_t n, bool ok)
{
    struct btl_ofi_rail *r = &m->rails[k];
    uint64_t now;

    r->inflight--;
    r->inflight_bytes -= n;
    if (!ok || m->nrails < 2) {
        return;
    }
    now = comm_btl_ofi_now_ns();
    r->last_done_ns = now;
    r->bytes += n;
    r->pieces++;
    if (r->down) {
        ofi_rail_back(m, r, now);
    }
    r->sample_bytes += n;
    if (r->sample_from != 0 && now - r->sample_from >= BTL_OFI_RAIL_SAMPLE_NS) {
        double rate = (double)r->sample_bytes * 1e9 / (double)(now - r->sample_from);

        r->rate = r->measured ? (r->rate + rate) / 2 : rate;
        r->measured = true;
        r->sample_from = now;
        r->sample_bytes = 0;
    }
    if (r->inflight == 0) {
        r->sample_from = 0; /* idle: what follows is a new sample */
    }
}

/*
 * Takes rail K out of the schedule (CAUSE says why): no piece goes on it until it is tried
 * again.  A read cannot be recalled, so a piece read again elsewhere while its first read could
 * still land would let stale bytes reach memory the program has been given back: the pieces on
 * it that land in shadows (COMM_RAIL_REREAD) are read again on the other rails at once, their
 * shadows orphaned; those that land in place stay and complete when the provider delivers them
 * (the kernel's TCP resends until the link is back), or fail, and are then read again.
 */
void comm_btl_ofi_rail_failed(struct btl_ofi_module *m, unsigned k, const char *cause)
{
    struct btl_ofi_rail *r = &m->rails[k];
    uint64_t now = comm_btl_ofi_now_ns();
    unsigned again;

    r->retry_ns = now + BTL_OFI_RAIL_RETRY_NS;
    r->last_done_ns = now; /* checked for a stall again a whole COMM_RAIL_TIMEOUT_MS later */
    again = comm_btl_ofi_gets_reread(m, k);
    if (r->down) {
        return; /* a piece it was tried with again */
    }
    r->down = true;
    r->downs++;
    comm_log_warn("btl_ofi",
                  "host %s: rail %s taken out (%s): new pieces go on the other rails; of those "
                  "on it %u are read again on them, %u wait for it; it is tried again in %.1f s%s",
                  m->host, r->name, cause, again, r->inflight, (double)BTL_OFI_RAIL_RETRY_NS / 1e9,
                  again > 0 ? ", once the first reads of those read again have ended" : "");
}

void comm_btl_ofi_rails_check(struct btl_ofi_module *m)
{
    uint64_t now = comm_btl_ofi_now_ns();
    /* A software provider moves bytes only while its queues are read: time the program spent
     * away from MPI is not the rails' doing. */
    bool gap = m->rails_checked_ns != 0 && now - m->rails_checked_ns > m->rail_timeout_ns / 4;

    m->rails_checked_ns = now;
    /* The home rail is never taken out for a stall: it carries fragments too, and pieces fall
     * back to it when no other rail to their peer is up. */
    for (unsigned k = 1; k < m->nrails; k++) {
        struct btl_ofi_rail *r = &m->rails[k];

        if (gap && r->inflight > 0) {
            r->last_done_ns = now;
            r->sample_from = 0;
        }
        /* A rail taken out stalls again when the piece it is tried with does not come back. */
        if (r->inflight > 0 && now - r->last_done_ns > m->rail_timeout_ns) {
            char cause[96];

            snprintf(cause, sizeof(cause), "no piece completed on it for %.1f s",
                     (double)(now - r->last_done_ns) / 1e9);
            comm_btl_ofi_rail_failed(m, k, cause);
        }
    }
}

void comm_btl_ofi_rails_describe(const struct btl_ofi_module *m, char *out, size_t len)
{
    size_t used = 0;

    out[0] = '\0';
    for (unsigned k = 0; k < m->nrails && used < len; k++) {
        const struct btl_ofi_rail *r = &m->rails[k];

        used += (size_t)snprintf(out + used, len - used, "%s%s (%s%s%s)", k ? ", " : "", r->name,
                                 r->info != NULL ? r->info->fabric_attr->prov_name : "?",
                                 r->info != NULL ? ", " : "",
                                 r->info != NULL ? r->info->fabric_attr->name : "");
    }
}

void comm_btl_ofi_rails_report(const struct btl_ofi_module *m)
{
    char text[768];
    size_t used = 0;

    if (m->nrails < 2) {
        return;
    }
    text[0] = '\0';
    for (unsigned k = 0; k < m->nrails && used < sizeof(text); k++) {
        const struct btl_ofi_rail *r = &m->rails[k];

        used += (size_t)snprintf(text + used, sizeof(text) - used,
                                 "%s%s %.1f MB in %lu pieces, %s %.1f MB/s%s", k ? "; " : "",
                                 r->name, (double)r->bytes / 1e6, r->pieces,
                                 r->measured ? "delivering" : "weight", r->rate / 1e6,
                                 r->downs > 0 ? ", taken out" : "");
        if (r->downs > 0 && used < sizeof(text)) {
            used += (size_t)snprintf(text + used, sizeof(text) - used, " %lu time%s", r->downs,
                                     r->downs == 1 ? "" : "s");
        }
    }
    comm_log_info("btl_ofi", "rails of rank %ld: %s", m->rank, text);
}

/* The ranks rail K reaches, as ranges ("1,3-7"), into OUT; how many. */
static long ofi_rail_reach_text(const struct btl_ofi_module *m, unsigned k, char *out, size_t len)
{
    struct comm_log_ranges ranges;
    long count = 0;

    comm_log_ranges_init(&ranges, out, len);
    for (long r = 0; r < m->size; r++) {
        if (m->eps[r] != NULL && (m->eps[r]->rails & (1u << k))) {
            comm_log_ranges_add(&ranges, r);
            count++;
        }
    }
    comm_log_ranges_end(&ranges);
    return count;
}

void comm_btl_ofi_rails_log_reach(const struct btl_ofi_module *m)
{
    char text[768];
    size_t used = 0;

    if (m->nrails < 2 || (m->rank != 0 && !comm_log_is_enabled(COMM_LOG_DEBUG, "btl_ofi"))) {
        return;
    }
    text[0] = '\0';
    for (unsigned k = 0; k < m->nrails && used < sizeof(text); k++) {
        char ranks[256];
        long n = ofi_rail_reach_text(m, k, ranks, sizeof(ranks));

        used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s (%s) %s%s", k ? "; " : "",
                                 m->rails[k].name, m->rails[k].info->fabric_attr->name,
                                 n == 0   ? "reaches no peer"
                                 : n == 1 ? "reaches rank "
                                          : "reaches ranks ",
                                 n == 0 ? "" : ranks);
    }
    if (m->rank == 0) {
        comm_log_info("btl_ofi", "rails of rank 0 on host %s: %s", m->host, text);
    } else {
        comm_log_debug("btl_ofi", "rails of rank %ld on host %s: %s", m->rank, m->host, text);
    }
}

void comm_btl_ofi_fabrics_log(const struct btl_ofi_module *m)
{
    char text[1024];
    size_t used = 0;

    if (!m->railed || m->rank != 0) {
        return;
    }
    text[0] = '\0';
    for (unsigned f = 0; f < m->nfabrics && used < sizeof(text); f++) {
        struct comm_log_ranges ranges;
        char fabric[256], ranks[256];
        long count = 0;

        comm_log_ranges_init(&ranges, ranks, sizeof(ranks));
        for (long r = 0; r < m->size; r++) {
            if (m->eps[r] != NULL && m->eps[r]->fabric == f) {
                comm_log_ranges_add(&ranges, r);
                count++;
            }
        }
        comm_log_ranges_end(&ranges);
        ofi_fabric_text(m, f, fabric, sizeof(fabric));
        used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s serves %s%s",
                                 f ? "; " : "", fabric,
                                 count == 0   ? "no peer"
                                 : count == 1 ? "rank "
                                              : "ranks ",
                                 count == 0 ? "" : ranks);
    }
    comm_log_info("btl_ofi", "fabrics of rank 0 on host %s, by level: %s", m->host, text);
}
