/*
 * coll_intercomm.c - integration test of intercommunicators: Intercomm_create from two
 * halves of MPI_COMM_WORLD (low/high halves with leaders at local rank 0, and even/odd ranks
 * with reversed local order and the last local rank as leader); Comm_test_inter, Comm_size,
 * Comm_remote_size and Comm_remote_group; point-to-point across (ranks name the remote
 * group, any-source status); Barrier; Bcast from every root of each group (MPI_ROOT,
 * MPI_PROC_NULL, counts 0 to 1 MiB); Allreduce (sum, max), whose result in each group is the
 * reduction over the other group; every collective the standard defines on
 * intercommunicators (barrier, bcast, gather(v), scatter(v), allgather(v), alltoall(v,w),
 * reduce, allreduce, reduce_scatter(_block)) in its blocking, nonblocking and persistent forms
 * (persistent requests started three times with new data), rooted ones from each group, the
 * reductions with a non-commutative operation (the other group's data in its rank order),
 * v layouts with gaps and empty blocks, on groups of unequal sizes; Intercomm_merge with either
 * group high; Comm_dup and Comm_compare.
 *
 * Plain portable MPI 4.0: it must pass on any correct MPI, so it asserts only what the
 * standard guarantees (MPICH 4.0.2 passes the blocking and nonblocking forms; its persistent
 * collectives do not read the buffers anew at each start).  Any number of ranks >= 2.  Prints "coll_intercomm R: ok" per rank, or
 * "FAIL: coll_intercomm rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_intercomm";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

#include "coll_reductions.h"

#include "coll_forms.h"

enum { TAG_CREATE = 31, TAG_CREATE2 = 32, TAG_P2P = 33, N = 37, BIG = (1 << 18) + 1 };

#define STARTS(form) for (int k = 0; k < form_starts(form); k++)

/* One intercommunicator and what this rank knows about both sides. */
struct side {
    MPI_Comm local, inter;
    int in_a; /* which group this rank is in */
    int lsize, rsize, lrank;
    int *lworld, *rworld; /* world ranks of the local and remote groups, in their order */
};

static void members(struct side *s, int (*group_of)(int), int (*order)(int, int))
{
    int nl = 0, nr = 0;

    s->lworld = malloc(sizeof(int) * (size_t)size);
    s->rworld = malloc(sizeof(int) * (size_t)size);
    CHECK(s->lworld != NULL && s->rworld != NULL);
    for (int i = 0; i < size; i++) {
        int r = order(i, size);

        if (group_of(r) == s->in_a) {
            s->lworld[nl++] = r;
        } else {
            s->rworld[nr++] = r;
        }
    }
    s->lsize = nl;
    s->rsize = nr;
}

static int low_half(int r)
{
    return r < size / 2;
}

static int even(int r)
{
    return r % 2 == 0;
}

static int forward(int i, int n)
{
    (void)n;
    return i;
}

static int backward(int i, int n)
{
    return n - 1 - i;
}

/* Group A is the low half (world order, leaders the first ranks); or the even ranks, local
 * ranks reversed, with the last local rank as leader. */
static void build(struct side *s, int kind)
{
    int flag, n, result;
    MPI_Group rg, wg;
    int *idx, *tr;

    if (kind == 0) {
        s->in_a = low_half(rank);
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, s->in_a, rank, &s->local));
        members(s, low_half, forward);
        CHECK_MPI(
            MPI_Intercomm_create(s->local, 0, MPI_COMM_WORLD, s->rworld[0], TAG_CREATE, &s->inter));
    } else {
        s->in_a = even(rank);
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, s->in_a, -rank, &s->local));
        members(s, even, backward);
        CHECK_MPI(MPI_Intercomm_create(s->local, s->lsize - 1, MPI_COMM_WORLD,
                                       s->rworld[s->rsize - 1], TAG_CREATE2, &s->inter));
    }
    MPI_Comm_rank(s->inter, &s->lrank);
    CHECK(s->lworld[s->lrank] == rank);
    CHECK_MPI(MPI_Comm_test_inter(s->inter, &flag));
    CHECK(flag);
    MPI_Comm_size(s->inter, &n);
    CHECK(n == s->lsize);
    CHECK_MPI(MPI_Comm_remote_size(s->inter, &n));
    CHECK(n == s->rsize);
    /* The remote group, translated to world ranks, is the other side in its order. */
    CHECK_MPI(MPI_Comm_remote_group(s->inter, &rg));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    idx = malloc(sizeof(int) * (size_t)s->rsize);
    tr = malloc(sizeof(int) * (size_t)s->rsize);
    CHECK(idx != NULL && tr != NULL);
    for (int i = 0; i < s->rsize; i++) {
        idx[i] = i;
    }
    CHECK_MPI(MPI_Group_translate_ranks(rg, s->rsize, idx, wg, tr));
    for (int i = 0; i < s->rsize; i++) {
        CHECK(tr[i] == s->rworld[i]);
    }
    CHECK_MPI(MPI_Group_free(&rg));
    CHECK_MPI(MPI_Group_free(&wg));
    free(idx);
    free(tr);
    CHECK_MPI(MPI_Comm_compare(s->inter, s->inter, &result));
    CHECK(result == MPI_IDENT);
}

static void destroy(struct side *s)
{
    CHECK_MPI(MPI_Comm_free(&s->inter));
    CHECK_MPI(MPI_Comm_free(&s->local));
    free(s->lworld);
    free(s->rworld);
}

/* Every rank sends to every remote rank and receives from each; ranks name the remote group. */
static void test_p2p(struct side *s)
{
    int n = s->rsize, *out = malloc(sizeof(int) * (size_t)n), *in = malloc(sizeof(int) * (size_t)n);
    MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)n);
    MPI_Status st;

    CHECK(out != NULL && in != NULL && req != NULL);
    for (int p = 0; p < n; p++) {
        out[p] = rank * 1000 + s->rworld[p];
        CHECK_MPI(MPI_Irecv(&in[p], 1, MPI_INT, p, TAG_P2P, s->inter, &req[p]));
        CHECK_MPI(MPI_Isend(&out[p], 1, MPI_INT, p, TAG_P2P, s->inter, &req[n + p]));
    }
    CHECK_MPI(MPI_Waitall(2 * n, req, MPI_STATUSES_IGNORE));
    for (int p = 0; p < n; p++) {
        CHECK(in[p] == s->rworld[p] * 1000 + rank);
    }
    /* Any-source receive: the status names the remote rank. */
    if (s->lrank == s->lsize - 1) {
        CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, 0, TAG_P2P + 1, s->inter, &req[0]));
    }
    if (s->lrank == 0) {
        CHECK_MPI(MPI_Recv(&in[0], 1, MPI_INT, MPI_ANY_SOURCE, TAG_P2P + 1, s->inter, &st));
        CHECK(st.MPI_SOURCE == n - 1 && in[0] == s->rworld[n - 1]);
    }
    if (s->lrank == s->lsize - 1) {
        CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    }
    free(out);
    free(in);
    free(req);
}

/* Bcast from each rank of each group in turn: the root passes MPI_ROOT, its group MPI_PROC_NULL
 * (their buffers stay untouched), the other group the root's rank there. */
static void test_bcast(struct side *s)
{
    const long counts[] = {0, 1, N, BIG};
    int *buf = malloc(sizeof(int) * (BIG + 1));

    CHECK(buf != NULL);
    for (int a_sends = 1; a_sends >= 0; a_sends--) {
        int sending = s->in_a == a_sends;
        int nroots = sending ? s->lsize : s->rsize;

        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            long cnt = counts[c];

            for (int root = 0; root < nroots; root++) {
                int me_root = sending && root == s->lrank;
                int rootw = sending ? s->lworld[root] : s->rworld[root];

                if (cnt == BIG && root != 0 && root != nroots - 1) {
                    continue;
                }
                for (long i = 0; i <= cnt; i++) {
                    buf[i] = me_root && i < cnt ? val(rootw, (int)c, i) : -3;
                }
                CHECK_MPI(MPI_Bcast(buf, (int)cnt, MPI_INT,
                                    me_root   ? MPI_ROOT
                                    : sending ? MPI_PROC_NULL
                                              : root,
                                    s->inter));
                for (long i = 0; i < cnt; i++) {
                    int want = sending && !me_root ? -3 : val(rootw, (int)c, i);

                    if (buf[i] != want) {
                        fail(__LINE__,
                             "bcast root %d of group %s count %ld: element %ld is %d, "
                             "expected %d",
                             root, a_sends ? "A" : "B", cnt, i, buf[i], want);
                    }
                }
                CHECK(buf[cnt] == -3);
            }
        }
    }
    free(buf);
}

/* Allreduce on an intercommunicator: each group gets the reduction of the other's data. */
static void test_allreduce(struct side *s)
{
    const long counts[] = {0, 1, N, BIG};
    int *in = malloc(sizeof(int) * BIG), *out = malloc(sizeof(int) * (BIG + 1));

    CHECK(in != NULL && out != NULL);
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        long cnt = counts[c];

        for (int o = 0; o < 2; o++) {
            MPI_Op op = o ? MPI_MAX : MPI_SUM;

            for (long i = 0; i < cnt; i++) {
                in[i] = val(rank, o, i) % 100000;
            }
            out[cnt] = -3;
            CHECK_MPI(MPI_Allreduce(in, out, (int)cnt, MPI_INT, op, s->inter));
            for (long i = 0; i < cnt; i++) {
                int want = o ? -1 : 0;

                for (int p = 0; p < s->rsize; p++) {
                    int v = val(s->rworld[p], o, i) % 100000;

                    want = o ? (v > want ? v : want) : want + v;
                }
                if (out[i] != want) {
                    fail(__LINE__, "allreduce %s count %ld: element %ld is %d, expected %d",
                         o ? "max" : "sum", cnt, i, out[i], want);
                }
            }
            CHECK(out[cnt] == -3);
        }
    }
    free(in);
    free(out);
}

/* The root argument of a rooted call whose root is local rank 0 of group A (A_ROOTS) or of
 * group B: MPI_ROOT there, MPI_PROC_NULL in the rest of its group, 0 in the other group. */
static int root_arg(const struct side *s, int a_roots)
{
    if (s->in_a == a_roots) {
        return s->lrank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    }
    return 0;
}

/* Gather(v) and scatter(v) from each group's rank 0 to the other group: remote rank p's block
 * has vcount(p, N) elements (plain: N), in vlayout's order with gaps. */
static void test_forms_rooted(const struct side *s, int form, int a_roots, bool v)
{
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int root = root_arg(s, a_roots), at_root = root == MPI_ROOT, leaf = root == 0;
    int *counts = malloc(sizeof(int) * (size_t)s->rsize), *displs, mine;
    long total;
    void *lay, *one = tbuf(T_VEC, N + 2, RFILL);
    MPI_Datatype t = types[T_VEC];

    displs = malloc(sizeof(int) * (size_t)s->rsize);
    CHECK(counts != NULL && displs != NULL);
    total = v ? vlayout(s->rsize, N, counts, displs) : (long)s->rsize * N;
    for (int p = 0; !v && p < s->rsize; p++) {
        counts[p] = N;
        displs[p] = p * N;
    }
    mine = v ? vcount(s->lrank, N) : N;
    lay = tbuf(T_VEC, total, RFILL);
    STARTS(form)
    {
        /* Gather: the leaves send, the root fills its layout. */
        memset(lay, RFILL, text[T_VEC] * (size_t)total);
        memset(one, RFILL, text[T_VEC] * (N + 2));
        for (int i = 0; i < mine; i++) {
            put(one, T_VEC, i, val(rank, k, i));
        }
        if (v) {
            FORM_RUN(form, k, rq[0],
                     MPI_Gatherv(one, mine, t, lay, counts, displs, t, root, s->inter),
                     MPI_Igatherv(one, mine, t, lay, counts, displs, t, root, s->inter, &rq[0]),
                     MPI_Gatherv_init(one, mine, t, lay, counts, displs, t, root, s->inter,
                                      MPI_INFO_NULL, &rq[0]));
        } else {
            FORM_RUN(form, k, rq[0], MPI_Gather(one, N, t, lay, N, t, root, s->inter),
                     MPI_Igather(one, N, t, lay, N, t, root, s->inter, &rq[0]),
                     MPI_Gather_init(one, N, t, lay, N, t, root, s->inter, MPI_INFO_NULL, &rq[0]));
        }
        for (int p = 0; p < s->rsize; p++) {
            for (int i = 0; i < counts[p]; i++) {
                if (at_root) {
                    expect_elem(lay, T_VEC, displs[p] + i, val(s->rworld[p], k, i), "gather",
                                __LINE__);
                } else {
                    expect_untouched(lay, T_VEC, displs[p] + i, "gather", __LINE__);
                }
            }
        }
        /* Scatter: the root sends its layout back out, one block per remote rank. */
        memset(one, RFILL, text[T_VEC] * (N + 2));
        for (int p = 0; p < s->rsize; p++) {
            for (int i = 0; i < counts[p]; i++) {
                put(lay, T_VEC, displs[p] + i, val(s->rworld[p], k + 50, i));
            }
        }
        if (v) {
            FORM_RUN(form, k, rq[1],
                     MPI_Scatterv(lay, counts, displs, t, one, mine, t, root, s->inter),
                     MPI_Iscatterv(lay, counts, displs, t, one, mine, t, root, s->inter, &rq[1]),
                     MPI_Scatterv_init(lay, counts, displs, t, one, mine, t, root, s->inter,
                                       MPI_INFO_NULL, &rq[1]));
        } else {
            FORM_RUN(form, k, rq[1], MPI_Scatter(lay, N, t, one, N, t, root, s->inter),
                     MPI_Iscatter(lay, N, t, one, N, t, root, s->inter, &rq[1]),
                     MPI_Scatter_init(lay, N, t, one, N, t, root, s->inter, MPI_INFO_NULL, &rq[1]));
        }
        for (int i = 0; i < N + 2; i++) {
            if (leaf && i < mine) {
                expect_elem(one, T_VEC, i, val(rank, k + 50, i), "scatter", __LINE__);
            } else {
                expect_untouched(one, T_VEC, i, "scatter", __LINE__);
            }
        }
    }
    form_done(form, &rq[0]);
    form_done(form, &rq[1]);
    free(counts);
    free(displs);
    free(lay);
    free(one);
}

/* Reduce to each group's rank 0 and allreduce, with the non-commutative matrix product: the
 * result is the other group's contributions folded in its rank order. */
static void test_forms_reduce(const struct side *s, int form, int a_roots)
{
    const int kk = R_USER_MAT;
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int root = root_arg(s, a_roots);
    void *sb = rbuf_alloc(kk, N), *rb = rbuf_alloc(kk, N), *want;
    MPI_Datatype t = rtype[kk];
    MPI_Op op = rop[kk];

    STARTS(form)
    {
        want = expect_all(kk, N, 100 * k, 0, s->rsize - 1);
        fill_contrib(kk, s->lrank, N, sb, 100 * k);
        memset(rb, RFILL, rsize[kk] * N);
        FORM_RUN(form, k, rq[0], MPI_Reduce(sb, rb, N, t, op, root, s->inter),
                 MPI_Ireduce(sb, rb, N, t, op, root, s->inter, &rq[0]),
                 MPI_Reduce_init(sb, rb, N, t, op, root, s->inter, MPI_INFO_NULL, &rq[0]));
        if (root == MPI_ROOT) {
            check_against(kk, rb, want, N, 100 * k, "inter reduce", __LINE__);
        } else {
            CHECK(untouched(rb, T_INT, 0));
        }
        memset(rb, RFILL, rsize[kk] * N);
        FORM_RUN(form, k, rq[1], MPI_Allreduce(sb, rb, N, t, op, s->inter),
                 MPI_Iallreduce(sb, rb, N, t, op, s->inter, &rq[1]),
                 MPI_Allreduce_init(sb, rb, N, t, op, s->inter, MPI_INFO_NULL, &rq[1]));
        check_against(kk, rb, want, N, 100 * k, "inter allreduce", __LINE__);
        free(want);
    }
    form_done(form, &rq[0]);
    form_done(form, &rq[1]);
    free(sb);
    free(rb);
}

/* Reduce-scatter: the vector has 2 (lsize + rsize) elements in both groups; each group's
 * reduction (in its rank order) is scattered over the other group, local rank j getting j % 3
 * elements but the last, which gets the rest.  The block form: lsize * rsize elements,
 * rsize to each rank. */
static void test_forms_reduce_scatter(const struct side *s, int form, bool block)
{
    const int kk = R_USER_MAT;
    MPI_Request req = MPI_REQUEST_NULL;
    long total = block ? (long)s->lsize * s->rsize : 2L * (s->lsize + s->rsize);
    int *counts = malloc(sizeof(int) * (size_t)s->lsize), offset = 0, left = (int)total;
    void *sb = rbuf_alloc(kk, total), *rb = rbuf_alloc(kk, total), *want;
    MPI_Datatype t = rtype[kk];
    MPI_Op op = rop[kk];

    CHECK(counts != NULL);
    for (int j = 0; j < s->lsize; j++) {
        counts[j] = block ? s->rsize : j < s->lsize - 1 ? j % 3 : left;
        left -= counts[j];
        offset += j < s->lrank ? counts[j] : 0;
    }
    STARTS(form)
    {
        fill_contrib(kk, s->lrank, total, sb, 100 * k);
        memset(rb, RFILL, rsize[kk] * (size_t)total);
        if (block) {
            FORM_RUN(form, k, req, MPI_Reduce_scatter_block(sb, rb, s->rsize, t, op, s->inter),
                     MPI_Ireduce_scatter_block(sb, rb, s->rsize, t, op, s->inter, &req),
                     MPI_Reduce_scatter_block_init(sb, rb, s->rsize, t, op, s->inter, MPI_INFO_NULL,
                                                   &req));
        } else {
            FORM_RUN(form, k, req, MPI_Reduce_scatter(sb, rb, counts, t, op, s->inter),
                     MPI_Ireduce_scatter(sb, rb, counts, t, op, s->inter, &req),
                     MPI_Reduce_scatter_init(sb, rb, counts, t, op, s->inter, MPI_INFO_NULL, &req));
        }
        want = expect_all(kk, counts[s->lrank], 100 * k + offset, 0, s->rsize - 1);
        check_against(kk, rb, want, counts[s->lrank], 100 * k + offset, "inter reduce_scatter",
                      __LINE__);
        free(want);
    }
    form_done(form, &req);
    free(counts);
    free(sb);
    free(rb);
}

/* Allgather(v) and alltoall(v, w) between the groups: what a sends b is val(a, b + 1000 k, i)
 * (allgather: val(a, k, i)), counts (lrank + p) % 3 to remote rank p for the v forms. */
static void test_forms_all(const struct side *s, int form, bool v)
{
    MPI_Request rq[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int n = s->rsize, *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    int *sc = malloc(sizeof(int) * (size_t)n), *bd = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *ts = malloc(sizeof(MPI_Datatype) * (size_t)n), t = types[T_VEC];
    int mine = v ? vcount(s->lrank, N) : N;
    long total = 0;
    void *one = tbuf(T_VEC, N + 1, SFILL), *sb, *rb;

    CHECK(rc != NULL && rd != NULL && sc != NULL && bd != NULL && ts != NULL);
    /* Allgather's layout: remote rank p's block has vcount(p, N) elements. */
    total = v ? vlayout(n, N, rc, rd) : (long)n * N;
    for (int p = 0; !v && p < n; p++) {
        rc[p] = N;
        rd[p] = p * N;
    }
    rb = tbuf(T_VEC, total > 3L * n ? total : 3L * n, RFILL);
    sb = tbuf(T_VEC, 3L * n, SFILL);
    STARTS(form)
    {
        for (int i = 0; i < mine; i++) {
            put(one, T_VEC, i, val(rank, k, i));
        }
        memset(rb, RFILL, text[T_VEC] * (size_t)total);
        if (v) {
            FORM_RUN(
                form, k, rq[0], MPI_Allgatherv(one, mine, t, rb, rc, rd, t, s->inter),
                MPI_Iallgatherv(one, mine, t, rb, rc, rd, t, s->inter, &rq[0]),
                MPI_Allgatherv_init(one, mine, t, rb, rc, rd, t, s->inter, MPI_INFO_NULL, &rq[0]));
        } else {
            FORM_RUN(form, k, rq[0], MPI_Allgather(one, N, t, rb, N, t, s->inter),
                     MPI_Iallgather(one, N, t, rb, N, t, s->inter, &rq[0]),
                     MPI_Allgather_init(one, N, t, rb, N, t, s->inter, MPI_INFO_NULL, &rq[0]));
        }
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < rc[p]; i++) {
                expect_elem(rb, T_VEC, rd[p] + i, val(s->rworld[p], k, i), "inter allgather",
                            __LINE__);
            }
        }
    }
    /* Alltoall(v): both sides laid out alike, block p at 3 p. */
    for (int p = 0; p < n; p++) {
        sc[p] = v ? (s->lrank + p) % 3 : 3;
        rd[p] = 3 * p;
        bd[p] = 3 * p * (int)sizeof(int);
        ts[p] = MPI_INT;
    }
    STARTS(form)
    {
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < sc[p]; i++) {
                put(sb, T_VEC, rd[p] + i, val(rank, s->rworld[p] + 1000 * k, i));
            }
        }
        memset(rb, RFILL, text[T_VEC] * 3 * (size_t)n);
        if (v) {
            FORM_RUN(
                form, k, rq[1], MPI_Alltoallv(sb, sc, rd, t, rb, sc, rd, t, s->inter),
                MPI_Ialltoallv(sb, sc, rd, t, rb, sc, rd, t, s->inter, &rq[1]),
                MPI_Alltoallv_init(sb, sc, rd, t, rb, sc, rd, t, s->inter, MPI_INFO_NULL, &rq[1]));
        } else {
            FORM_RUN(form, k, rq[1], MPI_Alltoall(sb, 3, t, rb, 3, t, s->inter),
                     MPI_Ialltoall(sb, 3, t, rb, 3, t, s->inter, &rq[1]),
                     MPI_Alltoall_init(sb, 3, t, rb, 3, t, s->inter, MPI_INFO_NULL, &rq[1]));
        }
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < 3; i++) {
                if (i < sc[p]) {
                    expect_elem(rb, T_VEC, rd[p] + i, val(s->rworld[p], rank + 1000 * k, i),
                                "inter alltoall", __LINE__);
                } else {
                    expect_untouched(rb, T_VEC, rd[p] + i, "inter alltoall", __LINE__);
                }
            }
        }
        /* Alltoallw: ints, at byte displacements. */
        memset(rb, RFILL, text[T_VEC] * 3 * (size_t)n);
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < sc[p]; i++) {
                ((int *)sb)[3 * p + i] = val(rank, s->rworld[p] + 2000 * k, i);
            }
        }
        FORM_RUN(
            form, k, rq[2], MPI_Alltoallw(sb, sc, bd, ts, rb, sc, bd, ts, s->inter),
            MPI_Ialltoallw(sb, sc, bd, ts, rb, sc, bd, ts, s->inter, &rq[2]),
            MPI_Alltoallw_init(sb, sc, bd, ts, rb, sc, bd, ts, s->inter, MPI_INFO_NULL, &rq[2]));
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < sc[p]; i++) {
                CHECK(((int *)rb)[3 * p + i] == val(s->rworld[p], rank + 2000 * k, i));
            }
        }
    }
    for (int j = 0; j < 3; j++) {
        form_done(form, &rq[j]);
    }
    free(rc);
    free(rd);
    free(sc);
    free(bd);
    free((void *)ts);
    free(one);
    free(sb);
    free(rb);
}

/* Every collective the standard defines on intercommunicators, in each form. */
static void test_forms(const struct side *s)
{
    for (int form = 0; form < NFORMS; form++) {
        MPI_Request req = MPI_REQUEST_NULL;
        int b[N];

        STARTS(form)
        {
            FORM_RUN(form, k, req, MPI_Barrier(s->inter), MPI_Ibarrier(s->inter, &req),
                     MPI_Barrier_init(s->inter, MPI_INFO_NULL, &req));
        }
        form_done(form, &req);
        for (int a_roots = 0; a_roots < 2; a_roots++) {
            int root = root_arg(s, a_roots);

            STARTS(form)
            {
                for (int i = 0; i < N; i++) {
                    b[i] = root == MPI_ROOT ? val(rank, k, i) : -3;
                }
                FORM_RUN(form, k, req, MPI_Bcast(b, N, MPI_INT, root, s->inter),
                         MPI_Ibcast(b, N, MPI_INT, root, s->inter, &req),
                         MPI_Bcast_init(b, N, MPI_INT, root, s->inter, MPI_INFO_NULL, &req));
                for (int i = 0; i < N; i++) {
                    int want = root == MPI_ROOT        ? val(rank, k, i)
                               : root == MPI_PROC_NULL ? -3
                                                       : val(s->rworld[0], k, i);

                    CHECK(b[i] == want);
                }
            }
            form_done(form, &req);
            test_forms_rooted(s, form, a_roots, false);
            test_forms_rooted(s, form, a_roots, true);
            test_forms_reduce(s, form, a_roots);
        }
        test_forms_reduce_scatter(s, form, false);
        test_forms_reduce_scatter(s, form, true);
        test_forms_all(s, form, false);
        test_forms_all(s, form, true);
    }
}

/* Merge with group A high: B's ranks come first, then A's, each in its own order. */
static void test_merge(struct side *s)
{
    for (int a_high = 0; a_high < 2; a_high++) {
        MPI_Comm m;
        int n, me, *all = malloc(sizeof(int) * (size_t)size), at = 0, flag;
        const int *first = (s->in_a == a_high) ? s->rworld : s->lworld;
        const int *second = (s->in_a == a_high) ? s->lworld : s->rworld;
        int nfirst = (s->in_a == a_high) ? s->rsize : s->lsize;

        CHECK(all != NULL);
        CHECK_MPI(MPI_Intercomm_merge(s->inter, s->in_a == a_high, &m));
        CHECK_MPI(MPI_Comm_test_inter(m, &flag));
        CHECK(!flag);
        MPI_Comm_size(m, &n);
        MPI_Comm_rank(m, &me);
        CHECK(n == size);
        CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, m));
        for (int i = 0; i < nfirst; i++) {
            CHECK(all[at++] == first[i]);
        }
        for (int i = 0; i < size - nfirst; i++) {
            CHECK(all[at++] == second[i]);
        }
        CHECK(all[me] == rank);
        CHECK_MPI(MPI_Comm_free(&m));
        free(all);
    }
}

static void run(int kind)
{
    struct side s;
    MPI_Comm d;
    int result;

    build(&s, kind);
    test_p2p(&s);
    CHECK_MPI(MPI_Barrier(s.inter));
    test_bcast(&s);
    test_allreduce(&s);
    test_forms(&s);
    test_merge(&s);
    /* A duplicate is congruent and works the same. */
    CHECK_MPI(MPI_Comm_dup(s.inter, &d));
    CHECK_MPI(MPI_Comm_compare(s.inter, d, &result));
    CHECK(result == MPI_CONGRUENT);
    {
        struct side t = s;

        t.inter = d;
        test_p2p(&t);
        CHECK_MPI(MPI_Barrier(d));
        test_allreduce(&t);
    }
    CHECK_MPI(MPI_Comm_free(&d));
    destroy(&s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fail(__LINE__, "needs at least 2 ranks (have %d)", size);
    }
    types_init();
    red_init();

    run(0);
    run(1);
    red_free();
    types_free();

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
