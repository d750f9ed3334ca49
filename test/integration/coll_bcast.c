/*
 * coll_bcast.c - integration test of MPI_Bcast: every root, counts 0, 1, 37 and about
 * 1 MiB (1 MiB from the first, middle and last root), with int, double and a strided vector
 * type (receives must not touch its gaps), on MPI_COMM_WORLD, a split communicator with
 * reversed ranks and MPI_COMM_SELF; the root sending one contiguous type while the others
 * receive the same signature as ints; back-to-back broadcasts from changing roots.
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_bcast R: ok" per rank, or
 * "FAIL: coll_bcast rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_bcast";
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

static const long counts[] = {0, 1, 37, -1}; /* -1: about 1 MiB */

static void test_bcast(MPI_Comm comm, const char *what)
{
    int me, n;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    for (int t = 0; t < NTYPES; t++) {
        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            long cnt = counts[c] < 0 ? big_count(t, 1) : counts[c];

            for (int root = 0; root < n; root++) {
                if (counts[c] < 0 && !big_root(root, n)) {
                    continue;
                }
                void *buf = tbuf(t, cnt + 1, me == root ? SFILL : RFILL);

                if (me == root) {
                    for (long i = 0; i < cnt; i++) {
                        put(buf, t, i, val(root, c, i));
                    }
                }
                CHECK_MPI(MPI_Bcast(buf, (int)cnt, types[t], root, comm));
                if (me != root) {
                    for (long i = 0; i < cnt; i++) {
                        expect_elem(buf, t, i, val(root, c, i), what, __LINE__);
                    }
                    expect_untouched(buf, t, cnt, what, __LINE__);
                }
                free(buf);
            }
        }
    }
}

/* The root sends one contiguous element of 37 ints, the others receive 37 MPI_INT: the same
 * type signature, so it must work however the library splits the message. */
static void test_mixed_types(void)
{
    enum { N = 37 };
    MPI_Datatype block;
    int buf[N + 1];

    CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &block));
    CHECK_MPI(MPI_Type_commit(&block));
    for (int root = 0; root < size; root++) {
        for (int i = 0; i <= N; i++) {
            buf[i] = rank == root ? val(root, 9, i) : -1;
        }
        if (rank == root) {
            CHECK_MPI(MPI_Bcast(buf, 1, block, root, MPI_COMM_WORLD));
        } else {
            CHECK_MPI(MPI_Bcast(buf, N, MPI_INT, root, MPI_COMM_WORLD));
            for (int i = 0; i < N; i++) {
                CHECK(buf[i] == val(root, 9, i));
            }
            CHECK(buf[N] == -1);
        }
    }
    CHECK_MPI(MPI_Type_free(&block));
}

/* Broadcasts back to back from every root in turn must not mix up. */
static void test_back_to_back(void)
{
    enum { ROUNDS = 50 };
    int v;

    for (int k = 0; k < ROUNDS; k++) {
        int root = k % size;

        v = rank == root ? val(root, k, 0) : -1;
        CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, root, MPI_COMM_WORLD));
        CHECK(v == val(root, k, 0));
    }
}

int main(int argc, char **argv)
{
    MPI_Comm odd;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    types_init();

    test_bcast(MPI_COMM_WORLD, "bcast world");
    /* A communicator whose ranks are world's reversed and split in two. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &odd));
    test_bcast(odd, "bcast split");
    CHECK_MPI(MPI_Comm_free(&odd));
    test_bcast(MPI_COMM_SELF, "bcast self");
    test_mixed_types();
    test_back_to_back();

    types_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
