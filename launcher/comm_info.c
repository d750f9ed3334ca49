/*
 * comm_info.c - comm-info: what this comm installation is, what it can use on this host, and
 * every setting with its default, current value and help.
 *
 * Layer: launcher (a tool).  Must not: open network endpoints; it only asks libraries what
 * they offer.
 *
 * --parsable prints one "section:name:field:value" line per fact (the value is everything after
 * the third colon), stable for scripts.
 */
#include "config.h"

#include "btl/ofi/btl_ofi.h"
#include "coll/coll.h"
#include "launcher/comm_run.h"
#include "pmix-glue/pmix_client.h"
#include "runtime/api/api.h"
#include "runtime/log.h"

#include <event2/event.h>
#include <hwloc.h>

#include <stdio.h>
#include <string.h>

static const char info_usage[] =
    "Usage: comm-info [--parsable] [--help] [--version]\n"
    "Print comm's version, build, dependencies, settings, the libfabric providers and the\n"
    "shape of this host.\n"
    "\n"
    "      --parsable   one 'section:name:field:value' line per fact, for scripts\n"
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

static void info_host(void)
{
    hwloc_topology_t topo;
    char n[4][32];
    static const hwloc_obj_type_t types[4] = {HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE, HWLOC_OBJ_CORE,
                                              HWLOC_OBJ_PU};
    static const char *const names[4] = {"packages", "numa_nodes", "cores", "pus"};
    static const char *const human[4] = {"packages", "NUMA nodes", "cores", "hardware threads"};

    if (!info_parsable) {
        printf("\nThis host (hwloc):\n");
    }
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
        comm_log_error("launcher", "hwloc cannot read this host's topology");
        return;
    }
    for (int i = 0; i < 4; i++) {
        snprintf(n[i], sizeof(n[i]), "%d", hwloc_get_nbobjs_by_type(topo, types[i]));
        info_fact("host", names[i], "count", n[i], human[i]);
    }
    hwloc_topology_destroy(topo);
}

int main(int argc, char **argv)
{
    comm_log_set_tool("comm-info");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--parsable") == 0) {
            info_parsable = true;
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
    info_versions();
    info_settings();
    info_collectives();
    info_providers();
    info_host();
    return 0;
}
