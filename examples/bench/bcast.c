/*
 * bcast.c - OSU-style MPI broadcast latency test: MPI_Bcast of SIZE bytes (MPI_CHAR) from rank 0
 * to all ranks; prints the average time per call over ranks in microseconds, with bandwidth
 * columns. BusBW factor 1 (nccl-tests).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o bcast bcast.c coll.c bench.c && mpirun -np 4 ./bcast -m 1:65536
 */
#include "coll.h"

static void bcast_op(struct coll *c, size_t size)
{
    MPI_Bcast(c->b.sbuf, (int)size, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static const struct bench_spec bcast_bench = {
    .program = "bcast",
    .title = "Broadcast Latency",
    .summary = "MPI_Bcast of SIZE bytes from rank 0",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
};

static const struct coll_spec bcast_spec = {
    .bench = &bcast_bench,
    .traffic = COLL_TRAFFIC_ROOTED,
    .op = bcast_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&bcast_spec, argc, argv);
    MPI_Finalize();
    return status;
}
