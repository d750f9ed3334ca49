/*
 * p2p_sync.c - integration test of synchronous sends: Issend and Ssend complete only once the
 * matching receive has started, for zero-byte, small and large (4 MiB) messages.
 *
 *   p2p_sync [MS]     (default 200: how long an unmatched Issend is polled with MPI_Test;
 *                      any number of ranks >= 2)
 *
 * Ranks work in pairs (0-1, 2-3, ...; with an odd size the last rank works with itself).  The
 * sender polls its Issend with MPI_Test for MS milliseconds while the receiver, which posts
 * its receive only when told, cannot have matched it: the Issend must not complete.  Then it
 * tells the receiver and waits.  For Ssend, the receiver sleeps 100 ms after being told before
 * posting its receive, and the Ssend must not return before that.  Plain portable MPI; no
 * collectives.  Prints "p2p_sync R: ok" per rank, or "FAIL: p2p_sync rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    TAG_DATA = 1,
    TAG_GO = 2,
    DELAY_MS = 100,
};

static const char *prog = "p2p_sync";
static int rank, size;

#include "p2p_check.h"

static void fill(unsigned char *buf, int n, int src, int round)
{
    for (int i = 0; i < n; i++) {
        buf[i] = (unsigned char)(src * 37 + round * 11 + i * 7 + (i >> 8));
    }
}

static void check_data(const unsigned char *buf, const MPI_Status *st, int n, int src, int round)
{
    int count = -1;

    MPI_Get_count(st, MPI_BYTE, &count);
    if (st->MPI_SOURCE != src || st->MPI_TAG != TAG_DATA || count != n) {
        fail(__LINE__, "round %d: status source %d tag %d count %d, expected %d %d %d", round,
             st->MPI_SOURCE, st->MPI_TAG, count, src, TAG_DATA, n);
    }
    for (int i = 0; i < n; i++) {
        if (buf[i] != (unsigned char)(src * 37 + round * 11 + i * 7 + (i >> 8))) {
            fail(__LINE__, "round %d: byte %d of %d from rank %d is wrong", round, i, n, src);
        }
    }
}

/* Polls REQ with MPI_Test for MS milliseconds; it must stay incomplete. */
static void poll_incomplete(MPI_Request *req, int ms, int n)
{
    double end = MPI_Wtime() + ms / 1000.0;
    int flag = 0, tests = 0;

    while (MPI_Wtime() < end || tests < 10) {
        CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        tests++;
        if (flag) {
            fail(__LINE__, "Issend of %d bytes completed before its receive was posted", n);
        }
        CHECK(*req != MPI_REQUEST_NULL);
    }
}

/* Issend, unmatched while polled, then matched on request.  SENDER and RECEIVER may be the
 * same rank. */
static void issend_round(int sender, int receiver, int n, int ms, int round, unsigned char *sbuf,
                         unsigned char *rbuf)
{
    MPI_Request req;
    MPI_Status st;
    int token = 0;

    if (rank == sender) {
        fill(sbuf, n, rank, round);
        CHECK_MPI(MPI_Issend(sbuf, n, MPI_BYTE, receiver, TAG_DATA, MPI_COMM_WORLD, &req));
        poll_incomplete(&req, ms, n);
        if (receiver == rank) {
            CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, rank, TAG_DATA, MPI_COMM_WORLD, &st));
            check_data(rbuf, &st, n, rank, round);
        } else {
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, receiver, TAG_GO, MPI_COMM_WORLD));
        }
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(req == MPI_REQUEST_NULL);
    } else if (rank == receiver) {
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, sender, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        memset(rbuf, 0, (size_t)n);
        CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, sender, TAG_DATA, MPI_COMM_WORLD, &st));
        check_data(rbuf, &st, n, sender, round);
    }
}

/* Ssend (or Issend + Wait) to a receiver that posts its receive DELAY_MS after being told:
 * the send cannot return before that. */
static void ssend_round(int sender, int receiver, int n, int nonblocking, int round,
                        unsigned char *sbuf, unsigned char *rbuf)
{
    MPI_Status st;
    int token = 0;

    if (rank == sender) {
        double t0 = MPI_Wtime(), took;

        fill(sbuf, n, rank, round);
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, receiver, TAG_GO, MPI_COMM_WORLD));
        if (nonblocking) {
            MPI_Request req;

            CHECK_MPI(MPI_Issend(sbuf, n, MPI_BYTE, receiver, TAG_DATA, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Ssend(sbuf, n, MPI_BYTE, receiver, TAG_DATA, MPI_COMM_WORLD));
        }
        took = MPI_Wtime() - t0;
        /* A little slack for the resolution of the two clocks. */
        if (took < (DELAY_MS - 5) / 1000.0) {
            fail(__LINE__,
                 "%s of %d bytes returned after %.3f s, before the receive was posted %d ms after "
                 "the go-ahead",
                 nonblocking ? "Issend+Wait" : "Ssend", n, took, DELAY_MS);
        }
    } else if (rank == receiver) {
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, sender, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        usleep(DELAY_MS * 1000);
        memset(rbuf, 0, (size_t)n);
        CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, sender, TAG_DATA, MPI_COMM_WORLD, &st));
        check_data(rbuf, &st, n, sender, round);
    }
}

/* Ssend with the receive already posted, in both directions. */
static void ssend_exchange(int peer, int n, int round, unsigned char *sbuf, unsigned char *rbuf)
{
    MPI_Request req;
    MPI_Status st;

    fill(sbuf, n, rank, round);
    memset(rbuf, 0, (size_t)n);
    CHECK_MPI(MPI_Irecv(rbuf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Ssend(sbuf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &st));
    check_data(rbuf, &st, n, peer, round);
}

int main(int argc, char **argv)
{
    int sizes[3] = {0, 8, 4 << 20}, ms = argc > 1 ? atoi(argv[1]) : 200;
    int peer, lo, hi, round = 0;
    unsigned char *sbuf, *rbuf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || ms < 0) {
        fail(__LINE__, "usage: p2p_sync [MS], at least 2 ranks");
    }
    peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    lo = rank < peer ? rank : peer;
    hi = rank < peer ? peer : rank;
    sbuf = malloc((size_t)sizes[2]);
    rbuf = malloc((size_t)sizes[2]);
    CHECK(sbuf != NULL && rbuf != NULL);

    for (int s = 0; s < 3; s++) {
        issend_round(lo, hi, sizes[s], ms, round++, sbuf, rbuf);
        if (hi != lo) {
            issend_round(hi, lo, sizes[s], ms, round++, sbuf, rbuf);
        }
    }
    if (peer != rank) {
        int big[2] = {0, 4 << 20};

        for (int s = 0; s < 2; s++) {
            ssend_round(lo, hi, big[s], 0, round++, sbuf, rbuf);
            ssend_round(hi, lo, big[s], 1, round++, sbuf, rbuf);
        }
        for (int s = 0; s < 3; s++) {
            ssend_exchange(peer, sizes[s], round++, sbuf, rbuf);
        }
    }

    free(sbuf);
    free(rbuf);
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
