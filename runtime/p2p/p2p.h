/*
 * p2p.h - point-to-point protocols: the peers, the messages on the wire, sending and receiving
 * (the progress engine they wait with is progress.h).
 *
 * Layer: runtime core, above the btls.  Must not: check MPI arguments (the API does) or
 * know any btl's internals.
 *
 * Protocols, chosen per message by its packed size against the serving btl's eager limit:
 *   eager        EAGER (header + payload in one fragment); the send completes at once.
 *   eager sync   EAGER_SYNC; the receiver answers ACK when it matches; the send completes then.
 *   rendezvous   RTS (header + the sender's address); the receiver, once matched, reads the
 *                data with the btl's get (one copy: CMA inside a host) and answers FIN.
 *                When the btl cannot read peer memory, the receiver answers CTS instead and
 *                the sender streams DATA fragments through the btl (the pipelined copy).
 *                Up to the btl's write_max bytes the receiver answers CTW (its registered
 *                buffer) and the sender writes the data with put_start: no FIN (p2p.c).
 * Ordering: match-carrying fragments (EAGER, EAGER_SYNC, RTS) to a peer leave in the order
 * the sends started (a per-peer queue holds them while the transport is full), and btls keep
 * order, so MPI's non-overtaking rule holds.
 *
 * Threads: every function here takes the core lock itself (runtime/thread.h), and may be
 * called from any thread; comm_p2p_proc wants it held by the caller.
 */
#ifndef COMM_P2P_H
#define COMM_P2P_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btl/btl.h"
#include "include/mpi.h"
#include "base/config_table.h"
#include "runtime/p2p/progress.h"
#include "runtime/p2p/request.h"

struct comm_btl_endpoint;
struct comm_communicator;
struct comm_datatype;
struct comm_unexpected;

/* A control fragment waiting for room in a transport. */
struct comm_p2p_ctl_pending;

/* One peer (world rank): how to reach it and what waits to go there. */
struct comm_proc {
    long rank;
    struct comm_btl_endpoint *ep;
    struct comm_request *send_head; /* sends waiting to go out, in order */
    struct comm_request *send_tail;
    struct comm_p2p_ctl_pending *ctl_head; /* control fragments waiting for room */
    struct comm_p2p_ctl_pending *ctl_tail;
    bool in_busy_list;
    struct comm_proc *busy_next; /* in the list of peers with something waiting */
    int rndv_out;                /* our rendezvous sends to this peer that it has not read yet */
    int writes_offered;          /* our memory offered to this peer (CTW) and not yet written */
};

/* Sets up the peer table and connects every peer (after the address fence).  LOCAL_PEERS
 * are the world ranks on this host. */
int comm_p2p_init(long rank, long size, const long *local_peers, size_t nlocal);

/* The function every btl hands its fragments to. */
comm_btl_recv_fn comm_p2p_receiver(void);

/* The function every btl hands the tokens of writes that ended here to (with the receiver,
 * before the btls open). */
comm_btl_written_fn comm_p2p_written(void);

/* Waits until nothing is left to send, then releases the peers (before the last fence). */
int comm_p2p_finalize(void);

/* COMM_TIMEOUT_MS: says in warnings, one a peer, what this rank waits for from whom. */
void comm_p2p_report_waits(void);

/* The peer table entry of a world rank. */
struct comm_proc *comm_p2p_proc(long world_rank);

/*
 * Starts a send/receive described by REQ (fields comm, dt, buf, count, peer, tag, mode set;
 * peer is not MPI_PROC_NULL).  Completion is reported through the request.
 */
int comm_p2p_start_send(struct comm_request *req);
int comm_p2p_start_recv(struct comm_request *req);

/* Receives a message taken by MPI_Mprobe into REQ (a receive request).  Takes ownership of
 * MSG. */
int comm_p2p_start_mrecv(struct comm_request *req, struct comm_unexpected *msg);

/* Cancels REQ if it has not matched (receive) or not left (send); true when cancelled. */
bool comm_p2p_cancel(struct comm_request *req);

/* Looks for a message matching (source, tag) on COMM without receiving it; with TAKE it is
 * removed for MPI_Mrecv and returned in *msg_out.  COMM_ERR_NOT_FOUND when none. */
int comm_p2p_probe(struct comm_communicator *comm, int source, int tag, bool take,
                   struct comm_unexpected **msg_out, MPI_Status *status_out);

/* comm_p2p_probe until a message matches (the blocking MPI_Probe and MPI_Mprobe). */
void comm_p2p_probe_wait(struct comm_communicator *comm, int source, int tag, bool take,
                         struct comm_unexpected **msg_out, MPI_Status *status_out);

#endif
