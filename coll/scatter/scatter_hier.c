/*
 * scatter_hier.c - scatter over the communicator's hierarchy (coll/hier/hier.h).
 *
 * The root packs every block in rank order and the whole goes up the root's path to the last
 * stage's member for the root's groups (one message per stage where the root's
 * representative is not its group's leader).  That member hands each top-stage member the
 * blocks of the ranks it stands for, packed in rank order, in one message; then, from the top
 * down, each stage's leader does the same for its members, until every rank has its own
 * block.  Where a host's or a group's ranks are not consecutive (round-robin placement) a
 * leader first reorders its blocks member by member.
 * Wins: many ranks per host or rack: the root sends one message per top-level group instead
 * of p-1, and each level's links carry every block once.
 * Cost: one latency per stage, each leader's sends one member after another; the whole data
 * (p blocks) crosses each stage of the root's path where the root's representative is no
 * leader, then every block crosses each level once down; a leader copies its blocks once
 * more when its members' ranks interleave.
 * Restrictions: communicators across hosts.  MPI_Scatterv (below) sends the blocks' sizes
 * ahead of them, since it tells the root only.  The root may
 * scatter in place (its receive buffer is not written).
 * Reference: Luo et al., "HAN: a Hierarchical AutotuNed Collective Communication Framework"
 * (IEEE Cluster 2020), which scatters through node leaders the same way.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "coll/scatter/scatter.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>
#include <string.h>

/* This rank, the root of stage S, hands its members their blocks: X's PACKED holds the stage's
 * whole subtree's before and this rank's own subtree's after, in rank order. */
static int scatter_hand(struct comm_coll_hier_blocks *x, int s)
{
    struct comm_communicator *stage = x->h->stage[s];
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int me = stage->rank, n, err = MPI_SUCCESS;
    char *src = comm_coll_hier_blocks_layout(x, s, &n);

    if (src == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (src != x->packed) {
        comm_coll_hier_blocks_reorder(x, n, true);
    }
    for (int i = 0; i < stage->size && err == MPI_SUCCESS; i++) {
        if (i != me) {
            err = comm_coll_send(src + (size_t)x->offs[i] * x->b,
                                 (MPI_Count)((size_t)x->counts[i] * x->b), byte, i,
                                 COMM_COLL_TAG_HIER, stage);
        }
    }
    memmove(x->packed, src + (size_t)x->offs[me] * x->b, (size_t)x->counts[me] * x->b);
    return err;
}

int comm_coll_scatter_hier(const void *sbuf, const int *scounts, const int *displs,
                           struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                           struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    struct comm_coll_hier_blocks x;
    size_t b;
    int err, last;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    b = comm->rank == root ? (size_t)scounts[root] * (size_t)sdt->size
                           : (size_t)rcount * (size_t)rdt->size;
    if (b == 0) {
        return MPI_SUCCESS;
    }
    last = h->nstages - 1;
    /* A rank that leads no stage and is not the root takes its block as it is. */
    if (h->top == 0 && comm->rank != root) {
        int from = last == 0 ? comm_coll_hier_stage_rank(h, 0, root) : 0;

        return comm_coll_recv(rbuf, rcount, rdt, from, COMM_COLL_TAG_HIER, h->stage[0]);
    }
    err = comm_coll_hier_blocks_init(&x, h, comm, b, root);
    for (int r = 0; err == MPI_SUCCESS && comm->rank == root && r < comm->size; r++) {
        comm_datatype_pack(sdt, (const char *)sbuf + (MPI_Aint)displs[r] * sdt->extent, scounts[r],
                           0, x.packed + (size_t)r * b, b);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_hier_up_path(h, x.packed, (MPI_Count)((size_t)comm->size * b), byte, root,
                                     comm);
    }
    /* Down: at my top I take my subtree's blocks; below it I lead and hand them on. */
    for (int s = h->top; s >= 0 && err == MPI_SUCCESS; s--) {
        int from =
            s == last ? comm_coll_hier_stage_rank(h, s, comm_coll_hier_rep(h, s, comm, root)) : 0;

        if (h->stage[s]->rank == from) {
            err = scatter_hand(&x, s);
        } else {
            int n = comm_coll_hier_subtree_size(h, s, comm, comm->rank);

            err = comm_coll_recv(x.packed, (MPI_Count)((size_t)n * b), byte, from,
                                 COMM_COLL_TAG_HIER, h->stage[s]);
        }
    }
    if (err == MPI_SUCCESS && rbuf != NULL) {
        comm_datatype_unpack(rdt, rbuf, rcount, 0, x.packed, b);
    }
    comm_coll_hier_blocks_free(&x);
    return err;
}

/*
 * MPI_Scatterv over the hierarchy: the same way down, each rank's block of its own size; the
 * root's sizes go up its path ahead of its data, and each leader hands each member the sizes
 * of its subtree's blocks before the blocks (hier_vblocks.c).
 */
int comm_coll_scatterv_hier(const void *sbuf, const int *scounts, const int *displs,
                            struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                            struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct comm_coll_hier_vheld x = {0};
    int err = MPI_SUCCESS, last;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    last = h->nstages - 1;
    if (comm->rank == root) {
        int64_t *size = malloc((size_t)comm->size * sizeof(*size));

        err = size == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
        for (int r = 0; err == MPI_SUCCESS && r < comm->size; r++) {
            size[r] = (int64_t)scounts[r] * (int64_t)sdt->size;
        }
        err = err == MPI_SUCCESS ? comm_coll_hier_vheld_set(&x, comm->size, size) : err;
        for (size_t r = 0, at = 0; err == MPI_SUCCESS && r < (size_t)comm->size; r++) {
            comm_datatype_pack(sdt, (const char *)sbuf + (MPI_Aint)displs[r] * sdt->extent,
                               scounts[r], 0, x.data + at, (size_t)size[r]);
            at += (size_t)size[r];
        }
        free(size);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_hier_vpath(&x, h, root, comm, true);
    }
    /* Down: at my top I take my subtree's blocks; below it I lead and hand them on. */
    for (int s = h->top; s >= 0 && err == MPI_SUCCESS; s--) {
        int from =
            s == last ? comm_coll_hier_stage_rank(h, s, comm_coll_hier_rep(h, s, comm, root)) : 0;

        err = h->stage[s]->rank == from
                  ? comm_coll_hier_vhand(&x, h, s, comm)
                  : comm_coll_hier_vrecv(&x, comm_coll_hier_subtree_size(h, s, comm, comm->rank),
                                         from, h->stage[s]);
    }
    if (err == MPI_SUCCESS && rbuf != NULL) {
        if ((size_t)x.size[0] != (size_t)rcount * (size_t)rdt->size) {
            err = MPI_ERR_TRUNCATE; /* the root sent another amount than this rank expects */
        } else {
            comm_datatype_unpack(rdt, rbuf, rcount, 0, x.data, x.bytes);
        }
    }
    comm_coll_hier_vheld_free(&x);
    return err;
}
