/*
 * proc_topo.c - process topology objects: making, sharing and freeing them, grid arithmetic,
 * and each process's neighbour lists.
 *
 * Layer: runtime core.  Must not: check MPI arguments or send messages.
 */
#include "config.h"

#include "runtime/comm/proc_topo.h"

#include "runtime/comm/communicator.h"
#include "base/error.h"

#include <stdlib.h>
#include <string.h>

/* A copy of N ints (an allocation even for none, so NULL only means out of memory). */
static int *proc_topo_copy(const int *src, int n)
{
    int *dst = malloc((size_t)(n > 0 ? n : 1) * sizeof(*dst));

    if (dst != NULL && n > 0) {
        memcpy(dst, src, (size_t)n * sizeof(*dst));
    }
    return dst;
}

void comm_proc_topo_release(struct comm_proc_topo *t)
{
    if (t == NULL || --t->refs > 0) {
        return;
    }
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->in);
    free(t->out);
    free(t->in_weights);
    free(t->out_weights);
    free(t);
}

void comm_proc_topo_attach(struct comm_communicator *comm, struct comm_proc_topo *topo)
{
    if (topo != NULL) {
        topo->refs++;
    }
    comm_proc_topo_release(comm->proc_topo);
    comm->proc_topo = topo;
}

void comm_proc_topo_cart_coords(const struct comm_proc_topo *t, int rank, int *coords_out)
{
    for (int d = t->ndims - 1; d >= 0; d--) {
        coords_out[d] = rank % t->dims[d];
        rank /= t->dims[d];
    }
}

int comm_proc_topo_cart_rank(const struct comm_proc_topo *t, const int *coords)
{
    int rank = 0;

    for (int d = 0; d < t->ndims; d++) {
        int c = coords[d] % t->dims[d];

        rank = rank * t->dims[d] + (c < 0 ? c + t->dims[d] : c);
    }
    return rank;
}

/* The rank DISP steps from RANK along DIM, or MPI_PROC_NULL off a non-periodic edge. */
static int proc_topo_cart_step(const struct comm_proc_topo *t, int rank, int dim, int disp)
{
    int stride = 1, c;

    for (int d = t->ndims - 1; d > dim; d--) {
        stride *= t->dims[d];
    }
    c = (rank / stride) % t->dims[dim];
    if (!t->periods[dim] && (c + (long)disp < 0 || c + (long)disp >= t->dims[dim])) {
        return MPI_PROC_NULL;
    }
    disp %= t->dims[dim];
    return rank + ((c + disp + t->dims[dim]) % t->dims[dim] - c) * stride;
}

void comm_proc_topo_cart_shift(const struct comm_proc_topo *t, int rank, int dim, int disp,
                               int *source_out, int *dest_out)
{
    *source_out = proc_topo_cart_step(t, rank, dim, -disp);
    *dest_out = proc_topo_cart_step(t, rank, dim, disp);
}

static struct comm_proc_topo *proc_topo_alloc(enum comm_proc_topo_kind kind)
{
    struct comm_proc_topo *t = calloc(1, sizeof(*t));

    if (t != NULL) {
        t->kind = kind;
        t->refs = 1;
    }
    return t;
}

int comm_proc_topo_new_cart(int ndims, const int *dims, const int *periods, int rank,
                            struct comm_proc_topo **topo_out)
{
    struct comm_proc_topo *t = proc_topo_alloc(COMM_PROC_TOPO_CART);

    if (t == NULL) {
        return COMM_ERR_NOMEM;
    }
    t->ndims = ndims;
    t->dims = proc_topo_copy(dims, ndims);
    t->periods = malloc((size_t)(ndims > 0 ? ndims : 1) * sizeof(*t->periods));
    t->indegree = t->outdegree = 2 * ndims;
    t->in = malloc((size_t)(ndims > 0 ? 2 * ndims : 1) * sizeof(*t->in));
    t->out = malloc((size_t)(ndims > 0 ? 2 * ndims : 1) * sizeof(*t->out));
    if (t->dims == NULL || t->periods == NULL || t->in == NULL || t->out == NULL) {
        comm_proc_topo_release(t);
        return COMM_ERR_NOMEM;
    }
    for (int d = 0; d < ndims; d++) {
        t->periods[d] = periods[d] != 0;
    }
    for (int d = 0; d < ndims; d++) {
        comm_proc_topo_cart_shift(t, rank, d, 1, &t->in[2 * d], &t->in[2 * d + 1]);
        t->out[2 * d] = t->in[2 * d];
        t->out[2 * d + 1] = t->in[2 * d + 1];
    }
    *topo_out = t;
    return COMM_OK;
}

int comm_proc_topo_new_graph(int nnodes, const int *index, const int *edges, int rank,
                             struct comm_proc_topo **topo_out)
{
    struct comm_proc_topo *t = proc_topo_alloc(COMM_PROC_TOPO_GRAPH);
    int first = rank > 0 ? index[rank - 1] : 0;
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;

    if (t == NULL) {
        return COMM_ERR_NOMEM;
    }
    t->nnodes = nnodes;
    t->index = proc_topo_copy(index, nnodes);
    t->edges = proc_topo_copy(edges, nedges);
    t->indegree = t->outdegree = index[rank] - first;
    t->in = proc_topo_copy(edges + first, t->indegree);
    t->out = proc_topo_copy(edges + first, t->indegree);
    if (t->index == NULL || t->edges == NULL || t->in == NULL || t->out == NULL) {
        comm_proc_topo_release(t);
        return COMM_ERR_NOMEM;
    }
    *topo_out = t;
    return COMM_OK;
}

int comm_proc_topo_new_dist_graph(int indegree, const int *sources, const int *sourceweights,
                                  int outdegree, const int *destinations, const int *destweights,
                                  bool weighted, struct comm_proc_topo **topo_out)
{
    struct comm_proc_topo *t = proc_topo_alloc(COMM_PROC_TOPO_DIST_GRAPH);

    if (t == NULL) {
        return COMM_ERR_NOMEM;
    }
    t->weighted = weighted;
    t->indegree = indegree;
    t->outdegree = outdegree;
    t->in = proc_topo_copy(sources, indegree);
    t->out = proc_topo_copy(destinations, outdegree);
    if (weighted) {
        t->in_weights = proc_topo_copy(sourceweights, indegree);
        t->out_weights = proc_topo_copy(destweights, outdegree);
    }
    if (t->in == NULL || t->out == NULL ||
        (weighted && (t->in_weights == NULL || t->out_weights == NULL))) {
        comm_proc_topo_release(t);
        return COMM_ERR_NOMEM;
    }
    *topo_out = t;
    return COMM_OK;
}
