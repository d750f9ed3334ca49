/*
 * log.h - all of comm's diagnostic output.
 *
 * Layer: base.  Must not: call into any other layer.
 *
 * A rank's line reads "[host:rank] component level: message"; a tool's (comm-run, comm-info)
 * reads "tool: message" for errors and "tool: level: message" otherwise.  Each line is written
 * with one write(2), so lines of different processes never mix.  The level comes from
 * COMM_LOG_LEVEL ("warn,btl_ofi=debug,coll=trace": a default, then per-component overrides;
 * an override for "btl" also covers "btl_ofi" unless that has its own).  COMM_LOG_RANKS limits
 * logging to some ranks, COMM_LOG_FILE sends it to a file named by a pattern (%r rank, %h host,
 * %p pid, %% a percent sign).
 *
 * comm_log_debug() and comm_log_trace() compile to nothing without --enable-debug.
 *
 * Thread safety: emitting is safe from any thread once comm_log_configure() has returned;
 * configuring is not.
 */
#ifndef COMM_LOG_H
#define COMM_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config_table.h"

enum comm_log_level {
    COMM_LOG_ERROR,
    COMM_LOG_WARN,
    COMM_LOG_INFO,
    COMM_LOG_DEBUG,
    COMM_LOG_TRACE,
};

enum { COMM_LOG_MAX_OVERRIDES = 16, COMM_LOG_MAX_RANGES = 32 };

/* A parsed COMM_LOG_LEVEL. */
struct comm_log_spec {
    enum comm_log_level level;
    size_t noverrides;
    struct {
        char component[32];
        enum comm_log_level level;
    } overrides[COMM_LOG_MAX_OVERRIDES];
};

/* A parsed COMM_LOG_RANKS: "all", or ranges such as "0,4-7". */
struct comm_log_ranks {
    bool all;
    size_t nranges;
    struct {
        long first;
        long last;
    } ranges[COMM_LOG_MAX_RANGES];
};

/* The settings of this component, listed in the registry. */
extern const struct comm_setting_table comm_log_settings;

/*
 * Parsers for the two structured settings.  On failure they write what was expected to
 * expected_out and return COMM_ERR_BAD_PARAM; they never log.
 */
int comm_log_parse_spec(const char *text, struct comm_log_spec *spec_out, char *expected_out,
                        size_t len);
int comm_log_parse_ranks(const char *text, struct comm_log_ranks *ranks_out, char *expected_out,
                         size_t len);

/* Whether a rank is selected by a parsed COMM_LOG_RANKS. */
bool comm_log_ranks_has(const struct comm_log_ranks *ranks, long rank);

/*
 * Expands a COMM_LOG_FILE pattern.  Returns COMM_ERR_BAD_PARAM (with expected_out) for an
 * unknown %-sequence or a result that does not fit.
 */
int comm_log_expand_pattern(const char *pattern, const char *host, long rank, long pid,
                            char *path_out, size_t len, char *expected_out, size_t elen);

/* Identity of a rank: the prefix of each line.  rank < 0 means "not known yet". */
void comm_log_set_rank(const char *host, long rank);

/* Identity of a tool: its lines are "NAME: ...". */
void comm_log_set_tool(const char *name);

/*
 * Reads COMM_LOG_LEVEL, COMM_LOG_RANKS and COMM_LOG_FILE (call after the identity is set, so
 * the file pattern and rank filter know the rank).  A tool logs to stderr whatever
 * COMM_LOG_FILE says; COMM_LOG_RANKS does not apply to it.  On a malformed value logs the error and
 * returns COMM_ERR_BAD_PARAM, leaving the previous configuration (errors and warnings to
 * stderr) in force; COMM_ERR_SYSTEM if the log file cannot be opened.
 */
int comm_log_configure(void);

/* Closes the log file, if any.  Logging still works afterwards, to stderr. */
void comm_log_finalize(void);

/* Whether a message of this level and component would be written. */
bool comm_log_is_enabled(enum comm_log_level level, const char *component);

/* Writes one line (a final newline is added). */
void comm_log_emit(enum comm_log_level level, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes one line that the user asked for (--report-bindings), whatever the level: a rank's
 * line says "notice", a tool's line is "tool: message". */
void comm_log_notice(const char *component, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Name of a level ("warn"). */
const char *comm_log_level_name(enum comm_log_level level);

/*
 * Ranks as ranges for a message ("0-3,5,7-8"), written into OUT (LEN bytes) one rank at a
 * time, in ascending order.  A range that no longer fits, with room for ",..." after it, is
 * replaced by ",..." and the ranks after it are dropped.
 */
struct comm_log_ranges {
    char *out;
    size_t len;
    size_t used;
    long first, last; /* the open range; first < 0 when none */
    bool full;
};
void comm_log_ranges_init(struct comm_log_ranges *r, char *out, size_t len);
void comm_log_ranges_add(struct comm_log_ranges *r, long rank);
/* Writes the open range: OUT is complete. */
void comm_log_ranges_end(struct comm_log_ranges *r);

#define comm_log_error(component, ...) comm_log_emit(COMM_LOG_ERROR, (component), __VA_ARGS__)
#define comm_log_warn(component, ...) comm_log_emit(COMM_LOG_WARN, (component), __VA_ARGS__)
#define comm_log_info(component, ...) comm_log_emit(COMM_LOG_INFO, (component), __VA_ARGS__)
#if COMM_ENABLE_DEBUG
#define comm_log_debug(component, ...) comm_log_emit(COMM_LOG_DEBUG, (component), __VA_ARGS__)
#define comm_log_trace(component, ...) comm_log_emit(COMM_LOG_TRACE, (component), __VA_ARGS__)
#else
#define comm_log_debug(component, ...) ((void)0)
#define comm_log_trace(component, ...) ((void)0)
#endif

#endif
