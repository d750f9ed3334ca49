/*
 * allreduce_hier.c - allreduce over the communicator's hierarchy (coll/hier/hier.h): each
 * stage reduces to its leader from the host up, the top stage allreduces among the top
 * leaders, and the result comes back down by broadcasts.  Every byte crosses each level's
 * links once up and once down, whatever the placement of the ranks; inside a host the stages
 * use the shared-memory collectives.
 *
 * Layer: coll.  Commutative operations only: the stages combine partial results of groups,
 * not of consecutive ranks.
 */
#include "config.h"

#include "coll/allreduce/allreduce.h"
#include "coll/hier/hier.h"

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
