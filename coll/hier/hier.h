/*
 * hier.h - the hierarchy a communicator's hierarchical collectives ("hier") run over.
 *
 * Layer: coll.
 *
 * The levels.  A communicator groups its ranks at each of the job's levels (comm->levels: the
 * host, then every level of the topology file).  The hierarchy keeps the levels that matter to
 * this communicator: the host level, then each higher level that has fewer groups than the one
 * below it, up to the first level with a single group (the whole communicator), which needs no
 * stage of its own.  A job without a topology file has the host level only.
 *
 * The stages, from the bottom: stage 0 is the ranks of my host (my group at the host level);
 * stage i is the leaders of the groups of kept level i-1 that lie in my group of kept level i;
 * the last stage is the leaders of the top kept level's groups, across the communicator.  A
 * group's leader is its lowest rank, which leads every group it is the lowest of, so a rank
 * takes part in the stages 0 to its "top": the first stage where it is not rank 0 (or the
 * last).  Every stage communicator lists its members in the parent's rank order.
 *
 * Contexts: stage i uses comm_communicator_hier_context(comm, i), which every member derives
 * from the parent's context: the stages are made, at the first hierarchical collective, with
 * no message.  A stage communicator is made a stage (comm_communicator_create_stage): its own
 * collectives, reached through its table, are flat.
 *
 * Ownership: the hierarchy lives in comm->hier until the communicator is freed.
 */
#ifndef COMM_COLL_HIER_H
#define COMM_COLL_HIER_H

#include <stdbool.h>
#include <stdint.h>

#include "coll/coll.h"
#include "runtime/comm/communicator.h"

struct comm_coll_hier {
    int nstages;
    /* Stage i's communicator, or NULL where this rank does not take part (above its top). */
    struct comm_communicator *stage[COMM_HIER_MAX_STAGES];
    /* Stage i's members as ranks of the communicator, in order (stage[i]->size of them). */
    int *member[COMM_HIER_MAX_STAGES];
    /* The job level of stage i's scope: its members share a group of that level (the last
     * stage's scope is the whole communicator: -1). */
    int level[COMM_HIER_MAX_STAGES];
    int top; /* this rank's top stage */
    /* The rails (below), made at the first call that uses them; rails_checked says whether
     * that was tried (rails stays NULL when the communicator is not regular). */
    struct comm_coll_hier_rails *rails;
    bool rails_checked;
    /* What rank 0 said at info, once per communicator (hier_pipe.c's enum pipe_said): that
     * allreduce pipelined its stages, that MPI_Iallreduce or MPI_Ibcast went over the rails. */
    unsigned said;
};

/*
 * The rails: the bandwidth-optimal composition for long vectors, where every rank of every
 * host carries a slice across the levels above, instead of the leaders carrying all of it.
 *
 * Rail 0 is stage 0 (my host's ranks).  Rail s >= 1 is, within my group of stage s's scope
 * (the whole communicator for the last), the ranks whose rank in each rail below is the same
 * as mine: one per group of stage s - 1's scope.  A vector cut into rail 0's size blocks,
 * rank i of my host holding block i, then block i cut into rail 1's size pieces, and so on,
 * gives every rank of a rail the same piece to combine or pass on.  That needs the
 * communicator to be regular: every host holds as many of its ranks, and at each stage every
 * rail has as many members (a level's groups hold as many groups of the level below); when it
 * is not, the algorithms keep the leaders.
 *
 * Bytes: an allreduce of n bytes over R groups of the top level with the rails sends, across
 * each group's uplink, 2 n (R - 1) / R: the least any algorithm can (every rail of a group
 * sends its piece once, to the ring of its fellows in the other groups).
 */
struct comm_coll_hier_rails {
    int nrails;                                           /* h->nstages */
    struct comm_communicator *rail[COMM_HIER_MAX_STAGES]; /* rail[0] is stage[0] */
    int *member[COMM_HIER_MAX_STAGES]; /* rail s's members as communicator ranks */
    int parts[COMM_HIER_MAX_STAGES];   /* rail s's size, the same on every rank */
    /* Each communicator rank's place in rail order: its places in rails 0, 1, ... read as the
     * digits of a number, rail 0's the most significant.  The ranks that share my places in
     * rails 0 to s are consecutive there: what my rails above s gather. */
    int *order;
};

/* COMM's rails (made at the first call: no messages), or NULL when the communicator is not
 * regular (or out of memory).  Every rank of COMM gets the same answer. */
const struct comm_coll_hier_rails *comm_coll_hier_rails_get(struct comm_communicator *comm);

/* Frees RAILS (not rail 0: the hierarchy's stage 0); NULL is allowed (hier.c: the hierarchy
 * owns its rails). */
void comm_coll_hier_rails_free(struct comm_coll_hier_rails *rails);

/* Whether a call of BYTES on COMM goes over the rails: COMM is regular and BYTES reaches
 * COMM_COLL_HIER_RAILS_MIN (the same on every rank for the uniform calls that ask). */
bool comm_coll_hier_use_rails(struct comm_communicator *comm, size_t bytes);

/* The rank in my rail S of the member that stands for RANK's group of stage S - 1's scope (in
 * my group of stage S's scope): at rail 0, RANK itself (of my host). */
int comm_coll_hier_rail_holder(const struct comm_coll_hier *h,
                               const struct comm_coll_hier_rails *rails, int s,
                               const struct comm_communicator *comm, int rank);

/* Whether RANK of COMM shares my group of stage S's scope. */
bool comm_coll_hier_in_my_scope(const struct comm_coll_hier *h, int s,
                                const struct comm_communicator *comm, int rank);

/* The steps on one rail of a vector of COUNT elements of DT at BUF (laid out by DT), cut into
 * the rail's size blocks (coll_blocks.h's split): member i's block i.
 * Reduce-scatter: on return my block of BUF is reduced over the rail (SRC, when not NULL and
 * not BUF, is this rank's input, else BUF is); the rest of BUF is scratch.
 * Allgather: every member's block to every member.
 * IN_HOST (rail 0): the shared-memory collectives, one per block; else the ring.
 * Scatter: member ROOT's blocks, one to each member (the others' BUF receives only its block).
 * Gather: every member's block to member ROOT. */
int comm_coll_hier_rail_reduce_scatter(const void *src, void *buf, MPI_Count count,
                                       struct comm_datatype *dt, struct comm_op *op,
                                       struct comm_communicator *rail, bool in_host);
int comm_coll_hier_rail_allgather(void *buf, MPI_Count count, struct comm_datatype *dt,
                                  struct comm_communicator *rail, bool in_host);
int comm_coll_hier_rail_scatter(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                                struct comm_communicator *rail);
int comm_coll_hier_rail_gather(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                               struct comm_communicator *rail);

/* My way through the rails' pieces of a vector: at rail s, the piece of N[s] elements from
 * element FIRST[s] that the rail cuts up; AT and LEN, my piece below the rails walked so far. */
struct comm_coll_hier_walk {
    MPI_Count first[COMM_HIER_MAX_STAGES], n[COMM_HIER_MAX_STAGES];
    MPI_Count at, len;
};

/* Starts W on a vector of COUNT elements. */
void comm_coll_hier_walk_init(struct comm_coll_hier_walk *w, MPI_Count count);

/* Notes rail S's piece in W and steps down to my block of it. */
void comm_coll_hier_walk_step(struct comm_coll_hier_walk *w,
                              const struct comm_coll_hier_rails *rails, int s);

/* Allreduce's and reduce's way down: the reduce-scatters on every rail but the last, from SBUF
 * (or BUF when they are the same) into BUF; W ends at my piece of the last rail. */
int comm_coll_hier_rails_reduce_scatter(const void *sbuf, void *buf, MPI_Count count,
                                        struct comm_datatype *dt, struct comm_op *op,
                                        const struct comm_coll_hier_rails *rails,
                                        struct comm_coll_hier_walk *w);

/* Allreduce's and bcast's way back: the allgathers of W's pieces, from the rail below the
 * last down to the host. */
int comm_coll_hier_rails_allgather(void *buf, struct comm_datatype *dt,
                                   const struct comm_coll_hier_rails *rails,
                                   const struct comm_coll_hier_walk *w);

/*
 * The stages overlapped (hier_pipe.c).  comm_coll_hier_pipe_segments: how many segments a call
 * of BYTES cuts the piece each rank carries above its host into (COMM_COLL_HIER_SEGMENT bytes
 * each, at most 64; 1: the stages run one after another), the same on every rank of a
 * regular communicator.  comm_coll_hier_pipe_allreduce: the allreduce over RAILS with the
 * host's stages in shared memory and the levels above in K segments, each level working on
 * one segment while the next works on another (K schedules on COMM, which take K of its tags).
 */
size_t comm_coll_hier_segment(void);
int comm_coll_hier_pipe_segments(const struct comm_coll_hier_rails *rails, size_t bytes);
int comm_coll_hier_pipe_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                                  struct comm_datatype *dt, struct comm_op *op,
                                  struct comm_communicator *comm,
                                  const struct comm_coll_hier_rails *rails, int k);

/* MPI_Iallreduce's schedule over RAILS (S on their communicator): a ring on each rail, the
 * host's included, up to the top and back (messages only: shared memory's collectives block). */
struct comm_coll_sched;
int comm_coll_iallreduce_hier_rails(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                                    MPI_Count count, struct comm_datatype *dt, struct comm_op *op,
                                    const struct comm_coll_hier_rails *rails);
/* MPI_Ibcast's: the root's side scatters on each rail up to the top, the top rail broadcasts
 * each piece, ring allgathers rebuild it on every rail down to the host's. */
int comm_coll_ibcast_hier_rails(struct comm_coll_sched *s, void *buf, MPI_Count count,
                                struct comm_datatype *dt, int root,
                                const struct comm_coll_hier_rails *rails);

/* My block (first element and count) of COUNT elements cut among a rail of PARTS members of
 * which I am member INDEX. */
void comm_coll_hier_rail_block(MPI_Count count, int parts, int index, MPI_Count *first,
                               MPI_Count *n);

/*
 * Whether COMM can run the hierarchical algorithms: it spans more than one host (at the host
 * level, more than one group) and is not itself a hierarchy's stage.
 */
bool comm_coll_hier_applies(const struct comm_communicator *comm);

/* Whether COMM spans more than one group at a level above the host (a topology file's rack,
 * say) that holds more than one of its hosts: the links between those groups are the ones
 * the hierarchy spares. */
bool comm_coll_hier_spans_switches(const struct comm_communicator *comm);

/*
 * Whether the hierarchical algorithms save crossings over the flat ones on COMM: it applies,
 * and some host holds more than one of its ranks, or it spans switches.
 */
bool comm_coll_hier_pays(const struct comm_communicator *comm);

/* The smallest call (bytes) "auto" sends over the hierarchy of a communicator that spans
 * racks: COMM_COLL_HIER_<OP>_MIN, defaults below (coll_tunables.c owns the settings). */
enum comm_coll_hier_floor {
    COMM_COLL_HIER_ALLREDUCE_FLOOR,
    COMM_COLL_HIER_BCAST_FLOOR,
    COMM_COLL_HIER_REDUCE_FLOOR,
    COMM_COLL_HIER_RAILS_FLOOR, /* where hier takes the rails (regular communicators) */
    COMM_COLL_HIER_ALLGATHER_FLOOR,
    COMM_COLL_HIER_REDUCE_SCATTER_FLOOR,
    COMM_COLL_HIER_NFLOORS
};
size_t comm_coll_hier_floor(enum comm_coll_hier_floor which);

/*
 * Where "auto" picks the hierarchical algorithms (the settings' defaults), measured on the
 * simulated cluster (8 ranks on 4 hosts in 2 racks, uplinks shaped to 200 Mbit/s, ranks
 * yielding as on 2 cores; examples/bench/cluster-compare, figures in docs/performance.md):
 * with a topology file, allreduce over the hierarchy wins from 1 KiB (1.2x-2.3x at 1-8 KiB;
 * 1.66x-1.95x the best flat algorithm from 1 MiB, at 1.04x-1.22x the uplinks' limit over the
 * rails) but loses up to 1.5x at 8 B, where its extra stages cost a latency each: hence its
 * floor.  Broadcast and reduce tie with the best flat tree with ranks host by host and win
 * 1.4x-2x round-robin from 64 KiB, and lose at 8 B.  Allgather wins 1.5x-2x from 1 KiB a
 * rank, ties or loses at 8 B.  Reduce-scatter wins 1.5x-2x from 64 KiB.  Gather and scatter
 * tie (every byte passes the root's uplink whatever the algorithm): auto keeps the flat ones.
 * The rails beat the leaders from 1 MiB (2x at 16 MiB: 0.76 s against 1.5 s); below they
 * tie.  Allgather over the rails: 1.2x-1.3x the limit at 1-4 MiB blocks, against the leaders'
 * 2x.  The barrier wins even with hosts only (1.15x to 1.45x).  With hosts only (no file),
 * allreduce ties or loses to the flat ring and recursive doubling: auto keeps those.
 */

/* Makes *OUT, a communicator of the hierarchy on COMM's context slot SLOT (stages 0 to
 * COMM_HIER_MAX_STAGES - 1, then the rails): the N communicator ranks MEMBERS, in rank order,
 * this rank among them; named "KIND INDEX of <COMM's name>" and marked hier_stage. */
int comm_coll_hier_make_comm(struct comm_communicator *comm, const int *members, int n, int slot,
                             const char *kind, int index, struct comm_communicator **out);

/* COMM's hierarchy, made at the first call (no messages); NULL when out of memory. */
struct comm_coll_hier *comm_coll_hier_get(struct comm_communicator *comm);

/* The rank, in stage S of the hierarchy H, of the communicator's rank RANK (a member). */
int comm_coll_hier_stage_rank(const struct comm_coll_hier *h, int s, int rank);

/* The leader (a rank of COMM) of RANK's group at stage S's scope: rank 0 of that stage's
 * communicator among RANK's fellows (0 for the last stage).  Stage S's member that stands for
 * RANK is RANK at stage 0, else its leader at stage S - 1's scope. */
int comm_coll_hier_leader(const struct comm_coll_hier *h, int s,
                          const struct comm_communicator *comm, int rank);

/* Stage S's member that stands for RANK: RANK itself at stage 0, else RANK's leader at stage
 * S - 1's scope. */
int comm_coll_hier_rep(const struct comm_coll_hier *h, int s, const struct comm_communicator *comm,
                       int rank);

/* Whether member M of stage S stands for RANK: the ranks it stands for (its "subtree") are M
 * alone at stage 0, else M's group at stage S - 1's scope.  S may be h->nstages: then member
 * 0 of that stage (M = 0) stands for every rank. */
bool comm_coll_hier_in_subtree(const struct comm_coll_hier *h, int s,
                               const struct comm_communicator *comm, int m, int rank);

/* How many ranks member M of stage S stands for. */
int comm_coll_hier_subtree_size(const struct comm_coll_hier *h, int s,
                                const struct comm_communicator *comm, int m);

/* Whether RANK is on ROOT's path to the top: ROOT, or the leader of one of ROOT's groups below
 * the last stage's scope (the ranks that comm_coll_hier_up_path and _down_path pass data
 * through). */
bool comm_coll_hier_on_path(const struct comm_coll_hier *h, const struct comm_communicator *comm,
                            int root, int rank);

/*
 * How the blocks of stage S's members' subtrees lie when they travel member by member, each
 * member's in rank order (the "runs"), against the rank order of all of them (the subtree of
 * the stage's member 0 at stage S + 1: the whole communicator at the last stage).  Fills, for
 * the stage's member i, COUNTS_OUT[i] (how many ranks it stands for) and OFFS_OUT[i] (where its
 * run starts, in blocks), and for the u-th of all those ranks in rank order RUN_OUT[u] (its
 * place in the runs).  Returns how many ranks there are.  This rank must take part in stage S.
 */
int comm_coll_hier_runs(const struct comm_coll_hier *h, int s, const struct comm_communicator *comm,
                        int *counts_out, int *offs_out, int *run_out);

/*
 * The blocks of a rooted gather or scatter over the hierarchy at one rank (gather_hier.c,
 * scatter_hier.c), every rank's block B bytes: PACKED holds those of the ranks this rank
 * holds, in rank order (HELD of them; room for every rank's on ROOT's path, else for its top
 * stage's subtree); RUNS the same member by member (comm_coll_hier_runs) where a stage's ranks
 * interleave, made at need.  The caller owns it: comm_coll_hier_blocks_init, then
 * comm_coll_hier_blocks_free (also after a failed init).
 */
struct comm_coll_hier_blocks {
    const struct comm_coll_hier *h;
    struct comm_communicator *comm;
    size_t b, room;
    char *packed, *runs;
    int held;
    int *counts, *offs, *run; /* comm_coll_hier_runs, for one stage */
};
int comm_coll_hier_blocks_init(struct comm_coll_hier_blocks *x, const struct comm_coll_hier *h,
                               struct comm_communicator *comm, size_t b, int root);
void comm_coll_hier_blocks_free(struct comm_coll_hier_blocks *x);

/* Lays out stage S's runs (this rank takes part in it) for N_OUT ranks: returns where the runs
 * lie, PACKED itself when their order is the rank order, else RUNS; NULL when out of memory. */
char *comm_coll_hier_blocks_layout(struct comm_coll_hier_blocks *x, int s, int *n_out);

/* Copies the N ranks' blocks of the stage last laid out from PACKED to RUNS (TO_RUNS), or back. */
void comm_coll_hier_blocks_reorder(struct comm_coll_hier_blocks *x, int n, bool to_runs);

/*
 * The blocks of MPI_Gatherv and MPI_Scatterv over the hierarchy (hier_vblocks.c), each rank's
 * of its own size: X holds N ranks' sizes (bytes, in rank order) and their bytes one after
 * another.  Whatever crosses a stage is the sizes, then the bytes.
 * vheld_init: my own block of BYTES (its bytes still to fill in X->data); vheld_set: N ranks'
 * sizes, room for their bytes.  vsend, vrecv: X to or from rank TO or FROM of a stage (N ranks'
 * worth).  vcollect: this rank, the root of stage S, collects its members' blocks into X
 * (its own before, the stage's subtree's in rank order after); vhand: the reverse, each member
 * handed its subtree's, X keeps this rank's.  vpath: every rank's sizes and bytes up ROOT's path
 * to the top (UP) or down from it (ranks off the path return at once).  MPI error codes.
 */
struct comm_coll_hier_vheld {
    int n;
    int64_t *size;
    char *data;
    size_t bytes;
};
int comm_coll_hier_vheld_init(struct comm_coll_hier_vheld *x, size_t bytes);
int comm_coll_hier_vheld_set(struct comm_coll_hier_vheld *x, int n, const int64_t *size);
void comm_coll_hier_vheld_free(struct comm_coll_hier_vheld *x);
int comm_coll_hier_vsend(const struct comm_coll_hier_vheld *x, int to,
                         struct comm_communicator *stage);
int comm_coll_hier_vrecv(struct comm_coll_hier_vheld *x, int n, int from,
                         struct comm_communicator *stage);
int comm_coll_hier_vcollect(struct comm_coll_hier_vheld *x, const struct comm_coll_hier *h,
                            int s, const struct comm_communicator *comm);
int comm_coll_hier_vhand(struct comm_coll_hier_vheld *x, const struct comm_coll_hier *h, int s,
                         const struct comm_communicator *comm);
int comm_coll_hier_vpath(struct comm_coll_hier_vheld *x, const struct comm_coll_hier *h, int root,
                         struct comm_communicator *comm, bool up);

/*
 * The rooted collectives' path between the top and ROOT: BUF (COUNT elements of DT) goes from
 * ROOT up to the last stage's member for ROOT's groups (comm_coll_hier_up_path), or from that
 * member down to ROOT (comm_coll_hier_down_path), one message per stage where the two ends
 * differ.  Ranks off the path return at once.  Statuses: MPI_SUCCESS or an MPI error code.
 */
int comm_coll_hier_up_path(const struct comm_coll_hier *h, void *buf, MPI_Count count,
                           struct comm_datatype *dt, int root, struct comm_communicator *comm);
int comm_coll_hier_down_path(const struct comm_coll_hier *h, void *buf, MPI_Count count,
                             struct comm_datatype *dt, int root, struct comm_communicator *comm);

/* Tag of the hierarchical algorithms' own messages (relays, fan-in and fan-out) on a stage. */
enum { COMM_COLL_TAG_HIER = 12 };

/*
 * The flat collectives on a stage, through the stage's own table (the algorithm its family
 * picks there, or the one COMM_COLL_<OP> forces, when it can serve a stage).  A stage of one
 * rank moves nothing (a reduction copies SBUF to RBUF when they differ).
 */
int comm_coll_hier_reduce(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                          struct comm_op *op, int root, struct comm_communicator *stage);
int comm_coll_hier_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                             struct comm_datatype *dt, struct comm_op *op,
                             struct comm_communicator *stage);
int comm_coll_hier_bcast(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                         struct comm_communicator *stage);
int comm_coll_hier_barrier(struct comm_communicator *stage);

#endif
