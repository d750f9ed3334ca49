/*
 * coll_pairs.c - integration test of the reductions of every predefined pair type
 * (MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT)
 * with MPI_MAXLOC and MPI_MINLOC, through MPI_Allreduce, MPI_Reduce (root 0 and the last
 * rank), MPI_Reduce_scatter_block, MPI_Reduce_scatter and MPI_Scan, at every count from 1 to
 * 3n + 3 on n ranks (so that every way the algorithms cut the vector into blocks ends a block
 * on the last element) and at 4099.
 *
 * Every buffer ends where its last pair's data ends (its true extent: MPI_DOUBLE_INT holds 12
 * bytes of data in a 16-byte struct), and the bytes after it may not be touched: a write there
 * (the last struct's trailing padding, or past a block) fails the test, and under
 * AddressSanitizer (make check-asan) so does a read.  Results must be exact: the value of the
 * fold in rank order, ties won by the lowest index.
 *
 * Plain portable MPI: it must pass on any correct MPI.  Any number of ranks >= 1.  Prints
 * "coll_pairs R: ok" per rank, or "FAIL: coll_pairs rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define COLL_PAIRS_ASAN 1
#else
#define COLL_PAIRS_ASAN 0
#endif

static const char *prog = "coll_pairs";
static int rank, size;

#include "p2p_check.h"

struct float_int {
    float v;
    int i;
};
struct double_int {
    double v;
    int i;
};
struct long_int {
    long v;
    int i;
};
struct two_int {
    int v;
    int i;
};
struct short_int {
    short v;
    int i;
};
struct long_double_int {
    long double v;
    int i;
};

enum { NPAIRS = 6 };

static const struct pair_type {
    const char *name;
    MPI_Datatype type;
    size_t extent; /* sizeof the C struct */
    size_t data;   /* where the last member ends: the true extent */
    size_t i_at;   /* offset of the int */
} pairs[NPAIRS] = {
#define PAIR(n, t, s)                                                                              \
    {                                                                                              \
        n, t, sizeof(struct s), offsetof(struct s, i) + sizeof(int), offsetof(struct s, i)         \
    }
    PAIR("MPI_FLOAT_INT", MPI_FLOAT_INT, float_int),
    PAIR("MPI_DOUBLE_INT", MPI_DOUBLE_INT, double_int),
    PAIR("MPI_LONG_INT", MPI_LONG_INT, long_int),
    PAIR("MPI_2INT", MPI_2INT, two_int),
    PAIR("MPI_SHORT_INT", MPI_SHORT_INT, short_int),
    PAIR("MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, long_double_int),
#undef PAIR
};

/* The value of rank R's element K: small integers with many ties between ranks. */
static long value_of(int r, long k)
{
    return (k * 7 + (long)r * 3) % 5 - 2;
}

static int index_of(int r, long k)
{
    return (int)((r * 31 + k) % 17);
}

static void put(const struct pair_type *p, unsigned char *at, long v, int i)
{
    switch (p - pairs) {
    case 0: {
        float f = (float)v;
        memcpy(at, &f, sizeof(f));
        break;
    }
    case 1: {
        double d = (double)v;
        memcpy(at, &d, sizeof(d));
        break;
    }
    case 2:
        memcpy(at, &v, sizeof(v));
        break;
    case 3: {
        int n = (int)v;
        memcpy(at, &n, sizeof(n));
        break;
    }
    case 4: {
        short s = (short)v;
        memcpy(at, &s, sizeof(s));
        break;
    }
    default: {
        long double ld = (long double)v;
        memcpy(at, &ld, sizeof(ld));
        break;
    }
    }
    memcpy(at + p->i_at, &i, sizeof(i));
}

static void get(const struct pair_type *p, const unsigned char *at, long *v, int *i)
{
    switch (p - pairs) {
    case 0: {
        float f;
        memcpy(&f, at, sizeof(f));
        *v = (long)f;
        break;
    }
    case 1: {
        double d;
        memcpy(&d, at, sizeof(d));
        *v = (long)d;
        break;
    }
    case 2:
        memcpy(v, at, sizeof(*v));
        break;
    case 3: {
        int n;
        memcpy(&n, at, sizeof(n));
        *v = n;
        break;
    }
    case 4: {
        short s;
        memcpy(&s, at, sizeof(s));
        *v = s;
        break;
    }
    default: {
        long double ld;
        memcpy(&ld, at, sizeof(ld));
        *v = (long)ld;
        break;
    }
    }
    memcpy(i, at + p->i_at, sizeof(*i));
}

/* A buffer of COUNT pairs ending at its last pair's true extent, followed by SLACK bytes that
 * nobody may touch: they hold a pattern checked when the buffer is freed (a write past the true
 * extent), and under AddressSanitizer they are poisoned (any read or write is reported). */
enum { SLACK = 64, SLACK_BYTE = 0xa5 };

struct guarded {
    unsigned char *buf;
    size_t bytes;
};

static struct guarded guarded_alloc(const struct pair_type *p, long count)
{
    struct guarded g;

    g.bytes = count > 0 ? (size_t)(count - 1) * p->extent + p->data : 0;
    g.buf = malloc(g.bytes + SLACK);
    CHECK(g.buf != NULL);
    memset(g.buf + g.bytes, SLACK_BYTE, SLACK);
#if COLL_PAIRS_ASAN
    ASAN_POISON_MEMORY_REGION(g.buf + g.bytes, SLACK);
#endif
    return g;
}

static void guarded_free(struct guarded *g)
{
#if COLL_PAIRS_ASAN
    ASAN_UNPOISON_MEMORY_REGION(g->buf + g->bytes, SLACK);
#endif
    for (size_t b = 0; b < SLACK; b++) {
        if (g->buf[g->bytes + b] != SLACK_BYTE) {
            fail(__LINE__, "byte %zu past the true extent of a %zu-byte buffer was written", b,
                 g->bytes);
        }
    }
    free(g->buf);
}

/* The fold of ranks FIRST..LAST's element K with OP: the extreme value, ties to the lowest
 * index. */
static void fold(MPI_Op op, int first, int last, long k, long *v, int *i)
{
    *v = value_of(first, k);
    *i = index_of(first, k);
    for (int r = first + 1; r <= last; r++) {
        long rv = value_of(r, k);
        int ri = index_of(r, k);
        int better = op == MPI_MAXLOC ? rv > *v : rv < *v;

        if (better || (rv == *v && ri < *i)) {
            *v = rv;
            *i = ri;
        }
    }
}

static void fill(const struct pair_type *p, unsigned char *buf, long first, long count, int r)
{
    for (long k = 0; k < count; k++) {
        put(p, buf + (size_t)k * p->extent, value_of(r, first + k), index_of(r, first + k));
    }
}

static void check_result(const struct pair_type *p, MPI_Op op, const unsigned char *buf, long first,
                         long count, int upto, const char *what, long total)
{
    for (long k = 0; k < count; k++) {
        long v, wv;
        int i, wi;

        get(p, buf + (size_t)k * p->extent, &v, &i);
        fold(op, 0, upto, first + k, &wv, &wi);
        if (v != wv || i != wi) {
            fail(__LINE__, "%s of %ld %s with %s: element %ld is (%ld, %d), expected (%ld, %d)",
                 what, total, p->name, op == MPI_MAXLOC ? "MPI_MAXLOC" : "MPI_MINLOC", first + k, v,
                 i, wv, wi);
        }
    }
}

static void test_allreduce(const struct pair_type *p, MPI_Op op, long count, int in_place)
{
    struct guarded s = guarded_alloc(p, count), r = guarded_alloc(p, count);

    fill(p, in_place ? r.buf : s.buf, 0, count, rank);
    CHECK_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : s.buf, r.buf, (int)count, p->type, op,
                            MPI_COMM_WORLD));
    check_result(p, op, r.buf, 0, count, size - 1, in_place ? "in-place allreduce" : "allreduce",
                 count);
    guarded_free(&s);
    guarded_free(&r);
}

static void test_reduce(const struct pair_type *p, MPI_Op op, long count, int root)
{
    struct guarded s = guarded_alloc(p, count), r = guarded_alloc(p, count);

    fill(p, s.buf, 0, count, rank);
    CHECK_MPI(MPI_Reduce(s.buf, rank == root ? r.buf : NULL, (int)count, p->type, op, root,
                         MPI_COMM_WORLD));
    if (rank == root) {
        check_result(p, op, r.buf, 0, count, size - 1, "reduce", count);
    }
    guarded_free(&s);
    guarded_free(&r);
}

/* Reduce-scatter: rank r's block is COUNTS[r] pairs; BLOCK: MPI_Reduce_scatter_block. */
static void test_reduce_scatter(const struct pair_type *p, MPI_Op op, const int *counts, int block)
{
    long total = 0, mine_at = 0;
    struct guarded s, r;

    for (int q = 0; q < size; q++) {
        mine_at += q < rank ? counts[q] : 0;
        total += counts[q];
    }
    s = guarded_alloc(p, total);
    r = guarded_alloc(p, counts[rank]);
    fill(p, s.buf, 0, total, rank);
    if (block) {
        CHECK_MPI(MPI_Reduce_scatter_block(s.buf, r.buf, counts[0], p->type, op, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Reduce_scatter(s.buf, r.buf, counts, p->type, op, MPI_COMM_WORLD));
    }
    check_result(p, op, r.buf, mine_at, counts[rank], size - 1,
                 block ? "reduce_scatter_block" : "reduce_scatter", total);
    guarded_free(&s);
    guarded_free(&r);
}

static void test_scan(const struct pair_type *p, MPI_Op op, long count)
{
    struct guarded s = guarded_alloc(p, count), r = guarded_alloc(p, count);

    fill(p, s.buf, 0, count, rank);
    CHECK_MPI(MPI_Scan(s.buf, r.buf, (int)count, p->type, op, MPI_COMM_WORLD));
    check_result(p, op, r.buf, 0, count, rank, "scan", count);
    guarded_free(&s);
    guarded_free(&r);
}

static void test_count(const struct pair_type *p, MPI_Op op, long count)
{
    int *counts = malloc(sizeof(int) * (size_t)size);

    CHECK(counts != NULL);
    test_allreduce(p, op, count, 0);
    test_allreduce(p, op, count, 1);
    test_reduce(p, op, count, 0);
    test_reduce(p, op, count, size - 1);
    test_scan(p, op, count);
    /* Reduce-scatter: COUNT pairs per rank, then COUNT spread unevenly (the first ranks one
     * more; some none). */
    for (int q = 0; q < size; q++) {
        counts[q] = (int)count;
    }
    test_reduce_scatter(p, op, counts, 1);
    for (int q = 0; q < size; q++) {
        counts[q] = (int)(count / size + (q < count % size ? 1 : 0));
    }
    test_reduce_scatter(p, op, counts, 0);
    free(counts);
}

int main(int argc, char **argv)
{
    static const MPI_Op ops[] = {MPI_MAXLOC, MPI_MINLOC};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int t = 0; t < NPAIRS; t++) {
        MPI_Aint lb, extent, true_lb, true_extent;

        CHECK_MPI(MPI_Type_get_extent(pairs[t].type, &lb, &extent));
        CHECK_MPI(MPI_Type_get_true_extent(pairs[t].type, &true_lb, &true_extent));
        CHECK(lb == 0 && (size_t)extent == pairs[t].extent);
        CHECK(true_lb == 0 && (size_t)true_extent == pairs[t].data);
        for (int o = 0; o < 2; o++) {
            for (long count = 1; count <= 3L * size + 3; count++) {
                test_count(&pairs[t], ops[o], count);
            }
            test_count(&pairs[t], ops[o], 4099);
        }
    }
    printf("%s %d: ok\n", prog, rank);
    MPI_Finalize();
    return 0;
}
