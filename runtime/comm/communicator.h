/*
 * communicator.h - communicator objects and the mapping from MPI_Comm handles to them.
 *
 * Layer: runtime core.  Must not: check MPI arguments or print (the API does).
 *
 * Ownership: MPI_COMM_WORLD and MPI_COMM_SELF are static objects set up by
 * comm_communicator_init_predefined(); they live until the process exits.  Fields are written
 * when the communicator is made, or under the core lock (the match queues; runtime/thread.h).
 * The table of communicators and the context ids are guarded by the core lock, which the
 * functions here take themselves: any thread may call them.  Per the standard, one
 * communicator's collectives are called from one thread at a time.
 */
#ifndef COMM_COMMUNICATOR_H
#define COMM_COMMUNICATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/mpi.h"
#include "runtime/comm/coll_table.h"
#include "runtime/errhandler.h"
#include "runtime/info.h"
#include "runtime/p2p/match.h"
#include "topo/topo.h"

struct comm_communicator {
    MPI_Comm handle; /* what the user holds */
    uint32_t magic;  /* COMM_COMMUNICATOR_MAGIC while the object is valid */
    bool predefined;
    int rank;
    int size;
    uint32_t context_id;     /* even; carried by every message of this communicator */
    const long *world_ranks; /* world rank of each rank; NULL: the same (MPI_COMM_WORLD) */
    struct comm_errhandler *errhandler;
    struct comm_info *info;              /* hints given with MPI_Comm_set_info; NULL: none */
    struct comm_match_queues match;      /* point-to-point: context_id */
    struct comm_match_queues coll_match; /* collectives: context_id + 1 */
    bool host_local;                     /* every member runs on this host */
    /* Intercommunicators: RANK and SIZE are in the local group; point-to-point peers are ranks
     * of the remote group.  Their collectives run over LOCAL_COMM, an intracommunicator of the
     * local group on context_id + 2, and between the groups' rank 0s on context_id + 1. */
    bool inter;
    int remote_size;
    const long *remote_world_ranks;
    struct comm_communicator *local_comm;
    unsigned coll_seq; /* nonblocking collectives started here: their tags */
    /* The collectives (runtime/comm/coll_table.h), set by the collective layer when the
     * communicator is made; and the families whose COMM_COLL_<OP> forced an algorithm then
     * (bit each; coll/coll.h). */
    const struct comm_coll_table *coll;
    unsigned coll_forced;
    void *attrs;       /* the user's attributes (api/api_attr.c owns them) */
    /* What the collective layer keeps for this communicator (e.g. a shared-memory segment),
     * and how to free it; called when the communicator is freed and at finalize. */
    void *coll_state;
    void (*coll_state_free)(struct comm_communicator *comm);
    unsigned coll_shm_deferred; /* small collectives run before the shm segment (coll/shm) */
    /* The hierarchy the hierarchical collectives run over (coll/hier owns it; built at the
     * first one), and how to free it.  HIER_STAGE: this communicator is one of another's
     * hierarchy stages, and never gets a hierarchy of its own. */
    void *hier;
    void (*hier_free)(struct comm_communicator *comm);
    bool hier_stage;
    unsigned coll_logged; /* collective families whose algorithm was logged here (bit each) */
    char name[MPI_MAX_OBJECT_NAME];
    /* The job's levels as this communicator's (local group's) members see them: LEVELS[0]
     * groups the ranks that share a host, LEVELS[1] a rack, and so on up the tree
     * (comm_job_topo_nlevels of them; none in a process without a job).  Each group has a
     * leader, its lowest rank.  Made once, when the communicator is. */
    int nlevels;
    struct comm_topo_groups *levels;
    /* References: the creator's (the user's handle, or the owner of an inner communicator)
     * and one per request that uses the communicator (comm_communicator_retain).  The object
     * goes when the last is released; until then its context still receives messages. */
    unsigned refs;
    struct comm_communicator *zombie_next; /* released inside the engine, destroyed later */
    /* The process topology (MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create*), shared
     * with duplicates (runtime/comm/proc_topo.h); NULL: none. */
    struct comm_proc_topo *proc_topo;
    /* A window's own communicator: the window (MPI_Win), whose user error handler is called
     * with it; NULL for every other communicator. */
    void *win;
};

/* MAGIC while the object is valid; FREED once its handle was let go (the object may live on
 * for requests still using it). */
enum { COMM_COMMUNICATOR_MAGIC = 0x636f6d6d, COMM_COMMUNICATOR_FREED = 0x66726565 };

/* Sets up MPI_COMM_WORLD (RANK of SIZE) and MPI_COMM_SELF; LOCAL_PEERS are the world ranks
 * on this host (NLOCAL of them).  COLL_ATTACH gives them, and every communicator made after
 * them, their collectives (runtime/comm/coll_table.h). */
int comm_communicator_init_predefined(int rank, int size, const long *local_peers, size_t nlocal,
                                      comm_coll_attach_fn coll_attach);

/*
 * The lowest level at which ranks A and B of COMM share a group (0: the same host), or
 * COMM->nlevels when they share none below the communicator itself.
 */
int comm_communicator_shared_level(const struct comm_communicator *comm, int a, int b);

/* Whether world rank WORLD_RANK runs on this host. */
bool comm_communicator_is_local(long world_rank);

/* Frees what the predefined communicators hold (unreceived messages); at finalize. */
void comm_communicator_finalize_predefined(void);

/*
 * A new communicator of SIZE ranks (world ranks copied from WORLD_RANKS; this process is
 * MY_RANK) on context CONTEXT, which every member agreed on and which this process has not used
 * (comm_communicator_next_context).  ERRHANDLER is retained.  COMM_ERR_NOMEM on failure.
 */
int comm_communicator_create(const long *world_ranks, int size, int my_rank, uint32_t context,
                             struct comm_errhandler *errhandler,
                             struct comm_communicator **comm_out);

/* As comm_communicator_create, for one of another communicator's hierarchy stages
 * (coll/hier/hier.h): marked hier_stage before it gets its collectives, which are flat. */
int comm_communicator_create_stage(const long *world_ranks, int size, int my_rank,
                                   uint32_t context, struct comm_errhandler *errhandler,
                                   struct comm_communicator **comm_out);

/*
 * Makes COMM (made by comm_communicator_create on context C for the local group) an
 * intercommunicator whose remote group is REMOTE_WORLD_RANKS (copied), with LOCAL_COMM (made
 * on context C + 2, owned from now on) for its collectives, and gives it an
 * intercommunicator's collectives.  COMM_ERR_NOMEM on failure.
 */
int comm_communicator_make_inter(struct comm_communicator *comm, const long *remote_world_ranks,
                                 int remote_size, struct comm_communicator *local_comm);

/*
 * Keeps a message that arrived for a context no communicator has yet here: a peer may start
 * using a new communicator before this process has finished making it.  The message joins the
 * communicator's unexpected queue when the communicator is made.
 */
void comm_communicator_park(uint32_t context, struct comm_unexpected *msg);

/*
 * Lets go of the creator's reference to a communicator made by comm_communicator_create: its
 * handle stops naming it at once (comm_communicator_lookup gives NULL), and the object, its
 * context and what the collectives keep for it go when the last request using it is freed
 * (MPI_Comm_free "marks the object for deallocation": pending operations complete normally).
 */
void comm_communicator_free(struct comm_communicator *comm);

/* A reference for a request that uses COMM (nothing for the predefined communicators). */
void comm_communicator_retain(struct comm_communicator *comm);

/*
 * Gives back a reference taken by comm_communicator_retain.  The last one destroys the
 * communicator, but not at once: the engine may be inside one of its queues, so it waits for
 * the next communicator call made outside the engine (create, free, finalize).
 */
void comm_communicator_release(struct comm_communicator *comm);

/*
 * Contexts.  A communicator made on context C holds [C, C + COMM_CONTEXT_SPAN): C itself
 * (+1 for collectives), C + 2 for an intercommunicator's local group, and the contexts of the
 * hierarchy's communicators (its stages and its rails, coll/hier/hier.h) of C's communicator
 * (and of that local group), so those need no agreement of their own: every member derives
 * them.
 */
enum {
    COMM_HIER_MAX_STAGES = 8,
    COMM_HIER_CONTEXTS = 2 * COMM_HIER_MAX_STAGES, /* the stages, then the rails */
    COMM_CONTEXT_SPAN = 2 * COMM_HIER_CONTEXTS + 4,
};

/* The context of the hierarchy's communicator SLOT (0 to COMM_HIER_CONTEXTS - 1) of COMM. */
uint32_t comm_communicator_hier_context(const struct comm_communicator *comm, int slot);

/* The lowest context this process has not used yet (even).  A new communicator takes the
 * largest of its members' values, so the context is new to every member. */
uint32_t comm_communicator_next_context(void);

/* Keeps CONTEXT (and every context below it) from being used by this process from now on:
 * a communicator being agreed on without blocking (MPI_Comm_idup) holds it this way. */
void comm_communicator_reserve_context(uint32_t context);

/* Reserves CONTEXT as comm_communicator_reserve_context does, and says whether it was still
 * free here (no communicator of this process used it), in one step: two threads agreeing on
 * contexts at once cannot both find one free.  *NEXT_OUT: comm_communicator_next_context()
 * after the reservation. */
bool comm_communicator_claim_context(uint32_t context, uint32_t *next_out);

/*
 * Making a communicator from a parent (communicator_make.c).  Agreeing on its context with
 * PARENT's other members (collectively, through PARENT's collective table): one allreduce, and
 * more only while some member may take contexts in the meantime.  MPI_SUCCESS or the error of
 * the collective (not raised).
 */
int comm_communicator_agree_context(struct comm_communicator *parent, uint32_t *context_out);

/*
 * comm_communicator_agree_context in two halves, for a caller that carries the proposals in an
 * exchange of its own (MPI_Comm_split, MPI_Comm_create_group).  The proposal: this process's
 * next free context, and whether that may grow while the exchange waits (1: an MPI_Comm_idup
 * in flight here, whose progress reserves contexts, or other threads that may make
 * communicators; else 0).  The settlement, collective over PARENT: given the largest proposal
 * and whether any member's may grow, the context (with more allreduces in the second case
 * only); MPI_SUCCESS or the error of the collective.
 */
void comm_communicator_context_proposal(unsigned *next_out, unsigned *unsettled_out);
int comm_communicator_context_settle(struct comm_communicator *parent, unsigned candidate,
                                     bool unsettled, uint32_t *context_out);

/* MPI_Comm_idup's agreements in flight here: +1 when one starts, -1 when it has made its
 * communicator (one that fails stays counted: agreements then take their longer way).  Any
 * thread. */
void comm_communicator_idup_inflight(int delta);

/* A communicator of PARENT's (local) group, in PARENT's order, on CONTEXT (agreed).
 * COMM_OK or COMM_ERR_NOMEM. */
int comm_communicator_make_from(struct comm_communicator *parent, uint32_t context,
                                struct comm_communicator **comm_out);

/* The world ranks of C's (local) group, malloc'ed; NULL when out of memory. */
long *comm_communicator_local_ranks(const struct comm_communicator *c);

/* The object behind a handle, or NULL for MPI_COMM_NULL and handles that name nothing. */
struct comm_communicator *comm_communicator_lookup(MPI_Comm handle);

/* The communicator a message's context id names, or NULL. */
struct comm_communicator *comm_communicator_by_context(uint32_t context_id);

/* Calls FN on every communicator this process has (MPI_COMM_WORLD and MPI_COMM_SELF first),
 * under the core lock. */
void comm_communicator_each(void (*fn)(struct comm_communicator *c, void *arg), void *arg);

/* World rank of RANK in COMM (in its local group for an intercommunicator). */
static inline long comm_communicator_world_rank(const struct comm_communicator *comm, int rank)
{
    return comm->world_ranks == NULL ? (long)rank : comm->world_ranks[rank];
}

/* World rank of point-to-point peer PEER: in the remote group of an intercommunicator. */
static inline long comm_communicator_peer_world_rank(const struct comm_communicator *comm, int peer)
{
    return comm->inter ? comm->remote_world_ranks[peer] : comm_communicator_world_rank(comm, peer);
}

/* Number of point-to-point peers: the remote group's size for an intercommunicator. */
static inline int comm_communicator_peer_count(const struct comm_communicator *comm)
{
    return comm->inter ? comm->remote_size : comm->size;
}

#endif
