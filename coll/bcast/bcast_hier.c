/*
 * bcast_hier.c - broadcast over the communicator's hierarchy (coll/hier/hier.h): the data go
 * up the root's path to the top (one message per stage where the root's representative is not
 * its group's leader), across the top stage, then down every stage from its leader.  Each
 * level's links carry the message once per group; inside a host the stages use the
 * shared-memory broadcast.
 *
 * Long messages on a regular communicator (hier.h's rails) go over the rails instead: the
 * root's host scatters them (rank i of the host gets block i), each rail of the root's groups
 * above scatters its block the same way, the last rail (the same piece's holders across the
 * communicator) broadcasts each piece from the root's side, and allgathers rebuild the message
 * on every rail, down to the shared-memory broadcasts of each host's blocks.  Every rank's
 * links carry a share, and each group's uplink carries the message once.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/bcast/bcast.h"
#include "coll/hier/hier.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>

static int bcast_rails(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                       struct comm_communicator *comm, const struct comm_coll_hier *h,
                       const struct comm_coll_hier_rails *rails)
{
    struct comm_coll_hier_walk w;
    int last = rails->nrails - 1, err = MPI_SUCCESS;

    comm_coll_hier_walk_init(&w, count);
    for (int s = 0; s < last && err == MPI_SUCCESS; s++) {
        /* In the root's group of this stage's scope, the root's side cuts its piece up. */
        if (comm_coll_hier_in_my_scope(h, s, comm, root)) {
            err = comm_coll_hier_rail_scatter((char *)buf + w.at * dt->extent, w.len, dt,
                                              comm_coll_hier_rail_holder(h, rails, s, comm, root),
                                              rails->rail[s]);
        }
        comm_coll_hier_walk_step(&w, rails, s);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_hier_bcast((char *)buf + w.at * dt->extent, w.len, dt,
                                   comm_coll_hier_rail_holder(h, rails, last, comm, root),
                                   rails->rail[last]);
    }
    return err == MPI_SUCCESS ? comm_coll_hier_rails_allgather(buf, dt, rails, &w) : err;
}

/* The rails cut the message as packed bytes: the ranks' type maps may differ (one element of
 * 37 ints at the root, 37 ints elsewhere), the bytes do not. */
static int bcast_rails_bytes(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                             struct comm_communicator *comm, const struct comm_coll_hier *h)
{
    size_t n = (size_t)count * (size_t)dt->size;
    char *packed, *bytes = comm_coll_bytes(buf, count, dt, comm->rank == root, &packed);
    int err;

    if (bytes == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = bcast_rails(bytes, (MPI_Count)n, comm_datatype_lookup(MPI_BYTE), root, comm, h,
                      comm_coll_hier_rails_get(comm));
    if (err == MPI_SUCCESS && packed != NULL && comm->rank != root) {
        comm_datatype_unpack(dt, buf, count, 0, packed, n);
    }
    free(packed);
    return err;
}

int comm_coll_bcast_hier(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                         struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    int err, last;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (comm_coll_hier_use_rails(comm, (size_t)count * (size_t)dt->size)) {
        return bcast_rails_bytes(buf, count, dt, root, comm, h);
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
