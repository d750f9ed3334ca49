/*
 * comm_run.c - main() of comm-run: checks the command line, sets up the PMIx server and the
 * event loop, runs the job and turns its outcome into an exit status.
 *
 * Layer: launcher.  Every exit after the ranks are started goes through run_finish(), which
 * stops the ranks and removes the job's files first.
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "pmix-glue/pmix_server.h"
#include "api/api.h"
#include "base/error.h"
#include "base/log.h"
#include "topo/topo.h"

#include <event2/event.h>
#include <event2/thread.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char run_usage[] =
    "Usage: comm-run [options] program [arguments...]\n"
    "Start an MPI program's ranks on this host or across hosts, and watch them.\n"
    "\n"
    "  -n, -np N              number of ranks (default: the number of cores, or every slot\n"
    "                         of the hosts)\n"
    "  -H, --host LIST        hosts and their slots: h0:2,h1:2 (a host without :N has 1)\n"
    "      --hostfile FILE    hosts from FILE, one per line: 'h slots=N' or 'h:N'\n"
    "  -N, --ppn N            N ranks on each host (instead of the slots)\n"
    "      --map-by slot|node  fill each host's slots first (slot, the default), or place\n"
    "                         ranks on the hosts in turn (node)\n"
    "      --display-map      print which ranks run on which host\n"
    "      --topo FILE        the cluster's topology file (Slurm's topology.conf or comm's\n"
    "                         format, comm-topology(5)) for the job: COMM_TOPO_FILE\n"
    "      --launch-agent CMD  how to start comm-run on another host, run as\n"
    "                         CMD HOST PROGRAM ARGS... (default: ssh)\n"
    "      --bind-to core|none  bind each rank to a core, or not (default: core when the\n"
    "                         ranks fit the cores, none otherwise)\n"
    "      --report-bindings  print where each rank is bound\n"
    "      --tag-output       prefix each line of output with [rank]\n"
    "  -x VAR[=value]         export VAR (with this value) to the ranks\n"
    "      --timeout SEC      end the job after SEC seconds (exit status 110);\n"
    "                         MPIEXEC_TIMEOUT does the same\n"
    "  -V, --version          print the version and exit\n"
    "  -h, --help             print this help and exit\n"
    "\n"
    "Standard input goes to rank 0.  Exit status: 0 when every rank exits 0; otherwise the\n"
    "status of the lowest rank that failed (128+N for a rank killed by signal N), 110 on\n"
    "timeout, 2 for a bad command line.  Settings: comm-info; manual: comm-run(1).\n";

static int run_signals[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP};

/*
 * --topo FILE: checked here, so that a bad file stops the job before anything starts, then
 * given to every rank (on other hosts too: comm-run passes its COMM_* settings on) as
 * COMM_TOPO_FILE, by its absolute path.
 */
static int run_check_topo(const struct comm_run_options *opts, char *err, size_t len)
{
    struct comm_topo *t = NULL;
    char path[PATH_MAX];
    int rc;

    if (opts->topo_file == NULL) {
        return COMM_OK;
    }
    rc = comm_topo_load(opts->topo_file, &t, err, len);
    if (rc == COMM_ERR_NOMEM) {
        snprintf(err, len, "out of memory reading %s", opts->topo_file);
    }
    if (rc < 0) {
        return rc;
    }
    comm_topo_free(t);
    if (realpath(opts->topo_file, path) == NULL) {
        snprintf(err, len, "--topo %s: %s", opts->topo_file, strerror(errno));
        return COMM_ERR_BAD_PARAM;
    }
    if (setenv("COMM_TOPO_FILE", path, 1) != 0) {
        snprintf(err, len, "--topo: cannot set COMM_TOPO_FILE: %s", strerror(errno));
        return COMM_ERR_SYSTEM;
    }
    return COMM_OK;
}

/* ---- PMIx callbacks: PMIx's thread; record and wake the loop -------------------------- */

static struct comm_run_rank *run_rank_of(struct comm_run_job *job, long rank)
{
    return rank >= 0 && rank < job->np ? &job->ranks[rank] : NULL;
}

static void run_on_connected(void *ctx, long rank)
{
    struct comm_run_rank *r = run_rank_of(ctx, rank);

    if (r != NULL) {
        atomic_store(&r->connected, true);
    }
}

static void run_on_finalized(void *ctx, long rank)
{
    struct comm_run_rank *r = run_rank_of(ctx, rank);

    if (r != NULL) {
        atomic_store(&r->finalized, true);
    }
}

static void run_on_aborted(void *ctx, long rank, int status, const char *message)
{
    struct comm_run_job *job = ctx;
    struct comm_run_rank *r = run_rank_of(job, rank);

    if (r == NULL) {
        return;
    }
    pthread_mutex_lock(&job->lock);
    r->aborted = true;
    r->abort_status = status;
    r->abort_seq = ++job->aborts;
    snprintf(r->abort_message, sizeof(r->abort_message), "%s", message);
    pthread_mutex_unlock(&job->lock);
    event_active(job->wake_ev, EV_READ, 0);
}

static void run_on_fence(void *ctx, struct comm_pmix_fence *fence, const void *data, size_t len)
{
    struct comm_run_job *job = ctx;
    struct comm_run_fence *f = calloc(1, sizeof(*f));

    if (f == NULL || (len > 0 && (f->data = malloc(len)) == NULL)) {
        free(f);
        comm_pmix_server_fence_complete(fence, COMM_ERR_NOMEM, NULL, 0);
        return;
    }
    if (len > 0) {
        memcpy(f->data, data, len);
    }
    f->len = len;
    f->fence = fence;
    pthread_mutex_lock(&job->lock);
    f->next = job->fences;
    job->fences = f;
    pthread_mutex_unlock(&job->lock);
    event_active(job->wake_ev, EV_READ, 0);
}

static const struct comm_pmix_server_ops run_server_ops = {
    .connected = run_on_connected,
    .finalized = run_on_finalized,
    .aborted = run_on_aborted,
    .fence = run_on_fence,
};

/* ---- event loop callbacks ----------------------------------------------------------- */

static void run_on_wake(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    comm_run_job_process_wake(arg);
}

static long run_collect_alive(const struct comm_run_job *job, long *ranks)
{
    long n = 0;

    for (long i = 0; i < job->np; i++) {
        if (job->ranks[i].pid > 0 && !job->ranks[i].exited) {
            ranks[n++] = i;
        }
    }
    return n;
}

static void run_on_signal(evutil_socket_t signo, short what, void *arg)
{
    struct comm_run_job *job = arg;
    long n;

    (void)what;
    if (signo == SIGCHLD) {
        comm_run_job_reap(job);
        return;
    }
    if (!job->stopping) {
        long *alive = calloc((size_t)job->np, sizeof(long));

        n = alive ? run_collect_alive(job, alive) : 0;
        comm_log_error("launcher", "SIG%s received; stopping %ld rank%s", sigabbrev_np((int)signo), n,
                       n == 1 ? "" : "s");
        free(alive);
        if (job->failed_rank < 0) {
            job->exit_status = 128 + (int)signo;
        }
    }
    comm_run_job_stop(job, (int)signo);
}

static void run_on_timeout(evutil_socket_t fd, short what, void *arg)
{
    struct comm_run_job *job = arg;
    long *alive = calloc((size_t)job->np, sizeof(long));
    char list[256] = "?";
    long n;

    (void)fd;
    (void)what;
    if (job->stopping) {
        free(alive);
        return;
    }
    n = alive ? run_collect_alive(job, alive) : 0;
    if (alive != NULL) {
        comm_run_format_ranks(alive, (size_t)n, list, sizeof(list));
    }
    comm_log_error("launcher", "timeout after %ld s: %ld rank%s still running on host %s: %s; "
                   "stopping them", job->timeout, n, n == 1 ? "" : "s", job->host, list);
    free(alive);
    job->exit_status = COMM_RUN_EXIT_TIMEOUT;
    comm_run_job_stop(job, 0);
}

/* ---- set-up and tear-down ------------------------------------------------------------ */

static void run_usage_error(const char *message)
{
    comm_log_error("launcher", "%s", message);
    fputs("Try 'comm-run --help' for more information.\n", stderr);
}

/* Finds PROGRAM as execvp would; writes the usage error on failure. */
static int run_resolve_program(const char *program, char *path_out, size_t len, char *err,
                               size_t elen)
{
    struct stat st;

    if (strchr(program, '/') != NULL) {
        snprintf(path_out, len, "%s", program);
    } else {
        const char *path = comm_config_env("PATH");
        const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin";
        bool found = false;

        while (!found && *p != '\0') {
            const char *colon = strchr(p, ':');
            size_t n = colon ? (size_t)(colon - p) : strlen(p);

            snprintf(path_out, len, "%.*s%s%s", (int)n, p, n ? "/" : "", program);
            found = stat(path_out, &st) == 0 && S_ISREG(st.st_mode) &&
                    access(path_out, X_OK) == 0;
            p += n;
            if (*p == ':') {
                p++;
            }
        }
        if (!found) {
            snprintf(err, elen, "program '%s' not found in PATH", program);
            return COMM_ERR_NOT_FOUND;
        }
        return COMM_OK;
    }
    if (stat(path_out, &st) != 0) {
        snprintf(err, elen, "program '%s' not found: %s", program, strerror(errno));
        return COMM_ERR_NOT_FOUND;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, elen, "program '%s' is not a regular file", program);
        return COMM_ERR_BAD_PARAM;
    }
    if (access(path_out, X_OK) != 0) {
        snprintf(err, elen, "program '%s' is not executable", program);
        return COMM_ERR_BAD_PARAM;
    }
    return COMM_OK;
}

static int run_remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    if (remove(path) != 0 && errno != ENOENT) {
        comm_log_warn("launcher", "cannot remove %s: %s", path, strerror(errno));
    }
    return 0;
}

static int run_make_tmpdir(struct comm_run_job *job)
{
    const char *base = comm_config_env("TMPDIR");

    snprintf(job->tmpdir, sizeof(job->tmpdir), "%s/comm-run.XXXXXX",
             base && base[0] ? base : "/tmp");
    if (mkdtemp(job->tmpdir) == NULL) {
        comm_log_error("launcher", "cannot create a private directory %s: %s", job->tmpdir,
                       strerror(errno));
        job->tmpdir[0] = '\0';
        return COMM_ERR_SYSTEM;
    }
    return COMM_OK;
}

/* Reads the COMM_HEARTBEAT_* settings into OPTS: COMM_OK, or COMM_ERR_BAD_PARAM with ERR_OUT
 * naming the setting at fault. */
static int run_heartbeat(struct comm_run_options *opts, char *err_out, size_t len)
{
    long v[3];

    /* COMM_HEARTBEAT_MS, _MISSES and _LOST_MS, set or by default (api/settings_registry.c
     * holds them, so that MPI_Init knows them too). */
    for (int i = 0; i < 3; i++) {
        const struct comm_setting *s = &comm_launcher_settings.settings[i];

        if (comm_config_parse_long(comm_config_value(s), s->min, s->max, &v[i]) < 0) {
            snprintf(err_out, len, "invalid value '%s' for %s: expected a whole number from %ld "
                     "to %ld", comm_config_value(s), s->name, s->min, s->max);
            return COMM_ERR_BAD_PARAM;
        }
    }
    if (v[2] <= v[0] * v[1]) {
        snprintf(err_out, len,
                 "COMM_HEARTBEAT_LOST_MS (%ld) must be longer than COMM_HEARTBEAT_MS times "
                 "COMM_HEARTBEAT_MISSES (%ld ms), after which a silent host is only suspected",
                 v[2], v[0] * v[1]);
        return COMM_ERR_BAD_PARAM;
    }
    opts->heartbeat_ms = v[0];
    opts->heartbeat_misses = v[1];
    opts->heartbeat_lost_ms = v[2];
    return COMM_OK;
}

/* Every heartbeat: the local ranks' process states. */
static void run_on_watch(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    comm_run_job_watch_states(arg);
}

static int run_setup_loop(struct comm_run_job *job)
{
    struct timeval beat = comm_run_heartbeat(job->opts);

    event_set_log_callback(comm_run_libevent_log);
    if (evthread_use_pthreads() != 0) {
        comm_log_error("launcher", "libevent has no thread support");
        return COMM_ERR_SYSTEM;
    }
    job->base = event_base_new();
    if (job->base == NULL) {
        comm_log_error("launcher", "cannot create the event loop");
        return COMM_ERR_SYSTEM;
    }
    /* Orphans of the ranks come to comm-run, which stops and reaps them with the job. */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        comm_log_warn("launcher", "cannot become the reaper of the ranks' children: %s",
                      strerror(errno));
    }
    for (size_t i = 0; i < sizeof(run_signals) / sizeof(run_signals[0]); i++) {
        job->signal_evs[i] = evsignal_new(job->base, run_signals[i], run_on_signal, job);
        if (job->signal_evs[i] == NULL || event_add(job->signal_evs[i], NULL) != 0) {
            comm_log_error("launcher", "cannot watch signal %d", run_signals[i]);
            return COMM_ERR_SYSTEM;
        }
    }
    job->wake_ev = event_new(job->base, -1, 0, run_on_wake, job);
    job->timeout_ev = evtimer_new(job->base, run_on_timeout, job);
    job->watch_ev = event_new(job->base, -1, EV_PERSIST, run_on_watch, job);
    if (job->wake_ev == NULL || job->timeout_ev == NULL || job->watch_ev == NULL ||
        event_add(job->watch_ev, &beat) != 0) {
        comm_log_error("launcher", "cannot create the loop's events");
        return COMM_ERR_NOMEM;
    }
    return COMM_OK;
}

/* Whether a rank of this host connected to the PMIx server and ended without finalizing. */
static bool run_clients_lost(const struct comm_run_job *job)
{
    for (long i = 0; i < job->np; i++) {
        const struct comm_run_rank *r = &job->ranks[i];

        if (r->local && atomic_load(&r->connected) && !atomic_load(&r->finalized)) {
            return true;
        }
    }
    return false;
}

/* Stops what is left, removes the job's files and frees the loop.  Returns the exit status. */
static int run_finish(struct comm_run_job *job, bool started)
{
    if (started && job->alive > 0) {
        /* Failed while starting: whatever was started must not outlive comm-run. */
        comm_run_job_stop(job, 0);
        event_base_dispatch(job->base);
    }
    comm_run_io_shutdown(job);
    comm_run_remote_free(job);
    while (waitpid(-1, NULL, WNOHANG) > 0) {
        /* orphans of the ranks, killed with their process group */
    }
    comm_pmix_server_finalize(run_clients_lost(job));
    if (job->tmpdir[0] != '\0') {
        nftw(job->tmpdir, run_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    comm_run_job_remove_files(job);
    for (size_t i = 0; i < sizeof(run_signals) / sizeof(run_signals[0]); i++) {
        if (job->signal_evs[i] != NULL) {
            event_free(job->signal_evs[i]);
        }
    }
    if (job->wake_ev != NULL) {
        event_free(job->wake_ev);
    }
    if (job->grace_ev != NULL) {
        event_free(job->grace_ev);
    }
    if (job->timeout_ev != NULL) {
        event_free(job->timeout_ev);
    }
    if (job->watch_ev != NULL) {
        event_free(job->watch_ev);
    }
    if (job->base != NULL) {
        event_base_free(job->base);
    }
    free(job->ranks);
    return job->exit_status;
}

/* Fills the ranks from the job's map: which host, which are this host's, their local
 * numbers. */
static int run_place_ranks(struct comm_run_job *job)
{
    long *per_host = calloc(job->hosts.n, sizeof(long));

    job->ranks = calloc((size_t)job->np, sizeof(*job->ranks));
    if (job->ranks == NULL || per_host == NULL) {
        free(per_host);
        comm_log_error("launcher", "out of memory for %ld ranks", job->np);
        return COMM_ERR_NOMEM;
    }
    job->local_np = 0;
    for (long i = 0; i < job->np; i++) {
        struct comm_run_rank *r = &job->ranks[i];

        r->rank = i;
        r->out_fd = r->err_fd = -1;
        r->host = job->rank_host[i];
        r->local = r->host == job->this_host;
        r->local_rank = per_host[r->host]++;
        job->local_np += r->local;
    }
    free(per_host);
    return COMM_OK;
}

/* comm-run (not an agent): the hosts and where each rank runs. */
static int run_plan_hosts(struct comm_run_job *job, const struct comm_run_options *opts,
                          char *err, size_t len)
{
    struct comm_run_hosts *h = &job->hosts;
    int rc = COMM_OK;

    if (opts->host_list != NULL) {
        rc = comm_run_hosts_parse_list(h, opts->host_list, err, len);
    } else if (opts->hostfile != NULL) {
        rc = comm_run_hosts_parse_file(h, opts->hostfile, err, len);
    } else {
        /* This host only, with a slot per core unless -np says otherwise. */
        char spec[300];

        long slots = comm_run_bind_ncores();

        slots = opts->np > slots ? opts->np : opts->ppn > slots ? opts->ppn : slots;
        snprintf(spec, sizeof(spec), "%s:%ld", job->host, slots);
        rc = comm_run_hosts_parse_list(h, spec, err, len);
    }
    if (rc == COMM_OK) {
        rc = comm_run_hosts_map(h, job->host, opts->np, opts->ppn, opts->map_by,
                                &job->rank_host, &job->np, err, len);
    }
    if (rc == COMM_OK && opts->host_list == NULL && opts->hostfile == NULL) {
        /* Without a host list every rank runs here, however many there are. */
        h->own = 0;
        h->list[0].nranks = job->np;
    }
    job->this_host = h->own;
    return rc;
}

int main(int argc, char **argv)
{
    const struct comm_setting_table *tables[16];
    struct comm_run_options opts, agent_opts;
    struct comm_run_job job;
    struct comm_pmix_server_job sjob;
    const char **host_names = NULL;
    char err[512], program[PATH_MAX];
    size_t ntables = 0;
    bool started = false;
    int rc, status;

    comm_log_set_tool("comm-run");
    for (size_t i = 0; i < comm_settings_ntables && ntables < 15; i++) {
        tables[ntables++] = comm_settings_tables[i];
    }
    tables[ntables++] = &comm_run_settings;
    if (comm_config_check_environment(tables, ntables, false) < 0 || comm_log_configure() < 0) {
        return COMM_RUN_EXIT_USAGE;
    }
    if (comm_run_options_parse(argc, argv, &opts, err, sizeof(err)) < 0) {
        run_usage_error(err);
        return COMM_RUN_EXIT_USAGE;
    }
    if (opts.action == COMM_RUN_ACTION_HELP) {
        fputs(run_usage, stdout);
        comm_run_options_free(&opts);
        return 0;
    }
    if (opts.action == COMM_RUN_ACTION_VERSION) {
        printf("comm-run (comm) %s\n", PACKAGE_VERSION);
        comm_run_options_free(&opts);
        return 0;
    }

    memset(&job, 0, sizeof(job));
    job.opts = &opts;
    job.failed_rank = -1;
    job.stdin_fd = -1;
    job.this_host = -1;
    job.exit_status = COMM_RUN_EXIT_FAILURE;
    pthread_mutex_init(&job.lock, NULL);
    if (gethostname(job.host, sizeof(job.host) - 1) != 0) {
        snprintf(job.host, sizeof(job.host), "localhost");
    }
    if (opts.agent_host >= 0) {
        /* An agent: everything comes from comm-run. */
        if (comm_run_agent_join(&job, &opts, &agent_opts) < 0) {
            goto out;
        }
        job.opts = &agent_opts;
        snprintf(job.host, sizeof(job.host), "%s", job.hosts.list[job.this_host].name);
    } else {
        if (comm_run_options_timeout(&opts, comm_config_env("MPIEXEC_TIMEOUT"), &job.timeout,
                                     err, sizeof(err)) < 0 ||
            run_heartbeat(&opts, err, sizeof(err)) < 0 ||
            run_resolve_program(argv[opts.program_index], program, sizeof(program), err,
                                sizeof(err)) < 0 ||
            run_plan_hosts(&job, &opts, err, sizeof(err)) < 0 ||
            run_check_topo(&opts, err, sizeof(err)) < 0) {
            run_usage_error(err);
            comm_run_hosts_free(&job.hosts);
            free(job.rank_host);
            comm_run_options_free(&opts);
            return COMM_RUN_EXIT_USAGE;
        }
        job.program = program;
        job.argv = &argv[opts.program_index];
        snprintf(job.nspace, sizeof(job.nspace), "comm-run.%ld", (long)getpid());
        if (opts.display_map) {
            comm_run_hosts_display(&job.hosts, job.rank_host, job.np);
        }
    }
    if (run_place_ranks(&job) < 0) {
        goto out;
    }
    /* A peer that closes first (an agent whose launch command ended before it read the
     * secret, a link gone) is an error to report, not a signal that ends comm-run. */
    signal(SIGPIPE, SIG_IGN);
    for (size_t i = 0; i < job.hosts.n; i++) {
        bool other = (long)i != job.this_host && job.hosts.list[i].nranks > 0;

        if (other && opts.agent_host < 0 && job.remote == NULL &&
            comm_run_remote_launch(&job) < 0) {
            goto out;
        }
    }
    /* One host: COMM_NET_INTERFACES stays unset, and the transport keeps to lo by itself. */
    if (run_setup_loop(&job) < 0 || run_make_tmpdir(&job) < 0 ||
        comm_pmix_server_init(job.tmpdir, &run_server_ops, &job) < 0 ||
        (job.remote != NULL && comm_run_remote_attach(&job) < 0)) {
        goto out;
    }
    host_names = calloc(job.hosts.n, sizeof(*host_names));
    if (host_names == NULL) {
        goto out;
    }
    for (size_t i = 0; i < job.hosts.n; i++) {
        host_names[i] = job.hosts.list[i].name;
    }
    sjob = (struct comm_pmix_server_job){
        .nspace = job.nspace,
        .size = job.np,
        .universe_size = job.np,
        .nhosts = job.hosts.n,
        .hosts = host_names,
        .rank_host = job.rank_host,
        .this_host = job.this_host >= 0 ? (size_t)job.this_host : job.hosts.n,
    };
    if (comm_pmix_server_register_job(&sjob) < 0 ||
        comm_run_bind_plan(&job, job.opts->bind, job.opts->report_bindings) < 0) {
        goto out;
    }
    job.exit_status = 0;
    started = true;
    rc = comm_run_job_start(&job);
    if (rc < 0) {
        job.exit_status = COMM_RUN_EXIT_FAILURE;
        goto out;
    }
    if (job.timeout > 0) {
        struct timeval tv = {job.timeout, 0};
        evtimer_add(job.timeout_ev, &tv);
    }
    event_base_dispatch(job.base);
out:
    status = run_finish(&job, started);
    free(host_names);
    free(job.rank_host);
    comm_run_hosts_free(&job.hosts);
    comm_run_options_free(&opts);
    pthread_mutex_destroy(&job.lock);
    return status;
}
