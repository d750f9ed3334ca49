/*
 * scatter_binomial.c - binomial-tree scatter.
 *
 * Ranks are renumbered relative to the root.  The root packs the blocks in that order; a rank
 * receives the blocks of its subtree (the ranks from itself up to its lowest set bit,
 * exclusive) from its parent in one message, passes each child the run of blocks of the
 * child's subtree, and unpacks its own.
 * Wins: short blocks on many ranks: the root sends log2 p messages instead of p-1.
 * Cost: ceil(log2 p) latencies; the blocks of a subtree travel once per level, about
 * (n/2) log2 p bytes in all (n all the blocks), and every block is packed and unpacked once.
 * Restrictions: plain form only (MPI_Scatter: every block the same size), since a rank
 * forwards its subtree's blocks as one run.  The root may scatter in place (its receive
 * buffer is then not written).
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/scatter/scatter.h"
#include "runtime/communicator.h"
#include "runtime/datatype.h"

#include <stdlib.h>

int comm_coll_scatter_binomial(const void *sbuf, const int *scounts, const int *displs,
                               struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                               struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int size = comm->size, vrank = (comm->rank - root + size) % size, mask = 1, err = MPI_SUCCESS;
    size_t b =
        vrank == 0 ? (size_t)scounts[root] * (size_t)sdt->size : (size_t)rcount * (size_t)rdt->size;
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
            /* A leaf receives its block straight into place. */
            return comm_coll_recv(rbuf, rcount, rdt, (vrank - mask + root) % size,
                                  COMM_COLL_TAG_SCATTER, comm);
        }
    }
    blocks = malloc((size_t)(end - vrank) * b);
    if (blocks == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (vrank == 0) {
        for (int j = rbuf != NULL ? 0 : 1; j < size; j++) {
            int r = (root + j) % size;

            comm_datatype_pack(sdt, (const char *)sbuf + (MPI_Aint)displs[r] * sdt->extent,
                               scounts[r], 0, blocks + (size_t)j * b, b);
        }
        while (mask < size) {
            mask <<= 1;
        }
    } else {
        err = comm_coll_recv(blocks, (MPI_Count)((size_t)(end - vrank) * b), byte,
                             (vrank - mask + root) % size, COMM_COLL_TAG_SCATTER, comm);
    }
    for (mask >>= 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1) {
        if (vrank + mask < size) {
            int child_end = vrank + 2 * mask < size ? vrank + 2 * mask : size;

            err = comm_coll_send(blocks + (size_t)mask * b,
                                 (MPI_Count)((size_t)(child_end - vrank - mask) * b), byte,
                                 (vrank + mask + root) % size, COMM_COLL_TAG_SCATTER, comm);
        }
    }
    if (err == MPI_SUCCESS && rbuf != NULL) {
        comm_datatype_unpack(rdt, rbuf, rcount, 0, blocks, b);
    }
    free(blocks);
    return err;
}
