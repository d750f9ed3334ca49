/*
 * comm_run_options.c - comm-run's command line and the settings it reads.
 *
 * Layer: launcher.  Must not: start anything or print (main() reports what this returns).
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "base/error.h"
#include "base/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct comm_setting run_settings[] = {
    {.name = "MPIEXEC_TIMEOUT",
     .type = COMM_SETTING_INT,
     .default_value = "0",
     .help = "seconds after which comm-run ends the job (exit status 110); 0 for no limit; "
             "--timeout wins",
     .audience = COMM_AUDIENCE_USER,
     .min = 0,
     .max = COMM_RUN_MAX_TIMEOUT},
};

const struct comm_setting_table comm_run_settings = {
    .component = "comm-run",
    .count = sizeof(run_settings) / sizeof(run_settings[0]),
    .settings = run_settings,
};

/* Matches "--name", "--name=V" and, for single-dash names, "-name".  Sets *inline_value
 * to what follows '=' when present. */
static bool options_match(const char *arg, const char *name, const char **inline_value)
{
    size_t n = strlen(name);

    *inline_value = NULL;
    if (strncmp(arg, name, n) != 0) {
        return false;
    }
    if (arg[n] == '\0') {
        return true;
    }
    if (arg[n] == '=' && name[1] == '-') {
        *inline_value = arg + n + 1;
        return true;
    }
    return false;
}

/* The value of an option: inline, or the next argument. */
static int options_value(int argc, char **argv, int *i, const char *inline_value,
                         const char *name, const char **value_out, char *err_out, size_t len)
{
    if (inline_value != NULL) {
        *value_out = inline_value;
        return COMM_OK;
    }
    if (*i + 1 >= argc) {
        snprintf(err_out, len, "option %s needs a value", name);
        return COMM_ERR_BAD_PARAM;
    }
    (*i)++;
    *value_out = argv[*i];
    return COMM_OK;
}

static int options_number(const char *value, const char *name, long min, long max,
                          long *value_out, char *err_out, size_t len)
{
    if (comm_config_parse_long(value, min, max, value_out) < 0) {
        snprintf(err_out, len, "invalid value '%s' for %s: expected a whole number from %ld "
                 "to %ld", value, name, min, max);
        return COMM_ERR_BAD_PARAM;
    }
    return COMM_OK;
}

static bool options_is_env_name(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) {
        return false;
    }
    for (size_t i = 1; i < n; i++) {
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) {
            return false;
        }
    }
    return true;
}

int comm_run_options_parse(int argc, char **argv, struct comm_run_options *opts_out,
                           char *err_out, size_t len)
{
    struct comm_run_options o = {
        .action = COMM_RUN_ACTION_RUN,
        .np = -1,
        .bind = COMM_RUN_BIND_DEFAULT,
        .timeout = -1,
        .program_index = -1,
        .map_by = COMM_RUN_MAP_SLOT,
        .launch_agent = "ssh",
        .agent_host = -1,
    };
    int i;
    int rc = COMM_ERR_BAD_PARAM;

    o.exports = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*o.exports));
    if (o.exports == NULL) {
        snprintf(err_out, len, "out of memory");
        return COMM_ERR_NOMEM;
    }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *iv, *v;

        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0') {
            break;
        }
        if (options_match(a, "-n", &iv) || options_match(a, "-np", &iv) ||
            options_match(a, "--np", &iv) || options_match(a, "--n", &iv)) {
            if (options_value(argc, argv, &i, iv, a, &v, err_out, len) < 0 ||
                options_number(v, "-np", 1, COMM_RUN_MAX_PROCS, &o.np, err_out, len) < 0) {
                goto out_free;
            }
        } else if (options_match(a, "--bind-to", &iv)) {
            if (options_value(argc, argv, &i, iv, "--bind-to", &v, err_out, len) < 0) {
                goto out_free;
            }
            if (strcmp(v, "core") == 0) {
                o.bind = COMM_RUN_BIND_CORE;
            } else if (strcmp(v, "none") == 0) {
                o.bind = COMM_RUN_BIND_NONE;
            } else {
                snprintf(err_out, len, "invalid value '%s' for --bind-to: expected core or none",
                         v);
                goto out_free;
            }
        } else if (strcmp(a, "--report-bindings") == 0) {
            o.report_bindings = true;
        } else if (strcmp(a, "--tag-output") == 0) {
            o.tag_output = true;
        } else if (options_match(a, "-x", &iv)) {
            const char *eq;

            if (options_value(argc, argv, &i, iv, "-x", &v, err_out, len) < 0) {
                goto out_free;
            }
            eq = strchr(v, '=');
            if (!options_is_env_name(v, eq ? (size_t)(eq - v) : strlen(v))) {
                snprintf(err_out, len, "invalid value '%s' for -x: expected VAR or VAR=value "
                         "with VAR a variable name", v);
                goto out_free;
            }
            o.exports[o.nexports++] = v;
        } else if (options_match(a, "--timeout", &iv)) {
            if (options_value(argc, argv, &i, iv, "--timeout", &v, err_out, len) < 0 ||
                options_number(v, "--timeout", 1, COMM_RUN_MAX_TIMEOUT, &o.timeout, err_out,
                               len) < 0) {
                goto out_free;
            }
        } else if (options_match(a, "--host", &iv) || options_match(a, "-H", &iv)) {
            if (options_value(argc, argv, &i, iv, "--host", &o.host_list, err_out, len) < 0) {
                goto out_free;
            }
        } else if (options_match(a, "--hostfile", &iv)) {
            if (options_value(argc, argv, &i, iv, "--hostfile", &o.hostfile, err_out, len) < 0) {
                goto out_free;
            }
        } else if (options_match(a, "-N", &iv) || options_match(a, "--ppn", &iv)) {
            if (options_value(argc, argv, &i, iv, "-N", &v, err_out, len) < 0 ||
                options_number(v, "-N", 1, COMM_RUN_MAX_PROCS, &o.ppn, err_out, len) < 0) {
                goto out_free;
            }
        } else if (options_match(a, "--map-by", &iv)) {
            if (options_value(argc, argv, &i, iv, "--map-by", &v, err_out, len) < 0) {
                goto out_free;
            }
            if (strcmp(v, "slot") == 0) {
                o.map_by = COMM_RUN_MAP_SLOT;
            } else if (strcmp(v, "node") == 0) {
                o.map_by = COMM_RUN_MAP_NODE;
            } else {
                snprintf(err_out, len, "invalid value '%s' for --map-by: expected slot or node",
                         v);
                goto out_free;
            }
        } else if (options_match(a, "--topo", &iv)) {
            if (options_value(argc, argv, &i, iv, "--topo", &o.topo_file, err_out, len) < 0) {
                goto out_free;
            }
        } else if (strcmp(a, "--display-map") == 0) {
            o.display_map = true;
        } else if (options_match(a, "--launch-agent", &iv)) {
            if (options_value(argc, argv, &i, iv, "--launch-agent", &o.launch_agent, err_out,
                              len) < 0) {
                goto out_free;
            }
            if (strspn(o.launch_agent, " \t") == strlen(o.launch_agent)) {
                snprintf(err_out, len, "--launch-agent: empty command");
                goto out_free;
            }
        } else if (options_match(a, "--agent", &iv)) {
            /* comm-run's own: how it starts itself on a remote host */
            if (options_value(argc, argv, &i, iv, "--agent", &v, err_out, len) < 0 ||
                options_number(v, "--agent", 0, COMM_RUN_MAX_PROCS, &o.agent_host, err_out,
                               len) < 0 ||
                options_value(argc, argv, &i, NULL, "--agent", &o.agent_connect, err_out, len) <
                    0) {
                goto out_free;
            }
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o.action = COMM_RUN_ACTION_HELP;
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            o.action = COMM_RUN_ACTION_VERSION;
        } else {
            snprintf(err_out, len, "unknown option '%s'", a);
            goto out_free;
        }
    }
    if (o.action == COMM_RUN_ACTION_RUN && o.agent_host >= 0) {
        *opts_out = o; /* an agent gets its program from comm-run */
        return COMM_OK;
    }
    if (o.host_list != NULL && o.hostfile != NULL) {
        snprintf(err_out, len, "--host and --hostfile do not mix: give one");
        goto out_free;
    }
    if (o.action == COMM_RUN_ACTION_RUN) {
        if (i >= argc) {
            snprintf(err_out, len, "no program to run");
            goto out_free;
        }
        o.program_index = i;
    }
    *opts_out = o;
    return COMM_OK;
out_free:
    free((void *)o.exports);
    return rc;
}

void comm_run_options_free(struct comm_run_options *opts)
{
    free((void *)opts->exports);
    opts->exports = NULL;
    opts->nexports = 0;
}

int comm_run_options_timeout(const struct comm_run_options *opts, const char *env_value,
                             long *timeout_out, char *err_out, size_t len)
{
    long t = 0;

    if (opts->timeout >= 0) {
        *timeout_out = opts->timeout;
        return COMM_OK;
    }
    if (env_value != NULL &&
        options_number(env_value, "MPIEXEC_TIMEOUT", 0, COMM_RUN_MAX_TIMEOUT, &t, err_out,
                       len) < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    *timeout_out = t;
    return COMM_OK;
}

void comm_run_format_ranks(const long *ranks, size_t n, char *out, size_t len)
{
    struct comm_log_ranges r;

    comm_log_ranges_init(&r, out, len);
    for (size_t i = 0; i < n; i++) {
        comm_log_ranges_add(&r, ranks[i]);
    }
    comm_log_ranges_end(&r);
}
