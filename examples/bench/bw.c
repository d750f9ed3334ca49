/*
 * bw.c - OSU-style MPI bandwidth test: rank 0 posts a window of MPI_Isend to rank 1, which
 * posts as many MPI_Irecv; both wait for all, then rank 1 sends a 4-byte ack.  Prints the
 * bandwidth per size in MB/s (MB = 1e6 bytes).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h):
 *   mpicc -O2 -o bw bw.c bench.c && mpirun -np 2 ./bw -m 1:1048576 -W 64
 */
#include "bench.h"

static const struct bench_spec bw_spec = {
    .program = "bw",
    .title = "Bandwidth",
    .summary = "windows of messages from rank 0 to rank 1, each acknowledged, in MB/s",
    .kind = BENCH_KIND_BANDWIDTH,
    .ranks = BENCH_RANKS_TWO,
    .column = "Bandwidth (MB/s)",
    .column2 = NULL,
};

enum { BW_ACK_BYTES = 4 };

/* One size: returns the bandwidth in MB/s (meaningful on rank 0). */
static double bw_measure(const struct bench *b, size_t size)
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
        if (b->rank == 0) {
            for (j = 0; j < b->window; j++) {
                MPI_Isend(b->sbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
                          &b->requests[j]);
            }
            MPI_Waitall(b->window, b->requests, b->statuses);
            MPI_Recv(b->rbuf, BW_ACK_BYTES, MPI_CHAR, peer, BENCH_TAG_ACK, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            /* As in OSU, the window's receives share one buffer: only time matters here. */
            for (j = 0; j < b->window; j++) {
                MPI_Irecv(b->rbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
                          &b->requests[j]);
            }
            MPI_Waitall(b->window, b->requests, b->statuses);
            MPI_Send(b->sbuf, BW_ACK_BYTES, MPI_CHAR, peer, BENCH_TAG_ACK, MPI_COMM_WORLD);
        }
    }
    seconds = MPI_Wtime() - start;
    return (double)size / 1e6 * iterations * b->window / seconds;
}

int main(int argc, char **argv)
{
    struct bench b;
    enum bench_status status;
    size_t size;

    MPI_Init(&argc, &argv);
    status = bench_setup(&b, &bw_spec, argc, argv);
    if (status == BENCH_RUN) {
        for (size = b.min_size; size <= b.max_size; size = bench_next_size(size)) {
            bench_print_row(&b, size, bw_measure(&b, size), 0.0);
        }
        status = BENCH_EXIT_OK;
    }
    bench_teardown(&b);
    MPI_Finalize();
    return (int)status;
}
