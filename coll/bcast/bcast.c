/*
 * bcast.c - the registry of broadcast algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/bcast/bcast.h"
#include "coll/hier/hier.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"

enum { BCAST_BINOMIAL, BCAST_SCATTER_ALLGATHER, BCAST_CHAIN, BCAST_SHM, BCAST_HIER };

/* Measured (2 ranks, one host): from 8 KiB the binomial tree's single read beats the shared
 * buffer's copy in and copy out (6 us against 31 us at 64 KiB). */
enum { BCAST_PAIR_DIRECT = 8192 };

const struct comm_coll_algorithm comm_coll_bcast_algorithms[] = {
    [BCAST_BINOMIAL] = {.name = "binomial", .fn.bcast = comm_coll_bcast_binomial},
    [BCAST_SCATTER_ALLGATHER] = {.name = "scatter_allgather",
                                 .fn.bcast = comm_coll_bcast_scatter_allgather},
    [BCAST_CHAIN] = {.name = "chain", .fn.bcast = comm_coll_bcast_chain},
    [BCAST_SHM] = {.name = "shm",
                   .restrictions = COMM_COLL_HOST_LOCAL_ONLY,
                   .fn.bcast = comm_coll_bcast_shm},
    [BCAST_HIER] = {.name = "hier",
                    .restrictions = COMM_COLL_MULTI_HOST_ONLY,
                    .fn.bcast = comm_coll_bcast_hier},
};

const size_t comm_coll_bcast_nalgorithms =
    sizeof(comm_coll_bcast_algorithms) / sizeof(comm_coll_bcast_algorithms[0]);

/*
 * Measured with examples/bench/bcast (completion time, the slowest rank) on shared memory, 3
 * to 8 ranks, 8 B to 16 MiB: the binomial tree is as fast as anything below 1 MiB, where
 * latency and tree depth dominate; from 1 MiB, scatter-allgather beats it on 5 ranks and more
 * (it moves about 2n bytes per rank where the tree moves n log2 p); on 3 and 4 ranks
 * scatter-allgather gains nothing and the chain wins from 8 MiB (every rank receives the
 * message once, all links busy), while on more ranks than cores the chain's long pipeline
 * lost.  Two ranks always take one message.
 */
enum {
    BCAST_LONG = 1 << 20,     /* from here scatter-allgather, on 5 ranks or more */
    BCAST_PIPELINE = 8 << 20, /* from here the chain, on 3 or 4 ranks */
};

size_t comm_coll_bcast_choose(const struct comm_coll_call *call)
{
    int size = call->comm->size;

    /* Within a host the shared buffer wins, but for two ranks from 8 KiB, where the binomial
     * tree is one single-copy read of the root's buffer. */
    if (size > 1 && comm_coll_shm_allowed(call->comm) &&
        (size > 2 || call->bytes < BCAST_PAIR_DIRECT)) {
        return BCAST_SHM;
    }
    /* Across racks, from a size: the message crosses each level's links once (hier.h). */
    if (call->bytes >= comm_coll_hier_floor(COMM_COLL_HIER_BCAST_FLOOR) &&
        comm_coll_hier_spans_switches(call->comm)) {
        return BCAST_HIER;
    }
    if (size <= 2 || call->bytes < BCAST_LONG) {
        return BCAST_BINOMIAL;
    }
    if (size <= 4) {
        return call->bytes >= BCAST_PIPELINE ? BCAST_CHAIN : BCAST_BINOMIAL;
    }
    return BCAST_SCATTER_ALLGATHER;
}
