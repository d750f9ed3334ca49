/*
 * btl.h - the contract of a byte-transfer layer (btl): how bytes reach another process.
 *
 * Layer: btl, below the runtime core.  A btl knows nothing of MPI: no tags, communicators,
 * datatypes or requests.  It moves opaque fragments (the runtime's header and payload) to a
 * peer, in order, and reads a peer's memory for the runtime's single-copy protocols.
 *
 * Life cycle (driven by btl/btl.c for every btl in the registry):
 *   open        at MPI_Init, before the address-exchange fence: allocate what the btl needs
 *               and publish its address with comm_pmix_put; may decline (COMM_ERR_NOT_FOUND)
 *   connect     after the fence, once per peer this btl may serve: reads the peer's address
 *               and fills an endpoint, or declines (COMM_ERR_UNREACHABLE)
 *   send/get    while running; progress polls for incoming fragments
 *   flush       at MPI_Finalize, before the last fence: until every fragment has left
 *   close       at MPI_Finalize, after the last fence
 *
 * Selection: for each peer, btl/btl.c offers the peer to the btls in registry order; the first
 * whose `reaches` accepts it serves that peer for the whole job.  Locality comes from the job
 * map (same host or not), never from what a transport can connect to.  COMM_BTL chooses which
 * btls may be used ("self,shm") or which may not ("^shm").
 *
 * Receiving: a btl hands every complete fragment to the runtime's receive function, given at
 * open, during its progress call.  The bytes are valid only during that call.
 *
 * Sending: `reserve` gives the runtime a slot of up to `max_fragment` bytes to fill in place,
 * and `commit` hands it to the peer (one reservation at a time per endpoint); `send` is the
 * same for a fragment already in memory.
 * COMM_AGAIN means "no room now" (a full ring, no credits left with the peer): the runtime
 * retries after progress.  Fragments to one peer arrive in the order they were committed.
 *
 * Reading: `get` is synchronous.  A btl whose reads need its progress (a network btl) polls
 * while it waits, but queues what arrives meanwhile for its next progress call: the runtime's
 * receive function is never entered again from inside itself.  `put`, the write into memory a
 * peer offered, is synchronous in the same way.  `get_start` is the asynchronous read: it
 * returns once the read is under way, and the btl's progress calls the runtime's done
 * function when it ended, so reads of several messages overlap; a btl without it points at
 * the stub, and the runtime then uses `get`.  `put_start` is the asynchronous write of a
 * whole message into memory the receiver offered; the receiver's btl tells its runtime with
 * the token the writer gave (see write_max).  `write_start` is the asynchronous write into any
 * memory a peer registered, with no word to the peer: the writer's btl calls the done function
 * once the bytes are in the peer's memory (for one-sided communication).
 *
 * Ownership and threads: a module and its endpoints belong to the btl; the runtime calls every
 * operation with the core lock held (runtime/thread.h): one thread at a time, whichever.
 *
 * Each btl fills one constant `struct comm_btl_ops` by field name; fields are only ever
 * appended.  No operation is NULL: what a btl cannot do points at the stubs of btl_stubs.c.
 */
#ifndef COMM_BTL_H
#define COMM_BTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "base/config_table.h"

struct comm_btl_module;
struct comm_btl_endpoint;

/*
 * A registration as peers name it: what register_mem gives, carried to the peer beside the
 * address and handed back to get, put and the writes there.  A btl with one key for its memory
 * uses W[0]; one that reaches a peer over several networks (rails, each with its own keys) may
 * fill more words.  The runtime only carries it (all zero when nothing was registered); the
 * btl alone gives it meaning.
 */
enum { COMM_BTL_KEY_WORDS = 8 };
struct comm_btl_key {
    uint64_t w[COMM_BTL_KEY_WORDS];
};

/* Whether K names no registration (all zero). */
static inline bool comm_btl_key_none(const struct comm_btl_key *k)
{
    for (int i = 0; i < COMM_BTL_KEY_WORDS; i++) {
        if (k->w[i] != 0) {
            return false;
        }
    }
    return true;
}

/* What the runtime knows of a peer when it asks a btl to connect. */
struct comm_btl_peer {
    long rank;      /* in MPI_COMM_WORLD */
    bool same_host; /* from the job map */
    bool is_self;
    long local_rank;  /* among the job's ranks on this host, when same_host */
    const char *host; /* its host's name, for messages ("?" when not known); lives as long as
                       * the job */
    /* The lowest level of the topology it shares with this rank: 0 its host, else the level of
     * the lowest switch above both (1 a rack, ...); COMM_BTL_LEVEL_NONE when the topology file
     * puts them under no common switch, or there is none. */
    int level;
};

enum { COMM_BTL_LEVEL_NONE = 1 << 20 };

/*
 * A fabric the topology file gives on this host's path up the tree: the Provider= and Nics= of
 * one switch, which join every host below it.  Two hosts talk over the fabric of the lowest
 * switch above both that gives one.
 */
struct comm_btl_fabric {
    int level;              /* the switch's level: 1 a rack, ... */
    const char *level_name; /* "rack", "spine", ... */
    const char *where;      /* the switch's name */
    const char *provider;   /* Provider=, or NULL: the btl's own choice (COMM_BACKEND) */
    const char *nics;       /* its devices: the switch's Nics=, else the host's; NULL: the btl's
                             * own choice */
};

/* What the btl layer knows of this process. */
struct comm_btl_self_info {
    const char *nspace; /* the job, for naming shared resources */
    long rank;
    long size;
    long local_rank;
    long local_size;
    const long *local_peers; /* world ranks on this host, by local rank */
    const char *host;        /* this host's name, for messages */
    /* The network devices the topology file gives this host (NodeName= ... Nics=), comma
     * separated: with no fabrics, a network btl opens a rail on each for every peer.  NULL:
     * none. */
    const char *rails;
    /* The fabrics on this host's path up the tree, lowest level first (NFABRICS of them; none
     * without a topology file or when it gives no Provider= or Nics= on a switch). */
    const struct comm_btl_fabric *fabrics;
    size_t nfabrics;
};

/* The runtime's receive function: one complete fragment from world rank PEER. */
typedef void (*comm_btl_recv_fn)(long peer, const void *data, size_t len);

typedef int (*comm_btl_open_fn)(const struct comm_btl_self_info *self, comm_btl_recv_fn recv,
                                struct comm_btl_module **module_out);
typedef bool (*comm_btl_reaches_fn)(struct comm_btl_module *module,
                                    const struct comm_btl_peer *peer);
typedef int (*comm_btl_connect_fn)(struct comm_btl_module *module, const struct comm_btl_peer *peer,
                                   struct comm_btl_endpoint **endpoint_out);
typedef int (*comm_btl_reserve_fn)(struct comm_btl_endpoint *ep, size_t len, void **slot_out);
typedef int (*comm_btl_commit_fn)(struct comm_btl_endpoint *ep, void *slot, size_t len);
typedef int (*comm_btl_send_fn)(struct comm_btl_endpoint *ep, const void *hdr, size_t hdr_len,
                                const void *data, size_t data_len);
/*
 * Reads LEN bytes at the peer's address REMOTE (with REMOTE_KEY, from the peer's registration)
 * into the local iovec.  Returns COMM_OK when all was read, COMM_ERR_NOT_SUPPORTED when the
 * btl cannot read peer memory (the runtime then copies through fragments), or another
 * negative status.
 */
typedef int (*comm_btl_get_fn)(struct comm_btl_endpoint *ep, const struct iovec *local,
                               size_t nlocal, uint64_t remote,
                               const struct comm_btl_key *remote_key, size_t len);
/* Called from a btl's progress call when a read that get_start began has ended: STATUS is COMM_OK
 * when every byte was read, else a negative status (logged by the btl). */
typedef void (*comm_btl_get_done_fn)(void *ctx, int status);
/*
 * Begins reading LEN bytes at the peer's address REMOTE (with REMOTE_KEY) into the local iovec,
 * which must stay in place until DONE(CTX, status) is called, from a later progress call of the
 * btl, never from inside get_start.  Returns COMM_OK when begun, COMM_ERR_NOT_SUPPORTED when
 * the btl cannot read this way (the runtime then uses get), or another negative status
 * (nothing was begun, DONE is not called).  Never COMM_AGAIN: a btl whose transport has no
 * room keeps the read and posts it from a later progress call.
 */
typedef int (*comm_btl_get_start_fn)(struct comm_btl_endpoint *ep, const struct iovec *local,
                                     size_t nlocal, uint64_t remote,
                                     const struct comm_btl_key *remote_key, size_t len,
                                     comm_btl_get_done_fn done, void *ctx);
/*
 * Begins writing LEN bytes of the contiguous LOCAL at the peer's address REMOTE (with
 * REMOTE_KEY, from the peer's register_mem of memory it offered for writes), and has the
 * peer's btl call its module's `written` function with TOKEN once every byte is in place.
 * DONE(CTX, status) is called from a later progress call, never from inside put_start, once
 * LOCAL may be reused (COMM_OK) or the write failed (a negative status, logged by the btl: the
 * peer's `written` may then never come).  Returns COMM_OK when begun, COMM_ERR_NOT_SUPPORTED
 * when the btl cannot write this way, or another negative status (nothing was begun, DONE is
 * not called).  Only for modules whose write_max is not 0.
 */
typedef int (*comm_btl_put_start_fn)(struct comm_btl_endpoint *ep, const void *local, size_t len,
                                     uint64_t remote, const struct comm_btl_key *remote_key,
                                     uint32_t token, comm_btl_get_done_fn done, void *ctx);
/* The runtime's function for a peer's put_start that has ended in this process: its bytes are
 * in place.  Called from the btl's progress call, like the receive function. */
typedef void (*comm_btl_written_fn)(uint32_t token);
/*
 * Writes LEN bytes of the local iovec at the peer's address REMOTE (with REMOTE_KEY, from the
 * peer's register_mem of that memory), memory the peer offered for it.  Returns COMM_OK when
 * all was written, COMM_ERR_NOT_SUPPORTED when the btl cannot write peer memory, or another
 * negative status.  A put of 0 bytes moves nothing and tells whether puts to this peer work.
 */
typedef int (*comm_btl_put_fn)(struct comm_btl_endpoint *ep, const struct iovec *local,
                               size_t nlocal, uint64_t remote,
                               const struct comm_btl_key *remote_key, size_t len);
/*
 * Makes [ptr, ptr+len) readable by peers, and writable by the put, put_start and write_start of
 * a btl that writes peer memory; the key travels with the address.  Returns COMM_OK, or
 * COMM_ERR_NOT_SUPPORTED when peers cannot read it (they ask for fragments instead).
 */
typedef int (*comm_btl_register_fn)(struct comm_btl_module *module, void *ptr, size_t len,
                                    struct comm_btl_key *key_out);
/* Releases one successful register_mem by its key, once the peer has read the memory (or had
 * it streamed); the btl may keep the registration for reuse. */
typedef int (*comm_btl_deregister_fn)(struct comm_btl_module *module,
                                      const struct comm_btl_key *key);
/*
 * Begins writing LEN bytes of the local iovec at the peer's address REMOTE (with REMOTE_KEY,
 * from the peer's register_mem), with no notice to the peer; DONE(CTX, status) is called from
 * a later progress call once the bytes are in the peer's memory (delivery completion: visible
 * to the peer), never from inside write_start.  The local iovec's memory must stay in place
 * until then (the array itself may go once write_start returns).  Returns COMM_OK when begun,
 * COMM_ERR_NOT_SUPPORTED when this btl cannot write peer memory this way (the caller then uses
 * put or messages), COMM_AGAIN when the transport has no room now (nothing begun: progress and
 * retry), or another negative status (nothing begun, DONE not called).  A write_start of 0
 * bytes begins nothing and calls no DONE: it returns COMM_ERR_NOT_SUPPORTED when the btl knows
 * it cannot write there this way, else COMM_OK (a later write may still be refused).  A
 * network btl may need the peer's progress for the bytes to land.
 */
typedef int (*comm_btl_write_start_fn)(struct comm_btl_endpoint *ep, const struct iovec *local,
                                       size_t nlocal, uint64_t remote,
                                       const struct comm_btl_key *remote_key, size_t len,
                                       comm_btl_get_done_fn done, void *ctx);
/* Every peer of the job has connected (after a fence): what was kept only so that peers could
 * connect may go (shm unlinks its segment's name). */
typedef void (*comm_btl_wired_fn)(struct comm_btl_module *module);
/* Delivers what has arrived; returns how many events it handled (fragments delivered, and the
 * completions of transfers under way: a slow transfer that moves is not idle), >= 0, or a
 * status. */
typedef int (*comm_btl_progress_fn)(struct comm_btl_module *module);
typedef void (*comm_btl_close_fn)(struct comm_btl_module *module);
/*
 * Whether every fragment handed to the btl has left this process, so that peers can receive
 * it without this process's help (a network btl may hold fragments until its progress moves
 * them, or until a connection is made).  Returns COMM_OK, or COMM_AGAIN while some have not
 * (progress, then ask again).  The runtime asks before the fence of MPI_Finalize, during
 * which nothing progresses.
 */
typedef int (*comm_btl_flush_fn)(struct comm_btl_module *module);
/* What the btl knows of its link to EP's peer that a report of a stuck wait should say (a
 * link down, messages not acknowledged), written to OUT; "" when nothing. */
typedef void (*comm_btl_describe_fn)(struct comm_btl_endpoint *ep, char *out, size_t len);

struct comm_btl_ops {
    size_t size; /* sizeof(struct comm_btl_ops) the btl was built with */
    const char *name;
    int exclusivity; /* higher wins when two btls reach a peer */
    comm_btl_open_fn open;
    comm_btl_reaches_fn reaches;
    comm_btl_connect_fn connect;
    comm_btl_reserve_fn reserve;
    comm_btl_commit_fn commit;
    comm_btl_send_fn send;
    comm_btl_get_fn get;
    comm_btl_register_fn register_mem;
    comm_btl_deregister_fn deregister_mem;
    comm_btl_progress_fn progress;
    comm_btl_close_fn close;
    comm_btl_wired_fn wired;
    comm_btl_flush_fn flush;
    comm_btl_put_fn put;
    comm_btl_get_start_fn get_start;
    comm_btl_put_start_fn put_start;
    comm_btl_write_start_fn write_start;
    comm_btl_describe_fn describe;
};

/* The common head of every module; a btl embeds it first in its own module struct. */
struct comm_btl_module {
    const struct comm_btl_ops *ops;
    size_t max_fragment; /* largest fragment (header included) reserve/send accept */
    size_t eager_limit;  /* the runtime sends payloads up to this size eagerly */
    /* From this many bytes (0: never) a message the receiver reads with get is shared out:
     * the receiver reads its first half while the sender writes the rest with put. */
    size_t split_min;
    /* Up to this many bytes (0: never) the receiver of a large message may offer its memory
     * and have the sender write it with put_start: the sender completes when its write has
     * left, without waiting for the receiver to say it has read.  Set by the btl at open. */
    size_t write_max;
    /* The runtime's function for writes that ended here, set by comm_btl_open_all. */
    comm_btl_written_fn written;
};

/* The common head of every endpoint. */
struct comm_btl_endpoint {
    struct comm_btl_module *module;
    long peer;
    /* Above this many bytes (0: no such bound) the runtime offers its memory for this peer to
     * write only while no other offer to the peer is under way, and reads the rest of a stream:
     * the btl writes such messages in pieces, one after another, which reads outrun when many
     * messages are on the way.  Set by the btl when it makes the endpoint. */
    size_t write_alone_above;
    /* From this many bytes (0: never) the runtime has the receiver read a message rather than
     * offer its memory for a write: the btl spreads the reads over several rails.  Set by the
     * btl when it makes the endpoint. */
    size_t stripe_min;
};

/* ---- btl/btl.c: the registry and what the runtime calls -------------------------------- */

extern const struct comm_setting_table comm_btl_settings;

/* The settings of each btl that has some, for the settings registry. */
extern const struct comm_setting_table comm_btl_shm_settings;
extern const struct comm_setting_table comm_btl_ofi_settings;

/* Whether COMM_SHM allows shared memory between ranks of a host (the shm btl and the
 * shared-memory collectives); when it does not, the network btl serves those ranks too. */
bool comm_btl_shm_is_enabled(void);

/*
 * Opens every btl allowed by COMM_BTL.  Returns COMM_OK, COMM_ERR_BAD_PARAM for a COMM_BTL
 * that names an unknown btl (logged with the known names), or the first fatal btl failure.
 */
int comm_btl_open_all(const struct comm_btl_self_info *self, comm_btl_recv_fn recv,
                      comm_btl_written_fn written);

/* Chooses and connects the btl that serves PEER (after the address fence).  Returns
 * COMM_ERR_UNREACHABLE, logged naming the rank, when no open btl reaches it. */
int comm_btl_connect_peer(const struct comm_btl_peer *peer,
                          struct comm_btl_endpoint **endpoint_out);

/* Polls every open btl once; returns the number of fragments delivered. */
int comm_btl_progress_all(void);

/* Tells every btl that all peers are connected (after the fence that follows connecting). */
void comm_btl_wired_all(void);

/* COMM_OK when every open btl has sent out all it was given, else COMM_AGAIN. */
int comm_btl_flush_all(void);

/* Closes every open btl. */
void comm_btl_close_all(void);

/* Names of the btls in the registry, comma separated (for messages and comm-info). */
const char *comm_btl_names(void);

#endif
