/*
 * latency.c - OSU-style MPI latency test: ping-pong between ranks 0 and 1 with MPI_Send and
 * MPI_Recv; prints half the round-trip time per size, in microseconds.
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h):
 *   mpicc -O2 -o latency latency.c bench.c && mpirun -np 2 ./latency -m 0:65536
 */
#include "bench.h"

static const struct bench_spec latency_spec = {
    .program = "latency",
    .title = "Latency",
    .summary = "ping-pong between ranks 0 and 1, half the round trip in microseconds",
    .kind = BENCH_KIND_LATENCY,
    .ranks = BENCH_RANKS_TWO,
    .column = "Latency (us)",
    .column2 = NULL,
};

/* One size: returns the one-way latency in microseconds (meaningful on rank 0). */
static double latency_measure(const struct bench *b, size_t size)
{
    int iterations = bench_iterations(b, size);
    int warmup = bench_warmup(b, size);
    int count = (int)size;
    int peer = 1 - b->rank;
    double start = 0.0;
    int i;

    bench_barrier(b);
    for (i = 0; i < warmup + iterations; i++) {
        if (i == warmup) {
            start = MPI_Wtime();
        }
        if (b->rank == 0) {
            MPI_Send(b->sbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(b->rbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(b->rbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(b->sbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - start) * 1e6 / (2.0 * iterations);
}

int main(int argc, char **argv)
{
    struct bench b;
    enum bench_status status;
    size_t size;

    MPI_Init(&argc, &argv);
    status = bench_setup(&b, &latency_spec, argc, argv);
    if (status == BENCH_RUN) {
        for (size = b.min_size; size <= b.max_size; size = bench_next_size(size)) {
            bench_print_row(&b, size, latency_measure(&b, size), 0.0);
        }
        status = BENCH_EXIT_OK;
    }
    bench_teardown(&b);
    MPI_Finalize();
    return (int)status;
}
