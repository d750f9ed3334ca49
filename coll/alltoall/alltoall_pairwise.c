/*
 * alltoall_pairwise.c - pairwise-exchange all-to-all: in step k every rank sends its block for
 * rank + k and receives the block of rank - k (mod p), one exchange at a time.
 *
 * Wins: large messages, and uneven blocks (v and w forms): every pair exchanges once and no
 * rank is flooded.  Cost: p-1 steps, each one latency plus one block each way.
 * Restrictions: none.  With MPI_IN_PLACE the receive buffer is copied first and the copy is
 * sent from.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/alltoall/alltoall.h"
#include "runtime/communicator.h"
#include "runtime/datatype.h"

#include <stdlib.h>
#include <string.h>

/* The span of bytes a buffer described by counts/displs/types covers, from its start. */
static size_t alltoall_span(int size, const int *counts, const MPI_Aint *displs,
                            struct comm_datatype *const *dts)
{
    size_t span = 0;

    for (int r = 0; r < size; r++) {
        if (counts[r] > 0) {
            size_t end = (size_t)(displs[r] + dts[r]->true_lb +
                                  (MPI_Aint)(counts[r] - 1) * dts[r]->extent + dts[r]->true_extent);
            if (end > span) {
                span = end;
            }
        }
    }
    return span;
}

int comm_coll_alltoall_pairwise(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                                struct comm_datatype *const *sdts, void *rbuf, const int *rcounts,
                                const MPI_Aint *rdispls, struct comm_datatype *const *rdts,
                                struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, err = MPI_SUCCESS;
    char *copy = NULL;

    if (sbuf == NULL) {
        /* In place: send from a copy of the receive buffer, described by the receive arrays. */
        size_t span = alltoall_span(size, rcounts, rdispls, rdts);

        copy = malloc(span > 0 ? span : 1);
        if (copy == NULL) {
            return MPI_ERR_NO_MEM;
        }
        memcpy(copy, rbuf, span);
        sbuf = copy;
        scounts = rcounts;
        sdispls = rdispls;
        sdts = rdts;
    }
    for (int step = 0; step < size && err == MPI_SUCCESS; step++) {
        int to = (rank + step) % size, from = (rank - step + size) % size;

        err = comm_coll_sendrecv((const char *)sbuf + sdispls[to], scounts[to], sdts[to], to,
                                 (char *)rbuf + rdispls[from], rcounts[from], rdts[from], from,
                                 COMM_COLL_TAG_ALLTOALL, comm);
    }
    free(copy);
    return err;
}
