/*
 * coll_allreduce.c - integration test of MPI_Allreduce: counts 0, 1, 37 and
 * about 1 MiB and every count from 1 to 70, with and without MPI_IN_PLACE, for MPI_SUM, MAX,
 * MIN, PROD, BAND, BOR, BXOR, LAND, LOR and LXOR on ints, SUM, MAX, MIN and PROD on doubles,
 * MAXLOC and MINLOC on MPI_DOUBLE_INT (ties: the lowest index wins), a commutative user op
 * and a non-commutative user op (2x2 matrix product on a derived type) whose result must be
 * the rank-order product; on MPI_COMM_WORLD, split halves whose rank order is world's
 * reversed, a duplicate and MPI_COMM_SELF.  Every rank must get the same, exact result of a
 * local fold in rank order, except a double sum of inexact values (any order allowed:
 * relative 1e-12) and the logical ops (truth only).  Then a 16 MiB double sum and max (exact
 * values), allreduces interleaved on three communicators, and 150 communicators made, used
 * and freed, after which the process must not hold more mappings (where /proc says).
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_allreduce R: ok" per rank, or
 * "FAIL: coll_allreduce rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_allreduce";
static int rank, size;

#include "p2p_check.h"
#include "coll_remake.h"

#include "coll_types.h"

#include "coll_reductions.h"

static void test_allreduce(MPI_Comm comm, int k, long c, int in_place, const void *want,
                           const char *what)
{
    int me;
    void *sbuf = rbuf_alloc(k, c), *rbuf = rbuf_alloc(k, c + 1);

    MPI_Comm_rank(comm, &me);
    fill_contrib(k, me, c, in_place ? rbuf : sbuf, 0);
    CHECK_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : sbuf, rbuf, (int)c, rtype[k], rop[k], comm));
    check_against(k, rbuf, want, c, 0, what, __LINE__);
    for (size_t b = 0; b < rsize[k]; b++) {
        CHECK(((unsigned char *)AT(k, rbuf, c))[b] == RFILL);
    }
    free(sbuf);
    free(rbuf);
}

static void test_all(MPI_Comm comm, const char *what)
{
    int n;

    MPI_Comm_size(comm, &n);
    for (int k = 0; k < NCASES; k++) {
        for (size_t c = 0; c < sizeof(rcounts) / sizeof(rcounts[0]); c++) {
            long cnt;
            void *want;

            if (rcounts[c] < 0 && !big_case(k)) {
                continue;
            }
            cnt = rcount(k, c);
            want = expect_all(k, cnt, 0, 0, n - 1);
            test_allreduce(comm, k, cnt, 0, want, what);
            test_allreduce(comm, k, cnt, 1, want, what);
            free(want);
        }
    }
}

/* Every count from 1 to 70 with the non-commutative op and int sum: catches algorithms that
 * split the vector into pieces per rank and get a remainder wrong. */
static void test_counts(MPI_Comm comm, const char *what)
{
    int n;
    const int ks[] = {R_ISUM, R_USER_MAT};

    MPI_Comm_size(comm, &n);
    for (size_t j = 0; j < 2; j++) {
        for (long c = 1; c <= 70; c++) {
            void *want = expect_all(ks[j], c, 0, 0, n - 1);

            test_allreduce(comm, ks[j], c, (int)(c % 2), want, what);
            free(want);
        }
    }
}

/* 16 MiB and a few more bytes of doubles, so an algorithm that works in pieces needs many of
 * them; small integers, so every summation order gives the exact sum.  Then MAX in place. */
static void test_large(MPI_Comm comm, const char *what)
{
    long n = (16L << 20) / (long)sizeof(double) + 3;
    double *sbuf = malloc(sizeof(double) * (size_t)n), *rbuf = malloc(sizeof(double) * (size_t)n);
    int me, np;

    CHECK(sbuf != NULL && rbuf != NULL);
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    for (long i = 0; i < n; i++) {
        sbuf[i] = (double)((me * 7 + i) % 1000);
        rbuf[i] = -1.0;
    }
    CHECK_MPI(MPI_Allreduce(sbuf, rbuf, (int)n, MPI_DOUBLE, MPI_SUM, comm));
    for (long i = 0; i < n; i++) {
        double want = 0.0;

        for (int r = 0; r < np; r++) {
            want += (double)((r * 7 + i) % 1000);
        }
        if (rbuf[i] != want) {
            fail(__LINE__, "%s: sum element %ld of %ld is %g, not %g", what, i, n, rbuf[i], want);
        }
    }
    for (long i = 0; i < n; i++) {
        rbuf[i] = (double)((me * 131 + i * 17) % 4099);
    }
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, rbuf, (int)n, MPI_DOUBLE, MPI_MAX, comm));
    for (long i = 0; i < n; i++) {
        double want = 0.0;

        for (int r = 0; r < np; r++) {
            double v = (double)((r * 131 + i * 17) % 4099);

            want = v > want ? v : want;
        }
        if (rbuf[i] != want) {
            fail(__LINE__, "%s: max element %ld of %ld is %g, not %g", what, i, n, rbuf[i], want);
        }
    }
    free(sbuf);
    free(rbuf);
}

/* Allreduces of several pieces' worth on three communicators at once, interleaved. */
static void test_interleaved(void)
{
    MPI_Comm comms[3];
    const int ks[] = {R_ISUM, R_USER_MAT, R_MAXLOC};
    long cnt = 150001;

    comms[0] = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &comms[2]));
    for (int round = 0; round < 3; round++) {
        for (int j = 0; j < 3; j++) {
            int k = ks[(round + j) % 3], n;
            void *want;

            MPI_Comm_size(comms[j], &n);
            want = expect_all(k, cnt, 0, 0, n - 1);
            test_allreduce(comms[j], k, cnt, (round + j) % 2, want, "allreduce (interleaved)");
            free(want);
        }
    }
    CHECK_MPI(MPI_Comm_free(&comms[2]));
    CHECK_MPI(MPI_Comm_free(&comms[1]));
}

/* Communicators made, used and freed many times: nothing may pile up. */
static void remake_use(MPI_Comm c, int i)
{
    int v = rank + i, sum = -1;

    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum >= v);
}

int main(int argc, char **argv)
{
    MPI_Comm rev, dup;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    red_init();

    test_all(MPI_COMM_WORLD, "allreduce");
    test_counts(MPI_COMM_WORLD, "allreduce (counts)");
    /* Rank order is the communicator's: here world's reversed, in uneven halves. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &rev));
    test_all(rev, "allreduce (reversed split)");
    test_counts(rev, "allreduce (reversed split, counts)");
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    test_counts(dup, "allreduce (dup)");
    CHECK_MPI(MPI_Comm_free(&dup));
    test_counts(MPI_COMM_SELF, "allreduce (self)");
    test_large(MPI_COMM_WORLD, "allreduce (16 MiB)");
    test_interleaved();
    remake_check(remake_use);

    red_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
