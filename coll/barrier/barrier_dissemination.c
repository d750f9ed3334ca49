/*
 * barrier_dissemination.c - dissemination barrier (Hensgen, Finkel and Manber, 1988).
 *
 * In round k every rank signals rank + 2^k and waits for rank - 2^k (mod size); after
 * ceil(log2 p) rounds every rank has heard, directly or not, from every other.
 * Wins: always (no root, any size).  Cost: ceil(log2 p) zero-byte message latencies.
 * Restrictions: none.
 */
#include "config.h"

#include "coll/barrier/barrier.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_barrier_dissemination(struct comm_communicator *comm)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);

    for (int k = 1; k < comm->size; k <<= 1) {
        int to = (comm->rank + k) % comm->size;
        int from = (comm->rank - k + comm->size) % comm->size;
        int err =
            comm_coll_sendrecv(NULL, 0, byte, to, NULL, 0, byte, from, COMM_COLL_TAG_BARRIER, comm);

        if (err != MPI_SUCCESS) {
            return err;
        }
    }
    return MPI_SUCCESS;
}
