/*
 * topo.c - the cluster tree of topo.h: built from a file's statements, checked, asked about,
 * written back and drawn.
 *
 * Layer: topo.  No logging here: faults go back to the caller as "file:line: what".
 */
#include "config.h"

#include "topo/topo.h"
#include "topo/topo_build.h"

#include "base/error.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names to indexes ------------------------------------------------------------------- */

/* An open-addressing table from names to indexes; the names belong to someone else. */
struct topo_index {
    const char **keys;
    int *values;
    size_t n;
    size_t cap;
};

static uint64_t topo_hash(const char *text, size_t len)
{
    uint64_t h = 1469598103934665603ULL;

    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static int topo_index_init(struct topo_index *ix, size_t n)
{
    ix->n = 0;
    ix->cap = 16;
    while (ix->cap < n * 2) {
        ix->cap *= 2;
    }
    ix->keys = calloc(ix->cap, sizeof(*ix->keys));
    ix->values = calloc(ix->cap, sizeof(*ix->values));
    return ix->keys && ix->values ? COMM_OK : COMM_ERR_NOMEM;
}

static void topo_index_free(struct topo_index *ix)
{
    free(ix->keys);
    free(ix->values);
    memset(ix, 0, sizeof(*ix));
}

/* The slot of KEY: where it is, or the empty slot where it would go. */
static size_t topo_index_slot(const struct topo_index *ix, const char *key)
{
    size_t i = topo_hash(key, strlen(key)) & (ix->cap - 1);

    while (ix->keys[i] != NULL && strcmp(ix->keys[i], key) != 0) {
        i = (i + 1) & (ix->cap - 1);
    }
    return i;
}

static int topo_index_get(const struct topo_index *ix, const char *key)
{
    size_t i = topo_index_slot(ix, key);

    return ix->keys[i] ? ix->values[i] : -1;
}

/* Adds KEY (not there yet); the table doubles when half full. */
static int topo_index_put(struct topo_index *ix, const char *key, int value)
{
    size_t i;

    if (2 * (ix->n + 1) > ix->cap) {
        struct topo_index bigger;

        if (topo_index_init(&bigger, ix->cap) != COMM_OK) {
            topo_index_free(&bigger);
            return COMM_ERR_NOMEM;
        }
        for (size_t k = 0; k < ix->cap; k++) {
            if (ix->keys[k] != NULL) {
                size_t j = topo_index_slot(&bigger, ix->keys[k]);

                bigger.keys[j] = ix->keys[k];
                bigger.values[j] = ix->values[k];
            }
        }
        bigger.n = ix->n;
        topo_index_free(ix);
        *ix = bigger;
    }
    i = topo_index_slot(ix, key);
    ix->keys[i] = key;
    ix->values[i] = value;
    ix->n++;
    return COMM_OK;
}

/* ---- building ------------------------------------------------------------------------------ */

int comm_topo_fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s:%d: ", path, line);

    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < errlen) {
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    }
    va_end(ap);
    return COMM_ERR_BAD_PARAM;
}

static int topo_push_int(int **v, size_t *n, int value)
{
    int *grown = realloc(*v, (*n + 1) * sizeof(**v));

    if (grown == NULL) {
        return COMM_ERR_NOMEM;
    }
    *v = grown;
    grown[(*n)++] = value;
    return COMM_OK;
}

/* Expands the hostlist TEXT of the statement at LINE, naming KEY in an error. */
static int topo_expand(const char *text, const char *key, const char *path, int line,
                       struct comm_topo_names *names, char *err, size_t errlen)
{
    char herr[COMM_TOPO_ERROR_LEN];
    int rc = comm_topo_hostlist(text, names, herr, sizeof(herr));

    if (rc == COMM_ERR_BAD_PARAM) {
        return comm_topo_fail(err, errlen, path, line, "%s=: %s", key, herr);
    }
    return rc;
}

/* The level name SWITCH's name suggests: the name without its trailing digits and separators. */
static size_t topo_stem(const char *name)
{
    size_t n = strlen(name);

    while (n > 0 && (isdigit((unsigned char)name[n - 1]) || name[n - 1] == '-' ||
                     name[n - 1] == '_' || name[n - 1] == '.')) {
        n--;
    }
    return n;
}

/* Names each level: "host", then Level= where the file gives it, "rack", shared stems. */
static int topo_name_levels(const char *path, struct comm_topo *t, char *err, size_t errlen)
{
    t->level_names = calloc((size_t)t->nlevels, sizeof(*t->level_names));
    if (t->level_names == NULL) {
        return COMM_ERR_NOMEM;
    }
    t->level_names[0] = strdup("host");
    if (t->level_names[0] == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (int k = 1; k < t->nlevels; k++) {
        const struct comm_topo_switch *given = NULL, *first = NULL;
        bool same_stem = true;
        char name[64];

        for (size_t s = 0; s < t->nswitches; s++) {
            const struct comm_topo_switch *sw = &t->switches[s];

            if (sw->level != k) {
                continue;
            }
            if (first == NULL) {
                first = sw;
            } else if (topo_stem(sw->name) != topo_stem(first->name) ||
                       strncmp(sw->name, first->name, topo_stem(first->name)) != 0) {
                same_stem = false;
            }
            if (sw->level_name == NULL) {
                continue;
            }
            if (given != NULL && strcmp(given->level_name, sw->level_name) != 0) {
                return comm_topo_fail(
                    err, errlen, path, sw->line,
                    "switch '%s' names its level '%s', switch '%s' (line %d) of the "
                    "same level '%s'",
                    sw->name, sw->level_name, given->name, given->line, given->level_name);
            }
            given = sw;
        }
        if (given != NULL) {
            snprintf(name, sizeof(name), "%s", given->level_name);
        } else if (k == 1) {
            snprintf(name, sizeof(name), "rack");
        } else if (first != NULL && same_stem && topo_stem(first->name) >= 2 &&
                   topo_stem(first->name) < sizeof(name)) {
            snprintf(name, sizeof(name), "%.*s", (int)topo_stem(first->name), first->name);
        } else if (k == t->nlevels - 1) {
            snprintf(name, sizeof(name), "spine");
        } else {
            snprintf(name, sizeof(name), "level%d", k);
        }
        for (int j = 0; j < k; j++) {
            if (strcmp(t->level_names[j], name) == 0) {
                int line = given ? given->line : first ? first->line : 0;

                if (given == NULL) {
                    snprintf(name, sizeof(name), "level%d", k);
                    break;
                }
                return comm_topo_fail(err, errlen, path, line,
                                      "level name '%s' is used by two levels (%d and %d)", name, j,
                                      k);
            }
        }
        t->level_names[k] = strdup(name);
        if (t->level_names[k] == NULL) {
            return COMM_ERR_NOMEM;
        }
    }
    return COMM_OK;
}

/* Orders host indexes by the hosts' names (qsort_r, with the tree as its argument). */
static int topo_compare_hosts(const void *a, const void *b, void *arg)
{
    const struct comm_topo *t = arg;

    return strcmp(t->hosts[*(const int *)a].name, t->hosts[*(const int *)b].name);
}

static int topo_digest(struct comm_topo *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc;

    if (f == NULL) {
        return COMM_ERR_NOMEM;
    }
    rc = comm_topo_write(t, f);
    if (fclose(f) != 0 && rc == COMM_OK) {
        rc = COMM_ERR_NOMEM;
    }
    if (rc == COMM_OK) {
        t->digest = topo_hash(text, len);
    }
    free(text);
    return rc;
}

/* Switches: names, then their children, parents and levels. */
static int topo_build_switches(const char *path, const struct comm_topo_statements *sts,
                               struct comm_topo *t, struct topo_index *six, char *err,
                               size_t errlen)
{
    int rc = COMM_OK;

    for (size_t i = 0; rc == COMM_OK && i < sts->n; i++) {
        const struct comm_topo_statement *st = &sts->v[i];
        struct comm_topo_switch *sw;
        struct comm_topo_names one = {0};
        int other;

        if (st->kind != COMM_TOPO_STATEMENT_SWITCH) {
            continue;
        }
        rc = topo_expand(st->name, "SwitchName", path, st->line, &one, err, errlen);
        if (rc != COMM_OK) {
            break;
        }
        if (one.n != 1 || strcmp(one.v[0], st->name) != 0) {
            comm_topo_names_free(&one);
            rc = comm_topo_fail(err, errlen, path, st->line, "SwitchName=%s is not one name",
                                st->name);
            break;
        }
        comm_topo_names_free(&one);
        other = topo_index_get(six, st->name);
        if (other >= 0) {
            rc = comm_topo_fail(err, errlen, path, st->line,
                                "switch '%s' is defined twice (first at "
                                "line %d)",
                                st->name, t->switches[other].line);
            break;
        }
        sw = &t->switches[t->nswitches];
        memset(sw, 0, sizeof(*sw));
        sw->line = st->line;
        sw->parent = -1;
        sw->name = strdup(st->name);
        sw->level_name = st->level ? strdup(st->level) : NULL;
        sw->provider = st->provider ? strdup(st->provider) : NULL;
        sw->nics = st->nics ? strdup(st->nics) : NULL;
        sw->link_speed = st->link_speed ? strtol(st->link_speed, NULL, 10) : 0;
        if (sw->name == NULL || (st->level && !sw->level_name) || (st->provider && !sw->provider) ||
            (st->nics && !sw->nics)) {
            rc = COMM_ERR_NOMEM;
            break;
        }
        rc = topo_index_put(six, sw->name, (int)t->nswitches);
        t->nswitches++;
    }
    /* Children: every name a defined switch, and each switch under one parent only. */
    for (size_t i = 0, s = 0; rc == COMM_OK && i < sts->n; i++) {
        const struct comm_topo_statement *st = &sts->v[i];
        struct comm_topo_names kids = {0};

        if (st->kind != COMM_TOPO_STATEMENT_SWITCH) {
            continue;
        }
        if (st->switches != NULL) {
            rc = topo_expand(st->switches, "Switches", path, st->line, &kids, err, errlen);
        }
        for (size_t k = 0; rc == COMM_OK && k < kids.n; k++) {
            int c = topo_index_get(six, kids.v[k]);

            if (c < 0) {
                rc = comm_topo_fail(err, errlen, path, st->line,
                                    "switch '%s' lists switch '%s', which is never defined",
                                    t->switches[s].name, kids.v[k]);
            } else if (c == (int)s) {
                rc = comm_topo_fail(err, errlen, path, st->line, "switch '%s' lists itself",
                                    t->switches[s].name);
            } else if (t->switches[c].parent >= 0) {
                int p = t->switches[c].parent;

                rc = comm_topo_fail(err, errlen, path, st->line,
                                    "switch '%s' is under two switches: '%s' (line %d) and '%s'",
                                    kids.v[k], t->switches[p].name, t->switches[p].line,
                                    t->switches[s].name);
            } else {
                t->switches[c].parent = (int)s;
                rc = topo_push_int(&t->switches[s].children, &t->switches[s].nchildren, c);
            }
        }
        comm_topo_names_free(&kids);
        s++;
    }
    /* No cycle: from any switch, the way up ends within nswitches steps. */
    for (size_t s = 0; rc == COMM_OK && s < t->nswitches; s++) {
        int p = (int)s;

        for (size_t step = 0; p >= 0 && step <= t->nswitches; step++) {
            p = t->switches[p].parent;
        }
        if (p >= 0) {
            rc = comm_topo_fail(err, errlen, path, t->switches[s].line,
                                "switch '%s' is its own ancestor (the switches form a cycle)",
                                t->switches[s].name);
        }
    }
    /* Levels: a leaf is 1, a parent one above its highest child. */
    for (size_t s = 0; rc == COMM_OK && s < t->nswitches; s++) {
        if (t->switches[s].level == 0) {
            t->switches[s].level = 1;
        }
        for (int c = (int)s, p = t->switches[s].parent; p >= 0; c = p, p = t->switches[p].parent) {
            if (t->switches[p].level >= t->switches[c].level + 1) {
                break;
            }
            t->switches[p].level = t->switches[c].level + 1;
        }
    }
    return rc;
}

/* Hosts: under exactly one leaf switch each; NodeName= lines give their rails. */
static int topo_build_hosts(const char *path, const struct comm_topo_statements *sts,
                            struct comm_topo *t, struct topo_index *hix, char *err, size_t errlen)
{
    size_t cap = 0;
    int rc = COMM_OK;

    for (size_t i = 0, s = 0; rc == COMM_OK && i < sts->n; i++) {
        const struct comm_topo_statement *st = &sts->v[i];
        struct comm_topo_names names = {0};

        if (st->kind != COMM_TOPO_STATEMENT_SWITCH) {
            continue;
        }
        if (st->nodes != NULL) {
            rc = topo_expand(st->nodes, "Nodes", path, st->line, &names, err, errlen);
        }
        for (size_t k = 0; rc == COMM_OK && k < names.n; k++) {
            int h = topo_index_get(hix, names.v[k]);
            struct comm_topo_host *host;

            if (h >= 0) {
                const struct comm_topo_host *o = &t->hosts[h];

                rc = comm_topo_fail(
                    err, errlen, path, st->line,
                    o->leaf == (int)s ? "host '%s' is listed twice by switch '%s' (also line %d)"
                                      : "host '%s' is under two leaf switches: '%s' (line %d) and "
                                        "'%s'",
                    names.v[k], t->switches[o->leaf].name, o->line, t->switches[s].name);
                break;
            }
            if (t->nhosts == COMM_TOPO_MAX_NAMES) {
                rc = comm_topo_fail(err, errlen, path, st->line, "more than %d hosts",
                                    COMM_TOPO_MAX_NAMES);
                break;
            }
            if (t->nhosts == cap) {
                size_t more = cap ? 2 * cap : 64;
                struct comm_topo_host *grown = realloc(t->hosts, more * sizeof(*grown));

                if (grown == NULL) {
                    rc = COMM_ERR_NOMEM;
                    break;
                }
                t->hosts = grown;
                cap = more;
            }
            host = &t->hosts[t->nhosts];
            host->name = names.v[k];
            names.v[k] = NULL;
            host->leaf = (int)s;
            host->line = st->line;
            host->nics = NULL;
            t->nhosts++;
            rc = topo_index_put(hix, host->name, (int)t->nhosts - 1);
            if (rc == COMM_OK) {
                rc = topo_push_int(&t->switches[s].hosts, &t->switches[s].nhosts,
                                   (int)t->nhosts - 1);
            }
        }
        comm_topo_names_free(&names);
        s++;
    }
    for (size_t i = 0; rc == COMM_OK && i < sts->n; i++) {
        const struct comm_topo_statement *st = &sts->v[i];
        struct comm_topo_names names = {0};

        if (st->kind != COMM_TOPO_STATEMENT_NODE) {
            continue;
        }
        rc = topo_expand(st->name, "NodeName", path, st->line, &names, err, errlen);
        for (size_t k = 0; rc == COMM_OK && k < names.n; k++) {
            int h = topo_index_get(hix, names.v[k]);

            if (h < 0) {
                rc =
                    comm_topo_fail(err, errlen, path, st->line,
                                   "host '%s' is under no switch (no Nodes= lists it)", names.v[k]);
            } else if (t->hosts[h].nics != NULL) {
                rc = comm_topo_fail(err, errlen, path, st->line, "host '%s' is given Nics= twice",
                                    names.v[k]);
            } else {
                t->hosts[h].nics = strdup(st->nics);
                rc = t->hosts[h].nics ? COMM_OK : COMM_ERR_NOMEM;
            }
        }
        comm_topo_names_free(&names);
    }
    return rc;
}

/* How many switches the statements define. */
static size_t topo_count_switches(const struct comm_topo_statements *sts)
{
    size_t n = 0;

    for (size_t i = 0; i < sts->n; i++) {
        n += sts->v[i].kind == COMM_TOPO_STATEMENT_SWITCH;
    }
    return n;
}

int comm_topo_build(const char *path, const struct comm_topo_statements *sts,
                    struct comm_topo **topo_out, char *err, size_t errlen)
{
    struct comm_topo *t = calloc(1, sizeof(*t));
    struct topo_index six = {0}, hix = {0};
    size_t nswitches = topo_count_switches(sts);
    int rc;

    if (t == NULL) {
        return COMM_ERR_NOMEM;
    }
    t->format = COMM_TOPO_FORMAT_SLURM;
    for (size_t i = 0; i < sts->n; i++) {
        const struct comm_topo_statement *st = &sts->v[i];

        if (st->kind == COMM_TOPO_STATEMENT_NODE || st->level || st->provider || st->nics) {
            t->format = COMM_TOPO_FORMAT_COMM;
        }
    }
    t->path = strdup(path);
    t->switches = calloc(nswitches ? nswitches : 1, sizeof(*t->switches));
    rc = t->path && t->switches ? COMM_OK : COMM_ERR_NOMEM;
    if (rc == COMM_OK) {
        rc = topo_index_init(&six, nswitches);
    }
    if (rc == COMM_OK) {
        rc = topo_index_init(&hix, 0);
    }
    if (rc == COMM_OK) {
        rc = topo_build_switches(path, sts, t, &six, err, errlen);
    }
    if (rc == COMM_OK) {
        rc = topo_build_hosts(path, sts, t, &hix, err, errlen);
    }
    if (rc == COMM_OK) {
        t->nlevels = 1;
        for (size_t s = 0; s < t->nswitches; s++) {
            if (t->switches[s].level + 1 > t->nlevels) {
                t->nlevels = t->switches[s].level + 1;
            }
        }
        rc = topo_name_levels(path, t, err, errlen);
    }
    if (rc == COMM_OK) {
        t->host_order = malloc((t->nhosts ? t->nhosts : 1) * sizeof(*t->host_order));
        rc = t->host_order ? COMM_OK : COMM_ERR_NOMEM;
        for (size_t h = 0; rc == COMM_OK && h < t->nhosts; h++) {
            t->host_order[h] = (int)h;
        }
        if (rc == COMM_OK) {
            qsort_r(t->host_order, t->nhosts, sizeof(*t->host_order), topo_compare_hosts, t);
        }
    }
    if (rc == COMM_OK) {
        rc = topo_digest(t);
    }
    topo_index_free(&six);
    topo_index_free(&hix);
    if (rc != COMM_OK) {
        comm_topo_free(t);
        return rc;
    }
    *topo_out = t;
    return COMM_OK;
}

void comm_topo_free(struct comm_topo *t)
{
    if (t == NULL) {
        return;
    }
    for (size_t s = 0; s < t->nswitches; s++) {
        struct comm_topo_switch *sw = &t->switches[s];

        free(sw->name);
        free(sw->level_name);
        free(sw->provider);
        free(sw->nics);
        free(sw->children);
        free(sw->hosts);
    }
    for (size_t h = 0; h < t->nhosts; h++) {
        free(t->hosts[h].name);
        free(t->hosts[h].nics);
    }
    for (int k = 0; t->level_names != NULL && k < t->nlevels; k++) {
        free(t->level_names[k]);
    }
    free(t->level_names);
    free(t->host_order);
    free(t->switches);
    free(t->hosts);
    free(t->path);
    free(t);
}

/* ---- questions ----------------------------------------------------------------------------- */

int comm_topo_host_find(const struct comm_topo *t, const char *name)
{
    size_t lo = 0, hi = t->nhosts;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(t->hosts[t->host_order[mid]].name, name);

        if (c == 0) {
            return t->host_order[mid];
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return -1;
}

int comm_topo_ancestor(const struct comm_topo *t, int host, int level)
{
    int s;

    if (host < 0 || (size_t)host >= t->nhosts || level < 1) {
        return -1;
    }
    s = t->hosts[host].leaf;
    while (s >= 0 && t->switches[s].level < level) {
        s = t->switches[s].parent;
    }
    return s >= 0 && t->switches[s].level == level ? s : -1;
}

/* ---- writing and drawing ------------------------------------------------------------------ */

/* The names of switch S's children, or of its hosts, as a hostlist (caller frees). */
static char *topo_members(const struct comm_topo *t, const struct comm_topo_switch *sw, bool hosts)
{
    size_t n = hosts ? sw->nhosts : sw->nchildren;
    char **names = malloc((n ? n : 1) * sizeof(*names));
    char *text;

    if (names == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        names[i] = hosts ? t->hosts[sw->hosts[i]].name : t->switches[sw->children[i]].name;
    }
    text = comm_topo_hostlist_string(names, n);
    free(names);
    return text;
}

int comm_topo_write(const struct comm_topo *t, FILE *out)
{
    fprintf(out, "# comm topology (comm-topology(5)), %d levels:", t->nlevels);
    for (int k = 0; k < t->nlevels; k++) {
        fprintf(out, " %s", t->level_names[k]);
    }
    fputc('\n', out);
    for (size_t s = 0; s < t->nswitches; s++) {
        const struct comm_topo_switch *sw = &t->switches[s];
        char *members = topo_members(t, sw, sw->nhosts > 0);

        if (members == NULL) {
            return COMM_ERR_NOMEM;
        }
        fprintf(out, "SwitchName=%s Level=%s", sw->name, t->level_names[sw->level]);
        if (sw->link_speed > 0) {
            fprintf(out, " LinkSpeed=%ld", sw->link_speed);
        }
        if (sw->provider != NULL) {
            fprintf(out, " Provider=%s", sw->provider);
        }
        if (sw->nics != NULL) {
            fprintf(out, " Nics=%s", sw->nics);
        }
        if (*members != '\0') {
            fprintf(out, " %s=%s", sw->nhosts > 0 ? "Nodes" : "Switches", members);
        }
        fputc('\n', out);
        free(members);
    }
    for (size_t h = 0; h < t->nhosts; h++) {
        if (t->hosts[h].nics != NULL) {
            fprintf(out, "NodeName=%s Nics=%s\n", t->hosts[h].name, t->hosts[h].nics);
        }
    }
    return ferror(out) ? COMM_ERR_SYSTEM : COMM_OK;
}

static void topo_draw_switch(const struct comm_topo *t, int s, int depth, FILE *out)
{
    const struct comm_topo_switch *sw = &t->switches[s];

    fprintf(out, "%*s%s %s", 2 * depth, "", t->level_names[sw->level], sw->name);
    if (sw->link_speed > 0) {
        fprintf(out, ", link speed %ld", sw->link_speed);
    }
    if (sw->provider != NULL) {
        fprintf(out, ", fabric %s", sw->provider);
    }
    if (sw->nics != NULL) {
        fprintf(out, " on %s", sw->nics);
    }
    if (sw->nhosts > 0) {
        char *members = topo_members(t, sw, true);

        fprintf(out, ": %zu host%s %s", sw->nhosts, sw->nhosts == 1 ? "" : "s",
                members ? members : "(out of memory)");
        free(members);
    }
    fputc('\n', out);
    /* Rails, for runs of hosts that share them. */
    for (size_t h = 0, end; h < sw->nhosts; h = end) {
        const char *nics = t->hosts[sw->hosts[h]].nics;
        char **names, *list;

        for (end = h + 1; end < sw->nhosts; end++) {
            const char *other = t->hosts[sw->hosts[end]].nics;

            if ((nics == NULL) != (other == NULL) || (nics && strcmp(nics, other) != 0)) {
                break;
            }
        }
        if (nics == NULL) {
            continue;
        }
        names = malloc((end - h) * sizeof(*names));
        if (names == NULL) {
            continue;
        }
        for (size_t i = h; i < end; i++) {
            names[i - h] = t->hosts[sw->hosts[i]].name;
        }
        list = comm_topo_hostlist_string(names, end - h);
        fprintf(out, "%*shost%s %s, rails %s\n", 2 * depth + 2, "", end - h == 1 ? "" : "s",
                list ? list : "(out of memory)", nics);
        free(list);
        free(names);
    }
    for (size_t c = 0; c < sw->nchildren; c++) {
        topo_draw_switch(t, sw->children[c], depth + 1, out);
    }
}

/* Whether switches A and B give the same fabric (provider and devices). */
static bool topo_same_fabric(const struct comm_topo_switch *a, const struct comm_topo_switch *b)
{
    return (a->provider == NULL ? b->provider == NULL
                                : b->provider != NULL && strcmp(a->provider, b->provider) == 0) &&
           (a->nics == NULL ? b->nics == NULL : b->nics != NULL && strcmp(a->nics, b->nics) == 0);
}

/* Which fabric serves each level: every distinct Provider=/Nics= of its switches, with how many
 * give it.  Nothing when no switch gives one. */
static void topo_draw_fabrics(const struct comm_topo *t, FILE *out)
{
    bool any = false;

    for (size_t s = 0; s < t->nswitches && !any; s++) {
        any = t->switches[s].provider != NULL || t->switches[s].nics != NULL;
    }
    if (!any) {
        return;
    }
    fprintf(out, "fabrics by level (two hosts talk over that of the lowest switch above both "
                 "that gives one):\n");
    for (int k = 1; k < t->nlevels; k++) {
        bool first = true;

        fprintf(out, "  %s:", t->level_names[k]);
        for (size_t s = 0; s < t->nswitches; s++) {
            const struct comm_topo_switch *sw = &t->switches[s];
            size_t count = 0, seen = 0;

            if (sw->level != k) {
                continue;
            }
            for (size_t o = 0; o < t->nswitches; o++) {
                if (t->switches[o].level == k && topo_same_fabric(sw, &t->switches[o])) {
                    count++;
                    seen += o < s;
                }
            }
            if (seen > 0) {
                continue; /* said with the first switch that gives it */
            }
            if (sw->provider == NULL && sw->nics == NULL) {
                fprintf(out, "%s none, the level above serves (%zu switch%s)", first ? "" : ";",
                        count, count == 1 ? "" : "es");
            } else {
                fprintf(out, "%s %s on %s (%zu switch%s)", first ? "" : ";",
                        sw->provider != NULL ? sw->provider : "the default provider",
                        sw->nics != NULL ? sw->nics : "the hosts' rails", count,
                        count == 1 ? "" : "es");
            }
            first = false;
        }
        fputc('\n', out);
    }
}

void comm_topo_draw(const struct comm_topo *t, FILE *out)
{
    fprintf(out, "topology: %s (%s), %d levels: host", t->path,
            t->format == COMM_TOPO_FORMAT_SLURM ? "slurm" : "comm", t->nlevels);
    for (int k = 1; k < t->nlevels; k++) {
        size_t n = 0;

        for (size_t s = 0; s < t->nswitches; s++) {
            n += t->switches[s].level == k;
        }
        fprintf(out, ", %s (%zu)", t->level_names[k], n);
    }
    fprintf(out, "; %zu hosts\n", t->nhosts);
    for (size_t s = 0; s < t->nswitches; s++) {
        if (t->switches[s].parent < 0) {
            topo_draw_switch(t, (int)s, 0, out);
        }
    }
    topo_draw_fabrics(t, out);
}

/* ---- groups at one level --------------------------------------------------------------- */

void comm_topo_groups_free(struct comm_topo_groups *groups)
{
    free(groups->group);
    free(groups->leader);
    free(groups->size);
    memset(groups, 0, sizeof(*groups));
}

int comm_topo_group(const long *keys, int n, long bound, struct comm_topo_groups *out)
{
    int *of_key;

    memset(out, 0, sizeof(*out));
    if (n < 0 || bound < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    for (int i = 0; i < n; i++) {
        if (keys[i] < 0 || keys[i] >= bound) {
            return COMM_ERR_BAD_PARAM;
        }
    }
    of_key = malloc((size_t)(bound > 0 ? bound : 1) * sizeof(*of_key));
    out->group = malloc((size_t)(n > 0 ? n : 1) * sizeof(*out->group));
    out->leader = malloc((size_t)(n > 0 ? n : 1) * sizeof(*out->leader));
    out->size = calloc((size_t)(n > 0 ? n : 1), sizeof(*out->size));
    if (of_key == NULL || out->group == NULL || out->leader == NULL || out->size == NULL) {
        free(of_key);
        comm_topo_groups_free(out);
        return COMM_ERR_NOMEM;
    }
    /* Only the keys present are touched, so the table needs no clearing of its own. */
    for (int i = 0; i < n; i++) {
        of_key[keys[i]] = -1;
    }
    for (int i = 0; i < n; i++) {
        int g = of_key[keys[i]];

        if (g < 0) {
            g = out->ngroups++;
            of_key[keys[i]] = g;
            out->leader[g] = i;
        }
        out->group[i] = g;
        out->size[g]++;
    }
    free(of_key);
    return COMM_OK;
}
