/*
 * runtime.c - process-wide init and finalize of libcomm.
 *
 * Layer: runtime core.  Must not: check MPI arguments or dispatch error handlers.
 */
#include "config.h"

#include "runtime/runtime.h"
#include "base/abort.h"
#include "base/error.h"
#include "runtime/comm/communicator.h"
#include "runtime/job_topo.h"
#include "base/log.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/progress.h"
#include "runtime/thread.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Guarded by: written on the init thread during init/finalize only. */
static enum comm_runtime_state runtime_state = COMM_RUNTIME_NOT_STARTED;
static struct comm_pmix_job runtime_job;
static int runtime_thread_level;
static pthread_t runtime_main_thread;
static long *runtime_local_peers;
static size_t runtime_nlocal;

static const char runtime_version_key[] = "comm.version";

static void runtime_abort_hook(int status, const char *message)
{
    comm_pmix_abort(status, message);
}

/* Every rank must run the same libcomm: a mixed installation fails in ways hard to explain. */
static int runtime_check_versions(void)
{
    void *data = NULL;
    size_t len = 0;
    int rc;

    rc = comm_pmix_put(runtime_version_key, PACKAGE_VERSION, sizeof(PACKAGE_VERSION));
    if (rc < 0) {
        return rc;
    }
    rc = comm_pmix_commit();
    if (rc < 0) {
        return rc;
    }
    rc = comm_pmix_fence(true);
    if (rc < 0) {
        return rc;
    }
    if (runtime_job.rank == 0) {
        return COMM_OK;
    }
    rc = comm_pmix_get(0, runtime_version_key, &data, &len);
    if (rc < 0) {
        comm_log_error("runtime", "rank 0 did not publish its libcomm version: is it running "
                                  "another MPI library?");
        return COMM_ERR_PMIX;
    }
    if (len == 0 || ((char *)data)[len - 1] != '\0' || strcmp(data, PACKAGE_VERSION) != 0) {
        char host[COMM_PMIX_NAME_MAX] = "?";

        comm_pmix_peer_host(0, host, sizeof(host));
        comm_log_error("runtime",
                       "rank 0 on host %s runs libcomm %.*s but this rank runs %s: "
                       "all ranks must use the same comm installation",
                       host, (int)len, (char *)data, PACKAGE_VERSION);
        free(data);
        return COMM_ERR_BAD_PARAM;
    }
    free(data);
    return COMM_OK;
}

/* A wait with nothing moving for COMM_TIMEOUT_MS (progress.c): what it waits for, and the end
 * of the job when END. */
static void runtime_on_stuck(const char *why, bool end)
{
    comm_p2p_report_waits();
    if (end) {
        comm_runtime_abort(COMM_PROGRESS_STUCK_STATUS, why);
    }
}

/*
 * Opens the transports, exchanges addresses (and checks versions) in one fence, connects every
 * peer, and lets the transports withdraw what was only there for connecting after a second
 * fence.
 */
static int runtime_start_transports(void)
{
    struct comm_btl_fabric fabrics[16]; /* for the open only: the btls copy what they keep */
    struct comm_btl_self_info self;
    long local_rank = 0;
    int rc;

    rc = comm_pmix_local_peers(&runtime_local_peers, &runtime_nlocal);
    if (rc < 0) {
        return rc;
    }
    for (size_t i = 0; i < runtime_nlocal; i++) {
        if (runtime_local_peers[i] == runtime_job.rank) {
            local_rank = (long)i;
        }
    }
    self = (struct comm_btl_self_info){
        .nspace = runtime_job.nspace,
        .rank = runtime_job.rank,
        .size = runtime_job.size,
        .local_rank = local_rank,
        .local_size = (long)runtime_nlocal,
        .local_peers = runtime_local_peers,
    };
    rc = comm_progress_init((long)runtime_nlocal);
    if (rc < 0) {
        return rc;
    }
    comm_progress_set_reporter(runtime_on_stuck);
    /* The topology's digest goes out with the addresses, in the versions' fence; the network
     * btl opens a rail on each device it gives this host. */
    rc = comm_job_topo_load(runtime_job.host, runtime_job.rank, local_rank);
    if (rc < 0) {
        return rc;
    }
    self.host = runtime_job.host;
    self.rails = comm_job_topo_nics(runtime_job.host);
    self.nfabrics = comm_job_topo_fabrics(runtime_job.host, fabrics,
                                          sizeof(fabrics) / sizeof(fabrics[0]));
    self.fabrics = fabrics;
    rc = comm_btl_open_all(&self, comm_p2p_receiver(), comm_p2p_written());
    if (rc < 0) {
        return rc;
    }
    rc = runtime_check_versions();
    if (rc < 0) {
        return rc;
    }
    rc = comm_job_topo_check(runtime_job.rank, runtime_job.host);
    if (rc < 0) {
        return rc;
    }
    rc = comm_job_topo_map(runtime_job.size, runtime_job.rank, local_rank);
    if (rc < 0) {
        return rc;
    }
    rc = comm_p2p_init(runtime_job.rank, runtime_job.size, runtime_local_peers, runtime_nlocal);
    if (rc < 0) {
        return rc;
    }
    rc = comm_pmix_fence(false);
    if (rc < 0) {
        return rc;
    }
    comm_btl_wired_all();
    return COMM_OK;
}

/* Rank 0 says how MPI_COMM_WORLD's ranks group at each level, with each group's leader. */
static void runtime_log_levels(const struct comm_communicator *world)
{
    for (int l = 0; l < world->nlevels; l++) {
        const struct comm_topo_groups *g = &world->levels[l];
        char leaders[256];
        size_t n = 0;

        leaders[0] = '\0';
        for (int i = 0; i < g->ngroups && n < sizeof(leaders); i++) {
            if (i == 16 && g->ngroups > 17) {
                n += (size_t)snprintf(leaders + n, sizeof(leaders) - n, ",... %d more",
                                      g->ngroups - i);
                break;
            }
            n += (size_t)snprintf(leaders + n, sizeof(leaders) - n, "%s%d", i ? "," : "",
                                  g->leader[i]);
        }
        comm_log_info("topo", "MPI_COMM_WORLD by %s: %d group%s, leader%s %s",
                      comm_job_topo_level_name(l), g->ngroups, g->ngroups == 1 ? "" : "s",
                      g->ngroups == 1 ? "" : "s", leaders);
    }
}

int comm_runtime_init(const struct comm_setting_table *const *tables, size_t ntables,
                      comm_coll_attach_fn coll_attach, int thread_level)
{
    Dl_info where;
    int rc;

    if (runtime_state == COMM_RUNTIME_RUNNING) {
        return COMM_ERR_STATE;
    }
    rc = comm_pmix_init(&runtime_job);
    if (rc < 0) {
        return rc;
    }
    comm_log_set_rank(runtime_job.host, runtime_job.rank);
    comm_abort_set_hook(runtime_abort_hook);
    rc = comm_config_check_environment(tables, ntables, runtime_job.rank == 0);
    if (rc < 0) {
        return rc;
    }
    rc = comm_log_configure();
    if (rc < 0) {
        return rc;
    }
    if (dladdr((void *)comm_runtime_init, &where) != 0 && where.dli_fname != NULL) {
        comm_log_info("runtime", "comm %s, libcomm loaded from %s", PACKAGE_VERSION,
                      where.dli_fname);
    } else {
        comm_log_info("runtime", "comm %s, libcomm path unknown", PACKAGE_VERSION);
    }
    comm_log_info("runtime", "job %s: rank %ld of %ld, local rank %ld of %ld on host %s%s",
                  runtime_job.nspace, runtime_job.rank, runtime_job.size, runtime_job.local_rank,
                  runtime_job.local_size, runtime_job.host,
                  runtime_job.singleton ? " (singleton: no process manager)" : "");
    rc = runtime_start_transports();
    if (rc < 0) {
        return rc;
    }
    rc = comm_communicator_init_predefined((int)runtime_job.rank, (int)runtime_job.size,
                                           runtime_local_peers, runtime_nlocal, coll_attach);
    if (rc < 0) {
        return rc;
    }
    if (runtime_job.rank == 0) {
        runtime_log_levels(comm_communicator_lookup(MPI_COMM_WORLD));
    }
    runtime_thread_level = thread_level;
    comm_thread_init(comm_progress_thread_wanted() ? MPI_THREAD_MULTIPLE : thread_level);
    runtime_main_thread = pthread_self();
    runtime_state = COMM_RUNTIME_RUNNING;
    return comm_progress_thread_start();
}

int comm_runtime_finalize(void)
{
    int rc;

    if (runtime_state != COMM_RUNTIME_RUNNING) {
        return COMM_ERR_STATE;
    }
    comm_progress_thread_stop();
    /* MPI_Finalize is collective: no rank leaves while another may still talk to it. */
    comm_p2p_finalize();
    rc = comm_pmix_fence(false);
    comm_btl_close_all();
    comm_communicator_finalize_predefined();
    comm_job_topo_finalize();
    free(runtime_local_peers);
    runtime_local_peers = NULL;
    if (rc == COMM_OK) {
        rc = comm_pmix_finalize();
    }
    runtime_state = COMM_RUNTIME_FINALIZED;
    comm_abort_set_hook(NULL);
    comm_log_finalize();
    return rc;
}

enum comm_runtime_state comm_runtime_state(void)
{
    return runtime_state;
}

const struct comm_pmix_job *comm_runtime_job(void)
{
    return &runtime_job;
}

int comm_runtime_thread_level(void)
{
    return runtime_thread_level;
}

bool comm_runtime_is_main_thread(void)
{
    return pthread_equal(pthread_self(), runtime_main_thread) != 0;
}

double comm_runtime_wtime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double comm_runtime_wtick(void)
{
    struct timespec ts;

    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0) {
        return 1e-9;
    }
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void comm_runtime_abort(int status, const char *message)
{
    comm_abort(status, "%s", message);
}
