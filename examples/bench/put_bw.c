/*
 * put_bw.c - OSU-style MPI one-sided put bandwidth test: rank 0 issues windows
 * of -W puts of SIZE bytes into rank 1's window, each window completed by the synchronization
 * of -s; prints the bandwidth in MB/s (MB = 1e6 bytes).
 *
 * Plain MPI 3.1, built with any MPI's wrapper (see bench.h and rma.h):
 *   mpicc -O2 -o put_bw put_bw.c rma.c bench.c
 *       && mpirun -np 2 ./put_bw -m 1:1048576 -W 64
 */
#include "rma.h"

static const struct bench_spec put_bw_bench = {
    .program = "put_bw",
    .title = "One-Sided Put Bandwidth",
    .summary = "windows of -W MPI_Put from rank 0 to rank 1, each window synchronized, in MB/s",
    .kind = BENCH_KIND_BANDWIDTH,
    .ranks = BENCH_RANKS_TWO,
    .column = NULL,
    .column2 = NULL,
};

static const struct rma_spec put_bw_spec = {
    .bench = &put_bw_bench,
    .op = RMA_OP_PUT,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = rma_main(&put_bw_spec, argc, argv);
    MPI_Finalize();
    return status;
}
