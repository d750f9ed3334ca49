/*
 * reduce_hier.c - reduce over the communicator's hierarchy (coll/hier/hier.h): each stage
 * reduces to its leader from the host up, the top stage reduces to the member that stands for
 * the root's groups, and the result goes down the root's path (one message per stage where
 * that member is not the root's own representative).  Leaders other than the root work in a
 * buffer of their own: the receive buffer means nothing at other ranks.
 *
 * Long vectors on a regular communicator (hier.h's rails) go over the rails instead: the
 * reduce-scatters of allreduce_hier up to the last rail, which reduces each piece to its
 * member on the root's side, then gathers of the pieces on the rails of the root's groups,
 * down to the root.  Each group's uplink carries the vector once.
 *
 * Layer: coll.  Commutative operations only, like allreduce_hier.
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "runtime/datatype/datatype.h"
#include "coll/reduce/reduce.h"

static int reduce_rails(const void *sbuf, void *buf, MPI_Count count, struct comm_datatype *dt,
                        struct comm_op *op, int root, struct comm_communicator *comm,
                        const struct comm_coll_hier *h, const struct comm_coll_hier_rails *rails)
{
    struct comm_coll_hier_walk w;
    int last = rails->nrails - 1;
    int err = comm_coll_hier_rails_reduce_scatter(sbuf, buf, count, dt, op, rails, &w);

    if (err == MPI_SUCCESS) {
        char *piece = (char *)buf + w.at * dt->extent;

        err = comm_coll_hier_reduce(piece, piece, w.len, dt, op,
                                    comm_coll_hier_rail_holder(h, rails, last, comm, root),
                                    rails->rail[last]);
    }
    /* The pieces come together on the rails of the root's groups. */
    for (int s = last - 1; s >= 0 && err == MPI_SUCCESS; s--) {
        if (comm_coll_hier_in_my_scope(h, s, comm, root)) {
            err = comm_coll_hier_rail_gather((char *)buf + w.first[s] * dt->extent, w.n[s], dt,
                                             comm_coll_hier_rail_holder(h, rails, s, comm, root),
                                             rails->rail[s]);
        }
    }
    return err;
}

int comm_coll_reduce_hier(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                          struct comm_op *op, int root, struct comm_communicator *comm)
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
    if (comm_coll_hier_use_rails(comm, (size_t)count * (size_t)dt->size)) {
        /* Every rank works on the whole vector. */
        if (buf == NULL) {
            buf = comm_coll_alloc_buffer(count, dt, &block);
            if (buf == NULL) {
                return MPI_ERR_NO_MEM;
            }
        }
        err = reduce_rails(sbuf, buf, count, dt, op, root, comm, h, comm_coll_hier_rails_get(comm));
        if (block != NULL) {
            comm_coll_free_buffer(block);
        }
        return err;
    }
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
