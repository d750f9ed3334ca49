/*
 * gather.c - the registry of gather algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/gather/gather.h"
#include "runtime/comm/communicator.h"

enum { GATHER_LINEAR, GATHER_BINOMIAL, GATHER_HIER };

const struct comm_coll_algorithm comm_coll_gather_algorithms[] = {
    [GATHER_LINEAR] = {.name = "linear", .fn.gatherv = comm_coll_gather_linear},
    [GATHER_BINOMIAL] = {.name = "binomial",
                         .restrictions = COMM_COLL_UNIFORM_ONLY,
                         .fn.gatherv = comm_coll_gather_binomial},
    [GATHER_HIER] = {.name = "hier",
                     .restrictions = COMM_COLL_MULTI_HOST_ONLY,
                     .fn.gatherv = comm_coll_gather_hier,
                     .fn_v.gatherv = comm_coll_gatherv_hier},
};

const size_t comm_coll_gather_nalgorithms =
    sizeof(comm_coll_gather_algorithms) / sizeof(comm_coll_gather_algorithms[0]);

/*
 * Measured with examples/bench/gather (completion time, the root's) on shared memory, 2 to 16
 * ranks, blocks of 8 B to 4 MiB: the linear gather was never beaten.  Short blocks arrive
 * eagerly, so the root's p-1 receives find their data waiting, and long ones the root reads
 * straight from the senders; the tree only adds hops, and from 256 KiB its copies make it 2
 * to 3 times slower.  The tree's log2 p receives at the root are left for communicators of
 * GATHER_MANY ranks or more with short blocks, where p-1 receives must cost more than log2 p
 * hops.  The v form takes the linear gather, the only one that serves it.
 */
enum {
    GATHER_SHORT = 2 << 10, /* up to this block size, the tree on many ranks */
    GATHER_MANY = 32,
};

size_t comm_coll_gather_choose(const struct comm_coll_call *call)
{
    if (call->uniform && call->comm->size >= GATHER_MANY && call->bytes <= GATHER_SHORT) {
        return GATHER_BINOMIAL;
    }
    return GATHER_LINEAR;
}
