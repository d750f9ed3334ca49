/*
 * log.c - formatting, filtering and writing comm's diagnostic lines.
 *
 * Layer: base.  Must not: call into any other layer, or write anything but log lines.
 */
#include "config.h"

#include "base/log.h"
#include "base/error.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Components that COMM_LOG_LEVEL may name; an override for any other name is refused. */
static const char *const log_components[] = {
    "runtime", "config", "pmix", "btl", "btl_self", "btl_shm", "btl_ofi", "coll", "rma", "topo",
    "launcher",
};

static const char *const log_level_names[] = {"error", "warn", "info", "debug", "trace"};

static int log_check_spec(const char *value, char *expected_out, size_t len);
static int log_check_ranks(const char *value, char *expected_out, size_t len);
static int log_check_file(const char *value, char *expected_out, size_t len);

static const struct comm_setting log_settings[] = {
    {.name = "COMM_LOG_LEVEL",
     .type = COMM_SETTING_STRING,
     .default_value = "warn",
     .help = "log level (error, warn, info, debug, trace), then optional component=level "
             "overrides, e.g. warn,btl_ofi=debug",
     .audience = COMM_AUDIENCE_USER,
     .check = log_check_spec},
    {.name = "COMM_LOG_RANKS",
     .type = COMM_SETTING_STRING,
     .default_value = "all",
     .help = "ranks that log: all, or a list of ranks and ranges such as 0,4-7",
     .audience = COMM_AUDIENCE_USER,
     .check = log_check_ranks},
    {.name = "COMM_LOG_FILE",
     .type = COMM_SETTING_STRING,
     .default_value = "",
     .help = "write the log to this file instead of stderr; %r is the rank, %h the host, "
             "%p the pid",
     .audience = COMM_AUDIENCE_USER,
     .check = log_check_file},
};

const struct comm_setting_table comm_log_settings = {
    .component = "runtime",
    .count = sizeof(log_settings) / sizeof(log_settings[0]),
    .settings = log_settings,
};

/* Guarded by: configured once at init, read-only afterwards. */
static struct comm_log_spec log_spec = {.level = COMM_LOG_WARN};
static struct comm_log_ranks log_ranks = {.all = true};
static int log_fd = STDERR_FILENO;
static char log_host[64] = "?";
static long log_rank = -1;
static const char *log_tool = NULL;

const char *comm_log_level_name(enum comm_log_level level)
{
    if ((size_t)level < sizeof(log_level_names) / sizeof(log_level_names[0])) {
        return log_level_names[level];
    }
    return "?";
}

static int log_parse_level(const char *text, size_t n, enum comm_log_level *level_out)
{
    for (size_t i = 0; i < sizeof(log_level_names) / sizeof(log_level_names[0]); i++) {
        if (strlen(log_level_names[i]) == n && strncmp(text, log_level_names[i], n) == 0) {
            *level_out = (enum comm_log_level)i;
            return COMM_OK;
        }
    }
    return COMM_ERR_BAD_PARAM;
}

static bool log_is_component(const char *text, size_t n)
{
    for (size_t i = 0; i < sizeof(log_components) / sizeof(log_components[0]); i++) {
        if (strlen(log_components[i]) == n && strncmp(text, log_components[i], n) == 0) {
            return true;
        }
    }
    return false;
}

static void log_list_components(char *out, size_t len)
{
    size_t used = 0;

    out[0] = '\0';
    for (size_t i = 0; i < sizeof(log_components) / sizeof(log_components[0]); i++) {
        int w = snprintf(out + used, len - used, "%s%s", i ? ", " : "", log_components[i]);
        if (w < 0 || (size_t)w >= len - used) {
            break;
        }
        used += (size_t)w;
    }
}

int comm_log_parse_spec(const char *text, struct comm_log_spec *spec_out, char *expected_out,
                        size_t len)
{
    struct comm_log_spec spec = {.level = COMM_LOG_WARN};
    bool have_default = false;
    const char *p = text;

    if (*p == '\0') {
        snprintf(expected_out, len, "a level: error, warn, info, debug or trace");
        return COMM_ERR_BAD_PARAM;
    }
    while (*p != '\0') {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', n);

        if (eq == NULL) {
            if (have_default || log_parse_level(p, n, &spec.level) < 0) {
                snprintf(expected_out, len,
                         "one level (error, warn, info, debug or trace), then "
                         "component=level items separated by commas");
                return COMM_ERR_BAD_PARAM;
            }
            have_default = true;
        } else {
            size_t cn = (size_t)(eq - p);
            enum comm_log_level lv;
            char names[256];

            if (!log_is_component(p, cn)) {
                log_list_components(names, sizeof(names));
                snprintf(expected_out, len, "component=level with a component among %s", names);
                return COMM_ERR_BAD_PARAM;
            }
            if (log_parse_level(eq + 1, n - cn - 1, &lv) < 0) {
                snprintf(expected_out, len,
                         "component=level with a level among error, warn, info, debug, trace");
                return COMM_ERR_BAD_PARAM;
            }
            if (spec.noverrides == COMM_LOG_MAX_OVERRIDES) {
                snprintf(expected_out, len, "at most %d component overrides",
                         COMM_LOG_MAX_OVERRIDES);
                return COMM_ERR_BAD_PARAM;
            }
            memcpy(spec.overrides[spec.noverrides].component, p, cn);
            spec.overrides[spec.noverrides].component[cn] = '\0';
            spec.overrides[spec.noverrides].level = lv;
            spec.noverrides++;
        }
        p += n;
        if (*p == ',') {
            p++;
            if (*p == '\0') {
                snprintf(expected_out, len, "no empty item after a comma");
                return COMM_ERR_BAD_PARAM;
            }
        }
    }
    *spec_out = spec;
    return COMM_OK;
}

static int log_parse_rank(const char **p, long *rank_out)
{
    long v = 0;

    if (!isdigit((unsigned char)**p)) {
        return COMM_ERR_BAD_PARAM;
    }
    while (isdigit((unsigned char)**p)) {
        v = v * 10 + (**p - '0');
        if (v > 100000000L) {
            return COMM_ERR_BAD_PARAM;
        }
        (*p)++;
    }
    *rank_out = v;
    return COMM_OK;
}

int comm_log_parse_ranks(const char *text, struct comm_log_ranks *ranks_out, char *expected_out,
                         size_t len)
{
    struct comm_log_ranks r = {.all = false};
    const char *p = text;

    if (strcmp(text, "all") == 0) {
        r.all = true;
        *ranks_out = r;
        return COMM_OK;
    }
    while (*p != '\0') {
        long first, last;

        if (log_parse_rank(&p, &first) < 0) {
            goto bad;
        }
        last = first;
        if (*p == '-') {
            p++;
            if (log_parse_rank(&p, &last) < 0 || last < first) {
                goto bad;
            }
        }
        if (*p == ',') {
            p++;
            if (*p == '\0') {
                goto bad;
            }
        } else if (*p != '\0') {
            goto bad;
        }
        if (r.nranges == COMM_LOG_MAX_RANGES) {
            snprintf(expected_out, len, "at most %d ranks or ranges", COMM_LOG_MAX_RANGES);
            return COMM_ERR_BAD_PARAM;
        }
        r.ranges[r.nranges].first = first;
        r.ranges[r.nranges].last = last;
        r.nranges++;
    }
    if (r.nranges == 0) {
        goto bad;
    }
    *ranks_out = r;
    return COMM_OK;
bad:
    snprintf(expected_out, len, "all, or ranks and ascending ranges such as 0,4-7");
    return COMM_ERR_BAD_PARAM;
}

bool comm_log_ranks_has(const struct comm_log_ranks *ranks, long rank)
{
    if (ranks->all) {
        return true;
    }
    for (size_t i = 0; i < ranks->nranges; i++) {
        if (rank >= ranks->ranges[i].first && rank <= ranks->ranges[i].last) {
            return true;
        }
    }
    return false;
}

int comm_log_expand_pattern(const char *pattern, const char *host, long rank, long pid,
                            char *path_out, size_t len, char *expected_out, size_t elen)
{
    size_t used = 0;

    for (const char *p = pattern; *p != '\0'; p++) {
        char piece[96];
        const char *add = piece;

        if (*p != '%') {
            piece[0] = *p;
            piece[1] = '\0';
        } else {
            p++;
            switch (*p) {
            case 'r':
                snprintf(piece, sizeof(piece), "%ld", rank);
                break;
            case 'h':
                add = host;
                break;
            case 'p':
                snprintf(piece, sizeof(piece), "%ld", pid);
                break;
            case '%':
                snprintf(piece, sizeof(piece), "%%");
                break;
            default:
                snprintf(expected_out, elen, "a file name whose only %%-sequences are %%r, %%h, "
                         "%%p and %%%%");
                return COMM_ERR_BAD_PARAM;
            }
        }
        if (used + strlen(add) >= len) {
            snprintf(expected_out, elen, "a file name shorter than %zu bytes", len);
            return COMM_ERR_BAD_PARAM;
        }
        memcpy(path_out + used, add, strlen(add));
        used += strlen(add);
    }
    path_out[used] = '\0';
    return COMM_OK;
}

static int log_check_spec(const char *value, char *expected_out, size_t len)
{
    struct comm_log_spec spec;

    return comm_log_parse_spec(value, &spec, expected_out, len);
}

static int log_check_ranks(const char *value, char *expected_out, size_t len)
{
    struct comm_log_ranks ranks;

    return comm_log_parse_ranks(value, &ranks, expected_out, len);
}

static int log_check_file(const char *value, char *expected_out, size_t len)
{
    char path[4096];

    return comm_log_expand_pattern(value, "h", 0, 0, path, sizeof(path), expected_out, len);
}

void comm_log_set_rank(const char *host, long rank)
{
    snprintf(log_host, sizeof(log_host), "%s", host);
    log_rank = rank;
    log_tool = NULL;
}

void comm_log_set_tool(const char *name)
{
    log_tool = name;
}

int comm_log_configure(void)
{
    struct comm_log_spec spec;
    struct comm_log_ranks ranks;
    const char *level, *rank_list, *file;
    char expected[256];
    int rc;

    rc = comm_config_get_string(&log_settings[0], &level);
    if (rc < 0) {
        return rc;
    }
    rc = comm_config_get_string(&log_settings[1], &rank_list);
    if (rc < 0) {
        return rc;
    }
    rc = comm_config_get_string(&log_settings[2], &file);
    if (rc < 0) {
        return rc;
    }
    if (comm_log_parse_spec(level, &spec, expected, sizeof(expected)) < 0 ||
        comm_log_parse_ranks(rank_list, &ranks, expected, sizeof(expected)) < 0) {
        return COMM_ERR_INTERNAL; /* the checks above accepted them */
    }
    log_spec = spec;
    log_ranks = ranks;
    /* A tool's messages are its user interface: they stay on stderr, whatever the ranks do. */
    if (file[0] != '\0' && log_tool == NULL) {
        char path[4096];
        int fd;

        rc = comm_log_expand_pattern(file, log_host, log_rank, (long)getpid(), path,
                                     sizeof(path), expected, sizeof(expected));
        if (rc < 0) {
            return rc;
        }
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd < 0) {
            comm_log_error("runtime", "cannot open log file %s (COMM_LOG_FILE): %s", path,
                           strerror(errno));
            return COMM_ERR_SYSTEM;
        }
        comm_log_finalize();
        log_fd = fd;
    }
    return COMM_OK;
}

void comm_log_finalize(void)
{
    if (log_fd != STDERR_FILENO) {
        close(log_fd);
        log_fd = STDERR_FILENO;
    }
}

static enum comm_log_level log_level_for(const char *component)
{
    enum comm_log_level level = log_spec.level;
    size_t best = 0;

    for (size_t i = 0; i < log_spec.noverrides; i++) {
        const char *o = log_spec.overrides[i].component;
        size_t n = strlen(o);

        if (strncmp(component, o, n) == 0 && (component[n] == '\0' || component[n] == '_') &&
            n > best) {
            best = n;
            level = log_spec.overrides[i].level;
        }
    }
    return level;
}

bool comm_log_is_enabled(enum comm_log_level level, const char *component)
{
    if (level > log_level_for(component)) {
        return false;
    }
    if (log_rank >= 0 && !comm_log_ranks_has(&log_ranks, log_rank)) {
        return false;
    }
    return true;
}

static void log_vwrite(const char *level_name, bool is_error, const char *component,
                       const char *fmt, va_list ap)
{
    char line[2048];
    size_t used;
    int w;

    if (log_tool != NULL) {
        w = is_error || level_name == NULL
                ? snprintf(line, sizeof(line), "%s: ", log_tool)
                : snprintf(line, sizeof(line), "%s: %s: ", log_tool, level_name);
    } else if (log_rank >= 0) {
        w = snprintf(line, sizeof(line), "[%s:%ld] %s %s: ", log_host, log_rank, component,
                     level_name ? level_name : "notice");
    } else {
        w = snprintf(line, sizeof(line), "[%s:?] %s %s: ", log_host, component,
                     level_name ? level_name : "notice");
    }
    used = w > 0 ? (size_t)w : 0;
    w = vsnprintf(line + used, sizeof(line) - used - 1, fmt, ap);
    if (w > 0) {
        used += (size_t)w < sizeof(line) - used - 1 ? (size_t)w : sizeof(line) - used - 2;
    }
    line[used++] = '\n';
    for (size_t off = 0; off < used;) {
        ssize_t n = write(log_fd, line + off, used - off);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        off += (size_t)n;
    }
}

void comm_log_emit(enum comm_log_level level, const char *component, const char *fmt, ...)
{
    va_list ap;

    if (!comm_log_is_enabled(level, component)) {
        return;
    }
    va_start(ap, fmt);
    log_vwrite(level == COMM_LOG_WARN ? "warning" : comm_log_level_name(level),
               level == COMM_LOG_ERROR, component, fmt, ap);
    va_end(ap);
}

void comm_log_notice(const char *component, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    log_vwrite(NULL, false, component, fmt, ap);
    va_end(ap);
}

void comm_log_ranges_init(struct comm_log_ranges *r, char *out, size_t len)
{
    *r = (struct comm_log_ranges){.out = out, .len = len, .first = -1, .last = -1};
    if (len > 0) {
        out[0] = '\0';
    }
}

void comm_log_ranges_end(struct comm_log_ranges *r)
{
    char piece[48];
    int w;

    if (r->first < 0 || r->full) {
        return;
    }
    if (r->first == r->last) {
        w = snprintf(piece, sizeof(piece), "%s%ld", r->used ? "," : "", r->first);
    } else {
        w = snprintf(piece, sizeof(piece), "%s%ld-%ld", r->used ? "," : "", r->first, r->last);
    }
    r->first = -1;
    if (w < 0 || r->used + (size_t)w + 4 >= r->len) {
        if (r->len > r->used) {
            snprintf(r->out + r->used, r->len - r->used, ",...");
        }
        r->full = true;
        return;
    }
    memcpy(r->out + r->used, piece, (size_t)w + 1);
    r->used += (size_t)w;
}

void comm_log_ranges_add(struct comm_log_ranges *r, long rank)
{
    if (r->full) {
        return;
    }
    if (r->first >= 0 && rank == r->last + 1) {
        r->last = rank;
        return;
    }
    comm_log_ranges_end(r);
    r->first = r->last = rank;
}
