/*
 * config_table.h - settings: how a component declares them and how it reads them.
 *
 * Layer: base (every layer and the tools use it).
 * Must not: log anything but the error for a malformed value; know any component by name.
 *
 * Every setting is an environment variable.  A component declares its settings once, in one
 * static `struct comm_setting_table`: name, type, default, one line of help, audience.  The
 * tables are listed in api/settings_registry.c, which is what comm-info prints and
 * comm(7) documents.  base/config.c is the only caller of getenv() in comm.
 *
 * Thread safety: the read functions only read the environment; call them from one thread at
 * init time (the environment may not be changed concurrently).
 */
#ifndef COMM_CONFIG_TABLE_H
#define COMM_CONFIG_TABLE_H

#include <stdbool.h>
#include <stddef.h>

enum comm_setting_type {
    COMM_SETTING_STRING,
    COMM_SETTING_INT,  /* decimal integer within [min, max] */
    COMM_SETTING_BOOL, /* 1/0, yes/no, true/false, on/off */
};

enum comm_setting_audience {
    COMM_AUDIENCE_USER,      /* what a user may want to set */
    COMM_AUDIENCE_TUNER,     /* performance tuning */
    COMM_AUDIENCE_DEVELOPER, /* debugging comm itself */
    COMM_AUDIENCE_PROVIDED,  /* set by comm-run for every rank; read it, do not set it */
};

/*
 * Extra validation for a value that passed the type check.  Returns COMM_OK, or
 * COMM_ERR_BAD_PARAM after writing what was expected (e.g. "one of error, warn, info") to
 * expected_out.
 */
typedef int (*comm_setting_check_fn)(const char *value, char *expected_out, size_t len);

struct comm_setting {
    const char *name; /* the whole variable name, e.g. "COMM_LOG_LEVEL" */
    enum comm_setting_type type;
    const char *default_value; /* as the user would write it; "" for none */
    const char *help;          /* one line, lower case, no final period */
    enum comm_setting_audience audience;
    long min; /* COMM_SETTING_INT only */
    long max;
    comm_setting_check_fn check; /* may be NULL */
};

struct comm_setting_table {
    const char *component;
    size_t count;
    const struct comm_setting *settings;
};

/* Raw environment lookup for variables that are not comm settings (PMIx's, -x VAR).  May
 * return NULL. */
const char *comm_config_env(const char *name);

/* The value in force: the one set by comm_config_override, else the environment's, else the
 * default.  Not validated. */
const char *comm_config_value(const struct comm_setting *setting);

/* Whether the variable is set, in the environment (to anything, even "") or by
 * comm_config_override. */
bool comm_config_is_set(const struct comm_setting *setting);

/*
 * Gives SETTING the value VALUE in this process, in place of the environment's (the tools
 * interface, MPI_T_cvar_write, before MPI_Init reads the settings).  VALUE is copied and must
 * already have passed comm_config_check.  Returns COMM_OK or COMM_ERR_NOMEM.  Not thread-safe:
 * call it before the settings are read, from one thread.
 */
int comm_config_override(const struct comm_setting *setting, const char *value);

/*
 * Checks VALUE against SETTING.  On failure writes "NAME: invalid value 'V': expected ..." to
 * msg_out (if not NULL) and returns COMM_ERR_BAD_PARAM; never logs.
 */
int comm_config_check(const struct comm_setting *setting, const char *value, char *msg_out,
                      size_t len);

/*
 * Typed reads of the value in force.  On a malformed value they log one error naming the
 * variable, the value and what is accepted, and return COMM_ERR_BAD_PARAM without touching
 * the output.
 */
int comm_config_get_string(const struct comm_setting *setting, const char **value_out);
int comm_config_get_int(const struct comm_setting *setting, long *value_out);
int comm_config_get_bool(const struct comm_setting *setting, bool *value_out);

/* Looks NAME up in the tables; NULL when it is not a setting. */
const struct comm_setting *comm_config_find(const struct comm_setting_table *const *tables,
                                            size_t ntables, const char *name);

/*
 * Checks the whole environment against the tables: every set variable must hold a valid value
 * (each bad one is logged as an error; COMM_ERR_BAD_PARAM is returned), and every COMM_*
 * variable that is not a setting is reported with a warning naming the closest setting.
 */
int comm_config_check_environment(const struct comm_setting_table *const *tables, size_t ntables,
                                  bool warn_unknown);

/* Parses a boolean spelling; returns COMM_ERR_BAD_PARAM if VALUE is none. */
int comm_config_parse_bool(const char *value, bool *value_out);

/* Parses a decimal long in [min, max] with nothing after it. */
int comm_config_parse_long(const char *value, long min, long max, long *value_out);

#endif
