/*
 * scatter.c - the registry of scatter algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/scatter/scatter.h"
#include "runtime/comm/communicator.h"

enum { SCATTER_LINEAR, SCATTER_BINOMIAL, SCATTER_HIER };

const struct comm_coll_algorithm comm_coll_scatter_algorithms[] = {
    [SCATTER_LINEAR] = {.name = "linear", .fn.scatterv = comm_coll_scatter_linear},
    [SCATTER_BINOMIAL] = {.name = "binomial",
                          .restrictions = COMM_COLL_UNIFORM_ONLY,
                          .fn.scatterv = comm_coll_scatter_binomial},
    [SCATTER_HIER] = {.name = "hier",
                      .restrictions = COMM_COLL_MULTI_HOST_ONLY,
                      .fn.scatterv = comm_coll_scatter_hier,
                      .fn_v.scatterv = comm_coll_scatterv_hier},
};

const size_t comm_coll_scatter_nalgorithms =
    sizeof(comm_coll_scatter_algorithms) / sizeof(comm_coll_scatter_algorithms[0]);

/*
 * Measured with examples/bench/scatter (completion time, the slowest rank) on shared memory,
 * 2 to 8 ranks, blocks of 8 B to 4 MiB: below 8 KiB the root's p-1 sends go out eagerly, one
 * after another without waiting, and the linear scatter wins; from 8 KiB each send waits for
 * its receiver, and the tree, whose subtrees proceed in parallel, wins by 1.3 to 1.7 times on
 * 4 and 8 ranks up to 512 KiB; beyond, the tree's extra copies of whole subtrees lose.
 * Short blocks take the tree too on communicators of SCATTER_MANY ranks or more, where p-1
 * sends must cost more than log2 p hops.  The v form takes the linear scatter, the only one
 * that serves it; with 3 ranks or fewer both send the same messages.
 */
enum {
    SCATTER_MEDIUM = 8 << 10, /* from this block size, the tree */
    SCATTER_LONG = 512 << 10, /* up to (not including) this one */
    SCATTER_MANY = 32,
};

size_t comm_coll_scatter_choose(const struct comm_coll_call *call)
{
    int size = call->comm->size;

    if (!call->uniform || size <= 3 || call->bytes >= SCATTER_LONG) {
        return SCATTER_LINEAR;
    }
    if (call->bytes >= SCATTER_MEDIUM || size >= SCATTER_MANY) {
        return SCATTER_BINOMIAL;
    }
    return SCATTER_LINEAR;
}
