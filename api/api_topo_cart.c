/*
 * api_topo_cart.c - Cartesian topologies: MPI_Cart_create, _coords, _rank, _shift, _sub, _get,
 * _map, MPI_Cartdim_get and MPI_Dims_create.
 *
 * Layer: api (the grid and its placement are runtime/comm/proc_topo.h).
 */
#include "config.h"

#include "api/api_topo.h"
#include "base/error.h"

#include <stdlib.h>

/* Checks NDIMS, DIMS and PERIODS of a grid for COMM; *n_out: its number of processes. */
static int cart_check(const char *func, struct comm_communicator *c, int ndims, const int *dims,
                      const int *periods, int *n_out)
{
    long n = 1;

    if (ndims < 0) {
        return comm_api_error(c, MPI_ERR_DIMS, "%s: invalid ndims %d (at least 0)", func, ndims);
    }
    if (ndims > 0 && (dims == NULL || periods == NULL)) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: %s is NULL", func,
                              dims == NULL ? "dims" : "periods");
    }
    for (int d = 0; d < ndims; d++) {
        if (dims[d] <= 0) {
            return comm_api_error(c, MPI_ERR_DIMS, "%s: invalid dims[%d] %d (positive)", func, d,
                                  dims[d]);
        }
        n *= dims[d];
        if (n > c->size) {
            break;
        }
    }
    if (n > c->size) {
        return comm_api_error(c, MPI_ERR_ARG,
                              "%s: the grid has more processes than the communicator's %d", func,
                              c->size);
    }
    *n_out = (int)n;
    return MPI_SUCCESS;
}

/*
 * The common start of MPI_Cart_create and MPI_Cart_map: checks (OUT: the output argument,
 * named WHAT), then the placement of the grid on *C_OUT (REORDER; LOG for a creation):
 * *OLD_OF_NEW_OUT (malloc'ed) of *SIZE_OUT ranks.
 */
static int cart_place(const char *func, MPI_Comm comm, int ndims, const int *dims,
                      const int *periods, const void *out, const char *what, bool reorder, bool log,
                      struct comm_communicator **c_out, int *size_out, int **old_of_new_out)
{
    int *old_of_new, err = comm_api_enter_intracomm(func, comm, c_out);

    if (err == MPI_SUCCESS && out == NULL) {
        err = comm_api_error(*c_out, MPI_ERR_ARG, "%s: %s is NULL", func, what);
    }
    if (err == MPI_SUCCESS) {
        err = cart_check(func, *c_out, ndims, dims, periods, size_out);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    old_of_new = malloc((size_t)*size_out * sizeof(*old_of_new));
    if (old_of_new == NULL ||
        comm_proc_topo_map_cart(*c_out, ndims, dims, periods, reorder, log, old_of_new) < 0) {
        free(old_of_new);
        return comm_api_error(*c_out, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *old_of_new_out = old_of_new;
    return MPI_SUCCESS;
}

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    struct comm_communicator *c, *n = NULL;
    struct comm_proc_topo *topo = NULL;
    int *old_of_new, size, rank, rc = COMM_OK;
    int err = cart_place("MPI_Cart_create", comm_old, ndims, dims, periods, comm_cart, "comm_cart",
                         reorder != 0, true, &c, &size, &old_of_new);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_api_topo_comm("MPI_Cart_create", c, size, old_of_new, &n, &rank);
    free(old_of_new);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (n != NULL) {
        rc = comm_proc_topo_new_cart(ndims, dims, periods, rank, &topo);
    }
    return comm_api_topo_finish("MPI_Cart_create", c, n, rc, topo, comm_cart);
}
COMM_API_ALIAS(MPI_Cart_create);

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    struct comm_communicator *c;
    int *old_of_new, size;
    int err = cart_place("MPI_Cart_map", comm, ndims, dims, periods, newrank, "newrank", true,
                         false, &c, &size, &old_of_new);

    if (err == MPI_SUCCESS) {
        *newrank = comm_api_topo_new_rank(c, size, old_of_new);
        free(old_of_new);
    }
    return err;
}
COMM_API_ALIAS(MPI_Cart_map);

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    struct comm_communicator *c;
    int err = comm_api_topo_enter("MPI_Cartdim_get", comm, COMM_PROC_TOPO_CART, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (ndims == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Cartdim_get: ndims is NULL");
    }
    *ndims = c->proc_topo->ndims;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Cartdim_get);

/* Checks that an output array of MAXDIMS entries holds the grid's dimensions. */
static int cart_check_maxdims(const char *func, struct comm_communicator *c, int maxdims)
{
    if (maxdims < c->proc_topo->ndims) {
        return comm_api_error(c, MPI_ERR_ARG,
                              "%s: maxdims %d is less than the grid's %d dimensions", func, maxdims,
                              c->proc_topo->ndims);
    }
    return MPI_SUCCESS;
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    struct comm_communicator *c;
    const struct comm_proc_topo *t;
    int err = comm_api_topo_enter("MPI_Cart_get", comm, COMM_PROC_TOPO_CART, &c);

    if (err == MPI_SUCCESS) {
        err = cart_check_maxdims("MPI_Cart_get", c, maxdims);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    t = c->proc_topo;
    if (t->ndims > 0 && (dims == NULL || periods == NULL || coords == NULL)) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Cart_get: %s is NULL",
                              dims == NULL      ? "dims"
                              : periods == NULL ? "periods"
                                                : "coords");
    }
    for (int d = 0; d < t->ndims; d++) {
        dims[d] = t->dims[d];
        periods[d] = t->periods[d];
    }
    if (t->ndims > 0) {
        comm_proc_topo_cart_coords(t, c->rank, coords);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Cart_get);

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    struct comm_communicator *c;
    int err = comm_api_topo_enter("MPI_Cart_coords", comm, COMM_PROC_TOPO_CART, &c);

    if (err == MPI_SUCCESS && (rank < 0 || rank >= c->size)) {
        err = comm_api_error(c, MPI_ERR_RANK, "MPI_Cart_coords: invalid rank %d (0 to %d)", rank,
                             c->size - 1);
    }
    if (err == MPI_SUCCESS) {
        err = cart_check_maxdims("MPI_Cart_coords", c, maxdims);
    }
    if (err == MPI_SUCCESS && c->proc_topo->ndims > 0 && coords == NULL) {
        err = comm_api_error(c, MPI_ERR_ARG, "MPI_Cart_coords: coords is NULL");
    }
    if (err == MPI_SUCCESS && c->proc_topo->ndims > 0) {
        comm_proc_topo_cart_coords(c->proc_topo, rank, coords);
    }
    return err;
}
COMM_API_ALIAS(MPI_Cart_coords);

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    struct comm_communicator *c;
    const struct comm_proc_topo *t;
    int err = comm_api_topo_enter("MPI_Cart_rank", comm, COMM_PROC_TOPO_CART, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    t = c->proc_topo;
    if (rank == NULL || (t->ndims > 0 && coords == NULL)) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Cart_rank: %s is NULL",
                              rank == NULL ? "rank" : "coords");
    }
    for (int d = 0; d < t->ndims; d++) {
        if (!t->periods[d] && (coords[d] < 0 || coords[d] >= t->dims[d])) {
            return comm_api_error(c, MPI_ERR_ARG,
                                  "MPI_Cart_rank: coords[%d] %d is off the grid (0 to %d, "
                                  "not periodic)",
                                  d, coords[d], t->dims[d] - 1);
        }
    }
    *rank = comm_proc_topo_cart_rank(t, coords);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Cart_rank);

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    struct comm_communicator *c;
    int err = comm_api_topo_enter("MPI_Cart_shift", comm, COMM_PROC_TOPO_CART, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (rank_source == NULL || rank_dest == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Cart_shift: %s is NULL",
                              rank_source == NULL ? "rank_source" : "rank_dest");
    }
    if (direction < 0 || direction >= c->proc_topo->ndims) {
        return comm_api_error(c, MPI_ERR_ARG,
                              "MPI_Cart_shift: invalid direction %d (the grid has %d dimensions)",
                              direction, c->proc_topo->ndims);
    }
    comm_proc_topo_cart_shift(c->proc_topo, c->rank, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Cart_shift);

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    struct comm_communicator *c, *n;
    const struct comm_proc_topo *t;
    struct comm_proc_topo *sub = NULL;
    int *coords, *dims, *periods, color = 0, key = 0, kept = 0, rc = COMM_ERR_NOMEM;
    MPI_Comm made;
    int err = comm_api_topo_enter("MPI_Cart_sub", comm, COMM_PROC_TOPO_CART, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    t = c->proc_topo;
    if (newcomm == NULL || (t->ndims > 0 && remain_dims == NULL)) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Cart_sub: %s is NULL",
                              newcomm == NULL ? "newcomm" : "remain_dims");
    }
    coords = malloc((size_t)(t->ndims + 1) * sizeof(*coords));
    dims = malloc((size_t)(t->ndims + 1) * sizeof(*dims));
    periods = malloc((size_t)(t->ndims + 1) * sizeof(*periods));
    if (coords == NULL || dims == NULL || periods == NULL) {
        err = comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Cart_sub: out of memory");
        goto out_free;
    }
    /* The kept coordinates order the ranks of a sub-grid; the dropped ones name it. */
    comm_proc_topo_cart_coords(t, c->rank, coords);
    for (int d = 0; d < t->ndims; d++) {
        if (remain_dims[d]) {
            key = key * t->dims[d] + coords[d];
            dims[kept] = t->dims[d];
            periods[kept++] = t->periods[d];
        } else {
            color = color * t->dims[d] + coords[d];
        }
    }
    err = PMPI_Comm_split(comm, color, key, &made);
    if (err != MPI_SUCCESS) {
        goto out_free;
    }
    n = comm_communicator_lookup(made);
    rc = comm_proc_topo_new_cart(kept, dims, periods, n->rank, &sub);
    err = comm_api_topo_finish("MPI_Cart_sub", c, n, rc, sub, newcomm);
out_free:
    free(coords);
    free(dims);
    free(periods);
    return err;
}
COMM_API_ALIAS(MPI_Cart_sub);

/* Spreads the prime factors of N over the NFREE free dimensions, largest factor first onto the
 * smallest dimension so far; DIMS[] then sorted non-increasing. */
static void dims_spread(int n, int *free_dims, int nfree)
{
    int factors[32], nf = 0;

    for (int p = 2; (long)p * p <= n; p++) {
        while (n % p == 0) {
            factors[nf++] = p;
            n /= p;
        }
    }
    if (n > 1) {
        factors[nf++] = n;
    }
    for (int i = 0; i < nfree; i++) {
        free_dims[i] = 1;
    }
    for (int f = nf - 1; f >= 0; f--) {
        int smallest = 0;

        for (int i = 1; i < nfree; i++) {
            smallest = free_dims[i] < free_dims[smallest] ? i : smallest;
        }
        free_dims[smallest] *= factors[f];
    }
    for (int i = 1; i < nfree; i++) { /* insertion sort, largest first */
        int v = free_dims[i], j = i;

        for (; j > 0 && free_dims[j - 1] < v; j--) {
            free_dims[j] = free_dims[j - 1];
        }
        free_dims[j] = v;
    }
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    int fixed = 1, nfree = 0, *free_dims;
    int err = comm_api_check_running("MPI_Dims_create");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (nnodes <= 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Dims_create: invalid nnodes %d (positive)",
                              nnodes);
    }
    if (ndims < 0) {
        return comm_api_error(NULL, MPI_ERR_DIMS, "MPI_Dims_create: invalid ndims %d (at least 0)",
                              ndims);
    }
    if (ndims > 0 && dims == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Dims_create: dims is NULL");
    }
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 0) {
            return comm_api_error(NULL, MPI_ERR_DIMS,
                                  "MPI_Dims_create: invalid dims[%d] %d (0 or positive)", d,
                                  dims[d]);
        }
        if (dims[d] > 0) {
            fixed =
                nnodes % dims[d] == 0 && fixed <= nnodes / dims[d] ? fixed * dims[d] : nnodes + 1;
        }
        nfree += dims[d] == 0;
    }
    if (fixed > nnodes || nnodes % fixed != 0 || (nfree == 0 && fixed != nnodes)) {
        return comm_api_error(NULL, MPI_ERR_DIMS,
                              "MPI_Dims_create: the given dims do not divide nnodes %d", nnodes);
    }
    free_dims = malloc((size_t)(nfree > 0 ? nfree : 1) * sizeof(*free_dims));
    if (free_dims == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Dims_create: out of memory");
    }
    dims_spread(nnodes / fixed, free_dims, nfree);
    for (int d = 0, i = 0; d < ndims; d++) {
        dims[d] = dims[d] == 0 ? free_dims[i++] : dims[d];
    }
    free(free_dims);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Dims_create);
