/*
 * coll_forms.c - integration test of every collective of an intracommunicator in its three
 * forms: blocking, nonblocking (MPI_Igatherv, MPI_Iscatterv, MPI_Iallgatherv, MPI_Ialltoallv,
 * MPI_Ialltoallw, MPI_Ireduce_scatter(_block), MPI_Iscan, MPI_Iexscan and the rest) and
 * persistent (MPI_Barrier_init ... MPI_Exscan_init, MPI 4.0), each persistent request started
 * three times with new buffer contents, completed by MPI_Wait, found inactive by MPI_Test
 * (at once, empty status) and freed inactive.  Data moves as a strided vector type with gaps
 * (never written), in irregular "v" layouts with empty blocks; the reductions use a
 * non-commutative user operation on a derived type, so a wrong order shows; MPI_IN_PLACE
 * wherever the standard has it; MPI_Startall over several persistent collectives; and bad
 * arguments with their error classes (MPI_ERRORS_RETURN).  Runs on MPI_COMM_WORLD and on its
 * ranks in reverse order.
 *
 * Persistent collectives are MPI 4.0: the program needs an MPI that has them (MPICH 4.0.2
 * passes the blocking and nonblocking forms; its persistent collectives do not read the
 * buffers anew at each start, and it does not check all the bad arguments).  Any number of
 * ranks >= 1.  Prints "coll_forms R: ok" per rank, or "FAIL: coll_forms rank R: ..." and
 * aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_forms";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

#include "coll_reductions.h"

#include "coll_forms.h"

enum { N = 5 };

static MPI_Comm cm; /* the communicator under test */
static int me, n;   /* this rank and the size there */
static MPI_Info info;

#define STARTS(form) for (int k = 0; k < form_starts(form); k++)

static void t_barrier(int form)
{
    MPI_Request req = MPI_REQUEST_NULL;

    STARTS(form)
    {
        FORM_RUN(form, k, req, MPI_Barrier(cm), MPI_Ibarrier(cm, &req),
                 MPI_Barrier_init(cm, info, &req));
    }
    form_done(form, &req);
}

static void t_bcast(int form)
{
    MPI_Request req = MPI_REQUEST_NULL;
    void *buf = tbuf(T_VEC, N, RFILL);
    int root = n / 2;

    STARTS(form)
    {
        memset(buf, RFILL, text[T_VEC] * N);
        for (int i = 0; i < N && me == root; i++) {
            put(buf, T_VEC, i, val(root, k, i));
        }
        FORM_RUN(form, k, req, MPI_Bcast(buf, N, types[T_VEC], root, cm),
                 MPI_Ibcast(buf, N, types[T_VEC], root, cm, &req),
                 MPI_Bcast_init(buf, N, types[T_VEC], root, cm, info, &req));
        for (int i = 0; i < N; i++) {
            expect_elem(buf, T_VEC, i, val(root, k, i), "bcast", __LINE__);
        }
    }
    form_done(form, &req);
    free(buf);
}

/* The layout of a gather's or scatter's blocks: irregular (v) or N each in rank order. */
static long layout(bool v, int *counts, int *displs)
{
    if (v) {
        return vlayout(n, N, counts, displs);
    }
    for (int p = 0; p < n; p++) {
        counts[p] = N;
        displs[p] = p * N;
    }
    return (long)n * N;
}

/* Every block P of RB (as LAYOUT put it) holds val(p, k, i); the gaps are untouched. */
static void check_blocks(const void *rb, const int *counts, const int *displs, int k,
                         const char *what)
{
    for (int p = 0; p < n; p++) {
        for (int i = 0; i < counts[p]; i++) {
            expect_elem(rb, T_VEC, displs[p] + i, val(p, k, i), what, __LINE__);
        }
        if (counts[p] != N || displs[p] != p * N) {
            expect_untouched(rb, T_VEC, displs[p] + counts[p], what, __LINE__);
        }
    }
}

static void t_gather(int form, bool v, bool in_place)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    int root = n - 1;
    long total;
    void *sb = tbuf(T_VEC, N + 1, SFILL), *rb; /* a block has up to N + 1 */
    const void *s;
    MPI_Datatype t = types[T_VEC];

    CHECK(counts != NULL && displs != NULL);
    total = layout(v, counts, displs);
    rb = tbuf(T_VEC, total, RFILL);
    s = in_place && me == root ? MPI_IN_PLACE : sb;
    STARTS(form)
    {
        memset(rb, RFILL, text[T_VEC] * (size_t)total);
        for (int i = 0; i < counts[me]; i++) {
            put(sb, T_VEC, i, val(me, k, i));
            if (s == MPI_IN_PLACE) {
                put(rb, T_VEC, displs[me] + i, val(me, k, i));
            }
        }
        if (v) {
            FORM_RUN(
                form, k, req, MPI_Gatherv(s, counts[me], t, rb, counts, displs, t, root, cm),
                MPI_Igatherv(s, counts[me], t, rb, counts, displs, t, root, cm, &req),
                MPI_Gatherv_init(s, counts[me], t, rb, counts, displs, t, root, cm, info, &req));
        } else {
            FORM_RUN(form, k, req, MPI_Gather(s, N, t, rb, N, t, root, cm),
                     MPI_Igather(s, N, t, rb, N, t, root, cm, &req),
                     MPI_Gather_init(s, N, t, rb, N, t, root, cm, info, &req));
        }
        if (me == root) {
            check_blocks(rb, counts, displs, k, "gather");
        }
    }
    form_done(form, &req);
    free(sb);
    free(rb);
    free(counts);
    free(displs);
}

static void t_scatter(int form, bool v, bool in_place)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    int root = 0;
    long total;
    void *sb, *rb = tbuf(T_VEC, N + 2, RFILL), *r; /* a block has up to N + 1 */
    MPI_Datatype t = types[T_VEC];

    CHECK(counts != NULL && displs != NULL);
    total = layout(v, counts, displs);
    sb = tbuf(T_VEC, total, RFILL); /* gaps as a receive buffer's: in place it is checked */
    r = in_place && me == root ? MPI_IN_PLACE : rb;
    STARTS(form)
    {
        memset(rb, RFILL, text[T_VEC] * (N + 2));
        for (int p = 0; p < n && me == root; p++) {
            for (int i = 0; i < counts[p]; i++) {
                put(sb, T_VEC, displs[p] + i, val(p, k, i));
            }
        }
        if (v) {
            FORM_RUN(
                form, k, req, MPI_Scatterv(sb, counts, displs, t, r, counts[me], t, root, cm),
                MPI_Iscatterv(sb, counts, displs, t, r, counts[me], t, root, cm, &req),
                MPI_Scatterv_init(sb, counts, displs, t, r, counts[me], t, root, cm, info, &req));
        } else {
            FORM_RUN(form, k, req, MPI_Scatter(sb, N, t, r, N, t, root, cm),
                     MPI_Iscatter(sb, N, t, r, N, t, root, cm, &req),
                     MPI_Scatter_init(sb, N, t, r, N, t, root, cm, info, &req));
        }
        for (int i = 0; i < counts[me]; i++) {
            /* In place, the root's block stays where it was in sb. */
            if (r == MPI_IN_PLACE) {
                expect_elem(sb, T_VEC, displs[me] + i, val(me, k, i), "scatter", __LINE__);
            } else {
                expect_elem(rb, T_VEC, i, val(me, k, i), "scatter", __LINE__);
            }
        }
        expect_untouched(rb, T_VEC, r == MPI_IN_PLACE ? 0 : counts[me], "scatter", __LINE__);
    }
    form_done(form, &req);
    free(sb);
    free(rb);
    free(counts);
    free(displs);
}

static void t_allgather(int form, bool v, bool in_place)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    long total;
    void *sb = tbuf(T_VEC, N + 1, SFILL), *rb; /* a block has up to N + 1 */
    const void *s = in_place ? MPI_IN_PLACE : sb;
    MPI_Datatype t = types[T_VEC];

    CHECK(counts != NULL && displs != NULL);
    total = layout(v, counts, displs);
    rb = tbuf(T_VEC, total, RFILL);
    STARTS(form)
    {
        memset(rb, RFILL, text[T_VEC] * (size_t)total);
        for (int i = 0; i < counts[me]; i++) {
            put(in_place ? rb : sb, T_VEC, (in_place ? displs[me] : 0) + i, val(me, k, i));
        }
        if (v) {
            FORM_RUN(form, k, req, MPI_Allgatherv(s, counts[me], t, rb, counts, displs, t, cm),
                     MPI_Iallgatherv(s, counts[me], t, rb, counts, displs, t, cm, &req),
                     MPI_Allgatherv_init(s, counts[me], t, rb, counts, displs, t, cm, info, &req));
        } else {
            FORM_RUN(form, k, req, MPI_Allgather(s, N, t, rb, N, t, cm),
                     MPI_Iallgather(s, N, t, rb, N, t, cm, &req),
                     MPI_Allgather_init(s, N, t, rb, N, t, cm, info, &req));
        }
        check_blocks(rb, counts, displs, k, "allgather");
    }
    form_done(form, &req);
    free(sb);
    free(rb);
    free(counts);
    free(displs);
}

/* Alltoall(v): the block for peer p has (me + p) % 3 elements (plain: N), laid out in reverse
 * peer order with gaps, the same layout on both sides; element i of what a sends b is
 * val(a, b + 1000 k, i). */
static void t_alltoall(int form, bool v, bool in_place)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    long total = 0;
    void *sb, *rb;
    const void *s;
    MPI_Datatype t = types[T_VEC];

    CHECK(counts != NULL && displs != NULL);
    for (int p = n - 1; p >= 0; p--) {
        counts[p] = v ? (me + p) % 3 : N;
        displs[p] = v ? (int)total : p * N;
        total += v ? counts[p] + 1 : N;
    }
    sb = tbuf(T_VEC, total, SFILL);
    rb = tbuf(T_VEC, total, RFILL);
    s = in_place ? MPI_IN_PLACE : sb;
    STARTS(form)
    {
        memset(rb, RFILL, text[T_VEC] * (size_t)total);
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < counts[p]; i++) {
                put(in_place ? rb : sb, T_VEC, displs[p] + i, val(me, p + 1000 * k, i));
            }
        }
        if (v) {
            FORM_RUN(
                form, k, req, MPI_Alltoallv(s, counts, displs, t, rb, counts, displs, t, cm),
                MPI_Ialltoallv(s, counts, displs, t, rb, counts, displs, t, cm, &req),
                MPI_Alltoallv_init(s, counts, displs, t, rb, counts, displs, t, cm, info, &req));
        } else {
            FORM_RUN(form, k, req, MPI_Alltoall(s, N, t, rb, N, t, cm),
                     MPI_Ialltoall(s, N, t, rb, N, t, cm, &req),
                     MPI_Alltoall_init(s, N, t, rb, N, t, cm, info, &req));
        }
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < counts[p]; i++) {
                expect_elem(rb, T_VEC, displs[p] + i, val(p, me + 1000 * k, i), "alltoall",
                            __LINE__);
            }
            if (v) {
                expect_untouched(rb, T_VEC, displs[p] + counts[p], "alltoall", __LINE__);
            }
        }
    }
    form_done(form, &req);
    free(sb);
    free(rb);
    free(counts);
    free(displs);
}

/* Element I of the block of peer P of an alltoallw's receive side at BLOCK (a vector from an
 * odd peer, two ints from an even one) is, or becomes, V. */
static bool w_elem(char *block, int p, int i, int v, bool set)
{
    int *ints = (int *)(void *)block;

    if (set && p % 2) {
        put(block, T_VEC, i, v);
    } else if (set) {
        ints[2 * i] = v;
        ints[2 * i + 1] = v ^ 0x5555;
    }
    return p % 2 ? holds(block, T_VEC, i, v) : ints[2 * i] == v && ints[2 * i + 1] == (v ^ 0x5555);
}

/* Alltoallw: every rank sends its blocks as vectors; a block from an odd peer arrives as a
 * vector, one from an even peer as twice as many ints; byte displacements.  In place, each
 * block goes out as it comes in. */
static void t_alltoallw(int form, bool in_place)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)n);
    MPI_Datatype *rt = malloc(sizeof(MPI_Datatype) * (size_t)n);
    long total = 0;
    char *sb, *rb;
    const void *s;

    CHECK(sc != NULL && sd != NULL && rc != NULL && rd != NULL && st != NULL && rt != NULL);
    for (int p = n - 1; p >= 0; p--) {
        int c = (me + p) % 3 + 1;

        sc[p] = c;
        st[p] = types[T_VEC];
        rc[p] = p % 2 ? c : 2 * c;
        rt[p] = p % 2 ? types[T_VEC] : MPI_INT;
        sd[p] = rd[p] = (int)(total * (long)text[T_VEC]);
        total += c + 1;
    }
    sb = tbuf(T_VEC, total, SFILL);
    rb = tbuf(T_VEC, total, RFILL);
    s = in_place ? MPI_IN_PLACE : sb;
    STARTS(form)
    {
        memset(rb, RFILL, text[T_VEC] * (size_t)total);
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < sc[p]; i++) {
                put(sb + sd[p], T_VEC, i, val(me, p + 1000 * k, i));
            }
        }
        for (int p = 0; p < n && in_place; p++) {
            for (int i = 0; i < sc[p]; i++) {
                w_elem(rb + rd[p], p, i, val(me, p + 1000 * k, i), true);
            }
        }
        FORM_RUN(form, k, req, MPI_Alltoallw(s, sc, sd, st, rb, rc, rd, rt, cm),
                 MPI_Ialltoallw(s, sc, sd, st, rb, rc, rd, rt, cm, &req),
                 MPI_Alltoallw_init(s, sc, sd, st, rb, rc, rd, rt, cm, info, &req));
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < sc[p]; i++) {
                if (!w_elem(rb + rd[p], p, i, val(p, me + 1000 * k, i), false)) {
                    fail(__LINE__, "alltoallw: element %d from rank %d wrong", i, p);
                }
            }
        }
    }
    form_done(form, &req);
    free(sb);
    free(rb);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
}

/* Reduce and allreduce with the non-commutative matrix product: element i of start k is the
 * fold of every rank's contribution 100 k + i, in rank order. */
static void t_reduce(int form, bool all, bool in_place)
{
    const int kk = R_USER_MAT;
    MPI_Request req = MPI_REQUEST_NULL;
    void *sb = rbuf_alloc(kk, N), *rb = rbuf_alloc(kk, N), *want;
    int root = n / 2;
    bool ip = in_place && (all || me == root);
    const void *s = ip ? MPI_IN_PLACE : sb;
    MPI_Datatype t = rtype[kk];
    MPI_Op op = rop[kk];

    STARTS(form)
    {
        memset(rb, RFILL, rsize[kk] * N);
        fill_contrib(kk, me, N, ip ? rb : sb, 100 * k);
        if (all) {
            FORM_RUN(form, k, req, MPI_Allreduce(s, rb, N, t, op, cm),
                     MPI_Iallreduce(s, rb, N, t, op, cm, &req),
                     MPI_Allreduce_init(s, rb, N, t, op, cm, info, &req));
        } else {
            FORM_RUN(form, k, req, MPI_Reduce(s, rb, N, t, op, root, cm),
                     MPI_Ireduce(s, rb, N, t, op, root, cm, &req),
                     MPI_Reduce_init(s, rb, N, t, op, root, cm, info, &req));
        }
        if (all || me == root) {
            want = expect_all(kk, N, 100 * k, 0, n - 1);
            check_against(kk, rb, want, N, 100 * k, all ? "allreduce" : "reduce", __LINE__);
            free(want);
        }
    }
    form_done(form, &req);
    free(sb);
    free(rb);
}

/* Reduce-scatter: rank r's block has r % 3 elements (block form: 2), the vector is every
 * block in rank order, and start k reduces contributions 100 k + j. */
static void t_reduce_scatter(int form, bool block, bool in_place)
{
    const int kk = R_USER_MAT;
    MPI_Request req = MPI_REQUEST_NULL;
    int *counts = malloc(sizeof(int) * (size_t)n), offset = 0;
    long total = 0;
    void *sb, *rb, *want;
    const void *s;
    MPI_Datatype t = rtype[kk];
    MPI_Op op = rop[kk];

    CHECK(counts != NULL);
    for (int p = 0; p < n; p++) {
        counts[p] = block ? 2 : p % 3;
        offset += p < me ? counts[p] : 0;
        total += counts[p];
    }
    sb = rbuf_alloc(kk, total);
    rb = rbuf_alloc(kk, total);
    s = in_place ? MPI_IN_PLACE : sb;
    STARTS(form)
    {
        memset(rb, RFILL, rsize[kk] * (size_t)(total > 0 ? total : 1));
        fill_contrib(kk, me, total, in_place ? rb : sb, 100 * k);
        if (block) {
            FORM_RUN(form, k, req, MPI_Reduce_scatter_block(s, rb, 2, t, op, cm),
                     MPI_Ireduce_scatter_block(s, rb, 2, t, op, cm, &req),
                     MPI_Reduce_scatter_block_init(s, rb, 2, t, op, cm, info, &req));
        } else {
            FORM_RUN(form, k, req, MPI_Reduce_scatter(s, rb, counts, t, op, cm),
                     MPI_Ireduce_scatter(s, rb, counts, t, op, cm, &req),
                     MPI_Reduce_scatter_init(s, rb, counts, t, op, cm, info, &req));
        }
        want = expect_all(kk, counts[me], 100 * k + offset, 0, n - 1);
        check_against(kk, rb, want, counts[me], 100 * k + offset, "reduce_scatter", __LINE__);
        free(want);
    }
    form_done(form, &req);
    free(sb);
    free(rb);
    free(counts);
}

static void t_scan(int form, bool exclusive, bool in_place)
{
    const int kk = R_USER_MAT;
    MPI_Request req = MPI_REQUEST_NULL;
    void *sb = rbuf_alloc(kk, N), *rb = rbuf_alloc(kk, N), *want;
    const void *s = in_place ? MPI_IN_PLACE : sb;
    MPI_Datatype t = rtype[kk];
    MPI_Op op = rop[kk];

    STARTS(form)
    {
        memset(rb, RFILL, rsize[kk] * N);
        fill_contrib(kk, me, N, in_place ? rb : sb, 100 * k);
        if (exclusive) {
            FORM_RUN(form, k, req, MPI_Exscan(s, rb, N, t, op, cm),
                     MPI_Iexscan(s, rb, N, t, op, cm, &req),
                     MPI_Exscan_init(s, rb, N, t, op, cm, info, &req));
        } else {
            FORM_RUN(form, k, req, MPI_Scan(s, rb, N, t, op, cm),
                     MPI_Iscan(s, rb, N, t, op, cm, &req),
                     MPI_Scan_init(s, rb, N, t, op, cm, info, &req));
        }
        if (!exclusive || me > 0) {
            want = expect_all(kk, N, 100 * k, 0, exclusive ? me - 1 : me);
            check_against(kk, rb, want, N, 100 * k, exclusive ? "exscan" : "scan", __LINE__);
            free(want);
        }
    }
    form_done(form, &req);
    free(sb);
    free(rb);
}

/* Several persistent collectives started together, three times. */
static void t_startall(void)
{
    MPI_Request reqs[3];
    int b[N], in[N], sum[N], ex[N];

    CHECK_MPI(MPI_Bcast_init(b, N, MPI_INT, 0, cm, MPI_INFO_NULL, &reqs[0]));
    CHECK_MPI(MPI_Allreduce_init(in, sum, N, MPI_INT, MPI_SUM, cm, MPI_INFO_NULL, &reqs[1]));
    CHECK_MPI(MPI_Exscan_init(in, ex, N, MPI_INT, MPI_SUM, cm, MPI_INFO_NULL, &reqs[2]));
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < N; i++) {
            b[i] = me == 0 ? val(0, k, i) : -1;
            in[i] = (me + 1) * (i + k);
        }
        CHECK_MPI(MPI_Startall(3, reqs));
        CHECK_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
        for (int i = 0; i < N; i++) {
            CHECK(b[i] == val(0, k, i));
            CHECK(sum[i] == n * (n + 1) / 2 * (i + k));
            CHECK(me == 0 || ex[i] == me * (me + 1) / 2 * (i + k));
        }
    }
    for (int j = 0; j < 3; j++) {
        CHECK(reqs[j] != MPI_REQUEST_NULL);
        CHECK_MPI(MPI_Request_free(&reqs[j]));
    }
}

/* Bad arguments: the same at every rank, found before anything moves. */
static void t_errors(void)
{
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    int *bad = malloc(sizeof(int) * (size_t)n), buf[4] = {0}, out[64];
    MPI_Datatype *dts = malloc(sizeof(MPI_Datatype) * (size_t)n);
    MPI_Request req;
    int rc;

    CHECK(counts != NULL && displs != NULL && bad != NULL && dts != NULL && n <= 16);
    for (int p = 0; p < n; p++) {
        counts[p] = 1;
        displs[p] = p;
        bad[p] = -1;
        dts[p] = MPI_INT;
    }
    EXPECT(MPI_Igatherv(buf, -1, MPI_INT, out, counts, displs, MPI_INT, 0, cm, &req),
           MPI_ERR_COUNT);
    EXPECT(MPI_Iscatterv(buf, counts, displs, MPI_INT, out, 1, MPI_INT, n, cm, &req), MPI_ERR_ROOT);
    EXPECT(MPI_Iallgatherv(buf, 1, MPI_INT, out, bad, displs, MPI_INT, cm, &req), MPI_ERR_COUNT);
    EXPECT(MPI_Iallgatherv(buf, 1, MPI_INT, out, NULL, displs, MPI_INT, cm, &req), MPI_ERR_ARG);
    EXPECT(MPI_Ialltoallv(buf, counts, displs, MPI_DATATYPE_NULL, out, counts, displs, MPI_INT, cm,
                          &req),
           MPI_ERR_TYPE);
    EXPECT(MPI_Ialltoallw(buf, counts, displs, NULL, out, counts, displs, dts, cm, &req),
           MPI_ERR_ARG);
    EXPECT(MPI_Ireduce_scatter(buf, out, bad, MPI_INT, MPI_SUM, cm, &req), MPI_ERR_COUNT);
    EXPECT(MPI_Ireduce_scatter_block(buf, out, 1, MPI_INT, MPI_OP_NULL, cm, &req), MPI_ERR_OP);
    EXPECT(MPI_Iscan(buf, out, 1, MPI_INT, MPI_OP_NULL, cm, &req), MPI_ERR_OP);
    EXPECT(MPI_Iexscan(buf, out, -1, MPI_INT, MPI_SUM, cm, &req), MPI_ERR_COUNT);
    EXPECT(MPI_Iscan(buf, out, 1, MPI_INT, MPI_SUM, cm, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Barrier_init(cm, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Bcast_init(buf, 1, MPI_INT, -5, cm, MPI_INFO_NULL, &req), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce_scatter_block_init(buf, out, -1, MPI_INT, MPI_SUM, cm, MPI_INFO_NULL, &req),
           MPI_ERR_COUNT);
    EXPECT(MPI_Scan_init(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, cm, MPI_INFO_NULL, &req),
           MPI_ERR_TYPE);
    EXPECT(MPI_Alltoall_init(buf, 1, MPI_INT, out, -2, MPI_INT, cm, MPI_INFO_NULL, &req),
           MPI_ERR_COUNT);
    /* The root's displs missing (the others' do not count). */
    rc = MPI_Gatherv_init(buf, 1, MPI_INT, out, counts, NULL, MPI_INT, 0, cm, MPI_INFO_NULL, &req);
    if (me == 0) {
        expect_class(rc, MPI_ERR_ARG, "MPI_Gatherv_init without displs", __LINE__);
    } else {
        CHECK_MPI(rc);
        CHECK_MPI(MPI_Request_free(&req));
    }
    /* MPI_IN_PLACE at a rank that is not the root. */
    rc = MPI_Reduce_init(MPI_IN_PLACE, out, 1, MPI_INT, MPI_SUM, 0, cm, MPI_INFO_NULL, &req);
    if (me == 0) {
        CHECK_MPI(rc);
        CHECK_MPI(MPI_Request_free(&req));
    } else {
        expect_class(rc, MPI_ERR_BUFFER, "MPI_Reduce_init in place off the root", __LINE__);
    }
    /* Starting an active persistent collective. */
    CHECK_MPI(MPI_Allreduce_init(buf, out, 1, MPI_INT, MPI_SUM, cm, MPI_INFO_NULL, &req));
    CHECK_MPI(MPI_Start(&req));
    EXPECT(MPI_Start(&req), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(out[0] == 0);
    CHECK_MPI(MPI_Request_free(&req));
    /* Still usable. */
    buf[0] = 1;
    CHECK_MPI(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, cm));
    CHECK(out[0] == n);
    free(counts);
    free(displs);
    free(bad);
    free((void *)dts);
}

static void run(MPI_Comm comm)
{
    cm = comm;
    MPI_Comm_rank(cm, &me);
    MPI_Comm_size(cm, &n);
    for (int form = 0; form < NFORMS; form++) {
        t_barrier(form);
        t_bcast(form);
        for (int v = 0; v < 2; v++) {
            for (int ip = 0; ip < 2; ip++) {
                t_gather(form, v, ip);
                t_scatter(form, v, ip);
                t_allgather(form, v, ip);
                t_alltoall(form, v, ip);
                t_reduce(form, v, ip);
                t_reduce_scatter(form, v, ip);
                t_scan(form, v, ip);
            }
        }
        t_alltoallw(form, false);
        t_alltoallw(form, true);
    }
    t_startall();
    t_errors();
}

int main(int argc, char **argv)
{
    MPI_Comm rev;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    types_init();
    red_init();
    /* Its key means nothing to any MPI: persistent collectives ignore what they do not know. */
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "coll_forms_unknown_key", "1"));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    run(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    CHECK_MPI(MPI_Comm_set_errhandler(rev, MPI_ERRORS_RETURN));
    run(rev);
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Info_free(&info));
    red_free();
    types_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
