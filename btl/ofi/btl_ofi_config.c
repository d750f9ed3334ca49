/*
 * btl_ofi_config.c - the settings of the ofi btl, and the pure parsing of COMM_BACKEND and
 * COMM_DEVICE_ALLOWLIST.
 *
 * Layer: btl/ofi.  Must not: include libfabric or read the environment outside config.c: the
 * helpers here take strings, so unit tests drive them directly.
 */
#include "config.h"

#include "btl/ofi/btl_ofi.h"
#include "btl/ofi/btl_ofi_settings.h"
#include "base/error.h"

#include <stdio.h>
#include <string.h>

static int ofi_check_backend(const char *value, char *expected_out, size_t len);
static int ofi_check_allowlist(const char *value, char *expected_out, size_t len);
static int ofi_check_library(const char *value, char *expected_out, size_t len);
static int ofi_check_host_provider(const char *value, char *expected_out, size_t len);

const struct comm_setting comm_btl_ofi_setting_list[] = {
    [COMM_BTL_OFI_SETTING_BACKEND] = {.name = "COMM_BACKEND",
                                      .type = COMM_SETTING_STRING,
                                      .default_value = "auto",
                                      .help = "network provider: auto (verbs, then tcp), verbs "
                                              "or rdma, tcp, or a libfabric provider name "
                                              "such as tcp;ofi_rxm",
                                      .audience = COMM_AUDIENCE_USER,
                                      .check = ofi_check_backend},
    [COMM_BTL_OFI_SETTING_ALLOWLIST] = {.name = "COMM_DEVICE_ALLOWLIST",
                                        .type = COMM_SETTING_STRING,
                                        .default_value = "",
                                        .help = "network interfaces or libfabric domains to use "
                                                "(eth1,mlx5_0) or, after ^, to leave out; "
                                                "empty: the interfaces comm-run chose",
                                        .audience = COMM_AUDIENCE_USER,
                                        .check = ofi_check_allowlist},
    [COMM_BTL_OFI_SETTING_EAGER] = {.name = "COMM_OFI_EAGER_LIMIT",
                                    .type = COMM_SETTING_INT,
                                    .default_value = "131072",
                                    .help = "largest message sent over the network in one "
                                            "fragment; larger ones are written by the sender "
                                            "or read by the receiver",
                                    .audience = COMM_AUDIENCE_TUNER,
                                    .min = 0,
                                    .max = 1048576},
    [COMM_BTL_OFI_SETTING_FRAGMENT] = {.name = "COMM_OFI_FRAGMENT_SIZE",
                                       .type = COMM_SETTING_INT,
                                       .default_value = "263168",
                                       .help = "bytes of one network fragment, headers "
                                               "included (the size of each receive buffer): "
                                               "eager messages that wait for a buffer of "
                                               "the receiver's go together in one",
                                       .audience = COMM_AUDIENCE_TUNER,
                                       .min = 256,
                                       .max = 1052672},
    [COMM_BTL_OFI_SETTING_CREDITS] = {.name = "COMM_OFI_CREDITS",
                                      .type = COMM_SETTING_INT,
                                      .default_value = "4",
                                      .help = "receive buffers each rank keeps for each network "
                                              "peer: fragments a sender may have in flight",
                                      .audience = COMM_AUDIENCE_TUNER,
                                      .min = 2,
                                      .max = 4096},
    [COMM_BTL_OFI_SETTING_RECV_MEMORY] = {.name = "COMM_OFI_RECV_MEMORY",
                                          .type = COMM_SETTING_INT,
                                          .default_value = "33554432",
                                          .help = "bytes of network receive buffers a rank "
                                                  "keeps for all its peers: in large jobs "
                                                  "fragments, then credits, shrink to fit",
                                          .audience = COMM_AUDIENCE_TUNER,
                                          .min = 65536,
                                          .max = 1L << 40},
    [COMM_BTL_OFI_SETTING_MR_CACHE] = {.name = "COMM_OFI_MR_CACHE",
                                       .type = COMM_SETTING_INT,
                                       .default_value = "64",
                                       .help = "memory registrations kept for reuse after a "
                                               "large message (least recently used go "
                                               "first); 0: none",
                                       .audience = COMM_AUDIENCE_TUNER,
                                       .min = 0,
                                       .max = 65536},
    [COMM_BTL_OFI_SETTING_READ_SIZE] = {.name = "COMM_OFI_READ_SIZE",
                                        .type = COMM_SETTING_INT,
                                        .default_value = "0",
                                        .help = "bytes of one network read of a large "
                                                "message (8 in flight); 0: 512 KiB pieces "
                                                "(128 KiB from other hosts) or one read of "
                                                "up to 4 MiB, whichever delivers faster to "
                                                "each peer, alone and in streams",
                                        .audience = COMM_AUDIENCE_TUNER,
                                        .min = 0,
                                        .max = 1L << 30},
    [COMM_BTL_OFI_SETTING_WRITE_MAX] = {.name = "COMM_OFI_WRITE_MAX",
                                        .type = COMM_SETTING_INT,
                                        .default_value = "2097152",
                                        .help = "largest message its sender writes into "
                                                "memory the receiver offers, which saves "
                                                "the word back a read needs; larger ones "
                                                "are read; 0: all are read",
                                        .audience = COMM_AUDIENCE_TUNER,
                                        .min = 0,
                                        .max = 1L << 30},
    [COMM_BTL_OFI_SETTING_WRITE_PIECE] = {.name = "COMM_OFI_WRITE_PIECE",
                                          .type = COMM_SETTING_INT,
                                          .default_value = "0",
                                          .help = "bytes of one write of a larger written "
                                                  "message, each written once the one before "
                                                  "it has landed; 0: 512 KiB (256 KiB to other "
                                                  "hosts) over the kernel's TCP (providers "
                                                  "net, tcp, sockets), whole messages "
                                                  "otherwise; a piece as large as "
                                                  "COMM_OFI_WRITE_MAX writes them whole",
                                          .audience = COMM_AUDIENCE_TUNER,
                                          .min = 0,
                                          .max = 1L << 30},
    [COMM_BTL_OFI_SETTING_LIBRARY] = {.name = "COMM_OFI_LIBRARY",
                                      .type = COMM_SETTING_STRING,
                                      .default_value = COMM_FABRIC_SONAME,
                                      .help = "the libfabric library loaded when a job needs "
                                              "the network: a file name searched like a "
                                              "program's libraries, or a path (such as a "
                                              "site's own build)",
                                      .audience = COMM_AUDIENCE_USER,
                                      .check = ofi_check_library},
    [COMM_BTL_OFI_SETTING_STRIPE_MIN] = {.name = "COMM_RAIL_STRIPE_MIN",
                                         .type = COMM_SETTING_INT,
                                         .default_value = "262144",
                                         .help = "bytes from which a message to a peer that "
                                                 "several rails reach is read in pieces "
                                                 "spread over them, in proportion to what "
                                                 "each delivers; 0: never",
                                         .audience = COMM_AUDIENCE_TUNER,
                                         .min = 0,
                                         .max = 1L << 40},
    [COMM_BTL_OFI_SETTING_RAIL_TIMEOUT] = {.name = "COMM_RAIL_TIMEOUT_MS",
                                           .type = COMM_SETTING_INT,
                                           .default_value = "2000",
                                           .help = "milliseconds a rail with pieces on it may "
                                                   "go without completing one before it is "
                                                   "taken out of the schedule (new pieces go "
                                                   "on the others; it is tried again later)",
                                           .audience = COMM_AUDIENCE_USER,
                                           .min = 10,
                                           .max = 3600000},
    [COMM_BTL_OFI_SETTING_LINK_TIMEOUT] = {.name = "COMM_LINK_TIMEOUT_MS",
                                           .type = COMM_SETTING_INT,
                                           .default_value = "60000",
                                           .help = "milliseconds a network link to a peer may "
                                                   "stay down (its sends failing, and sent "
                                                   "again) before the job ends naming both "
                                                   "ends; a link that comes back within it "
                                                   "loses nothing",
                                           .audience = COMM_AUDIENCE_USER,
                                           .min = 100,
                                           .max = 86400000},
    [COMM_BTL_OFI_SETTING_HOST_PROVIDER] = {.name = "COMM_OFI_HOST_PROVIDER",
                                            .type = COMM_SETTING_STRING,
                                            .default_value = "",
                                            .help = "when the network transport serves the "
                                                    "ranks of a host too (COMM_SHM=0): shm "
                                                    "carries them over libfabric's shared "
                                                    "memory provider; empty: over the network "
                                                    "rails, through loopback",
                                            .audience = COMM_AUDIENCE_USER,
                                            .check = ofi_check_host_provider},
    [COMM_BTL_OFI_SETTING_PROGRESS_THREADS] = {.name = "COMM_PROGRESS_THREADS",
                                               .type = COMM_SETTING_INT,
                                               .default_value = "0",
                                               .help = "1: a thread per rail drives its "
                                                       "provider while the program is away "
                                                       "from MPI, bound near the rail's device "
                                                       "(else on cores the host's ranks leave "
                                                       "free); 0: none, the ranks' own MPI "
                                                       "calls do it",
                                               .audience = COMM_AUDIENCE_USER,
                                               .min = 0,
                                               .max = 1},
    [COMM_BTL_OFI_SETTING_RAIL_REREAD] = {.name = "COMM_RAIL_REREAD",
                                          .type = COMM_SETTING_BOOL,
                                          .default_value = "1",
                                          .help = "1: the pieces a rail other than a peer's "
                                                  "first one reads land in comm's buffers and "
                                                  "are copied into place, so that those of a "
                                                  "rail taken out are read again on the others "
                                                  "at once, and the rail stays out while its "
                                                  "first reads are pending; 0: they land in "
                                                  "place (no copy), wait for their rail, and it "
                                                  "comes back once it delivers",
                                          .audience = COMM_AUDIENCE_TUNER},
};

const struct comm_setting_table comm_btl_ofi_settings = {
    .component = "btl_ofi",
    .count = sizeof(comm_btl_ofi_setting_list) / sizeof(comm_btl_ofi_setting_list[0]),
    .settings = comm_btl_ofi_setting_list,
};

static int ofi_check_backend(const char *value, char *expected_out, size_t len)
{
    if (value[0] == '\0' || strpbrk(value, " \t,") != NULL) {
        snprintf(expected_out, len,
                 "auto, verbs, rdma, tcp or one libfabric provider name "
                 "(such as tcp;ofi_rxm)");
        return COMM_ERR_BAD_PARAM;
    }
    return COMM_OK;
}

static int ofi_check_host_provider(const char *value, char *expected_out, size_t len)
{
    if (value[0] != '\0' && strcmp(value, "shm") != 0) {
        snprintf(expected_out, len, "shm (libfabric's shared memory provider), or empty");
        return COMM_ERR_BAD_PARAM;
    }
    return COMM_OK;
}

static int ofi_check_library(const char *value, char *expected_out, size_t len)
{
    if (value[0] == '\0') {
        snprintf(expected_out, len,
                 "a libfabric shared library: a file name such as %s, or a path to one",
                 COMM_FABRIC_SONAME);
        return COMM_ERR_BAD_PARAM;
    }
    return COMM_OK;
}

static int ofi_check_allowlist(const char *value, char *expected_out, size_t len)
{
    struct comm_btl_ofi_names set;

    if (value[0] == '\0') {
        return COMM_OK;
    }
    return comm_btl_ofi_parse_devices(value, true, &set, expected_out, len);
}

size_t comm_btl_ofi_backend_candidates(const char *backend,
                                       const char *out[COMM_BTL_OFI_MAX_CANDIDATES])
{
    /* net is libfabric 1.17's own TCP RDM provider: between two simulated hosts it carried
     * 1 B in 6.9 us where tcp;ofi_rxm took 7.5-7.8, and 16 KiB in 11 us against 13-17. */
    if (strcmp(backend, "auto") == 0) {
        out[0] = "verbs;ofi_rxm";
        out[1] = "net";
        out[2] = "tcp;ofi_rxm";
        out[3] = "tcp";
        return 4;
    }
    if (strcmp(backend, "verbs") == 0 || strcmp(backend, "rdma") == 0) {
        out[0] = "verbs;ofi_rxm";
        return 1;
    }
    if (strcmp(backend, "tcp") == 0) {
        out[0] = "net";
        out[1] = "tcp;ofi_rxm";
        return 2;
    }
    out[0] = backend;
    return 1;
}

int comm_btl_ofi_parse_devices(const char *text, bool allow_exclude, struct comm_btl_ofi_names *out,
                               char *expected_out, size_t len)
{
    struct comm_btl_ofi_names set = {.exclude = false};
    const char *p = text;

    if (*p == '^') {
        if (!allow_exclude) {
            snprintf(expected_out, len, "interface names separated by commas");
            return COMM_ERR_BAD_PARAM;
        }
        set.exclude = true;
        p++;
    }
    for (;;) {
        size_t n = strcspn(p, ",");

        if (n == 0 || p[0] == '^') {
            snprintf(expected_out, len,
                     "device names separated by commas, the whole list "
                     "after one ^ to leave them out");
            return COMM_ERR_BAD_PARAM;
        }
        if (n >= COMM_BTL_OFI_NAME || set.count == COMM_BTL_OFI_MAX_DEVICES) {
            snprintf(expected_out, len, "at most %d names of at most %d characters",
                     COMM_BTL_OFI_MAX_DEVICES, COMM_BTL_OFI_NAME - 1);
            return COMM_ERR_BAD_PARAM;
        }
        memcpy(set.names[set.count], p, n);
        set.names[set.count][n] = '\0';
        set.count++;
        p += n;
        if (*p == '\0') {
            break;
        }
        p++; /* the comma; an empty name after it is refused above */
    }
    *out = set;
    return COMM_OK;
}

int comm_btl_ofi_device_policy(const char *allowlist, const char *net_interfaces, bool all_local,
                               struct comm_btl_ofi_devices *out, char *expected_out, size_t len)
{
    struct comm_btl_ofi_devices set = {.scope = COMM_BTL_OFI_ONLY};
    struct comm_btl_ofi_names list;
    int rc;

    if (net_interfaces != NULL) {
        rc = comm_btl_ofi_parse_devices(net_interfaces, false, &set.use, expected_out, len);
        if (rc < 0) {
            return rc;
        }
        set.source = "the job's interfaces (COMM_NET_INTERFACES)";
    } else if (all_local) {
        set.use.count = 1;
        snprintf(set.use.names[0], sizeof(set.use.names[0]), "lo");
        set.source = "every rank on this host";
    } else {
        set.scope = COMM_BTL_OFI_NONLOOPBACK;
        set.source = "ranks on several hosts";
    }
    if (allowlist != NULL) {
        rc = comm_btl_ofi_parse_devices(allowlist, true, &list, expected_out, len);
        if (rc < 0) {
            return rc;
        }
        if (list.exclude) {
            set.skip = list;
        } else {
            set.scope = COMM_BTL_OFI_ONLY;
            set.use = list;
        }
        set.source = "COMM_DEVICE_ALLOWLIST";
    }
    *out = set;
    return COMM_OK;
}

static bool ofi_named(const struct comm_btl_ofi_names *list, const char *const *names,
                      size_t nnames)
{
    for (size_t i = 0; i < nnames; i++) {
        for (size_t j = 0; names[i] != NULL && j < list->count; j++) {
            if (strcmp(names[i], list->names[j]) == 0) {
                return true;
            }
        }
    }
    return false;
}

bool comm_btl_ofi_devices_allow(const struct comm_btl_ofi_devices *set, const char *const *names,
                                size_t nnames, bool loopback)
{
    bool in =
        set->scope == COMM_BTL_OFI_NONLOOPBACK ? !loopback : ofi_named(&set->use, names, nnames);

    return in && !ofi_named(&set->skip, names, nnames);
}

void comm_btl_ofi_devices_describe(const struct comm_btl_ofi_devices *set, char *out, size_t len)
{
    size_t used;

    if (set->scope == COMM_BTL_OFI_NONLOOPBACK) {
        snprintf(out, len, "every non-loopback device");
    } else {
        out[0] = '\0';
        for (size_t i = 0; i < set->use.count; i++) {
            used = strlen(out);
            snprintf(out + used, len - used, "%s%s", i ? "," : "", set->use.names[i]);
        }
    }
    for (size_t i = 0; i < set->skip.count; i++) {
        used = strlen(out);
        snprintf(out + used, len - used, "%s%s", i ? "," : " but ", set->skip.names[i]);
    }
}

size_t comm_btl_ofi_write_piece(const char *provider, long setting, bool far)
{
    static const char *const over_tcp[] = {"net", "tcp", "sockets"};
    size_t first = strcspn(provider, ";");

    if (setting > 0) {
        return (size_t)setting;
    }
    for (size_t i = 0; i < sizeof(over_tcp) / sizeof(over_tcp[0]); i++) {
        if (strlen(over_tcp[i]) == first && strncmp(provider, over_tcp[i], first) == 0) {
            return far ? BTL_OFI_WRITE_PIECE_FAR : BTL_OFI_WRITE_PIECE;
        }
    }
    return 0;
}

size_t comm_btl_ofi_write_next(size_t len, size_t done, size_t piece)
{
    size_t rest = done < len ? len - done : 0;

    return piece == 0 || rest <= piece ? rest : piece;
}

long comm_btl_ofi_spares(long credits)
{
    long least = credits / 2; /* credits a credit message carries back, at least */

    return least > 0 ? credits / least : 1;
}

/* Fragments are multiples of this many bytes when they are sized to fit. */
enum { OFI_FRAG_ALIGN = 64 };

/* The largest fragment within [FLOOR, the current one] whose buffers fit BUDGET. */
static long ofi_fit_frag(const struct comm_btl_ofi_sizing *s, long peers, size_t budget, long floor)
{
    size_t per = budget / (size_t)peers / (size_t)(s->credits + comm_btl_ofi_spares(s->credits));
    long frag = (long)(per & ~(size_t)(OFI_FRAG_ALIGN - 1));

    if (s->eager_set && floor < s->eager + s->room) {
        floor = s->eager + s->room;
    }
    if (frag < floor) {
        frag = floor;
    }
    return frag < s->frag ? frag : s->frag;
}

/* The most credits within [FLOOR, the current number] whose buffers fit BUDGET. */
static long ofi_fit_credits(const struct comm_btl_ofi_sizing *s, long peers, size_t budget,
                            long floor)
{
    size_t buffers = budget / (size_t)peers / (size_t)s->frag;
    long credits = s->credits;

    while (credits > floor && (size_t)(credits + comm_btl_ofi_spares(credits)) > buffers) {
        credits--;
    }
    return credits;
}

void comm_btl_ofi_size_receives(struct comm_btl_ofi_sizing *s, long peers, size_t budget)
{
    if (peers > 0) {
        if (!s->frag_set) {
            s->frag = ofi_fit_frag(s, peers, budget, COMM_BTL_OFI_FRAG_MID);
        }
        if (!s->credits_set) {
            s->credits = ofi_fit_credits(s, peers, budget, COMM_BTL_OFI_CREDITS_MID);
        }
        if (!s->frag_set) {
            s->frag = ofi_fit_frag(s, peers, budget, COMM_BTL_OFI_FRAG_MIN);
        }
        if (!s->credits_set) {
            s->credits = ofi_fit_credits(s, peers, budget, COMM_BTL_OFI_CREDITS_MIN);
        }
    }
    if (!s->eager_set && s->eager > s->frag - s->room) {
        s->eager = s->frag - s->room;
    }
    s->spares = comm_btl_ofi_spares(s->credits);
    s->memory = peers > 0 ? (size_t)peers * (size_t)(s->credits + s->spares) * (size_t)s->frag : 0;
    s->over = s->memory > budget;
}

int comm_btl_ofi_rail_names(const char *topo_rails, const char *allowlist, const char *net,
                            struct comm_btl_ofi_names *names_out, const char **source_out,
                            char *expected_out, size_t len)
{
    struct comm_btl_ofi_names list;

    names_out->count = 0;
    *source_out = NULL;
    if (topo_rails != NULL && topo_rails[0] != '\0') {
        int rc = comm_btl_ofi_parse_devices(topo_rails, false, &list, expected_out, len);

        if (rc < 0) {
            return rc;
        }
        *names_out = list;
        *source_out = "the topology file (Nics=)";
        return COMM_OK;
    }
    if (allowlist != NULL) {
        if (comm_btl_ofi_parse_devices(allowlist, true, &list, expected_out, len) == COMM_OK &&
            !list.exclude && list.count > 1) {
            *names_out = list;
            *source_out = "COMM_DEVICE_ALLOWLIST";
        }
        return COMM_OK; /* the allowlist decides, rails or not */
    }
    if (net != NULL && comm_btl_ofi_parse_devices(net, false, &list, expected_out, len) == COMM_OK &&
        list.count > 1) {
        *names_out = list;
        *source_out = "the job's interfaces (COMM_NET_INTERFACES)";
    }
    return COMM_OK;
}

int comm_btl_ofi_rail_plan(const struct comm_btl_fabric *fabrics, size_t nf,
                           struct comm_btl_ofi_rail_spec *out, size_t *n_out, size_t *bad_out,
                           char *expected_out, size_t len)
{
    size_t n = 0;

    *n_out = 0;
    for (size_t f = nf; f-- > 0;) {
        struct comm_btl_ofi_names list = {.count = 1};
        const char *provider = fabrics[f].provider != NULL ? fabrics[f].provider : "";

        list.names[0][0] = '\0';
        if (fabrics[f].nics != NULL &&
            comm_btl_ofi_parse_devices(fabrics[f].nics, false, &list, expected_out, len) < 0) {
            *bad_out = f;
            return COMM_ERR_BAD_PARAM;
        }
        if (strlen(provider) >= COMM_BTL_OFI_NAME || f >= 32) {
            snprintf(expected_out, len, "a provider name of at most %d characters, and at most "
                     "32 fabrics", COMM_BTL_OFI_NAME - 1);
            *bad_out = f;
            return COMM_ERR_BAD_PARAM;
        }
        for (size_t i = 0; i < list.count; i++) {
            size_t k = 0;

            while (k < n && (strcmp(out[k].provider, provider) != 0 ||
                             strcmp(out[k].name, list.names[i]) != 0)) {
                k++;
            }
            if (k == n) {
                if (n == COMM_BTL_OFI_PLAN_MAX) {
                    snprintf(expected_out, len, "at most %d rails (a provider on a device) in "
                             "all levels", COMM_BTL_OFI_PLAN_MAX);
                    *bad_out = f;
                    return COMM_ERR_BAD_PARAM;
                }
                snprintf(out[n].provider, sizeof(out[n].provider), "%s", provider);
                snprintf(out[n].name, sizeof(out[n].name), "%s", list.names[i]);
                out[n].fabrics = 0;
                n++;
            }
            out[k].fabrics |= 1u << f;
        }
    }
    *n_out = n;
    return COMM_OK;
}
