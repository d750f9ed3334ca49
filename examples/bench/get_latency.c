/*
 * get_latency.c - OSU-style MPI one-sided get latency test: rank 0 gets SIZE bytes
 * from rank 1's window, each get completed by the synchronization of -s; prints the time per
 * get in microseconds.
 *
 * Plain MPI 3.1, built with any MPI's wrapper (see bench.h and rma.h):
 *   mpicc -O2 -o get_latency get_latency.c rma.c bench.c
 *       && mpirun -np 2 ./get_latency -s lock -m 0:65536
 */
#include "rma.h"

static const struct bench_spec get_latency_bench = {
    .program = "get_latency",
    .title = "One-Sided Get Latency",
    .summary =
        "MPI_Get of SIZE bytes by rank 0 from rank 1, time per get and its synchronization in us",
    .kind = BENCH_KIND_LATENCY,
    .ranks = BENCH_RANKS_TWO,
    .column = NULL,
    .column2 = NULL,
};

static const struct rma_spec get_latency_spec = {
    .bench = &get_latency_bench,
    .op = RMA_OP_GET,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = rma_main(&get_latency_spec, argc, argv);
    MPI_Finalize();
    return status;
}
