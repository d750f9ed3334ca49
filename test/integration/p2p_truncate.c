/*
 * p2p_truncate.c - integration test of receives into too-small buffers: with MPI_ERRORS_RETURN
 * on MPI_COMM_WORLD, Recv, Wait and Waitall report MPI_ERR_TRUNCATE (Waitall through
 * MPI_ERR_IN_STATUS and the MPI_ERROR field of the statuses), the sender is not affected, the
 * other receives of the Waitall complete normally, and communication works afterwards.
 *
 *   p2p_truncate [LARGE-BYTES]   (default 1048576; any number of ranks >= 2)
 *
 * Ranks work in pairs (0-1, 2-3, ...; with an odd size the last rank works with itself), in
 * both directions.  What a truncating receive leaves in memory is not checked: the standard
 * leaves the state after an error undefined, and Open MPI 4.1 writes the whole message past the
 * end of the receive buffer, so the buffers here are large enough for whole messages.
 * Plain portable MPI; no collectives.  Prints "p2p_truncate R: ok" per rank,
 * or "FAIL: p2p_truncate rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TAG_SMALL = 1,
    TAG_LARGE = 2,
    TAG_LARGE_NB = 3,
    TAG_A = 4,
    TAG_B = 5,
    TAG_C = 6,
    TAG_AFTER = 7,
    NSEND = 7,
    SMALL_RECV = 1024, /* bytes the large messages are received into */
    GUARD = 64,        /* bytes after a fitting receive buffer that must stay untouched */
    C_BYTES = 200000,
};

static const char *prog = "p2p_truncate";
static int rank, size;

#include "p2p_check.h"

static int error_class(int code)
{
    int cls = -1;

    CHECK_MPI(MPI_Error_class(code, &cls));
    return cls;
}

/* RC must be a truncation error with a non-empty error string. */
static void check_truncate(int rc, const char *what, int line)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;

    if (rc == MPI_SUCCESS || error_class(rc) != MPI_ERR_TRUNCATE) {
        fail(line, "%s: returned %d (class %d), expected class MPI_ERR_TRUNCATE", what, rc,
             rc == MPI_SUCCESS ? 0 : error_class(rc));
    }
    CHECK_MPI(MPI_Error_string(rc, text, &len));
    if (len <= 0 || (size_t)len != strlen(text)) {
        fail(line, "%s: empty or inconsistent error string for code %d", what, rc);
    }
}

static void check_guard(const unsigned char *guard, const char *what, int line)
{
    for (int i = 0; i < GUARD; i++) {
        if (guard[i] != 0xA5) {
            fail(line, "%s: byte %d past the end of the receive buffer was written", what, i);
        }
    }
}

static void fill(unsigned char *buf, int n, int src, int tag)
{
    for (int i = 0; i < n; i++) {
        buf[i] = (unsigned char)(src * 13 + tag * 29 + i * 3 + (i >> 9));
    }
}

static void check_fill(const unsigned char *buf, int n, int src, int tag, int line)
{
    for (int i = 0; i < n; i++) {
        if (buf[i] != (unsigned char)(src * 13 + tag * 29 + i * 3 + (i >> 9))) {
            fail(line, "tag %d: byte %d of %d from rank %d is wrong", tag, i, n, src);
        }
    }
}

static void receive_side(int sender, int large, unsigned char *rbuf)
{
    unsigned char *a = rbuf, *c = rbuf + 64, *b = rbuf + 128 + C_BYTES;
    MPI_Request reqs[3];
    MPI_Status st, sts[3];
    int rc, n;

    /* Small: 64 bytes into 32. */
    rc = MPI_Recv(rbuf, 8, MPI_INT, sender, TAG_SMALL, MPI_COMM_WORLD, &st);
    check_truncate(rc, "Recv of 16 ints into 8", __LINE__);

    /* Large into SMALL_RECV bytes, blocking and nonblocking. */
    rc = MPI_Recv(rbuf, SMALL_RECV, MPI_BYTE, sender, TAG_LARGE, MPI_COMM_WORLD, &st);
    check_truncate(rc, "Recv of a large message into 1 KiB", __LINE__);
    CHECK_MPI(
        MPI_Irecv(rbuf, SMALL_RECV, MPI_BYTE, sender, TAG_LARGE_NB, MPI_COMM_WORLD, &reqs[0]));
    rc = MPI_Wait(&reqs[0], &st);
    check_truncate(rc, "Wait on an Irecv of a large message into 1 KiB", __LINE__);

    /* Waitall: A fits, B is truncated, C fits exactly and nothing is written past it. */
    memset(rbuf, 0xA5, 128 + C_BYTES + 512);
    CHECK_MPI(MPI_Irecv(a, 16, MPI_BYTE, sender, TAG_A, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Irecv(b, 16, MPI_BYTE, sender, TAG_B, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Irecv(c, C_BYTES, MPI_BYTE, sender, TAG_C, MPI_COMM_WORLD, &reqs[2]));
    for (int i = 0; i < 3; i++) {
        sts[i].MPI_ERROR = -12345;
    }
    rc = MPI_Waitall(3, reqs, sts);
    if (rc == MPI_SUCCESS || error_class(rc) != MPI_ERR_IN_STATUS) {
        fail(__LINE__, "Waitall with a truncated receive returned %d, expected MPI_ERR_IN_STATUS",
             rc);
    }
    check_truncate(sts[1].MPI_ERROR, "MPI_ERROR of the truncated Waitall status", __LINE__);
    for (int i = 0; i < 3; i += 2) {
        /* A receive that neither failed nor completed is reported as MPI_ERR_PENDING. */
        if (sts[i].MPI_ERROR == MPI_ERR_PENDING) {
            CHECK(reqs[i] != MPI_REQUEST_NULL);
            CHECK_MPI(MPI_Wait(&reqs[i], &sts[i]));
        } else if (sts[i].MPI_ERROR != MPI_SUCCESS) {
            fail(__LINE__,
                 "Waitall status %d has MPI_ERROR %d, expected MPI_SUCCESS or MPI_ERR_PENDING", i,
                 sts[i].MPI_ERROR);
        } else {
            CHECK(reqs[i] == MPI_REQUEST_NULL);
        }
    }
    CHECK(sts[0].MPI_SOURCE == sender && sts[0].MPI_TAG == TAG_A);
    CHECK(MPI_Get_count(&sts[0], MPI_BYTE, &n) == MPI_SUCCESS && n == 16);
    check_fill(a, 16, sender, TAG_A, __LINE__);
    CHECK(sts[2].MPI_SOURCE == sender && sts[2].MPI_TAG == TAG_C);
    CHECK(MPI_Get_count(&sts[2], MPI_BYTE, &n) == MPI_SUCCESS && n == C_BYTES);
    check_fill(c, C_BYTES, sender, TAG_C, __LINE__);
    check_guard(c + C_BYTES, "Irecv of exactly C_BYTES", __LINE__);

    /* Communication goes on. */
    CHECK_MPI(MPI_Recv(rbuf, large, MPI_BYTE, sender, TAG_AFTER, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == sender && st.MPI_TAG == TAG_AFTER);
    CHECK(MPI_Get_count(&st, MPI_BYTE, &n) == MPI_SUCCESS && n == large);
    check_fill(rbuf, large, sender, TAG_AFTER, __LINE__);
}

/* One direction of the test.  SENDER and RECEIVER may be the same rank. */
static void round_trip(int sender, int receiver, int large, unsigned char *sbufs[NSEND],
                       unsigned char *rbuf)
{
    int tags[NSEND] = {TAG_SMALL, TAG_LARGE, TAG_LARGE_NB, TAG_A, TAG_B, TAG_C, TAG_AFTER};
    int lens[NSEND] = {64, large, large, 16, 400, C_BYTES, large};
    MPI_Request reqs[NSEND];
    MPI_Status sts[NSEND];
    int rc;

    if (rank == sender) {
        for (int i = 0; i < NSEND; i++) {
            fill(sbufs[i], lens[i], rank, tags[i]);
            CHECK_MPI(MPI_Isend(sbufs[i], lens[i], MPI_BYTE, receiver, tags[i], MPI_COMM_WORLD,
                                &reqs[i]));
        }
    }
    if (rank == receiver) {
        receive_side(sender, large, rbuf);
    }
    if (rank == sender) {
        /* Truncation is the receiver's error; the sends complete normally. */
        rc = MPI_Waitall(NSEND, reqs, sts);
        if (rc != MPI_SUCCESS) {
            fail(__LINE__, "sender's Waitall returned %d (class %d)", rc, error_class(rc));
        }
    }
}

int main(int argc, char **argv)
{
    int large = argc > 1 ? atoi(argv[1]) : 1048576;
    unsigned char *sbufs[NSEND], *rbuf;
    int peer, lo, hi;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || large < 2 * SMALL_RECV) {
        fail(__LINE__, "usage: p2p_truncate [LARGE-BYTES >= 2048], at least 2 ranks");
    }
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    lo = rank < peer ? rank : peer;
    hi = rank < peer ? peer : rank;
    for (int i = 0; i < NSEND; i++) {
        sbufs[i] = malloc((size_t)(large > C_BYTES ? large : C_BYTES));
        CHECK(sbufs[i] != NULL);
    }
    /* Room for whole messages past every receive buffer (see the top of the file). */
    rbuf = malloc((size_t)large + C_BYTES + 1024);
    CHECK(rbuf != NULL);

    round_trip(lo, hi, large, sbufs, rbuf);
    if (hi != lo) {
        round_trip(hi, lo, large, sbufs, rbuf);
    }

    for (int i = 0; i < NSEND; i++) {
        free(sbufs[i]);
    }
    free(rbuf);
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
