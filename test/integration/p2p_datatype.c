/*
 * p2p_datatype.c - integration test of derived datatypes between processes: vector, indexed,
 * indexed_block, struct with padding made the right extent with MPI_Type_create_resized, a
 * resized column type, 3-D subarrays in C and Fortran order; sending with one type and
 * receiving with another of the same type signature; Get_count, Get_elements and
 * Get_elements_x on a receive that ends inside a struct element.  Receives must write exactly
 * the locations of the receive type's type map and nothing in its gaps.
 *
 *   p2p_datatype      (any number of ranks >= 2: each rank sends to the next around the ring)
 *
 * Plain portable MPI; no collectives.  Prints "p2p_datatype R: ok" per rank, or
 * "FAIL: p2p_datatype rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "p2p_datatype";
static int rank, size, next, prev;

#include "p2p_check.h"

static int ival(int src, int i)
{
    return src * 10000 + i;
}

static double dval(int src, int i)
{
    return src * 10000.0 + i + 0.25;
}

/* Sends with STYPE to next and receives with RTYPE from prev; checks the status's count of
 * RTYPE elements. */
static void exchange(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                     MPI_Datatype rtype, int tag, int expect_count)
{
    MPI_Status st;
    int n = -1;

    CHECK_MPI(MPI_Sendrecv(sbuf, scount, stype, next, tag, rbuf, rcount, rtype, prev, tag,
                           MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, rtype, &n);
    if (st.MPI_SOURCE != prev || st.MPI_TAG != tag || n != expect_count) {
        fail(__LINE__, "tag %d: status source %d tag %d count %d, expected %d %d %d", tag,
             st.MPI_SOURCE, st.MPI_TAG, n, prev, tag, expect_count);
    }
}

/* Checks R[0..n) against the sender's ints where IN[i] is set and -1 elsewhere. */
static void check_ints(const int *r, const int *in, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        int want = in[i] ? ival(prev, i) : -1;

        if (r[i] != want) {
            fail(__LINE__, "%s: element %d is %d, expected %d", what, i, r[i], want);
        }
    }
}

static void test_vector_indexed(void)
{
    int s[40], r[40], in[40];
    int blens[3] = {2, 1, 4}, displs[3] = {0, 5, 9}, bdispls[3] = {1, 4, 8};
    MPI_Datatype vec, idx, iblk;

    for (int i = 0; i < 40; i++) {
        s[i] = ival(rank, i);
    }
    CHECK_MPI(MPI_Type_vector(5, 3, 7, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    for (int i = 0; i < 40; i++) {
        r[i] = -1;
        in[i] = i < 35 && i % 7 < 3;
    }
    exchange(s, 1, vec, r, 1, vec, 1, 1);
    check_ints(r, in, 40, "vector(5, 3, 7)");

    CHECK_MPI(MPI_Type_indexed(3, blens, displs, MPI_INT, &idx));
    CHECK_MPI(MPI_Type_commit(&idx));
    for (int i = 0; i < 40; i++) {
        r[i] = -1;
        in[i] = (i >= 0 && i < 2) || i == 5 || (i >= 9 && i < 13);
    }
    exchange(s, 1, idx, r, 1, idx, 2, 1);
    check_ints(r, in, 40, "indexed");

    /* Two elements of the indexed type: the second starts at its extent (13 ints). */
    for (int i = 0; i < 40; i++) {
        r[i] = -1;
        in[i] = (i % 13 < 2 || i % 13 == 5 || i % 13 >= 9) && i < 26;
    }
    exchange(s, 2, idx, r, 2, idx, 3, 2);
    check_ints(r, in, 40, "2 x indexed");

    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, bdispls, MPI_INT, &iblk));
    CHECK_MPI(MPI_Type_commit(&iblk));
    for (int i = 0; i < 40; i++) {
        r[i] = -1;
        in[i] = i == 1 || i == 2 || i == 4 || i == 5 || i == 8 || i == 9;
    }
    exchange(s, 1, iblk, r, 1, iblk, 4, 1);
    check_ints(r, in, 40, "indexed_block");

    /* Same signature, different types: vector sent, contiguous ints received, and back. */
    for (int i = 0; i < 40; i++) {
        r[i] = -1;
    }
    exchange(s, 1, vec, r, 15, MPI_INT, 5, 15);
    for (int b = 0, k = 0; b < 5; b++) {
        for (int j = 0; j < 3; j++, k++) {
            if (r[k] != ival(prev, b * 7 + j)) {
                fail(__LINE__, "vector received as ints: element %d is wrong", k);
            }
        }
    }
    CHECK(r[15] == -1);
    for (int i = 0; i < 40; i++) {
        r[i] = -1;
        in[i] = i < 35 && i % 7 < 3;
    }
    {
        int packed[15];

        for (int b = 0, k = 0; b < 5; b++) {
            for (int j = 0; j < 3; j++, k++) {
                packed[k] = ival(rank, b * 7 + j);
            }
        }
        exchange(packed, 15, MPI_INT, r, 1, vec, 6, 1);
    }
    check_ints(r, in, 40, "ints received as vector");

    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&idx));
    CHECK_MPI(MPI_Type_free(&iblk));
}

struct rec {
    char c;
    double d;
    int i[3];
    short s;
};

static MPI_Datatype rec_type(void)
{
    int blens[4] = {1, 1, 3, 1};
    MPI_Aint displs[4] = {offsetof(struct rec, c), offsetof(struct rec, d), offsetof(struct rec, i),
                          offsetof(struct rec, s)};
    MPI_Datatype types[4] = {MPI_CHAR, MPI_DOUBLE, MPI_INT, MPI_SHORT}, tmp, t;
    MPI_Aint lb, extent;

    CHECK_MPI(MPI_Type_create_struct(4, blens, displs, types, &tmp));
    CHECK_MPI(MPI_Type_create_resized(tmp, 0, (MPI_Aint)sizeof(struct rec), &t));
    CHECK_MPI(MPI_Type_free(&tmp));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK(lb == 0 && extent == (MPI_Aint)sizeof(struct rec));
    return t;
}

/* Structs with padding: fields arrive, padding bytes of the receive buffer stay untouched. */
static void test_struct(void)
{
    enum { NREC = 10 };
    struct rec s[NREC], r[NREC];
    unsigned char covered[sizeof(struct rec)] = {0};
    const unsigned char *bytes = (const unsigned char *)r;
    MPI_Datatype t = rec_type();

    memset(covered + offsetof(struct rec, c), 1, sizeof(s[0].c));
    memset(covered + offsetof(struct rec, d), 1, sizeof(s[0].d));
    memset(covered + offsetof(struct rec, i), 1, sizeof(s[0].i));
    memset(covered + offsetof(struct rec, s), 1, sizeof(s[0].s));
    memset(s, 0, sizeof(s));
    for (int k = 0; k < NREC; k++) {
        s[k].c = (char)('a' + k);
        s[k].d = dval(rank, k);
        for (int j = 0; j < 3; j++) {
            s[k].i[j] = ival(rank, 3 * k + j);
        }
        s[k].s = (short)(rank * 100 + k);
    }
    memset(r, 0xEE, sizeof(r));
    exchange(s, NREC, t, r, NREC, t, 10, NREC);
    for (int k = 0; k < NREC; k++) {
        if (r[k].c != (char)('a' + k) || r[k].d != dval(prev, k) || r[k].s != prev * 100 + k) {
            fail(__LINE__, "struct element %d has wrong fields", k);
        }
        for (int j = 0; j < 3; j++) {
            CHECK(r[k].i[j] == ival(prev, 3 * k + j));
        }
        for (size_t b = 0; b < sizeof(struct rec); b++) {
            if (!covered[b] && bytes[k * sizeof(struct rec) + b] != 0xEE) {
                fail(__LINE__, "struct element %d: padding byte %zu was written", k, b);
            }
        }
    }
    CHECK_MPI(MPI_Type_free(&t));
}

/* Same signature, other layout: (int, double, double) x 2 from a struct array into a packed
 * 20-byte layout. */
static void test_struct_relayout(void)
{
    struct s3 {
        int a;
        double b[2];
    } s[2];
    int blens[2] = {1, 2};
    MPI_Aint sdispls[2] = {offsetof(struct s3, a), offsetof(struct s3, b)}, pdispls[2] = {0, 4};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, st, pt, tmp;
    unsigned char packed[48];

    CHECK_MPI(MPI_Type_create_struct(2, blens, sdispls, types, &tmp));
    CHECK_MPI(MPI_Type_create_resized(tmp, 0, (MPI_Aint)sizeof(struct s3), &st));
    CHECK_MPI(MPI_Type_free(&tmp));
    CHECK_MPI(MPI_Type_commit(&st));
    CHECK_MPI(MPI_Type_create_struct(2, blens, pdispls, types, &tmp));
    CHECK_MPI(MPI_Type_create_resized(tmp, 0, 20, &pt));
    CHECK_MPI(MPI_Type_free(&tmp));
    CHECK_MPI(MPI_Type_commit(&pt));
    for (int k = 0; k < 2; k++) {
        s[k].a = ival(rank, k);
        s[k].b[0] = dval(rank, 2 * k);
        s[k].b[1] = dval(rank, 2 * k + 1);
    }
    memset(packed, 0xEE, sizeof(packed));
    exchange(s, 2, st, packed, 2, pt, 11, 2);
    for (int k = 0; k < 2; k++) {
        int a;
        double b0, b1;

        memcpy(&a, packed + 20 * k, sizeof(a));
        memcpy(&b0, packed + 20 * k + 4, sizeof(b0));
        memcpy(&b1, packed + 20 * k + 12, sizeof(b1));
        if (a != ival(prev, k) || b0 != dval(prev, 2 * k) || b1 != dval(prev, 2 * k + 1)) {
            fail(__LINE__, "relaid-out struct element %d is wrong", k);
        }
    }
    CHECK(packed[40] == 0xEE);
    CHECK_MPI(MPI_Type_free(&st));
    CHECK_MPI(MPI_Type_free(&pt));
}

/* A column of a 6x5 matrix, resized to one double, so count 2 means two adjacent columns. */
static void test_resized_column(void)
{
    double m[6][5], r[14];
    MPI_Datatype col, colr;

    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 5; j++) {
            m[i][j] = dval(rank, i * 5 + j);
        }
    }
    CHECK_MPI(MPI_Type_vector(6, 1, 5, MPI_DOUBLE, &col));
    CHECK_MPI(MPI_Type_create_resized(col, 0, (MPI_Aint)sizeof(double), &colr));
    CHECK_MPI(MPI_Type_commit(&colr));
    for (int k = 0; k < 14; k++) {
        r[k] = -1.0;
    }
    exchange(&m[0][1], 2, colr, r, 14, MPI_DOUBLE, 20, 12);
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 6; i++) {
            if (r[j * 6 + i] != dval(prev, i * 5 + j + 1)) {
                fail(__LINE__, "column %d row %d is wrong", j + 1, i);
            }
        }
    }
    CHECK(r[12] == -1.0 && r[13] == -1.0);
    /* And back into columns 3 and 4 of a matrix. */
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 5; j++) {
            m[i][j] = -1.0;
        }
    }
    for (int k = 0; k < 12; k++) {
        r[k] = dval(rank, 100 + k);
    }
    exchange(r, 12, MPI_DOUBLE, &m[0][3], 2, colr, 21, 2);
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 5; j++) {
            double want = j < 3 ? -1.0 : dval(prev, 100 + (j - 3) * 6 + i);

            if (m[i][j] != want) {
                fail(__LINE__, "matrix element (%d, %d) is %.2f, expected %.2f", i, j, m[i][j],
                     want);
            }
        }
    }
    CHECK_MPI(MPI_Type_free(&col));
    CHECK_MPI(MPI_Type_free(&colr));
}

/* Subarrays of a 6x5x4 array, C and Fortran order. */
static void test_subarray(void)
{
    enum { A = 6, B = 5, C = 4 };
    int sizes[3] = {A, B, C}, sub[3] = {3, 2, 3}, starts[3] = {1, 2, 1};
    int s[A * B * C], r[A * B * C], in[A * B * C], flat[20];
    MPI_Datatype sa, fa;

    for (int i = 0; i < A * B * C; i++) {
        s[i] = ival(rank, i);
    }
    CHECK_MPI(MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &sa));
    CHECK_MPI(MPI_Type_commit(&sa));
    for (int x = 0; x < A; x++) {
        for (int y = 0; y < B; y++) {
            for (int z = 0; z < C; z++) {
                int i = (x * B + y) * C + z;

                r[i] = -1;
                in[i] = x >= 1 && x < 4 && y >= 2 && y < 4 && z >= 1 && z < 4;
            }
        }
    }
    exchange(s, 1, sa, r, 1, sa, 30, 1);
    check_ints(r, in, A * B * C, "subarray C order");

    for (int k = 0; k < 20; k++) {
        flat[k] = -1;
    }
    exchange(s, 1, sa, flat, 20, MPI_INT, 31, 18);
    for (int x = 1, k = 0; x < 4; x++) {
        for (int y = 2; y < 4; y++) {
            for (int z = 1; z < 4; z++, k++) {
                if (flat[k] != ival(prev, (x * B + y) * C + z)) {
                    fail(__LINE__, "C-order subarray as ints: element %d is wrong", k);
                }
            }
        }
    }
    CHECK(flat[18] == -1 && flat[19] == -1);

    /* Fortran order: the first index varies fastest; sizes {6,5,4} address i + 6 * (j + 5 * k). */
    CHECK_MPI(MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_INT, &fa));
    CHECK_MPI(MPI_Type_commit(&fa));
    for (int k = 0; k < 20; k++) {
        flat[k] = -1;
    }
    exchange(s, 1, fa, flat, 20, MPI_INT, 32, 18);
    for (int z = 1, k = 0; z < 4; z++) {
        for (int y = 2; y < 4; y++) {
            for (int x = 1; x < 4; x++, k++) {
                if (flat[k] != ival(prev, x + A * (y + B * z))) {
                    fail(__LINE__, "Fortran-order subarray as ints: element %d is wrong", k);
                }
            }
        }
    }
    CHECK_MPI(MPI_Type_free(&sa));
    CHECK_MPI(MPI_Type_free(&fa));
}

/* Get_count, Get_elements and Get_elements_x when the message ends inside a struct element:
 * 2 full (int, double, double) elements, then 1 complete and 1 partial. */
static void test_partial_elements(void)
{
    struct s3 {
        int a;
        double b[2];
    } s[3], r[3];
    int blens[2] = {1, 2}, pblens[4] = {1, 2, 1, 1}, count = -1, elements = -1;
    MPI_Aint displs[2] = {offsetof(struct s3, a), offsetof(struct s3, b)};
    MPI_Aint pdispls[4] = {offsetof(struct s3, a), offsetof(struct s3, b),
                           (MPI_Aint)sizeof(struct s3) + offsetof(struct s3, a),
                           (MPI_Aint)sizeof(struct s3) + offsetof(struct s3, b)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE},
                 ptypes[4] = {MPI_INT, MPI_DOUBLE, MPI_INT, MPI_DOUBLE};
    MPI_Datatype t, partial, tmp;
    MPI_Count elements_x = -1;
    MPI_Status st;

    CHECK_MPI(MPI_Type_create_struct(2, blens, displs, types, &tmp));
    CHECK_MPI(MPI_Type_create_resized(tmp, 0, (MPI_Aint)sizeof(struct s3), &t));
    CHECK_MPI(MPI_Type_free(&tmp));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Type_create_struct(4, pblens, pdispls, ptypes, &partial));
    CHECK_MPI(MPI_Type_commit(&partial));
    for (int k = 0; k < 3; k++) {
        s[k].a = ival(rank, k);
        s[k].b[0] = dval(rank, 2 * k);
        s[k].b[1] = dval(rank, 2 * k + 1);
        r[k].a = -1;
        r[k].b[0] = r[k].b[1] = -1.0;
    }

    CHECK_MPI(MPI_Sendrecv(s, 2, t, next, 40, r, 3, t, prev, 40, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, t, &count));
    CHECK_MPI(MPI_Get_elements(&st, t, &elements));
    CHECK_MPI(MPI_Get_elements_x(&st, t, &elements_x));
    if (count != 2 || elements != 6 || elements_x != 6) {
        fail(__LINE__, "2 whole structs: count %d elements %d elements_x %lld", count, elements,
             (long long)elements_x);
    }
    CHECK(r[1].b[1] == dval(prev, 3) && r[2].a == -1);

    for (int k = 0; k < 3; k++) {
        r[k].a = -1;
        r[k].b[0] = r[k].b[1] = -1.0;
    }
    CHECK_MPI(MPI_Sendrecv(s, 1, partial, next, 41, r, 3, t, prev, 41, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, t, &count));
    CHECK_MPI(MPI_Get_elements(&st, t, &elements));
    CHECK_MPI(MPI_Get_elements_x(&st, t, &elements_x));
    if (count != MPI_UNDEFINED || elements != 5 || elements_x != 5) {
        fail(__LINE__, "1 2/3 structs: count %d elements %d elements_x %lld", count, elements,
             (long long)elements_x);
    }
    CHECK(r[0].a == ival(prev, 0) && r[0].b[0] == dval(prev, 0) && r[0].b[1] == dval(prev, 1));
    CHECK(r[1].a == ival(prev, 1) && r[1].b[0] == dval(prev, 2));
    CHECK(r[1].b[1] == -1.0 && r[2].a == -1);

    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&partial));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fail(__LINE__, "needs at least 2 ranks");
    }
    next = (rank + 1) % size;
    prev = (rank - 1 + size) % size;

    test_vector_indexed();
    test_struct();
    test_struct_relayout();
    test_resized_column();
    test_subarray();
    test_partial_elements();

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
