/*
 * alltoall.c - the registry of all-to-all algorithms, and the choice among them.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/alltoall/alltoall.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"

enum { ALLTOALL_PAIRWISE, ALLTOALL_BRUCK, ALLTOALL_SHM };

const struct comm_coll_algorithm comm_coll_alltoall_algorithms[] = {
    [ALLTOALL_PAIRWISE] = {.name = "pairwise", .fn.alltoallw = comm_coll_alltoall_pairwise},
    [ALLTOALL_BRUCK] = {.name = "bruck",
                        .restrictions = COMM_COLL_UNIFORM_ONLY,
                        .fn.alltoallw = comm_coll_alltoall_bruck},
    [ALLTOALL_SHM] = {.name = "shm",
                      .restrictions = COMM_COLL_UNIFORM_ONLY | COMM_COLL_HOST_LOCAL_ONLY,
                      .fn.alltoallw = comm_coll_alltoall_shm},
};

const size_t comm_coll_alltoall_nalgorithms =
    sizeof(comm_coll_alltoall_algorithms) / sizeof(comm_coll_alltoall_algorithms[0]);

/*
 * Measured with examples/bench/alltoall on shared memory (comm-run -np P --bind-to none
 * alltoall -m 8:65536, each algorithm forced): the pairwise exchange keeps a window of
 * COMM_COLL_ALLTOALL_PAIRWISE_WINDOW (8) exchanges in flight, so up to 9 ranks it sends everything
 * at once and beats Bruck at every block size (4 ranks, 8 B: 4.7 against 6.0-9.1 us; 8 ranks:
 * 14.6-17.3 against 17.3-21.5 us).  On 16 ranks Bruck's log2 p rounds win up to blocks of
 * 512 B (63 against 80 us at 8 B), and lose from 1 KiB (279 against 111 us), where its packing
 * and (n/2) log2 p bytes cost more than the messages it saves.  The v and w forms take the
 * pairwise exchange, the only one that serves them.
 * Within a host the shared segment beats both while the p blocks of a rank fit one slot (4
 * ranks: 2.9-4.6 against 4.0-4.5 us at 8 B, 26-28 against 56-72 us at 64 KiB; 3 ranks, 64 KiB:
 * 23-33 against 41-43 us), but on 2 ranks from 32 KiB, where the pairwise exchange's single
 * copy wins (5.8-6.4 against 7.4-8.9 us; at 16 KiB the segment still wins, 3.8-4.1 against
 * 4.3-5.6 us; alternating runs, --bind-to core).
 */
enum {
    /* up to this many ranks, pairwise sends everything at once */
    ALLTOALL_ONE_WINDOW = COMM_COLL_ALLTOALL_PAIRWISE_WINDOW + 1,
    ALLTOALL_SHORT = 512,            /* above ALLTOALL_ONE_WINDOW ranks, Bruck up to this block */
    ALLTOALL_SHM_PAIR_BLOCK = 16384, /* on 2 ranks of a host, the shared segment up to this */
};

size_t comm_coll_alltoall_choose(const struct comm_coll_call *call)
{
    int size = call->comm->size;

    if (call->uniform && size > 1 && (size > 2 || call->bytes <= ALLTOALL_SHM_PAIR_BLOCK) &&
        call->bytes * (size_t)size <= comm_coll_shm_slot_size(size) &&
        comm_coll_shm_allowed(call->comm)) {
        return ALLTOALL_SHM;
    }
    if (!call->uniform || size <= ALLTOALL_ONE_WINDOW) {
        return ALLTOALL_PAIRWISE;
    }
    if (call->bytes <= ALLTOALL_SHORT) {
        return ALLTOALL_BRUCK;
    }
    return ALLTOALL_PAIRWISE;
}
