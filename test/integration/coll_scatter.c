/*
 * coll_scatter.c - integration test of MPI_Scatter and MPI_Scatterv: every root (the
 * 1 MiB case from the first, middle and last root), counts 0, 1, 37 and about 1 MiB in all,
 * with int, double and a strided vector type, with and without MPI_IN_PLACE at the root (whose
 * receive buffer is then not written, and whose send buffer never changes); Scatterv with
 * uneven (some empty) blocks taken in reverse rank order from a buffer with gaps; receivers
 * using a contiguous type of the same signature as the root's send type.
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

/* Element types every data-movement case runs with: int, double, and a strided vector of two
 * ints resized to an extent of four ints, whose gaps a receive must never write. */
enum { T_INT, T_DOUBLE, T_VEC, NTYPES };
static MPI_Datatype types[NTYPES];
static const char *const tname[NTYPES] = {"int", "double", "vector"};
static const size_t text[NTYPES] = {sizeof(int), sizeof(double), 4 * sizeof(int)};

#define RFILL 0xA5 /* every byte of a receive buffer before the call */
#define SFILL 0x11 /* every byte of a send buffer's gaps */

static inline void types_init(void)
{
    MPI_Datatype v;

    types[T_INT] = MPI_INT;
    types[T_DOUBLE] = MPI_DOUBLE;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_resized(v, 0, (MPI_Aint)(4 * sizeof(int)), &types[T_VEC]));
    CHECK_MPI(MPI_Type_commit(&types[T_VEC]));
    CHECK_MPI(MPI_Type_free(&v));
}

static inline void types_free(void)
{
    CHECK_MPI(MPI_Type_free(&types[T_VEC]));
}

/* The value of element i of the data that rank a owns for rank b (b: root, peer or 0). */
static inline int val(int a, int b, long i)
{
    return (int)(((long)a * 7919 + (long)b * 104729 + i * 31 + 1) & 0x3fffffff);
}

static inline void *tbuf(int t, long n, int fill)
{
    size_t bytes = text[t] * (size_t)(n > 0 ? n : 1);
    void *p = malloc(bytes);

    CHECK(p != NULL);
    memset(p, fill, bytes);
    return p;
}

static inline void put(void *buf, int t, long i, int v)
{
    if (t == T_INT) {
        ((int *)buf)[i] = v;
    } else if (t == T_DOUBLE) {
        ((double *)buf)[i] = (double)v + 0.5;
    } else {
        int *p = (int *)buf + 4 * i;

        p[0] = v;
        p[2] = v ^ 0x5555;
    }
}

/* Whether element i holds v (and, for the vector, the gaps are untouched). */
static inline int holds(const void *buf, int t, long i, int v)
{
    int sent;

    memset(&sent, RFILL, sizeof(sent));
    if (t == T_INT) {
        return ((const int *)buf)[i] == v;
    } else if (t == T_DOUBLE) {
        return ((const double *)buf)[i] == (double)v + 0.5;
    } else {
        const int *p = (const int *)buf + 4 * i;

        return p[0] == v && p[2] == (v ^ 0x5555) && p[1] == sent && p[3] == sent;
    }
}

/* Whether element i was left alone by the call (still RFILL). */
static inline int untouched(const void *buf, int t, long i)
{
    const unsigned char *p = (const unsigned char *)buf + text[t] * (size_t)i;

    for (size_t k = 0; k < text[t]; k++) {
        if (p[k] != RFILL) {
            return 0;
        }
    }
    return 1;
}

static inline void expect_elem(const void *buf, int t, long i, int v, const char *what, int line)
{
    if (!holds(buf, t, i, v)) {
        fail(line, "%s: %s element %ld wrong (expected %d)", what, tname[t], i, v);
    }
}

static inline void expect_untouched(const void *buf, int t, long i, const char *what, int line)
{
    if (!untouched(buf, t, i)) {
        fail(line, "%s: %s element %ld written outside the result", what, tname[t], i);
    }
}

/* Counts each case runs with: empty, one, odd, and about 1 MiB in all (split over `parts`). */
static inline long big_count(int t, int parts)
{
    long n = (1L << 20) / (long)text[t] / parts;

    return n | 1;
}

/* The roots the 1 MiB cases run with (all roots for the small ones): first, middle, last. */
static inline int big_root(int root, int n)
{
    return root == 0 || root == n / 2 || root == n - 1;
}

/* The irregular layout of the "v" variants: rank r's block has vcount(r, c) elements (c - 1,
 * c or c + 1, so some blocks are empty), blocks are stored in reverse rank order with a gap of
 * one element between them, which the call must not write. */
static inline int vcount(int r, long c)
{
    return c == 0 ? 0 : (int)c + r % 3 - 1;
}

static inline long vlayout(int n, long c, int *counts, int *displs)
{
    long at = 0;

    for (int r = n - 1; r >= 0; r--) {
        counts[r] = vcount(r, c);
        displs[r] = (int)at;
        at += counts[r] + 1;
    }
    return at;
}

static const long counts[] = {0, 1, 37, -1}; /* -1: about 1 MiB in all */

static void test_scatter(int t, long c, int root, int in_place)
{
    const char *what = in_place ? "scatter in place" : "scatter";
    void *sbuf = NULL, *copy = NULL, *rbuf = tbuf(t, c + 1, RFILL);
    size_t bytes = text[t] * (size_t)(c * size);

    if (rank == root) {
        sbuf = tbuf(t, c * size, SFILL);
        for (int r = 0; r < size; r++) {
            for (long i = 0; i < c; i++) {
                put(sbuf, t, r * c + i, val(root, r, i));
            }
        }
        copy = tbuf(t, c * size, 0);
        memcpy(copy, sbuf, bytes);
    }
    CHECK_MPI(MPI_Scatter(sbuf, (int)c, types[t], in_place && rank == root ? MPI_IN_PLACE : rbuf,
                          (int)c, types[t], root, MPI_COMM_WORLD));
    if (in_place && rank == root) {
        /* The root's own block stays where it is in the send buffer; rbuf is not used. */
        expect_untouched(rbuf, t, 0, what, __LINE__);
    } else {
        for (long i = 0; i < c; i++) {
            expect_elem(rbuf, t, i, val(root, rank, i), what, __LINE__);
        }
        expect_untouched(rbuf, t, c, what, __LINE__);
    }
    if (rank == root && memcmp(sbuf, copy, bytes) != 0) {
        fail(__LINE__, "%s: the root's send buffer changed", what);
    }
    free(sbuf);
    free(copy);
    free(rbuf);
}

static void test_scatterv(int t, long c, int root, int in_place)
{
    const char *what = in_place ? "scatterv in place" : "scatterv";
    int *scounts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    long total = vlayout(size, c, scounts, displs);
    int mine = vcount(rank, c);
    void *sbuf = NULL, *rbuf = tbuf(t, mine + 1, RFILL);

    CHECK(scounts != NULL && displs != NULL);
    if (rank == root) {
        sbuf = tbuf(t, total, SFILL);
        for (int r = 0; r < size; r++) {
            for (long i = 0; i < scounts[r]; i++) {
                put(sbuf, t, displs[r] + i, val(root, r, i));
            }
        }
    }
    CHECK_MPI(MPI_Scatterv(sbuf, scounts, displs, types[t],
                           in_place && rank == root ? MPI_IN_PLACE : rbuf, mine, types[t], root,
                           MPI_COMM_WORLD));
    if (in_place && rank == root) {
        expect_untouched(rbuf, t, 0, what, __LINE__);
    } else {
        for (long i = 0; i < mine; i++) {
            expect_elem(rbuf, t, i, val(root, rank, i), what, __LINE__);
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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    types_init();

    for (int t = 0; t < NTYPES; t++) {
        for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
            long c = counts[k] < 0 ? big_count(t, size) : counts[k];

            for (int root = 0; root < size; root++) {
                if (counts[k] < 0 && !big_root(root, size)) {
                    continue;
                }
                for (int in_place = 0; in_place < 2; in_place++) {
                    test_scatter(t, c, root, in_place);
                    test_scatterv(t, c, root, in_place);
                }
            }
        }
    }
    test_mixed_types();

    types_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
