/*
 * coll_gather.c - integration test of MPI_Gather and MPI_Gatherv: every root (the 1 MiB
 * case from the first, middle and last root), on MPI_COMM_WORLD, on split halves with reversed
 * ranks and on all ranks dealt round-robin (neighbours apart), counts 0, 1, 37 and about 1 MiB
 * in all, with int, double and a strided vector type, with and without MPI_IN_PLACE at the
 * root; Gatherv with uneven (some empty) blocks stored in reverse rank order with gaps that
 * must stay untouched; senders using a contiguous type of the same signature as the root's
 * receive type.
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_gather R: ok" per rank, or
 * "FAIL: coll_gather rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_gather";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

static const long counts[] = {0, 1, 37, -1}; /* -1: about 1 MiB in all */

static void test_gather(MPI_Comm comm, int t, long c, int root, int in_place)
{
    const char *what = in_place ? "gather in place" : "gather";
    void *sbuf = tbuf(t, c, SFILL), *rbuf = NULL;
    int me, n;
    long total;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    total = c * n;
    for (long i = 0; i < c; i++) {
        put(sbuf, t, i, val(me, root, i));
    }
    if (me == root) {
        rbuf = tbuf(t, total + 1, RFILL);
        if (in_place) {
            for (long i = 0; i < c; i++) {
                put(rbuf, t, me * c + i, val(me, root, i));
            }
        }
    }
    CHECK_MPI(MPI_Gather(in_place && me == root ? MPI_IN_PLACE : sbuf, (int)c, types[t], rbuf,
                         (int)c, types[t], root, comm));
    if (me == root) {
        for (int r = 0; r < n; r++) {
            for (long i = 0; i < c; i++) {
                expect_elem(rbuf, t, r * c + i, val(r, root, i), what, __LINE__);
            }
        }
        expect_untouched(rbuf, t, total, what, __LINE__);
    }
    free(sbuf);
    free(rbuf);
}

static void test_gatherv(MPI_Comm comm, int t, long c, int root, int in_place)
{
    const char *what = in_place ? "gatherv in place" : "gatherv";
    int me, n, *rcounts, *displs;
    long total;
    void *sbuf, *rbuf = NULL;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    rcounts = malloc(sizeof(int) * (size_t)n);
    displs = malloc(sizeof(int) * (size_t)n);
    CHECK(rcounts != NULL && displs != NULL);
    total = vlayout(n, c, rcounts, displs);
    sbuf = tbuf(t, vcount(me, c), SFILL);
    for (long i = 0; i < vcount(me, c); i++) {
        put(sbuf, t, i, val(me, root, i));
    }
    if (me == root) {
        rbuf = tbuf(t, total, RFILL);
        if (in_place) {
            for (long i = 0; i < rcounts[me]; i++) {
                put(rbuf, t, displs[me] + i, val(me, root, i));
            }
        }
    }
    CHECK_MPI(MPI_Gatherv(in_place && me == root ? MPI_IN_PLACE : sbuf, vcount(me, c), types[t],
                          rbuf, rcounts, displs, types[t], root, comm));
    if (me == root) {
        for (int r = 0; r < n; r++) {
            for (long i = 0; i < rcounts[r]; i++) {
                expect_elem(rbuf, t, displs[r] + i, val(r, root, i), what, __LINE__);
            }
            expect_untouched(rbuf, t, displs[r] + rcounts[r], what, __LINE__);
        }
    }
    free(sbuf);
    free(rbuf);
    free(rcounts);
    free(displs);
}

/* Non-root ranks send one contiguous block of 37 ints; the root receives 37 MPI_INT each. */
static void test_mixed_types(void)
{
    enum { N = 37 };
    MPI_Datatype block;
    int sbuf[N], *rbuf = malloc(sizeof(int) * N * (size_t)size);

    CHECK(rbuf != NULL);
    CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &block));
    CHECK_MPI(MPI_Type_commit(&block));
    for (int i = 0; i < N; i++) {
        sbuf[i] = val(rank, 77, i);
    }
    CHECK_MPI(MPI_Gather(sbuf, 1, block, rbuf, N, MPI_INT, size - 1, MPI_COMM_WORLD));
    if (rank == size - 1) {
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < N; i++) {
                CHECK(rbuf[r * N + i] == val(r, 77, i));
            }
        }
    }
    CHECK_MPI(MPI_Type_free(&block));
    free(rbuf);
}

/* Every case on COMM, from every root (the 1 MiB ones from the first, middle and last). */
static void test_all(MPI_Comm comm)
{
    int n;

    MPI_Comm_size(comm, &n);
    for (int t = 0; t < NTYPES; t++) {
        for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
            long c = counts[k] < 0 ? big_count(t, n) : counts[k];

            for (int root = 0; root < n; root++) {
                if (counts[k] < 0 && !big_root(root, n)) {
                    continue;
                }
                for (int in_place = 0; in_place < 2; in_place++) {
                    test_gather(comm, t, c, root, in_place);
                    test_gatherv(comm, t, c, root, in_place);
                }
            }
        }
    }
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
