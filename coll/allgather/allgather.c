/*
 * allgather.c - the registry of allgather algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/allgather/allgather.h"
#include "coll/hier/hier.h"
#include "runtime/comm/communicator.h"

enum { ALLGATHER_RING, ALLGATHER_RECURSIVE_DOUBLING, ALLGATHER_BRUCK, ALLGATHER_HIER };

const struct comm_coll_algorithm comm_coll_allgather_algorithms[] = {
    [ALLGATHER_RING] = {.name = "ring", .fn.allgatherv = comm_coll_allgather_ring},
    [ALLGATHER_RECURSIVE_DOUBLING] = {.name = "recursive_doubling",
                                      .fn.allgatherv = comm_coll_allgather_recursive_doubling},
    [ALLGATHER_BRUCK] = {.name = "bruck", .fn.allgatherv = comm_coll_allgather_bruck},
    [ALLGATHER_HIER] = {.name = "hier",
                        .restrictions = COMM_COLL_MULTI_HOST_ONLY,
                        .fn.allgatherv = comm_coll_allgather_hier},
};

const size_t comm_coll_allgather_nalgorithms =
    sizeof(comm_coll_allgather_algorithms) / sizeof(comm_coll_allgather_algorithms[0]);

/*
 * Measured with examples/bench/allgather on shared memory, 2 to 8 ranks, blocks of 8 B to
 * 4 MiB, by the whole result (p blocks): recursive doubling is the fastest or as fast up to
 * 4 MiB on a power-of-two size; on other sizes its fold and unfold cost a whole extra result,
 * and the ring catches up from about 128 KiB.  Bruck's packed copies lose from 64 KiB, but
 * it needs no fold, so it takes the smallest results on other sizes.  The v form's block sizes
 * are unknown here: the ring is never much worse.
 */
enum {
    ALLGATHER_TINY = 8 << 10,     /* below this, Bruck on non-power-of-two sizes */
    ALLGATHER_MEDIUM = 128 << 10, /* below this, recursive doubling on the others */
    ALLGATHER_LONG = 4 << 20,     /* below this, recursive doubling on powers of two */
};

size_t comm_coll_allgather_choose(const struct comm_coll_call *call)
{
    int size = call->comm->size;
    size_t total = call->bytes * (size_t)size;

    /* Across racks the hierarchy wins from a few KiB a rank (coll/hier/hier.h). */
    if (call->bytes >= comm_coll_hier_floor(COMM_COLL_HIER_ALLGATHER_FLOOR) &&
        comm_coll_hier_spans_switches(call->comm)) {
        return ALLGATHER_HIER;
    }
    if (!call->uniform) {
        return ALLGATHER_RING;
    }
    if ((size & (size - 1)) == 0) {
        return total < ALLGATHER_LONG ? ALLGATHER_RECURSIVE_DOUBLING : ALLGATHER_RING;
    }
    if (total < ALLGATHER_TINY) {
        return ALLGATHER_BRUCK;
    }
    return total < ALLGATHER_MEDIUM ? ALLGATHER_RECURSIVE_DOUBLING : ALLGATHER_RING;
}
