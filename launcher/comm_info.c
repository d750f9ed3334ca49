/*
 * comm_info.c - comm-info: what this comm installation is, what it can use on this host, and
 * every setting with its default, current value and help.
 *
 * Layer: launcher (a tool).  Must not: open network endpoints; it only asks libraries what
 * they offer.
 *
 * --parsable prints one "section:name:field:value" line per fact (the value is everything after
 * the third colon), stable for scripts.
 *
 * --missing prints the MPI 3.1 functions comm does not have yet and those that only return an
 * error, from the list of MPI functions (test/mpi-functions.txt, installed with comm).
 *
 * --topo FILE [--hosts LIST] reads a topology file instead, says what is wrong with it
 * (file:line) or draws its tree, and for LIST the groups a job on those hosts gets at each
 * level.
 */
#include "config.h"

#include "btl/ofi/btl_ofi.h"
#include "coll/coll.h"
#include "rma/rma.h"
#include "launcher/comm_run.h"
#include "pmix-glue/pmix_client.h"
#include "api/api.h"
#include "base/error.h"
#include "base/log.h"
#include "topo/topo.h"
#include "topo/topo_hw.h"

#include <event2/event.h>
#include <hwloc.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char info_usage[] =
    "Usage: comm-info [--parsable] [--missing] [--help] [--version]\n"
    "       comm-info --topo FILE [--hosts LIST]\n"
    "Print comm's version, build, dependencies, settings, the libfabric providers and the\n"
    "shape of this host; or check a topology file and draw its tree.\n"
    "\n"
    "      --parsable   one 'section:name:field:value' line per fact, for scripts\n"
    "      --missing    the MPI 3.1 functions comm does not have yet, and those that exist\n"
    "                   but return an error\n"
    "      --topo FILE  check FILE (Slurm's topology.conf or comm's format, comm-topology(5))\n"
    "                   and draw its levels, switches, fabrics and hosts; exit 1 if it is bad\n"
    "      --hosts LIST with --topo: the groups a job on these hosts (a hostlist, h[0-3])\n"
    "                   gets at each level, and the hosts the file does not list\n"
    "  -V, --version    print the version and exit\n"
    "  -h, --help       print this help and exit\n";

static const char *const info_audience[] = {
    [COMM_AUDIENCE_USER] = "user",
    [COMM_AUDIENCE_TUNER] = "tuner",
    [COMM_AUDIENCE_DEVELOPER] = "developer",
    [COMM_AUDIENCE_PROVIDED] = "set by comm-run",
};

static const char *const info_type[] = {
    [COMM_SETTING_STRING] = "string",
    [COMM_SETTING_INT] = "integer",
    [COMM_SETTING_BOOL] = "boolean",
};

static bool info_parsable = false;

static void info_fact(const char *section, const char *name, const char *field, const char *value,
                      const char *human)
{
    if (info_parsable) {
        printf("%s:%s:%s:%s\n", section, name, field, value);
    } else if (human != NULL) {
        printf("  %-22s %s\n", human, value);
    }
}

/* Which Fortran interfaces this build has (configure's "Fortran:" line), or why none. */
static void info_fortran(void)
{
    info_fact("build", "fortran", "built", COMM_FORTRAN ? "yes" : "no", NULL);
    if (COMM_FORTRAN) {
        info_fact("build", "fortran", "interfaces", "mpif.h, use mpi, use mpi_f08", NULL);
        info_fact("build", "fortran", "compiler", COMM_FC_VERSION_TEXT, NULL);
        info_fact("build", "fc", "command", COMM_BUILD_FC, NULL);
    } else {
        info_fact("build", "fortran", "why", COMM_FORTRAN_WHY, NULL);
    }
    info_fact("build", "fortran", "summary", COMM_FORTRAN_SUMMARY, "Fortran");
}

static void info_versions(void)
{
    char ofi[600], hw[32];
    unsigned hv = hwloc_get_api_version();

    comm_btl_ofi_version(ofi, sizeof(ofi));
    snprintf(hw, sizeof(hw), "%u.%u.%u (API)", hv >> 16, (hv >> 8) & 0xff, hv & 0xff);
    if (!info_parsable) {
        printf("comm %s (MPI %d.%d)\n\nBuild:\n", PACKAGE_VERSION, MPI_VERSION, MPI_SUBVERSION);
    } else {
        printf("version:comm::%s\nversion:mpi::%d.%d\n", PACKAGE_VERSION, MPI_VERSION,
               MPI_SUBVERSION);
    }
    info_fact("build", "configure", "args", COMM_CONFIGURE_ARGS, "configure arguments");
    info_fact("build", "cc", "command", COMM_BUILD_CC, "compiler");
    info_fact("build", "cflags", "flags", COMM_BUILD_CFLAGS, "compiler flags");
    info_fact("build", "debug", "enabled", COMM_ENABLE_DEBUG ? "yes" : "no", "debug build");
    info_fortran();
    if (!info_parsable) {
        printf("\nDependencies:\n");
    }
    info_fact("dependency", "pmix", "built", COMM_PMIX_BUILD_VERSION, "PMIx (built with)");
    info_fact("dependency", "pmix", "version", comm_pmix_version(), "PMIx");
    info_fact("dependency", "libfabric", "built", COMM_FABRIC_BUILD_VERSION,
              "libfabric (built with)");
    info_fact("dependency", "libfabric", "version", ofi, "libfabric");
    info_fact("dependency", "libfabric", "file", comm_btl_ofi_library_file(),
              "libfabric (loaded from)");
    info_fact("dependency", "hwloc", "built", COMM_HWLOC_BUILD_VERSION, "hwloc (built with)");
    info_fact("dependency", "hwloc", "version", hw, "hwloc");
    info_fact("dependency", "libevent", "built", COMM_EVENT_BUILD_VERSION, "libevent (built with)");
    info_fact("dependency", "libevent", "version", event_get_version(), "libevent");
}

static void info_settings(void)
{
    const struct comm_setting_table *tables[16];
    size_t ntables = 0;

    for (size_t i = 0; i < comm_settings_ntables && ntables < 15; i++) {
        tables[ntables++] = comm_settings_tables[i];
    }
    tables[ntables++] = &comm_run_settings;
    if (!info_parsable) {
        printf("\nSettings (environment variables; comm(7) explains them):\n");
    }
    for (size_t t = 0; t < ntables; t++) {
        for (size_t i = 0; i < tables[t]->count; i++) {
            const struct comm_setting *s = &tables[t]->settings[i];
            const char *value = comm_config_value(s);

            if (info_parsable) {
                printf("setting:%s:component:%s\n", s->name, tables[t]->component);
                printf("setting:%s:type:%s\n", s->name, info_type[s->type]);
                printf("setting:%s:default:%s\n", s->name, s->default_value);
                printf("setting:%s:value:%s\n", s->name, value);
                printf("setting:%s:set:%s\n", s->name, comm_config_is_set(s) ? "yes" : "no");
                printf("setting:%s:audience:%s\n", s->name, info_audience[s->audience]);
                printf("setting:%s:help:%s\n", s->name, s->help);
            } else {
                printf("  %s (%s, %s, %s)\n", s->name, tables[t]->component, info_type[s->type],
                       info_audience[s->audience]);
                printf("      %s\n", s->help);
                printf("      default: \"%s\"  current: \"%s\"%s\n", s->default_value, value,
                       comm_config_is_set(s) ? " (set)" : "");
            }
        }
    }
}

struct info_seen {
    size_t count;
    char lines[64][256];
};

static void info_on_provider(void *ctx, const char *provider, const char *fabric,
                             const char *domain, const char *endpoint_type)
{
    struct info_seen *seen = ctx;
    char key[256];

    /* libfabric lists a triple once per capability set: show each once. */
    snprintf(key, sizeof(key), "%s|%s|%s|%s", provider, fabric, domain, endpoint_type);
    for (size_t i = 0; i < seen->count && i < 64; i++) {
        if (strcmp(seen->lines[i], key) == 0) {
            return;
        }
    }
    if (seen->count < 64) {
        snprintf(seen->lines[seen->count], sizeof(seen->lines[0]), "%s", key);
    }
    seen->count++;
    if (info_parsable) {
        printf("provider:%s:fabric:%s\n", provider, fabric);
        printf("provider:%s:domain:%s\n", provider, domain);
        printf("provider:%s:endpoint:%s\n", provider, endpoint_type);
    } else {
        printf("  %-20s fabric %s, domain %s, endpoint %s\n", provider, fabric, domain,
               endpoint_type);
    }
}

static void info_providers(void)
{
    static struct info_seen seen;

    if (!info_parsable) {
        printf("\nlibfabric providers (reliable datagram, message capable):\n");
    }
    if (comm_btl_ofi_list_providers(info_on_provider, &seen) < 0 || seen.count == 0) {
        if (info_parsable) {
            printf("provider:none::\n");
        } else {
            printf("  none\n");
        }
    }
}

static void info_collectives(void)
{
    if (!info_parsable) {
        printf(
            "\nCollective algorithms (COMM_COLL_<OP>=<name> forces one; auto chooses by size):\n");
    }
    for (int f = 0; f < COMM_COLL_NFAMILIES; f++) {
        const struct comm_coll_algorithm *a;
        char line[256], only[128];
        size_t used = 0;

        for (size_t i = 0; (a = comm_coll_algorithm_at(f, i)) != NULL; i++) {
            comm_coll_restrictions_text(a->restrictions, only, sizeof(only));
            if (info_parsable) {
                printf("coll:%s:algorithm:%s%s%s\n", comm_coll_family_name(f), a->name,
                       only[0] ? ":" : "", only);
            } else if (used < sizeof(line)) {
                used +=
                    (size_t)snprintf(line + used, sizeof(line) - used, "%s%s%s%s%s", i ? ", " : "",
                                     a->name, only[0] ? " (" : "", only, only[0] ? " only)" : "");
            }
        }
        if (!info_parsable) {
            printf("  %-15s %s\n", comm_coll_family_name(f), line);
        }
    }
}

/* How one-sided operations reach a target (rma/rma.h), in the order a window chooses. */
static void info_rma(void)
{
    static const struct {
        enum comm_rma_path path;
        const char *what;
    } paths[] = {
        {COMM_RMA_DIRECT, "windows of MPI_Win_allocate(_shared) on this host, and a rank's own: "
                          "loads and stores; accumulates under the target's lock in shared memory"},
        {COMM_RMA_CMA, "MPI_Win_create memory on this host: single copies (process_vm_writev/"
                       "readv); accumulates as messages"},
        {COMM_RMA_NET, "windows on other hosts, registered with the network: RDMA writes and "
                       "reads (fi_write, fi_read); accumulates as messages"},
        {COMM_RMA_MESSAGES, "the rest (dynamic windows, request forms to other hosts): carried "
                            "out by the target's progress (COMM_PROGRESS_THREAD answers for a "
                            "target that computes)"},
    };

    if (!info_parsable) {
        printf("\nOne-sided communication (how a window reaches each target; comm(7) ONE-SIDED "
               "COMMUNICATION):\n");
    }
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        if (info_parsable) {
            printf("rma:path:%s\n", comm_rma_path_name(paths[i].path));
        } else {
            printf("  %-9s %s\n", comm_rma_path_name(paths[i].path), paths[i].what);
        }
    }
}

/* The levels inside this host (or the one HWLOC_XMLFILE describes), as MPI_Comm_split_type's
 * HW_GUIDED and HW_UNGUIDED see them. */
static int info_host(void)
{
    static const char *const names[COMM_TOPO_HW_LEVELS] = {
        "packages", "numa_nodes", "l3_caches", "l2_caches", "l1_caches", "cores", "pus"};
    struct comm_topo_hw_place place;
    char err[256], n[32], resources[256];
    const char *xml = getenv("HWLOC_XMLFILE");
    size_t used;

    if (comm_topo_hw_place(0, &place, err, sizeof(err)) != COMM_OK) {
        fflush(stdout); /* the error after what is printed so far, not inside it */
        comm_log_error("launcher", "%s", err);
        return 1;
    }
    if (!info_parsable) {
        printf("\nThis host (hwloc%s%s):\n", place.from_xml ? ", HWLOC_XMLFILE=" : "",
               place.from_xml ? xml : "");
    }
    for (int l = 0; l < COMM_TOPO_HW_LEVELS; l++) {
        snprintf(n, sizeof(n), "%d", place.count[l]);
        info_fact("host", names[l], "count", n, comm_topo_hw_name((enum comm_topo_hw_level)l));
    }
    used = (size_t)snprintf(resources, sizeof(resources), "mpi_shared_memory, host");
    for (int l = 0; l < COMM_TOPO_HW_LEVELS && used < sizeof(resources); l++) {
        if (place.count[l] > 0) {
            used += (size_t)snprintf(resources + used, sizeof(resources) - used, ", %s",
                                     comm_topo_hw_name((enum comm_topo_hw_level)l));
        }
    }
    /* With a topology file, its levels (rack, ...) are resources too. */
    info_fact("host", "split_type", "resources", resources, "split_type resources");
    return 0;
}

/* The groups a job on HOSTS gets at each level of T, and the hosts T does not list. */
static int info_topo_hosts(const struct comm_topo *t, const char *hosts)
{
    struct comm_topo_names names;
    char err[COMM_TOPO_ERROR_LEN];
    char **missing, **members;
    int *index;
    size_t nmissing = 0, room;

    if (comm_topo_hostlist(hosts, &names, err, sizeof(err)) != COMM_OK) {
        comm_log_error("launcher", "--hosts: %s", err);
        return 2;
    }
    room = names.n ? names.n : 1;
    missing = malloc(room * sizeof(*missing));
    members = malloc(room * sizeof(*members));
    index = malloc(room * sizeof(*index));
    if (missing == NULL || members == NULL || index == NULL) {
        comm_log_error("launcher", "out of memory");
        free(missing);
        free(members);
        free(index);
        comm_topo_names_free(&names);
        return 1;
    }
    for (size_t i = 0; i < names.n; i++) {
        index[i] = comm_topo_host_find(t, names.v[i]);
        if (index[i] < 0) {
            missing[nmissing++] = names.v[i];
        }
    }
    printf("job on %zu hosts:\n", names.n);
    for (int level = 1; level < t->nlevels; level++) {
        size_t ngroups = 0;

        /* Each switch of this level that holds some of the job's hosts, in the file's order. */
        for (size_t s = 0; s < t->nswitches; s++) {
            size_t n = 0;
            char *list;

            if (t->switches[s].level != level) {
                continue;
            }
            for (size_t i = 0; i < names.n; i++) {
                if (index[i] >= 0 && comm_topo_ancestor(t, index[i], level) == (int)s) {
                    members[n++] = names.v[i];
                }
            }
            if (n == 0) {
                continue;
            }
            list = comm_topo_hostlist_string(members, n);
            printf("  %s %s: %s\n", t->level_names[level], t->switches[s].name,
                   list ? list : "(out of memory)");
            free(list);
            ngroups++;
        }
        printf("  %s: %zu group%s\n", t->level_names[level], ngroups, ngroups == 1 ? "" : "s");
    }
    if (nmissing > 0) {
        char *list = comm_topo_hostlist_string(missing, nmissing);

        printf("not in %s: %s; fallback to default (hosts only) for the levels above the host\n",
               t->path, list ? list : "(out of memory)");
        free(list);
    }
    free(missing);
    free(members);
    free(index);
    comm_topo_names_free(&names);
    return 0;
}

/*
 * comm-info --missing: the "not-yet" and "error" lines of the list of MPI functions, installed
 * in the package's data folder (or, in a build tree that was not installed, read from the
 * sources).
 */
static int info_missing(void)
{
    static const char *const paths[] = {COMM_INFO_FUNCTIONS_INSTALLED, COMM_INFO_FUNCTIONS_SOURCE};
    static const struct {
        const char *status, *title;
    } groups[] = {
        {"not-yet", "MPI 3.1 functions comm does not have yet"},
        {"error", "MPI 3.1 functions that exist but return an error (comm does not support "
                  "dynamic processes)"},
    };
    const char *path = NULL;
    char line[256];
    FILE *f = NULL;

    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]) && f == NULL; i++) {
        path = paths[i];
        f = fopen(path, "r");
    }
    if (f == NULL) {
        comm_log_error("launcher", "cannot open the list of MPI functions %s: %s", paths[0],
                       strerror(errno));
        return 1;
    }
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        int n = 0;

        rewind(f);
        if (!info_parsable) {
            printf("%s:\n", groups[g].title);
        }
        while (fgets(line, sizeof(line), f) != NULL) {
            char name[128], status[32];

            if (line[0] == '#' || sscanf(line, "%127s %31s", name, status) != 2 ||
                strcmp(status, groups[g].status) != 0) {
                continue;
            }
            if (info_parsable) {
                printf("missing:%s:status:%s\n", name, status);
            } else {
                printf("%s%s", n % 3 == 0 ? "  " : "", name);
                printf("%*s", n % 3 == 2 ? 0 : (int)(32 - strlen(name)), n % 3 == 2 ? "\n" : "");
            }
            n++;
        }
        if (!info_parsable) {
            printf("%s  (%d)\n", n % 3 == 0 ? "" : "\n", n);
        }
    }
    if (!info_parsable) {
        printf("The whole list: %s\n", path);
    }
    fclose(f);
    return 0;
}

/* comm-info --topo FILE [--hosts LIST]. */
static int info_topo(const char *path, const char *hosts)
{
    struct comm_topo *t = NULL;
    char err[COMM_TOPO_ERROR_LEN];
    int rc = comm_topo_load(path, &t, err, sizeof(err));

    if (rc != COMM_OK) {
        comm_log_error("launcher", "%s", rc == COMM_ERR_NOMEM ? "out of memory" : err);
        return 1;
    }
    comm_topo_draw(t, stdout);
    rc = hosts ? info_topo_hosts(t, hosts) : 0;
    comm_topo_free(t);
    return rc;
}

int main(int argc, char **argv)
{
    const char *topo_file = NULL, *topo_hosts = NULL;
    bool missing = false;

    comm_log_set_tool("comm-info");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--topo") == 0 || strcmp(argv[i], "--hosts") == 0) {
            if (i + 1 >= argc) {
                comm_log_error("launcher", "option '%s' needs a value", argv[i]);
                fputs("Try 'comm-info --help' for more information.\n", stderr);
                return 2;
            }
            if (strcmp(argv[i], "--topo") == 0) {
                topo_file = argv[i + 1];
            } else {
                topo_hosts = argv[i + 1];
            }
            i++;
        } else if (strcmp(argv[i], "--parsable") == 0) {
            info_parsable = true;
        } else if (strcmp(argv[i], "--missing") == 0) {
            missing = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(info_usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
            printf("comm-info (comm) %s\n", PACKAGE_VERSION);
            return 0;
        } else {
            comm_log_error("launcher", "unknown option '%s'", argv[i]);
            fputs("Try 'comm-info --help' for more information.\n", stderr);
            return 2;
        }
    }
    if (topo_hosts != NULL && topo_file == NULL) {
        comm_log_error("launcher", "--hosts goes with --topo FILE");
        return 2;
    }
    if (topo_file != NULL) {
        return info_topo(topo_file, topo_hosts);
    }
    if (missing) {
        return info_missing();
    }
    info_versions();
    info_settings();
    info_collectives();
    info_rma();
    info_providers();
    return info_host();
}
