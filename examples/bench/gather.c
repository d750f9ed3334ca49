/*
 * gather.c - OSU-style MPI gather latency test: MPI_Gather where each rank sends SIZE bytes
 * (MPI_CHAR) to rank 0; prints the average time per call over ranks in microseconds, with
 * bandwidth columns. BusBW factor (n-1)/n, on AlgBW = n x SIZE / time (nccl-tests).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o gather gather.c coll.c bench.c && mpirun -np 4 ./gather -m 1:65536
 */
#include "coll.h"

static void gather_op(struct coll *c, size_t size)
{
    MPI_Gather(c->b.sbuf, (int)size, MPI_CHAR, c->b.rbuf, (int)size, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static const struct bench_spec gather_bench = {
    .program = "gather",
    .title = "Gather Latency",
    .summary = "MPI_Gather: each rank sends SIZE bytes to rank 0",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
    .recv_per_rank = true,
};

static const struct coll_spec gather_spec = {
    .bench = &gather_bench,
    .traffic = COLL_TRAFFIC_PER_RANK,
    .op = gather_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&gather_spec, argc, argv);
    MPI_Finalize();
    return status;
}
