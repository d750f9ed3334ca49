/*
 * allgather_bruck.c - Bruck's allgather (concatenation by dissemination).
 *
 * Each rank keeps the blocks it has in a packed buffer in rotated order, its own block first,
 * then those of the ranks after it.  In round k (distance d = 2^k) it sends its first
 * min(d, p-d) blocks to rank - d and appends the same number of blocks from rank + d, so
 * after ceil(log2 p) rounds it has all p blocks, which it then unpacks into place.
 * Wins: short messages on any number of ranks: ceil(log2 p) rounds with no extra rounds for a
 * non-power-of-two size (recursive doubling needs two).  Cost: ceil(log2 p) latencies,
 * n (p-1)/p bytes received per rank, plus packing the whole result once.  Restrictions: none;
 * uneven blocks (MPI_Allgatherv) are served.
 * Reference: Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient Algorithms for All-to-All
 * Communications in Multiport Message-Passing Systems" (1997).
 */
#include "config.h"

#include "coll/allgather/allgather.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>

int comm_coll_allgather_bruck(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                              void *rbuf, const int *rcounts, const int *displs,
                              struct comm_datatype *rdt, struct comm_communicator *comm)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int size = comm->size, rank = comm->rank, err = MPI_SUCCESS;
    size_t *off = malloc(((size_t)size + 1) * sizeof(*off)); /* rotated: off[i], rank + i */
    char *packed;

    if (off == NULL) {
        return MPI_ERR_NO_MEM;
    }
    off[0] = 0;
    for (int i = 0; i < size; i++) {
        off[i + 1] = off[i] + (size_t)rcounts[(rank + i) % size] * (size_t)rdt->size;
    }
    if (off[size] == 0) {
        goto out_free_off;
    }
    packed = malloc(off[size]);
    if (packed == NULL) {
        err = MPI_ERR_NO_MEM;
        goto out_free_off;
    }
    if (sbuf != NULL) {
        comm_datatype_pack(sdt, sbuf, scount, 0, packed, off[1]);
    } else {
        comm_datatype_pack(rdt, (char *)rbuf + (MPI_Aint)displs[rank] * rdt->extent, rcounts[rank],
                           0, packed, off[1]);
    }
    for (int dist = 1; dist < size && err == MPI_SUCCESS; dist <<= 1) {
        int n = dist < size - dist ? dist : size - dist;

        err = comm_coll_sendrecv(packed, (MPI_Count)off[n], byte, (rank - dist + size) % size,
                                 packed + off[dist], (MPI_Count)(off[dist + n] - off[dist]), byte,
                                 (rank + dist) % size, COMM_COLL_TAG_ALLGATHER, comm);
    }
    for (int i = 0; i < size && err == MPI_SUCCESS; i++) {
        int r = (rank + i) % size;

        if (r != rank || sbuf != NULL) {
            comm_datatype_unpack(rdt, (char *)rbuf + (MPI_Aint)displs[r] * rdt->extent, rcounts[r],
                                 0, packed + off[i], off[i + 1] - off[i]);
        }
    }
    free(packed);
out_free_off:
    free(off);
    return err;
}
