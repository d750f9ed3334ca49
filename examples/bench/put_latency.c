/*
 * put_latency.c - OSU-style MPI one-sided put latency test: rank 0 puts SIZE bytes
 * into rank 1's window, each put completed by the synchronization of -s; prints the time per
 * put in microseconds.
 *
 * Plain MPI 3.1, built with any MPI's wrapper (see bench.h and rma.h):
 *   mpicc -O2 -o put_latency put_latency.c rma.c bench.c
 *       && mpirun -np 2 ./put_latency -s fence -m 0:65536
 */
#include "rma.h"

static const struct bench_spec put_latency_bench = {
    .program = "put_latency",
    .title = "One-Sided Put Latency",
    .summary =
        "MPI_Put of SIZE bytes from rank 0 to rank 1, time per put and its synchronization in us",
    .kind = BENCH_KIND_LATENCY,
    .ranks = BENCH_RANKS_TWO,
    .column = NULL,
    .column2 = NULL,
};

static const struct rma_spec put_latency_spec = {
    .bench = &put_latency_bench,
    .op = RMA_OP_PUT,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = rma_main(&put_latency_spec, argc, argv);
    MPI_Finalize();
    return status;
}
