/*
 * rma_passive.c - integration test of passive-target progress: rank 0 computes for BUSY
 * seconds without calling MPI while every other rank locks its window (exclusive, then shared,
 * then lock_all), puts, gets and accumulates, and unlocks.  Each origin times its epochs and
 * prints the times: an MPI that progresses passive targets on its own finishes them while the
 * target computes, one that does not finishes them when the target next calls MPI.  Only the
 * data is checked, never the times; the target checks its window after a barrier.
 *
 *   rma_passive [BUSY]     (seconds, default 0.5; any number of ranks >= 1)
 *
 * Plain portable MPI-3.1.  Prints "rma_passive R: ok" per rank (origins first print
 * "rma_passive R: epochs ... s"), or "FAIL: rma_passive rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *prog = "rma_passive";
static int rank, size;

#include "rma_check.h"

enum {
    N = 32,   /* ints each origin puts */
    SUM = 0,  /* int slot: the accumulated sum */
    GETS = 8, /* N ints the origins read */
    PUTS = 64 /* each origin's N ints from here: PUTS + (rank - 1) * N */
};

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int val(int r, int i)
{
    return r * 1000 + i + 1;
}

/* Computation the compiler cannot drop, and no MPI call. */
static double busy(double seconds)
{
    volatile double x = 0;
    double end = now() + seconds;

    while (now() < end) {
        for (int i = 0; i < 1000; i++) {
            x += i * 0.5;
        }
    }
    return x;
}

int main(int argc, char **argv)
{
    double seconds = 0.5, t[3];
    MPI_Win win;
    int *base, buf[N], got[N], one;
    MPI_Aint bytes;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) {
        char *end;

        seconds = strtod(argv[1], &end);
        if (*end != '\0' || !(seconds >= 0 && seconds <= 60)) {
            fail(__LINE__, "BUSY '%s' is not a number of seconds from 0 to 60", argv[1]);
        }
    }
    bytes = (MPI_Aint)(PUTS + size * N) * (MPI_Aint)sizeof(int);
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    memset(base, 0, (size_t)bytes);
    for (int i = 0; i < N; i++) {
        base[GETS + i] = val(rank, i);
    }
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        if (busy(seconds) < 0) {
            fail(__LINE__, "the busy loop went wrong");
        }
    } else {
        double start;

        for (int i = 0; i < N; i++) {
            buf[i] = val(rank, i);
        }
        one = rank;
        start = now();
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Put(buf, N, MPI_INT, 0, PUTS + (rank - 1) * N, N, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
        t[0] = now() - start;
        start = now();
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK_MPI(MPI_Get(got, N, MPI_INT, 0, GETS, N, MPI_INT, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, SUM, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
        t[1] = now() - start;
        for (int i = 0; i < N; i++) {
            if (got[i] != val(0, i)) {
                fail(__LINE__, "get element %d is %d, expected %d", i, got[i], val(0, i));
            }
        }
        start = now();
        CHECK_MPI(MPI_Win_lock_all(0, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, SUM, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &got[0], MPI_INT, 0, SUM, MPI_NO_OP, win));
        CHECK_MPI(MPI_Win_unlock_all(win));
        t[2] = now() - start;
        if (got[0] < 2 * rank || got[0] > size * (size - 1)) {
            fail(__LINE__, "the sum read after our flushed accumulates is %d, not from %d to %d",
                 got[0], 2 * rank, size * (size - 1));
        }
        printf("%s %d: epochs exclusive %.3f s, shared %.3f s, lock_all %.3f s (target busy "
               "%.3f s)\n",
               prog, rank, t[0], t[1], t[2], seconds);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        for (int r = 1; r < size; r++) {
            for (int i = 0; i < N; i++) {
                if (base[PUTS + (r - 1) * N + i] != val(r, i)) {
                    fail(__LINE__, "element %d put by rank %d is %d, expected %d", i, r,
                         base[PUTS + (r - 1) * N + i], val(r, i));
                }
            }
        }
        if (base[SUM] != size * (size - 1)) {
            fail(__LINE__, "the sum is %d, expected %d", base[SUM], size * (size - 1));
        }
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    printf("%s %d: ok\n", prog, rank);
    return 0;
}
