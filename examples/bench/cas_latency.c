/*
 * cas_latency.c - OSU-style MPI one-sided compare-and-swap latency test: rank 0
 * swaps an 8-byte MPI_LONG_LONG in rank 1's window with MPI_Compare_and_swap, each completed by
 * the synchronization of -s; prints the time per call in microseconds (one row, size 8).
 *
 * Plain MPI 3.1, built with any MPI's wrapper (see bench.h and rma.h):
 *   mpicc -O2 -o cas_latency cas_latency.c rma.c bench.c
 *       && mpirun -np 2 ./cas_latency -s lock
 */
#include "rma.h"

static const struct bench_spec cas_latency_bench = {
    .program = "cas_latency",
    .title = "One-Sided Compare_and_swap Latency",
    .summary = "MPI_Compare_and_swap (MPI_LONG_LONG) by rank 0 on rank 1, in us",
    .kind = BENCH_KIND_LATENCY,
    .ranks = BENCH_RANKS_TWO,
    .column = NULL,
    .column2 = NULL,
};

static const struct rma_spec cas_latency_spec = {
    .bench = &cas_latency_bench,
    .op = RMA_OP_CAS,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = rma_main(&cas_latency_spec, argc, argv);
    MPI_Finalize();
    return status;
}
