/*
 * btl.c - the registry of byte-transfer layers, COMM_BTL, and choosing a btl per peer.
 *
 * Layer: btl.  Must not: know any btl's internals; it only calls through the tables.
 */
#include "config.h"

#include "btl/btl.h"
#include "base/error.h"
#include "base/log.h"

#include <stdio.h>
#include <string.h>

extern const struct comm_btl_ops comm_btl_self;
extern const struct comm_btl_ops comm_btl_shm;
extern const struct comm_btl_ops comm_btl_ofi;

/* Every btl comm has, in the order they are offered a peer. */
static const struct comm_btl_ops *const btl_registry[] = {
    &comm_btl_self,
    &comm_btl_shm,
    &comm_btl_ofi,
};

enum { BTL_COUNT = sizeof(btl_registry) / sizeof(btl_registry[0]) };

static int btl_check_list(const char *value, char *expected_out, size_t len);

static const struct comm_setting btl_settings[] = {
    {.name = "COMM_BTL",
     .type = COMM_SETTING_STRING,
     .default_value = "",
     .help = "transports to use (self,shm) or, after ^, to leave out (^shm); empty: all",
     .audience = COMM_AUDIENCE_USER,
     .check = btl_check_list},
};

const struct comm_setting_table comm_btl_settings = {
    .component = "btl",
    .count = sizeof(btl_settings) / sizeof(btl_settings[0]),
    .settings = btl_settings,
};

/* Guarded by: written at init and finalize on the init thread only. */
static struct comm_btl_module *btl_open_modules[BTL_COUNT];
static long btl_served[BTL_COUNT]; /* peers each btl serves */

/* Which ranks each btl serves, as ranges ("0,2-5"), for the log. */
static struct comm_log_ranges btl_ranks[BTL_COUNT];
static char btl_ranks_text[BTL_COUNT][160];

const char *comm_btl_names(void)
{
    static char names[128];

    if (names[0] == '\0') {
        for (size_t i = 0; i < BTL_COUNT; i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
                     btl_registry[i]->name);
        }
    }
    return names;
}

/* Parses COMM_BTL into a selection mask; false (with expected_out) when malformed. */
static bool btl_parse_list(const char *value, bool selected_out[BTL_COUNT], char *expected_out,
                           size_t len)
{
    bool exclude = value[0] == '^';
    const char *p = exclude ? value + 1 : value;

    for (size_t i = 0; i < BTL_COUNT; i++) {
        selected_out[i] = exclude || value[0] == '\0';
    }
    if (value[0] == '\0') {
        return true;
    }
    while (*p != '\0') {
        size_t n = strcspn(p, ",");
        bool found = false;

        if (n == 0 || p[0] == '^') {
            snprintf(expected_out, len, "btl names (%s) separated by commas, the whole list "
                     "after one ^ to leave them out", comm_btl_names());
            return false;
        }
        for (size_t i = 0; i < BTL_COUNT; i++) {
            if (strlen(btl_registry[i]->name) == n && strncmp(p, btl_registry[i]->name, n) == 0) {
                selected_out[i] = !exclude;
                found = true;
            }
        }
        if (!found) {
            snprintf(expected_out, len, "known btl names: %s", comm_btl_names());
            return false;
        }
        p += n;
        if (*p == ',') {
            p++;
            if (*p == '\0') {
                snprintf(expected_out, len, "no empty name after a comma");
                return false;
            }
        }
    }
    return true;
}

static int btl_check_list(const char *value, char *expected_out, size_t len)
{
    bool selected[BTL_COUNT];

    return btl_parse_list(value, selected, expected_out, len) ? COMM_OK : COMM_ERR_BAD_PARAM;
}

int comm_btl_open_all(const struct comm_btl_self_info *self, comm_btl_recv_fn recv,
                      comm_btl_written_fn written)
{
    bool selected[BTL_COUNT];
    const char *list;
    char expected[256];
    int rc = comm_config_get_string(&btl_settings[0], &list);

    if (rc < 0) {
        return rc;
    }
    if (!btl_parse_list(list, selected, expected, sizeof(expected))) {
        return COMM_ERR_INTERNAL; /* the check accepted it */
    }
    for (size_t i = 0; i < BTL_COUNT; i++) {
        btl_open_modules[i] = NULL;
        if (!selected[i]) {
            comm_log_info("btl", "%s left out by COMM_BTL", btl_registry[i]->name);
            continue;
        }
        rc = btl_registry[i]->open(self, recv, &btl_open_modules[i]);
        if (rc == COMM_ERR_NOT_FOUND) {
            continue; /* declined, and said why */
        }
        if (rc < 0) {
            comm_btl_close_all();
            return rc;
        }
        btl_open_modules[i]->written = written;
    }
    return COMM_OK;
}

int comm_btl_connect_peer(const struct comm_btl_peer *peer,
                          struct comm_btl_endpoint **endpoint_out)
{
    struct comm_btl_module *best = NULL;
    int rc;

    for (size_t i = 0; i < BTL_COUNT; i++) {
        struct comm_btl_module *m = btl_open_modules[i];

        if (m != NULL && m->ops->reaches(m, peer) &&
            (best == NULL || m->ops->exclusivity > best->ops->exclusivity)) {
            best = m;
        }
    }
    if (best == NULL) {
        char open_names[128] = "";

        for (size_t i = 0; i < BTL_COUNT; i++) {
            if (btl_open_modules[i] != NULL) {
                size_t used = strlen(open_names);
                snprintf(open_names + used, sizeof(open_names) - used, "%s%s",
                         used ? ", " : "", btl_registry[i]->name);
            }
        }
        comm_log_error("btl", "no transport can reach rank %ld (%s; transports in use: %s; "
                       "see COMM_BTL and COMM_SHM)", peer->rank,
                       peer->same_host ? "same host" : "another host",
                       open_names[0] ? open_names : "none");
        return COMM_ERR_UNREACHABLE;
    }
    rc = best->ops->connect(best, peer, endpoint_out);
    if (rc == COMM_OK) {
        for (size_t i = 0; i < BTL_COUNT; i++) {
            if (btl_open_modules[i] == best) {
                if (btl_served[i] == 0) {
                    comm_log_ranges_init(&btl_ranks[i], btl_ranks_text[i],
                                         sizeof(btl_ranks_text[i]));
                }
                comm_log_ranges_add(&btl_ranks[i], peer->rank);
                btl_served[i]++;
            }
        }
    }
    return rc;
}

int comm_btl_progress_all(void)
{
    int n = 0;

    for (size_t i = 0; i < BTL_COUNT; i++) {
        if (btl_open_modules[i] != NULL) {
            int rc = btl_open_modules[i]->ops->progress(btl_open_modules[i]);
            if (rc > 0) {
                n += rc;
            }
        }
    }
    return n;
}

void comm_btl_wired_all(void)
{
    char summary[640] = "";

    for (size_t i = 0; i < BTL_COUNT; i++) {
        if (btl_open_modules[i] != NULL) {
            size_t used = strlen(summary);

            btl_open_modules[i]->ops->wired(btl_open_modules[i]);
            if (btl_served[i] > 0) {
                comm_log_ranges_end(&btl_ranks[i]);
            }
            snprintf(summary + used, sizeof(summary) - used, "%s%s serves %ld%s%s%s",
                     used ? ", " : "", btl_registry[i]->name, btl_served[i],
                     btl_served[i] > 1 ? " (ranks " : btl_served[i] == 1 ? " (rank " : "",
                     btl_served[i] > 0 ? btl_ranks_text[i] : "",
                     btl_served[i] > 0 ? ")" : "");
        }
    }
    comm_log_info("btl", "peers: %s", summary);
}

int comm_btl_flush_all(void)
{
    int rc = COMM_OK;

    for (size_t i = 0; i < BTL_COUNT; i++) {
        if (btl_open_modules[i] != NULL &&
            btl_open_modules[i]->ops->flush(btl_open_modules[i]) == COMM_AGAIN) {
            rc = COMM_AGAIN;
        }
    }
    return rc;
}

void comm_btl_close_all(void)
{
    for (size_t i = 0; i < BTL_COUNT; i++) {
        if (btl_open_modules[i] != NULL) {
            btl_open_modules[i]->ops->close(btl_open_modules[i]);
            btl_open_modules[i] = NULL;
            btl_served[i] = 0;
        }
    }
}
