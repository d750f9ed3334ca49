/*
 * p2p_completion.c - integration test of the multiple-completion calls: Waitall, Waitany,
 * Waitsome, Testall, Testany and Testsome over arrays mixing pending requests,
 * MPI_REQUEST_NULL entries, inactive persistent requests and requests already complete;
 * MPI_UNDEFINED results and empty statuses when nothing is active; MPI_STATUSES_IGNORE;
 * zero-length arrays.
 *
 *   p2p_completion [LARGE-BYTES]    (default 262144; any number of ranks >= 2)
 *
 * Every rank exchanges with its ring neighbours.  Where a Test call must find a request
 * incomplete, the neighbour sends only after being told to.  Plain portable MPI; no
 * collectives.  Prints "p2p_completion R: ok" per rank, or "FAIL: p2p_completion rank R: ..."
 * and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    N = 10,    /* slots in a request array */
    SMALL = 8, /* ints */
    TAG_GO = 1,
    TAG_NEVER = 99,
};

static const char *prog = "p2p_completion";
static int rank, size, next, prev, large;
static int sbuf[SMALL], rbuf[SMALL], self_s[SMALL], self_r[SMALL], *lsbuf, *lrbuf;
static MPI_Request inactive; /* a persistent receive that is never started */
static int go_out;           /* the send buffer of gate_open(), which outlives the call */

#include "p2p_check.h"

static int value(int src, int tag, int i)
{
    return src * 1000003 + tag * 101 + i;
}

static void fill(int *buf, int n, int src, int tag)
{
    for (int i = 0; i < n; i++) {
        buf[i] = value(src, tag, i);
    }
}

static void check_empty(const MPI_Status *st, int line)
{
    int count = -1;

    MPI_Get_count(st, MPI_INT, &count);
    if (st->MPI_SOURCE != MPI_ANY_SOURCE || st->MPI_TAG != MPI_ANY_TAG || count != 0) {
        fail(line, "status source %d tag %d count %d is not empty", st->MPI_SOURCE, st->MPI_TAG,
             count);
    }
}

/*
 * The standard array, tags from TB:
 *   0 null  1 Irecv small from prev  2 Isend small to next  3 null
 *   4 Irecv from self (complete)  5 Isend to self (complete)  6 Irecv large from prev
 *   7 Isend large to next  8 inactive persistent  9 null
 */
static void build(MPI_Request *r, int tb)
{
    int flag4 = 0, flag5 = 0;

    fill(sbuf, SMALL, rank, tb);
    fill(self_s, SMALL, rank, tb + 2);
    fill(lsbuf, large, rank, tb + 1);
    memset(rbuf, 0, sizeof(rbuf));
    memset(self_r, 0, sizeof(self_r));
    memset(lrbuf, 0, sizeof(*lrbuf) * (size_t)large);
    for (int i = 0; i < N; i++) {
        r[i] = MPI_REQUEST_NULL;
    }
    CHECK_MPI(MPI_Irecv(rbuf, SMALL, MPI_INT, prev, tb, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Isend(sbuf, SMALL, MPI_INT, next, tb, MPI_COMM_WORLD, &r[2]));
    CHECK_MPI(MPI_Irecv(self_r, SMALL, MPI_INT, rank, tb + 2, MPI_COMM_WORLD, &r[4]));
    CHECK_MPI(MPI_Isend(self_s, SMALL, MPI_INT, rank, tb + 2, MPI_COMM_WORLD, &r[5]));
    CHECK_MPI(MPI_Irecv(lrbuf, large, MPI_INT, prev, tb + 1, MPI_COMM_WORLD, &r[6]));
    CHECK_MPI(MPI_Isend(lsbuf, large, MPI_INT, next, tb + 1, MPI_COMM_WORLD, &r[7]));
    r[8] = inactive;
    while (!flag4 || !flag5) {
        if (!flag4) {
            CHECK_MPI(MPI_Request_get_status(r[4], &flag4, MPI_STATUS_IGNORE));
        }
        if (!flag5) {
            CHECK_MPI(MPI_Request_get_status(r[5], &flag5, MPI_STATUS_IGNORE));
        }
    }
}

static int is_active_slot(int i)
{
    return i == 1 || i == 2 || i == 4 || i == 5 || i == 6 || i == 7;
}

/* Checks slot I of the standard array after completion; ST may be NULL (statuses ignored). */
static void check_slot(int i, const MPI_Status *st, int tb)
{
    const int *buf = i == 1 ? rbuf : i == 4 ? self_r : lrbuf;
    int src = i == 4 ? rank : prev, tag = i == 1 ? tb : i == 4 ? tb + 2 : tb + 1;
    int n = i == 6 ? large : SMALL, count = -1;

    if (i != 1 && i != 4 && i != 6) {
        return;
    }
    if (st != NULL) {
        MPI_Get_count(st, MPI_INT, &count);
        if (st->MPI_SOURCE != src || st->MPI_TAG != tag || count != n) {
            fail(__LINE__, "slot %d: status source %d tag %d count %d, expected %d %d %d", i,
                 st->MPI_SOURCE, st->MPI_TAG, count, src, tag, n);
        }
    }
    for (int k = 0; k < n; k++) {
        if (buf[k] != value(src, tag, k)) {
            fail(__LINE__, "slot %d: element %d of %d is wrong", i, k, n);
        }
    }
}

static void check_done(const MPI_Request *r)
{
    for (int i = 0; i < N; i++) {
        CHECK(r[i] == (i == 8 ? inactive : MPI_REQUEST_NULL));
    }
}

static void test_waitall(int tb)
{
    MPI_Request r[N];
    MPI_Status st[N];

    build(r, tb);
    CHECK_MPI(MPI_Waitall(N, r, st));
    check_done(r);
    for (int i = 0; i < N; i++) {
        if (i == 0 || i == 3 || i == 8 || i == 9) {
            check_empty(&st[i], __LINE__);
        }
        check_slot(i, &st[i], tb);
    }
    build(r, tb + 10);
    CHECK_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
    check_done(r);
    for (int i = 0; i < N; i++) {
        check_slot(i, NULL, tb + 10);
    }
}

static void test_waitany(int tb, int ignore)
{
    MPI_Request r[N];
    MPI_Status st;
    int seen[N] = {0}, index = -1, done = 0;

    build(r, tb);
    for (;;) {
        CHECK_MPI(MPI_Waitany(N, r, &index, ignore ? MPI_STATUS_IGNORE : &st));
        if (index == MPI_UNDEFINED) {
            break;
        }
        CHECK(index >= 0 && index < N && is_active_slot(index) && !seen[index]);
        CHECK(r[index] == MPI_REQUEST_NULL);
        seen[index] = 1;
        done++;
        check_slot(index, ignore ? NULL : &st, tb);
    }
    CHECK(done == 6);
    if (!ignore) {
        check_empty(&st, __LINE__);
    }
    check_done(r);
}

static void test_waitsome(int tb, int ignore)
{
    MPI_Request r[N];
    MPI_Status st[N];
    int seen[N] = {0}, idx[N], out = -1, done = 0;

    build(r, tb);
    for (;;) {
        CHECK_MPI(MPI_Waitsome(N, r, &out, idx, ignore ? MPI_STATUSES_IGNORE : st));
        if (out == MPI_UNDEFINED) {
            break;
        }
        CHECK(out >= 1 && out <= N);
        for (int k = 0; k < out; k++) {
            int i = idx[k];

            CHECK(i >= 0 && i < N && is_active_slot(i) && !seen[i] && r[i] == MPI_REQUEST_NULL);
            seen[i] = 1;
            done++;
            check_slot(i, ignore ? NULL : &st[k], tb);
        }
    }
    CHECK(done == 6);
    check_done(r);
}

/*
 * Gated array: slot 2 receives from prev, which sends only after this rank's go; slot 5 is
 * complete (self exchange in slots 5 and 6), slot 7 inactive, the rest null.  Returns after
 * posting; the caller checks that nothing pending completed, then calls gate_open().
 */
static void build_gated(MPI_Request *r, int tb)
{
    int flag5 = 0, flag6 = 0;

    for (int i = 0; i < N; i++) {
        r[i] = MPI_REQUEST_NULL;
    }
    memset(rbuf, 0, sizeof(rbuf));
    memset(self_r, 0, sizeof(self_r));
    fill(self_s, SMALL, rank, tb + 2);
    CHECK_MPI(MPI_Irecv(rbuf, SMALL, MPI_INT, prev, tb, MPI_COMM_WORLD, &r[2]));
    CHECK_MPI(MPI_Irecv(self_r, SMALL, MPI_INT, rank, tb + 2, MPI_COMM_WORLD, &r[5]));
    CHECK_MPI(MPI_Isend(self_s, SMALL, MPI_INT, rank, tb + 2, MPI_COMM_WORLD, &r[6]));
    r[7] = inactive;
    while (!flag5 || !flag6) {
        if (!flag5) {
            CHECK_MPI(MPI_Request_get_status(r[5], &flag5, MPI_STATUS_IGNORE));
        }
        if (!flag6) {
            CHECK_MPI(MPI_Request_get_status(r[6], &flag6, MPI_STATUS_IGNORE));
        }
    }
}

/* Tells prev to send, and sends to next once next says so.  OUT[0..1] are to be waited. */
static void gate_open(int tb, MPI_Request out[2])
{
    int go_in = 0;

    fill(sbuf, SMALL, rank, tb);
    CHECK_MPI(MPI_Isend(&go_out, 1, MPI_INT, prev, TAG_GO, MPI_COMM_WORLD, &out[0]));
    CHECK_MPI(MPI_Recv(&go_in, 1, MPI_INT, next, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Isend(sbuf, SMALL, MPI_INT, next, tb, MPI_COMM_WORLD, &out[1]));
}

static void check_gated_slot(int i, const MPI_Status *st, int tb)
{
    const int *buf = i == 2 ? rbuf : self_r;
    int src = i == 2 ? prev : rank, tag = i == 2 ? tb : tb + 2, count = -1;

    if (i != 2 && i != 5) {
        return;
    }
    if (st != NULL) {
        MPI_Get_count(st, MPI_INT, &count);
        if (st->MPI_SOURCE != src || st->MPI_TAG != tag || count != SMALL) {
            fail(__LINE__, "gated slot %d: status source %d tag %d count %d", i, st->MPI_SOURCE,
                 st->MPI_TAG, count);
        }
    }
    for (int k = 0; k < SMALL; k++) {
        if (buf[k] != value(src, tag, k)) {
            fail(__LINE__, "gated slot %d: element %d is wrong", i, k);
        }
    }
}

static void check_gated_done(const MPI_Request *r)
{
    for (int i = 0; i < N; i++) {
        CHECK(r[i] == (i == 7 ? inactive : MPI_REQUEST_NULL));
    }
}

/* Testall is false while one request is pending, and then modifies no request. */
static void test_testall(int tb, int ignore)
{
    MPI_Request r[N], saved[N], gate[2];
    MPI_Status st[N];
    int flag = -1;

    build_gated(r, tb);
    memcpy(saved, r, sizeof(r));
    CHECK_MPI(MPI_Testall(N, r, &flag, ignore ? MPI_STATUSES_IGNORE : st));
    CHECK(flag == 0);
    CHECK(memcmp(saved, r, sizeof(r)) == 0);
    gate_open(tb, gate);
    while (!flag) {
        CHECK_MPI(MPI_Testall(N, r, &flag, ignore ? MPI_STATUSES_IGNORE : st));
    }
    check_gated_done(r);
    for (int i = 0; i < N; i++) {
        if (!ignore && (i == 0 || i == 1 || i == 3 || i == 4 || i >= 7)) {
            check_empty(&st[i], __LINE__);
        }
        check_gated_slot(i, ignore ? NULL : &st[i], tb);
    }
    CHECK_MPI(MPI_Waitall(2, gate, MPI_STATUSES_IGNORE));
}

static void test_testany(int tb)
{
    MPI_Request r[N], gate[2];
    MPI_Status st;
    int flag = -1, index = -1, seen[N] = {0}, done = 0;

    build_gated(r, tb);
    /* Only the pending receive, nulls and the inactive request: nothing can complete. */
    CHECK_MPI(MPI_Testany(4, r, &index, &flag, &st));
    CHECK(flag == 0 && index == MPI_UNDEFINED);
    CHECK(r[2] != MPI_REQUEST_NULL);
    gate_open(tb, gate);
    for (;;) {
        CHECK_MPI(MPI_Testany(N, r, &index, &flag, &st));
        if (!flag) {
            CHECK(index == MPI_UNDEFINED);
            continue;
        }
        if (index == MPI_UNDEFINED) {
            check_empty(&st, __LINE__);
            break;
        }
        CHECK(index == 2 || index == 5 || index == 6);
        CHECK(!seen[index] && r[index] == MPI_REQUEST_NULL);
        seen[index] = 1;
        done++;
        check_gated_slot(index, &st, tb);
    }
    CHECK(done == 3);
    check_gated_done(r);
    CHECK_MPI(MPI_Waitall(2, gate, MPI_STATUSES_IGNORE));
}

static void test_testsome(int tb, int ignore)
{
    MPI_Request r[N], gate[2];
    MPI_Status st[N];
    int out = -1, idx[N], seen[N] = {0}, done = 0;

    build_gated(r, tb);
    CHECK_MPI(MPI_Testsome(4, r, &out, idx, ignore ? MPI_STATUSES_IGNORE : st));
    CHECK(out == 0);
    CHECK(r[2] != MPI_REQUEST_NULL);
    gate_open(tb, gate);
    for (;;) {
        CHECK_MPI(MPI_Testsome(N, r, &out, idx, ignore ? MPI_STATUSES_IGNORE : st));
        if (out == MPI_UNDEFINED) {
            break;
        }
        CHECK(out >= 0 && out <= N);
        for (int k = 0; k < out; k++) {
            int i = idx[k];

            CHECK(i == 2 || i == 5 || i == 6);
            CHECK(!seen[i] && r[i] == MPI_REQUEST_NULL);
            seen[i] = 1;
            done++;
            check_gated_slot(i, ignore ? NULL : &st[k], tb);
        }
    }
    CHECK(done == 3);
    check_gated_done(r);
    CHECK_MPI(MPI_Waitall(2, gate, MPI_STATUSES_IGNORE));
}

/* Arrays with no active request (nulls and an inactive persistent request), and empty ones. */
static void test_nothing_active(void)
{
    MPI_Request r[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st[4];
    int flag, index, out, idx[4];

    for (int len = 0; len <= 4; len++) {
        r[2] = len == 4 ? inactive : MPI_REQUEST_NULL;
        index = out = flag = -1;
        CHECK_MPI(MPI_Waitany(len, r, &index, &st[0]));
        CHECK(index == MPI_UNDEFINED);
        check_empty(&st[0], __LINE__);
        CHECK_MPI(MPI_Testany(len, r, &index, &flag, &st[0]));
        CHECK(flag == 1 && index == MPI_UNDEFINED);
        check_empty(&st[0], __LINE__);
        CHECK_MPI(MPI_Waitsome(len, r, &out, idx, st));
        CHECK(out == MPI_UNDEFINED);
        out = -1;
        CHECK_MPI(MPI_Testsome(len, r, &out, idx, st));
        CHECK(out == MPI_UNDEFINED);
        out = -1;
        CHECK_MPI(MPI_Waitsome(len, r, &out, idx, MPI_STATUSES_IGNORE));
        CHECK(out == MPI_UNDEFINED);
        flag = -1;
        CHECK_MPI(MPI_Testall(len, r, &flag, st));
        CHECK(flag == 1);
        for (int i = 0; i < len; i++) {
            check_empty(&st[i], __LINE__);
        }
        CHECK_MPI(MPI_Waitall(len, r, st));
        for (int i = 0; i < len; i++) {
            check_empty(&st[i], __LINE__);
        }
        CHECK_MPI(MPI_Waitall(len, r, MPI_STATUSES_IGNORE));
    }
    CHECK(r[2] == inactive);
}

int main(int argc, char **argv)
{
    int tb = 100;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    large = (argc > 1 ? atoi(argv[1]) : 262144) / (int)sizeof(int);
    if (size < 2 || large < 1) {
        fail(__LINE__, "usage: p2p_completion [LARGE-BYTES >= 4], at least 2 ranks");
    }
    next = (rank + 1) % size;
    prev = (rank - 1 + size) % size;
    lsbuf = malloc(sizeof(*lsbuf) * (size_t)large);
    lrbuf = malloc(sizeof(*lrbuf) * (size_t)large);
    CHECK(lsbuf != NULL && lrbuf != NULL);
    CHECK_MPI(MPI_Recv_init(rbuf, SMALL, MPI_INT, prev, TAG_NEVER, MPI_COMM_WORLD, &inactive));

    test_nothing_active();
    test_waitall(tb);
    tb += 100;
    for (int ignore = 0; ignore < 2; ignore++) {
        test_waitany(tb, ignore);
        tb += 100;
        test_waitsome(tb, ignore);
        tb += 100;
        test_testall(tb, ignore);
        tb += 100;
        test_testsome(tb, ignore);
        tb += 100;
    }
    test_testany(tb);

    CHECK_MPI(MPI_Request_free(&inactive));
    free(lsbuf);
    free(lrbuf);
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
