/*
 * barrier.c - OSU-style MPI barrier latency test: MPI_Barrier over all ranks; no sizes, no
 * bandwidth; prints the average time per call over ranks in microseconds.
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o barrier barrier.c coll.c bench.c && mpirun -np 4 ./barrier
 */
#include "coll.h"

static void barrier_op(struct coll *c, size_t size)
{
    (void)c;
    (void)size;
    MPI_Barrier(MPI_COMM_WORLD);
}

static const struct bench_spec barrier_bench = {
    .program = "barrier",
    .title = "Barrier Latency",
    .summary = "MPI_Barrier on all ranks",
    .kind = BENCH_KIND_BARRIER,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
};

static const struct coll_spec barrier_spec = {
    .bench = &barrier_bench,
    .traffic = COLL_TRAFFIC_NONE,
    .op = barrier_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&barrier_spec, argc, argv);
    MPI_Finalize();
    return status;
}
