/*
 * proc_topo_test.c - placing process topologies on hosts (runtime/comm/proc_topo_map.c): every
 * placement is a permutation and never worse than rank order, whatever the hosts (uneven, one,
 * none, a rank alone); grids go in blocks to hosts and racks; graphs are grouped.
 */
#include "config.h"

#include "runtime/comm/communicator.h"
#include "runtime/comm/proc_topo.h"
#include "test/unit/unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A communicator of N ranks whose rank r is on host HOST[r], the host in rack RACK[host]
 * (RACK NULL: no racks; HOST NULL: no levels at all). */
static struct comm_communicator *fake_comm(int n, const long *host, const long *rack)
{
    struct comm_communicator *c = calloc(1, sizeof(*c));
    long keys[64];

    ck_assert(c != NULL && n <= 64);
    c->size = n;
    c->nlevels = host == NULL ? 0 : rack == NULL ? 1 : 2;
    c->levels = calloc(2, sizeof(*c->levels));
    for (int l = 0; l < c->nlevels; l++) {
        for (int r = 0; r < n; r++) {
            keys[r] = l == 0 ? host[r] : rack[host[r]];
        }
        ck_assert_int_eq(comm_topo_group(keys, n, 64, &c->levels[l]), 0);
    }
    return c;
}

static void fake_free(struct comm_communicator *c)
{
    for (int l = 0; l < c->nlevels; l++) {
        comm_topo_groups_free(&c->levels[l]);
    }
    free(c->levels);
    free(c);
}

/* Directed links of the grid DIMS/PERIODS placed by OLD_OF_NEW whose ends first share a level
 * above LEVEL (0: cross hosts; 1: cross racks); self links left out. */
static int crossing(const struct comm_communicator *c, int ndims, const int *dims,
                    const int *periods, const int *old_of_new, int level)
{
    struct comm_proc_topo grid = {
        .ndims = ndims, .dims = (int *)(uintptr_t)dims, .periods = (int *)(uintptr_t)periods};
    int n = 1, count = 0;

    for (int d = 0; d < ndims; d++) {
        n *= dims[d];
    }
    for (int v = 0; v < n; v++) {
        for (int d = 0; d < ndims; d++) {
            int src, dst;

            comm_proc_topo_cart_shift(&grid, v, d, 1, &src, &dst);
            for (int k = 0; k < 2; k++) {
                int u = k ? dst : src;

                if (u != MPI_PROC_NULL && u != v) {
                    count +=
                        comm_communicator_shared_level(c, old_of_new[v], old_of_new[u]) > level;
                }
            }
        }
    }
    return count;
}

/* OLD_OF_NEW holds N distinct ranks of C. */
static void check_permutation(const struct comm_communicator *c, int n, const int *old_of_new)
{
    char seen[64] = {0};

    for (int v = 0; v < n; v++) {
        COMM_CHECK(old_of_new[v] >= 0 && old_of_new[v] < c->size && !seen[old_of_new[v]],
                   "vertex %d placed on rank %d (twice or out of range)", v, old_of_new[v]);
        seen[old_of_new[v]] = 1;
    }
}

START_TEST(grid_placement_is_a_permutation_never_worse_than_rank_order)
{
    static const int shapes[][3] = {{1, 1, 1}, {5, 1, 1}, {2, 3, 1}, {3, 3, 1}, {4, 2, 1},
                                    {2, 2, 2}, {4, 4, 1}, {1, 7, 1}, {3, 2, 2}, {6, 2, 1}};
    int out[64], id[64];

    for (int n = 1; n <= 16; n++) {
        for (int layout = 0; layout < 5; layout++) {
            long host[64];
            struct comm_communicator *c;

            for (int r = 0; r < n; r++) { /* round-robin, blocks, uneven, one host, scattered */
                host[r] = layout == 0   ? r % 2
                          : layout == 1 ? r / 3
                          : layout == 2 ? (r < 1   ? 0
                                           : r < 6 ? 1
                                                   : 2)
                          : layout == 3 ? 0
                                        : (r * 7 + 3) % 5;
            }
            c = fake_comm(n, host, NULL);
            for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
                int ndims = shapes[s][2] > 1 ? 3 : 2,
                    cells = shapes[s][0] * shapes[s][1] * shapes[s][2];

                if (cells > n) {
                    continue;
                }
                for (int p = 0; p < 4; p++) {
                    int periods[3] = {p & 1, p >> 1, 1};

                    ck_assert_int_eq(
                        comm_proc_topo_map_cart(c, ndims, shapes[s], periods, true, false, out), 0);
                    check_permutation(c, cells, out);
                    for (int v = 0; v < cells; v++) {
                        id[v] = v;
                    }
                    COMM_CHECK(crossing(c, ndims, shapes[s], periods, out, 0) <=
                                   crossing(c, ndims, shapes[s], periods, id, 0),
                               "n %d layout %d shape %zu: placement worse than rank order", n,
                               layout, s);
                    if (layout == 3) {
                        for (int v = 0; v < cells; v++) {
                            COMM_CHECK(out[v] == v, "one host: vertex %d moved", v);
                        }
                    }
                }
            }
            fake_free(c);
        }
    }
}
END_TEST

START_TEST(grid_goes_in_blocks_to_round_robin_hosts)
{
    long host[16];
    int dims[2] = {4, 4}, periods[2] = {0, 0}, out[16], id[16];
    struct comm_communicator *c;

    for (int r = 0; r < 16; r++) {
        host[r] = r % 2;
        id[r] = r;
    }
    c = fake_comm(16, host, NULL);
    ck_assert_int_eq(comm_proc_topo_map_cart(c, 2, dims, periods, true, false, out), 0);
    check_permutation(c, 16, out);
    ck_assert_int_eq(crossing(c, 2, dims, periods, id, 0), 24); /* every row link crosses */
    ck_assert_int_eq(crossing(c, 2, dims, periods, out, 0), 8); /* the grid cut in two */
    ck_assert_int_eq(comm_proc_topo_map_cart(c, 2, dims, periods, false, false, out), 0);
    for (int v = 0; v < 16; v++) {
        ck_assert_int_eq(out[v], v); /* reorder false: rank order */
    }
    fake_free(c);
}
END_TEST

START_TEST(grid_shares_that_do_not_halve_go_in_slabs)
{
    /* 10x4 on 64 ranks, 4 hosts of 16 round-robin: the grid takes 16, 16 and 8 ranks of three
     * hosts, three slabs across the long side (8 links cut); bisection alone cuts 12. */
    long host[64];
    int dims[2] = {10, 4}, periods[2] = {0, 0}, out[40];
    struct comm_communicator *c;

    for (int r = 0; r < 64; r++) {
        host[r] = r % 4;
    }
    c = fake_comm(64, host, NULL);
    ck_assert_int_eq(comm_proc_topo_map_cart(c, 2, dims, periods, true, false, out), 0);
    check_permutation(c, 40, out);
    ck_assert_int_eq(crossing(c, 2, dims, periods, out, 0), 16); /* both ends of 8 links */
    fake_free(c);
}
END_TEST

START_TEST(grid_keeps_the_hosts_of_a_rack_together)
{
    /* 4 hosts, ranks round-robin over them; hosts 0 and 3 in rack 0, 1 and 2 in rack 1 (in host
     * order the racks would get the grid's diagonal quarters). */
    long host[16], rack[4] = {0, 1, 1, 0};
    int dims[2] = {4, 4}, periods[2] = {0, 0}, out[16];
    struct comm_communicator *c;

    for (int r = 0; r < 16; r++) {
        host[r] = r % 4;
    }
    c = fake_comm(16, host, rack);
    ck_assert_int_eq(comm_proc_topo_map_cart(c, 2, dims, periods, true, false, out), 0);
    check_permutation(c, 16, out);
    ck_assert_int_eq(crossing(c, 2, dims, periods, out, 0), 16); /* four 2x2 blocks */
    ck_assert_int_eq(crossing(c, 2, dims, periods, out, 1), 8);  /* two halves */
    fake_free(c);
}
END_TEST

START_TEST(no_levels_and_single_rank_keep_rank_order)
{
    int dims[1] = {3}, periods[1] = {1}, out[3], one[1] = {1}, xadj[2] = {0, 1}, adj[1] = {0};
    long host[1] = {0};
    struct comm_communicator *c = fake_comm(3, NULL, NULL);

    ck_assert_int_eq(comm_proc_topo_map_cart(c, 1, dims, periods, true, true, out), 0);
    ck_assert(out[0] == 0 && out[1] == 1 && out[2] == 2);
    fake_free(c);
    c = fake_comm(1, host, NULL);
    ck_assert_int_eq(comm_proc_topo_map_cart(c, 1, one, periods, true, true, out), 0);
    ck_assert_int_eq(out[0], 0);
    ck_assert_int_eq(comm_proc_topo_map_cart(c, 0, NULL, NULL, true, true, out), 0);
    ck_assert_int_eq(out[0], 0);
    ck_assert_int_eq(comm_proc_topo_map_graph(c, 1, xadj, adj, NULL, true, true, out), 0);
    ck_assert_int_eq(out[0], 0);
    fake_free(c);
}
END_TEST

START_TEST(graph_is_grouped_by_host)
{
    /* A ring of 8 on 2 hosts, ranks round-robin: grouped, only 2 ring links cross. */
    long host[12];
    int xadj[13], adj[24], out[12], w[24];
    struct comm_communicator *c;

    for (int n = 1; n <= 12; n++) {
        for (int r = 0; r < n; r++) {
            host[r] = r % 2;
            xadj[r] = 2 * r;
            adj[2 * r] = (r + 1) % n;
            adj[2 * r + 1] = (r - 1 + n) % n;
            w[2 * r] = w[2 * r + 1] = 1 + r % 3;
        }
        xadj[n] = 2 * n;
        c = fake_comm(n, host, NULL);
        ck_assert_int_eq(comm_proc_topo_map_graph(c, n, xadj, adj, NULL, true, false, out), 0);
        check_permutation(c, n, out);
        if (n == 8) {
            int cross = 0;

            for (int v = 0; v < n; v++) {
                for (int k = xadj[v]; k < xadj[v + 1]; k++) {
                    cross += host[out[v]] != host[out[adj[k]]];
                }
            }
            ck_assert_int_eq(cross, 4); /* 2 links, counted at both ends */
        }
        ck_assert_int_eq(comm_proc_topo_map_graph(c, n, xadj, adj, w, true, false, out), 0);
        check_permutation(c, n, out);
        /* Fewer vertices than ranks: still distinct ranks. */
        if (n > 2) {
            xadj[n - 2] = 2 * (n - 2);
            for (int k = 0; k < 2 * (n - 2); k++) {
                adj[k] %= n - 2;
            }
            ck_assert_int_eq(comm_proc_topo_map_graph(c, n - 2, xadj, adj, NULL, true, false, out),
                             0);
            check_permutation(c, n - 2, out);
        }
        fake_free(c);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("proc_topo");
    TCase *tc = comm_test_case("proc_topo");

    tcase_add_test(tc, grid_placement_is_a_permutation_never_worse_than_rank_order);
    tcase_add_test(tc, grid_goes_in_blocks_to_round_robin_hosts);
    tcase_add_test(tc, grid_shares_that_do_not_halve_go_in_slabs);
    tcase_add_test(tc, grid_keeps_the_hosts_of_a_rack_together);
    tcase_add_test(tc, no_levels_and_single_rank_keep_rank_order);
    tcase_add_test(tc, graph_is_grouped_by_host);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
