/*
 * acc_latency.c - OSU-style MPI one-sided accumulate latency test: rank 0 adds SIZE
 * bytes (MPI_UNSIGNED_CHAR, MPI_SUM) into rank 1's window with MPI_Accumulate, each completed
 * by the synchronization of -s; prints the time per accumulate in microseconds.
 *
 * Plain MPI 3.1, built with any MPI's wrapper (see bench.h and rma.h):
 *   mpicc -O2 -o acc_latency acc_latency.c rma.c bench.c
 *       && mpirun -np 2 ./acc_latency -m 0:65536
 */
#include "rma.h"

static const struct bench_spec acc_latency_bench = {
    .program = "acc_latency",
    .title = "One-Sided Accumulate Latency",
    .summary =
        "MPI_Accumulate (MPI_UNSIGNED_CHAR, MPI_SUM) of SIZE bytes from rank 0 to rank 1, in us",
    .kind = BENCH_KIND_LATENCY,
    .ranks = BENCH_RANKS_TWO,
    .column = NULL,
    .column2 = NULL,
};

static const struct rma_spec acc_latency_spec = {
    .bench = &acc_latency_bench,
    .op = RMA_OP_ACC,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = rma_main(&acc_latency_spec, argc, argv);
    MPI_Finalize();
    return status;
}
