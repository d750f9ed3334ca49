/*
 * bibw.c - OSU-style MPI bidirectional bandwidth test: ranks 0 and 1 each post a window of
 * MPI_Irecv from the other, then a window of MPI_Isend to it, and wait for all of them.
 * Prints the sum of both directions per size in MB/s (MB = 1e6 bytes).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h):
 *   mpicc -O2 -o bibw bibw.c bench.c && mpirun -np 2 ./bibw -m 1:1048576 -W 64
 */
#include "bench.h"

static const struct bench_spec bibw_spec = {
    .program = "bibw",
    .title = "Bi-Directional Bandwidth",
    .summary = "windows of messages both ways between ranks 0 and 1, total in MB/s",
    .kind = BENCH_KIND_BANDWIDTH,
    .ranks = BENCH_RANKS_TWO,
    .column = "Bandwidth (MB/s)",
    .column2 = NULL,
};

/* One size: returns the bandwidth of both directions together in MB/s (rank 0's view). */
static double bibw_measure(const struct bench *b, size_t size)
{
    int iterations = bench_iterations(b, size);
    int warmup = bench_warmup(b, size);
    int count = (int)size;
    int peer = 1 - b->rank;
    double start = 0.0;
    double seconds;
    int i;
    int j;

    bench_barrier(b);
    for (i = 0; i < warmup + iterations; i++) {
        if (i == warmup) {
            start = MPI_Wtime();
        }
        /* As in OSU, the window's receives share one buffer: only time matters here. */
        for (j = 0; j < b->window; j++) {
            MPI_Irecv(b->rbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
                      &b->requests[j]);
        }
        for (j = 0; j < b->window; j++) {
            MPI_Isend(b->sbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
                      &b->requests[b->window + j]);
        }
        MPI_Waitall(2 * b->window, b->requests, b->statuses);
    }
    seconds = MPI_Wtime() - start;
    return 2.0 * (double)size / 1e6 * iterations * b->window / seconds;
}

int main(int argc, char **argv)
{
    struct bench b;
    enum bench_status status;
    size_t size;

    MPI_Init(&argc, &argv);
    status = bench_setup(&b, &bibw_spec, argc, argv);
    if (status == BENCH_RUN) {
        for (size = b.min_size; size <= b.max_size; size = bench_next_size(size)) {
            bench_print_row(&b, size, bibw_measure(&b, size), 0.0);
        }
        status = BENCH_EXIT_OK;
    }
    bench_teardown(&b);
    MPI_Finalize();
    return (int)status;
}
