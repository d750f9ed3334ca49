/*
 * btl_ofi_module.h - the libfabric transport: internal structures.
 *
 * Layer: btl/ofi.  Private to the files of btl/ofi (it includes libfabric).
 *
 * One reliable-datagram endpoint (FI_EP_RDM) per rail of a rank (one rail unless the host has
 * several devices: struct btl_ofi_rail), each with its completion queue and address vector; the
 * home rail carries sends, receives and reads, the others pieces of reads.  Addresses go
 * through the PMIx modex.
 *
 * Eager fragments: every fragment starts with a small header (sender's rank, credits given
 * back, kind).  The receiver pre-posts COMM_OFI_CREDITS receive buffers for each peer it
 * serves, plus spares for credit messages (comm_btl_ofi_spares); a sender holds that many credits
 * per peer and spends one per fragment, so it can never have more fragments in flight to a peer
 * than the peer has buffers for it: reserve and send return COMM_AGAIN at zero credits.  The
 * receiver gives credits back once it has delivered a fragment and re-posted its buffer,
 * piggybacked on its next fragment to that peer, or in a credit message once half the credits
 * are owed and a progress call has passed without a fragment to carry them (an answer usually
 * does; while a read from the peer is under way, the word that it is done will).  Fragments
 * to one peer arrive in order (FI_ORDER_SAS is required).
 *
 * Packing: a fragment that finds no credit left does not wait: it goes into the peer's open
 * pack, a send buffer of records (length, fragment) that leaves as one message, for one
 * credit, as soon as a credit comes back (or the pack is full).  While a pack is open every
 * fragment to that peer joins it or waits behind it, so order holds.  A stream of messages
 * then costs one provider send per pack instead of one per message: short ones by the dozen,
 * 16 KiB ones by the handful (between two hosts of the simulated cluster, 16 KiB messages
 * streamed at 1.8-1.9 GB/s packed against 1.4 when only fragments up to 16 KiB were packed;
 * 32 KiB ones at 2.4-2.5 against 2.2; best of six alternating runs).
 *
 * Rendezvous: register_mem registers the sender's buffer (through a bounded cache), and the
 * receiver's get is fi_read of it.  get is synchronous: while it waits it polls the completion
 * queue, and fragments that arrive meanwhile are queued and delivered by the next progress
 * call, never from inside get.
 *
 * Every operation's context starts with a struct fi_context2, so providers that want
 * FI_CONTEXT or FI_CONTEXT2 get it.  Memory registration follows the provider's mr_mode:
 * local descriptors with FI_MR_LOCAL, binding to the endpoint with FI_MR_ENDPOINT, the
 * provider's keys with FI_MR_PROV_KEY, and remote addresses as virtual addresses with
 * FI_MR_VIRT_ADDR or as offsets into the registration otherwise.
 *
 * Threads: everything is called under the runtime's core lock (one thread at a time).
 */
#ifndef COMM_BTL_OFI_MODULE_H
#define COMM_BTL_OFI_MODULE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "btl/btl.h"
#include "btl/ofi/btl_ofi.h"
#include "btl/ofi/btl_ofi_mr_cache.h"
#include "btl/ofi/btl_ofi_tune.h"

enum {
    BTL_OFI_TX_BUFFERS = 256,     /* send buffers of the module, at most */
    BTL_OFI_TX_FEWEST = 32,       /* ... and at least, */
    BTL_OFI_TX_MEMORY = 16 << 20, /* ... as many as fit this many bytes between */
    BTL_OFI_CQ_BATCH = 16,        /* completions read at once */
    BTL_OFI_READS_IN_FLIGHT = 8,  /* reads of one get at once, and of the module at least */
    BTL_OFI_READS_MOST = 32,      /* reads of the module at once while their bytes allow */
    BTL_OFI_READ_BYTES = 8 << 20, /* bytes in flight below which more reads may go */
    BTL_OFI_STREAM_BATCH = 16,    /* streamed messages per turn of a read way, per sample */
    BTL_OFI_SMALL_PIECE = 16384,  /* local pieces smaller on average go through a bounce */
    BTL_OFI_BOUNCE = 1 << 20,
    BTL_OFI_ADDR_MAX = 256,   /* bytes of an endpoint name we accept */
    BTL_OFI_RAILS_MAX = 8,    /* rails of a rank */
    BTL_OFI_FABRICS_MAX = 16, /* fabrics on a host's path up the tree */
};

/* The exit status of a job ended by a link down for COMM_LINK_TIMEOUT_MS (comm-run(1)). */
enum { COMM_BTL_OFI_LINK_LOST_STATUS = 112 };

enum btl_ofi_kind {
    BTL_OFI_FRAG = 1, /* a fragment for the runtime */
    BTL_OFI_CREDIT,   /* only credits */
    BTL_OFI_PACKED,   /* records of fragments for the runtime, one after another */
};

/* Before each fragment of a pack; records start at multiples of 8 bytes. */
struct btl_ofi_record {
    uint32_t len; /* bytes of the fragment after this header */
    uint32_t pad;
};

/* Bytes a record of a fragment of len bytes takes in a pack, header and padding included. */
static inline size_t btl_ofi_record_span(size_t len)
{
    return (sizeof(struct btl_ofi_record) + len + 7) & ~(size_t)7;
}

/* At the start of every message.  SEQ numbers the sender's fragments and packs to the
 * receiver (from 0, wrapping); ACK counts those of the receiver's to the sender that the
 * sender has taken and whose buffers it has posted again: the receiver's credits back, and
 * what it may stop keeping to send again ("Links", btl_ofi_link.c). */
struct btl_ofi_hdr {
    uint32_t src; /* world rank of the sender */
    uint8_t kind;
    uint8_t pad[3];
    uint32_t seq; /* BTL_OFI_FRAG and BTL_OFI_PACKED only */
    uint32_t ack;
};

enum btl_ofi_op_type {
    BTL_OFI_OP_RECV = 1,
    BTL_OFI_OP_SEND,
    BTL_OFI_OP_READ,
    BTL_OFI_OP_AREAD,  /* one read of an asynchronous get */
    BTL_OFI_OP_AWRITE, /* an asynchronous put (put_start) */
    BTL_OFI_OP_SHADOW, /* a piece read into a buffer of the module's (struct btl_ofi_shadow) */
    BTL_OFI_OP_WPIECE, /* one piece of a striped one-sided write (struct btl_ofi_wpiece) */
};

/* The head of every operation's context: what libfabric may use, then what we are. */
struct btl_ofi_op {
    struct fi_context2 ctx;
    enum btl_ofi_op_type type;
};

/* A pre-posted receive buffer.  Owned by the module. */
struct btl_ofi_rx {
    struct btl_ofi_op op;
    struct btl_ofi_rx *next; /* in the delivery queue or the re-post list */
    unsigned rail;           /* the rail it is posted on */
    size_t len;              /* bytes received */
    char *buf;
    void *desc; /* local descriptor of buf (FI_MR_LOCAL) */
};

struct btl_ofi_endpoint;

/* A send buffer, free, reserved, posted or waiting to be posted; a fragment or pack
 * (SEQUENCED) is kept after it left, on its peer's list of those not acknowledged, until the
 * peer acknowledges it.  Owned by the module. */
struct btl_ofi_tx {
    struct btl_ofi_op op;
    struct btl_ofi_tx *next; /* free list or the endpoint's backlog */
    struct btl_ofi_endpoint *ep;
    size_t len;
    char *buf;
    bool sequenced;
    bool posted;                  /* the provider holds it */
    struct btl_ofi_tx *kept_next; /* on EP's list of those not acknowledged */
};

/* One fi_read of a get. */
struct btl_ofi_read {
    struct btl_ofi_op op;
    bool done;
    int status;
};

struct btl_ofi_get;
struct btl_ofi_aread;

/*
 * A piece of a striped get read on a rail other than its peer's home rail (COMM_RAIL_REREAD):
 * it lands in BUF, the module's, and is copied into place when it completes.  When its rail is
 * taken out the piece is read again on another rail and this one is orphaned (A NULL):
 * whatever it brings later lands here, never in memory the program has back.  Owned by the
 * module: every one made is on m->shadows (freed at close, after the endpoints), those not in
 * flight on m->shadows_free.
 */
struct btl_ofi_shadow {
    struct btl_ofi_op op;
    struct btl_ofi_aread *a; /* the read it stands for; NULL for an orphan or a free one */
    unsigned rail;           /* the rail it is read on */
    char *buf;
    size_t cap;
    struct btl_ofi_shadow *next_free;
    struct btl_ofi_shadow *next_made;
};

/* One read of an asynchronous get. */
struct btl_ofi_aread {
    struct btl_ofi_op op;
    struct btl_ofi_get *get;
    struct comm_btl_ofi_mr *local; /* the registration it lands in (FI_MR_LOCAL), held */
    size_t len;                    /* bytes it reads */
    bool busy;                     /* posted, not completed */
    bool redo;                     /* to be read again (its rail failed): DST, RADDR, LEN */
    unsigned rail;                 /* the rail it went on */
    char *dst; /* where it reads, to read it again on another rail if its rail fails */
    uint64_t raddr;
    struct btl_ofi_shadow *shadow; /* where it lands when not in place (busy only) */
};

/* One piece of a striped one-sided write, on the rail where it would end first. */
struct btl_ofi_wpiece {
    struct btl_ofi_op op;
    struct btl_ofi_awrite *a;
    struct comm_btl_ofi_mr *local; /* the registration it writes from (FI_MR_LOCAL), held */
    const char *from;              /* LEN bytes at FROM go OFF bytes into the write */
    size_t len;
    size_t off;
    unsigned rail;  /* the rail it went on */
    bool busy;      /* posted, not completed */
    bool redo;      /* to be written again (it failed on its rail): FROM, LEN, OFF */
    unsigned fails; /* how often it failed */
};

/*
 * A rail: one provider on one interface or domain, with its own fabric, domain, completion
 * queue, address vector and endpoint (btl_ofi_rail.c).  Rail 0's info is the module's
 * (m->info).  A peer's fragments, writes and synchronous reads go on its home rail (the first
 * of the rails of the fabric that serves it), and the pieces of an asynchronous get are spread
 * over all of that fabric's rails that reach the peer, each to the rail where it would end
 * first given the bytes already on it and what the rail delivers.
 */
struct btl_ofi_rail {
    char name[64];    /* the interface or domain, as named */
    uint32_t fabrics; /* the fabrics it serves (bit F: m->fabrics[F]) */
    void *tx_desc;    /* the send buffers' local descriptor on it (FI_MR_LOCAL) */
    struct fid_mr *tx_mr;
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_cq *cq;
    struct fid_av *av;
    struct fid_ep *ep;
    uint64_t mr_mode;
    /* What it delivers: bytes per second of completed pieces, smoothed (the weight). */
    double rate;
    bool measured;         /* RATE comes from a measurement (else the starting guess) */
    uint64_t sample_from;  /* the current sample began (ns), 0 while the rail is idle */
    size_t sample_bytes;   /* bytes completed since */
    size_t inflight_bytes; /* bytes of pieces posted on it, not completed */
    unsigned inflight;     /* and how many */
    unsigned orphans;      /* reads on it no get waits for any more (struct btl_ofi_shadow) */
    uint64_t last_done_ns; /* when a piece last completed on it (or the oldest was posted) */
    uint64_t bytes;        /* bytes read on it in all */
    unsigned long pieces;  /* pieces read on it in all */
    /* Out of the schedule: after an error, or no completion for COMM_RAIL_TIMEOUT_MS. */
    bool down;
    uint64_t retry_ns;   /* when a piece may try it again (once none is left on it) */
    unsigned long downs; /* times it was taken out */
    /* Its progress thread (btl_ofi_thread.c), when COMM_PROGRESS_THREADS=1. */
    struct btl_ofi_module *module;
    pthread_t thread;
    bool thread_started;
    atomic_bool thread_stop;
};

/*
 * A fabric: the topology's Provider= and Nics= of one switch on this host's path (lowest level
 * first), or, without those, one that serves every peer over the rails the host has.
 */
struct btl_ofi_fabric {
    int level; /* the switch's level; 0 for the one that serves every peer */
    char level_name[32];
    char where[64]; /* the switch, or where the rails came from */
    uint32_t rails; /* the rails open for it */
    char why[384];  /* why none opened, when none did */
    bool warned;    /* its fallback was said */
};

/* An asynchronous get (get_start), from its start until its done function is called.  Owned by
 * the module. */
struct btl_ofi_get {
    struct btl_ofi_get *next; /* the module's list of gets */
    struct btl_ofi_endpoint *ep;
    char *dst; /* what is left to post: LEFT bytes into DST from the peer's RADDR */
    size_t left;
    uint64_t raddr;          /* as the runtime names it (a virtual address) */
    struct comm_btl_key key; /* the peer's registration */
    size_t piece;            /* bytes of one read */
    size_t len;
    enum comm_btl_ofi_read_way way;
    uint64_t start_ns;
    unsigned long seq; /* the module's gets_started when it began */
    bool alone;        /* no other get was under way when it began */
    bool striped;      /* its pieces are spread over the peer's rails */
    unsigned redo;     /* its reads to read again (their rail failed) */
    bool streamed;     /* timed in a stream: another get from its (remote) peer was under way */
    unsigned inflight;
    int status;
    comm_btl_get_done_fn done;
    void *ctx;
    struct btl_ofi_aread reads[BTL_OFI_READS_IN_FLIGHT];
};

/* An asynchronous put (put_start), from its start until its done function is called.  Owned by
 * the module. */
struct btl_ofi_awrite {
    struct btl_ofi_op op;
    struct btl_ofi_awrite *next; /* in the module's list of writes to post or of ended ones */
    struct btl_ofi_endpoint *ep;
    struct comm_btl_ofi_mr *local; /* the registration it writes from (FI_MR_LOCAL), held */
    const void *buf;
    size_t len;
    size_t landed;  /* bytes of the pieces before the one on the way (comm_btl_ofi_write_next) */
    size_t posting; /* bytes of the piece on the way */
    uint64_t raddr; /* the peer's memory as the runtime names it (a virtual address) */
    struct comm_btl_key key; /*   and its registration */
    uint32_t token;          /* the completion data the peer's runtime gets, with the last piece */
    int status;
    comm_btl_get_done_fn done;
    void *ctx;
    bool queued; /* in the module's list of writes to post */
    /* A write_start: no token, from the local pieces IOV (NIOV of them, copied); the next byte
     * to write is at LOFF in IOV[LI].  POSTED bytes have gone in PIECES (NPIECES slots: PIECE
     * alone, or BTL_OFI_READS_IN_FLIGHT when STRIPED over the peer's rails), INFLIGHT of them
     * on their rails, REDO to be written again (btl_ofi_write.c). */
    size_t niov;
    size_t li;
    size_t loff;
    bool striped;
    struct btl_ofi_wpiece *pieces;
    size_t npieces;
    struct btl_ofi_wpiece piece;
    size_t posted;
    unsigned inflight;
    unsigned redo;
    struct iovec iov[];
};

/* A peer served by ofi.  Owned by the module. */
struct btl_ofi_endpoint {
    struct comm_btl_endpoint base; /* first: the runtime sees only this */
    fi_addr_t addr;
    fi_addr_t rail_addr[BTL_OFI_RAILS_MAX]; /* its address on each rail that reaches it */
    uint8_t peer_rail[BTL_OFI_RAILS_MAX];   /* the peer's own index of the rail paired there */
    uint32_t rails;                         /* those that serve it (bit K: rail K) */
    unsigned home;    /* the rail of its fragments, writes and synchronous reads (ADDR is there) */
    unsigned fabric;  /* the fabric that serves it (m->fabrics) */
    const char *host; /* its host, for messages */
    long credits;     /* fragments we may still send to the peer */
    long owed;        /* credits we owe the peer (buffers delivered and re-posted) */
    /* Its link ("Links", btl_ofi_link.c): our fragments and packs to it are numbered
     * (TX_SEQ the next) and kept until it acknowledges them (PEER_TOOK: how many it took);
     * RX_NEXT is the number of its next one we take, TOOK how many we took and posted the
     * buffer of again (the ACK of our headers).  ACK_NS: when PEER_TOOK last moved, or the
     * kept ones were last sent again without a word back. */
    uint32_t tx_seq;
    uint32_t peer_took;
    uint32_t rx_next;
    uint32_t took;
    struct btl_ofi_tx *kept_head; /* sent (or to be sent), not acknowledged, in order */
    struct btl_ofi_tx *kept_tail;
    unsigned kept_posted; /* of those, held by the provider */
    uint64_t ack_ns;
    uint64_t probe_ns; /* the wait without acknowledgement before sending them again */
    bool ack_aged;     /* credits owed through a whole tick of the link timers */
    bool ack_now;      /* a message of credits goes at the next push, whatever is owed */
    bool proved;       /* something went through since it last went down */
    enum { BTL_OFI_LINK_UP, BTL_OFI_LINK_DOWN, BTL_OFI_LINK_RESENDING } link;
    uint64_t down_ns;     /* it went down (the first failure since it was last up) */
    uint64_t retry_ns;    /* when it is tried again */
    unsigned long resent; /* messages sent again since it went down */
    char cause[160];      /* why it went down */
    bool credit_queued; /* on the module's list of peers owed a credit message */
    bool credit_aged;   /* ... and has been through a progress call there */
    struct btl_ofi_endpoint *credit_next;
    struct btl_ofi_tx *reserved; /* the slot handed out by reserve */
    bool reserved_packed;        /* ... which is the next record of the open pack */
    struct btl_ofi_tx *packing;  /* the open pack, or NULL */
    size_t packed;               /* bytes of the open pack so far, our header included */
    bool in_packing_list;
    struct btl_ofi_endpoint *packing_next;
    struct btl_ofi_tx *backlog_head; /* committed, not taken by the provider yet (EAGAIN) */
    struct btl_ofi_tx *backlog_tail;
    bool in_backlog_list;
    struct btl_ofi_endpoint *backlog_next;
    struct comm_btl_ofi_tune tune; /* how its large messages are read one at a time */
    /* ... and several at a time: a stream is timed from the end of one message to the end of
     * the next, which measures what the path delivers, not how long one message waited. */
    struct comm_btl_ofi_tune stream_tune;
    /* A peer on this host (loopback, COMM_SHM=0): its streams are read in pieces, untuned.
     * On loopback the tuner's turns took whole reads for the faster way, while a stream read
     * whole all along moved 10-25% less than one read in pieces all along. */
    bool same_host;
    unsigned gets_now;    /* its asynchronous gets under way */
    uint64_t last_end_ns; /* when the last of them ended (0: none yet) */
    uint64_t prev_end_ns; /* ... and the one before, while a walk ends several at once */
    /* The run of streamed messages read one way being timed: SEG_BYTES delivered from SEG_FROM
     * to SEG_END.  The message that opens a run is not counted: the reads of the way before
     * overlapped it. */
    bool seg_open;
    enum comm_btl_ofi_read_way seg_way;
    size_t seg_len;
    size_t seg_bytes;
    unsigned seg_count;
    uint64_t seg_from;
    uint64_t seg_end;
};

struct btl_ofi_module {
    struct comm_btl_module base; /* first: the runtime sees only this */
    comm_btl_recv_fn recv;
    long rank;
    long size;
    bool serve_local; /* COMM_SHM=0: peers on this host too */
    /* Progress threads run (COMM_PROGRESS_THREADS=1): the backlogs, the free send buffers and
     * the count of posted sends are then taken under TX_LOCK (btl_ofi_tx_lock), since a
     * thread posts the backlogs too. */
    bool threads;
    pthread_mutex_t tx_lock;

    struct fi_info *info; /* the home rail's (rails[0]) */
    uint64_t mr_mode;
    size_t inject_size;
    size_t iov_limit;
    size_t max_msg_size;
    size_t read_piece;     /* bytes of one fi_read when reading in pieces */
    size_t read_piece_far; /* ... from a peer on another host */
    size_t read_whole;     /* ... when reading whole (the same when COMM_OFI_READ_SIZE is set) */
    char provider[64];

    /* Rails (btl_ofi_rail.c): rails[0] is the first opened, open in every module; NRAILS in
     * all once it is open.  RAILED: the rails come from the topology or from several devices
     * (btl_ofi_rail.c), and FABRICS say which serve which peers. */
    struct btl_ofi_rail rails[BTL_OFI_RAILS_MAX];
    unsigned nrails;
    bool railed;
    struct btl_ofi_fabric fabrics[BTL_OFI_FABRICS_MAX];
    unsigned nfabrics;
    int host_fabric; /* the fabric of this host's ranks (COMM_OFI_HOST_PROVIDER); -1: none */
    uint64_t rails_checked_ns;           /* the last comm_btl_ofi_rails_check */
    size_t stripe_min;                   /* COMM_RAIL_STRIPE_MIN */
    bool reread;                         /* COMM_RAIL_REREAD */
    struct btl_ofi_shadow *shadows;      /* every shadow made (struct btl_ofi_shadow) */
    struct btl_ofi_shadow *shadows_free; /* and those not in flight */
    uint64_t rail_timeout_ns;            /* COMM_RAIL_TIMEOUT_MS */
    uint64_t link_timeout_ns;            /* COMM_LINK_TIMEOUT_MS */
    uint64_t now_ns;                     /* the clock, read every 16 progress calls */
    unsigned long progress_calls;
    uint64_t links_ns;                   /* when the link timers run next */
    unsigned long links_lost;            /* links that went down, and messages sent again */
    unsigned long msgs_resent;
    unsigned long dups_dropped;          /* dropped: copies, or after one lost */
    const char *host;                    /* this host's name, for messages */

    size_t frag_size; /* bytes of a receive or send buffer, our header included */
    long credits_per_peer;

    /* Receive buffers: npeers * (credits + spares), allocated as peers connect. */
    struct btl_ofi_rx **rx_chunks; /* one array per connected peer */
    char **rx_mem;
    struct fid_mr **rx_mr;
    size_t rx_nchunks;
    size_t rx_capacity;
    struct btl_ofi_rx *deliver_head; /* completed, not delivered yet */
    struct btl_ofi_rx *deliver_tail;
    struct btl_ofi_rx *repost_head; /* delivered, not re-posted yet (EAGAIN) */
    bool delivering;                /* inside the runtime's receive function */

    /* Send buffers. */
    struct btl_ofi_tx tx[BTL_OFI_TX_BUFFERS];
    char *tx_mem;

    struct btl_ofi_tx *tx_free;
    size_t tx_posted;

    struct btl_ofi_endpoint **eps; /* by world rank; NULL for peers ofi does not serve */
    struct btl_ofi_endpoint *credit_list;
    struct btl_ofi_endpoint *backlog_list;
    struct btl_ofi_endpoint *packing_list; /* peers with an open pack */
    unsigned long packs_sent;              /* packs, and the fragments they carried */
    unsigned long packed_frags;
    unsigned long credit_msgs; /* credit messages sent (credits no fragment carried back) */

    /* Remote memory access. */
    bool rma;          /* fi_read usable; else get says COMM_ERR_NOT_SUPPORTED */
    bool virt_addr;    /* FI_MR_VIRT_ADDR: remote addresses are virtual addresses */
    uint64_t next_key; /* keys we choose when the provider does not (no FI_MR_PROV_KEY) */
    struct comm_btl_ofi_mr_cache mrs;
    char *bounce; /* BTL_OFI_BOUNCE bytes for reads into scattered pieces, made on first use */
    struct btl_ofi_get *gets; /* asynchronous gets under way, oldest first */
    struct btl_ofi_get *gets_tail;
    unsigned long gets_started;
    unsigned long gets_now; /* under way now, and at most at once */
    unsigned long gets_most;
    unsigned areads;      /* reads of asynchronous gets in flight (ofi_reads_room bounds them) */
    unsigned wpieces;     /* pieces of striped one-sided writes in flight */
    size_t aread_bytes;   /* and the bytes they read */
    unsigned areads_most; /* reads in flight at most at once */
    /* Something for advance_gets to do: a read ended, or a post must be tried again.  Without
     * it progress would walk every get under way on every call, which starves the socket. */
    bool gets_stirred;

    /* One-sided writes (write_start): usable when the provider writes remote memory; then
     * registrations may be written, whatever COMM_OFI_WRITE_MAX says. */
    bool remote_write;
    bool rma_write_refused; /* the provider refused delivery completion: no write_start */
    size_t rma_piece;       /* bytes of one piece of a write_start; 0: whole */
    size_t rma_piece_far;   /* ... to a peer on another host */
    /* Writes (put_start): usable when the provider writes remote memory with completion
     * data; then receives take completion data. */
    bool write;
    size_t write_piece;                    /* bytes of one write of a larger message; 0: whole */
    size_t write_piece_far;                /* ... to a peer on another host */
    struct btl_ofi_awrite *writes_waiting; /* refused for now (EAGAIN), or a next piece: posted
                                            * by progress */
    struct btl_ofi_awrite *writes_waiting_tail;
    struct btl_ofi_awrite *writes_ended; /* their done functions called by progress */
    unsigned long writes_started;
    unsigned long writes_pieced; /* messages written in more than one piece */
    unsigned long write_pieces;  /* and their pieces */
    uint32_t *written;           /* tokens of peers' writes that ended here, for the runtime */
    size_t nwritten;
    size_t written_cap;
    bool writes_stirred; /* something in the three lists above */
};

extern const struct comm_btl_ops comm_btl_ofi;

/* Whether RK names a registration of the peer's (from comm_btl_ofi_register, which makes W[0]
 * of one never 0). */
static inline bool btl_ofi_rkey_set(const struct comm_btl_key *rk)
{
    return rk != NULL && rk->w[0] != 0;
}

/* btl_ofi_select.c: choosing the provider and device. */

/*
 * Sets the tcp-family providers' interface variables (FI_TCP_IFACE...) when the set names one
 * interface and the user did not set them, before libfabric first reads them.
 */
void comm_btl_ofi_restrict_env(const struct comm_btl_ofi_devices *devices);

/* What a provider must do with remote memory for comm to choose it. */
enum comm_btl_ofi_rma {
    COMM_BTL_OFI_RMA_NONE,  /* nothing: large messages go through fragments */
    COMM_BTL_OFI_RMA_READ,  /* read it */
    COMM_BTL_OFI_RMA_WRITE, /* read it, and write it with completion data */
};

/*
 * The fi_info entries of PROVIDER on the allowed devices, with the capabilities, modes and
 * memory-registration modes comm can use (FI_MSG, and FI_RMA as RMA asks).  Returns COMM_OK
 * with a list to free with fi_freeinfo, or COMM_ERR_NOT_FOUND after writing why to why_out.
 * libfabric must be loaded (comm_btl_ofi_lib_load).
 */
int comm_btl_ofi_getinfo(const char *provider, const struct comm_btl_ofi_devices *devices,
                         enum comm_btl_ofi_rma rma, struct fi_info **list_out, char *why_out,
                         size_t len);

/* Whether the entries getinfo chooses must take calls from several threads (progress
 * threads): FI_THREAD_SAFE, else FI_THREAD_DOMAIN. */
void comm_btl_ofi_set_thread_safe(bool on);

/* The network interface carrying the entry's source address, or "" (written to out). */
void comm_btl_ofi_interface_of(const struct fi_info *info, char *out, size_t len);

/* The send lock (see struct btl_ofi_module's THREADS): nothing without progress threads. */
static inline void btl_ofi_tx_lock(struct btl_ofi_module *m)
{
    if (m->threads) {
        pthread_mutex_lock(&m->tx_lock);
    }
}

static inline void btl_ofi_tx_unlock(struct btl_ofi_module *m)
{
    if (m->threads) {
        pthread_mutex_unlock(&m->tx_lock);
    }
}

/* btl_ofi_thread.c: a progress thread per rail (see there), bound by LOCAL_RANK among
 * LOCAL_SIZE ranks of the host; stop joins them (none started: nothing). */
int comm_btl_ofi_threads_start(struct btl_ofi_module *m, long local_rank, long local_size);
void comm_btl_ofi_threads_stop(struct btl_ofi_module *m);

/* btl_ofi_rail.c: rails (see there). */

/* The address rail K gives the provider for the peer's address REMOTE in the registration RK:
 * REMOTE itself where the rail addresses memory virtually, else its offset from the
 * registration's base, which W[0] is then (btl_ofi_rdma.c, "Keys"). */
static inline uint64_t btl_ofi_raddr(const struct btl_ofi_module *m, unsigned k, uint64_t remote,
                                     const struct comm_btl_key *rk)
{
    return (m->rails[k].mr_mode & FI_MR_VIRT_ADDR) ? remote : remote - rk->w[0];
}

/* The key with which rail K reads or writes EP's registration RK: that of the peer's rail it is
 * paired with there (btl_ofi_rdma.c, "Keys"). */
static inline uint64_t btl_ofi_rkey(const struct btl_ofi_module *m,
                                    const struct btl_ofi_endpoint *ep, unsigned k,
                                    const struct comm_btl_key *rk)
{
    unsigned j = ep->peer_rail[k];

    return j != 0 ? rk->w[j] : m->virt_addr ? rk->w[0] - 1 : rk->w[0];
}

uint64_t comm_btl_ofi_now_ns(void);
/* Opens what R lacks of fabric, domain, completion queue and address vector, then an
 * endpoint, from R->info, with queues of the given sizes; WHY says what failed. */
int comm_btl_ofi_open_objects(struct btl_ofi_rail *r, long size, size_t cq_size, size_t tx_size,
                              size_t rx_size, char *why, size_t len);
/* Names the first rail NAME once it is open, serving FABRICS. */
void comm_btl_ofi_rails_home(struct btl_ofi_module *m, const char *name, uint32_t fabrics);
/* Opens one more rail from INFO (taken over, freed on failure) on device NAME for FABRICS, with
 * queues as deep as the first rail's (CQ_SIZE, TX_SIZE, RX_SIZE): COMM_OK, or a status with
 * WHY saying why it cannot serve. */
int comm_btl_ofi_rails_add(struct btl_ofi_module *m, struct fi_info *info, const char *name,
                           uint32_t fabrics, long size, const size_t sizes[3], char *why,
                           size_t len);
/* Closes what a rail opened (none of it may be in use) and frees its info. */
void comm_btl_ofi_rail_close(struct btl_ofi_rail *r);
/* Closes FID (NULL: nothing), warning with WHAT when that fails (btl_ofi_init.c). */
void comm_btl_ofi_close_fid(struct fid *fid, const char *what);
/* Publishes the addresses of every rail (when railed). */
int comm_btl_ofi_rails_publish(struct btl_ofi_module *m);
/* Pairs the rails of EP's peer (PEER) with this rank's (same provider, same fabric) and chooses
 * those that serve it: the fabric of the lowest level they share that both reach, its rails,
 * and among them the home one; sets EP->rails, rail_addr, home, addr and base.stripe_min.
 * COMM_ERR_UNREACHABLE (logged, naming the peer) when no rail serves it. */
int comm_btl_ofi_rails_connect(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                               const struct comm_btl_peer *peer);
/* Logs once per job (rank 0, at info) which provider and rails serve each level. */
void comm_btl_ofi_fabrics_log(const struct btl_ofi_module *m);
/* The rail a piece of N bytes to EP's peer goes on now: the home rail when no other is up. */
int comm_btl_ofi_rail_pick(struct btl_ofi_module *m, const struct btl_ofi_endpoint *ep, size_t n,
                           uint64_t now);
/* A piece of N bytes was posted on rail K at NOW, and one ended (OK: completed). */
void comm_btl_ofi_rail_posted(struct btl_ofi_module *m, unsigned k, size_t n, uint64_t now);
void comm_btl_ofi_rail_done(struct btl_ofi_module *m, unsigned k, size_t n, bool ok);
/* Rail K failed (CAUSE, for the warning): taken out of the schedule for a while. */
void comm_btl_ofi_rail_failed(struct btl_ofi_module *m, unsigned k, const char *cause);
/* Takes out of the schedule rails whose pieces stopped completing. */
void comm_btl_ofi_rails_check(struct btl_ofi_module *m);
/* "eth1 (tcp;ofi_rxm, 10.79.0.0/16), ..." */
void comm_btl_ofi_rails_describe(const struct btl_ofi_module *m, char *out, size_t len);
/* Logs which peers each rail reaches (rank 0 at info, the others at debug). */
void comm_btl_ofi_rails_log_reach(const struct btl_ofi_module *m);
/* Logs, at info, what each rail carried and delivered. */
void comm_btl_ofi_rails_report(const struct btl_ofi_module *m);
/* Read A of an asynchronous get failed on its rail: it is read again on another. */
void comm_btl_ofi_aread_redo(struct btl_ofi_module *m, struct btl_ofi_aread *a);

/*
 * btl_ofi_lib.c: loads libfabric (COMM_OFI_LIBRARY) once, when first needed.  Returns COMM_OK,
 * or COMM_ERR_NOT_FOUND after writing why to why_out (the same reason every later call).
 * The functions below it are libfabric's, callable once it is loaded (getinfo asks for the
 * API the loader checked the library against).
 */
int comm_btl_ofi_lib_load(char *why_out, size_t len);
int comm_btl_ofi_fi_getinfo(const struct fi_info *hints, struct fi_info **info);
void comm_btl_ofi_fi_freeinfo(struct fi_info *info);
struct fi_info *comm_btl_ofi_fi_dupinfo(const struct fi_info *info); /* NULL: a blank one */
int comm_btl_ofi_fi_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric);
const char *comm_btl_ofi_fi_strerror(int errnum); /* also before loading */
uint32_t comm_btl_ofi_fi_version(void);

/* btl_ofi_signals.c: gives back the signals the PSM libraries take when loaded. */
void comm_btl_ofi_restore_signals(void);

/* btl_ofi_progress.c */
int comm_btl_ofi_progress(struct comm_btl_module *module);
/* Reads completions once: send buffers are freed, reads marked, receives queued for delivery.
 * Returns how many completions were read, or a status. */
int comm_btl_ofi_poll(struct btl_ofi_module *m);
/* Posts a receive buffer (again); COMM_OK, COMM_AGAIN (kept for later) or a status. */
int comm_btl_ofi_post_rx(struct btl_ofi_module *m, struct btl_ofi_rx *rx);
void comm_btl_ofi_log_cq_error(struct btl_ofi_module *m);

/* btl_ofi_send.c */
int comm_btl_ofi_reserve(struct comm_btl_endpoint *base, size_t len, void **slot_out);
int comm_btl_ofi_commit(struct comm_btl_endpoint *base, void *slot, size_t len);
int comm_btl_ofi_send(struct comm_btl_endpoint *base, const void *hdr, size_t hdr_len,
                      const void *data, size_t data_len);
/* Posts what waits in backlogs and packs, and credit messages owed: those owed since the last
 * call, or to a peer a read from which is under way, only when NOW or when the peer has none
 * left (else later, unless a fragment carried them meanwhile).  Called by progress, and by
 * flush with NOW. */
void comm_btl_ofi_push(struct btl_ofi_module *m, bool now);
/* Posts what the provider refused before (the endpoints' backlogs), in order, until it
 * refuses again; the part of push a progress thread does too. */
void comm_btl_ofi_push_backlog(struct btl_ofi_module *m);
/* Whether everything committed has been taken by the provider and completed. */
int comm_btl_ofi_flush(struct comm_btl_module *module);
/* Notes that a credit is owed to EP after a receive buffer was re-posted. */
void comm_btl_ofi_owe_credit(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep);
/* Queues a message of credits to EP, sent by the next push whatever is owed (an
 * acknowledgement the peer waits for). */
void comm_btl_ofi_queue_ack(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep);
/* Hands TX (sealed) to the provider, or to EP's backlog behind what waits there; under the
 * send lock. */
void comm_btl_ofi_post_or_queue(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                                struct btl_ofi_tx *tx);

/* btl_ofi_link.c: what keeps a link to a peer (see there). */

/* The peer of header H has taken ACK of our messages: credits back, and the kept ones it
 * acknowledged freed. */
void comm_btl_ofi_link_acked(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep, uint32_t ack);
/* Whether a fragment or pack numbered SEQ from EP's peer is the next one (else it came twice,
 * or after one lost: dropped, and the peer is told what we took). */
bool comm_btl_ofi_link_take(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep, uint32_t seq);
/* Kept TX left (OK) or failed (CAUSE) on the provider; under the send lock. */
void comm_btl_ofi_link_sent(struct btl_ofi_module *m, struct btl_ofi_tx *tx, bool ok,
                            const char *cause);
/* EP's link fails (CAUSE): down, what it keeps sent again after a while; under the send lock
 * (comm_btl_ofi_link_failed takes it: a read or write of the peer's memory failed for a lost
 * connection). */
void comm_btl_ofi_link_down(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                            const char *cause);
void comm_btl_ofi_link_failed(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                              const char *cause);
/* Whether a provider's error ERR (positive) says the connection under a link was lost. */
bool comm_btl_ofi_link_error(int err);
/* What a report of a stuck wait says of the link to EP's peer (comm_btl_describe_fn). */
void comm_btl_ofi_describe(struct comm_btl_endpoint *base, char *out, size_t len);
/* Runs the link timers when they are due: acknowledgements owed for a while, kept messages
 * not acknowledged for a while, links down to be tried again or given up. */
void comm_btl_ofi_links_check(struct btl_ofi_module *m);

/* btl_ofi_rdma.c */
int comm_btl_ofi_register(struct comm_btl_module *module, void *ptr, size_t len,
                          struct comm_btl_key *key_out);
int comm_btl_ofi_deregister(struct comm_btl_module *module, const struct comm_btl_key *key);
int comm_btl_ofi_get(struct comm_btl_endpoint *base, const struct iovec *local, size_t nlocal,
                     uint64_t remote, const struct comm_btl_key *remote_key, size_t len);
int comm_btl_ofi_get_start(struct comm_btl_endpoint *base, const struct iovec *local, size_t nlocal,
                           uint64_t remote, const struct comm_btl_key *remote_key, size_t len,
                           comm_btl_get_done_fn done, void *ctx);
/* Posts the further reads of asynchronous gets and calls the done function of those that
 * ended; called by progress, outside any delivery.  Returns how many ended. */
int comm_btl_ofi_advance_gets(struct btl_ofi_module *m);
/* Read A of an asynchronous get completed (OK) or failed: its slot and its share of the
 * module's reads in flight are free again. */
void comm_btl_ofi_aread_ended(struct btl_ofi_module *m, struct btl_ofi_aread *a, bool ok);
/* The local descriptor of a registration on rail K (FI_MR_LOCAL). */
void *comm_btl_ofi_mr_desc(const struct comm_btl_ofi_mr *entry, unsigned k);
/* EP's peer's host, for messages. */
const char *comm_btl_ofi_peer_host(const struct btl_ofi_endpoint *ep);
/* Bytes of one read from EP's peer when its messages are read WAY. */
size_t comm_btl_ofi_read_size(const struct btl_ofi_module *m, const struct btl_ofi_endpoint *ep,
                              enum comm_btl_ofi_read_way way);
/* Frees the gets still under way at close (their done functions are not called). */
void comm_btl_ofi_drop_gets(struct btl_ofi_module *m);
/* Shadow SH completed (OK) or failed: its piece is copied into place and its read ended, or,
 * an orphan, it is free again. */
void comm_btl_ofi_shadow_ended(struct btl_ofi_module *m, struct btl_ofi_shadow *sh, bool ok);
/* Reads again on the other rails every piece in flight on rail K that lands in a shadow
 * (orphaning the shadows); how many. */
unsigned comm_btl_ofi_gets_reread(struct btl_ofi_module *m, unsigned k);
/* Frees every shadow; at close, once the endpoints are closed. */
void comm_btl_ofi_shadows_free(struct btl_ofi_module *m);

/* btl_ofi_write.c */
int comm_btl_ofi_put_start(struct comm_btl_endpoint *base, const void *local, size_t len,
                           uint64_t remote, const struct comm_btl_key *remote_key, uint32_t token,
                           comm_btl_get_done_fn done, void *ctx);
int comm_btl_ofi_write_start(struct comm_btl_endpoint *base, const struct iovec *local,
                             size_t nlocal, uint64_t remote, const struct comm_btl_key *remote_key,
                             size_t len, comm_btl_get_done_fn done, void *ctx);
/* A piece of write A landed (STATUS COMM_OK) or failed: after the last piece, or a failure,
 * its done function is called by progress; otherwise progress posts the next piece. */
void comm_btl_ofi_awrite_ended(struct btl_ofi_module *m, struct btl_ofi_awrite *a, int status);
/* Piece P of a striped write landed (OK) or failed on its rail (CAUSE says how: the rail is
 * taken out and P written again on another). */
void comm_btl_ofi_wpiece_ended(struct btl_ofi_module *m, struct btl_ofi_wpiece *p, bool ok,
                               const char *cause);
/* Bytes of one piece of a message this rank writes to EP's peer (0: whole). */
size_t comm_btl_ofi_write_size(const struct btl_ofi_module *m, const struct btl_ofi_endpoint *ep);
/* A peer's write with completion data TOKEN ended here: the runtime hears of it from progress. */
void comm_btl_ofi_note_written(struct btl_ofi_module *m, uint64_t token);
/* Posts the writes the provider refused for a moment, calls the done functions of those that
 * ended and hands the runtime the tokens of peers' writes; called by progress, outside any
 * delivery.  Returns how many it handed on. */
int comm_btl_ofi_advance_writes(struct btl_ofi_module *m);
/* Frees, at close, the writes not posted yet or ended (their done functions are not called)
 * and the tokens not handed on.  A write still posted belongs to the provider until it closes
 * the endpoint: a correct program has none (its sends completed). */
void comm_btl_ofi_drop_writes(struct btl_ofi_module *m);
/* Sets up registration (rma, virt_addr, the cache) once the domain is open. */
void comm_btl_ofi_rdma_init(struct btl_ofi_module *m, long cache_size);
/* Registers memory the module owns (buffers) on rail K for local use; desc_out NULL when not
 * needed. */
int comm_btl_ofi_register_local(struct btl_ofi_module *m, unsigned k, void *ptr, size_t len,
                                uint64_t access, struct fid_mr **mr_out, void **desc_out);

#endif
