/*
 * alltoall.c - OSU-style MPI all-to-all personalized exchange latency test: MPI_Alltoall with SIZE
 * bytes (MPI_CHAR) from each rank to each rank (n x SIZE sent and received per rank); prints the
 * average time per call over ranks in microseconds, with bandwidth columns. BusBW factor (n-1)/n,
 * on AlgBW = n x SIZE / time (nccl-tests).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o alltoall alltoall.c coll.c bench.c && mpirun -np 4 ./alltoall -m 1:65536
 */
#include "coll.h"

static void alltoall_op(struct coll *c, size_t size)
{
    MPI_Alltoall(c->b.sbuf, (int)size, MPI_CHAR, c->b.rbuf, (int)size, MPI_CHAR, MPI_COMM_WORLD);
}

static const struct bench_spec alltoall_bench = {
    .program = "alltoall",
    .title = "All-to-All Personalized Exchange Latency",
    .summary = "MPI_Alltoall: SIZE bytes from each rank to each rank",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
    .send_per_rank = true,
    .recv_per_rank = true,
};

static const struct coll_spec alltoall_spec = {
    .bench = &alltoall_bench,
    .traffic = COLL_TRAFFIC_PER_RANK,
    .op = alltoall_op,
    .prepare = NULL,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&alltoall_spec, argc, argv);
    MPI_Finalize();
    return status;
}
