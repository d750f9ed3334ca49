/*
 * rma_atomic.c - integration test of the atomicity of overlapping accumulates: every rank
 * updates the same locations of one target, ITERS times each, and the results must be exact.
 *   - a ticket counter taken with MPI_Fetch_and_op (every ticket distinct, none missing) and a
 *     sum with MPI_Accumulate, under lock_all, under exclusive locks and under fence;
 *   - a spin lock built from MPI_Compare_and_swap guarding a plain get/put counter;
 *   - multi-element MPI_Accumulate of MPI_DOUBLE_INT with MPI_MAXLOC from every origin.
 *
 *   rma_atomic [ITERS]     (default 30; any number of ranks >= 1)
 *
 * Plain portable MPI-3.1.  Prints "rma_atomic R: ok" per rank, or "FAIL: rma_atomic rank R:
 * ..." and aborts.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "rma_atomic";
static int rank, size;

#include "rma_check.h"

enum {
    TICKET = 0, /* int slots of the target's window */
    SUM = 1,
    LOCKVAR = 2,
    GUARDED = 3,
    PAIRS = 8, /* bytes 32.., MPI_DOUBLE_INT elements */
    NPAIRS = 32,
};

struct double_int {
    double v;
    int i;
};

static MPI_Win win;
static int *base;
static int target;
static long iters;

static void reset(void)
{
    struct double_int *p = (struct double_int *)(base + PAIRS);

    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    memset(base, 0, 8 * sizeof(int));
    for (int i = 0; i < NPAIRS; i++) {
        p[i].v = -1;
        p[i].i = -1;
    }
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* The target checks the ticket and sum totals; rank 0 checks that the tickets are distinct. */
static void check_counts(const int *tickets, const char *how)
{
    long n = (long)size * iters;
    int *all = rank == 0 ? malloc(sizeof(int) * (size_t)n) : NULL;
    char *seen = rank == 0 ? calloc((size_t)n, 1) : NULL;

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == target) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        if (base[TICKET] != n) {
            fail(__LINE__, "%s: ticket counter is %d, expected %ld", how, base[TICKET], n);
        }
        if (base[SUM] != iters * size * (size + 1) / 2) {
            fail(__LINE__, "%s: sum is %d, expected %ld", how, base[SUM],
                 iters * size * (size + 1) / 2);
        }
        CHECK_MPI(MPI_Win_unlock(rank, win));
    }
    CHECK_MPI(
        MPI_Gather(tickets, (int)iters, MPI_INT, all, (int)iters, MPI_INT, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK(all != NULL && seen != NULL);
        for (long k = 0; k < n; k++) {
            if (all[k] < 0 || all[k] >= n || seen[all[k]]) {
                fail(__LINE__, "%s: ticket %d (of rank %ld) is out of range or taken twice", how,
                     all[k], k / iters);
            }
            seen[all[k]] = 1;
        }
    }
    free(all);
    free(seen);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void test_counters(void)
{
    int *tickets = malloc(sizeof(int) * (size_t)iters), one = 1, mine = rank + 1;

    CHECK(tickets != NULL);
    reset();
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (long k = 0; k < iters; k++) {
        CHECK_MPI(MPI_Fetch_and_op(&one, &tickets[k], MPI_INT, target, TICKET, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(&mine, 1, MPI_INT, target, SUM, 1, MPI_INT, MPI_SUM, win));
        if (k % 8 == 0) {
            CHECK_MPI(MPI_Win_flush(target, win));
        }
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    check_counts(tickets, "lock_all");

    reset();
    for (long k = 0; k < iters; k++) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &tickets[k], MPI_INT, target, TICKET, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(&mine, 1, MPI_INT, target, SUM, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_unlock(target, win));
    }
    check_counts(tickets, "exclusive lock");

    reset();
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (long k = 0; k < iters; k++) {
        CHECK_MPI(MPI_Get_accumulate(&one, 1, MPI_INT, &tickets[k], 1, MPI_INT, target, TICKET, 1,
                                     MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(&mine, 1, MPI_INT, target, SUM, 1, MPI_INT, MPI_SUM, win));
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    check_counts(tickets, "fence");
    free(tickets);
}

/* A spin lock: MPI_Compare_and_swap takes it (0 -> rank + 1) and MPI_Fetch_and_op with
 * MPI_REPLACE frees it; inside it, a plain get, flush, put of the guarded counter. */
static void test_cas_lock(void)
{
    long rounds = iters < 10 ? iters : 10;
    int zero = 0, me = rank + 1, old, count, gone;

    reset();
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (long k = 0; k < rounds; k++) {
        do {
            CHECK_MPI(MPI_Compare_and_swap(&me, &zero, &old, MPI_INT, target, LOCKVAR, win));
            CHECK_MPI(MPI_Win_flush(target, win));
            if (old != 0 && (old < 1 || old > size || old == me)) {
                fail(__LINE__, "the lock holds %d, no rank's value", old);
            }
        } while (old != 0);
        CHECK_MPI(MPI_Get(&count, 1, MPI_INT, target, GUARDED, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(target, win));
        count++;
        CHECK_MPI(MPI_Put(&count, 1, MPI_INT, target, GUARDED, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(target, win));
        CHECK_MPI(MPI_Fetch_and_op(&zero, &gone, MPI_INT, target, LOCKVAR, MPI_REPLACE, win));
        CHECK_MPI(MPI_Win_flush(target, win));
        if (gone != me) {
            fail(__LINE__, "the lock held %d while this rank (%d) had it", gone, me);
        }
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == target) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        if (base[GUARDED] != size * rounds || base[LOCKVAR] != 0) {
            fail(__LINE__, "guarded counter %d, lock %d; expected %ld and 0", base[GUARDED],
                 base[LOCKVAR], size * rounds);
        }
        CHECK_MPI(MPI_Win_unlock(rank, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static double pair_value(int r, long k, int i)
{
    return (double)((r * 7 + k * 3 + i) % 11);
}

static void test_maxloc(void)
{
    struct double_int mine[NPAIRS], *p = (struct double_int *)(base + PAIRS);
    const char *how[] = {"lock_all", "exclusive lock", "fence"};

    for (int mode = 0; mode < 3; mode++) {
        long rounds = iters < 8 ? iters : 8;

        reset();
        if (mode == 0) {
            CHECK_MPI(MPI_Win_lock_all(0, win));
        } else if (mode == 2) {
            CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
        }
        for (long k = 0; k < rounds; k++) {
            for (int i = 0; i < NPAIRS; i++) {
                mine[i].v = pair_value(rank, k, i);
                mine[i].i = rank;
            }
            if (mode == 1) {
                CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
            }
            CHECK_MPI(MPI_Accumulate(mine, NPAIRS, MPI_DOUBLE_INT, target, PAIRS, NPAIRS,
                                     MPI_DOUBLE_INT, MPI_MAXLOC, win));
            if (mode == 1) {
                CHECK_MPI(MPI_Win_unlock(target, win));
            } else {
                /* The origin buffer is reused next round. */
                if (mode == 0) {
                    CHECK_MPI(MPI_Win_flush_local(target, win));
                } else {
                    CHECK_MPI(MPI_Win_fence(0, win));
                }
            }
        }
        if (mode == 0) {
            CHECK_MPI(MPI_Win_unlock_all(win));
        } else if (mode == 2) {
            CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == target) {
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
            for (int i = 0; i < NPAIRS; i++) {
                double max = -1;
                int at = -1;

                for (long k = 0; k < rounds; k++) {
                    for (int r = 0; r < size; r++) {
                        if (pair_value(r, k, i) > max || (pair_value(r, k, i) == max && r < at)) {
                            max = pair_value(r, k, i);
                            at = r;
                        }
                    }
                }
                if (p[i].v != max || p[i].i != at) {
                    fail(__LINE__, "%s: MPI_MAXLOC element %d is (%g, %d), expected (%g, %d)",
                         how[mode], i, p[i].v, p[i].i, max, at);
                }
            }
            CHECK_MPI(MPI_Win_unlock(rank, win));
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    MPI_Aint bytes = PAIRS * sizeof(int) + NPAIRS * sizeof(struct double_int);

    iters = 30;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) {
        char *end;

        iters = strtol(argv[1], &end, 10);
        if (*end != '\0' || iters < 1 || iters > 1000000) {
            fail(__LINE__, "ITERS '%s' is not a number from 1 to 1000000", argv[1]);
        }
    }
    target = size - 1;
    /* disp_unit sizeof(int): every slot, and the pairs too, addressed in ints. */
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    test_counters();
    test_cas_lock();
    test_maxloc();
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    printf("%s %d: ok\n", prog, rank);
    return 0;
}
