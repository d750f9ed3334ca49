/*
 * gather_binomial.c - binomial-tree gather.
 *
 * Ranks are renumbered relative to the root.  A rank gathers the blocks of its subtree (the
 * ranks from itself up to its lowest set bit, exclusive) from its children, packed one after
 * the other in that order, then sends them all to its parent in one message.  The root
 * receives each child's run straight into place when the receive type is contiguous, the
 * blocks lie one after another and the run does not wrap past the last rank; otherwise into a
 * packed copy that it unpacks.
 * Wins: short blocks on many ranks: the root receives log2 p messages instead of p-1.
 * Cost: ceil(log2 p) latencies; the blocks of a subtree travel once per level, about
 * (n/2) log2 p bytes in all (n all the blocks), and each block is packed once on the way.
 * Restrictions: plain form only (MPI_Gather: every block the same size), since a rank forwards
 * its subtree's blocks as one run.  The root may gather in place (its block stays untouched).
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/gather/gather.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdbool.h>
#include <stdlib.h>

/* The root: receives the runs of its children, the smallest subtree (ready first) first. */
static int gather_root(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt, void *rbuf,
                       const int *rcounts, const int *displs, struct comm_datatype *rdt, size_t b,
                       struct comm_datatype *byte, struct comm_communicator *comm)
{
    int size = comm->size, root = comm->rank, pof2 = 1, err = MPI_SUCCESS;
    bool direct = rdt->contiguous;
    char *packed = NULL;

    while (pof2 * 2 < size) {
        pof2 *= 2;
    }
    for (int r = 0; r < size; r++) {
        direct = direct && (MPI_Aint)displs[r] * rdt->extent == (MPI_Aint)((size_t)r * b);
    }
    if (sbuf != NULL) {
        err = comm_coll_sendrecv(sbuf, scount, sdt, root,
                                 (char *)rbuf + (MPI_Aint)displs[root] * rdt->extent, rcounts[root],
                                 rdt, root, COMM_COLL_TAG_GATHER, comm);
    }
    for (int mask = 1; mask < size && err == MPI_SUCCESS; mask <<= 1) {
        int n = (2 * mask < size ? 2 * mask : size) - mask, first = (root + mask) % size;

        if (direct && first + n <= size) {
            err =
                comm_coll_recv((char *)rbuf + rdt->true_lb + (size_t)first * b,
                               (MPI_Count)((size_t)n * b), byte, first, COMM_COLL_TAG_GATHER, comm);
            continue;
        }
        if (packed == NULL && (packed = malloc((size_t)pof2 * b)) == NULL) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        err = comm_coll_recv(packed, (MPI_Count)((size_t)n * b), byte, first, COMM_COLL_TAG_GATHER,
                             comm);
        for (int j = 0; j < n && err == MPI_SUCCESS; j++) {
            int r = (first + j) % size;

            comm_datatype_unpack(rdt, (char *)rbuf + (MPI_Aint)displs[r] * rdt->extent, rcounts[r],
                                 0, packed + (size_t)j * b, b);
        }
    }
    free(packed);
    return err;
}

int comm_coll_gather_binomial(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                              void *rbuf, const int *rcounts, const int *displs,
                              struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int size = comm->size, vrank = (comm->rank - root + size) % size, mask = 1, end;
    size_t b = sbuf != NULL ? (size_t)scount * (size_t)sdt->size
                            : (size_t)rcounts[root] * (size_t)rdt->size;
    char *blocks;
    int err = MPI_SUCCESS;

    if (b == 0) {
        return MPI_SUCCESS;
    }
    if (vrank == 0) {
        return gather_root(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, b, byte, comm);
    }
    while (!(vrank & mask)) {
        mask <<= 1;
    }
    end = vrank + mask < size ? vrank + mask : size; /* our subtree: vranks [vrank, end) */
    if (end == vrank + 1) {
        /* A leaf sends its block as it is. */
        return comm_coll_send(sbuf, scount, sdt, (vrank - mask + root) % size, COMM_COLL_TAG_GATHER,
                              comm);
    }
    blocks = malloc((size_t)(end - vrank) * b);
    if (blocks == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_datatype_pack(sdt, sbuf, scount, 0, blocks, b);
    for (int child = 1; child < mask && err == MPI_SUCCESS; child <<= 1) {
        if (vrank + child < size) {
            int child_end = vrank + 2 * child < size ? vrank + 2 * child : size;

            err = comm_coll_recv(blocks + (size_t)child * b,
                                 (MPI_Count)((size_t)(child_end - vrank - child) * b), byte,
                                 (vrank + child + root) % size, COMM_COLL_TAG_GATHER, comm);
        }
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_send(blocks, (MPI_Count)((size_t)(end - vrank) * b), byte,
                             (vrank - mask + root) % size, COMM_COLL_TAG_GATHER, comm);
    }
    free(blocks);
    return err;
}
