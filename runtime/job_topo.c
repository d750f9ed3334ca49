/*
 * job_topo.c - the topology a job runs on (job_topo.h): the file each rank loads, the check
 * that all loaded the same, and COMM_TOPO_DUMP_FILE.
 *
 * Layer: runtime core.
 */
#include "runtime/job_topo.h"

#include "pmix-glue/pmix_client.h"
#include "base/error.h"
#include "base/log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct comm_setting topo_settings[] = {
    {.name = "COMM_TOPO_FILE",
     .type = COMM_SETTING_STRING,
     .default_value = "",
     .help = "topology file (Slurm's topology.conf or comm's format, comm-topology(5)); none: "
             "no topology; unset: under Slurm the topology.conf beside its configuration",
     .audience = COMM_AUDIENCE_USER},
    {.name = "COMM_TOPO_DUMP_FILE",
     .type = COMM_SETTING_STRING,
     .default_value = "",
     .help = "file where rank 0 writes the tree the job uses, in comm's format",
     .audience = COMM_AUDIENCE_USER},
    {.name = "COMM_TOPO_SPLIT_HOSTS",
     .type = COMM_SETTING_INT,
     .default_value = "1",
     .min = 1,
     .max = 1024,
     .help = "test aid: communicators see each host as this many hosts (its ranks in blocks), "
             "so the hierarchical collectives run on one machine",
     .audience = COMM_AUDIENCE_DEVELOPER},
};

const struct comm_setting_table comm_topo_settings = {
    .component = "topo",
    .count = sizeof(topo_settings) / sizeof(topo_settings[0]),
    .settings = topo_settings,
};

static const char topo_key[] = "comm.topo";

/* Guarded by: written at init and finalize only. */
static struct comm_topo *job_topo;
static char job_topo_view[COMM_TOPO_ERROR_LEN]; /* "DIGEST PATH" or "none", as published */
static char **job_hosts;     /* the job's hosts, as the job map names them */
static size_t job_nhosts;
static long *job_rank_host;  /* per world rank: its index in job_hosts */
static long job_size;
static long *job_rank_part;  /* per world rank: its part of its host (COMM_TOPO_SPLIT_HOSTS) */
static long job_split = 1;   /* COMM_TOPO_SPLIT_HOSTS */
static int *job_host_switch; /* [level * job_nhosts + host]: its switch at LEVEL (>= 1), or -1 */

/* Slurm's topology.conf for this job, in PATH (of LEN): false when there is none. */
static bool job_topo_slurm_file(char *path, size_t len)
{
    const char *conf = comm_config_env("SLURM_CONF");
    const char *slash;

    if (comm_config_env("SLURM_JOB_ID") == NULL) {
        return false;
    }
    if (conf != NULL && (slash = strrchr(conf, '/')) != NULL) {
        snprintf(path, len, "%.*s/topology.conf", (int)(slash - conf), conf);
    } else {
        snprintf(path, len, "/etc/slurm/topology.conf");
    }
    return access(path, F_OK) == 0;
}

static void job_topo_log(const struct comm_topo *t)
{
    char levels[512];
    size_t n = 0;

    levels[0] = '\0';
    for (int k = 0; k < t->nlevels && n < sizeof(levels); k++) {
        size_t count = 0;

        for (size_t s = 0; s < t->nswitches; s++) {
            count += t->switches[s].level == k;
        }
        n += (size_t)snprintf(levels + n, sizeof(levels) - n, k == 0 ? "%s" : ", %s (%zu)",
                              t->level_names[k], count);
    }
    comm_log_info("topo", "topology: %s (%s), %d levels: %s", t->path,
                  t->format == COMM_TOPO_FORMAT_SLURM ? "slurm" : "comm", t->nlevels, levels);
}

int comm_job_topo_load(const char *host, long rank, long local_rank)
{
    const struct comm_setting *file_setting = &topo_settings[0];
    char path[4096], err[COMM_TOPO_ERROR_LEN];
    const char *value;
    int rc;

    rc = comm_config_get_string(file_setting, &value);
    if (rc < 0) {
        return rc;
    }
    snprintf(job_topo_view, sizeof(job_topo_view), "none");
    if (strcmp(value, "none") == 0) {
        if (rank == 0) {
            comm_log_info("topo", "no topology (COMM_TOPO_FILE=none); fallback to default "
                                  "(hosts only)");
        }
    } else if (*value == '\0' && !job_topo_slurm_file(path, sizeof(path))) {
        if (rank == 0) {
            comm_log_info("topo", "no topology file; fallback to default (hosts only)");
        }
    } else {
        if (*value != '\0') {
            snprintf(path, sizeof(path), "%s", value);
        }
        rc = comm_topo_load(path, &job_topo, err, sizeof(err));
        if (rc < 0) {
            comm_log_error("topo", "%s%s", rc == COMM_ERR_NOMEM ? "out of memory reading " : "",
                           rc == COMM_ERR_NOMEM ? path : err);
            return rc;
        }
        if (rank == 0) {
            job_topo_log(job_topo);
        }
        if (local_rank == 0 && comm_topo_host_find(job_topo, host) < 0) {
            comm_log_warn("topo", "host %s is not in %s: fallback to default (hosts only) for "
                                  "the levels above the host",
                          host, path);
        }
        snprintf(job_topo_view, sizeof(job_topo_view), "%016" PRIx64 " %.400s",
                 job_topo->digest, path);
    }
    return comm_pmix_put(topo_key, job_topo_view, strlen(job_topo_view) + 1);
}

/* What VIEW ("DIGEST PATH" or "none") says a rank loaded, for a message. */
static void job_topo_describe(const char *view, char *out, size_t len)
{
    const char *space = strchr(view, ' ');

    if (space == NULL) {
        snprintf(out, len, "no topology file");
    } else {
        snprintf(out, len, "%s (digest %.*s)", space + 1, (int)(space - view), view);
    }
}

static int job_topo_dump(void)
{
    const char *path;
    FILE *f;
    int rc = comm_config_get_string(&topo_settings[1], &path);

    if (rc < 0 || *path == '\0') {
        return rc;
    }
    if (job_topo == NULL) {
        comm_log_warn("topo", "COMM_TOPO_DUMP_FILE=%s: the job has no topology to write", path);
        return COMM_OK;
    }
    f = fopen(path, "w");
    if (f == NULL) {
        comm_log_error("topo", "COMM_TOPO_DUMP_FILE=%s: cannot write it: %s", path,
                       strerror(errno));
        return COMM_ERR_BAD_PARAM;
    }
    rc = comm_topo_write(job_topo, f);
    if (fclose(f) != 0 || rc < 0) {
        comm_log_error("topo", "COMM_TOPO_DUMP_FILE=%s: cannot write it", path);
        return COMM_ERR_BAD_PARAM;
    }
    comm_log_info("topo", "wrote the job's topology to %s", path);
    return COMM_OK;
}

int comm_job_topo_check(long rank, const char *host)
{
    void *data = NULL;
    size_t len = 0;
    char mine[COMM_TOPO_ERROR_LEN + 32], theirs[COMM_TOPO_ERROR_LEN + 32];
    char host0[COMM_PMIX_NAME_MAX] = "?";
    int rc;

    if (rank == 0) {
        return job_topo_dump();
    }
    rc = comm_pmix_get(0, topo_key, &data, &len);
    if (rc < 0) {
        comm_log_error("topo", "rank 0 did not publish the topology it loaded");
        return COMM_ERR_PMIX;
    }
    if (len == 0 || ((char *)data)[len - 1] != '\0') {
        free(data);
        comm_log_error("topo", "rank 0 published a malformed topology digest");
        return COMM_ERR_PMIX;
    }
    /* The trees must agree, wherever each host keeps its file: compare the digests. */
    if (strcspn(data, " ") == strcspn(job_topo_view, " ") &&
        strncmp(data, job_topo_view, strcspn(job_topo_view, " ")) == 0) {
        free(data);
        return COMM_OK;
    }
    job_topo_describe(job_topo_view, mine, sizeof(mine));
    job_topo_describe(data, theirs, sizeof(theirs));
    free(data);
    comm_pmix_peer_host(0, host0, sizeof(host0));
    comm_log_error("topo",
                   "hosts see different topologies: host %s (rank %ld) loaded %s, host %s "
                   "(rank 0) loaded %s; every host must load the same tree",
                   host, rank, mine, host0, theirs);
    return COMM_ERR_BAD_PARAM;
}

/* The path up the tree of rank ME's host, at info. */
static void job_topo_log_path(long me)
{
    char path[1024];
    size_t n = 0;

    if (!comm_log_is_enabled(COMM_LOG_INFO, "topo")) {
        return;
    }
    path[0] = '\0';
    for (int level = 1; level < job_topo->nlevels && n < sizeof(path); level++) {
        int sw = job_host_switch[(size_t)level * job_nhosts + (size_t)job_rank_host[me]];

        if (level == 1 && sw < 0) {
            break; /* not in the file: no switch at any level */
        }
        n += (size_t)snprintf(path + n, sizeof(path) - n, ", %s %s", job_topo->level_names[level],
                              sw >= 0 ? job_topo->switches[sw].name : "(none)");
    }
    comm_log_info("topo", "host %s:%s", job_hosts[job_rank_host[me]],
                  path[0] != '\0' ? path + 1 : " in no switch of the file");
}

/* COMM_TOPO_SPLIT_HOSTS=N: each host's ranks, in world-rank order, in N blocks. */
static int job_topo_split_hosts(long size)
{
    long *count, *seen;
    int rc = comm_config_get_int(&topo_settings[2], &job_split);

    if (rc < 0 || job_split == 1) {
        return rc;
    }
    job_rank_part = malloc((size_t)size * sizeof(*job_rank_part));
    count = calloc(job_nhosts, sizeof(*count));
    seen = calloc(job_nhosts, sizeof(*seen));
    if (job_rank_part == NULL || count == NULL || seen == NULL) {
        free(count);
        free(seen);
        return COMM_ERR_NOMEM;
    }
    for (long r = 0; r < size; r++) {
        count[job_rank_host[r]]++;
    }
    for (long r = 0; r < size; r++) {
        long h = job_rank_host[r];

        job_rank_part[r] = seen[h]++ * job_split / count[h];
    }
    free(count);
    free(seen);
    return COMM_OK;
}

int comm_job_topo_map(long size, long rank, long local_rank)
{
    int nlevels = job_topo != NULL ? job_topo->nlevels : 1;
    int rc;

    job_rank_host = malloc((size_t)size * sizeof(*job_rank_host));
    if (job_rank_host == NULL) {
        return COMM_ERR_NOMEM;
    }
    job_size = size;
    rc = comm_pmix_job_hosts(size, &job_hosts, &job_nhosts, job_rank_host);
    if (rc == COMM_OK) {
        rc = job_topo_split_hosts(size);
    }
    if (rc < 0 || job_topo == NULL) {
        return rc;
    }
    job_host_switch = malloc((size_t)nlevels * job_nhosts * sizeof(*job_host_switch));
    if (job_host_switch == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (size_t h = 0; h < job_nhosts; h++) {
        int in_file = comm_topo_host_find(job_topo, job_hosts[h]);

        job_host_switch[h] = -1;
        for (int level = 1; level < nlevels; level++) {
            job_host_switch[(size_t)level * job_nhosts + h] =
                in_file < 0 ? -1 : comm_topo_ancestor(job_topo, in_file, level);
        }
    }
    if (local_rank == 0) {
        job_topo_log_path(rank);
    }
    return COMM_OK;
}

int comm_job_topo_nlevels(void)
{
    if (job_rank_host == NULL) {
        return 0;
    }
    return job_topo != NULL ? job_topo->nlevels : 1;
}

const char *comm_job_topo_level_name(int level)
{
    if (level == 0 || job_topo == NULL) {
        return "host";
    }
    return level < job_topo->nlevels ? job_topo->level_names[level] : "?";
}

long comm_job_topo_key_bound(int level)
{
    if (level == 0) {
        return (long)job_nhosts * job_split;
    }
    return job_topo == NULL ? (long)job_nhosts : (long)(job_topo->nswitches + job_nhosts);
}

long comm_job_topo_key(long world_rank, int level)
{
    long host = job_rank_host[world_rank];

    if (level == 0) {
        return job_rank_part == NULL ? host : host * job_split + job_rank_part[world_rank];
    }
    if (job_topo == NULL) {
        return host;
    }
    /* The highest switch at or below LEVEL: a path that skips LEVEL keeps the one below. */
    for (int l = level; l >= 1; l--) {
        int sw = job_host_switch[(size_t)l * job_nhosts + (size_t)host];

        if (sw >= 0) {
            return sw;
        }
    }
    return (long)job_topo->nswitches + host;
}

bool comm_job_topo_placed(long world_rank, int level)
{
    if (level == 0) {
        return true;
    }
    if (job_topo == NULL || level >= job_topo->nlevels) {
        return false;
    }
    return job_host_switch[(size_t)level * job_nhosts + (size_t)job_rank_host[world_rank]] >= 0;
}

const char *comm_job_topo_host(long world_rank)
{
    return world_rank >= 0 && world_rank < job_size ? job_hosts[job_rank_host[world_rank]] : "?";
}

const struct comm_topo *comm_job_topo(void)
{
    return job_topo;
}

const char *comm_job_topo_nics(const char *host)
{
    int h = job_topo != NULL ? comm_topo_host_find(job_topo, host) : -1;

    return h >= 0 ? job_topo->hosts[h].nics : NULL;
}

size_t comm_job_topo_fabrics(const char *host, struct comm_btl_fabric *out, size_t max)
{
    int h = job_topo != NULL ? comm_topo_host_find(job_topo, host) : -1;
    size_t n = 0;

    if (h < 0) {
        return 0;
    }
    for (int sw = job_topo->hosts[h].leaf; sw >= 0 && n < max; sw = job_topo->switches[sw].parent) {
        const struct comm_topo_switch *s = &job_topo->switches[sw];

        if (s->provider == NULL && s->nics == NULL) {
            continue;
        }
        out[n++] = (struct comm_btl_fabric){
            .level = s->level,
            .level_name = job_topo->level_names[s->level],
            .where = s->name,
            .provider = s->provider,
            .nics = s->nics != NULL ? s->nics : job_topo->hosts[h].nics,
        };
    }
    return n;
}

int comm_job_topo_shared_level(long a, long b)
{
    long ha, hb;

    if (a < 0 || b < 0 || a >= job_size || b >= job_size) {
        return COMM_BTL_LEVEL_NONE;
    }
    ha = job_rank_host[a];
    hb = job_rank_host[b];
    if (ha == hb) {
        return 0;
    }
    for (int level = 1; job_topo != NULL && level < job_topo->nlevels; level++) {
        int sa = job_host_switch[(size_t)level * job_nhosts + (size_t)ha];

        if (sa >= 0 && sa == job_host_switch[(size_t)level * job_nhosts + (size_t)hb]) {
            return level;
        }
    }
    return COMM_BTL_LEVEL_NONE;
}

void comm_job_topo_finalize(void)
{
    comm_topo_free(job_topo);
    job_topo = NULL;
    comm_pmix_hosts_free(job_hosts, job_nhosts);
    job_hosts = NULL;
    job_nhosts = 0;
    free(job_rank_host);
    job_rank_host = NULL;
    free(job_host_switch);
    job_host_switch = NULL;
    free(job_rank_part);
    job_rank_part = NULL;
    job_split = 1;
    job_size = 0;
}
