/*
 * allreduce.c - the registry of allreduce algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/allreduce/allreduce.h"
#include "coll/hier/hier.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"
#include "runtime/op/op.h"

/* Measured (2 ranks, one host, OSU-style benchmark): from 1 MiB Rabenseifner's halves, read
 * straight out of the send buffers, beat the shared buffer (116 against 128 us at 1 MiB, 190
 * against 257 at 2 MiB; 71 against 64 at 512 KiB). */
enum { ALLREDUCE_PAIR_DIRECT = 1 << 20 };

/* Indexes into the table. */
enum {
    ALLREDUCE_RECURSIVE_DOUBLING,
    ALLREDUCE_REDUCE_BCAST,
    ALLREDUCE_RABENSEIFNER,
    ALLREDUCE_RING,
    ALLREDUCE_SHM,
    ALLREDUCE_HIER,
};

const struct comm_coll_algorithm comm_coll_allreduce_algorithms[] = {
    [ALLREDUCE_RECURSIVE_DOUBLING] = {.name = "recursive_doubling",
                                      .fn.allreduce = comm_coll_allreduce_recursive_doubling},
    [ALLREDUCE_REDUCE_BCAST] = {.name = "reduce_bcast",
                                .fn.allreduce = comm_coll_allreduce_reduce_bcast},
    [ALLREDUCE_RABENSEIFNER] = {.name = "rabenseifner",
                                .restrictions = COMM_COLL_COMMUTATIVE_ONLY,
                                .fn.allreduce = comm_coll_allreduce_rabenseifner},
    [ALLREDUCE_RING] = {.name = "ring",
                        .restrictions = COMM_COLL_COMMUTATIVE_ONLY,
                        .fn.allreduce = comm_coll_allreduce_ring},
    [ALLREDUCE_SHM] = {.name = "shm",
                       .restrictions = COMM_COLL_HOST_LOCAL_ONLY,
                       .fn.allreduce = comm_coll_allreduce_shm},
    [ALLREDUCE_HIER] = {.name = "hier",
                        .restrictions = COMM_COLL_MULTI_HOST_ONLY | COMM_COLL_COMMUTATIVE_ONLY,
                        .fn.allreduce = comm_coll_allreduce_hier},
};

const size_t comm_coll_allreduce_nalgorithms =
    sizeof(comm_coll_allreduce_algorithms) / sizeof(comm_coll_allreduce_algorithms[0]);

/*
 * Vector sizes (bytes) where the choice changes, from the OSU-style benchmark at 2 to 8 ranks
 * on one host: below LONG, recursive doubling's log2 p whole-vector exchanges cost less than
 * Rabenseifner's twice as many half-as-large ones; a non-power-of-two size pays two more
 * whole-vector moves for the fold, so Rabenseifner wins there only from LONG_FOLDED, and the
 * ring, which needs no fold but 2 (p-1) steps, from RING_LONG.
 */
enum {
    ALLREDUCE_LONG = 32 << 10,
    ALLREDUCE_LONG_FOLDED = 128 << 10,
    ALLREDUCE_RING_LONG = 2 << 20,
};

size_t comm_coll_allreduce_choose(const struct comm_coll_call *call)
{
    int size = call->comm->size;

    /* Within a host the shared buffer wins, and keeps rank order; but two ranks with long
     * vectors do better exchanging halves directly (each reads the other's half once). */
    if (size == 2 && comm_coll_shm_allowed(call->comm) && call->bytes >= ALLREDUCE_PAIR_DIRECT &&
        call->op != NULL && call->op->commutative) {
        return ALLREDUCE_RABENSEIFNER;
    }
    if (size > 1 && comm_coll_shm_allowed(call->comm)) {
        return ALLREDUCE_SHM;
    }
    /* Across racks: each level's links carry the vector once up and once down (hier.h). */
    if (call->op != NULL && call->op->commutative &&
        call->bytes >= comm_coll_hier_floor(COMM_COLL_HIER_ALLREDUCE_FLOOR) &&
        comm_coll_hier_spans_switches(call->comm)) {
        return ALLREDUCE_HIER;
    }
    /* Only recursive doubling keeps rank order among the fast ones. */
    if (size == 1 || call->op == NULL || !call->op->commutative) {
        return ALLREDUCE_RECURSIVE_DOUBLING;
    }
    if ((size & (size - 1)) == 0) {
        return call->bytes < ALLREDUCE_LONG ? ALLREDUCE_RECURSIVE_DOUBLING : ALLREDUCE_RABENSEIFNER;
    }
    if (call->bytes < ALLREDUCE_LONG_FOLDED) {
        return ALLREDUCE_RECURSIVE_DOUBLING;
    }
    return call->bytes < ALLREDUCE_RING_LONG ? ALLREDUCE_RABENSEIFNER : ALLREDUCE_RING;
}
