/*
 * reduce_scatter_hier.c - reduce-scatter (and _block) over the communicator's hierarchy
 * (coll/hier/hier.h).
 *
 * From the host up, each stage reduces the whole vector to its leader (the flat reduce its
 * family picks on the stage).  The top stage's members, each holding its groups' sum, run a
 * reduce-scatter among themselves in which each member gets the blocks of the ranks it stands
 * for; then, from the top down, each stage's leader hands each member its subtree's blocks in
 * one message, until every rank has its own.  Where a host's or a group's ranks are not
 * consecutive (round-robin placement) the blocks are reordered member by member first.
 * Wins: many ranks per host or rack: the vector crosses each level below the top once per
 * group (not once per rank), and across the top each group receives only its own part.
 * Cost: one reduce of the whole vector (n elements) per stage below the top, a reduce-scatter
 * of n over the top stage, then one latency per stage down, where each level's links carry
 * each group's part once; a leader copies its blocks once more when its members' ranks
 * interleave.  Compute: the flat reduces' and the top reduce-scatter's.
 * Restrictions: commutative operations (the stages combine the ranks out of rank order);
 * communicators across hosts.  Both forms (every rank knows every count).
 * Reference: Luo et al., "HAN: a Hierarchical AutotuNed Collective Communication Framework"
 * (IEEE Cluster 2020), for composing node-level and inter-node collectives.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

struct hier_rs {
    struct comm_communicator *comm;
    const struct comm_coll_hier *h;
    struct comm_datatype *dt;
    const int *rcounts;
    /* One stage's layout (rs_layout): comm_coll_hier_runs's COUNTS, OFFS and RUN; the rank at
     * each place in rank order (RANK_AT), the place in rank order of each place in the runs
     * (INV), each run place's first element (ROFF, one more at the end), and each member's
     * elements (ECOUNTS, from EOFFS). */
    int *counts, *offs, *run, *rank_at, *inv, *ecounts;
    MPI_Count *roff, *eoffs;
    void *buf[2]; /* two buffers of the whole vector, laid out by DT; NULL where not needed */
};

/* Lays out stage S's blocks (see struct hier_rs); returns how many ranks, or -1 when a
 * member's part passes what an int count can say. */
static int rs_layout(struct hier_rs *x, int s, bool *in_order_out)
{
    int n = comm_coll_hier_runs(x->h, s, x->comm, x->counts, x->offs, x->run);
    int first = x->h->member[s][0], u = 0;
    bool in_order = true;

    for (int r = 0; r < x->comm->size; r++) {
        if (comm_coll_hier_in_subtree(x->h, s + 1, x->comm, first, r)) {
            in_order = in_order && x->run[u] == u;
            x->inv[x->run[u]] = u;
            x->rank_at[u++] = r;
        }
    }
    x->roff[0] = 0;
    for (int j = 0; j < n; j++) {
        x->roff[j + 1] = x->roff[j] + x->rcounts[x->rank_at[x->inv[j]]];
    }
    for (int i = 0; i < x->h->stage[s]->size; i++) {
        MPI_Count e = x->roff[x->offs[i] + x->counts[i]] - x->roff[x->offs[i]];

        if (e > INT_MAX) {
            return -1;
        }
        x->eoffs[i] = x->roff[x->offs[i]];
        x->ecounts[i] = (int)e;
    }
    *in_order_out = in_order;
    return n;
}

/* Copies N ranks' blocks from rank order (ORDERED) to the runs (RUNS), or back (!TO_RUNS). */
static void rs_move(const struct hier_rs *x, int n, char *ordered, char *runs, bool to_runs)
{
    MPI_Aint ext = x->dt->extent;
    MPI_Count at = 0;

    for (int u = 0; u < n; u++) {
        int c = x->rcounts[x->rank_at[u]];
        char *o = ordered + at * ext, *q = runs + x->roff[x->run[u]] * ext;

        comm_coll_copy(to_runs ? o : q, to_runs ? q : o, c, x->dt);
        at += c;
    }
}

/* The top stage: each member's sum of the whole vector, in BUF[0], to each member its own
 * subtree's part, in BUF[MINE_OUT] from its start. */
static int rs_top(struct hier_rs *x, struct comm_op *op, int *mine_out)
{
    struct comm_communicator *stage = x->h->stage[x->h->nstages - 1];
    bool in_order;
    int n = rs_layout(x, x->h->nstages - 1, &in_order), runs = 0;

    if (n < 0) {
        return MPI_ERR_COUNT;
    }
    if (!in_order) {
        rs_move(x, n, x->buf[0], x->buf[1], true);
        runs = 1;
    }
    *mine_out = 1 - runs;
    return stage->coll->reduce_scatter(x->buf[runs], x->buf[1 - runs], x->ecounts, x->dt, op,
                                       stage);
}

/* This rank, stage S's leader, hands each member its part of MINE (this rank's subtree's
 * blocks one level up, in rank order, from BUF[*CUR] + *AT elements); then *CUR and *AT say
 * where its own part lies. */
static int rs_hand(struct hier_rs *x, int s, int *cur, MPI_Count *at)
{
    struct comm_communicator *stage = x->h->stage[s];
    MPI_Aint ext = x->dt->extent;
    bool in_order;
    int n = rs_layout(x, s, &in_order), err = MPI_SUCCESS;

    if (n < 0) {
        return MPI_ERR_COUNT;
    }
    if (!in_order) {
        rs_move(x, n, (char *)x->buf[*cur] + *at * ext, x->buf[1 - *cur], true);
        *cur = 1 - *cur;
        *at = 0;
    }
    for (int i = 1; i < stage->size && err == MPI_SUCCESS; i++) {
        err = comm_coll_send((char *)x->buf[*cur] + (*at + x->eoffs[i]) * ext, x->ecounts[i], x->dt,
                             i, COMM_COLL_TAG_HIER, stage);
    }
    *at += x->eoffs[0];
    return err;
}

int comm_coll_reduce_scatter_hier(const void *sbuf, void *rbuf, const int *rcounts,
                                  struct comm_datatype *dt, struct comm_op *op,
                                  struct comm_communicator *comm)
{
    struct hier_rs x = {.comm = comm, .dt = dt, .rcounts = rcounts};
    void *block[2] = {NULL, NULL};
    const void *src = sbuf;
    MPI_Count total = 0, at = 0;
    int err = MPI_SUCCESS, top, last, cur = 0, p = comm->size, me = comm->rank;

    x.h = comm_coll_hier_get(comm);
    if (x.h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < p; r++) {
        total += rcounts[r];
    }
    if (total == 0) {
        return MPI_SUCCESS;
    }
    top = x.h->top;
    last = x.h->nstages - 1;
    x.counts = malloc(7 * (size_t)p * sizeof(int));
    x.roff = malloc(2 * ((size_t)p + 1) * sizeof(MPI_Count));
    if (x.counts == NULL || x.roff == NULL) {
        err = MPI_ERR_NO_MEM;
        goto out;
    }
    x.offs = x.counts + p;
    x.run = x.offs + p;
    x.rank_at = x.run + p;
    x.inv = x.rank_at + p;
    x.ecounts = x.inv + p;
    x.eoffs = x.roff + p + 1;
    /* A leader sums the whole vector and reorders it. */
    for (int i = 0; i < 2 && (top > 0 || top == last); i++) {
        x.buf[i] = comm_coll_alloc_buffer(total, dt, &block[i]);
        if (x.buf[i] == NULL) {
            err = MPI_ERR_NO_MEM;
            goto out;
        }
    }
    /* Up: the whole vector to each stage's leader. */
    for (int s = 0; s < top && err == MPI_SUCCESS; s++) {
        err = comm_coll_hier_reduce(src, x.buf[0], total, dt, op, 0, x.h->stage[s]);
        src = x.buf[0];
    }
    if (err == MPI_SUCCESS && top < last) {
        err = comm_coll_hier_reduce(src, x.buf[0], total, dt, op, 0, x.h->stage[top]);
    } else if (err == MPI_SUCCESS) {
        if (src != x.buf[0]) {
            err = comm_coll_copy(src, x.buf[0], total, dt);
        }
        if (err == MPI_SUCCESS) {
            err = rs_top(&x, op, &cur);
        }
    }
    /* Down: at my top (below the last stage) I take my subtree's part; below it I lead and
     * hand the members theirs. */
    for (int s = top < last ? top : last - 1; s >= 0 && err == MPI_SUCCESS; s--) {
        if (s == top && top == 0) {
            err = comm_coll_recv(rbuf, rcounts[me], dt, 0, COMM_COLL_TAG_HIER, x.h->stage[0]);
        } else if (s == top) {
            MPI_Count mine = 0;

            for (int r = 0; r < p; r++) {
                mine += comm_coll_hier_in_subtree(x.h, s, comm, me, r) ? rcounts[r] : 0;
            }
            err = comm_coll_recv(x.buf[0], mine, dt, 0, COMM_COLL_TAG_HIER, x.h->stage[s]);
        } else {
            err = rs_hand(&x, s, &cur, &at);
        }
    }
    if (err == MPI_SUCCESS && top > 0) {
        err = comm_coll_copy((char *)x.buf[cur] + at * dt->extent, rbuf, rcounts[me], dt);
    }
out:
    comm_coll_free_buffer(block[0]);
    comm_coll_free_buffer(block[1]);
    free(x.counts);
    free(x.roff);
    return err;
}
