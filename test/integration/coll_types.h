/*
 * coll_types.h - the element types every collective test moves (int, double, a strided vector
 * with gaps) and how a test fills, checks and lays out buffers of them.
 *
 * Include after p2p_check.h, with `static int rank, size;` declared.
 */
#ifndef COMM_TEST_COLL_TYPES_H
#define COMM_TEST_COLL_TYPES_H

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

/* Every rank of COMM, in an order that deals COMM's ranks round-robin over three piles (0, 3,
 * 6, ..., then 1, 4, 7, ..., then 2, 5, ...): where neighbours in COMM share a host, each
 * host's ranks lie apart in the new communicator, as with round-robin placement. */
static inline MPI_Comm dealt_comm(MPI_Comm comm)
{
    MPI_Comm dealt;
    int me, n;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    CHECK_MPI(MPI_Comm_split(comm, 0, (me % 3) * n + me, &dealt));
    return dealt;
}

/* Runs TEST on MPI_COMM_WORLD, on its uneven halves with world's ranks reversed, and on all
 * its ranks dealt round-robin (dealt_comm). */
static inline void test_comms(void (*test)(MPI_Comm))
{
    MPI_Comm half, dealt;
    int me, n;

    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    test(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, me % 2, n - me, &half));
    test(half);
    CHECK_MPI(MPI_Comm_free(&half));
    dealt = dealt_comm(MPI_COMM_WORLD);
    test(dealt);
    CHECK_MPI(MPI_Comm_free(&dealt));
}

#endif
