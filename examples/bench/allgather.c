/*
 * allgather.c - OSU-style MPI allgather latency test: MPI_Allgather where each rank contributes
 * SIZE bytes (MPI_CHAR) and receives n x SIZE; prints the average time per call over ranks in
 * microseconds, with bandwidth columns. BusBW factor (n-1)/n, on AlgBW = n x SIZE / time (nccl-
 * tests).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o allgather allgather.c coll.c bench.c && mpirun -np 4 ./allgather -m 1:65536
 */
#include "coll.h"

static void allgather_op(struct coll *c, size_t size)
{
    MPI_Allgather(c->b.sbuf, (int)size, MPI_CHAR, c->b.rbuf, (int)size, MPI_CHAR, MPI_COMM_WORLD);
}

static const struct bench_spec allgather_bench = {
    .program = "allgather",
    .title = "Allgather Latency",
    .summary = "MPI_Allgather: each rank contributes SIZE bytes",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
    .recv_per_rank = true,
};

static const struct coll_spec allgather_spec = {
    .bench = &allgather_bench,
    .traffic = COLL_TRAFFIC_PER_RANK,
    .op = allgather_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&allgather_spec, argc, argv);
    MPI_Finalize();
    return status;
}
