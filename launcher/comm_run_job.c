/*
 * comm_run_job.c - starting, watching and stopping the ranks of a job.
 *
 * Layer: launcher.  Runs on the event loop only (PMIx's thread only sets flags and wakes it).
 *
 * Failure rules: a rank that exits non-zero, is killed by a signal, exits without
 * MPI_Finalize after MPI_Init, or calls MPI_Abort ends the job: comm-run prints one line
 * naming the rank, its pid, the host and the cause, sends TERM to every other rank's process
 * group, and KILL after COMM_RUN_GRACE_MS.  The exit status is that of the lowest rank that
 * failed on its own (not one stopped by comm-run): its exit code, or 128+signal.  Of aborts,
 * the first to arrive decides: one rank's abort makes the PMIx server fail the fences its
 * peers wait in, and their own aborts (which follow) are its consequence, not new failures.
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "pmix-glue/pmix_server.h"
#include "base/error.h"
#include "base/log.h"

#include <event2/event.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { COMM_RUN_GRACE_MS = 1000 };

/* ---- the environment of a rank ------------------------------------------------------- */

struct job_env {
    char **vars; /* NULL-terminated; each string malloc'ed (PMIx may realloc the array) */
    size_t n;
};

static void job_env_free(struct job_env *env)
{
    for (size_t i = 0; env->vars != NULL && env->vars[i] != NULL; i++) {
        free(env->vars[i]);
    }
    free(env->vars);
    env->vars = NULL;
    env->n = 0;
}

/* Sets NAME=VALUE, replacing an earlier NAME. */
static int job_env_set(struct job_env *env, const char *name, const char *value)
{
    size_t nlen = strlen(name);
    char *entry = malloc(nlen + strlen(value) + 2);
    char **grown;

    if (entry == NULL) {
        return COMM_ERR_NOMEM;
    }
    sprintf(entry, "%s=%s", name, value);
    for (size_t i = 0; i < env->n; i++) {
        if (strncmp(env->vars[i], name, nlen) == 0 && env->vars[i][nlen] == '=') {
            free(env->vars[i]);
            env->vars[i] = entry;
            return COMM_OK;
        }
    }
    grown = realloc(env->vars, (env->n + 2) * sizeof(char *));
    if (grown == NULL) {
        free(entry);
        return COMM_ERR_NOMEM;
    }
    env->vars = grown;
    env->vars[env->n++] = entry;
    env->vars[env->n] = NULL;
    return COMM_OK;
}

/* Sets "NAME=value" as given; entries without '=' are skipped. */
static int job_env_put(struct job_env *env, const char *entry)
{
    const char *eq = strchr(entry, '=');
    char name[256];

    if (eq == NULL || (size_t)(eq - entry) >= sizeof(name)) {
        return COMM_OK;
    }
    snprintf(name, sizeof(name), "%.*s", (int)(eq - entry), entry);
    return job_env_set(env, name, eq + 1);
}

static int job_env_build(struct comm_run_job *job, long rank, struct job_env *env_out)
{
    struct job_env env = {0};
    const struct {
        const char *name;
        long value;
    } provided[] = {
        {"COMM_WORLD_RANK", rank},
        {"COMM_WORLD_SIZE", job->np},
        {"COMM_WORLD_LOCAL_RANK", job->ranks[rank].local_rank},
        {"COMM_WORLD_LOCAL_SIZE", job->local_np},
    };
    int rc = COMM_OK;

    for (char **e = environ; *e != NULL && rc == COMM_OK; e++) {
        rc = job_env_put(&env, *e);
    }
    /* -x VAR alone is already inherited on this host; VAR=value overrides. */
    for (size_t i = 0; i < job->opts->nexports && rc == COMM_OK; i++) {
        rc = job_env_put(&env, job->opts->exports[i]);
    }
    for (size_t i = 0; i < sizeof(provided) / sizeof(provided[0]) && rc == COMM_OK; i++) {
        char num[32];

        snprintf(num, sizeof(num), "%ld", provided[i].value);
        rc = job_env_set(&env, provided[i].name, num);
    }
    if (rc == COMM_OK && job->net_interfaces[0] != '\0') {
        rc = job_env_set(&env, "COMM_NET_INTERFACES", job->net_interfaces);
    }
    if (rc == COMM_OK) {
        rc = comm_pmix_server_client_env(job->nspace, rank, &env.vars);
    }
    if (rc < 0) {
        if (rc == COMM_ERR_NOMEM) {
            comm_log_error("launcher", "out of memory building the environment of rank %ld",
                           rank);
        }
        job_env_free(&env);
        return rc;
    }
    *env_out = env;
    return COMM_OK;
}

/* ---- starting ------------------------------------------------------------------------ */

/*
 * Between fork and exec only async-signal-safe calls: the launcher has other threads (PMIx).
 * A failed exec reports its errno through EXEC_FD (close-on-exec, so success closes it).
 */
static _Noreturn void job_child(struct comm_run_job *job, struct comm_run_rank *r, char **envp,
                                int child_in, int child_out, int child_err, int exec_fd,
                                pid_t parent)
{
    sigset_t none;
    int err;

    setpgid(0, 0);
    /* A rank does not outlive its launcher, even one killed outright (an agent on a host
     * comm-run cannot reach any more). */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
        _exit(127);
    }
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    if (dup2(child_in, STDIN_FILENO) < 0 || dup2(child_out, STDOUT_FILENO) < 0 ||
        dup2(child_err, STDERR_FILENO) < 0) {
        err = errno;
        goto fail;
    }
    if (r->bound && sched_setaffinity(0, sizeof(r->cpus), &r->cpus) != 0) {
        err = errno;
        goto fail;
    }
    execve(job->program, job->argv, envp);
    err = errno;
fail:
    if (write(exec_fd, &err, sizeof(err)) < 0) {
        _exit(127);
    }
    _exit(127);
}

static int job_start_rank(struct comm_run_job *job, struct comm_run_rank *r, int stdin_for_rank)
{
    struct job_env env;
    int child_out = -1, child_err = -1, exec_pipe[2], err = 0;
    pid_t pid, parent;
    ssize_t n;
    int rc;

    rc = job_env_build(job, r->rank, &env);
    if (rc < 0) {
        return rc;
    }
    rc = comm_run_io_setup_rank(job, r, &child_out, &child_err);
    if (rc < 0) {
        job_env_free(&env);
        return rc;
    }
    if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
        comm_log_error("launcher", "cannot create a pipe: %s", strerror(errno));
        comm_run_io_close_child_ends(-1, child_out, child_err);
        job_env_free(&env);
        return COMM_ERR_SYSTEM;
    }
    parent = getpid();
    pid = fork();
    if (pid == 0) {
        close(exec_pipe[0]);
        job_child(job, r, env.vars, stdin_for_rank, child_out, child_err, exec_pipe[1], parent);
    }
    close(exec_pipe[1]);
    comm_run_io_close_child_ends(-1, child_out, child_err);
    job_env_free(&env);
    if (pid < 0) {
        comm_log_error("launcher", "cannot fork rank %ld: %s", r->rank, strerror(errno));
        close(exec_pipe[0]);
        return COMM_ERR_SYSTEM;
    }
    setpgid(pid, pid); /* also in the child: whichever runs first, the group exists */
    r->pid = pid;
    job->alive++;
    do {
        n = read(exec_pipe[0], &err, sizeof(err));
    } while (n < 0 && errno == EINTR);
    close(exec_pipe[0]);
    if (n == (ssize_t)sizeof(err)) {
        comm_log_error("launcher", "cannot start rank %ld: %s: %s", r->rank, job->program,
                       strerror(err));
        return COMM_ERR_SYSTEM;
    }
    return COMM_OK;
}

int comm_run_job_start(struct comm_run_job *job)
{
    int stdin0 = -1, devnull;
    int rc;

    devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) {
        comm_log_error("launcher", "cannot open /dev/null: %s", strerror(errno));
        return COMM_ERR_SYSTEM;
    }
    rc = job->ranks[0].local ? comm_run_io_setup_stdin(job, &stdin0) : COMM_OK;
    if (rc < 0) {
        comm_log_error("launcher", "cannot set up the standard input of rank 0");
        close(devnull);
        return rc;
    }
    for (long i = 0; i < job->np; i++) {
        if (!job->ranks[i].local) {
            continue;
        }
        rc = job_start_rank(job, &job->ranks[i], i == 0 && stdin0 >= 0 ? stdin0 : devnull);
        if (rc < 0) {
            break;
        }
    }
    if (stdin0 >= 0) {
        close(stdin0);
    }
    close(devnull);
    return rc;
}

/* ---- watching ------------------------------------------------------------------------ */

/* The state letter of process PID (R, S, D, T, t, Z...), or 0 when it cannot be read. */
static char job_proc_state(pid_t pid)
{
    char path[64], buf[512];
    const char *paren;
    FILE *f;
    size_t n;

    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
    f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    paren = strrchr(buf, ')'); /* the command name may hold anything */
    return paren != NULL && paren[1] == ' ' ? paren[2] : 0;
}

uint64_t comm_run_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct timeval comm_run_heartbeat(const struct comm_run_options *opts)
{
    return (struct timeval){opts->heartbeat_ms / 1000, (opts->heartbeat_ms % 1000) * 1000};
}

void comm_run_job_watch_states(struct comm_run_job *job)
{
    uint64_t now = comm_run_now_ms();

    if (job->stopping) {
        return;
    }
    for (long i = 0; i < job->np; i++) {
        struct comm_run_rank *r = &job->ranks[i];
        char state;

        if (!r->local || r->pid <= 0 || r->exited) {
            continue;
        }
        state = job_proc_state(r->pid);
        if (state == 'T' || state == 't') {
            if (r->stopped_ms == 0) {
                r->stopped_ms = now;
            } else if (!r->said_stopped) {
                r->said_stopped = true;
                comm_log_warn("launcher",
                              "rank %ld (pid %ld) on host %s is stopped (state %c: a signal such "
                              "as SIGSTOP, or a debugger); ranks that wait for it wait",
                              r->rank, (long)r->pid, job->hosts.list[r->host].name, state);
            }
        } else if (r->stopped_ms != 0) {
            if (r->said_stopped) {
                comm_log_warn("launcher", "rank %ld (pid %ld) on host %s runs again, after %.1f s "
                              "stopped", r->rank, (long)r->pid, job->hosts.list[r->host].name,
                              (double)(now - r->stopped_ms) / 1e3);
            }
            r->stopped_ms = 0;
            r->said_stopped = false;
        }
    }
}

/* ---- stopping ------------------------------------------------------------------------ */

static void job_signal_all(struct comm_run_job *job, int signo)
{
    for (long i = 0; i < job->np; i++) {
        struct comm_run_rank *r = &job->ranks[i];

        /* The whole process group: a rank's own children go too.  A reaped rank's group may
         * still hold its orphans. */
        if (r->local && r->pid > 0) {
            kill(-r->pid, signo);
        }
    }
}

static void job_on_grace_expired(evutil_socket_t fd, short what, void *arg)
{
    struct comm_run_job *job = arg;

    (void)fd;
    (void)what;
    job->killed = true;
    job_signal_all(job, SIGKILL);
}

void comm_run_job_stop(struct comm_run_job *job, int signo)
{
    struct timeval grace = {COMM_RUN_GRACE_MS / 1000, (COMM_RUN_GRACE_MS % 1000) * 1000};

    if (job->stopping) {
        if (signo == SIGINT || signo == SIGTERM) {
            job_on_grace_expired(-1, 0, job); /* asked twice: no more grace */
        }
        return;
    }
    job->stopping = true;
    job_signal_all(job, SIGTERM);
    if (job->remote != NULL) {
        comm_run_remote_stop(job);
    }
    if (job->grace_ev == NULL) {
        job->grace_ev = evtimer_new(job->base, job_on_grace_expired, job);
    }
    if (job->grace_ev == NULL || evtimer_add(job->grace_ev, &grace) != 0) {
        job_on_grace_expired(-1, 0, job);
    }
}

/* ---- failures ------------------------------------------------------------------------ */

static long job_count_others_alive(const struct comm_run_job *job, const struct comm_run_rank *r)
{
    long n = 0;

    for (long i = 0; i < job->np; i++) {
        const struct comm_run_rank *o = &job->ranks[i];

        if (o != r && !o->exited && (!o->local || o->pid > 0)) {
            n++;
        }
    }
    return n;
}

/* Records RANK's own failure with STATUS and prints its line. */
static void job_report_failure(struct comm_run_job *job, struct comm_run_rank *r, int status,
                               const char *cause)
{
    long others = job_count_others_alive(job, r);

    r->reported = true;
    if (job->failed_rank < 0 || r->rank < job->failed_rank) {
        job->failed_rank = r->rank;
        job->exit_status = status;
    }
    if (others > 0 && !job->stopping) {
        comm_log_error("launcher", "rank %ld (pid %ld) on host %s %s; stopping %ld other rank%s",
                       r->rank, (long)r->pid, comm_run_rank_host(job, r), cause, others,
                       others == 1 ? "" : "s");
    } else {
        comm_log_error("launcher", "rank %ld (pid %ld) on host %s %s", r->rank, (long)r->pid,
                       comm_run_rank_host(job, r), cause);
    }
}

/* An abort recorded by PMIx's thread and not yet reported.  Call under job->lock. */
static void job_report_abort(struct comm_run_job *job, struct comm_run_rank *r)
{
    char cause[400];

    snprintf(cause, sizeof(cause), "aborted the job (status %d): %s", r->abort_status,
             r->abort_message);
    job_report_failure(job, r, r->abort_status & 0xff, cause);
}

/* The abort that arrived first among those not yet reported.  Call under job->lock. */
static struct comm_run_rank *job_first_abort(struct comm_run_job *job)
{
    struct comm_run_rank *first = NULL;

    for (long i = 0; i < job->np; i++) {
        struct comm_run_rank *r = &job->ranks[i];

        if (r->aborted && !r->reported && (first == NULL || r->abort_seq < first->abort_seq)) {
            first = r;
        }
    }
    return first;
}

/* Reports the first abort not yet reported, unless one was: the later ones came as its effect
 * (the PMIx server fails the fences the peers wait in).  Under job->lock; whether it did. */
static bool job_report_first_abort(struct comm_run_job *job)
{
    struct comm_run_rank *first = job_first_abort(job);

    for (long i = 0; i < job->np && first != NULL; i++) {
        if (job->ranks[i].aborted && job->ranks[i].reported) {
            return false; /* an abort already decided; the rest followed from it */
        }
    }
    if (first == NULL || job->stopping) {
        return false;
    }
    job_report_abort(job, first);
    return true;
}

/* Records an exit; returns whether it is a failure of the rank's own (then reported). */
static bool job_on_exit(struct comm_run_job *job, struct comm_run_rank *r, int wstatus)
{
    char cause[128];
    int status = 0;
    bool failed = false;

    r->exited = true;
    r->wait_status = wstatus;
    if (r->local) {
        job->alive--;
    }
    if (job->opts->agent_host >= 0) {
        /* An agent reports; comm-run applies the failure rules to every host's ranks. */
        comm_run_remote_exit(job, r);
        return false;
    }
    pthread_mutex_lock(&job->lock);
    if (r->aborted) {
        if (!r->reported && !job->stopping) {
            failed = job_report_first_abort(job);
        }
        pthread_mutex_unlock(&job->lock);
        return failed;
    }
    pthread_mutex_unlock(&job->lock);
    if (job->stopping) {
        return false; /* stopped by us, or gone while we stopped the job: not a new failure */
    }
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        snprintf(cause, sizeof(cause), "was killed by signal %d (%s)", sig, strsignal(sig));
        status = 128 + sig;
        failed = true;
    } else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0) {
        snprintf(cause, sizeof(cause), "exited with status %d", WEXITSTATUS(wstatus));
        status = WEXITSTATUS(wstatus);
        failed = true;
    } else if (atomic_load(&r->connected) && !atomic_load(&r->finalized)) {
        snprintf(cause, sizeof(cause), "exited without calling MPI_Finalize");
        status = COMM_RUN_EXIT_FAILURE;
        failed = true;
    }
    if (failed) {
        job_report_failure(job, r, status, cause);
    }
    return failed;
}

/* Reaps every rank that has exited.  The failures of one batch are all recorded before the
 * job is stopped, so the lowest failing rank decides the exit status. */
void comm_run_job_reap(struct comm_run_job *job)
{
    bool failed = false;
    pid_t pid;
    int wstatus;

    while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
        bool rank = false;

        for (long i = 0; i < job->np && !rank; i++) {
            if (job->ranks[i].local && job->ranks[i].pid == pid && !job->ranks[i].exited) {
                failed |= job_on_exit(job, &job->ranks[i], wstatus);
                rank = true;
            }
        }
        if (!rank && job->remote != NULL) {
            comm_run_remote_reaped(job, pid, wstatus);
        }
    }
    if (failed) {
        comm_run_job_stop(job, 0);
    }
    if (job->alive == 0) {
        /* Orphans of the ranks (still in their groups) would hold the output pipes open. */
        job_signal_all(job, SIGKILL);
    }
    comm_run_job_check_done(job);
}

void comm_run_job_process_wake(struct comm_run_job *job)
{
    struct comm_run_fence *fences;
    bool failed = false;

    pthread_mutex_lock(&job->lock);
    fences = job->fences;
    job->fences = NULL;
    if (job->opts->agent_host >= 0) {
        struct comm_run_rank *r;

        /* comm-run applies the rules: it is told of the aborts in the order they came. */
        while (!job->stopping && (r = job_first_abort(job)) != NULL) {
            r->reported = true;
            comm_run_remote_abort(job, r);
        }
    } else {
        failed = job_report_first_abort(job);
    }
    pthread_mutex_unlock(&job->lock);
    if (failed) {
        comm_run_job_stop(job, 0);
    }
    while (fences != NULL) {
        struct comm_run_fence *f = fences;

        fences = f->next;
        if (job->remote != NULL) {
            comm_run_remote_fence(job, f); /* the other hosts' parts join it */
            continue;
        }
        /* One host: this server's part is the whole job's data. */
        comm_pmix_server_fence_complete(f->fence, COMM_OK, f->data, f->len);
        free(f->data);
        free(f);
    }
}

void comm_run_job_remote_exit(struct comm_run_job *job, long rank, long pid, int wstatus,
                              bool connected, bool finalized)
{
    struct comm_run_rank *r = rank >= 0 && rank < job->np ? &job->ranks[rank] : NULL;

    if (r == NULL || r->local || r->exited) {
        return;
    }
    r->pid = (pid_t)pid;
    atomic_store(&r->connected, connected);
    atomic_store(&r->finalized, finalized);
    if (job_on_exit(job, r, wstatus)) {
        comm_run_job_stop(job, 0);
    }
    comm_run_job_check_done(job);
}

void comm_run_job_remote_abort(struct comm_run_job *job, long rank, long pid, int status,
                               const char *message)
{
    struct comm_run_rank *r = rank >= 0 && rank < job->np ? &job->ranks[rank] : NULL;

    if (r == NULL || r->local) {
        return;
    }
    pthread_mutex_lock(&job->lock);
    r->pid = (pid_t)pid;
    r->aborted = true;
    r->abort_status = status;
    r->abort_seq = ++job->aborts;
    snprintf(r->abort_message, sizeof(r->abort_message), "%s", message);
    pthread_mutex_unlock(&job->lock);
    comm_run_job_process_wake(job);
}

void comm_run_job_fail(struct comm_run_job *job, int status)
{
    if (job->failed_rank < 0 && !job->stopping) {
        job->exit_status = status;
    }
    comm_run_job_stop(job, 0);
    comm_run_job_check_done(job);
}

void comm_run_job_check_done(struct comm_run_job *job)
{
    if (job->alive == 0 && job->open_streams == 0 &&
        (job->remote == NULL || comm_run_remote_done(job))) {
        event_base_loopexit(job->base, NULL);
    }
}

/* ---- cleaning up --------------------------------------------------------------------- */

/* Whether this process removes /dev/shm file NAME of the job.  comm-run ends last and removes
 * them all; an agent (whose host may share /dev/shm with others, as simulated hosts do) only
 * those of its own ranks, named after the rank that made them ("...shm.R", "...coll.C.R"). */
static bool job_owns_file(const struct comm_run_job *job, const char *name)
{
    const char *dot = strrchr(name, '.');
    long rank;

    if (job->opts->agent_host < 0) {
        return true;
    }
    if (job->ranks == NULL || dot == NULL ||
        comm_config_parse_long(dot + 1, 0, job->np - 1, &rank) < 0) {
        return false;
    }
    return job->ranks[rank].local;
}

void comm_run_job_remove_files(const struct comm_run_job *job)
{
    size_t n = strlen(job->nspace);
    DIR *d = opendir("/dev/shm");
    struct dirent *e;

    /* Shared-memory files of the job are named after it: "<nspace>" or "<nspace>.*". */
    if (d == NULL) {
        return;
    }
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, job->nspace, n) == 0 &&
            (e->d_name[n] == '\0' || e->d_name[n] == '.') && job_owns_file(job, e->d_name)) {
            if (unlinkat(dirfd(d), e->d_name, 0) != 0 && errno != ENOENT) {
                comm_log_warn("launcher", "cannot remove /dev/shm/%s: %s", e->d_name,
                              strerror(errno));
            }
        }
    }
    closedir(d);
}
