/*
 * allgather_ring.c - ring allgather: in step k every rank passes on the block it received in
 * step k-1 to its right neighbour, so after p-1 steps every rank has every block.
 *
 * Wins: large messages (bandwidth-optimal: each rank sends and receives (p-1)/p of the data
 * once), and uneven blocks (MPI_Allgatherv).  Cost: p-1 latencies.  Restrictions: none.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/allgather/allgather.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_allgather_ring(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                             void *rbuf, const int *rcounts, const int *displs,
                             struct comm_datatype *rdt, struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, err = MPI_SUCCESS;

    if (sbuf != NULL) {
        err = comm_coll_sendrecv(sbuf, scount, sdt, rank,
                                 (char *)rbuf + (MPI_Aint)displs[rank] * rdt->extent, rcounts[rank],
                                 rdt, rank, COMM_COLL_TAG_ALLGATHER, comm);
    }
    for (int step = 0; step < size - 1 && err == MPI_SUCCESS; step++) {
        int sblock = (rank - step + size) % size, rblock = (rank - step - 1 + size) % size;

        err = comm_coll_sendrecv((char *)rbuf + (MPI_Aint)displs[sblock] * rdt->extent,
                                 rcounts[sblock], rdt, right,
                                 (char *)rbuf + (MPI_Aint)displs[rblock] * rdt->extent,
                                 rcounts[rblock], rdt, left, COMM_COLL_TAG_ALLGATHER, comm);
    }
    return err;
}
