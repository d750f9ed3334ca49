/*
 * pmix_client.c - the PMIx client calls of a rank.
 *
 * Layer: pmix-glue.  Must not: assume which PMIx server it talks to; use any key that a
 * standard PMIx server (comm-run, Slurm, Open MPI's prte) does not provide without a fallback.
 */
#include "config.h"

#include "pmix-glue/pmix_client.h"
#include "base/config_table.h"
#include "base/error.h"
#include "base/log.h"

#include <pmix.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Guarded by: written once by comm_pmix_init() on the init thread. */
static pmix_proc_t client_self;
static bool client_connected = false;

/* Reads an unsigned job- or proc-level value, falling back to DEFAULT when absent. */
static long client_get_number(pmix_rank_t rank, const char *key, long fallback)
{
    pmix_proc_t who = client_self;
    pmix_value_t *val = NULL;
    long result = fallback;

    who.rank = rank;
    if (PMIx_Get(&who, key, NULL, 0, &val) != PMIX_SUCCESS || val == NULL) {
        return fallback;
    }
    switch (val->type) {
    case PMIX_UINT32:
        result = (long)val->data.uint32;
        break;
    case PMIX_UINT16:
        result = (long)val->data.uint16;
        break;
    case PMIX_INT:
        result = (long)val->data.integer;
        break;
    case PMIX_PROC_RANK:
        result = (long)val->data.rank;
        break;
    case PMIX_UINT64:
        result = (long)val->data.uint64;
        break;
    default:
        break;
    }
    PMIX_VALUE_RELEASE(val);
    return result;
}

int comm_pmix_init(struct comm_pmix_job *job_out)
{
    struct comm_pmix_job job;
    pmix_status_t prc;

    memset(&job, 0, sizeof(job));
    prc = PMIx_Init(&client_self, NULL, 0);
    if (prc != PMIX_SUCCESS) {
        /* A server that announced itself and cannot be reached is an error, not a singleton. */
        if (comm_config_env("PMIX_NAMESPACE") != NULL ||
            comm_config_env("PMIX_SERVER_URI41") != NULL ||
            comm_config_env("PMIX_SERVER_URI4") != NULL ||
            comm_config_env("PMIX_SERVER_URI3") != NULL ||
            comm_config_env("PMIX_SERVER_URI21") != NULL ||
            comm_config_env("PMIX_SERVER_URI2") != NULL) {
            comm_log_error("pmix",
                           "cannot reach the PMIx server that launched this process (%s); "
                           "was the launcher stopped?",
                           PMIx_Error_string(prc));
            return COMM_ERR_PMIX;
        }
        snprintf(job.nspace, sizeof(job.nspace), "singleton.%ld", (long)getpid());
        if (gethostname(job.host, sizeof(job.host) - 1) != 0) {
            snprintf(job.host, sizeof(job.host), "localhost");
        }
        job.rank = 0;
        job.size = 1;
        job.universe_size = 1;
        job.local_size = 1;
        job.singleton = true;
        *job_out = job;
        return COMM_OK;
    }
    client_connected = true;
    snprintf(job.nspace, sizeof(job.nspace), "%s", client_self.nspace);
    job.rank = (long)client_self.rank;
    job.size = client_get_number(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, -1);
    if (job.size <= 0) {
        comm_log_error("pmix", "the PMIx server did not give the job size (%s)", PMIX_JOB_SIZE);
        PMIx_Finalize(NULL, 0);
        client_connected = false;
        return COMM_ERR_PMIX;
    }
    job.universe_size = client_get_number(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, job.size);
    job.local_size = client_get_number(PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE, 1);
    job.local_rank = client_get_number(client_self.rank, PMIX_LOCAL_RANK, 0);
    job.node_rank = client_get_number(client_self.rank, PMIX_NODE_RANK, job.local_rank);
    job.node_id = client_get_number(client_self.rank, PMIX_NODEID, 0);
    job.appnum = client_get_number(client_self.rank, PMIX_APPNUM, 0);
    if (comm_pmix_peer_host(job.rank, job.host, sizeof(job.host)) < 0 &&
        gethostname(job.host, sizeof(job.host) - 1) != 0) {
        snprintf(job.host, sizeof(job.host), "localhost");
    }
    *job_out = job;
    return COMM_OK;
}

int comm_pmix_finalize(void)
{
    pmix_status_t prc;

    if (!client_connected) {
        return COMM_OK;
    }
    prc = PMIx_Finalize(NULL, 0);
    client_connected = false;
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "PMIx_Finalize failed: %s", PMIx_Error_string(prc));
        return COMM_ERR_PMIX;
    }
    return COMM_OK;
}

int comm_pmix_put(const char *key, const void *data, size_t len)
{
    pmix_value_t val;
    pmix_byte_object_t bo;
    pmix_status_t prc;

    if (!client_connected) {
        return COMM_OK;
    }
    bo.bytes = (char *)(uintptr_t)data;
    bo.size = len;
    PMIX_VALUE_LOAD(&val, &bo, PMIX_BYTE_OBJECT);
    prc = PMIx_Put(PMIX_GLOBAL, key, &val);
    PMIX_VALUE_DESTRUCT(&val);
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "PMIx_Put of %s failed: %s", key, PMIx_Error_string(prc));
        return COMM_ERR_PMIX;
    }
    return COMM_OK;
}

int comm_pmix_commit(void)
{
    pmix_status_t prc;

    if (!client_connected) {
        return COMM_OK;
    }
    prc = PMIx_Commit();
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "PMIx_Commit failed: %s", PMIx_Error_string(prc));
        return COMM_ERR_PMIX;
    }
    return COMM_OK;
}

int comm_pmix_fence(bool collect)
{
    pmix_info_t info;
    pmix_status_t prc;
    bool flag = collect;

    if (!client_connected) {
        return COMM_OK;
    }
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
    prc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "PMIx_Fence failed: %s", PMIx_Error_string(prc));
        return COMM_ERR_PMIX;
    }
    return COMM_OK;
}

int comm_pmix_get(long rank, const char *key, void **data_out, size_t *len_out)
{
    pmix_proc_t who = client_self;
    pmix_value_t *val = NULL;
    pmix_status_t prc;
    void *copy;

    if (!client_connected) {
        return COMM_ERR_NOT_FOUND;
    }
    who.rank = (pmix_rank_t)rank;
    prc = PMIx_Get(&who, key, NULL, 0, &val);
    if (prc == PMIX_ERR_NOT_FOUND || (prc == PMIX_SUCCESS && val->type != PMIX_BYTE_OBJECT)) {
        if (val != NULL) {
            PMIX_VALUE_RELEASE(val);
        }
        return COMM_ERR_NOT_FOUND;
    }
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "PMIx_Get of %s from rank %ld failed: %s", key, rank,
                       PMIx_Error_string(prc));
        return COMM_ERR_PMIX;
    }
    copy = malloc(val->data.bo.size ? val->data.bo.size : 1);
    if (copy == NULL) {
        PMIX_VALUE_RELEASE(val);
        return COMM_ERR_NOMEM;
    }
    memcpy(copy, val->data.bo.bytes, val->data.bo.size);
    *len_out = val->data.bo.size;
    *data_out = copy;
    PMIX_VALUE_RELEASE(val);
    return COMM_OK;
}

int comm_pmix_local_peers(long **ranks_out, size_t *n_out)
{
    pmix_proc_t who = client_self;
    pmix_value_t *val = NULL;
    long *ranks;
    size_t n = 1;
    const char *p;

    if (!client_connected) {
        ranks = malloc(sizeof(*ranks));
        if (ranks == NULL) {
            return COMM_ERR_NOMEM;
        }
        ranks[0] = 0;
        *ranks_out = ranks;
        *n_out = 1;
        return COMM_OK;
    }
    who.rank = PMIX_RANK_WILDCARD;
    if (PMIx_Get(&who, PMIX_LOCAL_PEERS, NULL, 0, &val) != PMIX_SUCCESS || val == NULL ||
        val->type != PMIX_STRING || val->data.string == NULL) {
        if (val != NULL) {
            PMIX_VALUE_RELEASE(val);
        }
        comm_log_error("pmix", "the PMIx server did not say which ranks share this host (%s)",
                       PMIX_LOCAL_PEERS);
        return COMM_ERR_PMIX;
    }
    for (p = val->data.string; *p != '\0'; p++) {
        n += *p == ',';
    }
    ranks = malloc(n * sizeof(*ranks));
    if (ranks == NULL) {
        PMIX_VALUE_RELEASE(val);
        return COMM_ERR_NOMEM;
    }
    p = val->data.string;
    for (size_t i = 0; i < n; i++) {
        char *end;

        ranks[i] = strtol(p, &end, 10);
        p = *end == ',' ? end + 1 : end;
    }
    PMIX_VALUE_RELEASE(val);
    *ranks_out = ranks;
    *n_out = n;
    return COMM_OK;
}

int comm_pmix_peer_host(long rank, char *host_out, size_t len)
{
    pmix_proc_t who = client_self;
    pmix_value_t *val = NULL;

    if (!client_connected) {
        return COMM_ERR_NOT_FOUND;
    }
    who.rank = (pmix_rank_t)rank;
    if (PMIx_Get(&who, PMIX_HOSTNAME, NULL, 0, &val) != PMIX_SUCCESS || val == NULL) {
        return COMM_ERR_NOT_FOUND;
    }
    if (val->type != PMIX_STRING || val->data.string == NULL) {
        PMIX_VALUE_RELEASE(val);
        return COMM_ERR_NOT_FOUND;
    }
    snprintf(host_out, len, "%s", val->data.string);
    PMIX_VALUE_RELEASE(val);
    return COMM_OK;
}

void comm_pmix_abort(int status, const char *message)
{
    if (client_connected) {
        PMIx_Abort(status, message, NULL, 0);
    }
}

const char *comm_pmix_version(void)
{
    return PMIx_Get_version();
}

/* Every rank's host, one PMIx_Get a rank: for process managers that do not resolve nodes. */
static int client_hosts_by_rank(long size, char ***hosts_out, size_t *nhosts_out,
                                long *rank_host)
{
    char **hosts = NULL;
    size_t nhosts = 0;

    for (long r = 0; r < size; r++) {
        char name[COMM_PMIX_NAME_MAX] = ""; /* set by comm_pmix_peer_host; GCC cannot see it */
        size_t h;

        if (comm_pmix_peer_host(r, name, sizeof(name)) < 0) {
            comm_log_error("pmix", "the process manager names no host for rank %ld", r);
            comm_pmix_hosts_free(hosts, nhosts);
            return COMM_ERR_PMIX;
        }
        for (h = 0; h < nhosts && strcmp(hosts[h], name) != 0; h++) {
        }
        if (h == nhosts) {
            char **grown = realloc(hosts, (nhosts + 1) * sizeof(*hosts));

            if (grown == NULL || (grown[nhosts] = strdup(name)) == NULL) {
                comm_pmix_hosts_free(grown != NULL ? grown : hosts, nhosts);
                return COMM_ERR_NOMEM;
            }
            hosts = grown;
            nhosts++;
        }
        rank_host[r] = (long)h;
    }
    *hosts_out = hosts;
    *nhosts_out = nhosts;
    return COMM_OK;
}

void comm_pmix_hosts_free(char **hosts, size_t nhosts)
{
    for (size_t i = 0; hosts != NULL && i < nhosts; i++) {
        free(hosts[i]);
    }
    free(hosts);
}

int comm_pmix_job_hosts(long size, char ***hosts_out, size_t *nhosts_out, long *rank_host)
{
    char *list = NULL, *save = NULL, **hosts = NULL;
    size_t nhosts = 0;
    long placed = 0;
    int rc = COMM_OK;

    for (long r = 0; r < size; r++) {
        rank_host[r] = -1;
    }
    if (!client_connected) {
        /* A singleton: itself, on this host. */
        char name[COMM_PMIX_NAME_MAX] = "localhost";

        gethostname(name, sizeof(name) - 1);
        hosts = malloc(sizeof(*hosts));
        if (hosts == NULL || (hosts[0] = strdup(name)) == NULL) {
            free(hosts);
            return COMM_ERR_NOMEM;
        }
        rank_host[0] = 0;
        *hosts_out = hosts;
        *nhosts_out = 1;
        return COMM_OK;
    }
    /* The job's nodes, then the ranks on each: one call a host rather than one a rank. */
    if (PMIx_Resolve_nodes(client_self.nspace, &list) != PMIX_SUCCESS || list == NULL) {
        return client_hosts_by_rank(size, hosts_out, nhosts_out, rank_host);
    }
    for (char *node = strtok_r(list, ",", &save); node != NULL && rc == COMM_OK;
         node = strtok_r(NULL, ",", &save)) {
        pmix_proc_t *procs = NULL;
        size_t nprocs = 0;
        char **grown;

        if (PMIx_Resolve_peers(node, client_self.nspace, &procs, &nprocs) != PMIX_SUCCESS) {
            continue;
        }
        grown = realloc(hosts, (nhosts + 1) * sizeof(*hosts));
        if (grown == NULL || (grown[nhosts] = strdup(node)) == NULL) {
            hosts = grown != NULL ? grown : hosts;
            rc = COMM_ERR_NOMEM;
        } else {
            hosts = grown;
            for (size_t i = 0; i < nprocs; i++) {
                long r = (long)procs[i].rank;

                if (r >= 0 && r < size && rank_host[r] < 0) {
                    rank_host[r] = (long)nhosts;
                    placed++;
                }
            }
            nhosts++;
        }
        if (procs != NULL) {
            PMIX_PROC_FREE(procs, nprocs);
        }
    }
    free(list);
    if (rc == COMM_OK && placed == size) {
        *hosts_out = hosts;
        *nhosts_out = nhosts;
        return COMM_OK;
    }
    comm_pmix_hosts_free(hosts, nhosts);
    if (rc != COMM_OK) {
        return rc;
    }
    /* Some rank on no node the process manager resolves: ask rank by rank. */
    return client_hosts_by_rank(size, hosts_out, nhosts_out, rank_host);
}
