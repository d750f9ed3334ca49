/*
 * allreduce_ring.c - segmented ring allreduce: a ring reduce-scatter followed by a ring
 * allgather over p blocks.
 *
 * The vector is cut into p nearly equal blocks.  In step s of the reduce-scatter rank r sends
 * its partial result of block r-s-1 to rank r+1 and reduces block r-s-2, received from rank
 * r-1, into its own, so that after p-1 steps rank r holds block r reduced over every rank; the
 * allgather then passes the finished blocks around the ring once more.  Large blocks travel in
 * segments, each sent on as soon as it is reduced (or received), so that the sends of a step
 * are pipelined with the receives and reductions.
 * Wins: long vectors, most of all for non-power-of-two sizes.  Cost: 2 (p-1) steps; each rank
 * sends and receives 2 (p-1)/p of the vector and reduces (p-1)/p of it, to and from its
 * neighbours only.  Restrictions: commutative operations (a block is reduced in ring order).
 * Reference: Patarasuk and Yuan, "Bandwidth Optimal All-reduce Algorithms for Clusters of
 * Workstations" (2009).
 */
#include "config.h"

#include "coll/allreduce/allreduce.h"
#include "coll/coll_blocks.h"
#include "runtime/comm/communicator.h"

#include <stdlib.h>

int comm_coll_allreduce_ring(const void *sbuf, void *rbuf, MPI_Count count,
                             struct comm_datatype *dt, struct comm_op *op,
                             struct comm_communicator *comm)
{
    MPI_Count *displs = malloc((size_t)(comm->size + 1) * sizeof(*displs));
    int err;

    if (displs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_coll_blocks_split(count, comm->size, displs);
    err = comm_coll_copy(sbuf, rbuf, count, dt);
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_ring_reduce_scatter(rbuf, displs, dt, op, COMM_COLL_TAG_ALLREDUCE,
                                                   comm);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_ring_allgather(rbuf, displs, dt, COMM_COLL_TAG_ALLREDUCE, comm);
    }
    free(displs);
    return err;
}
