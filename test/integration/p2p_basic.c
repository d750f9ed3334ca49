/*
 * p2p_basic.c - integration test of basic blocking point-to-point: Send/Recv ring, all-pairs
 * Sendrecv, zero-byte and self messages, MPI_PROC_NULL, status fields and Get_count,
 * Sendrecv_replace, MPI_STATUS_IGNORE, Rsend after a handshake, and the MPI_TAG_UB attribute.
 *
 *   p2p_basic [LARGE-BYTES]     (default 1048576; any number of ranks >= 2)
 *
 * Plain portable MPI: it must pass on any correct MPI, so it relies only on what the standard
 * guarantees (no buffering of blocking sends, no collectives).  Prints "p2p_basic R: ok" per
 * rank, or "FAIL: p2p_basic rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TAG_RING = 1,
    TAG_PAIRS = 100, /* plus the shift */
    TAG_ZERO = 20,
    TAG_SELF = 30,
    TAG_COUNT = 40, /* to TAG_COUNT + 5 */
    TAG_REPLACE = 50,
    TAG_IGNORE = 60,
    TAG_READY = 70,
    TAG_RSEND = 71,
    TAG_NULL = 80,
};

static const char *prog = "p2p_basic";
static int rank, size, next, prev;

#include "p2p_check.h"

static int value(int src, int dst, int i)
{
    return src * 1000003 + dst * 7919 + i;
}

static void check_status(const MPI_Status *st, int source, int tag, MPI_Datatype type, int count,
                         int line)
{
    int n = -1;

    MPI_Get_count(st, type, &n);
    if (st->MPI_SOURCE != source || st->MPI_TAG != tag || n != count) {
        fail(line, "status source %d tag %d count %d, expected %d %d %d", st->MPI_SOURCE,
             st->MPI_TAG, n, source, tag, count);
    }
}

static void check_ints(const int *buf, int n, int src, int dst, int line)
{
    for (int i = 0; i < n; i++) {
        if (buf[i] != value(src, dst, i)) {
            fail(line, "element %d of %d from rank %d is %d, expected %d", i, n, src, buf[i],
                 value(src, dst, i));
        }
    }
}

static void fill_ints(int *buf, int n, int src, int dst)
{
    for (int i = 0; i < n; i++) {
        buf[i] = value(src, dst, i);
    }
}

/* Blocking ring: even ranks send first and odd ranks receive first, so no send has to be
 * buffered (with an odd size, rank 0's send to rank 1 breaks the cycle). */
static void test_ring(int n)
{
    int *sbuf = malloc(sizeof(*sbuf) * (size_t)n), *rbuf = malloc(sizeof(*rbuf) * (size_t)n);
    MPI_Status st;

    CHECK(sbuf != NULL && rbuf != NULL);
    fill_ints(sbuf, n, rank, next);
    memset(rbuf, 0xff, sizeof(*rbuf) * (size_t)n);
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Send(sbuf, n, MPI_INT, next, TAG_RING, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(rbuf, n, MPI_INT, prev, TAG_RING, MPI_COMM_WORLD, &st));
    } else {
        CHECK_MPI(MPI_Recv(rbuf, n, MPI_INT, prev, TAG_RING, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Send(sbuf, n, MPI_INT, next, TAG_RING, MPI_COMM_WORLD));
    }
    check_status(&st, prev, TAG_RING, MPI_INT, n, __LINE__);
    check_ints(rbuf, n, prev, rank, __LINE__);
    free(sbuf);
    free(rbuf);
}

/* Every rank exchanges with every other rank: at shift k it sends to rank+k, receives from
 * rank-k. */
static void test_all_pairs(void)
{
    enum { N = 64 };
    int sbuf[N], rbuf[N];
    MPI_Status st;

    for (int k = 1; k < size; k++) {
        int dst = (rank + k) % size, src = (rank - k + size) % size;

        fill_ints(sbuf, N, rank, dst);
        memset(rbuf, 0xff, sizeof(rbuf));
        CHECK_MPI(MPI_Sendrecv(sbuf, N, MPI_INT, dst, TAG_PAIRS + k, rbuf, N, MPI_INT, src,
                               TAG_PAIRS + k, MPI_COMM_WORLD, &st));
        check_status(&st, src, TAG_PAIRS + k, MPI_INT, N, __LINE__);
        check_ints(rbuf, N, src, rank, __LINE__);
    }
}

/* A zero-byte message matches, reports count 0 and leaves the receive buffer alone. */
static void test_zero_bytes(void)
{
    int sbuf[4] = {1, 2, 3, 4}, rbuf[4];
    MPI_Status st;
    MPI_Request req;

    for (int i = 0; i < 4; i++) {
        rbuf[i] = -7;
    }
    CHECK_MPI(MPI_Sendrecv(sbuf, 0, MPI_INT, next, TAG_ZERO, rbuf, 4, MPI_INT, prev, TAG_ZERO,
                           MPI_COMM_WORLD, &st));
    check_status(&st, prev, TAG_ZERO, MPI_INT, 0, __LINE__);
    for (int i = 0; i < 4; i++) {
        CHECK(rbuf[i] == -7);
    }
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Send(sbuf, 0, MPI_BYTE, next, TAG_ZERO + 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(rbuf, 16, MPI_BYTE, prev, TAG_ZERO + 1, MPI_COMM_WORLD, &st));
    } else {
        CHECK_MPI(MPI_Recv(rbuf, 16, MPI_BYTE, prev, TAG_ZERO + 1, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Send(sbuf, 0, MPI_BYTE, next, TAG_ZERO + 1, MPI_COMM_WORLD));
    }
    check_status(&st, prev, TAG_ZERO + 1, MPI_BYTE, 0, __LINE__);
    CHECK(rbuf[0] == -7 && rbuf[3] == -7);
    /* Zero bytes into a zero-count receive, nonblocking. */
    CHECK_MPI(MPI_Irecv(rbuf, 0, MPI_INT, prev, TAG_ZERO + 2, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Send(sbuf, 0, MPI_INT, next, TAG_ZERO + 2, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL);
    check_status(&st, prev, TAG_ZERO + 2, MPI_INT, 0, __LINE__);
}

/* Messages to oneself: Isend then Recv (small and large), Sendrecv and Sendrecv_replace. */
static void test_self(int large)
{
    int *sbuf = malloc(sizeof(*sbuf) * (size_t)large),
        *rbuf = malloc(sizeof(*rbuf) * (size_t)large);
    int sizes[2] = {100, large};
    MPI_Request req;
    MPI_Status st;

    CHECK(sbuf != NULL && rbuf != NULL);
    for (int s = 0; s < 2; s++) {
        int n = sizes[s];

        fill_ints(sbuf, n, rank, rank);
        memset(rbuf, 0, sizeof(*rbuf) * (size_t)n);
        CHECK_MPI(MPI_Isend(sbuf, n, MPI_INT, rank, TAG_SELF, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Recv(rbuf, n, MPI_INT, rank, TAG_SELF, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        check_status(&st, rank, TAG_SELF, MPI_INT, n, __LINE__);
        check_ints(rbuf, n, rank, rank, __LINE__);

        memset(rbuf, 0, sizeof(*rbuf) * (size_t)n);
        CHECK_MPI(MPI_Sendrecv(sbuf, n, MPI_INT, rank, TAG_SELF + 1, rbuf, n, MPI_INT, rank,
                               TAG_SELF + 1, MPI_COMM_WORLD, &st));
        check_status(&st, rank, TAG_SELF + 1, MPI_INT, n, __LINE__);
        check_ints(rbuf, n, rank, rank, __LINE__);

        CHECK_MPI(MPI_Sendrecv_replace(sbuf, n, MPI_INT, rank, TAG_SELF + 2, rank, TAG_SELF + 2,
                                       MPI_COMM_WORLD, &st));
        check_status(&st, rank, TAG_SELF + 2, MPI_INT, n, __LINE__);
        check_ints(sbuf, n, rank, rank, __LINE__);
    }
    free(sbuf);
    free(rbuf);
}

static void check_proc_null_status(const MPI_Status *st, int line)
{
    int n = -1;

    MPI_Get_count(st, MPI_INT, &n);
    if (st->MPI_SOURCE != MPI_PROC_NULL || st->MPI_TAG != MPI_ANY_TAG || n != 0) {
        fail(line, "MPI_PROC_NULL receive: status source %d tag %d count %d", st->MPI_SOURCE,
             st->MPI_TAG, n);
    }
}

/* MPI_PROC_NULL as destination and source: immediate success, source MPI_PROC_NULL, tag
 * MPI_ANY_TAG, count 0, buffer untouched. */
static void test_proc_null(void)
{
    int buf[8] = {5, 5, 5, 5, 5, 5, 5, 5};
    MPI_Request reqs[2];
    MPI_Status st, sts[2];

    CHECK_MPI(MPI_Send(buf, 8, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ssend(buf, 8, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Rsend(buf, 8, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD));
    st.MPI_SOURCE = 1234;
    st.MPI_TAG = 1234;
    CHECK_MPI(MPI_Recv(buf, 8, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, __LINE__);
    CHECK_MPI(MPI_Recv(buf, 8, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, __LINE__);
    CHECK_MPI(MPI_Sendrecv(buf, 4, MPI_INT, MPI_PROC_NULL, TAG_NULL, buf + 4, 4, MPI_INT,
                           MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, __LINE__);
    CHECK_MPI(MPI_Sendrecv_replace(buf, 8, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_PROC_NULL,
                                   TAG_NULL, MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, __LINE__);
    CHECK_MPI(MPI_Isend(buf, 8, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Irecv(buf, 8, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, sts));
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL);
    check_proc_null_status(&sts[1], __LINE__);
    for (int i = 0; i < 8; i++) {
        CHECK(buf[i] == 5);
    }
}

/* Get_count and Get_elements for several receive datatypes, including a partial derived
 * element (count MPI_UNDEFINED). */
static void test_counts(void)
{
    int ibuf[16];
    double dbuf[8];
    char cbuf[16];
    unsigned char bbuf[16];
    MPI_Datatype three, two;
    MPI_Request reqs[6];
    MPI_Status st;
    int isend[6] = {1, 2, 3, 4, 5, 6};
    double dsend[3] = {1.5, 2.5, 3.5};
    char csend[7] = "abcdef";
    unsigned char bsend[13] = {0};
    int n;

    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &three));
    CHECK_MPI(MPI_Type_commit(&three));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
    CHECK_MPI(MPI_Type_commit(&two));

    CHECK_MPI(MPI_Isend(isend, 6, MPI_INT, next, TAG_COUNT, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Isend(dsend, 3, MPI_DOUBLE, next, TAG_COUNT + 1, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Isend(isend, 6, MPI_INT, next, TAG_COUNT + 2, MPI_COMM_WORLD, &reqs[2]));
    CHECK_MPI(MPI_Isend(isend, 5, MPI_INT, next, TAG_COUNT + 3, MPI_COMM_WORLD, &reqs[3]));
    CHECK_MPI(MPI_Isend(csend, 7, MPI_CHAR, next, TAG_COUNT + 4, MPI_COMM_WORLD, &reqs[4]));
    CHECK_MPI(MPI_Isend(bsend, 13, MPI_BYTE, next, TAG_COUNT + 5, MPI_COMM_WORLD, &reqs[5]));

    CHECK_MPI(MPI_Recv(ibuf, 16, MPI_INT, prev, TAG_COUNT, MPI_COMM_WORLD, &st));
    check_status(&st, prev, TAG_COUNT, MPI_INT, 6, __LINE__);
    CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &n));
    CHECK(n == 6);
    CHECK(ibuf[0] == 1 && ibuf[5] == 6);

    CHECK_MPI(MPI_Recv(dbuf, 8, MPI_DOUBLE, prev, TAG_COUNT + 1, MPI_COMM_WORLD, &st));
    check_status(&st, prev, TAG_COUNT + 1, MPI_DOUBLE, 3, __LINE__);
    CHECK(dbuf[0] == 1.5 && dbuf[2] == 3.5);

    CHECK_MPI(MPI_Recv(ibuf, 4, three, prev, TAG_COUNT + 2, MPI_COMM_WORLD, &st));
    check_status(&st, prev, TAG_COUNT + 2, three, 2, __LINE__);
    CHECK_MPI(MPI_Get_elements(&st, three, &n));
    CHECK(n == 6);

    CHECK_MPI(MPI_Recv(ibuf, 4, two, prev, TAG_COUNT + 3, MPI_COMM_WORLD, &st));
    check_status(&st, prev, TAG_COUNT + 3, two, MPI_UNDEFINED, __LINE__);
    CHECK_MPI(MPI_Get_elements(&st, two, &n));
    CHECK(n == 5);
    CHECK(ibuf[4] == 5);

    CHECK_MPI(MPI_Recv(cbuf, 16, MPI_CHAR, prev, TAG_COUNT + 4, MPI_COMM_WORLD, &st));
    check_status(&st, prev, TAG_COUNT + 4, MPI_CHAR, 7, __LINE__);
    CHECK(strcmp(cbuf, "abcdef") == 0);

    CHECK_MPI(MPI_Recv(bbuf, 16, MPI_BYTE, prev, TAG_COUNT + 5, MPI_COMM_WORLD, &st));
    check_status(&st, prev, TAG_COUNT + 5, MPI_BYTE, 13, __LINE__);

    CHECK_MPI(MPI_Waitall(6, reqs, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Type_free(&three));
    CHECK_MPI(MPI_Type_free(&two));
    CHECK(three == MPI_DATATYPE_NULL && two == MPI_DATATYPE_NULL);
}

/* Sendrecv_replace around the ring, small and large. */
static void test_replace(int large)
{
    int *buf = malloc(sizeof(*buf) * (size_t)large);
    int sizes[2] = {10, large};
    MPI_Status st;

    CHECK(buf != NULL);
    for (int s = 0; s < 2; s++) {
        int n = sizes[s];

        fill_ints(buf, n, rank, next);
        CHECK_MPI(MPI_Sendrecv_replace(buf, n, MPI_INT, next, TAG_REPLACE, prev, TAG_REPLACE,
                                       MPI_COMM_WORLD, &st));
        check_status(&st, prev, TAG_REPLACE, MPI_INT, n, __LINE__);
        check_ints(buf, n, prev, rank, __LINE__);
    }
    free(buf);
}

static void test_status_ignore(void)
{
    int sbuf[4], rbuf[4];
    MPI_Request req;

    fill_ints(sbuf, 4, rank, next);
    CHECK_MPI(MPI_Sendrecv(sbuf, 4, MPI_INT, next, TAG_IGNORE, rbuf, 4, MPI_INT, prev, TAG_IGNORE,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_ints(rbuf, 4, prev, rank, __LINE__);
    CHECK_MPI(MPI_Isend(sbuf, 4, MPI_INT, next, TAG_IGNORE + 1, MPI_COMM_WORLD, &req));
    memset(rbuf, 0, sizeof(rbuf));
    CHECK_MPI(MPI_Recv(rbuf, 4, MPI_INT, prev, TAG_IGNORE + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_ints(rbuf, 4, prev, rank, __LINE__);
}

/* Rsend is only correct once the matching receive is posted: each rank posts its receive,
 * then tells its left neighbour, which waits for that before its Rsend. */
static void test_rsend(int large)
{
    int *sbuf = malloc(sizeof(*sbuf) * (size_t)large),
        *rbuf = malloc(sizeof(*rbuf) * (size_t)large);
    int sizes[2] = {100, large};
    MPI_Request rreq, readyreq;
    MPI_Status st;
    int ready_out = 0, ready_in = 0;

    CHECK(sbuf != NULL && rbuf != NULL);
    for (int s = 0; s < 2; s++) {
        int n = sizes[s];

        fill_ints(sbuf, n, rank, next);
        memset(rbuf, 0, sizeof(*rbuf) * (size_t)n);
        CHECK_MPI(MPI_Irecv(rbuf, n, MPI_INT, prev, TAG_RSEND, MPI_COMM_WORLD, &rreq));
        CHECK_MPI(MPI_Isend(&ready_out, 0, MPI_INT, prev, TAG_READY, MPI_COMM_WORLD, &readyreq));
        CHECK_MPI(
            MPI_Recv(&ready_in, 0, MPI_INT, next, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Rsend(sbuf, n, MPI_INT, next, TAG_RSEND, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&rreq, &st));
        CHECK_MPI(MPI_Wait(&readyreq, MPI_STATUS_IGNORE));
        check_status(&st, prev, TAG_RSEND, MPI_INT, n, __LINE__);
        check_ints(rbuf, n, prev, rank, __LINE__);
    }
    free(sbuf);
    free(rbuf);
}

/* MPI_TAG_UB is at least 32767, and the largest tag works with specific and any-tag
 * receives. */
static void test_tag_ub(void)
{
    int *ub = NULL, flag = 0, sbuf[2], rbuf[2];
    MPI_Request req;
    MPI_Status st;

    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
    CHECK(flag == 1);
    CHECK(ub != NULL && *ub >= 32767);
    fill_ints(sbuf, 2, rank, next);
    CHECK_MPI(MPI_Isend(sbuf, 2, MPI_INT, next, *ub, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Recv(rbuf, 2, MPI_INT, prev, *ub, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_status(&st, prev, *ub, MPI_INT, 2, __LINE__);
    check_ints(rbuf, 2, prev, rank, __LINE__);
    CHECK_MPI(MPI_Isend(sbuf, 2, MPI_INT, next, *ub, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Recv(rbuf, 2, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_status(&st, prev, *ub, MPI_INT, 2, __LINE__);
}

int main(int argc, char **argv)
{
    long large_bytes = argc > 1 ? atol(argv[1]) : 1048576;
    int large = (int)(large_bytes / (long)sizeof(int));

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || large < 100) {
        fail(__LINE__, "needs at least 2 ranks and LARGE-BYTES >= 400 (have %d ranks)", size);
    }
    next = (rank + 1) % size;
    prev = (rank - 1 + size) % size;

    test_ring(16);
    test_ring(large);
    test_all_pairs();
    test_zero_bytes();
    test_self(large);
    test_proc_null();
    test_counts();
    test_replace(large);
    test_status_ignore();
    test_rsend(large);
    test_tag_ub();

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
