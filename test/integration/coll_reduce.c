/*
 * coll_reduce.c - integration test of MPI_Reduce (and MPI_Reduce_local): every root (the
 * 1 MiB cases from the first, middle and last root), counts 0, 1, 37 and about 1 MiB, and every
 * count from 1 to 40 (int sum and both user ops) from the first, middle and last root,
 * with and without MPI_IN_PLACE at the root, for MPI_SUM, MAX, MIN, PROD, BAND, BOR, BXOR,
 * LAND, LOR and LXOR on ints, SUM, MAX, MIN and PROD on doubles, MAXLOC and MINLOC on
 * MPI_DOUBLE_INT (ties: the lowest index wins), a commutative user op and a non-commutative
 * user op (2x2 matrix product on a derived type) whose result must be the rank-order product;
 * on MPI_COMM_WORLD and on split halves whose rank order is world's reversed.  Results are
 * compared exactly with a local fold in rank order, except a double sum of inexact values
 * (any order allowed: relative 1e-12) and the logical ops (truth only).  150 communicators
 * made, used and freed, after which the process must not hold more mappings (where /proc
 * says).
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_reduce R: ok" per rank, or
 * "FAIL: coll_reduce rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_reduce";
static int rank, size;

#include "p2p_check.h"
#include "coll_remake.h"

#include "coll_types.h"

#include "coll_reductions.h"

static void test_reduce(MPI_Comm comm, int k, long c, int root, int in_place, const void *want,
                        const char *what)
{
    int me;
    void *sbuf, *rbuf = NULL;

    MPI_Comm_rank(comm, &me);
    sbuf = rbuf_alloc(k, c);
    if (me == root) {
        rbuf = rbuf_alloc(k, c + 1);
    }
    fill_contrib(k, me, c, in_place && me == root ? rbuf : sbuf, 0);
    CHECK_MPI(MPI_Reduce(in_place && me == root ? MPI_IN_PLACE : sbuf, rbuf, (int)c, rtype[k],
                         rop[k], root, comm));
    if (me == root) {
        check_against(k, rbuf, want, c, 0, what, __LINE__);
        for (size_t b = 0; b < rsize[k]; b++) {
            CHECK(((unsigned char *)AT(k, rbuf, c))[b] == RFILL);
        }
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
            if (rcounts[c] < 0 && !big_case(k)) {
                continue;
            }
            long cnt = rcount(k, c);
            void *want = expect_all(k, cnt, 0, 0, n - 1);

            for (int root = 0; root < n; root++) {
                if (rcounts[c] < 0 && !big_root(root, n)) {
                    continue;
                }
                test_reduce(comm, k, cnt, root, 0, want, what);
                test_reduce(comm, k, cnt, root, 1, want, what);
            }
            free(want);
        }
    }
}

/* Every count from 1 to 40, to the first, middle and last root: catches algorithms that split
 * the vector into pieces per rank and get a remainder wrong. */
static void test_counts(MPI_Comm comm, const char *what)
{
    int n;
    const int ks[] = {R_ISUM, R_USER_COMM, R_USER_MAT};

    MPI_Comm_size(comm, &n);
    for (size_t j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
        for (long c = 1; c <= 40; c++) {
            void *want = expect_all(ks[j], c, 0, 0, n - 1);

            for (int root = 0; root < n; root++) {
                if (big_root(root, n)) {
                    test_reduce(comm, ks[j], c, root, (int)(c % 2), want, what);
                }
            }
            free(want);
        }
    }
}

/* MPI_Reduce_local applies an op the same way, in and inout in that order. */
static void test_reduce_local(void)
{
    int a[4], b[4], want[4];

    contrib(R_USER_MAT, 1, 0, a);
    contrib(R_USER_MAT, 2, 0, b);
    memcpy(want, b, sizeof(want));
    fold(R_USER_MAT, a, want);
    CHECK_MPI(MPI_Reduce_local(a, b, 1, mat_type, rop[R_USER_MAT]));
    CHECK(memcmp(b, want, sizeof(want)) == 0);
}

/* Communicators made, used and freed many times: nothing may pile up. */
static void remake_use(MPI_Comm c, int i)
{
    int v = rank + i, sum = -1, n, me;

    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &me);
    CHECK_MPI(MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, n - 1, c));
    CHECK(me != n - 1 || sum >= v);
}

int main(int argc, char **argv)
{
    MPI_Comm rev;
    int commute = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    red_init();
    CHECK_MPI(MPI_Op_commutative(rop[R_USER_MAT], &commute));
    CHECK(commute == 0);
    CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1);

    test_all(MPI_COMM_WORLD, "reduce");
    test_counts(MPI_COMM_WORLD, "reduce (counts)");
    /* Rank order is the communicator's: here world's reversed, in uneven halves. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &rev));
    test_all(rev, "reduce (reversed split)");
    test_counts(rev, "reduce (reversed split, counts)");
    CHECK_MPI(MPI_Comm_free(&rev));
    test_reduce_local();
    remake_check(remake_use);

    red_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
