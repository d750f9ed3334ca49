/*
 * coll_scan.c - integration test of MPI_Scan and MPI_Exscan: counts 0, 1, 37 and
 * about 1 MiB, with and without MPI_IN_PLACE, for MPI_SUM, MAX, MIN, PROD, BAND, BOR, BXOR,
 * LAND, LOR and LXOR on ints, SUM, MAX, MIN and PROD on doubles, MAXLOC and MINLOC on
 * MPI_DOUBLE_INT, a commutative user op and a non-commutative user op (2x2 matrix product on
 * a derived type) whose result must be the rank-order prefix product; on MPI_COMM_WORLD,
 * split halves whose rank order is world's reversed and MPI_COMM_SELF.  Rank r must get the
 * fold over ranks 0..r (Scan) or 0..r-1 (Exscan; rank 0's result is undefined and not
 * checked, but nothing past the count may be written), compared exactly, except a double
 * sum of inexact values (relative 1e-12) and the logical ops (truth only).
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_scan R: ok" per rank, or
 * "FAIL: coll_scan rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_scan";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

#include "coll_reductions.h"

/* Scan: rank r gets the fold over ranks 0..r; Exscan: over 0..r-1, and nothing defined (so
 * nothing checked) on rank 0. */
static void test_scan(MPI_Comm comm, int k, long c, int ex, int in_place, const char *what)
{
    int me;
    void *sbuf = rbuf_alloc(k, c), *rbuf = rbuf_alloc(k, c + 1), *want = NULL;

    MPI_Comm_rank(comm, &me);
    fill_contrib(k, me, c, in_place ? rbuf : sbuf, 0);
    if (ex) {
        CHECK_MPI(MPI_Exscan(in_place ? MPI_IN_PLACE : sbuf, rbuf, (int)c, rtype[k], rop[k], comm));
    } else {
        CHECK_MPI(MPI_Scan(in_place ? MPI_IN_PLACE : sbuf, rbuf, (int)c, rtype[k], rop[k], comm));
    }
    if (!ex || me > 0) {
        want = expect_all(k, c, 0, 0, ex ? me - 1 : me);
        check_against(k, rbuf, want, c, 0, what, __LINE__);
        free(want);
    }
    for (size_t b = 0; b < rsize[k]; b++) {
        CHECK(((unsigned char *)AT(k, rbuf, c))[b] == RFILL);
    }
    free(sbuf);
    free(rbuf);
}

static void test_all(MPI_Comm comm, const char *what)
{
    for (int k = 0; k < NCASES; k++) {
        for (size_t c = 0; c < sizeof(rcounts) / sizeof(rcounts[0]); c++) {
            if (rcounts[c] < 0 && !big_case(k)) {
                continue;
            }
            for (int ex = 0; ex < 2; ex++) {
                test_scan(comm, k, rcount(k, c), ex, 0, what);
                test_scan(comm, k, rcount(k, c), ex, 1, what);
            }
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

    test_all(MPI_COMM_WORLD, "scan");
    /* Rank order is the communicator's: here world's reversed, in uneven halves. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &rev));
    test_all(rev, "scan (reversed split)");
    CHECK_MPI(MPI_Comm_free(&rev));
    test_all(MPI_COMM_SELF, "scan (self)");

    red_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
