/*
 * btl_ofi_init.c - the libfabric transport: choosing a provider and device, opening the
 * endpoint, publishing and connecting addresses, closing.  See btl_ofi_module.h.
 *
 * Layer: btl/ofi.  Must not: open an endpoint on a device outside the allowed set, or know
 * which runtime header a fragment carries.
 */
#include "config.h"

#include "btl/btl_stubs.h"
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

static const char ofi_addr_key[] = "btl.ofi.addr";

/* What a rank publishes: its provider (peers must use the same) and endpoint name.  With rails
 * its peers read btl.ofi.rails instead (btl_ofi_rail.c); FABRIC, its first rail's, tells a
 * peer without rails that this rank has them. */
struct ofi_published {
    char provider[64];
    char fabric[64]; /* "" without rails */
    uint32_t addr_format;
    uint32_t addr_len;
    unsigned char addr[BTL_OFI_ADDR_MAX];
};

struct ofi_settings {
    const char *backend;
    const char *allowlist; /* NULL when not set */
    long eager;
    long frag;
    long credits;
    long mr_cache;
    long read_size;
    long write_max;
    long write_piece;
    long recv_memory;
    long stripe_min;
    long rail_timeout_ms;
    long link_timeout_ms;
    const char *host_provider; /* COMM_OFI_HOST_PROVIDER */
    long progress_threads;     /* COMM_PROGRESS_THREADS */
    bool reread;               /* COMM_RAIL_REREAD */
    bool explicit_choice; /* the user named a backend or devices */
};

/* Bytes of a fragment that are not payload: our header and the runtime's, at most. */
enum { BTL_OFI_ROOM = 128 + sizeof(struct btl_ofi_hdr) };

static int ofi_read_settings(struct ofi_settings *s)
{
    const struct comm_setting *t = comm_btl_ofi_setting_list;
    int rc;

    if ((rc = comm_config_get_string(&t[COMM_BTL_OFI_SETTING_BACKEND], &s->backend)) < 0 ||
        (rc = comm_config_get_string(&t[COMM_BTL_OFI_SETTING_ALLOWLIST], &s->allowlist)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_EAGER], &s->eager)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_FRAGMENT], &s->frag)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_CREDITS], &s->credits)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_MR_CACHE], &s->mr_cache)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_READ_SIZE], &s->read_size)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_WRITE_MAX], &s->write_max)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_WRITE_PIECE], &s->write_piece)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_RECV_MEMORY], &s->recv_memory)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_STRIPE_MIN], &s->stripe_min)) < 0 ||
        (rc = comm_config_get_string(&t[COMM_BTL_OFI_SETTING_HOST_PROVIDER], &s->host_provider)) <
            0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_PROGRESS_THREADS],
                                  &s->progress_threads)) < 0 ||
        (rc = comm_config_get_bool(&t[COMM_BTL_OFI_SETTING_RAIL_REREAD], &s->reread)) < 0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_RAIL_TIMEOUT], &s->rail_timeout_ms)) <
            0 ||
        (rc = comm_config_get_int(&t[COMM_BTL_OFI_SETTING_LINK_TIMEOUT], &s->link_timeout_ms)) <
            0) {
        return rc;
    }
    if (s->allowlist[0] == '\0') {
        s->allowlist = NULL;
    }
    s->explicit_choice =
        comm_config_is_set(&t[COMM_BTL_OFI_SETTING_BACKEND]) || s->allowlist != NULL;
    /* The runtime's header travels with the payload in one fragment, after ours. */
    if (s->eager + BTL_OFI_ROOM > s->frag) {
        comm_log_error("btl_ofi",
                       "COMM_OFI_EAGER_LIMIT %ld does not fit a fragment of "
                       "COMM_OFI_FRAGMENT_SIZE %ld: the limit must be at most the fragment "
                       "size less %zu",
                       s->eager, s->frag, (size_t)BTL_OFI_ROOM);
        return COMM_ERR_BAD_PARAM;
    }
    return COMM_OK;
}

/* "12.5 MiB" */
static void ofi_bytes_text(size_t bytes, char *out, size_t len)
{
    if (bytes < 1024 * 1024) {
        snprintf(out, len, "%.1f KiB", (double)bytes / 1024.0);
    } else {
        snprintf(out, len, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
    }
}

/* SETTING bytes when positive, else FALLBACK; at most the provider's largest message. */
static size_t ofi_read_bytes(const struct btl_ofi_module *m, long setting, size_t fallback)
{
    size_t bytes = setting > 0 ? (size_t)setting : fallback;

    return bytes < m->max_msg_size ? bytes : m->max_msg_size;
}

/* Sets how large messages are read: SETTING bytes at a time when positive; else 512 KiB pieces
 * (128 KiB from other hosts) or one read of up to 4 MiB, whichever delivers faster to each
 * peer, alone and in streams (btl_ofi_tune.h). */
static void ofi_choose_read_size(struct btl_ofi_module *m, long setting)
{
    m->read_piece = ofi_read_bytes(m, setting, BTL_OFI_READ_PIECE);
    m->read_piece_far = ofi_read_bytes(m, setting, BTL_OFI_READ_PIECE_FAR);
    m->read_whole = ofi_read_bytes(m, setting, BTL_OFI_READ_WHOLE);
}

/* The info line's words for how large messages are read; SET: COMM_OFI_READ_SIZE is. */
static void ofi_read_text(const struct btl_ofi_module *m, bool set, char *out, size_t len)
{
    char piece[32], far[32], whole[32];

    ofi_bytes_text(m->read_piece, piece, sizeof(piece));
    if (m->read_whole == m->read_piece) {
        snprintf(out, len, "in pieces of %s%s", piece, set ? " (COMM_OFI_READ_SIZE)" : "");
        return;
    }
    ofi_bytes_text(m->read_piece_far, far, sizeof(far));
    ofi_bytes_text(m->read_whole, whole, sizeof(whole));
    snprintf(out, len,
             "in pieces of %s (%s from other hosts) or whole up to %s, whichever delivers "
             "faster to each peer",
             piece, far, whole);
}

/* Whether senders write large messages of up to SETTING bytes into this rank's memory: when
 * the provider reads and writes remote memory, with completion data of 4 bytes or more.  This
 * rank writes in pieces of PIECE bytes (COMM_OFI_WRITE_PIECE; comm_btl_ofi_write_piece).
 * One-sided writes (write_start) need only the provider's remote writes, and are written in
 * pieces of that size at any length. */
static void ofi_choose_write(struct btl_ofi_module *m, long setting, long piece)
{
    uint64_t caps = FI_WRITE | FI_REMOTE_WRITE;

    m->remote_write = m->rma && (m->info->caps & caps) == caps;
    m->rma_piece = m->rma_piece_far = 0;
    if (m->remote_write) {
        m->rma_piece = comm_btl_ofi_write_piece(m->provider, piece, false);
        m->rma_piece_far = comm_btl_ofi_write_piece(m->provider, piece, true);
    }
    m->write = m->remote_write && m->info->domain_attr->cq_data_size >= 4 && setting > 0;
    m->base.write_max = 0;
    m->write_piece = m->write_piece_far = 0;
    if (m->write) {
        m->base.write_max = (size_t)setting < m->max_msg_size ? (size_t)setting : m->max_msg_size;
        m->write_piece = comm_btl_ofi_write_piece(m->provider, piece, false);
        m->write_piece_far = comm_btl_ofi_write_piece(m->provider, piece, true);
        if (m->write_piece >= m->base.write_max) {
            m->write_piece = 0;
        }
        if (m->write_piece_far >= m->base.write_max) {
            m->write_piece_far = 0;
        }
    }
}

/* The info line's words for how large messages are written: "up to 2.0 MiB (in pieces of
 * 512.0 KiB, 256.0 KiB to other hosts, each once the one before it has landed)". */
static void ofi_write_text(const struct btl_ofi_module *m, char *out, size_t len)
{
    char max[32], near[48] = "whole", far[64] = "";

    ofi_bytes_text(m->base.write_max, max, sizeof(max));
    if (m->write_piece == 0 && m->write_piece_far == 0) {
        snprintf(out, len, "up to %s", max);
        return;
    }
    if (m->write_piece > 0) {
        char piece[32];

        ofi_bytes_text(m->write_piece, piece, sizeof(piece));
        snprintf(near, sizeof(near), "in pieces of %s", piece);
    }
    if (m->write_piece_far != m->write_piece) {
        char piece[32];

        ofi_bytes_text(m->write_piece_far, piece, sizeof(piece));
        snprintf(far, sizeof(far), ", %s%s to other hosts",
                 m->write_piece > 0 ? "" : "in pieces of ",
                 m->write_piece_far > 0 ? piece : "whole");
    }
    snprintf(out, len, "up to %s (%s%s, each once the one before it has landed)", max, near, far);
}

/*
 * Makes the receive buffers for every other rank of the job fit COMM_OFI_RECV_MEMORY, by
 * shrinking what the user left unset (every rank alike: any buffer takes any peer's fragment).
 * Rank 0 says so when even the smallest sizes do not fit.
 */
static void ofi_size_receives(struct ofi_settings *s, const struct comm_btl_self_info *self)
{
    const struct comm_setting *t = comm_btl_ofi_setting_list;
    struct comm_btl_ofi_sizing z = {
        .frag = s->frag,
        .eager = s->eager,
        .credits = s->credits,
        .frag_set = comm_config_is_set(&t[COMM_BTL_OFI_SETTING_FRAGMENT]),
        .eager_set = comm_config_is_set(&t[COMM_BTL_OFI_SETTING_EAGER]),
        .credits_set = comm_config_is_set(&t[COMM_BTL_OFI_SETTING_CREDITS]),
        .room = BTL_OFI_ROOM,
    };
    char need[32], budget[32];

    comm_btl_ofi_size_receives(&z, self->size - 1, (size_t)s->recv_memory);
    if (z.over && self->rank == 0) {
        ofi_bytes_text(z.memory, need, sizeof(need));
        ofi_bytes_text((size_t)s->recv_memory, budget, sizeof(budget));
        comm_log_warn("btl_ofi",
                      "receive buffers for %ld network peers (%ld credits and %ld spares of "
                      "%ld bytes each) take up to %s per rank, more than COMM_OFI_RECV_MEMORY "
                      "(%s)",
                      (long)self->size - 1, z.credits, z.spares, z.frag, need, budget);
    }
    s->frag = z.frag;
    s->eager = z.eager;
    s->credits = z.credits;
}

/*
 * Tries each candidate provider on the allowed devices; the first that offers an entry wins:
 * COMM_OK with it, else COMM_ERR_NOT_FOUND with every candidate and why it was refused in
 * TRIED, or another status.  libfabric must be loaded.
 */
static int ofi_choose_entry(const struct ofi_settings *s,
                            const struct comm_btl_ofi_devices *devices, struct fi_info **info_out,
                            char *tried, size_t tried_len)
{
    const char *candidates[COMM_BTL_OFI_MAX_CANDIDATES];
    size_t n = comm_btl_ofi_backend_candidates(s->backend, candidates);

    tried[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        struct fi_info *list = NULL;
        char why[384];
        size_t used;
        char why_other[384];
        /* Writes are asked for first; a provider that only reads still reads, and one without
         * RMA still carries fragments (large messages are copied).  Why a candidate was
         * refused is said as the read asked. */
        int rc = comm_btl_ofi_getinfo(candidates[i], devices, COMM_BTL_OFI_RMA_WRITE, &list,
                                      why_other, sizeof(why_other));

        if (rc == COMM_ERR_NOT_FOUND) {
            rc = comm_btl_ofi_getinfo(candidates[i], devices, COMM_BTL_OFI_RMA_READ, &list, why,
                                      sizeof(why));
        }
        if (rc == COMM_ERR_NOT_FOUND &&
            comm_btl_ofi_getinfo(candidates[i], devices, COMM_BTL_OFI_RMA_NONE, &list, why_other,
                                 sizeof(why_other)) == COMM_OK) {
            rc = COMM_OK;
        }
        if (rc == COMM_OK) {
            /* The first entry: every rank sees the same list in the same order. */
            if (list->next != NULL) {
                comm_btl_ofi_fi_freeinfo(list->next);
                list->next = NULL;
            }
            *info_out = list;
            return COMM_OK;
        }
        if (rc != COMM_ERR_NOT_FOUND) {
            return rc;
        }
        used = strlen(tried);
        snprintf(tried + used, tried_len - used, "%s%s: %s", used ? "; " : "", candidates[i],
                 why);
    }
    return COMM_ERR_NOT_FOUND;
}

/*
 * ofi_choose_entry, after loading libfabric; logs, as one error, every candidate and why it
 * was refused when none offers an entry.
 */
static int ofi_choose(const struct ofi_settings *s, const struct comm_btl_ofi_devices *devices,
                      bool needed, struct fi_info **info_out)
{
    char tried[1024] = "";
    char allowed[256];
    int rc;

    if (comm_btl_ofi_lib_load(tried, sizeof(tried)) < 0) {
        if (needed || s->explicit_choice) {
            comm_log_error("btl_ofi", "%s", tried);
            return s->explicit_choice ? COMM_ERR_BAD_PARAM : COMM_ERR_UNREACHABLE;
        }
        comm_log_info("btl_ofi", "not used: %s", tried);
        return COMM_ERR_NOT_FOUND;
    }
    rc = ofi_choose_entry(s, devices, info_out, tried, sizeof(tried));
    if (rc != COMM_ERR_NOT_FOUND) {
        return rc;
    }
    comm_btl_ofi_devices_describe(devices, allowed, sizeof(allowed));
    if (needed || s->explicit_choice) {
        comm_log_error("btl_ofi",
                       "no libfabric provider for COMM_BACKEND=%s on %s (from %s): "
                       "tried %s",
                       s->backend, allowed, devices->source, tried);
        return s->explicit_choice ? COMM_ERR_BAD_PARAM : COMM_ERR_UNREACHABLE;
    }
    comm_log_info("btl_ofi",
                  "not used: no libfabric provider for COMM_BACKEND=%s on %s: "
                  "tried %s",
                  s->backend, allowed, tried);
    return COMM_ERR_NOT_FOUND;
}

static int ofi_fail(const char *what, int ret)
{
    comm_log_error("btl_ofi", "%s failed: %s", what,
                   comm_btl_ofi_fi_strerror(ret < 0 ? -ret : ret));
    return COMM_ERR_SYSTEM;
}

/* Receive buffers posted for each peer: its credits, and the spares for its credit messages. */
static size_t ofi_rx_per_peer(const struct btl_ofi_module *m)
{
    return (size_t)(m->credits_per_peer + comm_btl_ofi_spares(m->credits_per_peer));
}

/* The depths of a rail's completion, transmit and receive queues. */
static void ofi_queue_sizes(const struct btl_ofi_module *m, long size, size_t sizes[3])
{
    size_t rx_total = (size_t)size * ofi_rx_per_peer(m);

    sizes[0] = rx_total + BTL_OFI_TX_BUFFERS + BTL_OFI_READS_IN_FLIGHT + BTL_OFI_READS_MOST + 64;
    sizes[1] = BTL_OFI_TX_BUFFERS + 64;
    sizes[2] = rx_total + 64;
}

/* Opens fabric, domain, completion queue, address vector and endpoint: the first rail, serving
 * FABRICS. */
static int ofi_open_endpoint(struct btl_ofi_module *m, long size, const char *name,
                             uint32_t fabrics)
{
    size_t sizes[3];
    char why[256];
    int rc;

    ofi_queue_sizes(m, size, sizes);
    rc = comm_btl_ofi_open_objects(&m->rails[0], size, sizes[0], sizes[1], sizes[2], why,
                                   sizeof(why));
    if (rc < 0) {
        comm_log_error("btl_ofi", "%s", why);
        return rc;
    }
    comm_btl_ofi_rails_home(m, name, fabrics);
    return COMM_OK;
}

/* Adds rail NAME's trouble ("cannot open", WHY) to what each of the fabrics FABRICS (bit F:
 * m->fabrics[F]) says when none of its rails serves a peer. */
static void ofi_fabrics_note(struct btl_ofi_module *m, uint32_t fabrics, const char *name,
                             const char *trouble, const char *why)
{
    for (unsigned f = 0; f < m->nfabrics; f++) {
        if (fabrics & (1u << f)) {
            size_t used = strlen(m->fabrics[f].why);

            snprintf(m->fabrics[f].why + used, sizeof(m->fabrics[f].why) - used, "%s%s %s: %s",
                     used ? "; " : "", name, trouble, why);
        }
    }
}

/* Where rail spec SPEC comes from, for messages: "the topology file (Nics=)" without fabrics,
 * else the highest fabric it serves ("the topology file's spine s0"). */
static void ofi_spec_source(const struct btl_ofi_module *m, const struct comm_btl_ofi_rail_spec *spec,
                            const char *source, char *out, size_t len)
{
    for (unsigned f = m->nfabrics; f-- > 0;) {
        if ((spec->fabrics & (1u << f)) && m->fabrics[f].level > 0 &&
            m->fabrics[f].level < COMM_BTL_LEVEL_NONE) {
            snprintf(out, len, "the topology file's %s %s", m->fabrics[f].level_name,
                     m->fabrics[f].where);
            return;
        }
        if ((spec->fabrics & (1u << f)) && (int)f == m->host_fabric) {
            snprintf(out, len, "COMM_OFI_HOST_PROVIDER");
            return;
        }
    }
    snprintf(out, len, "%s", source);
}

/*
 * Chooses an entry for each rail of SPECS (N of them), into INFOS, with its spec's index in
 * CHOSEN (N_OUT of them, in SPECS' order): a spec's provider (else COMM_BACKEND's) on its device
 * (else DEVICES, the job's).  A rail none can be chosen for is a warning naming the host and
 * the device, with why, and the why joins each of its fabrics' (M->fabrics); when none can, an
 * error says why for each.
 */
static int ofi_choose_rails(struct btl_ofi_module *m, const struct ofi_settings *s,
                            const struct comm_btl_ofi_rail_spec *specs, size_t nspecs,
                            const struct comm_btl_ofi_devices *devices, const char *source,
                            struct fi_info **infos, size_t *chosen, size_t *n_out)
{
    char all[2048] = "";
    size_t n = 0, used;

    if (comm_btl_ofi_lib_load(all, sizeof(all)) < 0) {
        comm_log_error("btl_ofi", "%s", all);
        return COMM_ERR_UNREACHABLE;
    }
    all[0] = '\0';
    for (size_t i = 0; i < nspecs && n < BTL_OFI_RAILS_MAX; i++) {
        struct comm_btl_ofi_devices one = {.scope = COMM_BTL_OFI_ONLY, .source = source};
        struct ofi_settings mine = *s;
        const char *name = specs[i].name[0] ? specs[i].name : "the job's devices";
        char tried[1024], from[192];
        int rc = COMM_ERR_NOT_FOUND;

        ofi_spec_source(m, &specs[i], source, from, sizeof(from));
        if (specs[i].name[0] != '\0') {
            one.use.count = 1;
            snprintf(one.use.names[0], sizeof(one.use.names[0]), "%s", specs[i].name);
        } else {
            one = *devices;
        }
        if (specs[i].provider[0] != '\0') {
            mine.backend = specs[i].provider;
        }
        if (strcmp(specs[i].provider, "shm") == 0 &&
            (m->host_fabric < 0 || specs[i].fabrics != 1u << m->host_fabric)) {
            /* In a topology file shm is comm's own, which joins the ranks of one host. */
            snprintf(tried, sizeof(tried),
                     "Provider=shm is comm's shared memory, which joins only the ranks of one "
                     "host");
        } else {
            rc = ofi_choose_entry(&mine, &one, &infos[n], tried, sizeof(tried));
        }
        if (rc == COMM_OK) {
            chosen[n++] = i;
            continue;
        }
        if (rc != COMM_ERR_NOT_FOUND) {
            while (n > 0) {
                comm_btl_ofi_fi_freeinfo(infos[--n]);
                infos[n] = NULL;
            }
            return rc;
        }
        comm_log_warn("btl_ofi", "host %s: rail %s (from %s) cannot open: %s", m->host, name,
                      from, tried);
        used = strlen(all);
        snprintf(all + used, sizeof(all) - used, "%s%s: %s", used ? "; " : "", name, tried);
        ofi_fabrics_note(m, specs[i].fabrics, name, "cannot open", tried);
    }
    if (n == 0) {
        comm_log_error("btl_ofi", "host %s: none of the rails from %s can open: %s", m->host,
                       source, all);
        return COMM_ERR_UNREACHABLE;
    }
    *n_out = n;
    return COMM_OK;
}

/* Adds the rails beyond the first (INFOS[1..N-1], of SPECS[CHOSEN[i]]), once it is open, with
 * queues as deep as its own (SIZES). */
static void ofi_add_rails(struct btl_ofi_module *m, struct fi_info **infos,
                          const struct comm_btl_ofi_rail_spec *specs, const size_t *chosen,
                          size_t n, const size_t sizes[3])
{
    for (size_t i = 1; i < n; i++) {
        const struct comm_btl_ofi_rail_spec *spec = &specs[chosen[i]];
        const char *name = spec->name[0] ? spec->name : "the job's devices";
        char why[384];

        if (comm_btl_ofi_rails_add(m, infos[i], name, spec->fabrics, m->size, sizes, why,
                                   sizeof(why)) < 0) {
            comm_log_warn("btl_ofi", "host %s: rail %s is not used: %s", m->host, name, why);
            ofi_fabrics_note(m, spec->fabrics, name, "is not used", why);
        }
        infos[i] = NULL;
    }
    for (unsigned k = 0; k < m->nrails; k++) {
        for (unsigned f = 0; f < m->nfabrics; f++) {
            if (m->rails[k].fabrics & (1u << f)) {
                m->fabrics[f].rails |= 1u << k;
            }
        }
    }
}

/*
 * The fabrics and the rails to open for them, into M->fabrics and SPECS (N_OUT): HOST_PROVIDER's
 * for the peers on this host when it is set (COMM_OFI_HOST_PROVIDER, index 0, level 0), then
 * the topology's fabrics on this host's path (SELF->fabrics), else one that serves every peer
 * over the rails NAMES gives (several devices, or the topology's Nics= for this host), else
 * over the job's devices.  N_OUT 0: no rails, one endpoint chosen as without them.
 */
static int ofi_plan_fabrics(struct btl_ofi_module *m, const struct comm_btl_self_info *self,
                            const struct comm_btl_ofi_names *names, const char *source,
                            const char *host_provider, struct comm_btl_ofi_rail_spec *specs,
                            size_t *n_out)
{
    struct comm_btl_fabric all[BTL_OFI_FABRICS_MAX];
    char expected[256], every[COMM_BTL_OFI_MAX_DEVICES * COMM_BTL_OFI_NAME];
    size_t nf = 0, bad = 0;

    *n_out = 0;
    m->host_fabric = -1;
    if (host_provider[0] != '\0') {
        m->host_fabric = 0;
        all[nf++] = (struct comm_btl_fabric){.level = 0,
                                             .level_name = "host",
                                             .where = m->host,
                                             .provider = host_provider,
                                             .nics = host_provider};
    }
    for (size_t f = 0; f < self->nfabrics && nf < BTL_OFI_FABRICS_MAX; f++) {
        all[nf++] = self->fabrics[f];
    }
    if (self->nfabrics == 0 && (names->count > 0 || nf > 0)) {
        every[0] = '\0';
        for (size_t i = 0; i < names->count; i++) {
            size_t used = strlen(every);

            snprintf(every + used, sizeof(every) - used, "%s%s", i ? "," : "", names->names[i]);
        }
        all[nf++] = (struct comm_btl_fabric){.level = COMM_BTL_LEVEL_NONE,
                                             .level_name = "every level",
                                             .where = source != NULL ? source : "the job's devices",
                                             .provider = NULL,
                                             .nics = every[0] ? every : NULL};
    }
    for (size_t f = 0; f < nf; f++) {
        struct btl_ofi_fabric *fab = &m->fabrics[f];

        fab->level = all[f].level;
        snprintf(fab->level_name, sizeof(fab->level_name), "%s", all[f].level_name);
        snprintf(fab->where, sizeof(fab->where), "%s", all[f].where);
    }
    m->nfabrics = (unsigned)nf;
    if (comm_btl_ofi_rail_plan(all, nf, specs, n_out, &bad, expected, sizeof(expected)) < 0) {
        comm_log_error("btl_ofi", "the %s fabric (%s): Provider=%s Nics=%s for host %s: expected %s",
                       all[bad].level_name, all[bad].where,
                       all[bad].provider ? all[bad].provider : "(none)",
                       all[bad].nics ? all[bad].nics : "(none)", m->host, expected);
        return COMM_ERR_BAD_PARAM;
    }
    return COMM_OK;
}

static int ofi_publish(struct btl_ofi_module *m)
{
    struct ofi_published pub;
    size_t len = sizeof(pub.addr);
    int ret;

    memset(&pub, 0, sizeof(pub));
    snprintf(pub.provider, sizeof(pub.provider), "%s", m->provider);
    ret = fi_getname(&m->rails[0].ep->fid, pub.addr, &len);
    if (ret != 0) {
        return ofi_fail("fi_getname", ret);
    }
    pub.addr_format = m->info->addr_format;
    pub.addr_len = (uint32_t)len;
    if (m->rails[0].name[0] != '\0') {
        snprintf(pub.fabric, sizeof(pub.fabric), "%s", m->info->fabric_attr->name);
    }
    return comm_pmix_put(ofi_addr_key, &pub, sizeof(pub));
}

/* Send buffers of a fragment each: as many as BTL_OFI_TX_MEMORY holds, within
 * [BTL_OFI_TX_FEWEST, BTL_OFI_TX_BUFFERS]. */
static int ofi_setup_tx(struct btl_ofi_module *m)
{
    size_t fit = BTL_OFI_TX_MEMORY / m->frag_size;
    size_t ntx = fit < BTL_OFI_TX_FEWEST    ? BTL_OFI_TX_FEWEST
                 : fit > BTL_OFI_TX_BUFFERS ? BTL_OFI_TX_BUFFERS
                                            : fit;
    int rc;

    m->tx_mem = calloc(ntx, m->frag_size);
    if (m->tx_mem == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (unsigned k = 0; k < m->nrails; k++) {
        rc = comm_btl_ofi_register_local(m, k, m->tx_mem, ntx * m->frag_size, FI_SEND,
                                         &m->rails[k].tx_mr, &m->rails[k].tx_desc);
        if (rc < 0) {
            return rc;
        }
    }
    for (size_t i = ntx; i-- > 0;) {
        m->tx[i].op.type = BTL_OFI_OP_SEND;
        m->tx[i].buf = m->tx_mem + i * m->frag_size;
        m->tx[i].next = m->tx_free;
        m->tx_free = &m->tx[i];
    }
    return COMM_OK;
}

static void ofi_close_all(struct btl_ofi_module *m);

/*
 * ofi_rxm shares one receive queue among its connections and fills it with 4096 buffers of
 * 16 KiB by default: 64 MB per rank before a message moves.  Credits already bound what peers
 * may have in flight, so it gets a queue that size (within 128 to 4096), unless the user set
 * it.  And ofi_rxm sends a message eagerly only up to its buffer size (16 KiB by default);
 * above, it adds a rendezvous of its own, two more trips across the network (16 KiB one way
 * between two hosts of the simulated cluster: 41-47 us instead of 17), so its buffers are made
 * to hold the fragment of one eager message with its own header (at least 128 buffers of it
 * per rank, registered memory with verbs: not our whole fragment, which shrinks to fit them
 * once ofi_rxm is chosen, see ofi_fit_rxm).  libfabric reads both when a provider is first
 * asked for, so this precedes fi_getinfo.
 */
enum { BTL_OFI_RXM_HEADER_ROOM = 256 };

static void ofi_size_env(long size, long credits, long frag, long eager)
{
    long one = eager + BTL_OFI_ROOM < frag ? eager + BTL_OFI_ROOM : frag;
    long want = (size - 1) * (credits + comm_btl_ofi_spares(credits));
    char value[32];

    if (comm_config_env("FI_OFI_RXM_MSG_RX_SIZE") == NULL) {
        want = want < 128 ? 128 : want > 4096 ? 4096 : want;
        snprintf(value, sizeof(value), "%ld", want);
        setenv("FI_OFI_RXM_MSG_RX_SIZE", value, 0);
    }
    if (comm_config_env("FI_OFI_RXM_BUFFER_SIZE") == NULL) {
        snprintf(value, sizeof(value), "%ld", one + BTL_OFI_RXM_HEADER_ROOM);
        setenv("FI_OFI_RXM_BUFFER_SIZE", value, 0);
    }
}

/*
 * ofi_rxm sends a message larger than its buffers with a protocol of its own, which may
 * complete after messages sent later (a flood of 16 KiB messages in packs of 257 KiB saw
 * message 20 before message 4), so with it no fragment may outgrow those buffers: fragments,
 * packs and the eager limit shrink to what FI_OFI_RXM_BUFFER_SIZE holds.
 */
static int ofi_fit_rxm(struct btl_ofi_module *m)
{
    const char *value = comm_config_env("FI_OFI_RXM_BUFFER_SIZE");
    long holds;

    if (strstr(m->provider, "ofi_rxm") == NULL || value == NULL) {
        return COMM_OK;
    }
    /* Read as libfabric reads it (a number in any base, what follows it ignored), so that the
     * size is the one ofi_rxm uses. */
    holds = strtol(value, NULL, 0) - BTL_OFI_RXM_HEADER_ROOM;
    if (holds < BTL_OFI_ROOM + 64) {
        comm_log_error("btl_ofi",
                       "FI_OFI_RXM_BUFFER_SIZE %s is too small for provider %s: comm's "
                       "fragments need at least %ld bytes",
                       value, m->provider, (long)(BTL_OFI_ROOM + 64 + BTL_OFI_RXM_HEADER_ROOM));
        return COMM_ERR_BAD_PARAM;
    }
    if ((size_t)holds < m->frag_size) {
        m->frag_size = (size_t)holds;
        m->base.max_fragment = m->frag_size - sizeof(struct btl_ofi_hdr);
        if (m->base.eager_limit > m->frag_size - BTL_OFI_ROOM) {
            m->base.eager_limit = m->frag_size - BTL_OFI_ROOM;
        }
        comm_log_info("btl_ofi",
                      "provider %s: fragments of at most %zu bytes, what its buffers hold "
                      "(FI_OFI_RXM_BUFFER_SIZE %s)",
                      m->provider, m->frag_size, value);
    }
    return COMM_OK;
}

/* Every rail may carry fragments and writes: what one message may be is what all allow. */
static void ofi_fit_rails(struct btl_ofi_module *m)
{
    for (unsigned k = 1; k < m->nrails; k++) {
        const struct fi_info *info = m->rails[k].info;

        if (info->tx_attr->inject_size < m->inject_size) {
            m->inject_size = info->tx_attr->inject_size;
        }
        if (info->tx_attr->iov_limit > 0 && info->tx_attr->iov_limit < m->iov_limit) {
            m->iov_limit = info->tx_attr->iov_limit;
        }
        if (info->ep_attr->max_msg_size < m->max_msg_size) {
            m->max_msg_size = info->ep_attr->max_msg_size;
        }
    }
}

static int btl_ofi_open(const struct comm_btl_self_info *self, comm_btl_recv_fn recv,
                        struct comm_btl_module **module_out)
{
    struct ofi_settings s;
    struct comm_btl_ofi_devices devices;
    struct btl_ofi_module *m;
    char expected[256], allowed[256], iface[IF_NAMESIZE + 1], read_text[224], write_text[224];
    char write_how[160];
    bool all_local = self->local_size == self->size;
    bool serve_local = !comm_btl_shm_is_enabled();
    bool needed = self->size > self->local_size || (serve_local && self->local_size > 1);
    const char *net = comm_config_env("COMM_NET_INTERFACES");
    struct comm_btl_ofi_names rail_names;
    const char *rail_source = NULL;
    struct comm_btl_ofi_rail_spec specs[COMM_BTL_OFI_PLAN_MAX];
    size_t nspecs = 0, chosen[BTL_OFI_RAILS_MAX];
    struct fi_info *rail_infos[BTL_OFI_RAILS_MAX] = {NULL};
    size_t nrail_infos = 0, sizes[3];
    const char *host_provider;
    bool railed;
    char rails_text[640];
    int rc;

    rc = ofi_read_settings(&s);
    if (rc < 0) {
        return rc;
    }
    if (!needed && !s.explicit_choice) {
        comm_log_info("btl_ofi", "not opened: every peer is reached another way (COMM_BACKEND "
                                 "or COMM_DEVICE_ALLOWLIST would open it)");
        return COMM_ERR_NOT_FOUND;
    }
    if (net != NULL && net[0] == '\0') {
        net = NULL;
    }
    rc = comm_btl_ofi_device_policy(s.allowlist, net, all_local, &devices, expected,
                                    sizeof(expected));
    if (rc < 0) {
        comm_log_error("btl_ofi", "%s: invalid value '%s': expected %s",
                       s.allowlist != NULL ? "COMM_DEVICE_ALLOWLIST" : "COMM_NET_INTERFACES",
                       s.allowlist != NULL ? s.allowlist : net, expected);
        return rc;
    }
    rc = comm_btl_ofi_rail_names(self->rails, s.allowlist, net, &rail_names, &rail_source,
                                 expected, sizeof(expected));
    if (rc < 0) {
        comm_log_error("btl_ofi", "the topology file's Nics= '%s' for host %s: expected %s",
                       self->rails, self->host != NULL ? self->host : "?", expected);
        return rc;
    }
    if (self->nfabrics > 0) {
        rail_source = "the topology file (Provider=, Nics=)";
    }
    /* Rails: one endpoint per device (several, or the one the topology file names), per
     * provider and device of the topology's fabrics, and libfabric's shm for this host's ranks
     * when this transport serves them. */
    host_provider = serve_local && self->local_size > 1 ? s.host_provider : "";
    if (s.host_provider[0] != '\0' && !serve_local && self->local_rank == 0) {
        comm_log_info("btl_ofi",
                      "COMM_OFI_HOST_PROVIDER=%s is not used: comm's shared memory serves the "
                      "ranks of host %s (COMM_SHM=0 would hand them to libfabric)",
                      s.host_provider, self->host != NULL ? self->host : "?");
    }
    railed = self->nfabrics > 0 || rail_names.count > 1 ||
             (self->rails != NULL && rail_names.count == 1) || host_provider[0] != '\0';
    /* One device for the network (the host's fabric aside): the providers are told too. */
    if (!railed || (self->nfabrics == 0 && rail_names.count == 0)) {
        comm_btl_ofi_restrict_env(&devices);
    }
    if (railed && rail_source == NULL) {
        rail_source = "the job's devices";
    }
    ofi_size_receives(&s, self);
    ofi_size_env(self->size, s.credits, s.frag, s.eager);
    /* Progress threads drive the rails beside the rank: the domains must take calls from two
     * threads. */
    comm_btl_ofi_set_thread_safe(s.progress_threads > 0);
    m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return COMM_ERR_NOMEM;
    }
    m->base.ops = &comm_btl_ofi;
    m->host_fabric = -1;
    pthread_mutex_init(&m->tx_lock, NULL);
    m->recv = recv;
    m->rank = self->rank;
    m->size = self->size;
    m->serve_local = serve_local;
    m->frag_size = (size_t)s.frag;
    m->credits_per_peer = s.credits;
    m->base.max_fragment = m->frag_size - sizeof(struct btl_ofi_hdr);
    m->base.eager_limit = (size_t)s.eager;
    m->host = self->host != NULL ? self->host : "?";
    m->stripe_min = (size_t)s.stripe_min;
    m->reread = s.reread;
    m->rail_timeout_ns = (uint64_t)s.rail_timeout_ms * 1000000u;
    m->link_timeout_ns = (uint64_t)s.link_timeout_ms * 1000000u;
    m->now_ns = comm_btl_ofi_now_ns();
    m->eps = calloc((size_t)self->size, sizeof(*m->eps));
    if (m->eps == NULL) {
        pthread_mutex_destroy(&m->tx_lock);
        free(m);
        return COMM_ERR_NOMEM;
    }
    m->railed = railed;
    if (railed) {
        rc = ofi_plan_fabrics(m, self, &rail_names, rail_source, host_provider, specs, &nspecs);
        if (rc == COMM_OK) {
            rc = ofi_choose_rails(m, &s, specs, nspecs, &devices, rail_source, rail_infos,
                                  chosen, &nrail_infos);
        }
        if (rc == COMM_OK) {
            m->info = rail_infos[0];
            rail_infos[0] = NULL;
            devices = (struct comm_btl_ofi_devices){.scope = COMM_BTL_OFI_ONLY,
                                                    .source = rail_source};
            for (size_t i = 0; i < nrail_infos; i++) {
                snprintf(devices.use.names[i], sizeof(devices.use.names[i]), "%s",
                         specs[chosen[i]].name[0] ? specs[chosen[i]].name : "(the job's)");
            }
            devices.use.count = nrail_infos;
        }
    } else {
        rc = ofi_choose(&s, &devices, needed, &m->info);
    }
    if (rc < 0) {
        free(m->eps);
        pthread_mutex_destroy(&m->tx_lock);
        free(m);
        return rc;
    }
    m->rails[0].info = m->info; /* freed with the home rail */
    snprintf(m->provider, sizeof(m->provider), "%s", m->info->fabric_attr->prov_name);
    m->mr_mode = (uint64_t)m->info->domain_attr->mr_mode;
    m->inject_size = m->info->tx_attr->inject_size;
    m->iov_limit = m->info->tx_attr->iov_limit > 0 ? m->info->tx_attr->iov_limit : 1;
    m->max_msg_size = m->info->ep_attr->max_msg_size;
    ofi_choose_read_size(m, s.read_size);
    rc = ofi_fit_rxm(m);
    if (rc < 0) {
        goto out_close;
    }
    if (m->max_msg_size < m->frag_size) {
        comm_log_error("btl_ofi",
                       "provider %s carries messages of at most %zu bytes, less "
                       "than COMM_OFI_FRAGMENT_SIZE %zu",
                       m->provider, m->max_msg_size, m->frag_size);
        rc = COMM_ERR_BAD_PARAM;
        goto out_close;
    }
    rc = ofi_open_endpoint(m, self->size,
                           !railed                     ? ""
                           : specs[chosen[0]].name[0] ? specs[chosen[0]].name
                                                       : "the job's devices",
                           railed ? specs[chosen[0]].fabrics : 1);
    if (rc < 0) {
        goto out_close;
    }
    comm_btl_ofi_rdma_init(m, s.mr_cache);
    ofi_choose_write(m, s.write_max, s.write_piece);
    if (!m->rma && nrail_infos > 1) {
        comm_log_warn("btl_ofi",
                      "host %s: provider %s does not read remote memory: only rail %s is used",
                      m->host, m->provider, m->rails[0].name);
        for (size_t i = 1; i < nrail_infos; i++) {
            ofi_fabrics_note(m, specs[chosen[i]].fabrics,
                             specs[chosen[i]].name[0] ? specs[chosen[i]].name : "the job's devices",
                             "is not used", "the first rail's provider reads no remote memory");
            comm_btl_ofi_fi_freeinfo(rail_infos[i]);
            rail_infos[i] = NULL;
        }
        nrail_infos = 1;
    }
    ofi_queue_sizes(m, self->size, sizes);
    ofi_add_rails(m, rail_infos, specs, chosen, nrail_infos, sizes);
    ofi_fit_rails(m);
    rc = ofi_setup_tx(m);
    if (rc < 0) {
        goto out_close;
    }
    rc = ofi_publish(m);
    if (rc == COMM_OK) {
        rc = comm_btl_ofi_rails_publish(m);
    }
    if (rc < 0) {
        goto out_close;
    }
    if (m->nrails > 1 && self->rank == 0) {
        char stripe[32];

        comm_btl_ofi_rails_describe(m, rails_text, sizeof(rails_text));
        ofi_bytes_text(m->stripe_min, stripe, sizeof(stripe));
        comm_log_info("btl_ofi",
                      "rails of host %s (from %s): %s; messages from %s (COMM_RAIL_STRIPE_MIN) "
                      "are read in pieces spread over the rails that reach their sender, by "
                      "what each delivers",
                      m->host, rail_source, rails_text, m->stripe_min > 0 ? stripe : "never");
    }
    comm_btl_ofi_interface_of(m->info, iface, sizeof(iface));
    comm_btl_ofi_devices_describe(&devices, allowed, sizeof(allowed));
    ofi_read_text(m, s.read_size > 0, read_text, sizeof(read_text));
    write_text[0] = '\0';
    if (m->write) {
        ofi_write_text(m, write_how, sizeof(write_how));
        snprintf(write_text, sizeof(write_text),
                 "written by the sender into the receiver's memory %s, above that ", write_how);
    }
    comm_log_info("btl_ofi",
                  "provider %s, fabric %s, domain %s%s%s (allowed devices: %s, from "
                  "%s); large messages %s%s%s",
                  m->provider, m->info->fabric_attr->name, m->info->domain_attr->name,
                  iface[0] ? ", interface " : "", iface, allowed, devices.source, write_text,
                  m->rma ? "read from the sender's memory " : "copied through fragments",
                  m->rma ? read_text : "");
    if (s.progress_threads > 0) {
        m->threads = true;
        rc = comm_btl_ofi_threads_start(m, self->local_rank, self->local_size);
        if (rc < 0) {
            goto out_close;
        }
    }
    *module_out = &m->base;
    return COMM_OK;
out_close:
    for (size_t i = 0; i < nrail_infos; i++) {
        if (rail_infos[i] != NULL) {
            comm_btl_ofi_fi_freeinfo(rail_infos[i]);
        }
    }
    ofi_close_all(m);
    return rc;
}

static bool btl_ofi_reaches(struct comm_btl_module *module, const struct comm_btl_peer *peer)
{
    struct btl_ofi_module *m = (struct btl_ofi_module *)module;

    return !peer->is_self && (!peer->same_host || m->serve_local);
}

/* Receive buffers for one more peer: COMM_OFI_CREDITS for its fragments and the spares for
 * its credit messages, all posted on RAIL, where its fragments come. */
static int ofi_add_rx(struct btl_ofi_module *m, unsigned rail)
{
    size_t n = ofi_rx_per_peer(m);
    struct btl_ofi_rx *rx;
    char *mem;
    void *desc = NULL;
    int rc;

    if (m->rx_nchunks == m->rx_capacity) {
        size_t cap = m->rx_capacity ? 2 * m->rx_capacity : 16;
        struct btl_ofi_rx **chunks = realloc(m->rx_chunks, cap * sizeof(*chunks));
        char **mems;
        struct fid_mr **mrs;

        if (chunks == NULL) {
            return COMM_ERR_NOMEM;
        }
        m->rx_chunks = chunks;
        mems = realloc(m->rx_mem, cap * sizeof(*mems));
        if (mems == NULL) {
            return COMM_ERR_NOMEM;
        }
        m->rx_mem = mems;
        mrs = realloc(m->rx_mr, cap * sizeof(*mrs));
        if (mrs == NULL) {
            return COMM_ERR_NOMEM;
        }
        m->rx_mr = mrs;
        m->rx_capacity = cap;
    }
    rx = calloc(n, sizeof(*rx));
    mem = malloc(n * m->frag_size);
    if (rx == NULL || mem == NULL) {
        free(rx);
        free(mem);
        return COMM_ERR_NOMEM;
    }
    m->rx_chunks[m->rx_nchunks] = rx;
    m->rx_mem[m->rx_nchunks] = mem;
    m->rx_mr[m->rx_nchunks] = NULL;
    m->rx_nchunks++;
    rc = comm_btl_ofi_register_local(m, rail, mem, n * m->frag_size, FI_RECV,
                                     &m->rx_mr[m->rx_nchunks - 1], &desc);
    if (rc < 0) {
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        rx[i].op.type = BTL_OFI_OP_RECV;
        rx[i].rail = rail;
        rx[i].buf = mem + i * m->frag_size;
        rx[i].desc = desc;
        rc = comm_btl_ofi_post_rx(m, &rx[i]);
        if (rc < 0) {
            return rc;
        }
    }
    return COMM_OK;
}

/* The peer's address on the first rail, from what it published (without rails): into ADDR. */
static int ofi_connect_single(struct btl_ofi_module *m, const struct comm_btl_peer *peer,
                              fi_addr_t *addr)
{
    struct ofi_published *pub = NULL;
    size_t len = 0;
    int rc, ret;

    rc = comm_pmix_get(peer->rank, ofi_addr_key, (void **)&pub, &len);
    if (rc < 0) {
        comm_log_error("btl_ofi",
                       "rank %ld published no libfabric address (its transport "
                       "could not open: see its log)",
                       peer->rank);
        return COMM_ERR_UNREACHABLE;
    }
    rc = COMM_ERR_UNREACHABLE;
    if (len != sizeof(*pub) || pub->addr_len > sizeof(pub->addr)) {
        comm_log_error("btl_ofi", "the libfabric address of rank %ld is malformed", peer->rank);
        goto out_free;
    }
    pub->provider[sizeof(pub->provider) - 1] = '\0';
    pub->fabric[sizeof(pub->fabric) - 1] = '\0';
    if (strcmp(pub->provider, m->provider) != 0 || pub->addr_format != m->info->addr_format ||
        pub->fabric[0] != '\0') {
        comm_log_error("btl_ofi",
                       "rank %ld uses provider %s%s but this rank uses %s without rails: set "
                       "the same COMM_BACKEND, COMM_DEVICE_ALLOWLIST and topology file on every "
                       "host",
                       peer->rank, pub->provider, pub->fabric[0] != '\0' ? " with rails" : "",
                       m->provider);
        goto out_free;
    }
    ret = fi_av_insert(m->rails[0].av, pub->addr, 1, addr, 0, NULL);
    if (ret != 1) {
        comm_log_error("btl_ofi", "cannot insert the address of rank %ld: %s", peer->rank,
                       comm_btl_ofi_fi_strerror(ret < 0 ? -ret : FI_EINVAL));
        goto out_free;
    }
    rc = COMM_OK;
out_free:
    free(pub);
    return rc;
}

static int btl_ofi_connect(struct comm_btl_module *module, const struct comm_btl_peer *peer,
                           struct comm_btl_endpoint **endpoint_out)
{
    struct btl_ofi_module *m = (struct btl_ofi_module *)module;
    struct btl_ofi_endpoint *ep;
    fi_addr_t addr = FI_ADDR_UNSPEC;
    size_t tuned_above;
    int rc;

    if (!m->railed && (rc = ofi_connect_single(m, peer, &addr)) < 0) {
        return rc;
    }
    ep = calloc(1, sizeof(*ep));
    if (ep == NULL) {
        return COMM_ERR_NOMEM;
    }
    ep->base.module = module;
    ep->base.peer = peer->rank;
    ep->addr = addr;
    ep->rails = 1;
    ep->rail_addr[0] = addr;
    ep->same_host = peer->same_host;
    ep->host = peer->host;
    if (m->railed && (rc = comm_btl_ofi_rails_connect(m, ep, peer)) < 0) {
        free(ep);
        return rc;
    }
    ep->credits = m->credits_per_peer;
    /* Tuned only when there are two ways (COMM_OFI_READ_SIZE leaves one). */
    tuned_above = m->read_whole > m->read_piece ? m->read_piece : 0;
    comm_btl_ofi_tune_init(&ep->tune, tuned_above);
    comm_btl_ofi_tune_init(&ep->stream_tune, tuned_above);
    comm_btl_ofi_tune_set_batch(&ep->stream_tune, BTL_OFI_STREAM_BATCH);
    ep->base.write_alone_above = comm_btl_ofi_write_size(m, ep);
    m->eps[peer->rank] = ep;
    rc = ofi_add_rx(m, ep->home);
    if (rc < 0) {
        return rc;
    }
    *endpoint_out = &ep->base;
    return COMM_OK;
}

static void btl_ofi_wired(struct comm_btl_module *module)
{
    struct btl_ofi_module *m = (struct btl_ofi_module *)module;
    size_t per_peer = ofi_rx_per_peer(m);
    char total[32];

    ofi_bytes_text(m->rx_nchunks * per_peer * m->frag_size, total, sizeof(total));
    comm_log_info("btl_ofi",
                  "receive buffers: %zu per peer (%ld credits) of %zu bytes for %zu peer%s, %s "
                  "in all; messages up to %zu bytes travel in one fragment",
                  per_peer, m->credits_per_peer, m->frag_size, m->rx_nchunks,
                  m->rx_nchunks == 1 ? "" : "s", total, m->base.eager_limit);
    comm_btl_ofi_rails_log_reach(m);
    comm_btl_ofi_fabrics_log(m);
}

void comm_btl_ofi_close_fid(struct fid *fid, const char *what)
{
    int ret;

    if (fid == NULL) {
        return;
    }
    ret = fi_close(fid);
    if (ret != 0) {
        comm_log_warn("btl_ofi", "closing the %s failed: %s", what, comm_btl_ofi_fi_strerror(-ret));
    }
}

static void ofi_close_all(struct btl_ofi_module *m)
{
    comm_btl_ofi_threads_stop(m);
    comm_btl_ofi_drop_gets(m);
    comm_btl_ofi_drop_writes(m);
    comm_btl_ofi_mr_cache_flush(&m->mrs);
    /* The endpoints first, then the buffers' registrations on the rails' domains, then every
     * rail (the first rail's info is m->info). */
    for (unsigned k = 0; k < BTL_OFI_RAILS_MAX; k++) {
        comm_btl_ofi_close_fid(m->rails[k].ep != NULL ? &m->rails[k].ep->fid : NULL,
                               "endpoint");
        m->rails[k].ep = NULL;
    }
    comm_btl_ofi_shadows_free(m); /* nothing lands in them now */
    for (size_t i = 0; i < m->rx_nchunks; i++) {
        comm_btl_ofi_close_fid(m->rx_mr[i] != NULL ? &m->rx_mr[i]->fid : NULL,
                               "receive registration");
        free(m->rx_chunks[i]);
        free(m->rx_mem[i]);
    }
    for (unsigned k = 0; k < BTL_OFI_RAILS_MAX; k++) {
        comm_btl_ofi_close_fid(m->rails[k].tx_mr != NULL ? &m->rails[k].tx_mr->fid : NULL,
                               "send registration");
        m->rails[k].tx_mr = NULL;
        comm_btl_ofi_rail_close(&m->rails[k]);
    }
    for (long r = 0; m->eps != NULL && r < m->size; r++) {
        free(m->eps[r]);
    }
    free(m->rx_chunks);
    free(m->rx_mem);
    free(m->rx_mr);
    free(m->tx_mem);
    free(m->bounce);
    free(m->eps);
    pthread_mutex_destroy(&m->tx_lock);
    free(m);
}

static void btl_ofi_close(struct comm_btl_module *module)
{
    struct btl_ofi_module *m = (struct btl_ofi_module *)module;
    struct timespec start, now;

    comm_btl_ofi_threads_stop(m); /* what follows is this thread's alone */

    if (m->packs_sent > 0) {
        comm_log_info("btl_ofi",
                      "%lu fragments went in %lu packs while peers had no receive buffer "
                      "left for them (COMM_OFI_CREDITS %ld)",
                      m->packed_frags, m->packs_sent, m->credits_per_peer);
    }
    if (m->credit_msgs > 0) {
        comm_log_info("btl_ofi", "%lu credit messages gave back what no fragment carried",
                      m->credit_msgs);
    }
    if (m->msgs_resent > 0 || m->dups_dropped > 0 || m->links_lost > 0) {
        comm_log_info(
            "btl_ofi",
            "links: %lu went down, %lu messages were sent again (a link down, or no "
            "acknowledgement for a while), %lu that came twice or after one lost were dropped",
            m->links_lost, m->msgs_resent, m->dups_dropped);
    }
    comm_btl_ofi_rails_report(m);
    if (m->gets_started > 0) {
        comm_log_info("btl_ofi",
                      "%lu large messages were read while others went on, up to %lu at once "
                      "in up to %u reads",
                      m->gets_started, m->gets_most, m->areads_most);
    }
    if (m->writes_started > 0 && m->writes_pieced == 0) {
        comm_log_info("btl_ofi", "%lu large messages were written into their receivers' memory",
                      m->writes_started);
    } else if (m->writes_started > 0) {
        comm_log_info("btl_ofi",
                      "%lu large messages were written into their receivers' memory, %lu of "
                      "them in %lu pieces",
                      m->writes_started, m->writes_pieced, m->write_pieces);
    }
    for (long r = 0; r < m->size; r++) {
        char chosen[512];

        if (m->eps[r] == NULL) {
            continue;
        }
        size_t piece = comm_btl_ofi_read_size(m, m->eps[r], COMM_BTL_OFI_READ_PIECES);

        comm_btl_ofi_tune_describe(&m->eps[r]->tune, piece, chosen, sizeof(chosen));
        if (chosen[0] != '\0') {
            comm_log_info("btl_ofi", "large messages from rank %ld were read %s", r, chosen);
        }
        comm_btl_ofi_tune_describe(&m->eps[r]->stream_tune, piece, chosen, sizeof(chosen));
        if (chosen[0] != '\0') {
            comm_log_info("btl_ofi",
                          "large messages from rank %ld, several in flight, were read %s", r,
                          chosen);
        }
    }
    /* Sends still in flight (credit messages, the last answers) get a moment to leave;
     * a peer that has already closed may never complete them. */
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (m->tx_posted > 0) {
        if (comm_btl_ofi_poll(m) < 0) {
            break;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 > 1000) {
            comm_log_debug("btl_ofi", "%zu sends still in flight at close", m->tx_posted);
            break;
        }
    }
    ofi_close_all(m);
}

const struct comm_btl_ops comm_btl_ofi = {
    .size = sizeof(struct comm_btl_ops),
    .name = "ofi",
    .exclusivity = 20,
    .open = btl_ofi_open,
    .reaches = btl_ofi_reaches,
    .connect = btl_ofi_connect,
    .reserve = comm_btl_ofi_reserve,
    .commit = comm_btl_ofi_commit,
    .send = comm_btl_ofi_send,
    .get = comm_btl_ofi_get,
    .get_start = comm_btl_ofi_get_start,
    .put_start = comm_btl_ofi_put_start,
    .write_start = comm_btl_ofi_write_start,
    .describe = comm_btl_ofi_describe,
    .register_mem = comm_btl_ofi_register,
    .deregister_mem = comm_btl_ofi_deregister,
    .progress = comm_btl_ofi_progress,
    .close = btl_ofi_close,
    .wired = btl_ofi_wired,
    .flush = comm_btl_ofi_flush,
    .put = comm_btl_stub_put,
};
