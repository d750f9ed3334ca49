/*
 * comm_run_remote.h - what comm-run's side of a job across hosts (comm_run_remote.c) and an
 * agent's side (comm_run_agent.c) share: the link between them, the handshake's blocking I/O,
 * and losing a link.
 *
 * Layer: launcher, private to those two files.  The protocol is described at the top of
 * comm_run_remote.c.
 */
#ifndef COMM_RUN_REMOTE_H
#define COMM_RUN_REMOTE_H

#include "launcher/comm_run.h"
#include "launcher/comm_run_wire.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

struct bufferevent;
struct event;

enum {
    COMM_RUN_REMOTE_CONNECT_S = 30, /* agents must have connected and proved the secret */
    COMM_RUN_REMOTE_SECRET_LEN = 32,
    COMM_RUN_REMOTE_EXIT_WAIT_MS = 5000, /* how long agents that are done get to exit */
};

/* One agent, as comm-run sees it; or comm-run, as an agent sees it (host -1). */
struct comm_run_link {
    struct comm_run_job *job;
    long host;
    int fd;
    struct bufferevent *bev;
    pid_t launcher;    /* comm-run: the launch command's process; 0 once reaped */
    bool hello;        /* proved the secret */
    bool done;         /* said DONE (comm-run) / sent DONE (agent) */
    bool gone;         /* connection lost or silent */
    bool suspected;    /* silent for COMM_HEARTBEAT_MISSES heartbeats, said in a warning */
    uint64_t heard_ms; /* last message (comm_run_now_ms) */
    /* Across a lost connection (comm_run_remote.c, "Reconnection"): messages other than PING
     * are numbered, SENT of ours and RECEIVED of the other side's, and ours are KEPT until a
     * PING says the other side has them.  BROKEN_MS: the connection was lost then (BROKEN_WHY
     * says how) and not made again yet (0: connected). */
    uint64_t sent;
    uint64_t received;
    struct comm_run_kept *kept, **kept_tail;
    uint64_t broken_ms;
    char broken_why[64];
    struct comm_run_part *parts, **parts_tail; /* comm-run: its fence parts not yet used */
    /* What this side does with one message from the other (comm_run_remote.c for comm-run's
     * links to the agents, comm_run_agent.c for an agent's link to comm-run). */
    void (*on_message)(struct comm_run_link *l, uint32_t type, struct comm_run_reader *r);
};

/* One host's part of a fence. */
/* A message kept until the other side has it: its number and its bytes, header included. */
struct comm_run_kept {
    struct comm_run_kept *next;
    uint64_t seq;
    size_t len;
    char bytes[];
};

struct comm_run_part {
    struct comm_run_part *next;
    char *data;
    size_t len;
};

struct comm_run_remote {
    struct comm_run_link *links; /* comm-run: one per host (unused for its own and empty hosts) */
    size_t nlinks;
    struct comm_run_link *coord; /* an agent: its link to comm-run */
    struct event *ping_ev;
    /* comm-run: its own fences waiting for the other hosts; an agent: fences sent up. */
    struct comm_run_fence *fences, **fences_tail;
    int listen_fd; /* comm-run: where agents connect again */
    struct event *accept_ev;
    char secret[2 * COMM_RUN_REMOTE_SECRET_LEN + 1]; /* the job's, to connect again */
    const char *agent_connect;                       /* ... to this "A,B:PORT" */
    struct comm_run_options agent_opts; /* an agent: the options comm-run sent */
    char **agent_strings;               /* an agent: what agent_opts points into */
    size_t nagent_strings;
};

/* Sets FD blocking or not; -1 on failure. */
int comm_run_remote_nonblocking(int fd, bool on);

/* Blocking I/O of LEN bytes with a deadline, for the handshake: COMM_OK, COMM_ERR_TIMEOUT or
 * COMM_ERR_UNREACHABLE. */
int comm_run_remote_io_all(int fd, void *buf, size_t len, bool writing, time_t deadline);

/* Adds the interface of FD's local address to the comma list LIST (once): the interfaces the
 * job's hosts reach each other through (COMM_NET_INTERFACES). */
void comm_run_remote_note_interface(int fd, char *list, size_t len);

/* Takes the other side of L for gone (WHY says how it went): comm-run fails the job naming the
 * host, an agent stops its ranks. */
void comm_run_remote_lost(struct comm_run_link *l, const char *why);

/* Sends message TYPE with body W (NULL: none) to L's other side, numbered and kept until it
 * has it (PING: with how many of its messages this side took, not kept); written at once when
 * connected, else when the connection is made again.  W is emptied. */
int comm_run_remote_send(struct comm_run_link *l, uint32_t type, struct comm_run_wire *w);

/* Takes FD, a connection made again, as L's: writes again what L's other side lacks (it took
 * TOOK of ours) and says so.  COMM_OK, or a status (FD closed). */
int comm_run_remote_resume(struct comm_run_link *l, int fd, uint64_t took);

/* An agent: connects to comm-run again (from the ping timer while its link is broken);
 * comm_run_agent.c. */
void comm_run_agent_reconnect(struct comm_run_job *job);

#endif
