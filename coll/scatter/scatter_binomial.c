/*
 * scatter_binomial.c - binomial-tree scatter.
 *
 * Ranks are renumbered relative to the root.  A rank receives the blocks of its subtree (the
 * ranks from itself up to its lowest set bit, exclusive) from its parent in one message,
 * passes each child the run of blocks of the child's subtree, and unpacks its own.  The root
 * sends each child's run straight from the send buffer when the send type is contiguous, the
 * blocks lie one after another and the run does not wrap past the last rank; otherwise from a
 * packed copy.
 * Wins: short and medium blocks on many ranks: the root sends log2 p messages instead of
 * p-1, and the subtrees proceed in parallel.  Cost: ceil(log2 p) latencies; the blocks of a
 * subtree travel once per level, about (n/2) log2 p bytes in all (n all the blocks).
 * Restrictions: plain form only (MPI_Scatter: every block the same size), since a rank
 * forwards its subtree's blocks as one run.  The root may scatter in place (its receive
 * buffer is then not written).
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/scatter/scatter.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdbool.h>
#include <stdlib.h>

/* The root: sends its children their runs, the largest subtree (the deepest) first. */
static int scatter_root(const void *sbuf, const int *scounts, const int *displs,
                        struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                        struct comm_datatype *rdt, size_t b, struct comm_datatype *byte,
                        struct comm_communicator *comm)
{
    int size = comm->size, root = comm->rank, pof2 = 1, err = MPI_SUCCESS;
    bool direct = sdt->contiguous;
    char *packed = NULL;

    while (pof2 * 2 < size) {
        pof2 *= 2;
    }
    for (int r = 0; r < size; r++) {
        direct = direct && (MPI_Aint)displs[r] * sdt->extent == (MPI_Aint)((size_t)r * b);
    }
    for (int mask = pof2; mask > 0 && mask < size && err == MPI_SUCCESS; mask >>= 1) {
        int n = (2 * mask < size ? 2 * mask : size) - mask, first = (root + mask) % size;

        if (direct && first + n <= size) {
            err = comm_coll_send((const char *)sbuf + sdt->true_lb + (size_t)first * b,
                                 (MPI_Count)((size_t)n * b), byte, first, COMM_COLL_TAG_SCATTER,
                                 comm);
            continue;
        }
        if (packed == NULL && (packed = malloc((size_t)pof2 * b)) == NULL) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        for (int j = 0; j < n; j++) {
            int r = (first + j) % size;

            comm_datatype_pack(sdt, (const char *)sbuf + (MPI_Aint)displs[r] * sdt->extent,
                               scounts[r], 0, packed + (size_t)j * b, b);
        }
        err = comm_coll_send(packed, (MPI_Count)((size_t)n * b), byte, first, COMM_COLL_TAG_SCATTER,
                             comm);
    }
    if (err == MPI_SUCCESS && rbuf != NULL) {
        err = comm_coll_sendrecv((const char *)sbuf + (MPI_Aint)displs[root] * sdt->extent,
                                 scounts[root], sdt, root, rbuf, rcount, rdt, root,
                                 COMM_COLL_TAG_SCATTER, comm);
    }
    free(packed);
    return err;
}

int comm_coll_scatter_binomial(const void *sbuf, const int *scounts, const int *displs,
                               struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                               struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int size = comm->size, vrank = (comm->rank - root + size) % size, mask = 1, end;
    size_t b =
        vrank == 0 ? (size_t)scounts[root] * (size_t)sdt->size : (size_t)rcount * (size_t)rdt->size;
    char *blocks;
    int err;

    if (b == 0) {
        return MPI_SUCCESS;
    }
    if (vrank == 0) {
        return scatter_root(sbuf, scounts, displs, sdt, rbuf, rcount, rdt, b, byte, comm);
    }
    while (!(vrank & mask)) {
        mask <<= 1;
    }
    end = vrank + mask < size ? vrank + mask : size; /* our subtree: vranks [vrank, end) */
    if (end == vrank + 1) {
        /* A leaf receives its block straight into place. */
        return comm_coll_recv(rbuf, rcount, rdt, (vrank - mask + root) % size,
                              COMM_COLL_TAG_SCATTER, comm);
    }
    blocks = malloc((size_t)(end - vrank) * b);
    if (blocks == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = comm_coll_recv(blocks, (MPI_Count)((size_t)(end - vrank) * b), byte,
                         (vrank - mask + root) % size, COMM_COLL_TAG_SCATTER, comm);
    for (int child = mask >> 1; child > 0 && err == MPI_SUCCESS; child >>= 1) {
        if (vrank + child < size) {
            int child_end = vrank + 2 * child < size ? vrank + 2 * child : size;

            err = comm_coll_send(blocks + (size_t)child * b,
                                 (MPI_Count)((size_t)(child_end - vrank - child) * b), byte,
                                 (vrank + child + root) % size, COMM_COLL_TAG_SCATTER, comm);
        }
    }
    if (err == MPI_SUCCESS) {
        comm_datatype_unpack(rdt, rbuf, rcount, 0, blocks, b);
    }
    free(blocks);
    return err;
}
