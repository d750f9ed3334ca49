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
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>

#include "base/config_table.h"

struct event_base;
struct event;
struct evbuffer;
struct comm_pmix_fence;

enum comm_run_bind {
    COMM_RUN_BIND_DEFAULT, /* to cores when the ranks fit, else not at all */
    COMM_RUN_BIND_CORE,
    COMM_RUN_BIND_NONE,
};

enum comm_run_map {
    COMM_RUN_MAP_SLOT, /* fill each host's slots before the next host */
    COMM_RUN_MAP_NODE, /* one rank per host in turn */
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
    /* Heartbeats between comm-run and its agents (COMM_HEARTBEAT_*): one every INTERVAL_MS;
     * a side silent for MISSES of them is suspected, for LOST_MS lost. */
    long heartbeat_ms;
    long heartbeat_misses;
    long heartbeat_lost_ms;
    size_t nexports;
    const char **exports; /* -x arguments, as given */
    int program_index;  /* argv index of the program */
    /* Hosts (NULL when not given: this host only). */
    const char *host_list;    /* --host */
    const char *hostfile;     /* --hostfile */
    long ppn;                 /* -N/--ppn; 0: by slots */
    enum comm_run_map map_by; /* --map-by */
    bool display_map;
    const char *launch_agent; /* --launch-agent, default "ssh" */
    const char *topo_file;    /* --topo, or NULL */
    /* Internal: comm-run started on a remote host as the agent of host AGENT_HOST, connecting
     * back to AGENT_CONNECT ("ADDR[,ADDR...]:PORT"). */
    long agent_host; /* -1: not an agent */
    const char *agent_connect;
};

/* A host of the job. */
struct comm_run_host {
    char name[256];
    long slots;
    long nranks; /* ranks mapped to it */
};

/* The job's hosts, in the order given. */
struct comm_run_hosts {
    struct comm_run_host *list;
    size_t n;
    long own; /* comm-run's own host among them, -1: none */
};

/* comm_run_hosts.c: --host "h0:2,h1", --hostfile lines "h slots=N" or "h:N"; a name given twice
 * adds up its slots.  Errors (naming the option or file:line) are written to ERR. */
int comm_run_hosts_parse_list(struct comm_run_hosts *h, const char *list, char *err, size_t len);
int comm_run_hosts_parse_file(struct comm_run_hosts *h, const char *path, char *err, size_t len);
/* Finds comm-run's own host (HOSTNAME, localhost, or the network namespace it runs in) and maps
 * NP_GIVEN ranks (<= 0: every slot, or PPN per host) to the hosts. */
int comm_run_hosts_map(struct comm_run_hosts *h, const char *hostname, long np_given, long ppn,
                       enum comm_run_map map_by, long **rank_host_out, long *np_out, char *err,
                       size_t len);
/* --display-map: one line per host with its ranks, on stdout. */
void comm_run_hosts_display(const struct comm_run_hosts *h, const long *rank_host, long np);
void comm_run_hosts_free(struct comm_run_hosts *h);

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
    long host;  /* index in job->hosts */
    bool local; /* runs on this host (started and watched here) */
    long local_rank; /* among the job's ranks on its host */
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
    uint64_t stopped_ms; /* when it was first seen stopped (state T or t); 0: running */
    bool said_stopped;   /* a warning said so */
    bool aborted;          /* under job lock */
    int abort_status;      /* under job lock */
    unsigned long abort_seq; /* under job lock: the order in which aborts arrived, from 1 */
    char abort_message[256]; /* under job lock */
};

/* The job comm-run runs.  Owned by main(). */
struct comm_run_job {
    const struct comm_run_options *opts;
    struct event_base *base;
    char nspace[256]; /* PMIx names a namespace in 256 bytes (pmix_nspace_t) and reads so many */
    char tmpdir[PATH_MAX];
    char host[256];
    const char *program; /* resolved path */
    char **argv;         /* program and its arguments */
    long np;
    long timeout;
    struct comm_run_rank *ranks;
    struct comm_run_hosts hosts; /* one (this host) without --host/--hostfile */
    long *rank_host;             /* host index of each rank */
    long this_host;              /* this process's host among them; -1: none */
    long local_np;               /* ranks on this host */
    char net_interfaces[256];    /* COMM_NET_INTERFACES of the local ranks */
    struct comm_run_remote *remote; /* the agents (comm-run) or comm-run (an agent); NULL */
    long alive;        /* local ranks not yet reaped */
    long open_streams; /* stdout/stderr pipes not yet at EOF */
    bool stopping;     /* TERM was sent; nothing counts as a new failure */
    bool killed;       /* KILL was sent */
    int exit_status;
    long failed_rank; /* lowest rank that failed on its own; -1: none */
    struct event *wake_ev;
    struct event *grace_ev;
    struct event *timeout_ev;
    struct event *watch_ev; /* every heartbeat: the local ranks' process states */
    struct event *signal_evs[4];
    /* rank 0's stdin */
    int stdin_fd;       /* write end of rank 0's stdin pipe, -1 when not forwarding */
    struct event *stdin_read_ev;
    struct event *stdin_write_ev;
    struct evbuffer *stdin_buf;
    bool stdin_eof;
    pthread_mutex_t lock; /* guards the abort fields and `fences` */
    unsigned long aborts; /* under lock: aborts recorded so far */
    struct comm_run_fence *fences;
};

/* The host name of rank R. */
static inline const char *comm_run_rank_host(const struct comm_run_job *job,
                                             const struct comm_run_rank *r)
{
    return job->hosts.list[r->host].name;
}

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
/* Milliseconds of the monotonic clock. */
uint64_t comm_run_now_ms(void);
/* The period of the heartbeats (COMM_HEARTBEAT_MS), for a timer. */
struct timeval comm_run_heartbeat(const struct comm_run_options *opts);
/* Looks at the process state of this host's ranks: one stopped (SIGSTOP, a debugger) at two
 * looks in a row is said in a warning naming rank, pid and host, and another says when it runs
 * again.  Called every heartbeat. */
void comm_run_job_watch_states(struct comm_run_job *job);
void comm_run_job_remove_files(const struct comm_run_job *job);
/* What an agent reports of a rank of its host (comm-run applies the failure rules). */
void comm_run_job_remote_exit(struct comm_run_job *job, long rank, long pid, int wstatus,
                              bool connected, bool finalized);
void comm_run_job_remote_abort(struct comm_run_job *job, long rank, long pid, int status,
                               const char *message);
/* Ends the job because of something else than a rank (a lost agent): STATUS unless a rank
 * failed first. */
void comm_run_job_fail(struct comm_run_job *job, int status);

/* comm_run_remote.c and comm_run_agent.c: the agents of the other hosts (in comm-run), and
 * comm-run (in an agent).  comm-run: starts one agent per other host with ranks, through
 * --launch-agent, and waits until each has connected back and proved the job's secret; then
 * sends each its part of the job. */
int comm_run_remote_launch(struct comm_run_job *job);
/* An agent (comm_run_agent.c): connects back to comm-run, proves the secret, and receives its
 * part of the job (fills JOB and OPTS_OUT, whose strings it keeps). */
int comm_run_agent_join(struct comm_run_job *job, const struct comm_run_options *opts,
                        struct comm_run_options *opts_out);
/* Both: moves the connections onto the event loop (after it is set up). */
int comm_run_remote_attach(struct comm_run_job *job);
/* Both: the job is stopping (comm-run tells the agents). */
void comm_run_remote_stop(struct comm_run_job *job);
/* Both: a fence of this host's ranks, with this host's data. */
void comm_run_remote_fence(struct comm_run_job *job, struct comm_run_fence *f);
/* An agent: a rank of this host exited, or asked to abort. */
void comm_run_remote_exit(struct comm_run_job *job, const struct comm_run_rank *r);
void comm_run_remote_abort(struct comm_run_job *job, const struct comm_run_rank *r);
/* Whether the remote side lets the job end (comm-run: every agent said it is done, or is gone;
 * an agent: it has told comm-run it is done). */
bool comm_run_remote_done(struct comm_run_job *job);
void comm_run_remote_free(struct comm_run_job *job);
/* comm-run: a child that is not a rank exited (an agent's launch command). */
void comm_run_remote_reaped(struct comm_run_job *job, pid_t pid, int wstatus);

/* libevent's log callback (event_set_log_callback): its errors as warnings, the rest at info
 * (comm_run_evlog.c). */
void comm_run_libevent_log(int severity, const char *msg);

#endif
