/*
 * bcast_binomial.c - binomial-tree broadcast.
 *
 * Ranks are renumbered relative to the root; a rank receives from the rank that differs in
 * its lowest set bit, then sends to the ranks below that bit.
 * Wins: short messages, where latency dominates.  Cost: ceil(log2 p) rounds, each moving the
 * whole message (the root sends it log2 p times).  Restrictions: none.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/bcast/bcast.h"
#include "runtime/comm/communicator.h"

int comm_coll_bcast_binomial(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                             struct comm_communicator *comm)
{
    int size = comm->size, vrank = (comm->rank - root + size) % size, mask = 1, err;

    while (mask < size) {
        if (vrank & mask) {
            err = comm_coll_recv(buf, count, dt, (vrank - mask + root) % size, COMM_COLL_TAG_BCAST,
                                 comm);
            if (err != MPI_SUCCESS) {
                return err;
            }
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vrank + mask < size) {
            err = comm_coll_send(buf, count, dt, (vrank + mask + root) % size, COMM_COLL_TAG_BCAST,
                                 comm);
            if (err != MPI_SUCCESS) {
                return err;
            }
        }
    }
    return MPI_SUCCESS;
}
