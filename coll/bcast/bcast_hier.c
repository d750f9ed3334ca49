/*
 * bcast_hier.c - broadcast over the communicator's hierarchy (coll/hier/hier.h): the data go
 * up the root's path to the top (one message per stage where the root's representative is not
 * its group's leader), across the top stage, then down every stage from its leader.  Each
 * level's links carry the message once per group; inside a host the stages use the
 * shared-memory broadcast.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/bcast/bcast.h"
#include "coll/hier/hier.h"

int comm_coll_bcast_hier(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                         struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    int err, last;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    last = h->nstages - 1;
    err = comm_coll_hier_up_path(h, buf, count, dt, root, comm);
    if (err == MPI_SUCCESS && h->top == last) {
        int holder = comm_coll_hier_rep(h, last, comm, root);

        err = comm_coll_hier_bcast(buf, count, dt, comm_coll_hier_stage_rank(h, last, holder),
                                   h->stage[last]);
    }
    /* Down: every stage from its leader, which has the data by now. */
    for (int s = (h->top < last ? h->top : last - 1); s >= 0 && err == MPI_SUCCESS; s--) {
        err = comm_coll_hier_bcast(buf, count, dt, 0, h->stage[s]);
    }
    return err;
}
