/*
 * comm_run.h - comm-run, the launcher: its options, its job, and how the parts meet.
 *
 * Layer: launcher (the top; a program, not part of libcomm).
 * Must not: call PMIx directly (pmix-glue/pmix_server.h does), or link against libcomm's API.
 *
 * Threads: everything runs on the main thread's libevent loop, except the PMIx callbacks
 * (comm_run.c), which run on PMIx's thread, record what happened in `struct comm_run_rank`
 * fields marked "atomic" or under `lock`, and wake the loop with `wake_ev`.
 */
#ifndef COMM_RUN_H
#define COMM_RUN_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "runtime/config_table.h"

struct event_base;
struct event;
struct evbuffer;
struct comm_pmix_fence;

enum comm_run_bind {
    COMM_RUN_BIND_DEFAULT, /* to cores when the ranks fit, else not at all */
    COMM_RUN_BIND_CORE,
    COMM_RUN_BIND_NONE,
};

enum comm_run_action {
    COMM_RUN_ACTION_RUN,
    COMM_RUN_ACTION_HELP,
    COMM_RUN_ACTION_VERSION,
};

/* Exit statuses of comm-run besides a rank's own. */
enum {
    COMM_RUN_EXIT_USAGE = 2,     /* bad command line, nothing started */
    COMM_RUN_EXIT_FAILURE = 1,   /* comm-run itself failed, or a rank left without finalizing */
    COMM_RUN_EXIT_TIMEOUT = 110, /* --timeout / MPIEXEC_TIMEOUT expired */
};

enum { COMM_RUN_MAX_PROCS = 1048576, COMM_RUN_MAX_TIMEOUT = 31536000 };

/* The parsed command line.  `exports` points into argv. */
struct comm_run_options {
    enum comm_run_action action;
    long np; /* -1: not given */
    enum comm_run_bind bind;
    bool report_bindings;
    bool tag_output;
    long timeout; /* seconds; 0: none; -1: not given on the command line */
    size_t nexports;
    const char **exports; /* -x arguments, as given */
    int program_index;  /* argv index of the program */
};

/* Settings comm-run reads (MPIEXEC_TIMEOUT), for comm-info and the environment check. */
extern const struct comm_setting_table comm_run_settings;

/*
 * Parses comm-run's command line.  On a usage error writes one line (no program name, no
 * newline) to err_out and returns COMM_ERR_BAD_PARAM.  The returned `exports` array is
 * malloc'ed (free it with comm_run_options_free).
 */
int comm_run_options_parse(int argc, char **argv, struct comm_run_options *opts_out,
                           char *err_out, size_t len);
void comm_run_options_free(struct comm_run_options *opts);

/*
 * The timeout in force: --timeout if given, else MPIEXEC_TIMEOUT (ENV_VALUE, may be NULL),
 * else none (0).  A malformed MPIEXEC_TIMEOUT is a usage error written to err_out.
 */
int comm_run_options_timeout(const struct comm_run_options *opts, const char *env_value,
                             long *timeout_out, char *err_out, size_t len);

/* Writes "0-3,5,7-8" for the sorted ranks, cut with "..." if it does not fit. */
void comm_run_format_ranks(const long *ranks, size_t n, char *out, size_t len);

/* One rank of the job. */
struct comm_run_rank {
    struct comm_run_job *job;
    long rank;
    pid_t pid; /* 0 before fork; the rank's process group has the same id */
    int out_fd;
    int err_fd;
    struct event *out_ev;
    struct event *err_ev;
    struct evbuffer *out_buf; /* bytes of an unfinished line */
    struct evbuffer *err_buf;
    bool bound;
    int core; /* core index it is bound to, when bound */
    cpu_set_t cpus;
    bool exited;
    int wait_status;
    bool reported; /* its failure was reported */
    atomic_bool connected; /* atomic: set by PMIx's thread */
    atomic_bool finalized; /* atomic */
    bool aborted;          /* under job lock */
    int abort_status;      /* under job lock */
    char abort_message[256]; /* under job lock */
};

/* The job comm-run runs.  Owned by main(). */
struct comm_run_job {
    const struct comm_run_options *opts;
    struct event_base *base;
    char nspace[64];
    char tmpdir[PATH_MAX];
    char host[256];
    const char *program; /* resolved path */
    char **argv;         /* program and its arguments */
    long np;
    long timeout;
    struct comm_run_rank *ranks;
    long alive;        /* ranks not yet reaped */
    long open_streams; /* stdout/stderr pipes not yet at EOF */
    bool stopping;     /* TERM was sent; nothing counts as a new failure */
    bool killed;       /* KILL was sent */
    int exit_status;
    long failed_rank; /* lowest rank that failed on its own; -1: none */
    struct event *wake_ev;
    struct event *grace_ev;
    struct event *timeout_ev;
    struct event *signal_evs[4];
    /* rank 0's stdin */
    int stdin_fd;       /* write end of rank 0's stdin pipe, -1 when not forwarding */
    struct event *stdin_read_ev;
    struct event *stdin_write_ev;
    struct evbuffer *stdin_buf;
    bool stdin_eof;
    pthread_mutex_t lock; /* guards the abort fields and `fences` */
    struct comm_run_fence *fences;
};

/* A fence handed over by the PMIx server, waiting for the loop. */
struct comm_run_fence {
    struct comm_run_fence *next;
    struct comm_pmix_fence *fence;
    size_t len;
    char *data;
};

/* comm_run_bind.c: decides and reports where each rank runs. */
int comm_run_bind_plan(struct comm_run_job *job, enum comm_run_bind mode, bool report);
/* Number of cores this process may use (at least 1). */
long comm_run_bind_ncores(void);

/* comm_run_io.c: stdout/stderr of the ranks, stdin of rank 0. */
int comm_run_io_setup_rank(struct comm_run_job *job, struct comm_run_rank *r, int *child_out,
                           int *child_err);
int comm_run_io_setup_stdin(struct comm_run_job *job, int *child_in);
void comm_run_io_close_child_ends(int child_in, int child_out, int child_err);
void comm_run_io_shutdown(struct comm_run_job *job);

/* comm_run_job.c: starting, watching and stopping the ranks. */
int comm_run_job_start(struct comm_run_job *job);
void comm_run_job_stop(struct comm_run_job *job, int signo);
void comm_run_job_process_wake(struct comm_run_job *job);
void comm_run_job_reap(struct comm_run_job *job);
void comm_run_job_check_done(struct comm_run_job *job);
void comm_run_job_remove_files(const struct comm_run_job *job);

#endif
