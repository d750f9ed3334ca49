/*
 * iallreduce.c - OSU-style MPI nonblocking allreduce test: MPI_Iallreduce of SIZE bytes
 * (MPI_CHAR with MPI_SUM) over all ranks, then MPI_Wait; prints the average time from post to
 * completion over ranks in microseconds, with bandwidth columns (BusBW factor 2(n-1)/n, as
 * allreduce).  With -c, also OSU's overlap phase (post, compute as long as the call takes,
 * wait): overall, compute and pure communication times and the overlap percentage.
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o iallreduce iallreduce.c coll.c bench.c && mpirun -np 4 ./iallreduce -c
 */
#include "coll.h"

static void iallreduce_start(struct coll *c, size_t size)
{
    MPI_Iallreduce(c->b.sbuf, c->b.rbuf, (int)size, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD, &c->request);
}

static void iallreduce_finish(struct coll *c, size_t size)
{
    (void)size;
    MPI_Wait(&c->request, MPI_STATUS_IGNORE);
}

static void iallreduce_op(struct coll *c, size_t size)
{
    iallreduce_start(c, size);
    iallreduce_finish(c, size);
}

static const struct bench_spec iallreduce_bench = {
    .program = "iallreduce",
    .title = "Non-blocking Allreduce Latency",
    .summary = "MPI_Iallreduce of SIZE bytes (MPI_CHAR, MPI_SUM), then MPI_Wait",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
    .nonblocking = true,
};

static const struct coll_spec iallreduce_spec = {
    .bench = &iallreduce_bench,
    .traffic = COLL_TRAFFIC_ALLREDUCE,
    .op = iallreduce_op,
    .prepare = NULL,
    .start = iallreduce_start,
    .finish = iallreduce_finish,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&iallreduce_spec, argc, argv);
    MPI_Finalize();
    return status;
}
