/*
 * reduce_hier.c - reduce over the communicator's hierarchy (coll/hier/hier.h): each stage
 * reduces to its leader from the host up, the top stage reduces to the member that stands for
 * the root's groups, and the result goes down the root's path (one message per stage where
 * that member is not the root's own representative).  Leaders other than the root work in a
 * buffer of their own: the receive buffer means nothing at other ranks.
 *
 * Layer: coll.  Commutative operations only, like allreduce_hier.
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "coll/reduce/reduce.h"

int comm_coll_reduce_hier(const void *sbuf, void *rbuf, MPI_Count count,
                          struct comm_datatype *dt, struct comm_op *op, int root,
                          struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    const void *src = sbuf;
    void *buf = comm->rank == root ? rbuf : NULL, *block = NULL;
    int err = MPI_SUCCESS, top, last;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    top = h->top;
    last = h->nstages - 1;
    /* A leader (every rank that receives partial results or relays the result is one) needs
     * room for them. */
    if (buf == NULL && top > 0) {
        buf = comm_coll_alloc_buffer(count, dt, &block);
        if (buf == NULL) {
            return MPI_ERR_NO_MEM;
        }
    }
    for (int s = 0; s < top && err == MPI_SUCCESS; s++) {
        err = comm_coll_hier_reduce(src, buf, count, dt, op, 0, h->stage[s]);
        src = buf;
    }
    if (err == MPI_SUCCESS) {
        int to = 0;

        if (top == last) {
            /* The top stage's member for the root's groups. */
            to = comm_coll_hier_stage_rank(h, last, comm_coll_hier_rep(h, last, comm, root));
        }
        err = comm_coll_hier_reduce(src, buf, count, dt, op, to, h->stage[top]);
    }
    /* Down the root's path (one message per stage where the root's representative is not
     * its group's leader). */
    if (err == MPI_SUCCESS) {
        err = comm_coll_hier_down_path(h, buf, count, dt, root, comm);
    }
    if (block != NULL) {
        comm_coll_free_buffer(block);
    }
    return err;
}
