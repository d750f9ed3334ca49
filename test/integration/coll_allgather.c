/*
 * coll_allgather.c - integration test of MPI_Allgather and MPI_Allgatherv: counts 0, 1,
 * 37 and about 1 MiB in all, with int, double and a strided vector type, with and without
 * MPI_IN_PLACE, on MPI_COMM_WORLD and on split halves with reversed ranks; Allgatherv with
 * uneven (some empty) blocks stored in reverse rank order with gaps that must stay untouched;
 * senders using a contiguous type of the same signature as the receive type.
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
    MPI_Comm odd;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    types_init();

    test_all(MPI_COMM_WORLD);
    /* Uneven halves with world's ranks reversed. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &odd));
    test_all(odd);
    CHECK_MPI(MPI_Comm_free(&odd));
    test_mixed_types();

    types_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
