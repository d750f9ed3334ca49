/*
 * coll.c - the timing loop, statistics and output of the OSU-style collective benchmarks in
 * examples/bench/ (see coll.h).  Plain MPI for any library: no comm headers, and no collective
 * but the one each program measures.  Only rank 0 prints.
 */
#include "coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    COLL_LABEL_WIDTH = 10,
    COLL_VALUE_WIDTH = 18,
    COLL_COUNT_WIDTH = 12,
    COLL_BW_WIDTH = 14,
};

/* Statistics over ranks of one per-rank value (microseconds); rank 0 only. */
struct coll_stat {
    double avg;
    double min;
    double max;
};

/* The bytes AlgBW counts for SIZE, and BusBW's factor, on N ranks (coll.h). */
static double coll_bytes(enum coll_traffic traffic, size_t size, int n)
{
    if (traffic == COLL_TRAFFIC_PER_RANK) {
        return (double)size * n;
    }
    return (double)size;
}

static double coll_bus_factor(enum coll_traffic traffic, int n)
{
    switch (traffic) {
    case COLL_TRAFFIC_ALLREDUCE:
        return 2.0 * (n - 1) / n;
    case COLL_TRAFFIC_REDUCE_SCATTER:
    case COLL_TRAFFIC_PER_RANK:
        return (double)(n - 1) / n;
    default:
        return 1.0;
    }
}

static void coll_print_columns(const struct coll *c, const struct coll_spec *spec)
{
    bool bandwidth = spec->traffic != COLL_TRAFFIC_NONE && !c->b.overlap;

    if (bandwidth) {
        printf("# AlgBW = %s / avg time, BusBW = AlgBW x %.4f (%d ranks), GB = 1e9 bytes\n",
               spec->traffic == COLL_TRAFFIC_PER_RANK ? "ranks x size" : "size",
               coll_bus_factor(spec->traffic, c->b.nranks), c->b.nranks);
    }
    if (c->b.overlap) {
        printf("# Compute: post, compute as long as Pure Comm., wait; Overlap = 100 x (1 - "
               "(Overall - Compute) / Pure Comm.)\n");
        printf("%-*s%*s%*s%*s", COLL_LABEL_WIDTH, "# Size", COLL_VALUE_WIDTH, "Overall(us)",
               COLL_VALUE_WIDTH, "Compute(us)", COLL_VALUE_WIDTH, "Pure Comm.(us)");
    } else if (spec->traffic != COLL_TRAFFIC_NONE) {
        printf("%-*s%*s", COLL_LABEL_WIDTH, "# Size", COLL_VALUE_WIDTH, "Avg Latency(us)");
    } else {
        printf("# Avg Latency(us)");
    }
    if (c->b.full) {
        const char *what = c->b.overlap ? "Comm.(us)" : "Latency(us)";
        char min[32];
        char max[32];

        snprintf(min, sizeof(min), "Min %s", what);
        snprintf(max, sizeof(max), "Max %s", what);
        printf("%*s%*s%*s", COLL_VALUE_WIDTH, min, COLL_VALUE_WIDTH, max, COLL_COUNT_WIDTH,
               "Iterations");
    }
    if (bandwidth) {
        printf("%*s%*s", COLL_BW_WIDTH, "AlgBW(GB/s)", COLL_BW_WIDTH, "BusBW(GB/s)");
    }
    if (c->b.overlap) {
        printf("%*s", COLL_BW_WIDTH, "Overlap(%)");
    }
    printf("\n");
    fflush(stdout);
}

/*
 * Rank 0 only: one row.  COMM is the call's time (post + wait); OVERALL and COMPUTE are the
 * times of the overlap phase (-c), NULL without it.
 */
static void coll_print_row(const struct coll *c, const struct coll_spec *spec, size_t size,
                           int iterations, const struct coll_stat *comm,
                           const struct coll_stat *overall, const struct coll_stat *compute)
{
    bool bandwidth = spec->traffic != COLL_TRAFFIC_NONE && overall == NULL;

    if (overall != NULL) {
        printf("%*zu%*.2f%*.2f%*.2f", COLL_LABEL_WIDTH, size, COLL_VALUE_WIDTH, overall->avg,
               COLL_VALUE_WIDTH, compute->avg, COLL_VALUE_WIDTH, comm->avg);
    } else if (spec->traffic != COLL_TRAFFIC_NONE) {
        printf("%*zu%*.2f", COLL_LABEL_WIDTH, size, COLL_VALUE_WIDTH, comm->avg);
    } else {
        printf("%*.2f", (int)strlen("# Avg Latency(us)"), comm->avg);
    }
    if (c->b.full) {
        printf("%*.2f%*.2f%*d", COLL_VALUE_WIDTH, comm->min, COLL_VALUE_WIDTH, comm->max,
               COLL_COUNT_WIDTH, iterations);
    }
    if (bandwidth) {
        /* bytes / us / 1e3 = GB/s (1e9 bytes) */
        double algbw =
            comm->avg > 0.0 ? coll_bytes(spec->traffic, size, c->b.nranks) / comm->avg / 1e3 : 0.0;

        printf("%*.2f%*.2f", COLL_BW_WIDTH, algbw, COLL_BW_WIDTH,
               algbw * coll_bus_factor(spec->traffic, c->b.nranks));
    }
    if (overall != NULL) {
        /* As OSU: the share of the call hidden behind the computation, from averages. */
        double overlap = 0.0;

        if (comm->avg > 0.0) {
            overlap = 100.0 * (1.0 - (overall->avg - compute->avg) / comm->avg);
        }
        overlap = overlap < 0.0 ? 0.0 : overlap > 100.0 ? 100.0 : overlap;
        printf("%*.2f", COLL_BW_WIDTH, overlap);
    }
    printf("\n");
    fflush(stdout);
}

/*
 * Rank 0 learns every rank's VALUE by point-to-point messages (no collective; coll.h) and
 * fills STAT; the other ranks only send.
 */
static void coll_gather_stat(const struct coll *c, double value, struct coll_stat *stat)
{
    double sum = value;
    int peer;

    if (c->b.rank != 0) {
        MPI_Send(&value, 1, MPI_DOUBLE, 0, BENCH_TAG_RESULT, MPI_COMM_WORLD);
        return;
    }
    stat->min = value;
    stat->max = value;
    for (peer = 1; peer < c->b.nranks; peer++) {
        double other;

        MPI_Recv(&other, 1, MPI_DOUBLE, peer, BENCH_TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += other;
        stat->min = other < stat->min ? other : stat->min;
        stat->max = other > stat->max ? other : stat->max;
    }
    stat->avg = sum / c->b.nranks;
}

/* Busy for SECONDS without calling MPI, as a computation would be. */
static double coll_compute(double seconds)
{
    double start = MPI_Wtime();
    double now;

    do {
        now = MPI_Wtime();
    } while (now - start < seconds);
    return now - start;
}

/*
 * The overlap phase of one size (-c): post, compute for this rank's own pure call time, wait.
 * Returns this rank's average overall and compute times in microseconds.
 */
static void coll_measure_overlap(struct coll *c, const struct coll_spec *spec, size_t size,
                                 double comm_us, double *overall_out, double *compute_out)
{
    int iterations = bench_iterations(&c->b, size);
    int warmup = bench_warmup(&c->b, size);
    double overall = 0.0;
    double compute = 0.0;
    int i;

    bench_barrier(&c->b);
    for (i = 0; i < warmup + iterations; i++) {
        double start = MPI_Wtime();
        double busy;

        spec->start(c, size);
        busy = coll_compute(comm_us / 1e6);
        spec->finish(c, size);
        if (i >= warmup) {
            overall += MPI_Wtime() - start;
            compute += busy;
        }
        bench_barrier(&c->b);
    }
    *overall_out = overall * 1e6 / iterations;
    *compute_out = compute * 1e6 / iterations;
}

/* One size: each iteration timed alone, separated by a barrier, as in OSU. */
static void coll_measure(struct coll *c, const struct coll_spec *spec, size_t size)
{
    int iterations = bench_iterations(&c->b, size);
    int warmup = bench_warmup(&c->b, size);
    double total = 0.0;
    double comm_us;
    struct coll_stat comm = {0};
    struct coll_stat overall = {0};
    struct coll_stat compute = {0};
    int i;

    if (spec->prepare != NULL) {
        spec->prepare(c, size);
    }
    bench_barrier(&c->b);
    for (i = 0; i < warmup + iterations; i++) {
        double start = MPI_Wtime();

        spec->op(c, size);
        if (i >= warmup) {
            total += MPI_Wtime() - start;
        }
        bench_barrier(&c->b);
    }
    comm_us = total * 1e6 / iterations;
    coll_gather_stat(c, comm_us, &comm);
    if (c->b.overlap) {
        double overall_us;
        double compute_us;

        coll_measure_overlap(c, spec, size, comm_us, &overall_us, &compute_us);
        coll_gather_stat(c, overall_us, &overall);
        coll_gather_stat(c, compute_us, &compute);
    }
    if (c->b.rank == 0) {
        coll_print_row(c, spec, size, iterations, &comm, c->b.overlap ? &overall : NULL, &compute);
    }
}

int coll_main(const struct coll_spec *spec, int argc, char **argv)
{
    struct coll c;
    enum bench_status status;

    memset(&c, 0, sizeof(c));
    status = bench_setup(&c.b, spec->bench, argc, argv);
    if (status == BENCH_RUN) {
        c.counts = malloc((size_t)c.b.nranks * sizeof(*c.counts));
        c.displs = malloc((size_t)c.b.nranks * sizeof(*c.displs));
        if (c.counts == NULL || c.displs == NULL) {
            fprintf(stderr, "%s: rank %d: cannot allocate %d counts\n", spec->bench->program,
                    c.b.rank, c.b.nranks);
            MPI_Abort(MPI_COMM_WORLD, 1);
            status = BENCH_EXIT_FAILURE;
        }
    }
    if (status == BENCH_RUN) {
        size_t size;

        if (c.b.rank == 0) {
            coll_print_columns(&c, spec);
        }
        if (spec->traffic == COLL_TRAFFIC_NONE) {
            coll_measure(&c, spec, 0);
        } else {
            for (size = c.b.min_size; size <= c.b.max_size; size = bench_next_size(size)) {
                coll_measure(&c, spec, size);
            }
        }
        status = BENCH_EXIT_OK;
    }
    free(c.counts);
    free(c.displs);
    bench_teardown(&c.b);
    return (int)status;
}
