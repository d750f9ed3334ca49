/*
 * allgather_hier.c - allgather (and allgatherv) over the communicator's hierarchy
 * (coll/hier/hier.h): every stage's leader collects the blocks of its members' subtrees, the
 * top stage's members exchange their subtrees' blocks, and each stage's leader then hands the
 * whole result down with one broadcast.  Each level's links carry every block once up (from
 * where it was made) and the whole result once down.
 *
 * Blocks travel packed (a subtree's blocks one after another, in rank order) and land at their
 * own places in the receive buffer, so the ranks of a host or rack need not be consecutive.
 *
 * Long results on a regular communicator (hier.h's rails) go over the rails instead: the
 * blocks are laid out in rail order, where each rank's block is its own last piece, and the
 * allgathers of allreduce_hier's way back run from the last rail down (a ring on each rail, the
 * shared-memory broadcasts inside the host); every rank's links carry a share, and each
 * group's uplink carries what the other groups made once.  A last copy puts the blocks in
 * rank order.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/allgather/allgather.h"
#include "coll/hier/hier.h"
#include "runtime/datatype/datatype.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct hier_ag {
    struct comm_communicator *comm;
    const struct comm_coll_hier *h;
    void *rbuf;
    const int *rcounts;
    const int *displs;
    struct comm_datatype *rdt;
};

/* Bytes of M's subtree, packed. */
static size_t ag_subtree_bytes(const struct hier_ag *a, int s, int m)
{
    size_t bytes = 0;

    for (int r = 0; r < a->comm->size; r++) {
        if (comm_coll_hier_in_subtree(a->h, s, a->comm, m, r)) {
            bytes += (size_t)a->rcounts[r] * (size_t)a->rdt->size;
        }
    }
    return bytes;
}

/* Packs (PACK) into BUF, or unpacks from it, the blocks of M's subtree at stage S (every
 * rank's when S < 0), in rank order. */
static void ag_move(const struct hier_ag *a, int s, int m, void *buf, bool pack)
{
    size_t at = 0;

    for (int r = 0; r < a->comm->size; r++) {
        if (s < 0 || comm_coll_hier_in_subtree(a->h, s, a->comm, m, r)) {
            char *block = (char *)a->rbuf + (MPI_Aint)a->displs[r] * a->rdt->extent;
            size_t len = (size_t)a->rcounts[r] * (size_t)a->rdt->size;

            if (pack) {
                comm_datatype_pack(a->rdt, block, a->rcounts[r], 0, (char *)buf + at, len);
            } else {
                comm_datatype_unpack(a->rdt, block, a->rcounts[r], 0, (char *)buf + at, len);
            }
            at += len;
        }
    }
}

/* The top stage: every member's subtree to every member (an allgatherv of packed bytes). */
static int ag_top(const struct hier_ag *a, int s)
{
    struct comm_communicator *stage = a->h->stage[s];
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int n = stage->size;
    int *counts = malloc((size_t)n * sizeof(int)), *offs = malloc((size_t)n * sizeof(int));
    const int *members = a->h->member[s];
    size_t total = 0;
    char *packed = NULL;
    int err = MPI_ERR_NO_MEM;

    if (counts == NULL || offs == NULL) {
        goto out;
    }
    for (int i = 0; i < n; i++) {
        size_t bytes;

        bytes = ag_subtree_bytes(a, s, members[i]);
        if (bytes > (size_t)INT32_MAX || total > (size_t)INT32_MAX - bytes) {
            err = MPI_ERR_COUNT; /* past what one allgatherv of bytes can say */
            goto out;
        }
        counts[i] = (int)bytes;
        offs[i] = (int)total;
        total += bytes;
    }
    packed = malloc(total > 0 ? total : 1);
    if (packed == NULL) {
        goto out;
    }
    ag_move(a, s, members[stage->rank], packed + offs[stage->rank], true);
    err = stage->coll->allgatherv(NULL, 0, byte, packed, counts, offs, byte, stage);
    for (int i = 0; err == MPI_SUCCESS && i < n; i++) {
        if (i != stage->rank) {
            ag_move(a, s, members[i], packed + offs[i], false);
        }
    }
out:
    free(packed);
    free(counts);
    free(offs);
    return err;
}

/* Over the rails: every block of RCOUNTS[0] elements (all equal). */
static int allgather_rails(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                           void *rbuf, const int *rcounts, const int *displs,
                           struct comm_datatype *rdt, struct comm_communicator *comm,
                           const struct comm_coll_hier_rails *rails)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    size_t b = (size_t)rcounts[0] * (size_t)rdt->size, span = 1;
    int p = comm->size, me = comm->rank, at = rails->order[me], err = MPI_SUCCESS;
    char *buf = malloc(b * (size_t)p > 0 ? b * (size_t)p : 1);

    if (buf == NULL) {
        return MPI_ERR_NO_MEM;
    }
    /* My block at my place in rail order (MPI_IN_PLACE: from my place in the receive buffer). */
    if (sbuf != NULL) {
        comm_datatype_pack(sdt, sbuf, scount, 0, buf + (size_t)at * b, b);
    } else {
        comm_datatype_pack(rdt, (char *)rbuf + (MPI_Aint)displs[me] * rdt->extent, rcounts[me], 0,
                           buf + (size_t)at * b, b);
    }
    /* Rail s gathers the blocks of the ranks that share my places in rails 0 to s - 1: member k
     * brings those that also have place k in rail s, gathered by the rails above. */
    for (int s = rails->nrails - 1; s >= 0 && err == MPI_SUCCESS; s--) {
        size_t first;

        span *= (size_t)rails->parts[s];
        first = (size_t)at / span * span;
        err = comm_coll_hier_rail_allgather(buf + first * b, (MPI_Count)(span * b), byte,
                                            rails->rail[s], s == 0);
    }
    for (int r = 0; r < p && err == MPI_SUCCESS; r++) {
        if (r != me || sbuf != NULL) {
            comm_datatype_unpack(rdt, (char *)rbuf + (MPI_Aint)displs[r] * rdt->extent, rcounts[r],
                                 0, buf + (size_t)rails->order[r] * b, b);
        }
    }
    free(buf);
    return err;
}

/* Whether every block is as long (the rails cut the result into equal blocks). */
static bool ag_equal_blocks(const int *rcounts, int p)
{
    for (int r = 1; r < p; r++) {
        if (rcounts[r] != rcounts[0]) {
            return false;
        }
    }
    return true;
}

int comm_coll_allgather_hier(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                             void *rbuf, const int *rcounts, const int *displs,
                             struct comm_datatype *rdt, struct comm_communicator *comm)
{
    struct hier_ag a = {
        .comm = comm, .rbuf = rbuf, .rcounts = rcounts, .displs = displs, .rdt = rdt};
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int err = MPI_SUCCESS, top, last, down;
    size_t room = 0;
    void *tmp;

    a.h = comm_coll_hier_get(comm);
    if (a.h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    top = a.h->top;
    last = a.h->nstages - 1;
    if (ag_equal_blocks(rcounts, comm->size) &&
        comm_coll_hier_use_rails(comm,
                                 (size_t)rcounts[0] * (size_t)rdt->size * (size_t)comm->size)) {
        return allgather_rails(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm,
                               comm_coll_hier_rails_get(comm));
    }
    for (int r = 0; r < comm->size; r++) {
        room += (size_t)rcounts[r] * (size_t)rdt->size;
    }
    tmp = malloc(room > 0 ? room : 1);
    if (tmp == NULL) {
        return MPI_ERR_NO_MEM;
    }
    /* My own block into its place (sbuf NULL: MPI_IN_PLACE, it is there already). */
    if (sbuf != NULL) {
        size_t len = (size_t)scount * (size_t)sdt->size;

        comm_datatype_pack(sdt, sbuf, scount, 0, tmp, len);
        comm_datatype_unpack(rdt, (char *)rbuf + (MPI_Aint)displs[comm->rank] * rdt->extent,
                             rcounts[comm->rank], 0, tmp, len);
    }
    /* Up: each stage where I lead collects its members' subtrees; at my top I hand mine up. */
    for (int s = 0; s <= top && err == MPI_SUCCESS; s++) {
        struct comm_communicator *stage = a.h->stage[s];

        if (s == last) {
            err = ag_top(&a, s);
        } else if (stage->rank == 0) {
            for (int i = 1; i < stage->size && err == MPI_SUCCESS; i++) {
                int m = a.h->member[s][i];

                err = comm_coll_recv(tmp, (MPI_Count)ag_subtree_bytes(&a, s, m), byte, i,
                                     COMM_COLL_TAG_HIER, stage);
                if (err == MPI_SUCCESS) {
                    ag_move(&a, s, m, tmp, false);
                }
            }
        } else {
            ag_move(&a, s, comm->rank, tmp, true);
            err = comm_coll_send(tmp, (MPI_Count)ag_subtree_bytes(&a, s, comm->rank), byte, 0,
                                 COMM_COLL_TAG_HIER, stage);
        }
    }
    /* Down: the whole result, packed once, from each stage's leader in one broadcast. */
    down = top < last ? top : last - 1;
    if (err == MPI_SUCCESS && top == last) {
        ag_move(&a, -1, 0, tmp, true);
    }
    for (int s = down; s >= 0 && err == MPI_SUCCESS; s--) {
        err = comm_coll_hier_bcast(tmp, (MPI_Count)room, byte, 0, a.h->stage[s]);
        if (err == MPI_SUCCESS && s == top) {
            ag_move(&a, -1, 0, tmp, false); /* received it here: into place */
        }
    }
    free(tmp);
    return err;
}
