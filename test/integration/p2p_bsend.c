/*
 * p2p_bsend.c - integration test of buffered sends: a buffer sized exactly as the standard
 * says (MPI_Pack_size plus MPI_BSEND_OVERHEAD per message) holds every Bsend and Ibsend of a
 * round while the receivers have not posted their receives; Buffer_detach gives back the same
 * address and size and, once it returns, the buffer may be overwritten without harm to the
 * messages; the same buffer can be attached again; a Bsend that does not fit fails.
 *
 *   p2p_bsend [ROUNDS]    (default 2; any number of ranks >= 2)
 *
 * Every rank sends to the next rank around the ring and receives from the previous one, after
 * all its own sends; a Bsend that waited for its receiver would deadlock.  Plain portable MPI;
 * no collectives.  Prints "p2p_bsend R: ok" per rank, or "FAIL: p2p_bsend rank R: ..." and
 * aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    K = 10,            /* messages to the next rank per round */
    SELF = 3,          /* messages to oneself per round */
    TAG_RING = 100,    /* plus the message number */
    TAG_SELF = 200,    /* plus the message number */
    TAG_TOO_BIG = 300, /* never received */
    TOO_BIG = 262144,  /* ints in the message that does not fit */
};

static const char *prog = "p2p_bsend";
static int rank, size, next, prev;
static const int counts[K] = {0, 1, 10, 100, 1000, 16384, 3, 500, 2000, 7};

#include "p2p_check.h"

static int value(int src, int round, int k, int i)
{
    return src * 1000003 + round * 10007 + k * 101 + i;
}

static int *filled(int n, int src, int round, int k)
{
    int *buf = malloc(sizeof(*buf) * (size_t)(n > 0 ? n : 1));

    CHECK(buf != NULL);
    for (int i = 0; i < n; i++) {
        buf[i] = value(src, round, k, i);
    }
    return buf;
}

static void check_msg(const int *buf, const MPI_Status *st, int n, int src, int tag, int round,
                      int k)
{
    int count = -1;

    MPI_Get_count(st, MPI_INT, &count);
    if (st->MPI_SOURCE != src || st->MPI_TAG != tag || count != n) {
        fail(__LINE__, "round %d message %d: status source %d tag %d count %d, expected %d %d %d",
             round, k, st->MPI_SOURCE, st->MPI_TAG, count, src, tag, n);
    }
    for (int i = 0; i < n; i++) {
        if (buf[i] != value(src, round, k, i)) {
            fail(__LINE__, "round %d message %d: element %d of %d is wrong", round, k, i, n);
        }
    }
}

/* Bytes a buffer needs for the messages of one round. */
static int round_bytes(void)
{
    int total = 0, packed;

    for (int k = 0; k < K; k++) {
        CHECK_MPI(MPI_Pack_size(counts[k], MPI_INT, MPI_COMM_WORLD, &packed));
        total += packed + MPI_BSEND_OVERHEAD;
    }
    for (int k = 0; k < SELF; k++) {
        CHECK_MPI(MPI_Pack_size(counts[k + 2], MPI_INT, MPI_COMM_WORLD, &packed));
        total += packed + MPI_BSEND_OVERHEAD;
    }
    return total;
}

static void one_round(int round, char *buffer, int bytes)
{
    int *sbufs[K + SELF], *rbufs[K];
    MPI_Request ib[K], rr[K];
    MPI_Status sts[K], st;
    void *detached = NULL;
    int detached_size = -1;

    CHECK_MPI(MPI_Buffer_attach(buffer, bytes));
    for (int k = 0; k < K; k++) {
        sbufs[k] = filled(counts[k], rank, round, k);
        ib[k] = MPI_REQUEST_NULL;
        if (k % 2 == 0) {
            CHECK_MPI(MPI_Bsend(sbufs[k], counts[k], MPI_INT, next, TAG_RING + k, MPI_COMM_WORLD));
        } else {
            CHECK_MPI(MPI_Ibsend(sbufs[k], counts[k], MPI_INT, next, TAG_RING + k, MPI_COMM_WORLD,
                                 &ib[k]));
        }
        /* The message is in the attached buffer: the send buffer is free again. */
        if (k % 2 == 0) {
            memset(sbufs[k], 0xEE, sizeof(int) * (size_t)counts[k]);
        }
    }
    for (int k = 0; k < SELF; k++) {
        sbufs[K + k] = filled(counts[k + 2], rank, round, K + k);
        CHECK_MPI(
            MPI_Bsend(sbufs[K + k], counts[k + 2], MPI_INT, rank, TAG_SELF + k, MPI_COMM_WORLD));
    }
    /* Ibsend completes locally, without the receiver. */
    CHECK_MPI(MPI_Waitall(K, ib, MPI_STATUSES_IGNORE));
    for (int k = 1; k < K; k += 2) {
        memset(sbufs[k], 0xEE, sizeof(int) * (size_t)counts[k]);
    }

    /* Receive later: the messages wait in the attached buffer or at the receiver. */
    usleep(10000);
    for (int k = 0; k < K; k++) {
        rbufs[k] = malloc(sizeof(int) * (size_t)(counts[k] > 0 ? counts[k] : 1));
        CHECK(rbufs[k] != NULL);
        CHECK_MPI(
            MPI_Irecv(rbufs[k], counts[k], MPI_INT, prev, TAG_RING + k, MPI_COMM_WORLD, &rr[k]));
    }
    for (int k = SELF - 1; k >= 0; k--) {
        int *buf = malloc(sizeof(int) * (size_t)counts[k + 2]);

        CHECK(buf != NULL);
        CHECK_MPI(MPI_Recv(buf, counts[k + 2], MPI_INT, rank, TAG_SELF + k, MPI_COMM_WORLD, &st));
        check_msg(buf, &st, counts[k + 2], rank, TAG_SELF + k, round, K + k);
        free(buf);
    }

    /* Detach waits until every buffered message is out; then the buffer is ours again. */
    CHECK_MPI(MPI_Buffer_detach(&detached, &detached_size));
    if (detached != (void *)buffer || detached_size != bytes) {
        fail(__LINE__, "Buffer_detach gave %p and %d bytes, attached %p and %d", detached,
             detached_size, (void *)buffer, bytes);
    }
    memset(buffer, 0xEE, (size_t)bytes);

    CHECK_MPI(MPI_Waitall(K, rr, sts));
    for (int k = 0; k < K; k++) {
        check_msg(rbufs[k], &sts[k], counts[k], prev, TAG_RING + k, round, k);
        free(rbufs[k]);
    }
    for (int k = 0; k < K + SELF; k++) {
        free(sbufs[k]);
    }
}

/* A Bsend larger than the attached buffer, or with no buffer attached, fails.  The message is
 * large (1 MiB): a small one may legitimately go out at once without the attached buffer (Open
 * MPI does that below its eager limit), and MPI need not detect an error it does not hit. */
static void test_too_small(void)
{
    int packed, rc, *big = filled(TOO_BIG, rank, 0, 0);
    void *detached;
    char *small;

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &packed));
    small = malloc((size_t)(packed + MPI_BSEND_OVERHEAD));
    CHECK(small != NULL);
    CHECK_MPI(MPI_Buffer_attach(small, packed + MPI_BSEND_OVERHEAD));
    rc = MPI_Bsend(big, TOO_BIG, MPI_INT, next, TAG_TOO_BIG, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS) {
        fail(__LINE__, "Bsend of 1 MiB into a %d-byte buffer succeeded",
             packed + MPI_BSEND_OVERHEAD);
    }
    CHECK_MPI(MPI_Buffer_detach(&detached, &packed));
    CHECK(detached == (void *)small);
    rc = MPI_Bsend(big, TOO_BIG, MPI_INT, next, TAG_TOO_BIG, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS) {
        fail(__LINE__, "Bsend of 1 MiB with no buffer attached succeeded");
    }
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    free(small);
    free(big);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2, bytes;
    char *buffer;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || rounds < 1) {
        fail(__LINE__, "usage: p2p_bsend [ROUNDS >= 1], at least 2 ranks");
    }
    next = (rank + 1) % size;
    prev = (rank - 1 + size) % size;
    bytes = round_bytes();
    buffer = malloc((size_t)bytes);
    CHECK(buffer != NULL);

    for (int r = 0; r < rounds; r++) {
        one_round(r, buffer, bytes);
    }
    test_too_small();

    free(buffer);
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
