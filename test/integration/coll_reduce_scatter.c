/*
 * coll_reduce_scatter.c - integration test of MPI_Reduce_scatter and
 * MPI_Reduce_scatter_block: per-rank counts 0, 1, 37 and about 1 MiB in all (Reduce_scatter
 * with uneven counts, some ranks getting none), with and without MPI_IN_PLACE, for MPI_SUM,
 * MAX, MIN, PROD, BAND, BOR, BXOR, LAND, LOR and LXOR on ints, SUM, MAX, MIN and PROD on
 * doubles, MAXLOC and MINLOC on MPI_DOUBLE_INT, a commutative user op and a non-commutative
 * user op (2x2 matrix product on a derived type) whose result must be the rank-order product;
 * on MPI_COMM_WORLD, split halves whose rank order is world's reversed, all ranks dealt
 * round-robin (neighbours apart) and MPI_COMM_SELF.
 * Results are compared exactly with a local fold in rank order, except a double sum of
 * inexact values (relative 1e-12) and the logical ops (truth only).
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_reduce_scatter R: ok" per rank, or
 * "FAIL: coll_reduce_scatter rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_reduce_scatter";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

#include "coll_reductions.h"

/* Reduce_scatter: rank r gets vcount(r, c) elements (c - 1, c or c + 1: some get none) of the
 * reduction of sum(counts) elements; Reduce_scatter_block: c each. */
static void test_rs(MPI_Comm comm, int k, long c, int block, int in_place, const void *want,
                    const char *what)
{
    int me, n, *counts;
    long total = 0, first = 0;
    void *sbuf, *rbuf;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    counts = malloc(sizeof(int) * (size_t)n);
    CHECK(counts != NULL);
    for (int r = 0; r < n; r++) {
        counts[r] = block ? (int)c : vcount(r, c);
        if (r < me) {
            first += counts[r];
        }
        total += counts[r];
    }
    sbuf = rbuf_alloc(k, total);
    rbuf = rbuf_alloc(k, (in_place ? total : counts[me]) + 1);
    fill_contrib(k, me, total, in_place ? rbuf : sbuf, 0);
    if (block) {
        CHECK_MPI(MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : sbuf, rbuf, (int)c, rtype[k],
                                           rop[k], comm));
    } else {
        CHECK_MPI(MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : sbuf, rbuf, counts, rtype[k], rop[k],
                                     comm));
    }
    check_against(k, rbuf, AT(k, want, first), counts[me], first, what, __LINE__);
    if (!in_place) {
        for (size_t b = 0; b < rsize[k]; b++) {
            CHECK(((unsigned char *)AT(k, rbuf, counts[me]))[b] == RFILL);
        }
    }
    free(sbuf);
    free(rbuf);
    free(counts);
}

static void test_all(MPI_Comm comm, const char *what)
{
    int n;

    MPI_Comm_size(comm, &n);
    for (int k = 0; k < NCASES; k++) {
        for (size_t c = 0; c < sizeof(rcounts) / sizeof(rcounts[0]); c++) {
            long cnt, total;
            void *want;

            if (rcounts[c] < 0 && !big_case(k)) {
                continue;
            }
            cnt = rcounts[c] < 0 ? rcount(k, c) / n : rcounts[c];
            total = (cnt + 1) * n; /* covers both layouts */
            want = expect_all(k, total, 0, 0, n - 1);
            for (int in_place = 0; in_place < 2; in_place++) {
                test_rs(comm, k, cnt, 0, in_place, want, what);
                test_rs(comm, k, cnt, 1, in_place, want, what);
            }
            free(want);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Comm rev;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    red_init();

    test_all(MPI_COMM_WORLD, "reduce_scatter");
    /* Rank order is the communicator's: here world's reversed, in uneven halves. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &rev));
    test_all(rev, "reduce_scatter (reversed split)");
    CHECK_MPI(MPI_Comm_free(&rev));
    /* Neighbours in world apart: a host's ranks are not consecutive. */
    rev = dealt_comm(MPI_COMM_WORLD);
    test_all(rev, "reduce_scatter (dealt)");
    CHECK_MPI(MPI_Comm_free(&rev));
    test_all(MPI_COMM_SELF, "reduce_scatter (self)");

    red_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
