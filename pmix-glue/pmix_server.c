/*
 * pmix_server.c - PMIx server calls for comm-run and its agents.
 *
 * Layer: pmix-glue.  Must not: fork, signal, wait for processes or talk to the user.
 * See pmix_server.h for the threading contract.
 */
#include "config.h"

#include "pmix-glue/pmix_server.h"
#include "base/error.h"
#include "base/log.h"

#include <pmix.h>
#include <pmix_server.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct comm_pmix_fence {
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
    char *data; /* the completed data, kept until PMIx releases it */
};

/* Waiting for one PMIx operation that completes through a callback. */
struct server_wait {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
};

/* Guarded by: server_lock.  Set by init before PMIx can call back, and cleared by finalize:
 * a server left running (its clients died unfinalized) may still deliver an abort or a fence
 * that was in flight, after the launcher freed what its callbacks touch. */
static pthread_mutex_t server_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct comm_pmix_server_ops *server_ops;
static void *server_ctx;
static bool server_up = false;

/* The launcher's callbacks, locked, or NULL (unlocked) once it stopped listening. */
static const struct comm_pmix_server_ops *server_listener(void)
{
    pthread_mutex_lock(&server_lock);
    if (server_ops == NULL) {
        pthread_mutex_unlock(&server_lock);
    }
    return server_ops;
}

static void server_wait_init(struct server_wait *w)
{
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->done = false;
    w->status = PMIX_SUCCESS;
}

static void server_wait_done(pmix_status_t status, void *cbdata)
{
    struct server_wait *w = cbdata;

    pthread_mutex_lock(&w->lock);
    w->status = status;
    w->done = true;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

static pmix_status_t server_wait_for(struct server_wait *w)
{
    pmix_status_t status;

    pthread_mutex_lock(&w->lock);
    while (!w->done) {
        pthread_cond_wait(&w->cond, &w->lock);
    }
    status = w->status;
    pthread_mutex_unlock(&w->lock);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->cond);
    return status;
}

static pmix_status_t server_connected(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)cbfunc;
    (void)cbdata;
    if (server_listener() != NULL) {
        server_ops->connected(server_ctx, (long)proc->rank);
        pthread_mutex_unlock(&server_lock);
    }
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t server_finalized(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)cbfunc;
    (void)cbdata;
    if (server_listener() != NULL) {
        server_ops->finalized(server_ctx, (long)proc->rank);
        pthread_mutex_unlock(&server_lock);
    }
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t server_abort(const pmix_proc_t *proc, void *server_object, int status,
                                  const char msg[], pmix_proc_t procs[], size_t nprocs,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)procs;
    (void)nprocs;
    (void)cbfunc;
    (void)cbdata;
    /* The whole job ends whatever procs says: MPI_Abort on any communicator ends the job. */
    if (server_listener() != NULL) {
        server_ops->aborted(server_ctx, (long)proc->rank, status, msg ? msg : "");
        pthread_mutex_unlock(&server_lock);
    }
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t server_fence(const pmix_proc_t procs[], size_t nprocs,
                                  const pmix_info_t info[], size_t ninfo, char *data,
                                  size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    struct comm_pmix_fence *fence;

    (void)procs;
    (void)nprocs;
    (void)info;
    (void)ninfo;
    if (server_listener() == NULL) {
        return PMIX_ERR_UNREACH; /* the job is over */
    }
    fence = calloc(1, sizeof(*fence));
    if (fence == NULL) {
        pthread_mutex_unlock(&server_lock);
        return PMIX_ERR_NOMEM;
    }
    fence->cbfunc = cbfunc;
    fence->cbdata = cbdata;
    server_ops->fence(server_ctx, fence, data, ndata);
    pthread_mutex_unlock(&server_lock);
    return PMIX_SUCCESS;
}

static void server_fence_release(void *cbdata)
{
    struct comm_pmix_fence *fence = cbdata;

    free(fence->data);
    free(fence);
}

void comm_pmix_server_fence_complete(struct comm_pmix_fence *fence, int status, const void *data,
                                     size_t len)
{
    if (status < 0 || (len > 0 && (fence->data = malloc(len)) == NULL)) {
        fence->cbfunc(PMIX_ERROR, NULL, 0, fence->cbdata, NULL, NULL);
        free(fence);
        return;
    }
    if (len > 0) {
        memcpy(fence->data, data, len);
    }
    fence->cbfunc(PMIX_SUCCESS, fence->data, len, fence->cbdata, server_fence_release, fence);
}

static pmix_status_t server_dmodex(const pmix_proc_t *proc, const pmix_info_t info[],
                                   size_t ninfo, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)info;
    (void)ninfo;
    (void)cbfunc;
    (void)cbdata;
    /* Fences always collect every host's data, so there is nothing to fetch on demand. */
    return PMIX_ERR_NOT_SUPPORTED;
}

static pmix_server_module_t server_module = {
    .client_connected = server_connected,
    .client_finalized = server_finalized,
    .abort = server_abort,
    .fence_nb = server_fence,
    .direct_modex = server_dmodex,
};

int comm_pmix_server_init(const char *tmpdir, const struct comm_pmix_server_ops *ops, void *ctx)
{
    pmix_info_t info[3];
    pmix_status_t prc;
    bool no_tools = false;

    pthread_mutex_lock(&server_lock);
    server_ops = ops;
    server_ctx = ctx;
    pthread_mutex_unlock(&server_lock);
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_TOOL_SUPPORT, &no_tools, PMIX_BOOL);
    prc = PMIx_server_init(&server_module, info, 3);
    for (size_t i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "cannot start the PMIx server: %s", PMIx_Error_string(prc));
        return COMM_ERR_PMIX;
    }
    server_up = true;
    return COMM_OK;
}

/* Appends V to a comma-separated list; returns false when it does not fit. */
static bool server_append(char *buf, size_t len, size_t *used, bool comma, long v)
{
    int w = snprintf(buf + *used, len - *used, comma ? ",%ld" : "%ld", v);

    if (w < 0 || (size_t)w >= len - *used) {
        return false;
    }
    *used += (size_t)w;
    return true;
}

int comm_pmix_server_register_job(const struct comm_pmix_server_job *job)
{
    size_t nlocal = 0, ninfo, n = 0, peers_len = 16 + (size_t)job->size * 12, used = 0;
    size_t ppn_len = 16 + (size_t)job->size * 12 + job->nhosts, ppn_used = 0;
    char *peers = malloc(peers_len), *ppn = malloc(ppn_len), *hostlist = NULL;
    char *node_regex = NULL, *proc_regex = NULL;
    long *local_rank = calloc((size_t)job->size, sizeof(long));
    long *seen_on_host = calloc(job->nhosts, sizeof(long));
    size_t hostlist_len = 1;
    pmix_info_t *info = NULL;
    struct server_wait wait;
    pmix_status_t prc;
    long lowest_local = -1;
    uint32_t u32;
    int rc = COMM_ERR_NOMEM;

    if (peers == NULL || ppn == NULL || local_rank == NULL || seen_on_host == NULL) {
        goto out_free;
    }
    peers[0] = ppn[0] = '\0';
    for (long r = 0; r < job->size; r++) {
        size_t h = (size_t)job->rank_host[r];
        local_rank[r] = seen_on_host[h]++;
        if (h == job->this_host) {
            if (lowest_local < 0) {
                lowest_local = r;
            }
            if (!server_append(peers, peers_len, &used, nlocal > 0, r)) {
                goto out_free;
            }
            nlocal++;
        }
    }
    for (size_t h = 0; h < job->nhosts; h++) {
        bool first = true;
        hostlist_len += strlen(job->hosts[h]) + 1;
        if (h > 0) {
            if (ppn_used + 2 > ppn_len) {
                goto out_free;
            }
            ppn[ppn_used++] = ';';
            ppn[ppn_used] = '\0';
        }
        for (long r = 0; r < job->size; r++) {
            if ((size_t)job->rank_host[r] == h) {
                if (!server_append(ppn, ppn_len, &ppn_used, !first, r)) {
                    goto out_free;
                }
                first = false;
            }
        }
    }
    hostlist = malloc(hostlist_len);
    if (hostlist == NULL) {
        goto out_free;
    }
    hostlist[0] = '\0';
    for (size_t h = 0; h < job->nhosts; h++) {
        if (h > 0) {
            strcat(hostlist, ",");
        }
        strcat(hostlist, job->hosts[h]);
    }
    rc = COMM_ERR_PMIX;
    if (PMIx_generate_regex(hostlist, &node_regex) != PMIX_SUCCESS ||
        PMIx_generate_ppn(ppn, &proc_regex) != PMIX_SUCCESS) {
        comm_log_error("pmix", "cannot encode the job map of %s", job->nspace);
        goto out_free;
    }

    /* Job-level values, then one PMIX_PROC_DATA array per rank. */
    ninfo = 13 + (size_t)job->size;
    PMIX_INFO_CREATE(info, ninfo);
    u32 = (uint32_t)job->size;
    PMIX_INFO_LOAD(&info[n++], PMIX_JOB_SIZE, &u32, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_MAX_PROCS, &u32, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_APP_SIZE, &u32, PMIX_UINT32);
    u32 = (uint32_t)job->universe_size;
    PMIX_INFO_LOAD(&info[n++], PMIX_UNIV_SIZE, &u32, PMIX_UINT32);
    u32 = (uint32_t)nlocal;
    PMIX_INFO_LOAD(&info[n++], PMIX_LOCAL_SIZE, &u32, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_NODE_SIZE, &u32, PMIX_UINT32);
    u32 = (uint32_t)job->nhosts;
    PMIX_INFO_LOAD(&info[n++], PMIX_NUM_NODES, &u32, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_NODE_MAP, node_regex, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_PROC_MAP, proc_regex, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_JOBID, job->nspace, PMIX_STRING);
    {
        pmix_rank_t ldr = (pmix_rank_t)(lowest_local < 0 ? 0 : lowest_local);
        PMIX_INFO_LOAD(&info[n++], PMIX_LOCALLDR, &ldr, PMIX_PROC_RANK);
        u32 = 0;
        PMIX_INFO_LOAD(&info[n++], PMIX_APPNUM, &u32, PMIX_UINT32);
    }
    for (long r = 0; r < job->size; r++) {
        pmix_data_array_t *arr;
        pmix_info_t *pi;
        pmix_rank_t rank = (pmix_rank_t)r;
        uint16_t lr = (uint16_t)local_rank[r];
        uint32_t nodeid = (uint32_t)job->rank_host[r], app = 0;

        PMIX_DATA_ARRAY_CREATE(arr, 7, PMIX_INFO);
        pi = arr->array;
        PMIX_INFO_LOAD(&pi[0], PMIX_RANK, &rank, PMIX_PROC_RANK);
        PMIX_INFO_LOAD(&pi[1], PMIX_LOCAL_RANK, &lr, PMIX_UINT16);
        PMIX_INFO_LOAD(&pi[2], PMIX_NODE_RANK, &lr, PMIX_UINT16);
        PMIX_INFO_LOAD(&pi[3], PMIX_HOSTNAME, job->hosts[job->rank_host[r]], PMIX_STRING);
        PMIX_INFO_LOAD(&pi[4], PMIX_NODEID, &nodeid, PMIX_UINT32);
        PMIX_INFO_LOAD(&pi[5], PMIX_APPNUM, &app, PMIX_UINT32);
        PMIX_INFO_LOAD(&pi[6], PMIX_GLOBAL_RANK, &rank, PMIX_PROC_RANK);
        PMIX_INFO_LOAD(&info[n], PMIX_PROC_DATA, arr, PMIX_DATA_ARRAY);
        PMIX_DATA_ARRAY_FREE(arr);
        n++;
    }

    server_wait_init(&wait);
    prc = PMIx_server_register_nspace(job->nspace, (int)nlocal, info, n, server_wait_done, &wait);
    if (prc == PMIX_SUCCESS) {
        prc = server_wait_for(&wait);
    } else if (prc == PMIX_OPERATION_SUCCEEDED) {
        prc = PMIX_SUCCESS;
    }
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "cannot register job %s with the PMIx server: %s", job->nspace,
                       PMIx_Error_string(prc));
        goto out_free;
    }
    for (long r = 0; r < job->size; r++) {
        pmix_proc_t proc;

        if ((size_t)job->rank_host[r] != job->this_host) {
            continue;
        }
        PMIX_LOAD_PROCID(&proc, job->nspace, (pmix_rank_t)r);
        server_wait_init(&wait);
        prc = PMIx_server_register_client(&proc, geteuid(), getegid(), NULL, server_wait_done,
                                          &wait);
        if (prc == PMIX_SUCCESS) {
            prc = server_wait_for(&wait);
        } else if (prc == PMIX_OPERATION_SUCCEEDED) {
            prc = PMIX_SUCCESS;
        }
        if (prc != PMIX_SUCCESS) {
            comm_log_error("pmix", "cannot register rank %ld with the PMIx server: %s", r,
                           PMIx_Error_string(prc));
            goto out_free;
        }
    }
    rc = COMM_OK;
out_free:
    if (info != NULL) {
        PMIX_INFO_FREE(info, ninfo);
    }
    free(node_regex);
    free(proc_regex);
    free(hostlist);
    free(seen_on_host);
    free(local_rank);
    free(ppn);
    free(peers);
    return rc;
}

int comm_pmix_server_client_env(const char *nspace, long rank, char ***env_inout)
{
    pmix_proc_t proc;
    pmix_status_t prc;

    PMIX_LOAD_PROCID(&proc, nspace, (pmix_rank_t)rank);
    prc = PMIx_server_setup_fork(&proc, env_inout);
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "cannot prepare the environment of rank %ld: %s", rank,
                       PMIx_Error_string(prc));
        return COMM_ERR_PMIX;
    }
    return COMM_OK;
}

int comm_pmix_server_finalize(bool clients_lost)
{
    pmix_status_t prc;

    if (!server_up) {
        return COMM_OK;
    }
    server_up = false;
    pthread_mutex_lock(&server_lock); /* waits for a callback under way to return */
    server_ops = NULL;
    server_ctx = NULL;
    pthread_mutex_unlock(&server_lock);
    if (clients_lost) {
        comm_log_debug("pmix", "clients died without finalizing: PMIx server not finalized");
        return COMM_OK;
    }
    prc = PMIx_server_finalize();
    if (prc != PMIX_SUCCESS) {
        comm_log_error("pmix", "PMIx server finalize failed: %s", PMIx_Error_string(prc));
        return COMM_ERR_PMIX;
    }
    return COMM_OK;
}
