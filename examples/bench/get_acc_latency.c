/*
 * get_acc_latency.c - OSU-style MPI one-sided get_accumulate latency test: rank 0 adds
 * SIZE bytes (MPI_UNSIGNED_CHAR, MPI_SUM) into rank 1's window and fetches the old values with
 * MPI_Get_accumulate, each completed by the synchronization of -s; prints the time per call in
 * microseconds.
 *
 * Plain MPI 3.1, built with any MPI's wrapper (see bench.h and rma.h):
 *   mpicc -O2 -o get_acc_latency get_acc_latency.c rma.c bench.c
 *       && mpirun -np 2 ./get_acc_latency -m 0:65536 -s pscw
 */
#include "rma.h"

static const struct bench_spec get_acc_latency_bench = {
    .program = "get_acc_latency",
    .title = "One-Sided Get_accumulate Latency",
    .summary =
        "MPI_Get_accumulate (MPI_UNSIGNED_CHAR, MPI_SUM) of SIZE bytes, rank 0 on rank 1, in us",
    .kind = BENCH_KIND_LATENCY,
    .ranks = BENCH_RANKS_TWO,
    .column = NULL,
    .column2 = NULL,
};

static const struct rma_spec get_acc_latency_spec = {
    .bench = &get_acc_latency_bench,
    .op = RMA_OP_GET_ACC,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = rma_main(&get_acc_latency_spec, argc, argv);
    MPI_Finalize();
    return status;
}
