/*
 * comm_run_hosts.c - the hosts of a job (--host, --hostfile), which of them is comm-run's own,
 * and where each rank runs (--map-by, -N).
 *
 * Layer: launcher.  Must not: start anything; errors are written to err_out for main().
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "base/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Adds host NAME with SLOTS slots (a name given twice adds its slots to the first). */
static int hosts_add(struct comm_run_hosts *h, const char *name, size_t nlen, long slots,
                     const char *where, char *err, size_t len)
{
    struct comm_run_host *grown;

    if (nlen == 0 || nlen >= sizeof(h->list[0].name)) {
        snprintf(err, len, "%s: invalid host name '%.*s'", where, (int)nlen, name);
        return COMM_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < nlen; i++) {
        if (!(isalnum((unsigned char)name[i]) || strchr("-._", name[i]) != NULL)) {
            snprintf(err, len, "%s: invalid host name '%.*s' (letters, digits, '-', '.', '_')",
                     where, (int)nlen, name);
            return COMM_ERR_BAD_PARAM;
        }
    }
    for (size_t i = 0; i < h->n; i++) {
        if (strlen(h->list[i].name) == nlen && strncmp(h->list[i].name, name, nlen) == 0) {
            h->list[i].slots += slots;
            return COMM_OK;
        }
    }
    grown = realloc(h->list, (h->n + 1) * sizeof(*grown));
    if (grown == NULL) {
        snprintf(err, len, "out of memory");
        return COMM_ERR_NOMEM;
    }
    h->list = grown;
    memset(&h->list[h->n], 0, sizeof(h->list[h->n]));
    memcpy(h->list[h->n].name, name, nlen);
    h->list[h->n].slots = slots;
    h->n++;
    return COMM_OK;
}

/* "NAME" or "NAME:N". */
static int hosts_add_spec(struct comm_run_hosts *h, const char *spec, size_t n, const char *where,
                          char *err, size_t len)
{
    const char *colon = memchr(spec, ':', n);
    long slots = 1;

    if (colon != NULL) {
        char num[32];
        size_t dlen = n - (size_t)(colon - spec) - 1;

        if (dlen == 0 || dlen >= sizeof(num)) {
            snprintf(err, len, "%s: invalid slot count in '%.*s'", where, (int)n, spec);
            return COMM_ERR_BAD_PARAM;
        }
        memcpy(num, colon + 1, dlen);
        num[dlen] = '\0';
        if (comm_config_parse_long(num, 1, COMM_RUN_MAX_PROCS, &slots) < 0) {
            snprintf(err, len,
                     "%s: invalid slot count '%s' in '%.*s': expected a whole number "
                     "from 1 to %d",
                     where, num, (int)n, spec, COMM_RUN_MAX_PROCS);
            return COMM_ERR_BAD_PARAM;
        }
        n = (size_t)(colon - spec);
    }
    return hosts_add(h, spec, n, slots, where, err, len);
}

int comm_run_hosts_parse_list(struct comm_run_hosts *h, const char *list, char *err, size_t len)
{
    const char *p = list;

    if (*p == '\0') {
        snprintf(err, len, "--host: empty host list");
        return COMM_ERR_BAD_PARAM;
    }
    while (*p != '\0') {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        int rc = hosts_add_spec(h, p, n, "--host", err, len);

        if (rc < 0) {
            return rc;
        }
        p += n;
        if (*p == ',') {
            p++;
            if (*p == '\0') {
                snprintf(err, len, "--host: empty host name at the end of '%s'", list);
                return COMM_ERR_BAD_PARAM;
            }
        }
    }
    return COMM_OK;
}

/* One hostfile line, without comment: "NAME", "NAME:N" or "NAME slots=N". */
static int hosts_parse_line(struct comm_run_hosts *h, char *line, const char *where, char *err,
                            size_t len)
{
    char *name = line, *rest, *end;
    long slots;

    while (isspace((unsigned char)*name)) {
        name++;
    }
    end = name + strlen(name);
    while (end > name && isspace((unsigned char)end[-1])) {
        *--end = '\0';
    }
    if (*name == '\0') {
        return COMM_OK;
    }
    rest = name;
    while (*rest != '\0' && !isspace((unsigned char)*rest)) {
        rest++;
    }
    if (*rest == '\0') {
        return hosts_add_spec(h, name, strlen(name), where, err, len);
    }
    *rest++ = '\0';
    while (isspace((unsigned char)*rest)) {
        rest++;
    }
    if (strncmp(rest, "slots=", 6) != 0 ||
        comm_config_parse_long(rest + 6, 1, COMM_RUN_MAX_PROCS, &slots) < 0) {
        snprintf(err, len, "%s: expected 'HOST', 'HOST:N' or 'HOST slots=N', not '%s %s'", where,
                 name, rest);
        return COMM_ERR_BAD_PARAM;
    }
    if (strchr(name, ':') != NULL) {
        snprintf(err, len, "%s: give the slots once ('%s slots=%ld')", where, name, slots);
        return COMM_ERR_BAD_PARAM;
    }
    return hosts_add(h, name, strlen(name), slots, where, err, len);
}

int comm_run_hosts_parse_file(struct comm_run_hosts *h, const char *path, char *err, size_t len)
{
    FILE *f = fopen(path, "r");
    char line[1024], where[PATH_MAX + 32];
    long lineno = 0;
    int rc = COMM_OK;

    if (f == NULL) {
        snprintf(err, len, "--hostfile: cannot open '%s': %s", path, strerror(errno));
        return COMM_ERR_NOT_FOUND;
    }
    while (rc == COMM_OK && fgets(line, sizeof(line), f) != NULL) {
        char *hash = strchr(line, '#');

        lineno++;
        snprintf(where, sizeof(where), "%s:%ld", path, lineno);
        if (strchr(line, '\n') == NULL && !feof(f)) {
            snprintf(err, len, "%s: line too long", where);
            rc = COMM_ERR_BAD_PARAM;
            break;
        }
        if (hash != NULL) {
            *hash = '\0';
        }
        line[strcspn(line, "\n")] = '\0';
        rc = hosts_parse_line(h, line, where, err, len);
    }
    fclose(f);
    if (rc == COMM_OK && h->n == 0) {
        snprintf(err, len, "--hostfile: '%s' names no host", path);
        rc = COMM_ERR_BAD_PARAM;
    }
    return rc;
}

/* Whether NAME is this process's own host: its host name, localhost, or the name of the
 * network namespace it runs in (ip netns: /run/netns/NAME is the same namespace). */
static bool hosts_is_own(const char *name, const char *hostname)
{
    char path[PATH_MAX];
    struct stat mine, theirs;

    if (strcmp(name, hostname) == 0 || strcmp(name, "localhost") == 0) {
        return true;
    }
    if (strchr(name, '/') != NULL || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        return false;
    }
    snprintf(path, sizeof(path), "/run/netns/%s", name);
    return stat("/proc/self/ns/net", &mine) == 0 && stat(path, &theirs) == 0 &&
           mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino;
}

int comm_run_hosts_map(struct comm_run_hosts *h, const char *hostname, long np_given, long ppn,
                       enum comm_run_map map_by, long **rank_host_out, long *np_out, char *err,
                       size_t len)
{
    long total = 0, np, *rank_host, *room;

    h->own = -1;
    for (size_t i = 0; i < h->n; i++) {
        if (h->own < 0 && hosts_is_own(h->list[i].name, hostname)) {
            h->own = (long)i;
        }
        total += ppn > 0 ? ppn : h->list[i].slots;
    }
    np = np_given > 0 ? np_given : total;
    if (np > total) {
        snprintf(err, len, "%ld ranks do not fit the %ld %s of %zu host%s (%s)", np, total,
                 ppn > 0 ? "ranks per host" : "slots", h->n, h->n == 1 ? "" : "s",
                 ppn > 0 ? "raise -N" : "add slots with HOST:N");
        return COMM_ERR_BAD_PARAM;
    }
    rank_host = calloc((size_t)np, sizeof(*rank_host));
    room = calloc(h->n, sizeof(*room));
    if (rank_host == NULL || room == NULL) {
        free(rank_host);
        free(room);
        snprintf(err, len, "out of memory");
        return COMM_ERR_NOMEM;
    }
    for (size_t i = 0; i < h->n; i++) {
        room[i] = ppn > 0 ? ppn : h->list[i].slots;
        h->list[i].nranks = 0;
    }
    for (long r = 0, i = 0; r < np;) {
        /* by slot: fill a host before the next; by node: one rank per host in turn */
        if (room[i] > 0) {
            rank_host[r++] = i;
            room[i]--;
            h->list[i].nranks++;
            if (map_by == COMM_RUN_MAP_NODE || room[i] == 0) {
                i = (i + 1) % (long)h->n;
            }
        } else {
            i = (i + 1) % (long)h->n;
        }
    }
    free(room);
    *rank_host_out = rank_host;
    *np_out = np;
    return COMM_OK;
}

void comm_run_hosts_display(const struct comm_run_hosts *h, const long *rank_host, long np)
{
    long *ranks = malloc((size_t)(np > 0 ? np : 1) * sizeof(*ranks));

    printf("comm-run: job map: %ld rank%s on %zu host%s\n", np, np == 1 ? "" : "s", h->n,
           h->n == 1 ? "" : "s");
    for (size_t i = 0; i < h->n && ranks != NULL; i++) {
        char list[256];
        size_t n = 0;

        for (long r = 0; r < np; r++) {
            if (rank_host[r] == (long)i) {
                ranks[n++] = r;
            }
        }
        comm_run_format_ranks(ranks, n, list, sizeof(list));
        printf("comm-run:   host %s (%ld slot%s%s): rank%s %s\n", h->list[i].name, h->list[i].slots,
               h->list[i].slots == 1 ? "" : "s", (long)i == h->own ? ", this host" : "",
               n == 1 ? "" : "s", n ? list : "none");
    }
    fflush(stdout);
    free(ranks);
}

void comm_run_hosts_free(struct comm_run_hosts *h)
{
    free(h->list);
    h->list = NULL;
    h->n = 0;
}
