/*
 * halo.c - OSU-style MPI halo exchange test: the ranks form a periodic 2-D grid
 * (MPI_Dims_create, MPI_Cart_create) and each exchanges SIZE bytes with each of its 4 neighbours,
 * four ways: MPI_Neighbor_alltoall and MPI_Irecv/MPI_Isend/MPI_Waitall (tags per direction),
 * each on the grid in rank order (reorder = false) and on the grid the library placed
 * (reorder = true).  Prints, per size, the average over ranks of the time per exchange in
 * microseconds for the four; before the table, how many of the grid's neighbour links join two
 * ranks of one host (MPI_Get_processor_name) in each order.  With -f, also the slowest rank's
 * time for each.
 *
 * What it shows: with ranks dealt round-robin over hosts (comm-run --map-by node), rank order
 * puts most neighbours on other hosts; reorder gives each host a block of the grid, so most
 * halo traffic stays inside hosts.
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h):
 *   mpicc -O2 -o halo halo.c bench.c && mpirun -np 8 ./halo -m 8:65536
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HALO_NEIGHBORS = 4, HALO_WAYS = 4 };

static const char *const halo_way_names[HALO_WAYS] = {"neighbor", "neighbor+reorder", "isend",
                                                      "isend+reorder"};

/* The grid of one order and its neighbours (per dimension: the lower, then the upper). */
struct halo_grid {
    MPI_Comm cart;
    int nbr[HALO_NEIGHBORS];
};

static void halo_grid_make(struct halo_grid *g, const int *dims, int reorder)
{
    int periods[2] = {1, 1};

    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &g->cart);
    for (int d = 0; d < 2; d++) {
        MPI_Cart_shift(g->cart, d, 1, &g->nbr[2 * d], &g->nbr[2 * d + 1]);
    }
}

/* Links of grid G (each rank's 4, counted at both ends) between ranks of one host, at rank 0. */
static int halo_links_inside(const struct bench *b, const struct halo_grid *g)
{
    char mine[MPI_MAX_PROCESSOR_NAME] = {0};
    char *theirs = calloc(HALO_NEIGHBORS, MPI_MAX_PROCESSOR_NAME);
    int len, inside = 0, total = 0;

    if (theirs == NULL) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Get_processor_name(mine, &len);
    MPI_Neighbor_allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, theirs, MPI_MAX_PROCESSOR_NAME,
                           MPI_CHAR, g->cart);
    for (int j = 0; j < HALO_NEIGHBORS; j++) {
        inside += strcmp(mine, theirs + j * MPI_MAX_PROCESSOR_NAME) == 0;
    }
    free(theirs);
    /* The sum at rank 0 by point-to-point messages, as the harness does its statistics. */
    if (b->rank != 0) {
        MPI_Send(&inside, 1, MPI_INT, 0, BENCH_TAG_RESULT, MPI_COMM_WORLD);
        return 0;
    }
    total = inside;
    for (int r = 1; r < b->nranks; r++) {
        MPI_Recv(&inside, 1, MPI_INT, r, BENCH_TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        total += inside;
    }
    return total;
}

/* One exchange of SIZE bytes with every neighbour of G, by WAY (0, 1: MPI_Neighbor_alltoall;
 * 2, 3: MPI_Irecv and MPI_Isend). */
static void halo_exchange(const struct halo_grid *g, int way, char *sbuf, char *rbuf, size_t size)
{
    MPI_Request reqs[2 * HALO_NEIGHBORS];

    if (way == 0 || way == 1) {
        MPI_Neighbor_alltoall(sbuf, (int)size, MPI_CHAR, rbuf, (int)size, MPI_CHAR, g->cart);
        return;
    }
    /* What goes to the lower neighbour of a dimension arrives from the upper one: tag it by
     * the direction it travels, so a rank that is a neighbour twice gets each block right. */
    for (int j = 0; j < HALO_NEIGHBORS; j++) {
        MPI_Irecv(rbuf + (size_t)j * size, (int)size, MPI_CHAR, g->nbr[j], j ^ 1, g->cart,
                  &reqs[j]);
    }
    for (int j = 0; j < HALO_NEIGHBORS; j++) {
        MPI_Isend(sbuf + (size_t)j * size, (int)size, MPI_CHAR, g->nbr[j], j, g->cart,
                  &reqs[HALO_NEIGHBORS + j]);
    }
    MPI_Waitall(2 * HALO_NEIGHBORS, reqs, MPI_STATUSES_IGNORE);
}

/* This rank's average time per exchange over ITERS timed iterations (after WARMUP). */
static double halo_time(const struct bench *b, const struct halo_grid *g, int way, char *sbuf,
                        char *rbuf, size_t size, int iters, int warmup)
{
    double t0;

    for (int i = 0; i < warmup; i++) {
        halo_exchange(g, way, sbuf, rbuf, size);
    }
    bench_barrier(b);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        halo_exchange(g, way, sbuf, rbuf, size);
    }
    return (MPI_Wtime() - t0) / iters;
}

/* The average and the largest of every rank's T, at rank 0. */
static void halo_stats(const struct bench *b, double t, double *avg_out, double *max_out)
{
    double sum = t, max = t, other;

    if (b->rank != 0) {
        MPI_Send(&t, 1, MPI_DOUBLE, 0, BENCH_TAG_RESULT, MPI_COMM_WORLD);
        return;
    }
    for (int r = 1; r < b->nranks; r++) {
        MPI_Recv(&other, 1, MPI_DOUBLE, r, BENCH_TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += other;
        max = other > max ? other : max;
    }
    *avg_out = sum / b->nranks;
    *max_out = max;
}

static const struct bench_spec halo_bench = {
    .program = "halo",
    .title = "Halo Exchange Latency",
    .summary = "a periodic 2-D grid, SIZE bytes to each of 4 neighbours by "
               "MPI_Neighbor_alltoall and by Isend/Irecv, in rank order and reordered",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
};

int main(int argc, char **argv)
{
    struct bench b;
    struct halo_grid grids[2];
    int dims[2] = {0, 0}, status;
    char *sbuf = NULL, *rbuf = NULL;

    MPI_Init(&argc, &argv);
    status = bench_setup(&b, &halo_bench, argc, argv);
    if (status == BENCH_RUN) {
        sbuf = malloc(HALO_NEIGHBORS * (b.max_size > 0 ? b.max_size : 1));
        rbuf = malloc(HALO_NEIGHBORS * (b.max_size > 0 ? b.max_size : 1));
        if (sbuf == NULL || rbuf == NULL) {
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        memset(sbuf, 'a' + b.rank % 26, HALO_NEIGHBORS * (b.max_size > 0 ? b.max_size : 1));
        memset(rbuf, 0, HALO_NEIGHBORS * (b.max_size > 0 ? b.max_size : 1));
        MPI_Dims_create(b.nranks, 2, dims);
        halo_grid_make(&grids[0], dims, 0);
        halo_grid_make(&grids[1], dims, 1);
        {
            int kept = halo_links_inside(&b, &grids[0]), placed = halo_links_inside(&b, &grids[1]);

            if (b.rank == 0) {
                printf("# grid %dx%d (periodic): %d of %d neighbour links inside a host in rank "
                       "order, %d reordered\n",
                       dims[0], dims[1], kept, HALO_NEIGHBORS * b.nranks, placed);
                printf("%-10s", "# Size");
                for (int w = 0; w < HALO_WAYS; w++) {
                    printf(" %22s", halo_way_names[w]);
                }
                if (b.full) {
                    for (int w = 0; w < HALO_WAYS; w++) {
                        char head[40];

                        snprintf(head, sizeof(head), "max %s", halo_way_names[w]);
                        printf(" %22s", head);
                    }
                }
                printf("\n%-10s", "#");
                for (int w = 0; w < HALO_WAYS * (b.full ? 2 : 1); w++) {
                    printf(" %22s", "(us per exchange)");
                }
                printf("\n");
            }
        }
        for (size_t size = b.min_size; size <= b.max_size; size = bench_next_size(size)) {
            double avg[HALO_WAYS] = {0}, max[HALO_WAYS] = {0};

            for (int w = 0; w < HALO_WAYS; w++) {
                double t = halo_time(&b, &grids[w % 2], w, sbuf, rbuf, size,
                                     bench_iterations(&b, size), bench_warmup(&b, size));

                halo_stats(&b, t * 1e6, &avg[w], &max[w]);
            }
            if (b.rank == 0) {
                printf("%-10zu", size);
                for (int w = 0; w < HALO_WAYS * (b.full ? 2 : 1); w++) {
                    printf(" %22.2f", w < HALO_WAYS ? avg[w] : max[w - HALO_WAYS]);
                }
                printf("\n");
                fflush(stdout);
            }
        }
        MPI_Comm_free(&grids[0].cart);
        MPI_Comm_free(&grids[1].cart);
        status = BENCH_EXIT_OK;
    }
    free(sbuf);
    free(rbuf);
    bench_teardown(&b);
    MPI_Finalize();
    return status;
}
