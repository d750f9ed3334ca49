/*
 * gather_binomial.c - binomial-tree gather.
 *
 * Ranks are renumbered relative to the root.  A rank gathers the blocks of its subtree (the
 * ranks from itself up to its lowest set bit, exclusive) from its children, packed one after
 * the other in that order, then sends them all to its parent in one message; the root unpacks
 * every block into place.
 * Wins: short blocks on many ranks: the root receives log2 p messages instead of p-1.
 * Cost: ceil(log2 p) latencies; the blocks of a subtree travel once per level, about
 * (n/2) log2 p bytes in all (n all the blocks), and every block is packed and unpacked once.
 * Restrictions: plain form only (MPI_Gather: every block the same size), since a rank forwards
 * its subtree's blocks as one run.  The root may gather in place (its block stays untouched).
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/gather/gather.h"
#include "runtime/communicator.h"
#include "runtime/datatype.h"

#include <stdlib.h>

int comm_coll_gather_binomial(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                              void *rbuf, const int *rcounts, const int *displs,
                              struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int size = comm->size, vrank = (comm->rank - root + size) % size, mask = 1, err = MPI_SUCCESS;
    size_t b = sbuf != NULL ? (size_t)scount * (size_t)sdt->size
                            : (size_t)rcounts[root] * (size_t)rdt->size;
    int end = size; /* our subtree: vranks [vrank, end) */
    char *blocks;

    if (b == 0) {
        return MPI_SUCCESS;
    }
    if (vrank > 0) {
        while (!(vrank & mask)) {
            mask <<= 1;
        }
        end = vrank + mask < size ? vrank + mask : size;
        if (end == vrank + 1) {
            /* A leaf sends its block as it is. */
            return comm_coll_send(sbuf, scount, sdt, (vrank - mask + root) % size,
                                  COMM_COLL_TAG_GATHER, comm);
        }
    }
    blocks = malloc((size_t)(end - vrank) * b);
    if (blocks == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (sbuf != NULL) {
        comm_datatype_pack(sdt, sbuf, scount, 0, blocks, b);
    }
    for (mask = 1; mask < size && err == MPI_SUCCESS; mask <<= 1) {
        if (vrank & mask) {
            err = comm_coll_send(blocks, (MPI_Count)((size_t)(end - vrank) * b), byte,
                                 (vrank - mask + root) % size, COMM_COLL_TAG_GATHER, comm);
            break;
        }
        if (vrank + mask < size) {
            int child_end = vrank + 2 * mask < size ? vrank + 2 * mask : size;

            err = comm_coll_recv(blocks + (size_t)mask * b,
                                 (MPI_Count)((size_t)(child_end - vrank - mask) * b), byte,
                                 (vrank + mask + root) % size, COMM_COLL_TAG_GATHER, comm);
        }
    }
    for (int j = sbuf != NULL ? 0 : 1; vrank == 0 && j < size && err == MPI_SUCCESS; j++) {
        int r = (root + j) % size;

        comm_datatype_unpack(rdt, (char *)rbuf + (MPI_Aint)displs[r] * rdt->extent, rcounts[r], 0,
                             blocks + (size_t)j * b, b);
    }
    free(blocks);
    return err;
}
