/*
 * rma.h - one-sided communication: windows, the operations on them and their epochs.
 *
 * Layer: rma, above coll (whose tables it runs its collectives through) and below the MPI API.
 * Files: rma_win.c (windows), rma_ops.c (the origin's operations), rma_sync.c (epochs),
 * rma_target.c (the target's side).  Must not: check MPI
 * arguments (api/api_win.c and api_rma.c do, including whether an epoch allows a call) or raise
 * errors; functions return MPI error codes for the API to raise.
 *
 * How a byte reaches a target, chosen per target when the window is made:
 *   direct   the target's window is mapped here (MPI_Win_allocate(_shared) inside a host, or
 *            this process's own window): puts and gets are loads and stores, accumulates are
 *            done here under the target's accumulate lock (in the host's window segment).
 *   cma      MPI_Win_create memory of a target on this host: puts and gets are single copies
 *            through the shared-memory btl (process_vm_writev/readv); accumulates are messages.
 *   net      a target reached through the network btl, whose window memory it registered:
 *            puts are RDMA writes (write_start: fi_write, complete when delivered) and gets RDMA
 *            reads (get_start: fi_read) from COMM_RMA_RDMA_MIN bytes, messages below (they
 *            travel with the epoch's lock request: one round trip); accumulates are messages (comm
 * uses no network atomics: mixing them with accumulates done in shared memory would not be atomic).
 *   messages everything else (other hosts, dynamic windows, COMM_SHM=0): the operation travels
 *            as a message on the window's own context and the target's progress carries it
 *            out: a large put or get is a rendezvous of the point-to-point engine, so its bytes
 *            are read once, straight into the window (fi_read across hosts, CMA inside one).
 * Locks live in the host's segment too, so a lock on a target of this host is an atomic
 * operation with no message; a target on another host grants locks from its progress.
 *
 * Passive-target progress: direct and cma targets need nothing from the target.  Messages need
 * the target's progress: it runs whenever the target is inside MPI, and COMM_PROGRESS_THREAD
 * starts a thread that runs it while the program computes.
 *
 * Threads: every function takes the core lock itself (runtime/thread.h) and waits without it.
 */
#ifndef COMM_RMA_H
#define COMM_RMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/mpi.h"
#include "base/config_table.h"
#include "btl/btl.h"

struct comm_communicator;
struct comm_datatype;
struct comm_op;
struct comm_request;
struct comm_info;

/* How this process reaches a target's window. */
enum comm_rma_path {
    COMM_RMA_DIRECT,
    COMM_RMA_CMA,
    COMM_RMA_NET,
    COMM_RMA_MESSAGES,
    COMM_RMA_NPATHS,
};

/* A target's lock word and accumulate lock: one cache line in the host's segment. */
struct comm_rma_ctl {
    uint64_t lock; /* RMA_LOCK_EXCL, or the number of shared holders */
    uint32_t acc;  /* 1 while an accumulate is applied */
    uint32_t pad[13];
};

struct rma_region;
struct rma_held;

/* What this process knows of one member of the window, and its side of the epoch with it. */
struct comm_rma_peer {
    long world;
    enum comm_rma_path path;
    uint64_t base; /* its window's address in its own memory (cma) */
    uint64_t size;
    int disp_unit;
    char *direct;                 /* its window mapped here (direct), NULL otherwise */
    struct comm_rma_ctl *ctl;     /* its lock word, when reachable here; NULL otherwise */
    struct comm_btl_endpoint *ep; /* cma, net: the btl that reaches it */
    struct comm_btl_key key;      /* net: its window's registration */
    uint64_t *regions; /* dynamic: its attached memory as last heard (base, length pairs) */
    int nregions;
    /* Origin side. */
    int lock_type;    /* held here: 0, MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE */
    bool lock_direct; /* taken on ctl, not granted by a message */
    /* A lock granted by messages is asked for with the first operation of its epoch (an
     * epoch without operations sends nothing): LOCK_PENDING until then; LOCK_REQ receives the
     * grant, and is waited for at the end of the epoch. */
    bool lock_pending;
    struct comm_request *lock_req;
    bool posted;          /* PSCW: its MPI_Win_post has reached this process */
    unsigned outstanding; /* operations to it not complete here yet */
    uint64_t sent;        /* data messages to it, ever (the target counts what it applied) */
    uint64_t unflushed;   /* puts and accumulates sent to it as messages since the last
                             flush or unlock (fetches are answered when done) */
    /* Target side: messages from it whose data is still arriving, and a control message
     * (unlock, flush, complete) that waits for them. */
    unsigned pending;
    uint64_t got; /* data messages from it carried out here, ever */
    /* Its messages that wait behind a lock it asked for and was not granted yet (copies, in
     * the order they came): carried out once the lock is granted. */
    bool blocked;
    struct rma_held *held_head, *held_tail;
    int deferred; /* an RMA_AM_* type, or 0 */
    int deferred_lock;
    bool deferred_ack;
};

enum { COMM_RMA_SLOTS = 4 };

enum comm_rma_access {
    COMM_RMA_NONE,
    COMM_RMA_PSCW,  /* between MPI_Win_start and MPI_Win_complete */
    COMM_RMA_LOCKS, /* some MPI_Win_lock held */
    COMM_RMA_LOCK_ALL,
};

struct comm_win {
    MPI_Win handle; /* the object's own address */
    uint32_t magic;
    struct comm_communicator *comm; /* the window's own: its context, its error handler */
    int rank, size;
    int flavor; /* MPI_WIN_FLAVOR_* */
    void *base;
    MPI_Aint wsize;
    int disp_unit;
    int model;              /* MPI_WIN_UNIFIED */
    struct comm_info *info; /* the hints given, as MPI_Win_get_info returns them */
    char name[MPI_MAX_OBJECT_NAME];
    void *attrs;                             /* the user's attributes (api/api_attr.c owns them) */
    const void *accepted_op, *accepted_type; /* the API's last accepted accumulate (predefined) */
    struct comm_rma_peer *peers;
    size_t rdma_min;   /* net targets: smaller puts and gets travel as messages */
    bool any_messages; /* some member of the window uses messages (agreed at creation); when
                          none does, every operation was done when its call returned */
    /* The host's segment: control lines, then the windows of MPI_Win_allocate(_shared). */
    void *seg;
    size_t seg_len;
    struct comm_rma_ctl *bar;    /* the barrier line of the segment */
    int nlocal;                  /* members on this host */
    struct comm_rma_ctl own_ctl; /* this process's lock word when there is no segment */
    struct comm_rma_ctl *my_ctl;
    void *owned; /* MPI_Win_allocate memory outside a segment (freed with the window) */
    struct comm_btl_module *reg_module; /* the network btl the window's memory is registered */
    struct comm_btl_key reg_key;        /*   with, and the key (all zero: none) */
    /* Epochs. */
    bool fence_open; /* a fence opened an epoch (no MPI_MODE_NOSUCCEED) */
    enum comm_rma_access access;
    int nlocks;
    int *start_ranks, nstart;
    bool exposed; /* between MPI_Win_post and MPI_Win_wait/test */
    int *post_ranks, npost;
    struct comm_request **complete_reqs; /* MPI_Win_post: the complete of each origin */
    uint64_t *complete_counts;
    /* Target side of messages. */
    struct comm_request *slots[COMM_RMA_SLOTS];
    char *slot_buf[COMM_RMA_SLOTS];
    unsigned slot_head;
    uint64_t applied;           /* data messages carried out here, ever */
    uint32_t fences_done;       /* fences this process has finished waiting in */
    bool bypassed;              /* since the last fence, an operation reached another rank without
                                   a message (direct, cma, net): the fence needs a barrier */
    unsigned ops_started;       /* every 16th progresses (comm_win_op) */
    uint64_t fence_expected;    /* applied at the end of the last fence */
    struct rma_waiter *waiters; /* lock requests that wait for the lock */
    struct rma_region *regions; /* dynamic windows: attached memory */
    struct comm_win *next;      /* in the list the progress hook walks */
};

enum { COMM_WIN_MAGIC = 0x77696e64 };

/* The object of a handle, or NULL (MPI_WIN_NULL, a freed window or a handle that names none). */
struct comm_win *comm_win_lookup(MPI_Win handle);

/*
 * Makes a window of FLAVOR over COMM, which the window owns from now on (a communicator of
 * its own, on a context no one else uses; its error handler is the window's).  CREATE: BASE
 * and SIZE are the caller's memory; ALLOCATE and SHARED: SIZE bytes are allocated (in the
 * host's segment where the ranks share one) and *base_out tells where; DYNAMIC: no memory
 * until comm_win_attach.  Collective over COMM.  MPI_SUCCESS, MPI_ERR_NO_MEM, or
 * MPI_ERR_RMA_SHARED (SHARED over ranks of several hosts).
 */
int comm_win_create(struct comm_communicator *comm, int flavor, void *base, MPI_Aint size,
                    int disp_unit, void **base_out, struct comm_win **win_out);

/* Frees WIN (collective): waits for its members, then lets go of its memory and context. */
int comm_win_free(struct comm_win *win);

/* MPI_Win_shared_query: RANK's part of a shared window (MPI_PROC_NULL: the first non-empty). */
int comm_win_shared_query(struct comm_win *win, int rank, MPI_Aint *size, int *disp_unit,
                          void *baseptr);

/* Whether TARGET's dynamic window covers COUNT elements of DT at address DISP: from what this
 * process last heard of its attached memory, asking it again when that does not cover them. */
bool comm_win_dynamic_covers(struct comm_win *win, int target, MPI_Aint disp, MPI_Count count,
                             const struct comm_datatype *dt);

/* Dynamic windows: memory others may reach at its own address. */
int comm_win_attach(struct comm_win *win, void *base, MPI_Aint size);
int comm_win_detach(struct comm_win *win, const void *base);

/* Kinds of operation. */
enum comm_rma_kind {
    COMM_RMA_PUT = 1,
    COMM_RMA_GET,
    COMM_RMA_ACC,
    COMM_RMA_GET_ACC, /* also MPI_Fetch_and_op */
    COMM_RMA_CAS,
};

/* One operation, as the API checked it. */
struct comm_rma_op {
    enum comm_rma_kind kind;
    const void *origin; /* PUT, ACC, GET_ACC, CAS: the data; GET: where it goes */
    MPI_Count ocount;
    struct comm_datatype *odt;
    void *result; /* GET_ACC, CAS */
    MPI_Count rcount;
    struct comm_datatype *rdt;
    const void *compare; /* CAS */
    int target;
    MPI_Aint disp; /* in the target's displacement units (bytes of address: dynamic) */
    MPI_Count tcount;
    struct comm_datatype *tdt;
    struct comm_op *op; /* ACC, GET_ACC */
};

/*
 * Whether OP's target range lies inside the target's window (as this process knows it; for a
 * dynamic window the target checks).  A zero-count operation is always inside.
 */
bool comm_win_op_in_range(const struct comm_win *win, const struct comm_rma_op *op);

/*
 * Starts OP.  With REQ_OUT (the request forms) *REQ_OUT is a request that completes as the
 * standard says (a put when its buffer may be reused, a get when its data arrived).
 * MPI_SUCCESS or MPI_ERR_NO_MEM / MPI_ERR_OTHER.
 */
int comm_win_op(struct comm_win *win, const struct comm_rma_op *op, struct comm_request **req_out);

enum { COMM_RMA_ALL = -2 };

/* Synchronization (arguments and epochs checked by the caller). */
int comm_win_fence(struct comm_win *win, int assert);
int comm_win_post(struct comm_win *win, const int *ranks, int n, int assert);
int comm_win_start(struct comm_win *win, const int *ranks, int n, int assert);
int comm_win_complete(struct comm_win *win);
int comm_win_wait(struct comm_win *win);
int comm_win_test(struct comm_win *win, bool *flag);
int comm_win_lock(struct comm_win *win, int lock_type, int target, int assert);
int comm_win_unlock(struct comm_win *win, int target);
int comm_win_lock_all(struct comm_win *win, int assert);
int comm_win_unlock_all(struct comm_win *win);
/* TARGET COMM_RMA_ALL: every target.  LOCAL: only until this process's buffers may be reused. */
int comm_win_flush(struct comm_win *win, int target, bool local);
int comm_win_sync(struct comm_win *win);

/* The name of a path, for logs and comm-info ("direct", "cma", "net", "messages"). */
const char *comm_rma_path_name(enum comm_rma_path path);

/* Settings of the one-sided layer (COMM_RMA_*). */
extern const struct comm_setting_table comm_rma_settings;

#endif
