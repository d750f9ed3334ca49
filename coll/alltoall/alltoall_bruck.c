/*
 * alltoall_bruck.c - Bruck's all-to-all.
 *
 * Each rank packs its blocks in rotated order (position i holds its block for rank + i).  In
 * round k (distance d = 2^k) it sends every block whose position has bit k set to rank + d,
 * and puts the blocks it gets from rank - d at the same positions; after ceil(log2 p) rounds
 * position i holds the block that rank - i sent it, which it unpacks into place.
 * Wins: short blocks on many ranks: ceil(log2 p) messages per rank instead of p-1.
 * Cost: ceil(log2 p) latencies; about (n/2) log2 p bytes sent per rank (n all of one rank's
 * blocks), each packed and unpacked once per round, against n for the pairwise exchange.
 * Restrictions: plain form only (MPI_Alltoall: equal blocks of one type), since every round
 * mixes blocks of different peers.  MPI_IN_PLACE is free: the blocks are packed before any is
 * received.
 * Reference: Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient Algorithms for All-to-All
 * Communications in Multiport Message-Passing Systems" (1997).
 */
#include "config.h"

#include "coll/alltoall/alltoall.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>
#include <string.h>

int comm_coll_alltoall_bruck(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                             struct comm_datatype *const *sdts, void *rbuf, const int *rcounts,
                             const MPI_Aint *rdispls, struct comm_datatype *const *rdts,
                             struct comm_communicator *comm)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int size = comm->size, rank = comm->rank, err = MPI_SUCCESS;
    size_t b = (size_t)rcounts[0] * (size_t)rdts[0]->size, half = (size_t)(size + 1) / 2;
    char *blocks, *out, *in;

    if (b == 0) {
        return MPI_SUCCESS;
    }
    if (sbuf == NULL) {
        sbuf = rbuf;
        scounts = rcounts;
        sdispls = rdispls;
        sdts = rdts;
    }
    blocks = malloc((size_t)size * b + 2 * half * b);
    if (blocks == NULL) {
        return MPI_ERR_NO_MEM;
    }
    out = blocks + (size_t)size * b;
    in = out + half * b;
    for (int i = 0; i < size; i++) {
        int to = (rank + i) % size;

        comm_datatype_pack(sdts[to], (const char *)sbuf + sdispls[to], scounts[to], 0,
                           blocks + (size_t)i * b, b);
    }
    for (int dist = 1; dist < size && err == MPI_SUCCESS; dist <<= 1) {
        size_t n = 0;

        for (int i = dist; i < size; i++) {
            if (i & dist) {
                memcpy(out + n++ * b, blocks + (size_t)i * b, b);
            }
        }
        err = comm_coll_sendrecv(out, (MPI_Count)(n * b), byte, (rank + dist) % size, in,
                                 (MPI_Count)(n * b), byte, (rank - dist + size) % size,
                                 COMM_COLL_TAG_ALLTOALL, comm);
        n = 0;
        for (int i = dist; i < size && err == MPI_SUCCESS; i++) {
            if (i & dist) {
                memcpy(blocks + (size_t)i * b, in + n++ * b, b);
            }
        }
    }
    for (int from = 0; from < size && err == MPI_SUCCESS; from++) {
        comm_datatype_unpack(rdts[from], (char *)rbuf + rdispls[from], rcounts[from], 0,
                             blocks + (size_t)((rank - from + size) % size) * b, b);
    }
    free(blocks);
    return err;
}
