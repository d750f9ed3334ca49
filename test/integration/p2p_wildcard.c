/*
 * p2p_wildcard.c - integration test of wildcard matching and probes: MPI_ANY_SOURCE and
 * MPI_ANY_TAG (the status reports the real source and tag), Probe and Iprobe followed by a
 * receive of exactly the probed size, and matched probes (Mprobe/Improbe with Mrecv/Imrecv),
 * including that a message taken by a matched probe can no longer match any other receive, and
 * the MPI_PROC_NULL cases.
 *
 *   p2p_wildcard [BIG-BYTES]    (default 300000; any number of ranks >= 2)
 *
 * A receive with both MPI_ANY_SOURCE and MPI_ANY_TAG matches anything, so the program makes
 * sure no other message can be on its way when it posts one.  Plain portable MPI, relying only
 * on what the standard guarantees; no collectives.  Prints "p2p_wildcard R: ok" per rank, or
 * "FAIL: p2p_wildcard rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TAG_ROOT = 100,    /* plus the root */
    TAG_FULL_A = 200,  /* plus the sender */
    TAG_FULL_B = 1200, /* plus the sender */
    TAG_PROBE = 2000,
    TAG_PROBE_BIG = 2001,
    TAG_MPROBE = 2100,
    TAG_IMPROBE = 2101,
    TAG_MCOLLECT = 2102,
    TAG_NEVER = 2999, /* no message ever carries it */
    TAG_BARRIER = 3000,
};

static const char *prog = "p2p_wildcard";
static int rank, size, next, prev;
static int big = 300000;

#include "p2p_check.h"

static void check_status(const MPI_Status *st, int source, int tag, int count, int line)
{
    int n = -1;

    MPI_Get_count(st, MPI_INT, &n);
    if (st->MPI_SOURCE != source || st->MPI_TAG != tag || n != count) {
        fail(line, "status source %d tag %d count %d, expected %d %d %d", st->MPI_SOURCE,
             st->MPI_TAG, n, source, tag, count);
    }
}

/* Message SEQ from SRC has N ints: src, seq, then a pattern. */
static int *make_msg(int src, int seq, int n)
{
    int *buf = malloc(sizeof(*buf) * (size_t)(n > 2 ? n : 2));

    CHECK(buf != NULL);
    buf[0] = src;
    buf[1] = seq;
    for (int i = 2; i < n; i++) {
        buf[i] = src * 131 + seq * 17 + i;
    }
    return buf;
}

static void check_msg(const int *buf, int src, int seq, int n, int line)
{
    if (buf[0] != src || buf[1] != seq) {
        fail(line, "got message %d from rank %d, expected message %d from rank %d", buf[1], buf[0],
             seq, src);
    }
    for (int i = 2; i < n; i++) {
        if (buf[i] != src * 131 + seq * 17 + i) {
            fail(line, "message %d from rank %d: element %d is wrong", seq, src, i);
        }
    }
}

/* Ring barrier started by rank 0: during it a rank receives only from its left neighbour, and
 * only once that neighbour is done with what came before. */
static void ring_barrier(void)
{
    int token = 0;

    for (int lap = 0; lap < 2; lap++) {
        if (rank == 0) {
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, next, TAG_BARRIER, MPI_COMM_WORLD));
            CHECK_MPI(
                MPI_Recv(&token, 1, MPI_INT, prev, TAG_BARRIER, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(
                MPI_Recv(&token, 1, MPI_INT, prev, TAG_BARRIER, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, next, TAG_BARRIER, MPI_COMM_WORLD));
        }
    }
}

/* Each rank in turn receives one message from every other rank with MPI_ANY_SOURCE and a
 * specific tag; sizes differ per sender, and each sender is seen once. */
static void test_any_source(void)
{
    int *seen = calloc((size_t)size, sizeof(*seen)), buf[64];

    CHECK(seen != NULL);
    for (int root = 0; root < size; root++) {
        if (rank != root) {
            int n = 10 + rank, *msg = make_msg(rank, root, n);

            CHECK_MPI(MPI_Send(msg, n, MPI_INT, root, TAG_ROOT + root, MPI_COMM_WORLD));
            free(msg);
            continue;
        }
        for (int i = 0; i < size - 1; i++) {
            MPI_Status st;
            int src;

            CHECK_MPI(
                MPI_Recv(buf, 64, MPI_INT, MPI_ANY_SOURCE, TAG_ROOT + root, MPI_COMM_WORLD, &st));
            src = st.MPI_SOURCE;
            CHECK(src >= 0 && src < size && src != rank && !seen[src]);
            seen[src] = 1;
            check_status(&st, src, TAG_ROOT + root, 10 + src, __LINE__);
            check_msg(buf, src, root, 10 + src, __LINE__);
        }
    }
    free(seen);
}

/* MPI_ANY_TAG from one source: messages come in send order with their own tags. */
static void test_any_tag(int tag_ub)
{
    int tags[3] = {50 + rank, 7, tag_ub}, buf[8], *msgs[3];
    MPI_Request reqs[3];
    MPI_Status st;

    for (int i = 0; i < 3; i++) {
        msgs[i] = make_msg(rank, i, 3 + i);
        CHECK_MPI(MPI_Isend(msgs[i], 3 + i, MPI_INT, next, tags[i], MPI_COMM_WORLD, &reqs[i]));
    }
    for (int i = 0; i < 3; i++) {
        int expect_tag = i == 0 ? 50 + prev : tags[i];

        CHECK_MPI(MPI_Recv(buf, 8, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        check_status(&st, prev, expect_tag, 3 + i, __LINE__);
        check_msg(buf, prev, i, 3 + i, __LINE__);
    }
    CHECK_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 3; i++) {
        free(msgs[i]);
    }
}

/* Rank 0 receives with MPI_ANY_SOURCE and MPI_ANY_TAG two messages from every other rank; the
 * statuses name the real sources and tags and each sender's two arrive in order.  The barrier
 * after it keeps every other message away from rank 0 until it is done. */
static void test_full_wildcard(void)
{
    if (rank != 0) {
        int *a = make_msg(rank, 0, 5), *b = make_msg(rank, 1, 6);

        CHECK_MPI(MPI_Send(a, 5, MPI_INT, 0, TAG_FULL_A + rank, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(b, 6, MPI_INT, 0, TAG_FULL_B + rank, MPI_COMM_WORLD));
        free(a);
        free(b);
    } else {
        int *got = calloc((size_t)size, sizeof(*got)), buf[8];

        CHECK(got != NULL);
        for (int i = 0; i < 2 * (size - 1); i++) {
            MPI_Status st;
            int src;

            CHECK_MPI(MPI_Recv(buf, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            src = st.MPI_SOURCE;
            CHECK(src > 0 && src < size && got[src] < 2);
            if (got[src] == 0) {
                check_status(&st, src, TAG_FULL_A + src, 5, __LINE__);
            } else {
                check_status(&st, src, TAG_FULL_B + src, 6, __LINE__);
            }
            check_msg(buf, src, got[src], 5 + got[src], __LINE__);
            got[src]++;
        }
        free(got);
    }
    ring_barrier();
}

/* Probe, then receive exactly the probed size; a second Probe before the receive sees the same
 * message; Iprobe in a loop for a large message; Iprobe with nothing to find says so. */
static void test_probe(void)
{
    int n0 = 1000 + 17 * rank, n1 = 5, flag = 1, n = -1, n_again = -1;
    int *m0 = make_msg(rank, 0, n0), *m1 = make_msg(rank, 1, n1), *mb = make_msg(rank, 2, big);
    MPI_Request reqs[3];
    MPI_Status st, st2;
    int *buf;

    CHECK_MPI(MPI_Iprobe(prev, TAG_NEVER, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag == 0);
    CHECK_MPI(MPI_Isend(m0, n0, MPI_INT, next, TAG_PROBE, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Isend(m1, n1, MPI_INT, next, TAG_PROBE, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Isend(mb, big, MPI_INT, next, TAG_PROBE_BIG, MPI_COMM_WORLD, &reqs[2]));

    for (int seq = 0; seq < 2; seq++) {
        int expect = seq == 0 ? 1000 + 17 * prev : 5;

        CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, TAG_PROBE, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
        check_status(&st, prev, TAG_PROBE, expect, __LINE__);
        CHECK_MPI(MPI_Probe(st.MPI_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st2));
        CHECK_MPI(MPI_Get_count(&st2, MPI_INT, &n_again));
        CHECK(n_again == n && st2.MPI_TAG == TAG_PROBE);
        buf = malloc(sizeof(*buf) * (size_t)n);
        CHECK(buf != NULL);
        CHECK_MPI(MPI_Recv(buf, n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2));
        check_status(&st2, prev, TAG_PROBE, expect, __LINE__);
        check_msg(buf, prev, seq, n, __LINE__);
        free(buf);
    }

    flag = 0;
    while (!flag) {
        CHECK_MPI(MPI_Iprobe(prev, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    }
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
    check_status(&st, prev, TAG_PROBE_BIG, big, __LINE__);
    buf = malloc(sizeof(*buf) * (size_t)n);
    CHECK(buf != NULL);
    CHECK_MPI(MPI_Recv(buf, n, MPI_INT, prev, TAG_PROBE_BIG, MPI_COMM_WORLD, &st));
    check_status(&st, prev, TAG_PROBE_BIG, big, __LINE__);
    check_msg(buf, prev, 2, big, __LINE__);
    free(buf);

    CHECK_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, TAG_NEVER, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag == 0);
    free(m0);
    free(m1);
    free(mb);
}

static void check_proc_null(const MPI_Status *st, int line)
{
    int n = -1;

    MPI_Get_count(st, MPI_INT, &n);
    if (st->MPI_SOURCE != MPI_PROC_NULL || st->MPI_TAG != MPI_ANY_TAG || n != 0) {
        fail(line, "MPI_PROC_NULL: status source %d tag %d count %d", st->MPI_SOURCE, st->MPI_TAG,
             n);
    }
}

/* Mprobe takes message 0 out of matching: a wildcard Irecv and a Recv posted afterwards get
 * messages 1 and 2, and Mrecv then gets message 0.  Improbe in a loop for a large message with
 * Imrecv; Improbe with nothing to find; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC. */
static void test_mprobe(void)
{
    int *m[3], *mb = make_msg(rank, 3, big), *buf, rbuf[16], n = -1, flag = 0;
    MPI_Request sreqs[4], rreq;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st, st1, st2;

    for (int i = 0; i < 3; i++) {
        m[i] = make_msg(rank, i, 3 + i);
        CHECK_MPI(MPI_Isend(m[i], 3 + i, MPI_INT, next, TAG_MPROBE, MPI_COMM_WORLD, &sreqs[i]));
    }
    CHECK_MPI(MPI_Isend(mb, big, MPI_INT, next, TAG_IMPROBE, MPI_COMM_WORLD, &sreqs[3]));

    CHECK_MPI(MPI_Mprobe(prev, TAG_MPROBE, MPI_COMM_WORLD, &msg, &st));
    CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC);
    check_status(&st, prev, TAG_MPROBE, 3, __LINE__);
    CHECK_MPI(MPI_Irecv(rbuf, 8, MPI_INT, MPI_ANY_SOURCE, TAG_MPROBE, MPI_COMM_WORLD, &rreq));
    CHECK_MPI(MPI_Recv(rbuf + 8, 8, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD, &st2));
    CHECK_MPI(MPI_Wait(&rreq, &st1));
    check_status(&st1, prev, TAG_MPROBE, 4, __LINE__);
    check_msg(rbuf, prev, 1, 4, __LINE__);
    check_status(&st2, prev, TAG_MPROBE, 5, __LINE__);
    check_msg(rbuf + 8, prev, 2, 5, __LINE__);
    buf = malloc(sizeof(*buf) * 3);
    CHECK(buf != NULL);
    CHECK_MPI(MPI_Mrecv(buf, 3, MPI_INT, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL);
    check_status(&st, prev, TAG_MPROBE, 3, __LINE__);
    check_msg(buf, prev, 0, 3, __LINE__);
    free(buf);

    CHECK_MPI(MPI_Improbe(prev, TAG_NEVER, MPI_COMM_WORLD, &flag, &msg, &st));
    CHECK(flag == 0);
    while (!flag) {
        CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, TAG_IMPROBE, MPI_COMM_WORLD, &flag, &msg, &st));
    }
    CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
    check_status(&st, prev, TAG_IMPROBE, big, __LINE__);
    buf = malloc(sizeof(*buf) * (size_t)n);
    CHECK(buf != NULL);
    CHECK_MPI(MPI_Imrecv(buf, n, MPI_INT, &msg, &rreq));
    CHECK(msg == MPI_MESSAGE_NULL);
    CHECK_MPI(MPI_Wait(&rreq, &st));
    check_status(&st, prev, TAG_IMPROBE, big, __LINE__);
    check_msg(buf, prev, 3, big, __LINE__);
    free(buf);
    CHECK_MPI(MPI_Waitall(4, sreqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 3; i++) {
        free(m[i]);
    }
    free(mb);

    /* MPI_PROC_NULL: probes succeed at once, and the matched message is MPI_MESSAGE_NO_PROC. */
    CHECK_MPI(MPI_Probe(MPI_PROC_NULL, TAG_MPROBE, MPI_COMM_WORLD, &st));
    check_proc_null(&st, __LINE__);
    flag = 0;
    CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag == 1);
    check_proc_null(&st, __LINE__);
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, TAG_MPROBE, MPI_COMM_WORLD, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NO_PROC);
    check_proc_null(&st, __LINE__);
    rbuf[0] = -5;
    CHECK_MPI(MPI_Mrecv(rbuf, 16, MPI_INT, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL);
    check_proc_null(&st, __LINE__);
    CHECK(rbuf[0] == -5);
    flag = 0;
    msg = MPI_MESSAGE_NULL;
    CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
    CHECK(flag == 1 && msg == MPI_MESSAGE_NO_PROC);
    check_proc_null(&st, __LINE__);
    CHECK_MPI(MPI_Imrecv(rbuf, 16, MPI_INT, &msg, &rreq));
    CHECK(msg == MPI_MESSAGE_NULL);
    CHECK_MPI(MPI_Wait(&rreq, &st));
    check_proc_null(&st, __LINE__);
    CHECK(rbuf[0] == -5);
}

/* Rank 0 collects one message from each other rank with Mprobe(MPI_ANY_SOURCE) and Mrecv of
 * exactly the probed size. */
static void test_mprobe_any_source(void)
{
    if (rank != 0) {
        int n = 20 + 3 * rank, *m = make_msg(rank, 7, n);

        CHECK_MPI(MPI_Send(m, n, MPI_INT, 0, TAG_MCOLLECT, MPI_COMM_WORLD));
        free(m);
        return;
    }
    for (int i = 0; i < size - 1; i++) {
        MPI_Message msg;
        MPI_Status st;
        int n = -1, *buf;

        CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, TAG_MCOLLECT, MPI_COMM_WORLD, &msg, &st));
        CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < size);
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
        CHECK(n == 20 + 3 * st.MPI_SOURCE);
        buf = malloc(sizeof(*buf) * (size_t)n);
        CHECK(buf != NULL);
        CHECK_MPI(MPI_Mrecv(buf, n, MPI_INT, &msg, &st));
        check_status(&st, st.MPI_SOURCE, TAG_MCOLLECT, n, __LINE__);
        check_msg(buf, st.MPI_SOURCE, 7, n, __LINE__);
        free(buf);
    }
}

int main(int argc, char **argv)
{
    int *tag_ub, flag = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) {
        big = atoi(argv[1]) / (int)sizeof(int);
    }
    if (size < 2 || big < 16) {
        fail(__LINE__, "usage: p2p_wildcard [BIG-BYTES >= 64], at least 2 ranks");
    }
    next = (rank + 1) % size;
    prev = (rank - 1 + size) % size;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag);

    test_any_source();
    test_any_tag(*tag_ub);
    test_full_wildcard();
    test_probe();
    test_mprobe();
    test_mprobe_any_source();

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
