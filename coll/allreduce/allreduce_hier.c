/*
 * allreduce_hier.c - allreduce over the communicator's hierarchy (coll/hier/hier.h): each
 * stage reduces to its leader from the host up, the top stage allreduces among the top
 * leaders, and the result comes back down by broadcasts.  Every byte crosses each level's
 * links once up and once down, whatever the placement of the ranks; inside a host the stages
 * use the shared-memory collectives.
 *
 * Long vectors on a regular communicator (every host holds as many ranks; hier.h's rails) go
 * over the rails instead: a reduce-scatter inside each host (rank i of a host ends with block
 * i, by shared-memory reduces), a ring reduce-scatter of that block on each rail of the
 * levels above but the last, a flat allreduce of the piece left on the last rail (the same
 * piece's holders across the communicator), then the allgathers back down.  Every rank's
 * links carry a share, and each group's uplink carries 2 n (R - 1) / R bytes over R groups of
 * the top level, the least any algorithm can.
 *
 * Layer: coll.  Commutative operations only: the stages combine partial results of groups,
 * not of consecutive ranks.
 */
#include "config.h"

#include "coll/allreduce/allreduce.h"
#include "coll/hier/hier.h"
#include "runtime/datatype/datatype.h"

/* Over the rails: my piece's first element and count at each rail, down, then back up. */
static int allreduce_rails(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                           struct comm_op *op, const struct comm_coll_hier_rails *rails)
{
    struct comm_coll_hier_walk w;
    int err = comm_coll_hier_rails_reduce_scatter(sbuf, rbuf, count, dt, op, rails, &w);

    if (err == MPI_SUCCESS) {
        char *piece = (char *)rbuf + w.at * dt->extent;

        err = comm_coll_hier_allreduce(piece, piece, w.len, dt, op, rails->rail[rails->nrails - 1]);
    }
    return err == MPI_SUCCESS ? comm_coll_hier_rails_allgather(rbuf, dt, rails, &w) : err;
}

int comm_coll_allreduce_hier(const void *sbuf, void *rbuf, MPI_Count count,
                             struct comm_datatype *dt, struct comm_op *op,
                             struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    const void *src = sbuf;
    int err = MPI_SUCCESS, top;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (comm_coll_hier_use_rails(comm, (size_t)count * (size_t)dt->size)) {
        const struct comm_coll_hier_rails *rails = comm_coll_hier_rails_get(comm);
        int k = comm_coll_hier_pipe_segments(rails, (size_t)count * (size_t)dt->size);

        return k > 1 ? comm_coll_hier_pipe_allreduce(sbuf, rbuf, count, dt, op, comm, rails, k)
                     : allreduce_rails(sbuf, rbuf, count, dt, op, rails);
    }
    top = h->top;
    /* Up: every stage where this rank leads reduces into its buffer. */
    for (int s = 0; s < top && err == MPI_SUCCESS; s++) {
        err = comm_coll_hier_reduce(src, rbuf, count, dt, op, 0, h->stage[s]);
        src = rbuf;
    }
    if (err == MPI_SUCCESS && top == h->nstages - 1) {
        err = comm_coll_hier_allreduce(src, rbuf, count, dt, op, h->stage[top]);
    } else if (err == MPI_SUCCESS) {
        err = comm_coll_hier_reduce(src, rbuf, count, dt, op, 0, h->stage[top]);
        if (err == MPI_SUCCESS) {
            err = comm_coll_hier_bcast(rbuf, count, dt, 0, h->stage[top]);
        }
    }
    /* Down: the result to the stages this rank leads. */
    for (int s = top - 1; s >= 0 && err == MPI_SUCCESS; s--) {
        err = comm_coll_hier_bcast(rbuf, count, dt, 0, h->stage[s]);
    }
    return err;
}
