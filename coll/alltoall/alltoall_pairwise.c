/*
 * alltoall_pairwise.c - pairwise-exchange all-to-all: in step k every rank sends its block for
 * rank + k and receives the block of rank - k (mod p).  A rank's own block is copied locally.
 * Up to COMM_COLL_ALLTOALL_PAIRWISE_WINDOW steps are in flight at once (their receives posted
 * first, then their sends), so a window costs about one latency rather than one per step, and the
 * copies of its exchanges overlap.
 *
 * Wins: up to 9 ranks always; large blocks, and uneven ones (v and w forms): every pair
 * exchanges once and at most a window of messages is in flight per rank.  Cost: p-1 exchanges,
 * ceil((p-1)/window) latencies plus one block each way per exchange.  Restrictions: none.
 * With MPI_IN_PLACE the receive buffer is copied first and the copy is sent from.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/alltoall/alltoall.h"
#include "runtime/comm/communicator.h"
#include "base/copy.h"
#include "runtime/datatype/datatype.h"
#include "runtime/p2p/request.h"

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

/* A rank's own block: copied here, without a message, when both sides are contiguous and
 * hold the same bytes; otherwise through a message to itself (which packs, unpacks and
 * reports a mismatch as any message would). */
static int alltoall_copy_own(const void *sbuf, int scount, struct comm_datatype *sdt, void *rbuf,
                             int rcount, struct comm_datatype *rdt, struct comm_communicator *comm)
{
    size_t len = (size_t)scount * sdt->size;

    if (sdt->contiguous && rdt->contiguous && len == (size_t)rcount * rdt->size) {
        if (len > 0) {
            char *to = (char *)rbuf + rdt->true_lb;
            const char *from = (const char *)sbuf + sdt->true_lb;

            /* A large own block is not read again before the peers' blocks have gone by. */
            if (len >= comm_copy_stream_min()) {
                comm_copy_stream(to, from, len);
            } else {
                memcpy(to, from, len);
            }
        }
        return MPI_SUCCESS;
    }
    return comm_coll_sendrecv(sbuf, scount, sdt, comm->rank, rbuf, rcount, rdt, comm->rank,
                              COMM_COLL_TAG_ALLTOALL, comm);
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
    err = alltoall_copy_own((const char *)sbuf + sdispls[rank], scounts[rank], sdts[rank],
                            (char *)rbuf + rdispls[rank], rcounts[rank], rdts[rank], comm);
    for (int first = 1; first < size && err == MPI_SUCCESS;) {
        struct comm_request rreqs[COMM_COLL_ALLTOALL_PAIRWISE_WINDOW],
            sreqs[COMM_COLL_ALLTOALL_PAIRWISE_WINDOW];
        int window = size - first < COMM_COLL_ALLTOALL_PAIRWISE_WINDOW
                         ? size - first
                         : COMM_COLL_ALLTOALL_PAIRWISE_WINDOW;
        int nr = 0, ns = 0, e;

        /* Receives first, so that the sends of this window find them posted. */
        while (nr < window && err == MPI_SUCCESS) {
            int from = (rank - first - nr + size) % size;

            err = comm_coll_irecv(&rreqs[nr], (char *)rbuf + rdispls[from], rcounts[from],
                                  rdts[from], from, COMM_COLL_TAG_ALLTOALL, comm);
            nr += err == MPI_SUCCESS;
        }
        while (ns < nr && err == MPI_SUCCESS) {
            int to = (rank + first + ns) % size;

            err = comm_coll_isend(&sreqs[ns], (const char *)sbuf + sdispls[to], scounts[to],
                                  sdts[to], to, COMM_COLL_TAG_ALLTOALL, comm);
            ns += err == MPI_SUCCESS;
        }
        /* Every started request is waited for, even after an error: they live on this
         * stack. */
        for (int i = 0; i < ns; i++) {
            e = comm_coll_wait(&sreqs[i]);
            err = err == MPI_SUCCESS ? e : err;
        }
        for (int i = 0; i < nr; i++) {
            e = comm_coll_wait(&rreqs[i]);
            err = err == MPI_SUCCESS ? e : err;
        }
        first += window;
    }
    free(copy);
    return err;
}
