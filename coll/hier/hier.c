/*
 * hier.c - a communicator's hierarchy (hier.h): the levels it keeps, and its stage
 * communicators, made without messages at the first hierarchical collective.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/hier/hier.h"

#include "runtime/datatype/datatype.h"
#include "base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool comm_coll_hier_applies(const struct comm_communicator *comm)
{
    return !comm->hier_stage && !comm->inter && comm->nlevels > 0 && comm->levels[0].ngroups > 1;
}

bool comm_coll_hier_spans_switches(const struct comm_communicator *comm)
{
    if (!comm_coll_hier_applies(comm)) {
        return false;
    }
    for (int l = 1; l < comm->nlevels; l++) {
        if (comm->levels[l].ngroups < comm->levels[0].ngroups && comm->levels[l].ngroups > 1) {
            return true;
        }
    }
    return false;
}

bool comm_coll_hier_pays(const struct comm_communicator *comm)
{
    return comm_coll_hier_applies(comm) &&
           (comm->levels[0].ngroups < comm->size || comm_coll_hier_spans_switches(comm));
}

/* The job levels the hierarchy keeps (hier.h), into KEPT; returns how many. */
static int hier_kept_levels(const struct comm_communicator *comm, int *kept)
{
    int n = 0;

    for (int l = 0; l < comm->nlevels && n < COMM_HIER_MAX_STAGES - 1; l++) {
        int groups = comm->levels[l].ngroups;

        if (groups == 1) {
            break;
        }
        if (n == 0 || groups < comm->levels[kept[n - 1]].ngroups) {
            kept[n++] = l;
        }
    }
    return n;
}

void comm_coll_hier_rails_free(struct comm_coll_hier_rails *rails)
{
    if (rails == NULL) {
        return;
    }
    free(rails->order);
    for (int s = 0; s < rails->nrails; s++) {
        if (s > 0 && rails->rail[s] != NULL) {
            comm_communicator_free(rails->rail[s]);
        }
        if (s > 0) {
            free(rails->member[s]);
        }
    }
    free(rails);
}

static void hier_free(struct comm_communicator *comm)
{
    struct comm_coll_hier *h = comm->hier;

    if (h != NULL) {
        comm_coll_hier_rails_free(h->rails);
    }
    for (int s = 0; h != NULL && s < h->nstages; s++) {
        if (h->stage[s] != NULL) {
            comm_communicator_free(h->stage[s]);
        }
        free(h->member[s]);
    }
    free(h);
}

int comm_coll_hier_leader(const struct comm_coll_hier *h, int s,
                          const struct comm_communicator *comm, int rank)
{
    const struct comm_topo_groups *g;

    if (h->level[s] < 0) {
        return 0;
    }
    g = &comm->levels[h->level[s]];
    return g->leader[g->group[rank]];
}

/* Whether RANK of COMM is a member of stage S (with the scope of my own stage S). */
static bool hier_member(const struct comm_coll_hier *h, int s, const struct comm_communicator *comm,
                        int rank)
{
    const struct comm_topo_groups *scope;

    if (h->level[s] >= 0) {
        scope = &comm->levels[h->level[s]];
        if (scope->group[rank] != scope->group[comm->rank]) {
            return false;
        }
    }
    return s == 0 || comm_coll_hier_leader(h, s - 1, comm, rank) == rank;
}

int comm_coll_hier_make_comm(struct comm_communicator *comm, const int *members, int n, int slot,
                             const char *kind, int index, struct comm_communicator **out)
{
    long *ranks = malloc((size_t)n * sizeof(*ranks));
    int me = -1, rc;

    if (ranks == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (int i = 0; i < n; i++) {
        me = members[i] == comm->rank ? i : me;
        ranks[i] = comm_communicator_world_rank(comm, members[i]);
    }
    rc = comm_communicator_create_stage(ranks, n, me, comm_communicator_hier_context(comm, slot),
                                        comm->errhandler, out);
    free(ranks);
    if (rc == COMM_OK) {
        snprintf((*out)->name, sizeof((*out)->name), "%s %d of %.100s", kind, index,
                 comm->name[0] != '\0' ? comm->name : "a communicator");
    }
    return rc;
}

/* Makes stage S's communicator, of which this rank is a member. */
static int hier_make_stage(struct comm_coll_hier *h, int s, struct comm_communicator *comm)
{
    int n = 0;

    h->member[s] = malloc((size_t)comm->size * sizeof(*h->member[s]));
    if (h->member[s] == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (int r = 0; r < comm->size; r++) {
        if (hier_member(h, s, comm, r)) {
            h->member[s][n++] = r;
        }
    }
    return comm_coll_hier_make_comm(comm, h->member[s], n, s, "stage", s, &h->stage[s]);
}

struct comm_coll_hier *comm_coll_hier_get(struct comm_communicator *comm)
{
    struct comm_coll_hier *h;
    int kept[COMM_HIER_MAX_STAGES], nkept;

    if (comm->hier_free == hier_free) {
        return comm->hier;
    }
    if (!comm_coll_hier_applies(comm)) {
        return NULL;
    }
    h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return NULL;
    }
    nkept = hier_kept_levels(comm, kept);
    h->nstages = nkept + 1;
    for (int s = 0; s < nkept; s++) {
        h->level[s] = kept[s];
    }
    h->level[nkept] = -1;
    comm->hier = h;
    comm->hier_free = hier_free;
    /* My stages: up to the first where I am not the leader. */
    for (int s = 0; s < h->nstages; s++) {
        if (hier_make_stage(h, s, comm) != COMM_OK) {
            hier_free(comm);
            comm->hier = NULL;
            comm->hier_free = NULL;
            return NULL;
        }
        h->top = s;
        if (h->stage[s]->rank != 0) {
            break;
        }
    }
    return h;
}

int comm_coll_hier_stage_rank(const struct comm_coll_hier *h, int s, int rank)
{
    const int *m = h->member[s];
    int lo = 0, hi = h->stage[s]->size - 1;

    /* The members are in rank order. */
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;

        if (m[mid] == rank) {
            return mid;
        }
        if (m[mid] < rank) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -1;
}

int comm_coll_hier_rep(const struct comm_coll_hier *h, int s, const struct comm_communicator *comm,
                       int rank)
{
    return s == 0 ? rank : comm_coll_hier_leader(h, s - 1, comm, rank);
}

bool comm_coll_hier_in_subtree(const struct comm_coll_hier *h, int s,
                               const struct comm_communicator *comm, int m, int rank)
{
    return comm_coll_hier_rep(h, s, comm, rank) == m;
}

int comm_coll_hier_subtree_size(const struct comm_coll_hier *h, int s,
                                const struct comm_communicator *comm, int m)
{
    int n = 0;

    for (int r = 0; r < comm->size; r++) {
        n += comm_coll_hier_in_subtree(h, s, comm, m, r) ? 1 : 0;
    }
    return n;
}

bool comm_coll_hier_on_path(const struct comm_coll_hier *h, const struct comm_communicator *comm,
                            int root, int rank)
{
    for (int s = 0; s < h->nstages - 1; s++) {
        if (comm_coll_hier_leader(h, s, comm, root) == rank) {
            return true;
        }
    }
    return rank == root;
}

int comm_coll_hier_runs(const struct comm_coll_hier *h, int s, const struct comm_communicator *comm,
                        int *counts_out, int *offs_out, int *run_out)
{
    int n = h->stage[s]->size, first = h->member[s][0], total = 0;

    for (int i = 0; i < n; i++) {
        counts_out[i] = 0;
    }
    for (int r = 0; r < comm->size; r++) {
        if (comm_coll_hier_in_subtree(h, s + 1, comm, first, r)) {
            counts_out[comm_coll_hier_stage_rank(h, s, comm_coll_hier_rep(h, s, comm, r))]++;
        }
    }
    for (int i = 0; i < n; i++) {
        offs_out[i] = total;
        total += counts_out[i];
    }
    /* OFFS_OUT serves as each run's cursor, then is put back. */
    for (int r = 0, u = 0; r < comm->size; r++) {
        if (comm_coll_hier_in_subtree(h, s + 1, comm, first, r)) {
            run_out[u++] =
                offs_out[comm_coll_hier_stage_rank(h, s, comm_coll_hier_rep(h, s, comm, r))]++;
        }
    }
    for (int i = 0; i < n; i++) {
        offs_out[i] -= counts_out[i];
    }
    return total;
}

int comm_coll_hier_blocks_init(struct comm_coll_hier_blocks *x, const struct comm_coll_hier *h,
                               struct comm_communicator *comm, size_t b, int root)
{
    *x = (struct comm_coll_hier_blocks){.h = h, .comm = comm, .b = b, .held = 1};
    x->room = comm_coll_hier_on_path(h, comm, root, comm->rank)
                  ? (size_t)comm->size
                  : (size_t)comm_coll_hier_subtree_size(h, h->top, comm, comm->rank);
    x->packed = malloc(x->room * b);
    x->counts = malloc(3 * (size_t)comm->size * sizeof(*x->counts));
    if (x->packed == NULL || x->counts == NULL) {
        return MPI_ERR_NO_MEM;
    }
    x->offs = x->counts + comm->size;
    x->run = x->offs + comm->size;
    return MPI_SUCCESS;
}

void comm_coll_hier_blocks_free(struct comm_coll_hier_blocks *x)
{
    free(x->packed);
    free(x->runs);
    free(x->counts);
}

char *comm_coll_hier_blocks_layout(struct comm_coll_hier_blocks *x, int s, int *n_out)
{
    int n = comm_coll_hier_runs(x->h, s, x->comm, x->counts, x->offs, x->run);
    bool in_order = true;

    for (int u = 0; u < n; u++) {
        in_order = in_order && x->run[u] == u;
    }
    *n_out = n;
    if (in_order) {
        return x->packed;
    }
    if (x->runs == NULL) {
        x->runs = malloc(x->room * x->b);
    }
    return x->runs;
}

void comm_coll_hier_blocks_reorder(struct comm_coll_hier_blocks *x, int n, bool to_runs)
{
    for (int u = 0; u < n; u++) {
        char *p = x->packed + (size_t)u * x->b, *r = x->runs + (size_t)x->run[u] * x->b;

        memcpy(to_runs ? r : p, to_runs ? p : r, x->b);
    }
}

/* Moves BUF one step along ROOT's path at stage S, from FROM to TO (ranks of COMM). */
static int hier_step(const struct comm_coll_hier *h, int s, void *buf, MPI_Count count,
                     struct comm_datatype *dt, int from, int to, struct comm_communicator *comm)
{
    if (from == to || (comm->rank != from && comm->rank != to)) {
        return MPI_SUCCESS;
    }
    if (comm->rank == from) {
        return comm_coll_send(buf, count, dt, comm_coll_hier_stage_rank(h, s, to),
                              COMM_COLL_TAG_HIER, h->stage[s]);
    }
    return comm_coll_recv(buf, count, dt, comm_coll_hier_stage_rank(h, s, from), COMM_COLL_TAG_HIER,
                          h->stage[s]);
}

int comm_coll_hier_up_path(const struct comm_coll_hier *h, void *buf, MPI_Count count,
                           struct comm_datatype *dt, int root, struct comm_communicator *comm)
{
    int err = MPI_SUCCESS;

    /* At stage s the root's representative hands the data to the leader of the root's group. */
    for (int s = 0; s < h->nstages - 1 && err == MPI_SUCCESS; s++) {
        err = hier_step(h, s, buf, count, dt, comm_coll_hier_rep(h, s, comm, root),
                        comm_coll_hier_leader(h, s, comm, root), comm);
    }
    return err;
}

int comm_coll_hier_down_path(const struct comm_coll_hier *h, void *buf, MPI_Count count,
                             struct comm_datatype *dt, int root, struct comm_communicator *comm)
{
    int err = MPI_SUCCESS;

    /* At stage s the leader of the root's group hands it to the root's representative. */
    for (int s = h->nstages - 2; s >= 0 && err == MPI_SUCCESS; s--) {
        err = hier_step(h, s, buf, count, dt, comm_coll_hier_leader(h, s, comm, root),
                        comm_coll_hier_rep(h, s, comm, root), comm);
    }
    return err;
}

/* ---- the flat collectives on a stage --------------------------------------------------- */

int comm_coll_hier_reduce(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                          struct comm_op *op, int root, struct comm_communicator *stage)
{
    if (stage->size == 1) {
        return sbuf == rbuf ? MPI_SUCCESS : comm_coll_copy(sbuf, rbuf, count, dt);
    }
    return stage->coll->reduce(sbuf, rbuf, count, dt, op, root, stage);
}

int comm_coll_hier_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                             struct comm_datatype *dt, struct comm_op *op,
                             struct comm_communicator *stage)
{
    if (stage->size == 1) {
        return sbuf == rbuf ? MPI_SUCCESS : comm_coll_copy(sbuf, rbuf, count, dt);
    }
    return stage->coll->allreduce(sbuf, rbuf, count, dt, op, stage);
}

int comm_coll_hier_bcast(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                         struct comm_communicator *stage)
{
    if (stage->size == 1) {
        return MPI_SUCCESS;
    }
    return stage->coll->bcast(buf, count, dt, root, stage);
}

int comm_coll_hier_barrier(struct comm_communicator *stage)
{
    if (stage->size == 1) {
        return MPI_SUCCESS;
    }
    return stage->coll->barrier(stage);
}
