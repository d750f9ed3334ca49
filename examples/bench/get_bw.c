/*
 * get_bw.c - OSU-style MPI one-sided get bandwidth test: rank 0 issues windows
 * of -W gets of SIZE bytes from rank 1's window, each window completed by the synchronization
 * of -s; prints the bandwidth in MB/s (MB = 1e6 bytes).
 *
 * Plain MPI 3.1, built with any MPI's wrapper (see bench.h and rma.h):
 *   mpicc -O2 -o get_bw get_bw.c rma.c bench.c
 *       && mpirun -np 2 ./get_bw -m 1:1048576 -s lock_all
 */
#include "rma.h"

static const struct bench_spec get_bw_bench = {
    .program = "get_bw",
    .title = "One-Sided Get Bandwidth",
    .summary = "windows of -W MPI_Get by rank 0 from rank 1, each window synchronized, in MB/s",
    .kind = BENCH_KIND_BANDWIDTH,
    .ranks = BENCH_RANKS_TWO,
    .column = NULL,
    .column2 = NULL,
};

static const struct rma_spec get_bw_spec = {
    .bench = &get_bw_bench,
    .op = RMA_OP_GET,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = rma_main(&get_bw_spec, argc, argv);
    MPI_Finalize();
    return status;
}
