/*
 * gather_hier.c - gather over the communicator's hierarchy (coll/hier/hier.h).
 *
 * From the host up, each stage's leader collects its members' subtrees: every member sends the
 * blocks of the ranks it stands for in one message, packed in rank order; the top stage's
 * members send theirs to the member that stands for the root's groups, which then holds the
 * whole result packed in rank order.  The result goes down the root's path to the root (one
 * message per stage where the root's representative is not its group's leader), which
 * unpacks it into place with its receive type.  Where a host's or a group's ranks are not
 * consecutive (round-robin placement) a leader reorders the blocks it received, member by
 * member, into rank order.
 * Wins: many ranks per host or rack: the root receives one message per top-level group
 * instead of p-1, and each level's links carry every block once.
 * Cost: one latency per stage, fan-in at each leader one member after another; every block
 * crosses each level once up, and the whole result (p blocks) crosses each stage of the
 * root's path where the root's representative is no leader; a leader copies its members'
 * blocks once more when their ranks interleave.
 * Restrictions: communicators across hosts.  MPI_Gatherv (below) sends the blocks' sizes
 * ahead of them, since it tells the root only.  The root may
 * gather in place (its block stays untouched).
 * Reference: Luo et al., "HAN: a Hierarchical AutotuNed Collective Communication Framework"
 * (IEEE Cluster 2020), which gathers by node leaders the same way.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/gather/gather.h"
#include "coll/hier/hier.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>
#include <string.h>

/* This rank's block: its send buffer, or at the root in place its place in the receive
 * buffer. */
struct gather_block {
    const void *buf;
    MPI_Count count;
    struct comm_datatype *dt;
};

static struct gather_block gather_mine(const void *sbuf, MPI_Count scount,
                                       struct comm_datatype *sdt, void *rbuf, const int *rcounts,
                                       const int *displs, struct comm_datatype *rdt, int root)
{
    if (sbuf == NULL) {
        return (struct gather_block){(const char *)rbuf + (MPI_Aint)displs[root] * rdt->extent,
                                     rcounts[root], rdt};
    }
    return (struct gather_block){sbuf, scount, sdt};
}

/* This rank, the root of stage S, collects its members' blocks: X's PACKED holds its own
 * subtree's before and the stage's whole subtree's after, in rank order. */
static int gather_collect(struct comm_coll_hier_blocks *x, int s)
{
    struct comm_communicator *stage = x->h->stage[s];
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int me = stage->rank, n, err = MPI_SUCCESS;
    char *dst = comm_coll_hier_blocks_layout(x, s, &n);

    if (dst == NULL) {
        return MPI_ERR_NO_MEM;
    }
    memmove(dst + (size_t)x->offs[me] * x->b, x->packed, (size_t)x->counts[me] * x->b);
    for (int i = 0; i < stage->size && err == MPI_SUCCESS; i++) {
        if (i != me) {
            err = comm_coll_recv(dst + (size_t)x->offs[i] * x->b,
                                 (MPI_Count)((size_t)x->counts[i] * x->b), byte, i,
                                 COMM_COLL_TAG_HIER, stage);
        }
    }
    if (dst != x->packed) {
        comm_coll_hier_blocks_reorder(x, n, false);
    }
    x->held = n;
    return err;
}

int comm_coll_gather_hier(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt, void *rbuf,
                          const int *rcounts, const int *displs, struct comm_datatype *rdt,
                          int root, struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    struct comm_coll_hier_blocks x;
    struct gather_block mine = gather_mine(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root);
    size_t b;
    int err, last;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    b = (size_t)mine.count * (size_t)mine.dt->size;
    if (b == 0) {
        return MPI_SUCCESS;
    }
    last = h->nstages - 1;
    /* A rank that leads no stage and is not the root hands its block up as it is. */
    if (h->top == 0 && comm->rank != root) {
        int to = last == 0 ? comm_coll_hier_stage_rank(h, 0, root) : 0;

        return comm_coll_send(mine.buf, mine.count, mine.dt, to, COMM_COLL_TAG_HIER, h->stage[0]);
    }
    err = comm_coll_hier_blocks_init(&x, h, comm, b, root);
    if (err == MPI_SUCCESS) {
        comm_datatype_pack(mine.dt, mine.buf, mine.count, 0, x.packed, b);
    }
    /* Up: each stage's root (its leader; at the last stage the member for the root's groups)
     * collects; at my top I hand my subtree up. */
    for (int s = 0; s <= h->top && err == MPI_SUCCESS; s++) {
        int to =
            s == last ? comm_coll_hier_stage_rank(h, s, comm_coll_hier_rep(h, s, comm, root)) : 0;

        if (h->stage[s]->rank == to) {
            err = gather_collect(&x, s);
        } else {
            err = comm_coll_send(x.packed, (MPI_Count)((size_t)x.held * b), byte, to,
                                 COMM_COLL_TAG_HIER, h->stage[s]);
        }
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_hier_down_path(h, x.packed, (MPI_Count)((size_t)comm->size * b), byte, root,
                                       comm);
    }
    for (int r = 0; err == MPI_SUCCESS && comm->rank == root && r < comm->size; r++) {
        if (r != root || sbuf != NULL) {
            comm_datatype_unpack(rdt, (char *)rbuf + (MPI_Aint)displs[r] * rdt->extent, rcounts[r],
                                 0, x.packed + (size_t)r * b, b);
        }
    }
    comm_coll_hier_blocks_free(&x);
    return err;
}

/*
 * MPI_Gatherv over the hierarchy: the same way up, with each rank's block of its own size;
 * the sizes travel ahead of the bytes at every stage (hier_vblocks.c), so a leader learns its
 * members' before their data, and the root's path carries everyone's before the whole result.
 * Cost over the plain form: one more message per stage crossing, of 8 bytes a rank carried.
 */
int comm_coll_gatherv_hier(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                           void *rbuf, const int *rcounts, const int *displs,
                           struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct comm_coll_hier_vheld x;
    struct gather_block mine = gather_mine(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root);
    int err, last;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    last = h->nstages - 1;
    err = comm_coll_hier_vheld_init(&x, (size_t)mine.count * (size_t)mine.dt->size);
    if (err == MPI_SUCCESS) {
        comm_datatype_pack(mine.dt, mine.buf, mine.count, 0, x.data, x.bytes);
    }
    /* Up: each stage's root collects; at my top I hand my subtree's blocks up. */
    for (int s = 0; s <= h->top && err == MPI_SUCCESS; s++) {
        int to =
            s == last ? comm_coll_hier_stage_rank(h, s, comm_coll_hier_rep(h, s, comm, root)) : 0;

        err = h->stage[s]->rank == to ? comm_coll_hier_vcollect(&x, h, s, comm)
                                      : comm_coll_hier_vsend(&x, to, h->stage[s]);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_hier_vpath(&x, h, root, comm, false);
    }
    for (size_t r = 0, at = 0; err == MPI_SUCCESS && comm->rank == root && r < (size_t)comm->size;
         r++) {
        size_t want = (size_t)rcounts[r] * (size_t)rdt->size;

        if ((size_t)x.size[r] != want) {
            err = MPI_ERR_TRUNCATE; /* rank r sent another amount than the root expects */
        } else if ((int)r != root || sbuf != NULL) {
            comm_datatype_unpack(rdt, (char *)rbuf + (MPI_Aint)displs[r] * rdt->extent, rcounts[r],
                                 0, x.data + at, want);
        }
        at += want;
    }
    comm_coll_hier_vheld_free(&x);
    return err;
}
