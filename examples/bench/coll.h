/*
 * coll.h - the harness shared by comm's OSU-style collective benchmarks (examples/bench/):
 * one timing loop, statistics over ranks and the output with bandwidth columns, on top of
 * bench.h's options and buffers.
 *
 * Each program (allreduce.c, bcast.c, ...) is a constant struct coll_spec and a main that
 * returns coll_main().  As in OSU, every iteration is timed on its own, with a point-to-point
 * barrier (bench_barrier) between iterations; each rank averages its timed iterations, and rank
 * 0 prints the average over ranks (with -f also the minimum and maximum over ranks and the
 * iteration count).  A nonblocking collective's -c adds OSU's overlap phase: post, compute
 * (a busy loop) as long as the call took, wait; it reports the overall, compute and pure
 * communication times and the overlap percentage instead of bandwidth.  The statistics travel
 * by point-to-point messages, not MPI_Reduce, so that a benchmark calls the one collective it
 * measures and no other (see bench.h).
 *
 * Size is the per-rank message as OSU defines it for the collective (COLL_TRAFFIC_*), and the
 * datatype is MPI_CHAR, with MPI_SUM for reductions.  Bandwidth follows nccl-tests
 * (doc/PERFORMANCE.md there): AlgBW = bytes / time, where bytes is the whole buffer nccl-tests
 * counts (n x size when OSU's size is one rank's share), and BusBW = AlgBW x a factor per
 * collective that makes it comparable with the link's bandwidth.  GB = 1e9 bytes.
 *
 * Single-threaded; struct coll is owned by coll_main.
 */
#ifndef COLL_H
#define COLL_H

#include "bench.h"

/* How a collective's bytes are counted for AlgBW, and BusBW's factor (n ranks). */
enum coll_traffic {
    COLL_TRAFFIC_NONE,           /* barrier: no size, no bandwidth columns */
    COLL_TRAFFIC_ROOTED,         /* bcast, reduce: AlgBW = size / t; factor 1 */
    COLL_TRAFFIC_ALLREDUCE,      /* AlgBW = size / t; factor 2(n-1)/n */
    COLL_TRAFFIC_REDUCE_SCATTER, /* size is the whole vector each rank sends, n shares of it:
                                    AlgBW = size / t; factor (n-1)/n */
    COLL_TRAFFIC_PER_RANK,       /* size is one rank's share (allgather, gather, scatter) or one
                                    pair's (alltoall): AlgBW = n x size / t; factor (n-1)/n */
};

/* One benchmark's state; the op and prepare functions may use counts and displs. */
struct coll {
    struct bench b;
    int *counts;         /* n entries: for the variable-count collectives (reduce_scatter) */
    int *displs;         /* n entries */
    MPI_Request request; /* the nonblocking collective in flight, between start and finish */
};

/* One call of the collective on SIZE bytes, complete on return (timed). */
typedef void (*coll_op_fn)(struct coll *c, size_t size);
/* Untimed set-up for SIZE before its iterations (counts, for instance). */
typedef void (*coll_prepare_fn)(struct coll *c, size_t size);

/* What one collective benchmark is; a constant in each program. */
struct coll_spec {
    const struct bench_spec *bench; /* kind BENCH_KIND_COLLECTIVE or _BARRIER, ranks _ANY,
                                       column NULL */
    enum coll_traffic traffic;
    coll_op_fn op;
    coll_prepare_fn prepare; /* or NULL */
    coll_op_fn start;        /* nonblocking (bench.nonblocking set): post, and complete; */
    coll_op_fn finish;       /* op is the two in a row.  NULL for blocking collectives. */
};

/*
 * The whole program between MPI_Init and MPI_Finalize, which main calls around it: options,
 * buffers, the sweep over sizes and the output.  Returns main's exit status (enum
 * bench_status): 0, or 2 after rank 0 printed why the command line or the number of ranks is
 * refused.  Every rank returns the same status, without a hang.
 */
int coll_main(const struct coll_spec *spec, int argc, char **argv);

#endif
