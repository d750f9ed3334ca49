/*
 * mbw_mr.c - OSU-style MPI multiple bandwidth / message rate test: with n ranks, each rank
 * r < n/2 sends windows of MPI_Isend to rank r + n/2, which posts as many MPI_Irecv and then
 * sends a 4-byte ack.  All pairs start together (a barrier after the warm-up); the slowest
 * sender's time gives the aggregate bandwidth (MB/s, MB = 1e6 bytes) and message rate.
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h):
 *   mpicc -O2 -o mbw_mr mbw_mr.c bench.c && mpirun -np 4 ./mbw_mr -m 1:65536
 */
#include "bench.h"

static const struct bench_spec mbw_mr_spec = {
    .program = "mbw_mr",
    .title = "Multiple Bandwidth / Message Rate",
    .summary = "windows of messages from each rank r < n/2 to rank r + n/2, all pairs at once",
    .kind = BENCH_KIND_BANDWIDTH,
    .ranks = BENCH_RANKS_EVEN,
    .column = "MB/s",
    .column2 = "Messages/s",
};

enum { MBW_MR_ACK_BYTES = 4 };

/* One size: returns the seconds of the slowest sender's timed iterations (on rank 0). */
static double mbw_mr_measure(const struct bench *b, size_t size)
{
    int iterations = bench_iterations(b, size);
    int warmup = bench_warmup(b, size);
    int count = (int)size;
    int pairs = b->nranks / 2;
    bool sender = b->rank < pairs;
    int peer = sender ? b->rank + pairs : b->rank - pairs;
    double start = 0.0;
    double seconds;
    int i;
    int j;

    bench_barrier(b);
    for (i = 0; i < warmup + iterations; i++) {
        if (i == warmup) {
            bench_barrier(b);
            start = MPI_Wtime();
        }
        if (sender) {
            for (j = 0; j < b->window; j++) {
                MPI_Isend(b->sbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
                          &b->requests[j]);
            }
            MPI_Waitall(b->window, b->requests, b->statuses);
            MPI_Recv(b->rbuf, MBW_MR_ACK_BYTES, MPI_CHAR, peer, BENCH_TAG_ACK, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            /* As in OSU, the window's receives share one buffer: only time matters here. */
            for (j = 0; j < b->window; j++) {
                MPI_Irecv(b->rbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
                          &b->requests[j]);
            }
            MPI_Waitall(b->window, b->requests, b->statuses);
            MPI_Send(b->sbuf, MBW_MR_ACK_BYTES, MPI_CHAR, peer, BENCH_TAG_ACK, MPI_COMM_WORLD);
        }
    }
    seconds = MPI_Wtime() - start;

    /* The slowest sender decides; point-to-point only, so no MPI_Reduce. */
    if (b->rank == 0) {
        for (i = 1; i < pairs; i++) {
            double other;

            MPI_Recv(&other, 1, MPI_DOUBLE, i, BENCH_TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (other > seconds) {
                seconds = other;
            }
        }
    } else if (sender) {
        MPI_Send(&seconds, 1, MPI_DOUBLE, 0, BENCH_TAG_RESULT, MPI_COMM_WORLD);
    }
    return seconds;
}

int main(int argc, char **argv)
{
    struct bench b;
    enum bench_status status;
    size_t size;

    MPI_Init(&argc, &argv);
    status = bench_setup(&b, &mbw_mr_spec, argc, argv);
    if (status == BENCH_RUN) {
        int pairs = b.nranks / 2;

        for (size = b.min_size; size <= b.max_size; size = bench_next_size(size)) {
            double seconds = mbw_mr_measure(&b, size);
            double messages = (double)pairs * bench_iterations(&b, size) * b.window;

            bench_print_row(&b, size, messages * (double)size / 1e6 / seconds, messages / seconds);
        }
        status = BENCH_EXIT_OK;
    }
    bench_teardown(&b);
    MPI_Finalize();
    return (int)status;
}
