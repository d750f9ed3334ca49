/*
 * p2p_cancel.c - integration test of MPI_Cancel on receives, MPI_Test_cancelled,
 * MPI_Status_set_cancelled and MPI_Request_get_status.
 *
 *   p2p_cancel [RACES]   (default 20; any number of ranks >= 2)
 *
 * Checks: a receive that nothing can match is cancelled (Wait returns, Test_cancelled true);
 * a receive already complete (seen by Request_get_status) cannot be cancelled and its data is
 * there; a receive cancelled while its message races in is either cancelled, and then the
 * message is still there for the next receive, or complete with the data, never both;
 * persistent receives cancel and restart; Status_set_cancelled round trip;
 * Request_get_status on active, complete, null and inactive requests (the last two give an
 * empty status).  Ranks work in pairs (0-1, 2-3, ...; with an odd size the last rank works with
 * itself), in both directions.  Plain portable MPI; no collectives.  Prints "p2p_cancel R: ok"
 * per rank, or "FAIL: p2p_cancel rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TAG_NEVER = 999, /* no message ever carries it */
    TAG_MATCHED = 1,
    TAG_RACE = 2,
    TAG_STATUS = 3,
    TAG_PERSIST = 4,
    TAG_GO = 10,
    LARGE = 1 << 18, /* ints */
};

static const char *prog = "p2p_cancel";
static int rank, size;

#include "p2p_check.h"

static int is_cancelled(const MPI_Status *st)
{
    int flag = -1;

    CHECK_MPI(MPI_Test_cancelled(st, &flag));
    CHECK(flag == 0 || flag == 1);
    return flag;
}

static void fill(int *buf, int n, int src, int key)
{
    for (int i = 0; i < n; i++) {
        buf[i] = src * 100003 + key * 1009 + i;
    }
}

static void check_data(const int *buf, const MPI_Status *st, int n, int src, int tag, int key,
                       int line)
{
    int count = -1;

    MPI_Get_count(st, MPI_INT, &count);
    if (st->MPI_SOURCE != src || st->MPI_TAG != tag || count != n) {
        fail(line, "status source %d tag %d count %d, expected %d %d %d", st->MPI_SOURCE,
             st->MPI_TAG, count, src, tag, n);
    }
    for (int i = 0; i < n; i++) {
        if (buf[i] != src * 100003 + key * 1009 + i) {
            fail(line, "element %d of %d from rank %d is wrong", i, n, src);
        }
    }
}

/* An empty status: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0, not cancelled. */
static void check_empty(const MPI_Status *st, int line)
{
    int count = -1;

    MPI_Get_count(st, MPI_INT, &count);
    if (st->MPI_SOURCE != MPI_ANY_SOURCE || st->MPI_TAG != MPI_ANY_TAG || count != 0 ||
        is_cancelled(st)) {
        fail(line, "status source %d tag %d count %d cancelled %d is not empty", st->MPI_SOURCE,
             st->MPI_TAG, count, is_cancelled(st));
    }
}

/* Receives that nothing can match are cancelled, found by Wait, Test and Request_get_status. */
static void test_cancel_unmatched(int peer)
{
    int buf[4], flag = 0;
    MPI_Request req;
    MPI_Status st;

    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, peer, TAG_NEVER, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK(req != MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL);
    CHECK(is_cancelled(&st));

    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, MPI_ANY_SOURCE, TAG_NEVER, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Cancel(&req));
    while (!flag) {
        CHECK_MPI(MPI_Test(&req, &flag, &st));
    }
    CHECK(req == MPI_REQUEST_NULL);
    CHECK(is_cancelled(&st));

    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, peer, TAG_NEVER, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Cancel(&req));
    flag = 0;
    while (!flag) {
        CHECK_MPI(MPI_Request_get_status(req, &flag, &st));
    }
    CHECK(req != MPI_REQUEST_NULL);
    CHECK(is_cancelled(&st));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(is_cancelled(&st));
}

/* Once Request_get_status says a receive is complete, cancelling it has no effect. */
static void test_cancel_completed(int sender, int receiver, int n, int *sbuf, int *rbuf)
{
    MPI_Request sreq = MPI_REQUEST_NULL, rreq = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = 0;

    if (rank == receiver) {
        memset(rbuf, 0, sizeof(*rbuf) * (size_t)n);
        CHECK_MPI(MPI_Irecv(rbuf, n, MPI_INT, sender, TAG_MATCHED, MPI_COMM_WORLD, &rreq));
    }
    if (rank == sender) {
        fill(sbuf, n, rank, n);
        CHECK_MPI(MPI_Isend(sbuf, n, MPI_INT, receiver, TAG_MATCHED, MPI_COMM_WORLD, &sreq));
    }
    if (rank == receiver) {
        while (!flag) {
            CHECK_MPI(MPI_Request_get_status(rreq, &flag, &st));
        }
        CHECK(!is_cancelled(&st));
        CHECK_MPI(MPI_Cancel(&rreq));
        CHECK_MPI(MPI_Wait(&rreq, &st));
        if (is_cancelled(&st)) {
            fail(__LINE__, "a receive of %d ints cancelled after it completed", n);
        }
        check_data(rbuf, &st, n, sender, TAG_MATCHED, n, __LINE__);
    }
    if (rank == sender) {
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    }
}

/* Cancel a receive while its message is on the way: either it is cancelled and the message
 * is left for the next receive, or it completed with the data. */
static void test_cancel_race(int sender, int receiver, int n, int spin, int key, int *sbuf,
                             int *rbuf)
{
    MPI_Request sreq = MPI_REQUEST_NULL, rreq = MPI_REQUEST_NULL, go = MPI_REQUEST_NULL;
    MPI_Status st;
    int go_out = 0, go_in = 0;

    if (rank == receiver) {
        memset(rbuf, 0, sizeof(*rbuf) * (size_t)n);
        CHECK_MPI(MPI_Irecv(rbuf, n, MPI_INT, sender, TAG_RACE, MPI_COMM_WORLD, &rreq));
        CHECK_MPI(MPI_Isend(&go_out, 1, MPI_INT, sender, TAG_GO, MPI_COMM_WORLD, &go));
    }
    if (rank == sender) {
        CHECK_MPI(
            MPI_Recv(&go_in, 1, MPI_INT, receiver, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        fill(sbuf, n, rank, key);
        CHECK_MPI(MPI_Isend(sbuf, n, MPI_INT, receiver, TAG_RACE, MPI_COMM_WORLD, &sreq));
    }
    if (rank == receiver) {
        double until = MPI_Wtime() + spin * 1e-6;
        int flag;

        /* Iprobe for nothing drives progress, so the message may match before the cancel. */
        while (MPI_Wtime() < until) {
            CHECK_MPI(MPI_Iprobe(sender, TAG_NEVER, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
            CHECK(flag == 0);
        }
        CHECK_MPI(MPI_Cancel(&rreq));
        CHECK_MPI(MPI_Wait(&rreq, &st));
        if (is_cancelled(&st)) {
            CHECK_MPI(MPI_Recv(rbuf, n, MPI_INT, sender, TAG_RACE, MPI_COMM_WORLD, &st));
        }
        check_data(rbuf, &st, n, sender, TAG_RACE, key, __LINE__);
        CHECK_MPI(MPI_Wait(&go, MPI_STATUS_IGNORE));
    }
    if (rank == sender) {
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    }
}

/* Request_get_status: incomplete while nothing is sent, then complete without freeing the
 * request; on MPI_REQUEST_NULL and inactive persistent requests, flag true and an empty
 * status. */
static void test_get_status(int sender, int receiver)
{
    MPI_Request sreq = MPI_REQUEST_NULL, rreq = MPI_REQUEST_NULL, go = MPI_REQUEST_NULL, preq;
    MPI_Status st, st2;
    int sbuf[8], rbuf[8], go_out = 0, go_in = 0, flag = -1;

    if (rank == receiver) {
        CHECK_MPI(MPI_Irecv(rbuf, 8, MPI_INT, sender, TAG_STATUS, MPI_COMM_WORLD, &rreq));
        CHECK_MPI(MPI_Request_get_status(rreq, &flag, &st));
        CHECK(flag == 0);
        CHECK_MPI(MPI_Isend(&go_out, 1, MPI_INT, sender, TAG_GO, MPI_COMM_WORLD, &go));
    }
    if (rank == sender) {
        CHECK_MPI(
            MPI_Recv(&go_in, 1, MPI_INT, receiver, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        fill(sbuf, 6, rank, 6);
        CHECK_MPI(MPI_Isend(sbuf, 6, MPI_INT, receiver, TAG_STATUS, MPI_COMM_WORLD, &sreq));
        flag = 0;
        while (!flag) {
            CHECK_MPI(MPI_Request_get_status(sreq, &flag, MPI_STATUS_IGNORE));
        }
        CHECK(sreq != MPI_REQUEST_NULL);
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        CHECK(sreq == MPI_REQUEST_NULL);
    }
    if (rank == receiver) {
        flag = 0;
        while (!flag) {
            CHECK_MPI(MPI_Request_get_status(rreq, &flag, &st));
        }
        CHECK(rreq != MPI_REQUEST_NULL);
        check_data(rbuf, &st, 6, sender, TAG_STATUS, 6, __LINE__);
        CHECK_MPI(MPI_Request_get_status(rreq, &flag, &st2));
        CHECK(flag == 1);
        check_data(rbuf, &st2, 6, sender, TAG_STATUS, 6, __LINE__);
        CHECK_MPI(MPI_Wait(&rreq, &st2));
        CHECK(rreq == MPI_REQUEST_NULL);
        check_data(rbuf, &st2, 6, sender, TAG_STATUS, 6, __LINE__);
        CHECK_MPI(MPI_Wait(&go, MPI_STATUS_IGNORE));

        flag = 0;
        CHECK_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
        CHECK(flag == 1);
        check_empty(&st, __LINE__);

        CHECK_MPI(MPI_Recv_init(rbuf, 8, MPI_INT, sender, TAG_NEVER, MPI_COMM_WORLD, &preq));
        flag = 0;
        CHECK_MPI(MPI_Request_get_status(preq, &flag, &st));
        CHECK(flag == 1);
        check_empty(&st, __LINE__);
        CHECK_MPI(MPI_Request_free(&preq));
        CHECK(preq == MPI_REQUEST_NULL);
    }
}

/* A started persistent receive with nothing to match is cancelled; the request can then be
 * started again and receives normally. */
static void test_cancel_persistent(int sender, int receiver)
{
    MPI_Request preq = MPI_REQUEST_NULL, go = MPI_REQUEST_NULL, sreq = MPI_REQUEST_NULL;
    MPI_Status st;
    int sbuf[5], rbuf[5], go_out = 0, go_in = 0, flag = -1;

    if (rank == receiver) {
        CHECK_MPI(MPI_Recv_init(rbuf, 5, MPI_INT, sender, TAG_PERSIST, MPI_COMM_WORLD, &preq));
        CHECK_MPI(MPI_Start(&preq));
        CHECK_MPI(MPI_Cancel(&preq));
        CHECK_MPI(MPI_Wait(&preq, &st));
        CHECK(preq != MPI_REQUEST_NULL);
        CHECK(is_cancelled(&st));
        /* Inactive again: get_status says complete, with an empty status. */
        CHECK_MPI(MPI_Request_get_status(preq, &flag, &st));
        CHECK(flag == 1);
        check_empty(&st, __LINE__);
        CHECK_MPI(MPI_Start(&preq));
        CHECK_MPI(MPI_Isend(&go_out, 1, MPI_INT, sender, TAG_GO, MPI_COMM_WORLD, &go));
    }
    if (rank == sender) {
        CHECK_MPI(
            MPI_Recv(&go_in, 1, MPI_INT, receiver, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        fill(sbuf, 5, rank, 5);
        CHECK_MPI(MPI_Isend(sbuf, 5, MPI_INT, receiver, TAG_PERSIST, MPI_COMM_WORLD, &sreq));
    }
    if (rank == receiver) {
        CHECK_MPI(MPI_Wait(&preq, &st));
        CHECK(!is_cancelled(&st));
        check_data(rbuf, &st, 5, sender, TAG_PERSIST, 5, __LINE__);
        CHECK_MPI(MPI_Request_free(&preq));
        CHECK(preq == MPI_REQUEST_NULL);
        CHECK_MPI(MPI_Wait(&go, MPI_STATUS_IGNORE));
    }
    if (rank == sender) {
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    }
}

static void test_set_cancelled(void)
{
    MPI_Status st;

    memset(&st, 0, sizeof(st));
    CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
    CHECK(is_cancelled(&st));
    CHECK_MPI(MPI_Status_set_cancelled(&st, 0));
    CHECK(!is_cancelled(&st));
    CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
    CHECK(is_cancelled(&st));
}

static void one_direction(int sender, int receiver, int races, int *sbuf, int *rbuf)
{
    if (rank == receiver) {
        test_cancel_unmatched(sender);
    }
    test_cancel_completed(sender, receiver, 4, sbuf, rbuf);
    test_cancel_completed(sender, receiver, LARGE, sbuf, rbuf);
    for (int i = 0; i < races; i++) {
        int n = i % 2 ? LARGE : 4 + i;

        test_cancel_race(sender, receiver, n, (i * 37) % 400, i, sbuf, rbuf);
    }
    test_get_status(sender, receiver);
    test_cancel_persistent(sender, receiver);
}

int main(int argc, char **argv)
{
    int races = argc > 1 ? atoi(argv[1]) : 20;
    int peer, lo, hi, *sbuf, *rbuf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || races < 0) {
        fail(__LINE__, "usage: p2p_cancel [RACES], at least 2 ranks");
    }
    peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    lo = rank < peer ? rank : peer;
    hi = rank < peer ? peer : rank;
    sbuf = malloc(sizeof(*sbuf) * LARGE);
    rbuf = malloc(sizeof(*rbuf) * LARGE);
    CHECK(sbuf != NULL && rbuf != NULL);

    test_set_cancelled();
    one_direction(lo, hi, races, sbuf, rbuf);
    if (hi != lo) {
        one_direction(hi, lo, races, sbuf, rbuf);
    }

    free(sbuf);
    free(rbuf);
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
