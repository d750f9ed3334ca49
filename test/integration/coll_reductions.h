/*
 * coll_reductions.h - the reduction cases every reducing collective test runs (predefined ops
 * on ints and doubles, MAXLOC/MINLOC, a commutative and a non-commutative user op) and the
 * rank-order reference each result is checked against.
 *
 * Include after coll_types.h.
 */
#ifndef COMM_TEST_COLL_REDUCTIONS_H
#define COMM_TEST_COLL_REDUCTIONS_H

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

#endif
