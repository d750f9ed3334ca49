/*
 * fop_latency.c - OSU-style MPI one-sided fetch-and-op latency test: rank 0 adds 1
 * to an 8-byte MPI_LONG_LONG in rank 1's window with MPI_Fetch_and_op (MPI_SUM), each completed
 * by the synchronization of -s; prints the time per call in microseconds (one row, size 8).
 *
 * Plain MPI 3.1, built with any MPI's wrapper (see bench.h and rma.h):
 *   mpicc -O2 -o fop_latency fop_latency.c rma.c bench.c
 *       && mpirun -np 2 ./fop_latency -s flush
 */
#include "rma.h"

static const struct bench_spec fop_latency_bench = {
    .program = "fop_latency",
    .title = "One-Sided Fetch_and_op Latency",
    .summary = "MPI_Fetch_and_op (MPI_LONG_LONG, MPI_SUM) by rank 0 on rank 1, in us",
    .kind = BENCH_KIND_LATENCY,
    .ranks = BENCH_RANKS_TWO,
    .column = NULL,
    .column2 = NULL,
};

static const struct rma_spec fop_latency_spec = {
    .bench = &fop_latency_bench,
    .op = RMA_OP_FOP,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = rma_main(&fop_latency_spec, argc, argv);
    MPI_Finalize();
    return status;
}
