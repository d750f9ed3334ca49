/*
 * config.c - reading and validating settings (environment variables).
 *
 * Layer: base.  The only caller of getenv() in comm.
 * Must not: know any component's settings; the tables come from the caller.
 */
#include "config.h"

#include "base/config_table.h"
#include "base/error.h"
#include "base/log.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char **environ;

const char *comm_config_env(const char *name)
{
    return getenv(name);
}

/* Values given by comm_config_override, which win over the environment's. */
struct config_override {
    const struct comm_setting *setting;
    char *value;
};

static struct config_override *config_overrides;
static size_t config_noverrides;

static const char *config_override_value(const struct comm_setting *setting)
{
    for (size_t i = 0; i < config_noverrides; i++) {
        if (config_overrides[i].setting == setting) {
            return config_overrides[i].value;
        }
    }
    return NULL;
}

int comm_config_override(const struct comm_setting *setting, const char *value)
{
    char *copy = strdup(value);
    struct config_override *grown;

    if (copy == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (size_t i = 0; i < config_noverrides; i++) {
        if (config_overrides[i].setting == setting) {
            free(config_overrides[i].value);
            config_overrides[i].value = copy;
            return COMM_OK;
        }
    }
    grown = realloc(config_overrides, (config_noverrides + 1) * sizeof(*grown));
    if (grown == NULL) {
        free(copy);
        return COMM_ERR_NOMEM;
    }
    config_overrides = grown;
    config_overrides[config_noverrides++] = (struct config_override){setting, copy};
    return COMM_OK;
}

const char *comm_config_value(const struct comm_setting *setting)
{
    const char *value = config_override_value(setting);

    if (value == NULL) {
        value = getenv(setting->name);
    }
    return value ? value : setting->default_value;
}

bool comm_config_is_set(const struct comm_setting *setting)
{
    return config_override_value(setting) != NULL || getenv(setting->name) != NULL;
}

int comm_config_parse_bool(const char *value, bool *value_out)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};

    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (strcasecmp(value, yes[i]) == 0) {
            *value_out = true;
            return COMM_OK;
        }
        if (strcasecmp(value, no[i]) == 0) {
            *value_out = false;
            return COMM_OK;
        }
    }
    return COMM_ERR_BAD_PARAM;
}

int comm_config_parse_long(const char *value, long min, long max, long *value_out)
{
    char *end;
    long v;

    if (value[0] == '\0') {
        return COMM_ERR_BAD_PARAM;
    }
    errno = 0;
    v = strtol(value, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) {
        return COMM_ERR_BAD_PARAM;
    }
    *value_out = v;
    return COMM_OK;
}

int comm_config_check(const struct comm_setting *setting, const char *value, char *msg_out,
                      size_t len)
{
    char expected[256] = "";
    int rc = COMM_OK;
    bool b;
    long l;

    switch (setting->type) {
    case COMM_SETTING_BOOL:
        if (comm_config_parse_bool(value, &b) < 0) {
            snprintf(expected, sizeof(expected), "1, 0, yes, no, true, false, on or off");
            rc = COMM_ERR_BAD_PARAM;
        }
        break;
    case COMM_SETTING_INT:
        if (comm_config_parse_long(value, setting->min, setting->max, &l) < 0) {
            snprintf(expected, sizeof(expected), "a whole number from %ld to %ld", setting->min,
                     setting->max);
            rc = COMM_ERR_BAD_PARAM;
        }
        break;
    case COMM_SETTING_STRING:
        break;
    }
    if (rc == COMM_OK && setting->check != NULL) {
        rc = setting->check(value, expected, sizeof(expected));
    }
    if (rc < 0 && msg_out != NULL) {
        snprintf(msg_out, len, "%s: invalid value '%s': expected %s", setting->name, value,
                 expected);
    }
    return rc;
}

/* Validates the value in force, logging the error once; returns it through value_out. */
static int config_get_checked(const struct comm_setting *setting, const char **value_out)
{
    const char *value = comm_config_value(setting);
    char msg[512];

    if (comm_config_check(setting, value, msg, sizeof(msg)) < 0) {
        comm_log_error("config", "%s", msg);
        return COMM_ERR_BAD_PARAM;
    }
    *value_out = value;
    return COMM_OK;
}

int comm_config_get_string(const struct comm_setting *setting, const char **value_out)
{
    return config_get_checked(setting, value_out);
}

int comm_config_get_int(const struct comm_setting *setting, long *value_out)
{
    const char *value;
    int rc = config_get_checked(setting, &value);

    if (rc < 0) {
        return rc;
    }
    return comm_config_parse_long(value, setting->min, setting->max, value_out);
}

int comm_config_get_bool(const struct comm_setting *setting, bool *value_out)
{
    const char *value;
    int rc = config_get_checked(setting, &value);

    if (rc < 0) {
        return rc;
    }
    return comm_config_parse_bool(value, value_out);
}

const struct comm_setting *comm_config_find(const struct comm_setting_table *const *tables,
                                            size_t ntables, const char *name)
{
    for (size_t t = 0; t < ntables; t++) {
        for (size_t i = 0; i < tables[t]->count; i++) {
            if (strcmp(tables[t]->settings[i].name, name) == 0) {
                return &tables[t]->settings[i];
            }
        }
    }
    return NULL;
}

/* Edit distance between two short names, capped: only used to suggest a spelling. */
static size_t config_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t row[64];

    if (la >= 64 || lb >= 64) {
        return SIZE_MAX;
    }
    for (size_t j = 0; j <= lb; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) {
                best = row[j] + 1;
            }
            if (row[j - 1] + 1 < best) {
                best = row[j - 1] + 1;
            }
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static void config_warn_unknown(const struct comm_setting_table *const *tables, size_t ntables,
                                const char *name)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;

    for (size_t t = 0; t < ntables; t++) {
        for (size_t i = 0; i < tables[t]->count; i++) {
            size_t d = config_distance(name, tables[t]->settings[i].name);
            if (d < best_d) {
                best_d = d;
                best = tables[t]->settings[i].name;
            }
        }
    }
    if (best != NULL && best_d <= 3) {
        comm_log_warn("config", "%s is not a comm setting (did you mean %s?); "
                      "'comm-info' lists them all", name, best);
    } else {
        comm_log_warn("config", "%s is not a comm setting; 'comm-info' lists them all", name);
    }
}

int comm_config_check_environment(const struct comm_setting_table *const *tables, size_t ntables,
                                  bool warn_unknown)
{
    int rc = COMM_OK;

    for (char **e = environ; e != NULL && *e != NULL; e++) {
        const char *eq = strchr(*e, '=');
        char name[128];
        size_t n;
        const struct comm_setting *s;
        char msg[512];

        if (eq == NULL || strncmp(*e, "COMM_", 5) != 0) {
            continue;
        }
        n = (size_t)(eq - *e);
        if (n >= sizeof(name)) {
            continue;
        }
        memcpy(name, *e, n);
        name[n] = '\0';
        s = comm_config_find(tables, ntables, name);
        if (s == NULL) {
            if (warn_unknown) {
                config_warn_unknown(tables, ntables, name);
            }
            continue;
        }
        if (comm_config_check(s, eq + 1, msg, sizeof(msg)) < 0) {
            comm_log_error("config", "%s", msg);
            rc = COMM_ERR_BAD_PARAM;
        }
    }
    /* Settings outside the COMM_ namespace (MPIEXEC_TIMEOUT) are checked by name. */
    for (size_t t = 0; t < ntables; t++) {
        for (size_t i = 0; i < tables[t]->count; i++) {
            const struct comm_setting *s = &tables[t]->settings[i];
            const char *v = getenv(s->name);
            char msg[512];

            if (v == NULL || strncmp(s->name, "COMM_", 5) == 0) {
                continue;
            }
            if (comm_config_check(s, v, msg, sizeof(msg)) < 0) {
                comm_log_error("config", "%s", msg);
                rc = COMM_ERR_BAD_PARAM;
            }
        }
    }
    return rc;
}
