/*
 * allreduce.c - OSU-style MPI allreduce latency test: MPI_Allreduce of SIZE bytes (MPI_CHAR with
 * MPI_SUM) over all ranks; prints the average time per call over ranks in microseconds, with
 * bandwidth columns. BusBW factor 2(n-1)/n (nccl-tests).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o allreduce allreduce.c coll.c bench.c && mpirun -np 4 ./allreduce -m 1:65536
 */
#include "coll.h"

static void allreduce_op(struct coll *c, size_t size)
{
    MPI_Allreduce(c->b.sbuf, c->b.rbuf, (int)size, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
}

static const struct bench_spec allreduce_bench = {
    .program = "allreduce",
    .title = "Allreduce Latency",
    .summary = "MPI_Allreduce of SIZE bytes (MPI_CHAR, MPI_SUM) on every rank",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
};

static const struct coll_spec allreduce_spec = {
    .bench = &allreduce_bench,
    .traffic = COLL_TRAFFIC_ALLREDUCE,
    .op = allreduce_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&allreduce_spec, argc, argv);
    MPI_Finalize();
    return status;
}
