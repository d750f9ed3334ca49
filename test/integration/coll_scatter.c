/*
 * coll_scatter.c - integration test of MPI_Scatter and MPI_Scatterv: every root (the
 * 1 MiB case from the first, middle and last root), on MPI_COMM_WORLD, on split halves with
 * reversed ranks and on all ranks dealt round-robin (neighbours apart), counts 0, 1, 37 and
 * about 1 MiB in all, with int, double and a strided vector type, with and without
 * MPI_IN_PLACE at the root (whose receive buffer is then not written, and whose send buffer
 * never changes); Scatterv with uneven (some empty) blocks taken in reverse rank order from a
 * buffer with gaps; receivers using a contiguous type of the same signature as the root's send
 * type.
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_scatter R: ok" per rank, or
 * "FAIL: coll_scatter rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_scatter";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

static const long counts[] = {0, 1, 37, -1}; /* -1: about 1 MiB in all */

static void test_scatter(MPI_Comm comm, int t, long c, int root, int in_place)
{
    const char *what = in_place ? "scatter in place" : "scatter";
    void *sbuf = NULL, *copy = NULL, *rbuf = tbuf(t, c + 1, RFILL);
    int me, n;
    size_t bytes;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    bytes = text[t] * (size_t)(c * n);
    if (me == root) {
        sbuf = tbuf(t, c * n, SFILL);
        for (int r = 0; r < n; r++) {
            for (long i = 0; i < c; i++) {
                put(sbuf, t, r * c + i, val(root, r, i));
            }
        }
        copy = tbuf(t, c * n, 0);
        memcpy(copy, sbuf, bytes);
    }
    CHECK_MPI(MPI_Scatter(sbuf, (int)c, types[t], in_place && me == root ? MPI_IN_PLACE : rbuf,
                          (int)c, types[t], root, comm));
    if (in_place && me == root) {
        /* The root's own block stays where it is in the send buffer; rbuf is not used. */
        expect_untouched(rbuf, t, 0, what, __LINE__);
    } else {
        for (long i = 0; i < c; i++) {
            expect_elem(rbuf, t, i, val(root, me, i), what, __LINE__);
        }
        expect_untouched(rbuf, t, c, what, __LINE__);
    }
    if (me == root && memcmp(sbuf, copy, bytes) != 0) {
        fail(__LINE__, "%s: the root's send buffer changed", what);
    }
    free(sbuf);
    free(copy);
    free(rbuf);
}

static void test_scatterv(MPI_Comm comm, int t, long c, int root, int in_place)
{
    const char *what = in_place ? "scatterv in place" : "scatterv";
    int me, n, mine, *scounts, *displs;
    long total;
    void *sbuf = NULL, *rbuf;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    scounts = malloc(sizeof(int) * (size_t)n);
    displs = malloc(sizeof(int) * (size_t)n);
    CHECK(scounts != NULL && displs != NULL);
    total = vlayout(n, c, scounts, displs);
    mine = vcount(me, c);
    rbuf = tbuf(t, mine + 1, RFILL);
    if (me == root) {
        sbuf = tbuf(t, total, SFILL);
        for (int r = 0; r < n; r++) {
            for (long i = 0; i < scounts[r]; i++) {
                put(sbuf, t, displs[r] + i, val(root, r, i));
            }
        }
    }
    CHECK_MPI(MPI_Scatterv(sbuf, scounts, displs, types[t],
                           in_place && me == root ? MPI_IN_PLACE : rbuf, mine, types[t], root,
                           comm));
    if (in_place && me == root) {
        expect_untouched(rbuf, t, 0, what, __LINE__);
    } else {
        for (long i = 0; i < mine; i++) {
            expect_elem(rbuf, t, i, val(root, me, i), what, __LINE__);
        }
        expect_untouched(rbuf, t, mine, what, __LINE__);
    }
    free(sbuf);
    free(rbuf);
    free(scounts);
    free(displs);
}

/* The root sends blocks of 37 MPI_INT; the others receive one contiguous type of 37 ints. */
static void test_mixed_types(void)
{
    enum { N = 37 };
    MPI_Datatype block;
    int *sbuf = malloc(sizeof(int) * N * (size_t)size), rbuf[N];

    CHECK(sbuf != NULL);
    CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &block));
    CHECK_MPI(MPI_Type_commit(&block));
    for (int r = 0; r < size; r++) {
        for (int i = 0; i < N; i++) {
            sbuf[r * N + i] = val(55, r, i);
        }
    }
    CHECK_MPI(MPI_Scatter(sbuf, N, MPI_INT, rbuf, 1, block, size / 2, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++) {
        CHECK(rbuf[i] == val(55, rank, i));
    }
    CHECK_MPI(MPI_Type_free(&block));
    free(sbuf);
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
                    test_scatter(comm, t, c, root, in_place);
                    test_scatterv(comm, t, c, root, in_place);
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
