/*
 * coll_allgather.c - integration test of MPI_Allgather and MPI_Allgatherv: counts 0, 1,
 * 37 and about 1 MiB in all, with int, double and a strided vector type, with and without
 * MPI_IN_PLACE, on MPI_COMM_WORLD, on split halves with reversed ranks and on all ranks dealt
 * round-robin (neighbours apart); Allgatherv with uneven (some empty) blocks stored in reverse
 * rank order with gaps that must stay untouched; senders using a contiguous type of the same
 * signature as the receive type.
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_allgather R: ok" per rank, or
 * "FAIL: coll_allgather rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_allgather";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

static const long counts[] = {0, 1, 37, -1}; /* -1: about 1 MiB in all */

static void test_allgather(MPI_Comm comm, int t, long c, int in_place)
{
    const char *what = in_place ? "allgather in place" : "allgather";
    int me, n;
    void *sbuf = tbuf(t, c, SFILL), *rbuf;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    rbuf = tbuf(t, c * n + 1, RFILL);
    for (long i = 0; i < c; i++) {
        put(in_place ? rbuf : sbuf, t, (in_place ? me * c : 0) + i, val(me, n, i));
    }
    CHECK_MPI(MPI_Allgather(in_place ? MPI_IN_PLACE : sbuf, (int)c, types[t], rbuf, (int)c,
                            types[t], comm));
    for (int r = 0; r < n; r++) {
        for (long i = 0; i < c; i++) {
            expect_elem(rbuf, t, r * c + i, val(r, n, i), what, __LINE__);
        }
    }
    expect_untouched(rbuf, t, c * n, what, __LINE__);
    free(sbuf);
    free(rbuf);
}

static void test_allgatherv(MPI_Comm comm, int t, long c, int in_place)
{
    const char *what = in_place ? "allgatherv in place" : "allgatherv";
    int me, n, *rcounts, *displs;
    long total;
    void *sbuf, *rbuf;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    rcounts = malloc(sizeof(int) * (size_t)n);
    displs = malloc(sizeof(int) * (size_t)n);
    CHECK(rcounts != NULL && displs != NULL);
    total = vlayout(n, c, rcounts, displs);
    sbuf = tbuf(t, rcounts[me], SFILL);
    rbuf = tbuf(t, total, RFILL);
    for (long i = 0; i < rcounts[me]; i++) {
        put(in_place ? rbuf : sbuf, t, (in_place ? displs[me] : 0) + i, val(me, n, i));
    }
    CHECK_MPI(MPI_Allgatherv(in_place ? MPI_IN_PLACE : sbuf, rcounts[me], types[t], rbuf, rcounts,
                             displs, types[t], comm));
    for (int r = 0; r < n; r++) {
        for (long i = 0; i < rcounts[r]; i++) {
            expect_elem(rbuf, t, displs[r] + i, val(r, n, i), what, __LINE__);
        }
        expect_untouched(rbuf, t, displs[r] + rcounts[r], what, __LINE__);
    }
    free(sbuf);
    free(rbuf);
    free(rcounts);
    free(displs);
}

static void test_all(MPI_Comm comm)
{
    int n;

    MPI_Comm_size(comm, &n);
    for (int t = 0; t < NTYPES; t++) {
        for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
            long c = counts[k] < 0 ? big_count(t, n) : counts[k];

            for (int in_place = 0; in_place < 2; in_place++) {
                test_allgather(comm, t, c, in_place);
                test_allgatherv(comm, t, c, in_place);
            }
        }
    }
}

/* Senders use one contiguous type of 37 ints; receivers take 37 MPI_INT per rank. */
static void test_mixed_types(void)
{
    enum { N = 37 };
    MPI_Datatype block;
    int sbuf[N], *rbuf = malloc(sizeof(int) * N * (size_t)size);

    CHECK(rbuf != NULL);
    CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &block));
    CHECK_MPI(MPI_Type_commit(&block));
    for (int i = 0; i < N; i++) {
        sbuf[i] = val(rank, 66, i);
    }
    CHECK_MPI(MPI_Allgather(sbuf, 1, block, rbuf, N, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < N; i++) {
            CHECK(rbuf[r * N + i] == val(r, 66, i));
        }
    }
    CHECK_MPI(MPI_Type_free(&block));
    free(rbuf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    types_init();

    test_comms(test_all);
    test_mixed_types();

    types_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
