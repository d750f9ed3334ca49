/*
 * request.h - requests: the state of one nonblocking operation, from start to completion.
 *
 * Layer: runtime core.  Must not: check MPI arguments (the API does).
 *
 * Ownership: a request is allocated by the operation that starts it and freed when it has
 * completed and is no longer referenced: by the user (MPI_Wait/Test, MPI_Request_free) and
 * by the protocol (a send stays referenced until the receiver's answer arrives, even after
 * MPI_Request_free).  Persistent requests survive completion and are freed only by
 * MPI_Request_free.  Datatypes and communicators used by an active request are retained.
 *
 * Threads: a request's protocol state is guarded by the core lock (runtime/thread.h); the
 * functions here take it where they need it.  Its owner may read whether it completed with
 * comm_request_is_complete at any time, without the lock, and then its status and error.
 */
#ifndef COMM_REQUEST_H
#define COMM_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/mpi.h"
#include "runtime/p2p/match.h"

struct comm_communicator;
struct comm_datatype;
struct comm_proc;

enum comm_request_kind {
    COMM_REQUEST_SEND,
    COMM_REQUEST_RECV,
    COMM_REQUEST_COLL,        /* a nonblocking collective (or MPI_Comm_idup), run by its schedule */
    COMM_REQUEST_GENERALIZED, /* MPI_Grequest_start: the user completes it (api/grequest.c) */
};

enum comm_send_mode {
    COMM_SEND_STANDARD,
    COMM_SEND_SYNC,
    COMM_SEND_READY,
    COMM_SEND_BUFFERED,
};

/* Where a send or receive is in its protocol. */
enum comm_request_state {
    COMM_REQUEST_INACTIVE,  /* persistent, not started */
    COMM_REQUEST_QUEUED,    /* send: waiting in its peer's queue to go out; recv: posted */
    COMM_REQUEST_WAIT_ACK,  /* send: eager-sync sent, waiting for the match */
    COMM_REQUEST_WAIT_FIN,  /* send: RTS sent, waiting for the receiver to read */
    COMM_REQUEST_STREAM,    /* send: copying fragments through the transport (after CTS) */
    COMM_REQUEST_WRITING,   /* send: writing into the receiver's memory (after CTW) */
    COMM_REQUEST_RECEIVING, /* recv: matched, data arriving in fragments */
    COMM_REQUEST_SHARED,    /* recv: matched, shared out, waiting for the sender's part */
    COMM_REQUEST_READING,   /* recv: matched, the transport reading it (get_start) */
    COMM_REQUEST_OFFERED,   /* recv: matched, its memory offered to the sender, who writes */
    COMM_REQUEST_DONE,
};

struct comm_request {
    enum comm_request_kind kind;
    enum comm_request_state state;
    bool complete; /* visible to MPI_Test */
    bool persistent;
    bool user_freed; /* MPI_Request_free on an active request: free it on completion */
    bool cancelled;
    int error; /* MPI error code of the operation, MPI_SUCCESS if none */
    MPI_Status status;

    /* What the user asked for. */
    struct comm_communicator *comm;
    struct comm_datatype *dt;
    void *buf;
    MPI_Count count;
    int peer; /* rank in comm, MPI_ANY_SOURCE, or MPI_PROC_NULL */
    int tag;
    enum comm_send_mode mode;
    bool collective; /* travels on the communicator's collective context */

    /* Protocol state. */
    struct comm_proc *proc; /* send: the destination */
    size_t len;             /* packed bytes of the message (send) or capacity (recv) */
    size_t done;            /* bytes moved so far */
    size_t want;            /* recv: bytes to receive (min of message and capacity) */
    size_t msg_len;         /* recv: bytes the sender sent */
    void *bounce;           /* send: packed copy of non-contiguous data for the reader; receive: the
                             * message read whole before it is unpacked (a striped read) */
    struct comm_btl_key rndv_key; /* send: the transport's registration of what the peer reads */
    bool rndv_registered;         /* send: rndv_key holds a registration to release */
    uint64_t peer_req;            /* the other side's request id */
    long read_peer;               /* recv, READING or OFFERED: the sender's world rank */
    uint32_t write_token;         /* recv, OFFERED: names it to the transport (p2p.c) */
    /* recv, shared out (COMM_REQUEST_SHARED): the sender writes [split, want); offered
     * (COMM_REQUEST_OFFERED): split 0, and the sender writes all of it */
    long split_peer;               /* the sender's world rank */
    size_t split;                  /* where the sender's part starts */
    uint64_t split_addr;           /* the sender's registration, to read its part if it cannot */
    struct comm_btl_key split_key; /*   write it */
    struct comm_btl_key split_own_key; /* this side's registration of [split, want), for the put */
    int split_rc;                      /* how reading this side's part went (a comm status) */
    struct comm_posted posted;         /* recv: its place in the posted queue */
    struct comm_request *queue_next;   /* send: in its peer's send queue */
    void *bsend_block;                 /* buffered send: its block of the attached buffer */
    void *coll;                        /* COLL: the schedule, freed with the request by coll_free;
                                          GENERALIZED: the user's callbacks (api/grequest.c) */
    void (*coll_free)(void *coll);
    /* Called by comm_request_complete, with the core lock held, once the request has
     * completed (before it may be freed): the one-sided layer counts its operations so. */
    void (*on_complete)(struct comm_request *req);
    void *on_complete_ctx;
};

/* A new request with its fields zeroed; NULL when out of memory. */
struct comm_request *comm_request_alloc(enum comm_request_kind kind);

/* Marks REQ complete with MPI error code ERROR; frees it if the user already let it go. */
void comm_request_complete(struct comm_request *req, int error);

/* Frees the request object and the references it holds. */
void comm_request_free(struct comm_request *req);

/* MPI_Request_free: frees REQ now if it is complete or an inactive persistent request (and
 * returns true), or else has the engine free it when it completes. */
bool comm_request_user_free(struct comm_request *req);

/* Whether REQ has completed; once true, its status and error are final.  Any thread. */
static inline bool comm_request_is_complete(const struct comm_request *req)
{
    return __atomic_load_n(&req->complete, __ATOMIC_ACQUIRE);
}

/* The request behind a handle (the handle is the pointer); NULL for MPI_REQUEST_NULL. */
struct comm_request *comm_request_lookup(MPI_Request handle);

/* Byte count kept in a status, and the cancelled flag. */
void comm_status_set_bytes(MPI_Status *status, MPI_Count bytes);
MPI_Count comm_status_bytes(const MPI_Status *status);
void comm_status_set_cancelled(MPI_Status *status, bool cancelled);
bool comm_status_cancelled(const MPI_Status *status);

/* The empty status: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, no bytes, not cancelled. */
void comm_status_set_empty(MPI_Status *status);

#endif
