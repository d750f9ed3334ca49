/*
 * coll.h - the contract of collective algorithms.
 *
 * Layer: coll, between the API (which calls collectives) and the runtime core
 * (point-to-point, which the algorithms use through the helpers below).
 * Must not: be named by the runtime core; touch the user's point-to-point traffic.
 *
 * One algorithm per file, coll/<op>/<op>_<algorithm>.c: a plain function with the common
 * signature of its operation (runtime/comm/coll_table.h).  coll/<op>/<op>.c registers every
 * algorithm of the operation with its name and restrictions, and says which one a call gets
 * from the communicator's size, the message size and the operation; COMM_COLL_<OP>=<name>
 * forces one (refused, with the reason, when its restrictions do not hold).  Every algorithm
 * talks to its peers on the communicator's collective context, so its messages never match the
 * user's receives.
 *
 * The files around the algorithms, from the bottom: coll_tunables.c (the hierarchy's floors,
 * the lazy shared-memory segment), coll_registry.c (every family's algorithms),
 * coll_settings.c (COMM_COLL_<OP>), coll_select.c (the choice for one call), coll_table.c (the
 * table every communicator gets when it is made: comm->coll).  An algorithm that runs others
 * (reduce then bcast, a hierarchy's stages) calls them through their communicator's table,
 * never through the selector.
 *
 * Buffers: when an operation allows MPI_IN_PLACE, the API passes the receive buffer as the
 * send buffer; an algorithm must work when sbuf == rbuf.  Reductions combine in rank order
 * (rank 0's contribution first), so non-commutative operations give the standard's result.
 *
 * Returns: MPI_SUCCESS or an MPI error code (the API raises it on the communicator).
 * Threads: called without the core lock (runtime/thread.h), which the point-to-point and
 * progress functions take themselves: a thread blocked in a collective holds no lock.  Calls on
 * different communicators may run at once in several threads.
 */
#ifndef COMM_COLL_H
#define COMM_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "include/mpi.h"
#include "base/config_table.h"
#include "runtime/comm/coll_table.h"
#include "runtime/comm/communicator.h"

struct comm_datatype;
struct comm_op;

/* Restrictions an algorithm declares. */
enum {
    COMM_COLL_COMMUTATIVE_ONLY = 1 << 0, /* reductions: the op must be commutative */
    COMM_COLL_POW2_ONLY = 1 << 1,        /* the communicator size must be a power of two */
    COMM_COLL_UNIFORM_ONLY = 1 << 2,     /* plain forms only (equal blocks, one type) */
    COMM_COLL_HOST_LOCAL_ONLY = 1 << 3,  /* every member on this host (comm->host_local) */
    COMM_COLL_MULTI_HOST_ONLY = 1 << 4,  /* members on more than one host, and not itself a
                                            hierarchy's stage (coll/hier/hier.h) */
};

/* An algorithm's function, by family. */
union comm_coll_fn {
    comm_coll_barrier_fn barrier;
    comm_coll_bcast_fn bcast;
    comm_coll_reduce_fn reduce;
    comm_coll_allreduce_fn allreduce;
    comm_coll_gatherv_fn gatherv;
    comm_coll_scatterv_fn scatterv;
    comm_coll_allgatherv_fn allgatherv;
    comm_coll_alltoallw_fn alltoallw;
    comm_coll_reduce_scatter_fn reduce_scatter;
    comm_coll_scan_fn scan;
};

/* One registered algorithm. */
struct comm_coll_algorithm {
    const char *name;
    unsigned restrictions; /* COMM_COLL_* */
    union comm_coll_fn fn;
    /* The v form's function where it is another (gather and scatter's hier); else fn serves
     * both forms. */
    union comm_coll_fn fn_v;
};

/* The collective settings, for the settings registry: COMM_COLL_<OP> (coll_settings.c), then
 * the tunables (coll_tunables.c). */
extern const struct comm_setting_table comm_coll_settings;
extern const struct comm_setting_table comm_coll_tunable_settings;

/* The collective operations, each with its own family of algorithms. */
enum comm_coll_family {
    COMM_COLL_BARRIER,
    COMM_COLL_BCAST,
    COMM_COLL_REDUCE,
    COMM_COLL_ALLREDUCE,
    COMM_COLL_GATHER,
    COMM_COLL_SCATTER,
    COMM_COLL_ALLGATHER,
    COMM_COLL_ALLTOALL,
    COMM_COLL_REDUCE_SCATTER,
    COMM_COLL_SCAN,
    COMM_COLL_NFAMILIES
};

/*
 * What a call looks like, for choosing its algorithm.  Every member must see the same values
 * (they all pick the same algorithm): BYTES is one rank's block for the plain forms and 0 for
 * the v and w forms, whose block sizes differ between ranks; UNIFORM says the call is a plain
 * form (every block has the same count and type, laid out one after another).
 */
struct comm_coll_call {
    const struct comm_communicator *comm;
    size_t bytes;
    const struct comm_op *op; /* reductions; NULL otherwise */
    bool uniform;
};

/* ---- the table (coll_table.c) ----------------------------------------------------------- */

/* Gives COMM its table (comm->coll: the intracommunicator's or the intercommunicator's) and
 * notes which families COMM_COLL_<OP> forces (comm->coll_forced).  The attach function
 * comm_runtime_init is given (runtime/comm/coll_table.h).  Returns COMM_OK. */
int comm_coll_attach(struct comm_communicator *comm);

/* Whether COMM_COLL_<OP> of FAMILY named an algorithm (rather than auto) when COMM got its
 * table: an algorithm forced so is to run as itself from the first call, as the tests of each
 * algorithm need. */
static inline bool comm_coll_is_forced(const struct comm_communicator *comm,
                                       enum comm_coll_family family)
{
    return (comm->coll_forced & (1u << family)) != 0;
}

/* ---- the choice (coll_select.c) --------------------------------------------------------- */

/*
 * Chooses the algorithm of a call: the forced one if COMM_COLL_<OP> names one, else the
 * family's own choice by communicator and message size.  A forced algorithm serves only the
 * calls its restrictions allow; the others get the family's choice (logged at debug), so that
 * forcing an algorithm never makes a valid call fail.  The family's choice must satisfy its
 * own restrictions.  The communicator's first call of each family says what it runs (at info).
 * Never NULL.
 */
const struct comm_coll_algorithm *comm_coll_select(enum comm_coll_family family,
                                                   const struct comm_coll_call *call);

/* Whether a call's family would run "hier" (auto's choice, or forced): the nonblocking
 * collectives follow the blocking ones' choice. */
bool comm_coll_hier_chosen(enum comm_coll_family family, const struct comm_coll_call *call);

/* ---- the settings (coll_settings.c, coll_tunables.c) ------------------------------------ */

/* The algorithm COMM_COLL_<OP> of FAMILY forces, or NULL for auto (read at the first call: the
 * environment is a job's fixed input). */
const struct comm_coll_algorithm *comm_coll_forced(enum comm_coll_family family);

/* The name of FAMILY's setting ("COMM_COLL_ALLREDUCE"), for messages. */
const char *comm_coll_setting_name(enum comm_coll_family family);

/* COMM_COLL_SHM_LAZY: how many small collectives a host-local communicator runs with messages
 * before it sets up its shared-memory segment (coll/shm/coll_shm.h). */
unsigned comm_coll_shm_lazy(void);

/* ---- the registry (coll_registry.c) ----------------------------------------------------- */

/* The algorithm FAMILY's own choice gives CALL (coll/<op>/<op>.c's). */
const struct comm_coll_algorithm *comm_coll_choose(enum comm_coll_family family,
                                                   const struct comm_coll_call *call);

/* For comm-info and the settings: the operation's name ("allreduce"), its INDEXth algorithm
 * (NULL past the last), and what its restrictions mean in words ("" when it has none). */
const char *comm_coll_family_name(enum comm_coll_family family);
const struct comm_coll_algorithm *comm_coll_algorithm_at(enum comm_coll_family family,
                                                         size_t index);
const char *comm_coll_restrictions_text(unsigned restrictions, char *buf, size_t len);

/* ---- what algorithms use (coll/coll_p2p.c) ------------------------------------------ */

/* Blocking send and receive of COUNT elements on COMM's collective context. */
int comm_coll_send(const void *buf, MPI_Count count, struct comm_datatype *dt, int peer, int tag,
                   struct comm_communicator *comm);
int comm_coll_recv(void *buf, MPI_Count count, struct comm_datatype *dt, int peer, int tag,
                   struct comm_communicator *comm);
/* Started sends and receives in REQ (the caller's memory, which must outlive them), and the
 * wait for one: for algorithms that keep several messages in flight. */
struct comm_request;
int comm_coll_isend(struct comm_request *req, const void *buf, MPI_Count count,
                    struct comm_datatype *dt, int peer, int tag, struct comm_communicator *comm);
int comm_coll_irecv(struct comm_request *req, void *buf, MPI_Count count,
                    struct comm_datatype *dt, int peer, int tag, struct comm_communicator *comm);
int comm_coll_wait(struct comm_request *req);

/* Both at once (no deadlock whatever the peers' order). */
int comm_coll_sendrecv(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt, int dest,
                       void *rbuf, MPI_Count rcount, struct comm_datatype *rdt, int source,
                       int tag, struct comm_communicator *comm);

/* Fills REQ (not allocated: on the caller's stack or in a schedule) for a send or receive of
 * COUNT elements on COMM's collective context; start it with comm_p2p_start_send/recv. */
void comm_coll_request_init(struct comm_request *req, int kind, const void *buf,
                            MPI_Count count, struct comm_datatype *dt, int peer, int tag,
                            struct comm_communicator *comm);

/* Copies COUNT elements of DT from SRC to DST (both laid out by DT). */
int comm_coll_copy(const void *src, void *dst, MPI_Count count, struct comm_datatype *dt);

/* A buffer that holds COUNT elements of DT (laid out by DT, true_lb honoured): the returned
 * pointer is what to pass as the buffer; free it with comm_coll_free_buffer. */
void *comm_coll_alloc_buffer(MPI_Count count, struct comm_datatype *dt, void **block_out);
void comm_coll_free_buffer(void *block);

/* COUNT elements of DT at BUF as packed bytes, for algorithms that cut a message by bytes
 * (the ranks' type maps may differ, their bytes do not): BUF itself from its true lower bound
 * when DT is contiguous (*PACKED_OUT NULL), else a buffer (*PACKED_OUT, free it), filled from
 * BUF when PACK.  NULL when out of memory. */
char *comm_coll_bytes(void *buf, MPI_Count count, struct comm_datatype *dt, bool pack,
                      char **packed_out);

#endif
