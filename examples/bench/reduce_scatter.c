/*
 * reduce_scatter.c - OSU-style MPI reduce_scatter latency test: MPI_Reduce_scatter of a vector of
 * SIZE bytes on each rank (MPI_CHAR with MPI_SUM); as in OSU, rank i receives SIZE / n bytes, one
 * more for the first SIZE % n ranks (1 byte for the first SIZE ranks when SIZE < n); prints the
 * average time per call over ranks in microseconds, with bandwidth columns. BusBW factor (n-1)/n
 * (nccl-tests).
 *
 * Plain MPI, built with any MPI's wrapper (see bench.h and coll.h):
 *   mpicc -O2 -o reduce_scatter reduce_scatter.c coll.c bench.c &&
 *     mpirun -np 4 ./reduce_scatter -m 1:65536
 */
#include "coll.h"

/* As osu_reduce_scatter: SIZE / n bytes each, the remainder to the first ranks. */
static void reduce_scatter_prepare(struct coll *c, size_t size)
{
    int n = c->b.nranks;
    int count = (int)size;
    int i;

    for (i = 0; i < n; i++) {
        if (count < n) {
            c->counts[i] = i < count ? 1 : 0;
        } else {
            c->counts[i] = count / n + (i < count % n ? 1 : 0);
        }
    }
}

static void reduce_scatter_op(struct coll *c, size_t size)
{
    (void)size; /* the counts, set by reduce_scatter_prepare, hold it */
    MPI_Reduce_scatter(c->b.sbuf, c->b.rbuf, c->counts, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
}

static const struct bench_spec reduce_scatter_bench = {
    .program = "reduce_scatter",
    .title = "Reduce_scatter Latency",
    .summary = "MPI_Reduce_scatter of a SIZE-byte vector (MPI_CHAR, MPI_SUM), n shares",
    .kind = BENCH_KIND_COLLECTIVE,
    .ranks = BENCH_RANKS_ANY,
    .column = NULL,
    .column2 = NULL,
};

static const struct coll_spec reduce_scatter_spec = {
    .bench = &reduce_scatter_bench,
    .traffic = COLL_TRAFFIC_REDUCE_SCATTER,
    .op = reduce_scatter_op,
    .prepare = reduce_scatter_prepare,
};

int main(int argc, char **argv)
{
    int status;

    MPI_Init(&argc, &argv);
    status = coll_main(&reduce_scatter_spec, argc, argv);
    MPI_Finalize();
    return status;
}
