/*
 * coll_topo.c - integration test of process topologies and the neighbourhood collectives:
 * every MPI_Cart_*, MPI_Graph_*, MPI_Dist_graph_* call, MPI_Dims_create and MPI_Topo_test,
 * their results and the error classes of bad arguments, and MPI_Neighbor_* / MPI_Ineighbor_*
 * on grids (with MPI_PROC_NULL neighbours, and periodic dimensions of 1 and 2 where one rank
 * is a neighbour twice), graphs and distributed graphs.
 *
 *   coll_topo            (any number of ranks >= 1)
 *   coll_topo reorder    (an even number of ranks, 6 or more, on 2 hosts, e.g. one host
 *                         seen as two with COMM_TOPO_SPLIT_HOSTS=2): on a communicator whose
 *                         ranks are dealt round-robin over the hosts, reorder must put more
 *                         grid neighbours on one host than the identity does (a 2x2 grid
 *                         could not), and the neighbour exchanges must still be right
 *
 * Prints "coll_topo R: ok" per rank, or "FAIL: coll_topo rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_topo";
static int rank, size;

#include "p2p_check.h"

enum { NONE = -7 }; /* what a block untouched by an exchange holds */

static void test_dims_create(void)
{
    int d2[2] = {0, 0}, d3[3] = {0, 3, 0}, bad[2] = {4, 0}, neg[2] = {-1, 0}, fixed[2] = {2, 3};

    CHECK_MPI(MPI_Dims_create(6, 2, d2));
    CHECK(d2[0] == 3 && d2[1] == 2);
    CHECK_MPI(MPI_Dims_create(12, 3, d3));
    CHECK(d3[0] == 2 && d3[1] == 3 && d3[2] == 2);
    d2[0] = d2[1] = 0;
    CHECK_MPI(MPI_Dims_create(7, 2, d2));
    CHECK(d2[0] == 7 && d2[1] == 1);
    d3[0] = d3[1] = d3[2] = 0;
    CHECK_MPI(MPI_Dims_create(16, 3, d3));
    CHECK(d3[0] == 4 && d3[1] == 2 && d3[2] == 2);
    CHECK_MPI(MPI_Dims_create(6, 2, fixed));
    CHECK(fixed[0] == 2 && fixed[1] == 3);
    CHECK_MPI(MPI_Dims_create(1, 0, NULL));
    EXPECT(MPI_Dims_create(6, 2, bad), MPI_ERR_DIMS);
    EXPECT(MPI_Dims_create(6, 2, neg), MPI_ERR_DIMS);
    fixed[1] = 2;
    EXPECT(MPI_Dims_create(6, 2, fixed), MPI_ERR_DIMS);
    EXPECT(MPI_Dims_create(6, -1, d2), MPI_ERR_DIMS);
    EXPECT(MPI_Dims_create(0, 2, d2), MPI_ERR_ARG);
}

/*
 * What block J of an alltoall brings from neighbour SRC, which sends rank * 100 + k in its
 * block k: the k-th message from SRC is the k-th block SRC meant for this process (ME), the
 * OCCURRENCE-th time SRC appears in this process's list; on a grid (CART), the block SRC sent
 * in the opposite direction.  SRC_OUT: SRC's out-neighbours (graphs).
 */
static int expected_from(int src, int occurrence, int me, const int *src_out, int src_outdeg,
                         int cart, int j)
{
    if (cart) {
        return src * 100 + (j ^ 1);
    }
    for (int k = 0, seen = 0; k < src_outdeg; k++) {
        if (src_out[k] == me && seen++ == occurrence) {
            return src * 100 + k;
        }
    }
    fail(__LINE__, "neighbour %d never sends to %d", src, me);
    return -1;
}

/* The neighbours of node SRC of graph COMM, into OUT (MAX entries); their count. */
static int out_neighbors(MPI_Comm comm, int src, int *out, int max)
{
    int n;

    CHECK_MPI(MPI_Graph_neighbors_count(comm, src, &n));
    CHECK(n <= max);
    CHECK_MPI(MPI_Graph_neighbors(comm, src, max, out));
    return n;
}

/*
 * Runs the five neighbourhood collectives, blocking and not, on COMM with INDEG in-neighbours
 * IN and OUTDEG out-neighbours; EXPECT[j] is the value block j of an alltoall must bring (NONE
 * for MPI_PROC_NULL).
 */
/* MPI 4.0's persistent forms on COMM: alltoall, alltoallw (blocks reversed) and allgatherv
 * (reversed) made once, their argument arrays overwritten after the _init calls (the requests
 * keep copies), started twice with new data each time, all three at once by MPI_Startall. */
static void check_persistent(MPI_Comm comm, int me, int indeg, const int *in, int outdeg,
                             const int *expect)
{
    int n = indeg > 0 ? indeg : 1, m = outdeg > 0 ? outdeg : 1, gval = 0;
    int *sbuf = malloc(sizeof(int) * (size_t)m), *a2a = malloc(sizeof(int) * (size_t)n);
    int *w = malloc(sizeof(int) * (size_t)n), *gv = malloc(sizeof(int) * (size_t)n);
    int *scounts = malloc(sizeof(int) * (size_t)m), *rcounts = malloc(sizeof(int) * (size_t)n);
    int *rdispls = malloc(sizeof(int) * (size_t)n);
    MPI_Aint *sb = malloc(sizeof(MPI_Aint) * (size_t)m), *rb = malloc(sizeof(MPI_Aint) * (size_t)n);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)m);
    MPI_Datatype *rt = malloc(sizeof(MPI_Datatype) * (size_t)n);
    MPI_Request reqs[3];

    CHECK(sbuf && a2a && w && gv && scounts && rcounts && rdispls && sb && rb && st && rt);
    for (int k = 0; k < outdeg; k++) {
        scounts[k] = 1;
        sb[k] = (MPI_Aint)sizeof(int) * k;
        st[k] = MPI_INT;
    }
    for (int j = 0; j < indeg; j++) {
        rcounts[j] = 1;
        rdispls[j] = indeg - 1 - j;
        rb[j] = (MPI_Aint)sizeof(int) * (indeg - 1 - j);
        rt[j] = MPI_INT;
    }
    CHECK_MPI(MPI_Neighbor_alltoall_init(sbuf, 1, MPI_INT, a2a, 1, MPI_INT, comm, MPI_INFO_NULL,
                                         &reqs[0]));
    CHECK_MPI(MPI_Neighbor_alltoallw_init(sbuf, scounts, sb, st, w, rcounts, rb, rt, comm,
                                          MPI_INFO_NULL, &reqs[1]));
    CHECK_MPI(MPI_Neighbor_allgatherv_init(&gval, 1, MPI_INT, gv, rcounts, rdispls, MPI_INT, comm,
                                           MPI_INFO_NULL, &reqs[2]));
    for (int j = 0; j < indeg; j++) {
        rcounts[j] = -1;
        rdispls[j] = rb[j] = -1000;
    }
    for (int round = 1; round <= 2; round++) {
        gval = me * 7 + 3 + round * 1000;
        for (int k = 0; k < outdeg; k++) {
            sbuf[k] = me * 100 + k + round * 50000;
        }
        for (int j = 0; j < n; j++) {
            a2a[j] = w[j] = gv[j] = NONE;
        }
        CHECK_MPI(MPI_Startall(3, reqs));
        CHECK_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
        for (int j = 0; j < indeg; j++) {
            int want = expect[j] == NONE ? NONE : expect[j] + round * 50000;
            int wantg = in[j] == MPI_PROC_NULL ? NONE : in[j] * 7 + 3 + round * 1000;

            if (a2a[j] != want || w[indeg - 1 - j] != want || gv[indeg - 1 - j] != wantg) {
                fail(__LINE__, "persistent round %d, block %d from %d: %d/%d/%d, expected %d/%d",
                     round, j, in[j], a2a[j], w[indeg - 1 - j], gv[indeg - 1 - j], want, wantg);
            }
        }
    }
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Request_free(&reqs[i]));
    }
    free(sbuf);
    free(a2a);
    free(w);
    free(gv);
    free(scounts);
    free(rcounts);
    free(rdispls);
    free(sb);
    free(rb);
    free(st);
    free(rt);
}

static void check_exchanges(MPI_Comm comm, int me, int indeg, const int *in, int outdeg,
                            const int *expect)
{
    int n = indeg > 0 ? indeg : 1, m = outdeg > 0 ? outdeg : 1;
    int *sbuf = malloc(sizeof(int) * 2 * (size_t)m), *rbuf = malloc(sizeof(int) * 2 * (size_t)n);
    int *rbuf2 = malloc(sizeof(int) * 2 * (size_t)n), *scounts = malloc(sizeof(int) * (size_t)m);
    int *sdispls = malloc(sizeof(int) * (size_t)m), *rcounts = malloc(sizeof(int) * (size_t)n);
    int *rdispls = malloc(sizeof(int) * (size_t)n);
    MPI_Aint *sb = malloc(sizeof(MPI_Aint) * (size_t)m), *rb = malloc(sizeof(MPI_Aint) * (size_t)n);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)m);
    MPI_Datatype *rt = malloc(sizeof(MPI_Datatype) * (size_t)n);
    int gval = me * 7 + 3;
    MPI_Request reqs[2];

    CHECK(sbuf && rbuf && rbuf2 && scounts && sdispls && rcounts && rdispls && sb && rb && st &&
          rt);
    /* allgather: every in-neighbour's one value (and NONE where there is none). */
    for (int j = 0; j < n * 2; j++) {
        rbuf[j] = rbuf2[j] = NONE;
    }
    CHECK_MPI(MPI_Neighbor_allgather(&gval, 1, MPI_INT, rbuf, 1, MPI_INT, comm));
    CHECK_MPI(MPI_Ineighbor_allgather(&gval, 1, MPI_INT, rbuf2, 1, MPI_INT, comm, &reqs[0]));
    CHECK_MPI(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
    for (int j = 0; j < indeg; j++) {
        int want = in[j] == MPI_PROC_NULL ? NONE : in[j] * 7 + 3;

        if (rbuf[j] != want || rbuf2[j] != want) {
            fail(__LINE__, "allgather block %d from %d: %d/%d, expected %d", j, in[j], rbuf[j],
                 rbuf2[j], want);
        }
    }
    /* allgatherv: the blocks reversed, at stride 2. */
    for (int j = 0; j < n * 2; j++) {
        rbuf[j] = rbuf2[j] = NONE;
    }
    for (int j = 0; j < indeg; j++) {
        rcounts[j] = 1;
        rdispls[j] = 2 * (indeg - 1 - j) + 1;
    }
    CHECK_MPI(MPI_Neighbor_allgatherv(&gval, 1, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, comm));
    CHECK_MPI(MPI_Ineighbor_allgatherv(&gval, 1, MPI_INT, rbuf2, rcounts, rdispls, MPI_INT, comm,
                                       &reqs[0]));
    CHECK_MPI(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
    for (int j = 0; j < indeg; j++) {
        int want = in[j] == MPI_PROC_NULL ? NONE : in[j] * 7 + 3;

        CHECK(rbuf[rdispls[j]] == want && rbuf2[rdispls[j]] == want);
        CHECK(rbuf[rdispls[j] - 1] == NONE);
    }
    /* alltoall, then alltoallv and alltoallw with the blocks reversed on both sides; the
     * nonblocking ones started together. */
    for (int k = 0; k < outdeg; k++) {
        sbuf[k] = me * 100 + k;
    }
    for (int j = 0; j < n; j++) {
        rbuf[j] = rbuf2[j] = NONE;
    }
    CHECK_MPI(MPI_Neighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm));
    CHECK_MPI(MPI_Ineighbor_alltoall(sbuf, 1, MPI_INT, rbuf2, 1, MPI_INT, comm, &reqs[0]));
    CHECK_MPI(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
    for (int j = 0; j < indeg; j++) {
        if (rbuf[j] != expect[j] || rbuf2[j] != expect[j]) {
            fail(__LINE__, "alltoall block %d from %d: %d/%d, expected %d", j, in[j], rbuf[j],
                 rbuf2[j], expect[j]);
        }
    }
    for (int k = 0; k < outdeg; k++) {
        sbuf[outdeg - 1 - k] = me * 100 + k;
        scounts[k] = 1;
        sdispls[k] = outdeg - 1 - k;
        sb[k] = (MPI_Aint)sizeof(int) * (outdeg - 1 - k);
        st[k] = MPI_INT;
    }
    for (int j = 0; j < indeg; j++) {
        rcounts[j] = 1;
        rdispls[j] = indeg - 1 - j;
        rb[j] = (MPI_Aint)sizeof(int) * (indeg - 1 - j);
        rt[j] = MPI_INT;
    }
    for (int j = 0; j < n; j++) {
        rbuf[j] = rbuf2[j] = NONE;
    }
    CHECK_MPI(MPI_Neighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls,
                                     MPI_INT, comm));
    CHECK_MPI(
        MPI_Ineighbor_alltoallw(sbuf, scounts, sb, st, rbuf2, rcounts, rb, rt, comm, &reqs[0]));
    CHECK_MPI(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
    for (int j = 0; j < indeg; j++) {
        CHECK(rbuf[indeg - 1 - j] == expect[j] && rbuf2[indeg - 1 - j] == expect[j]);
    }
    for (int j = 0; j < n; j++) {
        rbuf[j] = rbuf2[j] = NONE;
    }
    CHECK_MPI(MPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls,
                                      MPI_INT, comm, &reqs[0]));
    CHECK_MPI(MPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf2, rcounts, rdispls,
                                      MPI_INT, comm, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Neighbor_alltoallw(sbuf, scounts, sb, st, rbuf2, rcounts, rb, rt, comm));
    for (int j = 0; j < indeg; j++) {
        CHECK(rbuf[indeg - 1 - j] == expect[j] && rbuf2[indeg - 1 - j] == expect[j]);
    }
    check_persistent(comm, me, indeg, in, outdeg, expect);
    free(sbuf);
    free(rbuf);
    free(rbuf2);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
    free(sb);
    free(rb);
    free(st);
    free(rt);
}

/* The exchanges on grid CART: its neighbours from MPI_Cart_shift, blocks as MPI orders them. */
static void check_cart_exchanges(MPI_Comm cart)
{
    int ndims, me, in[8], expect[8];

    CHECK_MPI(MPI_Cartdim_get(cart, &ndims));
    CHECK_MPI(MPI_Comm_rank(cart, &me));
    CHECK(ndims <= 4);
    for (int d = 0; d < ndims; d++) {
        CHECK_MPI(MPI_Cart_shift(cart, d, 1, &in[2 * d], &in[2 * d + 1]));
    }
    for (int j = 0; j < 2 * ndims; j++) {
        expect[j] = in[j] == MPI_PROC_NULL ? NONE : expected_from(in[j], 0, me, NULL, 0, 1, j);
    }
    check_exchanges(cart, me, 2 * ndims, in, 2 * ndims, expect);
}

/*
 * MPI_Cart_map (NDIMS >= 0: the grid DIMS, PERIODS) or MPI_Graph_map (NDIMS < 0: NNODES nodes,
 * INDEX, EDGES) gives each rank the rank reorder gives it in MPI_Cart_create or
 * MPI_Graph_create, and each rank of the grid or graph to one process.
 */
static void check_map_agrees(int ndims, const int *dims, const int *periods, int nnodes,
                             const int *index, const int *edges)
{
    int mapped, made = MPI_UNDEFINED, n = nnodes, mine[2], all[2];
    MPI_Comm comm;

    if (ndims >= 0) {
        n = 1;
        for (int d = 0; d < ndims; d++) {
            n *= dims[d];
        }
        CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, ndims, dims, periods, &mapped));
        CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 1, &comm));
    } else {
        CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, nnodes, index, edges, &mapped));
        CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 1, &comm));
    }
    if (comm != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Comm_rank(comm, &made));
        CHECK_MPI(MPI_Comm_free(&comm));
    }
    CHECK(mapped == made);
    mine[0] = mapped == MPI_UNDEFINED ? 0 : mapped;
    mine[1] = mapped != MPI_UNDEFINED;
    CHECK_MPI(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(all[1] == n && all[0] == n * (n - 1) / 2);
}

static void test_cart(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 0}, got_dims[2], got_periods[2], coords[2], c2[2];
    int status, nd, r, src, dst, n, remain[2];
    MPI_Comm cart, dup, sub, small, self1, self2;
    MPI_Request req;

    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    CHECK(cart != MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_rank(cart, &r));
    CHECK(r == rank); /* no reorder: ranks kept */
    CHECK_MPI(MPI_Topo_test(cart, &status));
    CHECK(status == MPI_CART);
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
    CHECK(status == MPI_UNDEFINED);
    CHECK_MPI(MPI_Cartdim_get(cart, &nd));
    CHECK(nd == 2);
    CHECK_MPI(MPI_Cart_get(cart, 2, got_dims, got_periods, coords));
    CHECK(got_dims[0] == dims[0] && got_dims[1] == dims[1]);
    CHECK(got_periods[0] == 1 && got_periods[1] == 0);
    CHECK(coords[0] == rank / dims[1] && coords[1] == rank % dims[1]);
    for (int p = 0; p < size; p++) {
        CHECK_MPI(MPI_Cart_coords(cart, p, 2, c2));
        CHECK(c2[0] == p / dims[1] && c2[1] == p % dims[1]);
        CHECK_MPI(MPI_Cart_rank(cart, c2, &r));
        CHECK(r == p);
    }
    c2[0] = -1; /* periodic: wraps */
    c2[1] = 0;
    CHECK_MPI(MPI_Cart_rank(cart, c2, &r));
    CHECK(r == (dims[0] - 1) * dims[1]);
    c2[0] = 2 * dims[0];
    CHECK_MPI(MPI_Cart_rank(cart, c2, &r));
    CHECK(r == 0);
    /* Shifts: periodic along 0, MPI_PROC_NULL off the edges of 1. */
    CHECK_MPI(MPI_Cart_shift(cart, 0, 1, &src, &dst));
    CHECK(src == ((coords[0] - 1 + dims[0]) % dims[0]) * dims[1] + coords[1]);
    CHECK(dst == ((coords[0] + 1) % dims[0]) * dims[1] + coords[1]);
    CHECK_MPI(MPI_Cart_shift(cart, 0, dims[0] + 1, &src, &dst));
    CHECK(dst == ((coords[0] + 1) % dims[0]) * dims[1] + coords[1]);
    CHECK_MPI(MPI_Cart_shift(cart, 1, 1, &src, &dst));
    CHECK(src == (coords[1] == 0 ? MPI_PROC_NULL : rank - 1));
    CHECK(dst == (coords[1] == dims[1] - 1 ? MPI_PROC_NULL : rank + 1));
    CHECK_MPI(MPI_Cart_shift(cart, 1, -1, &src, &dst));
    CHECK(dst == (coords[1] == 0 ? MPI_PROC_NULL : rank - 1));
    CHECK_MPI(MPI_Cart_shift(cart, 1, 0, &src, &dst));
    CHECK(src == rank && dst == rank);
    check_map_agrees(2, dims, periods, 0, NULL, NULL);

    /* Bad arguments. */
    c2[0] = 0;
    c2[1] = dims[1];
    EXPECT(MPI_Cart_rank(cart, c2, &r), MPI_ERR_ARG);
    c2[1] = -1;
    EXPECT(MPI_Cart_rank(cart, c2, &r), MPI_ERR_ARG);
    EXPECT(MPI_Cart_coords(cart, size, 2, c2), MPI_ERR_RANK);
    EXPECT(MPI_Cart_coords(cart, -1, 2, c2), MPI_ERR_RANK);
    EXPECT(MPI_Cart_coords(cart, 0, 1, c2), MPI_ERR_ARG);
    EXPECT(MPI_Cart_get(cart, 1, got_dims, got_periods, coords), MPI_ERR_ARG);
    EXPECT(MPI_Cart_shift(cart, 2, 1, &src, &dst), MPI_ERR_ARG);
    EXPECT(MPI_Cart_shift(cart, -1, 1, &src, &dst), MPI_ERR_ARG);
    EXPECT(MPI_Cartdim_get(MPI_COMM_WORLD, &nd), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Cart_get(MPI_COMM_WORLD, 2, got_dims, got_periods, coords), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Graphdims_get(cart, &n, &nd), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Graph_neighbors_count(cart, 0, &n), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Dist_graph_neighbors_count(cart, &n, &nd, &r), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Topo_test(MPI_COMM_NULL, &status), MPI_ERR_COMM);
    got_dims[0] = size + 1;
    got_dims[1] = 1;
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, got_dims, periods, 0, &small), MPI_ERR_ARG);
    got_dims[0] = -2;
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, got_dims, periods, 0, &small), MPI_ERR_DIMS);
    got_dims[0] = 0;
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, got_dims, periods, 0, &small), MPI_ERR_DIMS);
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, -1, got_dims, periods, 0, &small), MPI_ERR_DIMS);
    EXPECT(MPI_Cart_map(MPI_COMM_WORLD, 1, got_dims, periods, &r), MPI_ERR_DIMS);
    EXPECT(MPI_Neighbor_allgather(&r, 1, MPI_INT, &n, 1, MPI_INT, MPI_COMM_WORLD),
           MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Ineighbor_alltoall(&r, 1, MPI_INT, &n, 1, MPI_INT, MPI_COMM_WORLD, &req),
           MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Neighbor_alltoall(&r, -1, MPI_INT, c2, 1, MPI_INT, cart), MPI_ERR_COUNT);
    EXPECT(MPI_Neighbor_alltoall(&r, 1, MPI_DATATYPE_NULL, c2, 1, MPI_INT, cart), MPI_ERR_TYPE);
    EXPECT(MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, c2, 1, MPI_INT, cart), MPI_ERR_BUFFER);
    EXPECT(MPI_Ineighbor_allgather(&r, 1, MPI_INT, c2, 1, MPI_INT, cart, NULL), MPI_ERR_ARG);

    /* The exchanges, on the grid and on duplicates, which keep the topology. */
    check_cart_exchanges(cart);
    CHECK_MPI(MPI_Comm_dup(cart, &dup));
    CHECK_MPI(MPI_Topo_test(dup, &status));
    CHECK(status == MPI_CART);
    CHECK_MPI(MPI_Cart_get(dup, 2, got_dims, got_periods, c2));
    CHECK(got_dims[0] == dims[0] && c2[0] == coords[0] && c2[1] == coords[1]);
    check_cart_exchanges(dup);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_idup(cart, &dup, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Topo_test(dup, &status));
    CHECK(status == MPI_CART);
    check_cart_exchanges(dup);
    CHECK_MPI(MPI_Comm_free(&dup));

    /* Sub-grids: a row, a column, and nothing (each process alone, 0 dimensions). */
    for (int k = 0; k < 3; k++) {
        remain[0] = k == 0;
        remain[1] = k == 1;
        CHECK_MPI(MPI_Cart_sub(cart, remain, &sub));
        CHECK_MPI(MPI_Cartdim_get(sub, &nd));
        CHECK(nd == (k < 2 ? 1 : 0));
        CHECK_MPI(MPI_Comm_size(sub, &n));
        CHECK_MPI(MPI_Comm_rank(sub, &r));
        if (k < 2) {
            CHECK_MPI(MPI_Cart_get(sub, 1, got_dims, got_periods, c2));
            CHECK(n == dims[k] && got_dims[0] == dims[k] && got_periods[0] == periods[k]);
            CHECK(r == coords[k] && c2[0] == coords[k]);
            check_cart_exchanges(sub);
        } else {
            CHECK(n == 1 && r == 0);
        }
        CHECK_MPI(MPI_Comm_free(&sub));
    }
    CHECK_MPI(MPI_Comm_free(&cart));

    /* A grid smaller than the communicator: the ranks beyond it get MPI_COMM_NULL (reordered,
     * as many ranks, checked by check_map_agrees). */
    got_dims[0] = size > 1 ? size - 1 : 1;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, got_dims, periods, 0, &small));
    CHECK((small == MPI_COMM_NULL) == (rank >= got_dims[0]));
    check_map_agrees(1, got_dims, periods, 0, NULL, NULL);
    if (small != MPI_COMM_NULL) {
        check_cart_exchanges(small);
        CHECK_MPI(MPI_Comm_free(&small));
    }

    /* One rank its own neighbour twice: periodic dimensions of 1 (alone) and 2. */
    got_dims[0] = got_dims[1] = 1;
    got_periods[0] = got_periods[1] = 1;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_SELF, 2, got_dims, got_periods, 0, &self1));
    CHECK_MPI(MPI_Cart_shift(self1, 1, 1, &src, &dst));
    CHECK(src == 0 && dst == 0);
    check_cart_exchanges(self1);
    CHECK_MPI(MPI_Comm_free(&self1));
    got_periods[1] = 0;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_SELF, 2, got_dims, got_periods, 0, &self1));
    check_cart_exchanges(self1);
    CHECK_MPI(MPI_Comm_free(&self1));
    if (size >= 2) {
        got_dims[0] = 2;
        got_dims[1] = 1;
        got_periods[0] = got_periods[1] = 1;
        CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, got_dims, got_periods, 0, &self2));
        if (self2 != MPI_COMM_NULL) {
            CHECK_MPI(MPI_Cart_shift(self2, 0, 1, &src, &dst));
            CHECK(src == 1 - rank && dst == 1 - rank);
            check_cart_exchanges(self2);
            CHECK_MPI(MPI_Comm_free(&self2));
        }
    }
    /* Zero dimensions: one process, no neighbours. */
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &small));
    CHECK((small == MPI_COMM_NULL) == (rank != 0));
    if (small != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Cartdim_get(small, &nd));
        CHECK(nd == 0);
        check_cart_exchanges(small);
        CHECK_MPI(MPI_Comm_free(&small));
    }
}

/* The exchanges on graph GRAPH (its lists from MPI_Graph_neighbors). */
static void check_graph_exchanges(MPI_Comm graph)
{
    int me, n, nn, in[16], src_out[16], expect[16];

    CHECK_MPI(MPI_Comm_rank(graph, &me));
    CHECK_MPI(MPI_Graph_neighbors_count(graph, me, &n));
    CHECK(n <= 16);
    CHECK_MPI(MPI_Graph_neighbors(graph, me, 16, in));
    for (int j = 0; j < n; j++) {
        int occurrence = 0;

        for (int k = 0; k < j; k++) {
            occurrence += in[k] == in[j];
        }
        nn = out_neighbors(graph, in[j], src_out, 16);
        expect[j] = expected_from(in[j], occurrence, me, src_out, nn, 0, j);
    }
    check_exchanges(graph, me, n, in, n, expect);
}

static void test_graph(void)
{
    int *index = malloc(sizeof(int) * (size_t)size),
        *edges = malloc(sizeof(int) * 2 * (size_t)size);
    int nnodes, nedges, n, got[16], gi[16], r, status;
    MPI_Comm graph, dup, small;

    CHECK(index != NULL && edges != NULL);
    /* A ring, each node's next then previous: with 1 or 2 nodes one neighbour twice. */
    for (int i = 0; i < size; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + 1) % size;
        edges[2 * i + 1] = (i - 1 + size) % size;
    }
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph));
    CHECK_MPI(MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Topo_test(graph, &status));
    CHECK(status == MPI_GRAPH);
    CHECK_MPI(MPI_Graphdims_get(graph, &nnodes, &nedges));
    CHECK(nnodes == size && nedges == 2 * size);
    if (size <= 8) {
        CHECK_MPI(MPI_Graph_get(graph, 8, 16, gi, got));
        for (int i = 0; i < size; i++) {
            CHECK(gi[i] == index[i] && got[2 * i] == edges[2 * i] &&
                  got[2 * i + 1] == edges[2 * i + 1]);
        }
    }
    for (int i = 0; i < size; i++) {
        CHECK_MPI(MPI_Graph_neighbors_count(graph, i, &n));
        CHECK(n == 2);
        CHECK_MPI(MPI_Graph_neighbors(graph, i, 2, got));
        CHECK(got[0] == (i + 1) % size && got[1] == (i - 1 + size) % size);
    }
    check_map_agrees(-1, NULL, NULL, size, index, edges);
    EXPECT(MPI_Graph_neighbors(graph, size, 2, got), MPI_ERR_RANK);
    EXPECT(MPI_Graph_neighbors_count(graph, -1, &n), MPI_ERR_RANK);
    EXPECT(MPI_Cart_shift(graph, 0, 1, &n, &r), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Dist_graph_neighbors(graph, 0, got, MPI_UNWEIGHTED, 0, got, MPI_UNWEIGHTED),
           MPI_ERR_TOPOLOGY);
    check_graph_exchanges(graph);
    CHECK_MPI(MPI_Comm_dup(graph, &dup));
    CHECK_MPI(MPI_Graphdims_get(dup, &nnodes, &nedges));
    CHECK(nnodes == size && nedges == 2 * size);
    check_graph_exchanges(dup);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free(&graph));

    /* Bad graphs. */
    edges[0] = size;
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &small), MPI_ERR_ARG);
    edges[0] = -1;
    EXPECT(MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &r), MPI_ERR_ARG);
    edges[0] = 1 % size;
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &small), MPI_ERR_ARG);
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &small), MPI_ERR_ARG);

    /* Fewer nodes than ranks: node 0 alone with a self loop; the others get MPI_COMM_NULL. */
    index[0] = 1;
    edges[0] = 0;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &small));
    CHECK((small == MPI_COMM_NULL) == (rank != 0));
    if (small != MPI_COMM_NULL) {
        check_graph_exchanges(small);
        CHECK_MPI(MPI_Comm_free(&small));
    }
    free(index);
    free(edges);
}

/* Checks that DIST's lists are IN and OUT (as multisets when UNORDERED), with weights. */
static void check_dist_lists(MPI_Comm dist, int nin, const int *in, const int *inw, int nout,
                             const int *out, const int *outw, int weighted, int unordered)
{
    int gin, gout, gw, src[16], srcw[16], dst[16], dstw[16];

    CHECK_MPI(MPI_Dist_graph_neighbors_count(dist, &gin, &gout, &gw));
    CHECK(gin == nin && gout == nout && gw == weighted);
    CHECK(nin <= 16 && nout <= 16);
    CHECK_MPI(MPI_Dist_graph_neighbors(dist, 16, src, weighted ? srcw : MPI_UNWEIGHTED, 16, dst,
                                       weighted ? dstw : MPI_UNWEIGHTED));
    for (int side = 0; side < 2; side++) {
        const int *want = side ? out : in, *wantw = side ? outw : inw;
        int *list = side ? dst : src, *lw = side ? dstw : srcw, n = side ? nout : nin;
        int used[16] = {0};

        for (int i = 0; i < n; i++) {
            int found = -1;

            for (int k = unordered ? 0 : i; k < (unordered ? n : i + 1) && found < 0; k++) {
                if (!used[k] && list[k] == want[i] && (!weighted || lw[k] == wantw[i])) {
                    found = k;
                }
            }
            if (found < 0) {
                fail(__LINE__, "%s list: %d (weight %d) missing", side ? "out" : "in", want[i],
                     weighted ? wantw[i] : 0);
            }
            used[found] = 1;
        }
    }
}

/* Allgather on distributed graph DIST: each in-neighbour's rank * 7 + 3. */
static void check_dist_allgather(MPI_Comm dist)
{
    int nin, nout, w, me, src[16], got[16], val;

    CHECK_MPI(MPI_Comm_rank(dist, &me));
    CHECK_MPI(MPI_Dist_graph_neighbors_count(dist, &nin, &nout, &w));
    CHECK(nin <= 16);
    CHECK_MPI(MPI_Dist_graph_neighbors(dist, 16, src, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED));
    val = me * 7 + 3;
    CHECK_MPI(MPI_Neighbor_allgather(&val, 1, MPI_INT, got, 1, MPI_INT, dist));
    for (int j = 0; j < nin; j++) {
        CHECK(got[j] == src[j] * 7 + 3);
    }
}

/* The lists of node ME of the ring where each node sends to the next two, the edge from i to
 * i + 1 weighing 10 + i and to i + 2 20 + i. */
static void ring2_lists(int me, int *in, int *inw, int *out, int *outw)
{
    in[0] = (me - 1 + size) % size;
    in[1] = (me - 2 + 2 * size) % size;
    inw[0] = in[0] + 10;
    inw[1] = in[1] + 20;
    out[0] = (me + 1) % size;
    out[1] = (me + 2) % size;
    outw[0] = me + 10;
    outw[1] = me + 20;
}

/* DIST's lists are those of its rank's node of that ring (with WEIGHTED weights; in any order
 * when UNORDERED). */
static void check_ring2_lists(MPI_Comm dist, int weighted, int unordered)
{
    int me, in[2], inw[2], out[2], outw[2];

    CHECK_MPI(MPI_Comm_rank(dist, &me));
    ring2_lists(me, in, inw, out, outw);
    check_dist_lists(dist, 2, in, inw, 2, out, outw, weighted, unordered);
}

static void test_dist_graph(void)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size, in[2], inw[2], out[2], outw[2];
    int *srcs = NULL, *degs = NULL, *dsts = NULL, *wts = NULL, bad[1] = {size}, r;
    MPI_Comm dist, dup;

    ring2_lists(rank, in, inw, out, outw);

    /* Adjacent, weighted: a ring, each rank hearing from the one before. */
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, inw, 1, &next, outw,
                                             MPI_INFO_NULL, 0, &dist));
    CHECK_MPI(MPI_Comm_set_errhandler(dist, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Topo_test(dist, &r));
    CHECK(r == MPI_DIST_GRAPH);
    check_dist_lists(dist, 1, &prev, inw, 1, &next, outw, 1, 0);
    check_dist_allgather(dist);
    CHECK_MPI(MPI_Comm_dup(dist, &dup));
    check_dist_lists(dup, 1, &prev, inw, 1, &next, outw, 1, 0);
    CHECK_MPI(MPI_Comm_free(&dup));
    EXPECT(MPI_Graph_neighbors_count(dist, 0, &r), MPI_ERR_TOPOLOGY);
    EXPECT(MPI_Cartdim_get(dist, &r), MPI_ERR_TOPOLOGY);
    CHECK_MPI(MPI_Comm_free(&dist));

    /* Unweighted, two each way, reordered: a rank takes the lists of the node it becomes. */
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, in, MPI_UNWEIGHTED, 2, out,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &dist));
    check_ring2_lists(dist, 0, 0);
    check_dist_allgather(dist);
    CHECK_MPI(MPI_Comm_free(&dist));
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                             MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &dist));
    check_dist_lists(dist, 0, NULL, NULL, 0, NULL, NULL, 1, 0);
    check_dist_allgather(dist);
    CHECK_MPI(MPI_Comm_free(&dist));

    /* The general form: rank 0 says every edge (i to i+1 and i+2, weights 10 + i and 20 + i);
     * the others say nothing. */
    if (rank == 0) {
        srcs = malloc(sizeof(int) * (size_t)size);
        degs = malloc(sizeof(int) * (size_t)size);
        dsts = malloc(sizeof(int) * 2 * (size_t)size);
        wts = malloc(sizeof(int) * 2 * (size_t)size);
        CHECK(srcs && degs && dsts && wts);
        for (int i = 0; i < size; i++) {
            srcs[i] = i;
            degs[i] = 2;
            dsts[2 * i] = (i + 1) % size;
            dsts[2 * i + 1] = (i + 2) % size;
            wts[2 * i] = 10 + i;
            wts[2 * i + 1] = 20 + i;
        }
    }
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, srcs, degs, dsts,
                                    rank == 0 ? wts : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &dist));
    check_ring2_lists(dist, 1, 1);
    check_dist_allgather(dist);
    CHECK_MPI(MPI_Comm_free(&dist));
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, srcs, degs, dsts,
                                    MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &dist));
    check_ring2_lists(dist, 0, 1);
    check_dist_allgather(dist);
    CHECK_MPI(MPI_Comm_free(&dist));
    free(srcs);
    free(degs);
    free(dsts);
    free(wts);

    /* Bad graphs. */
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, bad, MPI_UNWEIGHTED, 0, NULL,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist),
           MPI_ERR_RANK);
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, in, MPI_UNWEIGHTED, 0, NULL,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist),
           MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, in, MPI_UNWEIGHTED, 1, out, outw,
                                          MPI_INFO_NULL, 0, &dist),
           MPI_ERR_ARG);
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, in, MPI_WEIGHTS_EMPTY, 0, NULL,
                                          MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &dist),
           MPI_ERR_ARG);
    r = -1;
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &r, out, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                 0, &dist),
           MPI_ERR_ARG);
    r = 1;
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &r, bad, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                 0, &dist),
           MPI_ERR_RANK);
    EXPECT(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &r, &r, &r), MPI_ERR_TOPOLOGY);
}

/* Topology constructors refuse intercommunicators. */
static void test_intercomm(void)
{
    MPI_Comm half, inter, out;
    int dims[1] = {1}, periods[1] = {0}, index[1] = {0}, r;

    if (size < 2) {
        return;
    }
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    EXPECT(MPI_Cart_create(inter, 1, dims, periods, 0, &out), MPI_ERR_COMM);
    EXPECT(MPI_Graph_create(inter, 1, index, index, 0, &out), MPI_ERR_COMM);
    EXPECT(MPI_Dist_graph_create_adjacent(inter, 0, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                          MPI_INFO_NULL, 0, &out),
           MPI_ERR_COMM);
    EXPECT(MPI_Cart_map(inter, 1, dims, periods, &r), MPI_ERR_COMM);
    CHECK_MPI(MPI_Topo_test(inter, &r));
    CHECK(r == MPI_UNDEFINED);
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
}

/* The host of every rank of COMM (the world rank of its host's first rank), into HOST_OF. */
static void hosts_of(MPI_Comm comm, int *host_of)
{
    MPI_Info info;
    MPI_Comm host;
    int first;

    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "host"));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &host));
    CHECK_MPI(MPI_Allreduce(&rank, &first, 1, MPI_INT, MPI_MIN, host));
    CHECK_MPI(MPI_Allgather(&first, 1, MPI_INT, host_of, 1, MPI_INT, comm));
    CHECK_MPI(MPI_Comm_free(&host));
    CHECK_MPI(MPI_Info_free(&info));
}

/* Grid links of CART (each once) whose ends share a host (HOST_OF: by world rank). */
static int same_host_links(MPI_Comm cart, const int *host_of)
{
    MPI_Group gc, go;
    int nd, me, mine = 0, all, peer, old_me, old_peer, src;

    CHECK_MPI(MPI_Comm_group(cart, &gc));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &go));
    CHECK_MPI(MPI_Comm_rank(cart, &me));
    CHECK_MPI(MPI_Cartdim_get(cart, &nd));
    CHECK_MPI(MPI_Group_translate_ranks(gc, 1, &me, go, &old_me));
    for (int d = 0; d < nd; d++) {
        CHECK_MPI(MPI_Cart_shift(cart, d, 1, &src, &peer));
        if (peer != MPI_PROC_NULL) {
            CHECK_MPI(MPI_Group_translate_ranks(gc, 1, &peer, go, &old_peer));
            mine += host_of[old_me] == host_of[old_peer];
        }
    }
    CHECK_MPI(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, cart));
    CHECK_MPI(MPI_Group_free(&gc));
    CHECK_MPI(MPI_Group_free(&go));
    return all;
}

static void test_reorder(void)
{
    int *host_of = malloc(sizeof(int) * (size_t)size), dims[2] = {2, size / 2}, periods[2] = {0, 0};
    int nhosts = 0, key, kept, placed, r, *index, *edges;
    MPI_Comm rr, cart, graph;

    CHECK(host_of != NULL && size % 2 == 0 && size >= 6);
    hosts_of(MPI_COMM_WORLD, host_of);
    for (int i = 0; i < size; i++) {
        nhosts += host_of[i] == i;
    }
    CHECK(nhosts == 2);
    /* Deal the ranks round-robin over the two hosts: even ranks on one, odd on the other. */
    key = host_of[rank] != 0;
    for (int i = 0; i < rank; i++) {
        key += 2 * (host_of[i] == host_of[rank]);
    }
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, key, &rr));
    CHECK_MPI(MPI_Cart_create(rr, 2, dims, periods, 0, &cart));
    kept = same_host_links(cart, host_of);
    CHECK_MPI(MPI_Comm_free(&cart));
    CHECK_MPI(MPI_Cart_create(rr, 2, dims, periods, 1, &cart));
    placed = same_host_links(cart, host_of);
    CHECK_MPI(MPI_Cart_map(rr, 2, dims, periods, &r));
    CHECK_MPI(MPI_Comm_rank(cart, &key));
    CHECK(r == key); /* MPI_Cart_map gives the placement MPI_Cart_create takes */
    if (rank == 0) {
        printf("coll_topo: grid %dx%d on 2 hosts: %d links inside a host in rank order, %d "
               "reordered\n",
               dims[0], dims[1], kept, placed);
    }
    CHECK(placed > kept);
    check_cart_exchanges(cart);
    CHECK_MPI(MPI_Comm_free(&cart));

    /* A graph ring reordered: the exchanges still follow the graph. */
    index = malloc(sizeof(int) * (size_t)size);
    edges = malloc(sizeof(int) * 2 * (size_t)size);
    CHECK(index != NULL && edges != NULL);
    for (int i = 0; i < size; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + 1) % size;
        edges[2 * i + 1] = (i - 1 + size) % size;
    }
    CHECK_MPI(MPI_Graph_create(rr, size, index, edges, 1, &graph));
    check_graph_exchanges(graph);
    CHECK_MPI(MPI_Comm_free(&graph));
    /* A distributed graph (the same ring) reordered: each rank takes its node's lists. */
    {
        int w[1] = {5}, me, nin, nout, wt, got_in, got_out, next, prev;

        CHECK_MPI(MPI_Comm_rank(rr, &me));
        next = (me + 1) % size;
        prev = (me - 1 + size) % size;
        CHECK_MPI(
            MPI_Dist_graph_create_adjacent(rr, 1, &prev, w, 1, &next, w, MPI_INFO_NULL, 1, &graph));
        CHECK_MPI(MPI_Comm_rank(graph, &me));
        CHECK_MPI(MPI_Dist_graph_neighbors_count(graph, &nin, &nout, &wt));
        CHECK(nin == 1 && nout == 1 && wt == 1);
        CHECK_MPI(MPI_Dist_graph_neighbors(graph, 1, &got_in, w, 1, &got_out, w));
        CHECK(got_in == (me - 1 + size) % size && got_out == (me + 1) % size && w[0] == 5);
        check_dist_allgather(graph);
        CHECK_MPI(MPI_Comm_free(&graph));
    }
    free(index);
    free(edges);
    CHECK_MPI(MPI_Comm_free(&rr));
    free(host_of);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (argc > 1 && strcmp(argv[1], "reorder") == 0) {
        test_reorder();
    } else {
        test_dims_create();
        test_cart();
        test_graph();
        test_dist_graph();
        test_intercomm();
    }
    printf("coll_topo %d: ok\n", rank);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
