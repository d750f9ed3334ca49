/*
 * reduce.c - OSU-style MPI reduce latency test: MPI_Reduce of SIZE bytes (MPI_CHAR with MPI_SUM)
 * to rank 0; prints the average time per call over ranks in microseconds, with bandwidth columns.
 * BusBW factor 1 (nccl-tests).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o reduce reduce.c coll.c bench.c && mpirun -np 4 ./reduce -m 1:65536
 */
#include "coll.h"

static void reduce_op(struct coll *c, size_t size)
{
    MPI_Reduce(c->b.sbuf, c->b.rbuf, (int)size, MPI_CHAR, MPI_SUM, 0, MPI_COMM_WORLD);
}

static const struct bench_spec reduce_bench = {
    .program = "reduce",
    .title = "Reduce Latency",
    .summary = "MPI_Reduce of SIZE bytes (MPI_CHAR, MPI_SUM) to rank 0",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
};

static const struct coll_spec reduce_spec = {
    .bench = &reduce_bench,
    .traffic = COLL_TRAFFIC_ROOTED,
    .op = reduce_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&reduce_spec, argc, argv);
    MPI_Finalize();
    return status;
}
