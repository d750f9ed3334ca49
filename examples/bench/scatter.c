/*
 * scatter.c - OSU-style MPI scatter latency test: MPI_Scatter where rank 0 sends SIZE bytes
 * (MPI_CHAR) to each rank; prints the average time per call over ranks in microseconds, with
 * bandwidth columns. BusBW factor (n-1)/n, on AlgBW = n x SIZE / time (nccl-tests).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o scatter scatter.c coll.c bench.c && mpirun -np 4 ./scatter -m 1:65536
 */
#include "coll.h"

static void scatter_op(struct coll *c, size_t size)
{
    MPI_Scatter(c->b.sbuf, (int)size, MPI_CHAR, c->b.rbuf, (int)size, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static const struct bench_spec scatter_bench = {
    .program = "scatter",
    .title = "Scatter Latency",
    .summary = "MPI_Scatter: rank 0 sends SIZE bytes to each rank",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
    .send_per_rank = true,
};

static const struct coll_spec scatter_spec = {
    .bench = &scatter_bench,
    .traffic = COLL_TRAFFIC_PER_RANK,
    .op = scatter_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&scatter_spec, argc, argv);
    MPI_Finalize();
    return status;
}
