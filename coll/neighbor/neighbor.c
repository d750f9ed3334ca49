/*
 * neighbor.c - the neighbourhood exchange: every receive and send of a process posted at
 * once, one round.
 *
 * Layer: coll.  Cost: one message per neighbour and direction, all in flight together; no
 * copies beyond what the point-to-point layer makes.  Works on any process topology.
 *
 * Order: messages between two processes on one schedule match in the order they were posted,
 * so for a grid, where a periodic dimension of size 1 or 2 makes a rank its neighbour twice,
 * the receives of each dimension are posted upper neighbour first: the first message of a pair
 * (sent to the sender's lower neighbour) then lands in the receiver's block for its upper
 * neighbour: block s of the sender lands in block s ^ 1 of the receiver, as MPI 4.1 section 8.6
 * (Example 8.10) spells out, an erratum that applies to MPI 3.1 too.  Between graph neighbours
 * joined by several edges, the k-th edge to a process matches the k-th edge from it.
 */
#include "config.h"

#include "coll/neighbor/neighbor.h"

#include "runtime/comm/communicator.h"

#include <stdint.h>

/* Block I of SIDE. */
static void *neighbor_block(const struct comm_coll_neighbor_side *side, int i)
{
    return (char *)(uintptr_t)side->buf + side->displs[i];
}

int comm_coll_ineighbor(struct comm_coll_sched *s, const struct comm_coll_neighbor_side *send,
                        const struct comm_coll_neighbor_side *recv, bool cart_pairs)
{
    int err = MPI_SUCCESS;

    for (int j = 0; j < recv->degree && err == MPI_SUCCESS; j++) {
        int i = cart_pairs ? (j ^ 1) : j;

        if (recv->ranks[i] != MPI_PROC_NULL) {
            err = comm_coll_sched_recv(s, neighbor_block(recv, i), recv->counts[i], recv->dts[i],
                                       recv->ranks[i]);
        }
    }
    for (int i = 0; i < send->degree && err == MPI_SUCCESS; i++) {
        if (send->ranks[i] != MPI_PROC_NULL) {
            err = comm_coll_sched_send(s, neighbor_block(send, i), send->counts[i], send->dts[i],
                                       send->ranks[i]);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}
