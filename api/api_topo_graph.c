/*
 * api_topo_graph.c - graph topologies: MPI_Graph_create, _get, _neighbors, _neighbors_count, _map,
 * MPI_Graphdims_get; and distributed graphs: MPI_Dist_graph_create, _create_adjacent,
 * _neighbors, _neighbors_count.
 *
 * Layer: api (the graphs and their placement are runtime/comm/proc_topo.h).
 *
 * A distributed graph made with MPI_Dist_graph_create, or with reorder, is first gathered
 * whole on every process (one allgather of the edges): each process then picks its own lists
 * out of it, and every process places the same graph the same way.  Without reorder,
 * MPI_Dist_graph_create_adjacent exchanges nothing but the new communicator's context.
 */
#include "config.h"

#include "api/api_topo.h"
#include "base/error.h"
#include "runtime/info.h"

#include <stdlib.h>
#include <string.h>

/* Checks a graph of NNODES nodes (INDEX, EDGES) for C. */
static int graph_check(const char *func, struct comm_communicator *c, int nnodes, const int *index,
                       const int *edges)
{
    if (nnodes < 0 || nnodes > c->size) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: invalid nnodes %d (0 to the communicator's %d)",
                              func, nnodes, c->size);
    }
    if (nnodes > 0 && index == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: index is NULL", func);
    }
    for (int i = 0; i < nnodes; i++) {
        if (index[i] < (i > 0 ? index[i - 1] : 0)) {
            return comm_api_error(c, MPI_ERR_ARG,
                                  "%s: index[%d] %d is less than the node before's (index "
                                  "holds cumulative degrees)",
                                  func, i, index[i]);
        }
    }
    if (nnodes > 0 && index[nnodes - 1] > 0 && edges == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: edges is NULL", func);
    }
    for (int k = 0; nnodes > 0 && k < index[nnodes - 1]; k++) {
        if (edges[k] < 0 || edges[k] >= nnodes) {
            return comm_api_error(c, MPI_ERR_ARG, "%s: edges[%d] %d is not a node (0 to %d)", func,
                                  k, edges[k], nnodes - 1);
        }
    }
    return MPI_SUCCESS;
}

/*
 * The common start of MPI_Graph_create and MPI_Graph_map: checks (OUT: the output argument,
 * named WHAT), then the placement of the graph on *C_OUT (REORDER; LOG for a creation):
 * *OLD_OF_NEW_OUT (malloc'ed, NNODES ranks).
 */
static int graph_place(const char *func, MPI_Comm comm, int nnodes, const int *index,
                       const int *edges, const void *out, const char *what, bool reorder, bool log,
                       struct comm_communicator **c_out, int **old_of_new_out)
{
    int *old_of_new = NULL, *xadj = NULL, err = comm_api_enter_intracomm(func, comm, c_out);

    if (err == MPI_SUCCESS && out == NULL) {
        err = comm_api_error(*c_out, MPI_ERR_ARG, "%s: %s is NULL", func, what);
    }
    if (err == MPI_SUCCESS) {
        err = graph_check(func, *c_out, nnodes, index, edges);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    old_of_new = malloc((size_t)(nnodes > 0 ? nnodes : 1) * sizeof(*old_of_new));
    xadj = malloc((size_t)(nnodes + 1) * sizeof(*xadj));
    if (old_of_new != NULL && xadj != NULL) {
        xadj[0] = 0;
        memcpy(xadj + 1, index, (size_t)nnodes * sizeof(*xadj));
    }
    if (old_of_new == NULL || xadj == NULL ||
        comm_proc_topo_map_graph(*c_out, nnodes, xadj, edges, NULL, reorder, log, old_of_new) < 0) {
        free(old_of_new);
        free(xadj);
        return comm_api_error(*c_out, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    free(xadj);
    *old_of_new_out = old_of_new;
    return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    struct comm_communicator *c, *n = NULL;
    struct comm_proc_topo *topo = NULL;
    int *old_of_new, rank, rc = COMM_OK;
    int err = graph_place("MPI_Graph_create", comm_old, nnodes, index, edges, comm_graph,
                          "comm_graph", reorder != 0, true, &c, &old_of_new);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_api_topo_comm("MPI_Graph_create", c, nnodes, old_of_new, &n, &rank);
    free(old_of_new);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (n != NULL) {
        rc = comm_proc_topo_new_graph(nnodes, index, edges, rank, &topo);
    }
    return comm_api_topo_finish("MPI_Graph_create", c, n, rc, topo, comm_graph);
}
COMM_API_ALIAS(MPI_Graph_create);

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    struct comm_communicator *c;
    int *old_of_new;
    int err = graph_place("MPI_Graph_map", comm, nnodes, index, edges, newrank, "newrank", true,
                          false, &c, &old_of_new);

    if (err == MPI_SUCCESS) {
        *newrank = comm_api_topo_new_rank(c, nnodes, old_of_new);
        free(old_of_new);
    }
    return err;
}
COMM_API_ALIAS(MPI_Graph_map);

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    struct comm_communicator *c;
    const struct comm_proc_topo *t;
    int err = comm_api_topo_enter("MPI_Graphdims_get", comm, COMM_PROC_TOPO_GRAPH, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (nnodes == NULL || nedges == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Graphdims_get: %s is NULL",
                              nnodes == NULL ? "nnodes" : "nedges");
    }
    t = c->proc_topo;
    *nnodes = t->nnodes;
    *nedges = t->nnodes > 0 ? t->index[t->nnodes - 1] : 0;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Graphdims_get);

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    struct comm_communicator *c;
    const struct comm_proc_topo *t;
    int nedges;
    int err = comm_api_topo_enter("MPI_Graph_get", comm, COMM_PROC_TOPO_GRAPH, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    t = c->proc_topo;
    nedges = t->nnodes > 0 ? t->index[t->nnodes - 1] : 0;
    if (maxindex < 0 || maxedges < 0) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Graph_get: invalid %s %d (at least 0)",
                              maxindex < 0 ? "maxindex" : "maxedges",
                              maxindex < 0 ? maxindex : maxedges);
    }
    if ((maxindex > 0 && index == NULL) || (maxedges > 0 && edges == NULL)) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Graph_get: %s is NULL",
                              maxindex > 0 && index == NULL ? "index" : "edges");
    }
    memcpy(index, t->index, (size_t)(maxindex < t->nnodes ? maxindex : t->nnodes) * sizeof(int));
    memcpy(edges, t->edges, (size_t)(maxedges < nedges ? maxedges : nedges) * sizeof(int));
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Graph_get);

/* The start of MPI_Graph_neighbors(_count): C has a graph and RANK is one of its nodes. */
static int graph_enter_rank(const char *func, MPI_Comm comm, int rank,
                            struct comm_communicator **c_out)
{
    int err = comm_api_topo_enter(func, comm, COMM_PROC_TOPO_GRAPH, c_out);

    if (err == MPI_SUCCESS && (rank < 0 || rank >= (*c_out)->proc_topo->nnodes)) {
        err = comm_api_error(*c_out, MPI_ERR_RANK, "%s: invalid rank %d (0 to %d)", func, rank,
                             (*c_out)->proc_topo->nnodes - 1);
    }
    return err;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    struct comm_communicator *c;
    int err = graph_enter_rank("MPI_Graph_neighbors_count", comm, rank, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (nneighbors == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Graph_neighbors_count: nneighbors is NULL");
    }
    *nneighbors = c->proc_topo->index[rank] - (rank > 0 ? c->proc_topo->index[rank - 1] : 0);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Graph_neighbors_count);

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    struct comm_communicator *c;
    int first, count;
    int err = graph_enter_rank("MPI_Graph_neighbors", comm, rank, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    first = rank > 0 ? c->proc_topo->index[rank - 1] : 0;
    count = c->proc_topo->index[rank] - first;
    count = maxneighbors < count ? maxneighbors : count;
    if (maxneighbors < 0 || (count > 0 && neighbors == NULL)) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Graph_neighbors: %s",
                              maxneighbors < 0 ? "maxneighbors is negative" : "neighbors is NULL");
    }
    memcpy(neighbors, c->proc_topo->edges + first, (size_t)(count > 0 ? count : 0) * sizeof(int));
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Graph_neighbors);

/* An edge of a distributed graph as gathered: who said it, and which lists it belongs to. */
enum { DIST_EDGE_BOTH = 0, DIST_EDGE_IN = 1, DIST_EDGE_OUT = 2, DIST_EDGE_INTS = 4 };

/* Checks N ranks of C at RANKS (WHAT names the array). */
static int dist_check_ranks(const char *func, struct comm_communicator *c, const char *what, int n,
                            const int *ranks)
{
    if (n > 0 && ranks == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: %s is NULL", func, what);
    }
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= c->size) {
            return comm_api_error(c, MPI_ERR_RANK, "%s: invalid %s[%d] %d (0 to %d)", func, what, i,
                                  ranks[i], c->size - 1);
        }
    }
    return MPI_SUCCESS;
}

/* Checks N weights at W: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY (N = 0 only) or N non-negative. */
static int dist_check_weights(const char *func, struct comm_communicator *c, const char *what,
                              int n, const int *w)
{
    if (w == MPI_UNWEIGHTED || (n == 0 && w == MPI_WEIGHTS_EMPTY)) {
        return MPI_SUCCESS;
    }
    if (w == NULL || w == MPI_WEIGHTS_EMPTY) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: %s is %s for %d edges", func, what,
                              w == NULL ? "NULL" : "MPI_WEIGHTS_EMPTY", n);
    }
    for (int i = 0; i < n; i++) {
        if (w[i] < 0) {
            return comm_api_error(c, MPI_ERR_ARG, "%s: invalid %s[%d] %d (at least 0)", func, what,
                                  i, w[i]);
        }
    }
    return MPI_SUCCESS;
}

/* The distributed graph every process described (NMINE edges at MINE, DIST_EDGE_INTS ints
 * each), gathered whole on every process into *ALL_OUT (*NALL_OUT edges, in rank order);
 * *WEIGHTED_OUT: no process passed MPI_UNWEIGHTED. */
static int dist_gather(const char *func, struct comm_communicator *c, const int *mine, int nmine,
                       bool unweighted, int **all_out, int *nall_out, bool *weighted_out)
{
    int pair[2] = {nmine * DIST_EDGE_INTS, unweighted}, *pairs, *counts, *displs, *all = NULL;
    long total = 0;
    int err;

    pairs = malloc((size_t)c->size * 2 * sizeof(*pairs));
    counts = malloc((size_t)c->size * sizeof(*counts));
    displs = malloc((size_t)c->size * sizeof(*displs));
    if (pairs == NULL || counts == NULL || displs == NULL) {
        err = comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
        goto out_free;
    }
    err = PMPI_Allgather(pair, 2, MPI_INT, pairs, 2, MPI_INT, c->handle);
    if (err != MPI_SUCCESS) {
        goto out_free;
    }
    *weighted_out = true;
    for (int r = 0; r < c->size; r++) {
        counts[r] = pairs[2 * r];
        displs[r] = (int)total;
        total += counts[r];
        *weighted_out = *weighted_out && !pairs[2 * r + 1];
    }
    if (total > 0x7fffffff) {
        err = comm_api_error(c, MPI_ERR_ARG, "%s: the graph has too many edges (%ld)", func,
                             total / DIST_EDGE_INTS);
        goto out_free;
    }
    all = malloc((size_t)(total > 0 ? total : 1) * sizeof(*all));
    if (all == NULL) {
        err = comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
        goto out_free;
    }
    err = PMPI_Allgatherv(mine, pair[0], MPI_INT, all, counts, displs, MPI_INT, c->handle);
    if (err != MPI_SUCCESS) {
        free(all);
        goto out_free;
    }
    *all_out = all;
    *nall_out = (int)(total / DIST_EDGE_INTS);
out_free:
    free(pairs);
    free(counts);
    free(displs);
    return err;
}

/*
 * From the gathered edges ALL (NALL): the placement (with REORDER), the new communicator, and
 * this process's lists (those of the node it becomes), attached to it.
 */
static int dist_make(const char *func, struct comm_communicator *c, const int *all, int nall,
                     bool weighted, bool reorder, MPI_Comm *newcomm)
{
    size_t nedges = (size_t)(nall > 0 ? nall : 1);
    int size = c->size, *xadj = calloc((size_t)size + 1, sizeof(*xadj));
    int *fill = calloc((size_t)size, sizeof(*fill)),
        *old_of_new = malloc((size_t)size * sizeof(int));
    int *adj = malloc(nedges * sizeof(*adj)), *wts = malloc(nedges * sizeof(*wts));
    int *in = malloc(nedges * sizeof(*in)), *in_w = malloc(nedges * sizeof(*in_w));
    int *out = malloc(nedges * sizeof(*out)), *out_w = malloc(nedges * sizeof(*out_w));
    struct comm_communicator *n = NULL;
    struct comm_proc_topo *topo = NULL;
    int rank, nin = 0, nout = 0, rc = COMM_ERR_NOMEM, err = MPI_SUCCESS;

    if (xadj == NULL || fill == NULL || old_of_new == NULL || adj == NULL || wts == NULL ||
        in == NULL || in_w == NULL || out == NULL || out_w == NULL) {
        goto out_free;
    }
    /* The links the placement weighs: each edge once, from its source's list. */
    for (int e = 0; e < nall; e++) {
        const int *q = all + DIST_EDGE_INTS * e;

        xadj[q[0] + 1] += q[3] != DIST_EDGE_IN;
    }
    for (int v = 0; v < size; v++) {
        xadj[v + 1] += xadj[v];
    }
    for (int e = 0; e < nall; e++) {
        const int *q = all + DIST_EDGE_INTS * e;

        if (q[3] != DIST_EDGE_IN) {
            int k = xadj[q[0]] + fill[q[0]]++;

            adj[k] = q[1];
            wts[k] = q[2];
        }
    }
    rc = comm_proc_topo_map_graph(c, size, xadj, adj, weighted ? wts : NULL, reorder, true,
                                  old_of_new);
    if (rc < 0) {
        goto out_free;
    }
    err = comm_api_topo_comm(func, c, size, old_of_new, &n, &rank);
    if (err != MPI_SUCCESS) {
        goto out_free;
    }
    for (int e = 0; e < nall && n != NULL; e++) {
        const int *q = all + DIST_EDGE_INTS * e;

        if (q[1] == rank && q[3] != DIST_EDGE_OUT) {
            in_w[nin] = q[2];
            in[nin++] = q[0];
        }
        if (q[0] == rank && q[3] != DIST_EDGE_IN) {
            out_w[nout] = q[2];
            out[nout++] = q[1];
        }
    }
    if (n != NULL) {
        rc = comm_proc_topo_new_dist_graph(nin, in, in_w, nout, out, out_w, weighted, &topo);
    }
    err = comm_api_topo_finish(func, c, n, rc, topo, newcomm);
out_free:
    if (rc < 0 && err == MPI_SUCCESS) {
        err = comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    free(xadj);
    free(fill);
    free(old_of_new);
    free(adj);
    free(wts);
    free(in);
    free(in_w);
    free(out);
    free(out_w);
    return err;
}

/* The checks every distributed-graph constructor starts with. */
static int dist_enter(const char *func, MPI_Comm comm_old, MPI_Info info, MPI_Comm *newcomm,
                      struct comm_communicator **c_out)
{
    int err = comm_api_enter_intracomm(func, comm_old, c_out);

    if (err == MPI_SUCCESS && info != MPI_INFO_NULL && comm_info_lookup(info) == NULL) {
        err = comm_api_error(*c_out, MPI_ERR_INFO, "%s: invalid info handle", func);
    }
    if (err == MPI_SUCCESS && newcomm == NULL) {
        err = comm_api_error(*c_out, MPI_ERR_ARG, "%s: comm_dist_graph is NULL", func);
    }
    return err;
}

/* Writes N edges (FROM or TO fixed when >= 0, else from RANKS) of KIND into Q. */
static int *dist_edges(int *q, int n, int from, int to, const int *ranks, const int *w, int kind)
{
    bool weighted = w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY;

    for (int i = 0; i < n; i++, q += DIST_EDGE_INTS) {
        q[0] = from >= 0 ? from : ranks[i];
        q[1] = to >= 0 ? to : ranks[i];
        q[2] = weighted ? w[i] : 1;
        q[3] = kind;
    }
    return q;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int *sourceweights, int outdegree,
                                    const int destinations[], const int *destweights, MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph)
{
    static const char func[] = "MPI_Dist_graph_create_adjacent";
    struct comm_communicator *c, *n;
    struct comm_proc_topo *topo = NULL;
    int *mine = NULL, *all = NULL, *old_of_new = NULL, nall, rank, rc = COMM_OK;
    bool weighted;
    int err = dist_enter(func, comm_old, info, comm_dist_graph, &c);

    if (err == MPI_SUCCESS && (indegree < 0 || outdegree < 0)) {
        err = comm_api_error(c, MPI_ERR_ARG, "%s: invalid %s %d (at least 0)", func,
                             indegree < 0 ? "indegree" : "outdegree",
                             indegree < 0 ? indegree : outdegree);
    }
    if (err == MPI_SUCCESS) {
        err = dist_check_ranks(func, c, "sources", indegree, sources);
    }
    if (err == MPI_SUCCESS) {
        err = dist_check_ranks(func, c, "destinations", outdegree, destinations);
    }
    if (err == MPI_SUCCESS) {
        err = dist_check_weights(func, c, "sourceweights", indegree, sourceweights);
    }
    if (err == MPI_SUCCESS) {
        err = dist_check_weights(func, c, "destweights", outdegree, destweights);
    }
    if (err == MPI_SUCCESS &&
        (sourceweights == MPI_UNWEIGHTED) != (destweights == MPI_UNWEIGHTED)) {
        err = comm_api_error(c, MPI_ERR_ARG,
                             "%s: sourceweights and destweights must both be MPI_UNWEIGHTED or "
                             "neither",
                             func);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    weighted = sourceweights != MPI_UNWEIGHTED;
    if (!reorder) { /* every process keeps its rank and its own lists */
        old_of_new = malloc((size_t)c->size * sizeof(*old_of_new));
        if (old_of_new == NULL) {
            return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
        }
        for (int v = 0; v < c->size; v++) {
            old_of_new[v] = v;
        }
        err = comm_api_topo_comm(func, c, c->size, old_of_new, &n, &rank);
        free(old_of_new);
        if (err == MPI_SUCCESS) {
            rc = comm_proc_topo_new_dist_graph(indegree, sources, sourceweights, outdegree,
                                               destinations, destweights, weighted, &topo);
            err = comm_api_topo_finish(func, c, n, rc, topo, comm_dist_graph);
        }
        return err;
    }
    mine = malloc((size_t)(indegree + outdegree + 1) * DIST_EDGE_INTS * sizeof(*mine));
    if (mine == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    dist_edges(dist_edges(mine, indegree, -1, c->rank, sources, sourceweights, DIST_EDGE_IN),
               outdegree, c->rank, -1, destinations, destweights, DIST_EDGE_OUT);
    err = dist_gather(func, c, mine, indegree + outdegree, !weighted, &all, &nall, &weighted);
    if (err == MPI_SUCCESS) {
        err = dist_make(func, c, all, nall, weighted, true, comm_dist_graph);
    }
    free(mine);
    free(all);
    return err;
}
COMM_API_ALIAS(MPI_Dist_graph_create_adjacent);

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int *weights, MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph)
{
    static const char func[] = "MPI_Dist_graph_create";
    struct comm_communicator *c;
    int *mine = NULL, *all = NULL, *q, nall, nedges = 0, at = 0;
    bool weighted;
    int err = dist_enter(func, comm_old, info, comm_dist_graph, &c);

    if (err == MPI_SUCCESS && n < 0) {
        err = comm_api_error(c, MPI_ERR_ARG, "%s: invalid n %d (at least 0)", func, n);
    }
    if (err == MPI_SUCCESS && n > 0 && degrees == NULL) {
        err = comm_api_error(c, MPI_ERR_ARG, "%s: degrees is NULL", func);
    }
    if (err == MPI_SUCCESS) {
        err = dist_check_ranks(func, c, "sources", n, sources);
    }
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        if (degrees[i] < 0 || nedges > 0x7fffffff / DIST_EDGE_INTS - degrees[i]) {
            err = comm_api_error(c, MPI_ERR_ARG, "%s: invalid degrees[%d] %d", func, i, degrees[i]);
        }
        nedges += err == MPI_SUCCESS ? degrees[i] : 0;
    }
    if (err == MPI_SUCCESS) {
        err = dist_check_ranks(func, c, "destinations", nedges, destinations);
    }
    if (err == MPI_SUCCESS) {
        err = dist_check_weights(func, c, "weights", nedges, weights);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    mine = malloc((size_t)(nedges + 1) * DIST_EDGE_INTS * sizeof(*mine));
    if (mine == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    q = mine;
    for (int i = 0; i < n; i++) {
        q = dist_edges(q, degrees[i], sources[i], -1, destinations + at,
                       weights == MPI_UNWEIGHTED || weights == MPI_WEIGHTS_EMPTY ? weights
                                                                                 : weights + at,
                       DIST_EDGE_BOTH);
        at += degrees[i];
    }
    err = dist_gather(func, c, mine, nedges, weights == MPI_UNWEIGHTED, &all, &nall, &weighted);
    if (err == MPI_SUCCESS) {
        err = dist_make(func, c, all, nall, weighted, reorder != 0, comm_dist_graph);
    }
    free(mine);
    free(all);
    return err;
}
COMM_API_ALIAS(MPI_Dist_graph_create);

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    struct comm_communicator *c;
    int err =
        comm_api_topo_enter("MPI_Dist_graph_neighbors_count", comm, COMM_PROC_TOPO_DIST_GRAPH, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (indegree == NULL || outdegree == NULL || weighted == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Dist_graph_neighbors_count: %s is NULL",
                              indegree == NULL    ? "indegree"
                              : outdegree == NULL ? "outdegree"
                                                  : "weighted");
    }
    *indegree = c->proc_topo->indegree;
    *outdegree = c->proc_topo->outdegree;
    *weighted = c->proc_topo->weighted;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Dist_graph_neighbors_count);

/* Copies up to MAX of a list out, and its weights where both sides have them. */
static void dist_copy_out(int max, int n, const int *list, const int *weights, int *ranks_out,
                          int *weights_out)
{
    n = max < n ? max : n;
    for (int i = 0; i < n; i++) {
        ranks_out[i] = list[i];
        if (weights != NULL && weights_out != MPI_UNWEIGHTED && weights_out != MPI_WEIGHTS_EMPTY &&
            weights_out != NULL) {
            weights_out[i] = weights[i];
        }
    }
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int *sourceweights,
                              int maxoutdegree, int destinations[], int *destweights)
{
    static const char func[] = "MPI_Dist_graph_neighbors";
    struct comm_communicator *c;
    const struct comm_proc_topo *t;
    int err = comm_api_topo_enter(func, comm, COMM_PROC_TOPO_DIST_GRAPH, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    t = c->proc_topo;
    if (maxindegree < 0 || maxoutdegree < 0) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: invalid %s %d (at least 0)", func,
                              maxindegree < 0 ? "maxindegree" : "maxoutdegree",
                              maxindegree < 0 ? maxindegree : maxoutdegree);
    }
    if ((maxindegree > 0 && t->indegree > 0 && sources == NULL) ||
        (maxoutdegree > 0 && t->outdegree > 0 && destinations == NULL)) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: %s is NULL", func,
                              sources == NULL ? "sources" : "destinations");
    }
    dist_copy_out(maxindegree, t->indegree, t->in, t->in_weights, sources, sourceweights);
    dist_copy_out(maxoutdegree, t->outdegree, t->out, t->out_weights, destinations, destweights);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Dist_graph_neighbors);
