/*
 * alltoall.c - the registry of all-to-all algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/alltoall/alltoall.h"
#include "runtime/communicator.h"

enum { ALLTOALL_PAIRWISE, ALLTOALL_BRUCK };

const struct comm_coll_algorithm comm_coll_alltoall_algorithms[] = {
    [ALLTOALL_PAIRWISE] = {.name = "pairwise", .fn.alltoallw = comm_coll_alltoall_pairwise},
    [ALLTOALL_BRUCK] = {.name = "bruck",
                        .restrictions = COMM_COLL_UNIFORM_ONLY,
                        .fn.alltoallw = comm_coll_alltoall_bruck},
};

const size_t comm_coll_alltoall_nalgorithms =
    sizeof(comm_coll_alltoall_algorithms) / sizeof(comm_coll_alltoall_algorithms[0]);

/*
 * Measured with examples/bench/alltoall on shared memory, 2 to 8 ranks, blocks of 8 B to
 * 1 MiB: Bruck's log2 p messages beat the pairwise exchange's p-1 up to blocks of 2 KiB, and up
 * to 8 KiB on 8 ranks (the more ranks, the more messages it saves); beyond, its packing and
 * its (n/2) log2 p bytes lose, by 2 to 4 times at 64 KiB.  With 2 ranks both send one message.
 * The v and w forms take the pairwise exchange, the only one that serves them.
 */
enum {
    ALLTOALL_SHORT = 2 << 10,      /* up to this block size, Bruck */
    ALLTOALL_SHORT_MANY = 8 << 10, /* up to this one on ALLTOALL_MANY ranks or more */
    ALLTOALL_MANY = 8,
};

size_t comm_coll_alltoall_choose(const struct comm_coll_call *call)
{
    int size = call->comm->size;

    if (!call->uniform || size <= 2) {
        return ALLTOALL_PAIRWISE;
    }
    if (call->bytes <= ALLTOALL_SHORT ||
        (size >= ALLTOALL_MANY && call->bytes <= ALLTOALL_SHORT_MANY)) {
        return ALLTOALL_BRUCK;
    }
    return ALLTOALL_PAIRWISE;
}
