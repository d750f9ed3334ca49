/*
 * coll_reduce_scatter.c - integration test of MPI_Reduce_scatter and
 * MPI_Reduce_scatter_block: per-rank counts 0, 1, 37 and about 1 MiB in all (Reduce_scatter
 * with uneven counts, some ranks getting none), with and without MPI_IN_PLACE, for MPI_SUM,
 * MAX, MIN, PROD, BAND, BOR, BXOR, LAND, LOR and LXOR on ints, SUM, MAX, MIN and PROD on
 * doubles, MAXLOC and MINLOC on MPI_DOUBLE_INT, a commutative user op and a non-commutative
 * user op (2x2 matrix product on a derived type) whose result must be the rank-order product;
 * on MPI_COMM_WORLD, split halves whose rank order is world's reversed and MPI_COMM_SELF.
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

/* The reduction cases: each has a datatype, an op, each rank's contribution computed from a
 * formula, and a local fold in rank order that gives the expected result. */
enum {
    R_ISUM,
    R_IMAX,
    R_IMIN,
    R_IPROD,
    R_BAND,
    R_BOR,
    R_BXOR,
    R_LAND,
    R_LOR,
    R_LXOR,
    R_DSUM,
    R_DSUM_INEXACT,
    R_DMAX,
    R_DMIN,
    R_DPROD,
    R_MAXLOC,
    R_MINLOC,
    R_USER_COMM,
    R_USER_MAT,
    NCASES
};
static const char *const rname[NCASES] = {"int sum",
                                          "int max",
                                          "int min",
                                          "int prod",
                                          "int band",
                                          "int bor",
                                          "int bxor",
                                          "int land",
                                          "int lor",
                                          "int lxor",
                                          "double sum",
                                          "double sum (inexact)",
                                          "double max",
                                          "double min",
                                          "double prod",
                                          "double_int maxloc",
                                          "double_int minloc",
                                          "user commutative",
                                          "user non-commutative matrix product"};

struct dint {
    double v;
    int i;
};

enum { MOD = 1009 };

static MPI_Datatype rtype[NCASES];
static MPI_Op rop[NCASES];
static size_t rsize[NCASES];
static MPI_Datatype mat_type; /* 2x2 int matrix, contiguous */

static void fold(int k, const void *a, void *b);

/* inout = in (+1) inout: commutative and associative, and it counts the applications. */
static void user_comm(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    if (*dt != MPI_INT) {
        fail(__LINE__, "commutative user op called with the wrong datatype");
    }
    for (int j = 0; j < *len; j++) {
        fold(R_USER_COMM, (int *)in + j, (int *)inout + j);
    }
}

/* inout = in x inout for 2x2 matrices mod MOD: in holds the lower ranks' product. */
static void user_mat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    if (*dt != mat_type) {
        fail(__LINE__, "matrix user op called with the wrong datatype");
    }
    for (int j = 0; j < *len; j++) {
        fold(R_USER_MAT, (int *)in + 4 * j, (int *)inout + 4 * j);
    }
}

static void red_init(void)
{
    for (int k = 0; k < NCASES; k++) {
        rtype[k] = MPI_INT;
        rsize[k] = sizeof(int);
    }
    for (int k = R_DSUM; k <= R_DPROD; k++) {
        rtype[k] = MPI_DOUBLE;
        rsize[k] = sizeof(double);
    }
    rtype[R_MAXLOC] = rtype[R_MINLOC] = MPI_DOUBLE_INT;
    rsize[R_MAXLOC] = rsize[R_MINLOC] = sizeof(struct dint);
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &mat_type));
    CHECK_MPI(MPI_Type_commit(&mat_type));
    rtype[R_USER_MAT] = mat_type;
    rsize[R_USER_MAT] = 4 * sizeof(int);
    rop[R_ISUM] = rop[R_DSUM] = rop[R_DSUM_INEXACT] = MPI_SUM;
    rop[R_IMAX] = rop[R_DMAX] = MPI_MAX;
    rop[R_IMIN] = rop[R_DMIN] = MPI_MIN;
    rop[R_IPROD] = rop[R_DPROD] = MPI_PROD;
    rop[R_BAND] = MPI_BAND;
    rop[R_BOR] = MPI_BOR;
    rop[R_BXOR] = MPI_BXOR;
    rop[R_LAND] = MPI_LAND;
    rop[R_LOR] = MPI_LOR;
    rop[R_LXOR] = MPI_LXOR;
    rop[R_MAXLOC] = MPI_MAXLOC;
    rop[R_MINLOC] = MPI_MINLOC;
    CHECK_MPI(MPI_Op_create(user_comm, 1, &rop[R_USER_COMM]));
    CHECK_MPI(MPI_Op_create(user_mat, 0, &rop[R_USER_MAT]));
}

static void red_free(void)
{
    CHECK_MPI(MPI_Op_free(&rop[R_USER_COMM]));
    CHECK_MPI(MPI_Op_free(&rop[R_USER_MAT]));
    CHECK_MPI(MPI_Type_free(&mat_type));
}

/* Rank r's element i in case k. */
static void contrib(int k, int r, long i, void *out)
{
    int *o = out;
    double *d = out;
    long m = r + i;

    switch (k) {
    case R_ISUM:
        *o = (int)((r * 13 + i * 7) % 1001) - 500;
        break;
    case R_IMAX:
    case R_IMIN:
        *o = (int)((r * 2654435761u + (unsigned long)i * 40503u) % 200001) - 100000;
        break;
    case R_IPROD:
        *o = m % 5 == 0 ? 2 : m % 3 == 0 ? -1 : 1;
        break;
    case R_BAND:
        *o = ~(1 << (int)((r * 3 + i) % 31));
        break;
    case R_BOR:
        *o = 1 << (int)((r * 5 + i) % 31);
        break;
    case R_BXOR:
        *o = val(r, 3, i);
        break;
    case R_LAND:
        *o = m % 7 ? (r + 1) * 3 : 0;
        break;
    case R_LOR:
        *o = (r + 2 * i) % 9 == 0 ? r + 2 : 0;
        break;
    case R_LXOR:
        *o = (r * i) % 3 == 0 ? -5 : 0;
        break;
    case R_DSUM:
        *d = (r + 1) * 0.25 + (double)i * 0.5;
        break;
    case R_DSUM_INEXACT:
        *d = 1.0 / (double)(m + 3);
        break;
    case R_DMAX:
    case R_DMIN:
        *d = (double)((r * 37 + i * 11) % 23) * 0.125 - 1.0;
        break;
    case R_DPROD:
        *d = m % 4 == 0 ? 0.5 : m % 4 == 1 ? 1.5 : m % 4 == 2 ? -1.0 : 2.0;
        break;
    case R_MAXLOC:
    case R_MINLOC:
        /* Few distinct values, so ties are common and the lowest index must win. */
        ((struct dint *)out)->v = (double)((r * 5 + i) % 4);
        ((struct dint *)out)->i = r;
        break;
    case R_USER_COMM:
        *o = (int)((r * 31 + i) % 1000);
        break;
    case R_USER_MAT:
        o[0] = (int)((m * 7) % 11) + 1;
        o[1] = 1;
        o[2] = (int)(r % 3);
        o[3] = (int)(i % 2);
        break;
    }
}

/* b = a op b, a from the lower ranks. */
static void fold(int k, const void *a, void *b)
{
    const int *x = a;
    int *y = b;
    const double *dx = a;
    double *dy = b;

    switch (k) {
    case R_ISUM:
        *y = *x + *y;
        break;
    case R_IMAX:
        *y = *x > *y ? *x : *y;
        break;
    case R_IMIN:
        *y = *x < *y ? *x : *y;
        break;
    case R_IPROD:
        *y = *x * *y;
        break;
    case R_BAND:
        *y = *x & *y;
        break;
    case R_BOR:
        *y = *x | *y;
        break;
    case R_BXOR:
        *y = *x ^ *y;
        break;
    case R_LAND:
        *y = *x && *y;
        break;
    case R_LOR:
        *y = *x || *y;
        break;
    case R_LXOR:
        *y = !*x != !*y;
        break;
    case R_DSUM:
    case R_DSUM_INEXACT:
        *dy = *dx + *dy;
        break;
    case R_DMAX:
        *dy = *dx > *dy ? *dx : *dy;
        break;
    case R_DMIN:
        *dy = *dx < *dy ? *dx : *dy;
        break;
    case R_DPROD:
        *dy = *dx * *dy;
        break;
    case R_MAXLOC:
    case R_MINLOC: {
        const struct dint *p = a;
        struct dint *q = b;
        int better = k == R_MAXLOC ? p->v > q->v : p->v < q->v;

        if (better || (p->v == q->v && p->i < q->i)) {
            *q = *p;
        }
        break;
    }
    case R_USER_COMM:
        *y = *x + *y + 1;
        break;
    case R_USER_MAT: {
        int c[4];

        c[0] = (x[0] * y[0] + x[1] * y[2]) % MOD;
        c[1] = (x[0] * y[1] + x[1] * y[3]) % MOD;
        c[2] = (x[2] * y[0] + x[3] * y[2]) % MOD;
        c[3] = (x[2] * y[1] + x[3] * y[3]) % MOD;
        memcpy(y, c, sizeof(c));
        break;
    }
    }
}

/* Whether a result element is right: exact, except the inexact double sum (any summation
 * order is allowed) and the logical ops (only truth is specified). */
static int same(int k, const void *got, const void *want)
{
    if (k == R_DSUM_INEXACT) {
        double g = *(const double *)got, w = *(const double *)want;

        return g - w <= 1e-12 * w && w - g <= 1e-12 * w;
    }
    if (k == R_LAND || k == R_LOR || k == R_LXOR) {
        return !*(const int *)got == !*(const int *)want;
    }
    if (k == R_MAXLOC || k == R_MINLOC) {
        const struct dint *g = got, *w = want;

        return g->v == w->v && g->i == w->i;
    }
    return memcmp(got, want, rsize[k]) == 0;
}

static void *rbuf_alloc(int k, long n)
{
    void *p = malloc(rsize[k] * (size_t)(n > 0 ? n : 1));

    CHECK(p != NULL);
    memset(p, RFILL, rsize[k] * (size_t)(n > 0 ? n : 1));
    return p;
}

#define AT(k, buf, i) ((char *)(uintptr_t)(buf) + rsize[k] * (size_t)(i))

/* Element i of the contributions of ranks lo..hi folded in rank order. */
static void expected(int k, int lo, int hi, long i, void *out)
{
    char tmp[sizeof(struct dint) > 16 ? sizeof(struct dint) : 16];

    contrib(k, hi, i, out);
    for (int r = hi - 1; r >= lo; r--) {
        contrib(k, r, i, tmp);
        fold(k, tmp, out);
    }
}

static void fill_contrib(int k, int r, long n, void *buf, long first)
{
    for (long i = 0; i < n; i++) {
        contrib(k, r, first + i, AT(k, buf, i));
    }
}

/* The counts each case runs with; the about-1-MiB count only for a few cases. */
static const long rcounts[] = {0, 1, 37, -1};

static inline int big_case(int k)
{
    return k == R_ISUM || k == R_DSUM_INEXACT || k == R_USER_MAT || k == R_MAXLOC;
}

static inline long rcount(int k, size_t c)
{
    return rcounts[c] >= 0 ? rcounts[c] : (long)((1L << 20) / rsize[k]) | 1;
}

/* The expected elements first..first+n-1 of the fold over ranks lo..hi, computed once. */
static void *expect_all(int k, long n, long first, int lo, int hi)
{
    void *want = rbuf_alloc(k, n);

    for (long i = 0; i < n; i++) {
        expected(k, lo, hi, first + i, AT(k, want, i));
    }
    return want;
}

static void check_against(int k, const void *buf, const void *want, long n, long first,
                          const char *what, int line)
{
    for (long i = 0; i < n; i++) {
        if (!same(k, AT(k, buf, i), AT(k, want, i))) {
            fail(line, "%s %s: element %ld of %ld wrong", what, rname[k], first + i, n);
        }
    }
}

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
    test_all(MPI_COMM_SELF, "reduce_scatter (self)");

    red_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
