/*
 * proc_topo.h - process topologies (MPI 3.1 chapter 7): the Cartesian grid, graph or
 * distributed graph a communicator carries, its neighbour lists, and the placement of a
 * topology's ranks on the communicator's hosts (reorder).
 *
 * Layer: runtime core.  Must not: check MPI arguments, send messages or call coll/ (the API
 * agrees on contexts and gathers distributed graphs; the mapping only reads the levels every
 * communicator already has, so every member computes the same permutation on its own).
 *
 * Ownership: a topology is made for one communicator and shared, by reference count, with its
 * duplicates (MPI_Comm_dup, MPI_Comm_idup), which have the same ranks; the last communicator
 * freed frees it.  Read-only once attached.  Threads: like the communicator it belongs to.
 */
#ifndef COMM_PROC_TOPO_H
#define COMM_PROC_TOPO_H

#include <stdbool.h>

struct comm_communicator;

enum comm_proc_topo_kind {
    COMM_PROC_TOPO_CART = 1,
    COMM_PROC_TOPO_GRAPH,
    COMM_PROC_TOPO_DIST_GRAPH,
};

struct comm_proc_topo {
    int refs;
    enum comm_proc_topo_kind kind;
    /* Cartesian: NDIMS dimensions (0 allowed: one process), row-major ranks. */
    int ndims;
    int *dims;
    int *periods; /* 0 or 1 */
    /* Graph: the whole graph, as MPI_Graph_create took it. */
    int nnodes;
    int *index; /* NNODES cumulative degrees */
    int *edges;
    /* Distributed graph: whether weights were given (false: MPI_UNWEIGHTED). */
    bool weighted;
    /* This process's neighbours, the order the neighbourhood collectives use: for a grid,
     * per dimension the source then the destination of a shift by +1 (MPI_PROC_NULL off a
     * non-periodic edge); for a graph, its neighbours both ways; for a distributed graph, its
     * sources (in) and destinations (out).  WEIGHTS: NULL unless weighted. */
    int indegree, outdegree;
    int *in, *out;
    int *in_weights, *out_weights;
};

/*
 * Makers.  Each copies its arrays, sets the calling process's neighbours (RANK in the new
 * communicator) and returns a topology with one reference.  COMM_ERR_NOMEM on failure.
 * The arrays are valid (checked by the API).  Weights may be NULL (unweighted).
 */
int comm_proc_topo_new_cart(int ndims, const int *dims, const int *periods, int rank,
                            struct comm_proc_topo **topo_out);
int comm_proc_topo_new_graph(int nnodes, const int *index, const int *edges, int rank,
                             struct comm_proc_topo **topo_out);
int comm_proc_topo_new_dist_graph(int indegree, const int *sources, const int *sourceweights,
                                  int outdegree, const int *destinations, const int *destweights,
                                  bool weighted, struct comm_proc_topo **topo_out);

/* References: COMM takes one on TOPO (NULL: none) and drops what it had. */
void comm_proc_topo_attach(struct comm_communicator *comm, struct comm_proc_topo *topo);
void comm_proc_topo_release(struct comm_proc_topo *topo);

/* Grid arithmetic.  COORDS has TOPO->ndims entries, in range (or any value in a periodic
 * dimension: wrapped). */
void comm_proc_topo_cart_coords(const struct comm_proc_topo *topo, int rank, int *coords_out);
int comm_proc_topo_cart_rank(const struct comm_proc_topo *topo, const int *coords);
/* The ranks a shift by DISP along DIM sends to and receives from (MPI_PROC_NULL off an edge). */
void comm_proc_topo_cart_shift(const struct comm_proc_topo *topo, int rank, int dim, int disp,
                               int *source_out, int *dest_out);

/*
 * Placement.  A topology of N vertices (N <= COMM->size) on COMM's ranks: OLD_OF_NEW[v] is the
 * rank of COMM that becomes vertex v (the new rank v).  Without REORDER, or when placement
 * does not cut the vertices' links across hosts (one host, no levels), the identity; with it,
 * the grid is laid out in compact sub-blocks, and a graph grouped greedily, one host after
 * another in the order of the tree (hosts of a rack together), and the choice is kept only if
 * its links cross fewer levels than the identity's.  Always a permutation of N distinct ranks.
 * With LOG, COMM's rank 0 logs the choice and its count of links that cross hosts (info).
 * COMM_OK or COMM_ERR_NOMEM.
 */
int comm_proc_topo_map_cart(const struct comm_communicator *comm, int ndims, const int *dims,
                            const int *periods, bool reorder, bool log, int *old_of_new);
/* XADJ/ADJ: the graph's adjacency (N + 1 offsets, then the targets), WEIGHTS per link or NULL. */
int comm_proc_topo_map_graph(const struct comm_communicator *comm, int n, const int *xadj,
                             const int *adj, const int *weights, bool reorder, bool log,
                             int *old_of_new);

#endif
