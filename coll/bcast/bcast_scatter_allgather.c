/*
 * bcast_scatter_allgather.c - scatter-allgather broadcast (van de Geijn).
 *
 * The message, as a stream of packed bytes, is cut into p blocks, block j for the rank j
 * places after the root.  A binomial tree scatters the blocks from the root (each rank gets
 * the blocks of its subtree), then a ring allgather passes the blocks around until every rank
 * has them all; a rank skips the ring steps that would bring it a block it got in the scatter.
 * Wins: large messages, where bandwidth dominates: every rank receives about the message once
 * (binomial sends it log2 p times from the root).  Cost: ceil(log2 p) + p - 1 latencies,
 * about 2 n (p-1)/p bytes moved per rank.  Restrictions: none; a message of fewer than p
 * bytes leaves some blocks empty, and a non-contiguous datatype goes through a packed copy.
 * Reference: Barnett, Payne, van de Geijn and Watts, "Broadcasting on Meshes with Wormhole
 * Routing" (1996); Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/bcast/bcast.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdbool.h>
#include <stdlib.h>

/* Where block J starts in a message of N bytes cut into blocks of CHUNK bytes. */
static size_t sa_offset(size_t n, size_t chunk, int j)
{
    size_t at = (size_t)j * chunk;

    return at < n ? at : n;
}

/* The end (exclusive) of the blocks a rank gets in the scatter: its subtree. */
static int sa_subtree_end(int vrank, int size)
{
    int mask = 1;

    if (vrank == 0) {
        return size;
    }
    while (!(vrank & mask)) {
        mask <<= 1;
    }
    return vrank + mask < size ? vrank + mask : size;
}

static int sa_scatter(char *bytes, size_t n, size_t chunk, struct comm_datatype *byte, int root,
                      struct comm_communicator *comm)
{
    int size = comm->size, vrank = (comm->rank - root + size) % size, mask = 1;
    int err = MPI_SUCCESS;

    while (mask < size) {
        if (vrank & mask) {
            size_t lo = sa_offset(n, chunk, vrank);
            size_t hi = sa_offset(n, chunk, sa_subtree_end(vrank, size));

            if (hi > lo) {
                err = comm_coll_recv(bytes + lo, (MPI_Count)(hi - lo), byte,
                                     (vrank - mask + root) % size, COMM_COLL_TAG_BCAST, comm);
            }
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1) {
        if (vrank + mask < size) {
            size_t lo = sa_offset(n, chunk, vrank + mask);
            size_t hi = sa_offset(n, chunk, sa_subtree_end(vrank + mask, size));

            if (hi > lo) {
                err = comm_coll_send(bytes + lo, (MPI_Count)(hi - lo), byte,
                                     (vrank + mask + root) % size, COMM_COLL_TAG_BCAST, comm);
            }
        }
    }
    return err;
}

/* Whether the rank VRANK places after the root got block J in the scatter. */
static bool sa_holds(int vrank, int j, int size)
{
    return j >= vrank && j < sa_subtree_end(vrank, size);
}

static int sa_ring(char *bytes, size_t n, size_t chunk, struct comm_datatype *byte, int root,
                   struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, vrank = (rank - root + size) % size;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, err = MPI_SUCCESS;

    for (int step = 0; step < size - 1 && err == MPI_SUCCESS; step++) {
        int sblock = (vrank - step + size) % size, rblock = (vrank - step - 1 + size) % size;
        size_t slo = sa_offset(n, chunk, sblock), shi = sa_offset(n, chunk, sblock + 1);
        size_t rlo = sa_offset(n, chunk, rblock), rhi = sa_offset(n, chunk, rblock + 1);

        /* Both ends of each transfer skip it alike: empty, or already at the receiver. */
        if (sa_holds((vrank + 1) % size, sblock, size)) {
            shi = slo;
        }
        if (sa_holds(vrank, rblock, size)) {
            rhi = rlo;
        }
        if (shi > slo && rhi > rlo) {
            err = comm_coll_sendrecv(bytes + slo, (MPI_Count)(shi - slo), byte, right, bytes + rlo,
                                     (MPI_Count)(rhi - rlo), byte, left, COMM_COLL_TAG_BCAST, comm);
        } else if (shi > slo) {
            err = comm_coll_send(bytes + slo, (MPI_Count)(shi - slo), byte, right,
                                 COMM_COLL_TAG_BCAST, comm);
        } else if (rhi > rlo) {
            err = comm_coll_recv(bytes + rlo, (MPI_Count)(rhi - rlo), byte, left,
                                 COMM_COLL_TAG_BCAST, comm);
        }
    }
    return err;
}

int comm_coll_bcast_scatter_allgather(void *buf, MPI_Count count, struct comm_datatype *dt,
                                      int root, struct comm_communicator *comm)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    size_t n = (size_t)count * (size_t)dt->size, chunk;
    char *bytes, *packed;
    int err;

    if (n == 0 || comm->size == 1) {
        return MPI_SUCCESS;
    }
    bytes = comm_coll_bytes(buf, count, dt, comm->rank == root, &packed);
    if (bytes == NULL) {
        return MPI_ERR_NO_MEM;
    }
    chunk = (n + (size_t)comm->size - 1) / (size_t)comm->size;
    err = sa_scatter(bytes, n, chunk, byte, root, comm);
    if (err == MPI_SUCCESS) {
        err = sa_ring(bytes, n, chunk, byte, root, comm);
    }
    if (err == MPI_SUCCESS && packed != NULL && comm->rank != root) {
        comm_datatype_unpack(dt, buf, count, 0, packed, n);
    }
    free(packed);
    return err;
}
