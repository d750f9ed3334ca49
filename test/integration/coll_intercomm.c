/*
 * coll_intercomm.c - integration test of intercommunicators: Intercomm_create from two
 * halves of MPI_COMM_WORLD (low/high halves with leaders at local rank 0, and even/odd ranks
 * with reversed local order and the last local rank as leader); Comm_test_inter, Comm_size,
 * Comm_remote_size and Comm_remote_group; point-to-point across (ranks name the remote
 * group, any-source status); Barrier; Bcast from every root of each group (MPI_ROOT,
 * MPI_PROC_NULL, counts 0 to 1 MiB); Allreduce (sum, max), whose result in each group is the
 * reduction over the other group; Intercomm_merge with either group high; Comm_dup and
 * Comm_compare.
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 2.  Prints "coll_intercomm R: ok" per rank, or
 * "FAIL: coll_intercomm rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_intercomm";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

enum { TAG_CREATE = 31, TAG_CREATE2 = 32, TAG_P2P = 33, N = 37, BIG = (1 << 18) + 1 };

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

    run(0);
    run(1);

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
