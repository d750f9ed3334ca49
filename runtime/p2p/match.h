/*
 * match.h - the matching queues of a communicator: receives waiting for messages, and
 * messages waiting for receives.
 *
 * Layer: runtime core.  Matching lives only here, whatever transport brought the message, so
 * MPI_ANY_SOURCE works across transports.
 * Must not: move data, talk to transports or complete requests (p2p.c does).
 *
 * Order: both queues are FIFO.  A message matches the oldest posted receive whose source and
 * tag accept it; a new receive matches the oldest waiting message it accepts.  Transports
 * deliver each sender's messages in order, so this gives MPI's non-overtaking rule.
 *
 * Threads: the caller holds the core lock (runtime/thread.h).
 */
#ifndef COMM_MATCH_H
#define COMM_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btl/btl.h"

struct comm_communicator;

/* A message that arrived before its receive was posted.  Owned by the queue while queued, by
 * the MPI_Message handle after MPI_Mprobe. */
struct comm_unexpected {
    struct comm_unexpected *next;
    struct comm_unexpected *prev;
    struct comm_communicator *comm; /* set by MPI_Mprobe */
    int src;                        /* rank in the communicator */
    int tag;
    long peer;     /* world rank it came from */
    int type;      /* the protocol header type it arrived with */
    uint64_t len;  /* bytes of the whole message */
    uint64_t sreq; /* the sender's request, for protocols that answer it */
    uint64_t addr;
    struct comm_btl_key key; /* RTS: the sender's registration of ADDR */
    uint32_t key_context;    /* the context it came on, while parked (communicator.c) */
    size_t data_len;         /* payload carried with it (eager) */
    char data[];
};

/* A posted receive, embedded in the request that owns it. */
struct comm_posted {
    struct comm_posted *next;
    struct comm_posted *prev;
    int src; /* rank or MPI_ANY_SOURCE */
    int tag; /* tag or MPI_ANY_TAG */
};

struct comm_match_queues {
    struct comm_posted *posted_head;
    struct comm_posted *posted_tail;
    struct comm_unexpected *unexpected_head;
    struct comm_unexpected *unexpected_tail;
};

/* Whether a receive for (want_src, want_tag) accepts a message from src with tag. */
bool comm_match_accepts(int want_src, int want_tag, int src, int tag);

/* Appends a receive to the posted queue. */
void comm_match_post(struct comm_match_queues *q, struct comm_posted *p);

/* Removes a posted receive (cancel); returns whether it was queued. */
bool comm_match_unpost(struct comm_match_queues *q, struct comm_posted *p);

/* The oldest posted receive accepting (src, tag), removed from the queue; NULL if none. */
struct comm_posted *comm_match_take_posted(struct comm_match_queues *q, int src, int tag);

/* A message record with room for PAYLOAD bytes; small ones come from a cache.  NULL when out
 * of memory. */
struct comm_unexpected *comm_match_unexpected_alloc(size_t payload);

/* Gives a record back. */
void comm_match_unexpected_free(struct comm_unexpected *u);

/* Appends a message to the unexpected queue. */
void comm_match_add_unexpected(struct comm_match_queues *q, struct comm_unexpected *u);

/* Removes a message from the unexpected queue. */
void comm_match_remove_unexpected(struct comm_match_queues *q, struct comm_unexpected *u);

/* The oldest waiting message accepted by (want_src, want_tag); removed when TAKE. */
struct comm_unexpected *comm_match_find_unexpected(struct comm_match_queues *q, int want_src,
                                                   int want_tag, bool take);

/* Frees every waiting message (at finalize); returns how many there were. */
size_t comm_match_drain(struct comm_match_queues *q);

#endif
