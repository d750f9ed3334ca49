/*
 * comm_run_wire.h - the messages between comm-run and its agents (see comm_run_wire.c).
 *
 * Layer: launcher.
 */
#ifndef COMM_RUN_WIRE_H
#define COMM_RUN_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bufferevent;

/* Message types.  Agent to comm-run: HELLO, STARTED, EXIT, ABORT, FENCE, DONE, PING.
 * comm-run to agent: JOB, FENCE_DONE, STOP, PING. */
enum comm_run_msg {
    COMM_RUN_MSG_HELLO = 1,      /* host index, secret */
    COMM_RUN_MSG_JOB = 2,        /* everything the agent needs to start its ranks */
    COMM_RUN_MSG_STARTED = 3,    /* the agent's ranks are running (or: status, message) */
    COMM_RUN_MSG_EXIT = 4,       /* rank, pid, wait status, connected, finalized */
    COMM_RUN_MSG_ABORT = 5,      /* rank, pid, status, message */
    COMM_RUN_MSG_FENCE = 6,      /* this host's part of a fence */
    COMM_RUN_MSG_FENCE_DONE = 7, /* the whole job's data */
    COMM_RUN_MSG_STOP = 8,       /* stop the ranks: TERM, then KILL after the grace time */
    COMM_RUN_MSG_DONE = 9,       /* every rank of the host has exited and its output is out */
    COMM_RUN_MSG_PING = 10,      /* keeps the other side from thinking this one is gone; how
                                  * many of its messages this side took */
    COMM_RUN_MSG_RESUMED = 11,   /* comm-run to an agent that connected again: how many of
                                  * its messages comm-run took */
};

/* The largest message body (a fence carries every rank's business card). */
enum { COMM_RUN_WIRE_MAX = 1 << 30 };

/* A message being built. */
struct comm_run_wire {
    char *buf;
    size_t len, cap;
    bool failed; /* out of memory: sending it fails */
};

void comm_run_wire_init(struct comm_run_wire *w);
void comm_run_wire_u64(struct comm_run_wire *w, uint64_t v);
void comm_run_wire_bytes(struct comm_run_wire *w, const void *data, size_t len);
void comm_run_wire_str(struct comm_run_wire *w, const char *s);
/* Queues the message (W may be NULL for an empty body) and frees W's buffer. */
int comm_run_wire_send(struct bufferevent *bev, uint32_t type, struct comm_run_wire *w);

/* A message received. */
struct comm_run_reader {
    char *data;
    size_t len, pos;
    bool bad; /* read past the end: the message is malformed */
};

/* Takes the next complete message from BEV's input: 1 (then free R with
 * comm_run_reader_free), 0 when none is complete yet, or a negative status. */
int comm_run_wire_next(struct bufferevent *bev, uint32_t *type_out, struct comm_run_reader *r);
uint64_t comm_run_read_u64(struct comm_run_reader *r);
const char *comm_run_read_bytes(struct comm_run_reader *r, size_t *len_out);
char *comm_run_read_str(struct comm_run_reader *r); /* malloc'ed; NULL when malformed */
void comm_run_reader_free(struct comm_run_reader *r);

#endif
