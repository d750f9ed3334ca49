/*
 * comm_split.c - how much a short-lived communicator costs: each timed iteration splits
 * MPI_COMM_WORLD (one color, ranks in order), runs a first MPI_Barrier on the new communicator
 * and frees it, as a program that makes a communicator per phase or per solver call does.  No
 * sizes; prints the average time per iteration over ranks in microseconds, like barrier.
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o comm_split comm_split.c coll.c bench.c && mpirun -np 4 ./comm_split
 */
#include "coll.h"

static void comm_split_op(struct coll *c, size_t size)
{
    MPI_Comm comm;
    int rank;

    (void)c;
    (void)size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comm);
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
}

static const struct bench_spec comm_split_bench = {
    .program = "comm_split",
    .title = "Comm_split + Barrier + Comm_free Latency",
    .summary = "MPI_Comm_split of all ranks, a first MPI_Barrier on it, MPI_Comm_free",
    .kind = BENCH_KIND_BARRIER,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
};

static const struct coll_spec comm_split_spec = {
    .bench = &comm_split_bench,
    .traffic = COLL_TRAFFIC_NONE,
    .op = comm_split_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&comm_split_spec, argc, argv);
    MPI_Finalize();
    return status;
}
