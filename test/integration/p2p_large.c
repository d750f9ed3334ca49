/*
 * p2p_large.c - integration test of large messages: blocking and nonblocking transfers of
 * SIZE MiB between pairs of ranks, contiguous and with a strided vector datatype (received
 * both as the same vector and as contiguous elements), every element checked against its
 * pattern and the whole against the sender's checksum; WINDOWS windows of 16 messages of
 * SIZE/16 MiB in flight at once, each followed by a small one with the same tag; and, with
 * "big", one message larger than 2 GiB.
 *
 *   p2p_large [SIZE-MIB [WINDOWS [APART]]]
 *                           (default 64, 1 and 1; any number of ranks >= 2: each rank pairs
 *                            with its rank XOR APART, a power of two: 0-1, 2-3, ... for 1,
 *                            0-2, 1-3, 4-6, ... for 2; a rank whose partner is past the last
 *                            sends to itself)
 *   p2p_large big           (rank 0 sends rank 1 one element of MPI_Type_contiguous(2^28 + 1,
 *                            MPI_DOUBLE), 2 GiB + 8 bytes, checked by sampling; needs about
 *                            4.3 GB of memory; meant for 2 ranks, others stay idle)
 *
 * Plain portable MPI; no collectives.  Prints "p2p_large R: ok" per rank, or
 * "FAIL: p2p_large rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    BLOCK = 1024, /* elements per block of the vector type; the stride is twice that */
    TAG_DATA = 1,
    TAG_SUM = 2,
    TAG_BIG = 3,
    WINDOW = 16, /* messages in flight at once in a window */
};

static const char *prog = "p2p_large";
static int rank, size;
static const uint64_t SENTINEL = 0xdeadbeefcafef00dULL;

#include "p2p_check.h"

static uint64_t value(int src, int round, size_t i)
{
    return ((uint64_t)i + 1) * 0x9e3779b97f4a7c15ULL ^ (uint64_t)src << 48 ^ (uint64_t)round << 40;
}

/* Order-dependent checksum of N elements spaced STRIDE apart in blocks of BLK. */
static uint64_t checksum(const uint64_t *buf, size_t n, size_t blk, size_t stride)
{
    uint64_t sum = 0;

    for (size_t i = 0; i < n; i++) {
        sum = (sum ^ buf[i / blk * stride + i % blk]) * 0x100000001b3ULL;
    }
    return sum;
}

/* Fills N pattern elements in blocks of BLK spaced STRIDE apart, SENTINEL in the gaps. */
static void fill(uint64_t *buf, size_t n, size_t blk, size_t stride, int round)
{
    for (size_t b = 0; b < n / blk; b++) {
        for (size_t k = 0; k < blk; k++) {
            buf[b * stride + k] = value(rank, round, b * blk + k);
        }
        for (size_t k = blk; k < stride; k++) {
            buf[b * stride + k] = SENTINEL;
        }
    }
}

static void check(const uint64_t *buf, size_t n, size_t blk, size_t stride, int src, int round,
                  const char *what)
{
    for (size_t b = 0; b < n / blk; b++) {
        for (size_t k = 0; k < blk; k++) {
            if (buf[b * stride + k] != value(src, round, b * blk + k)) {
                fail(__LINE__, "%s from rank %d: element %zu of %zu is wrong", what, src,
                     b * blk + k, n);
            }
        }
        for (size_t k = blk; k < stride; k++) {
            if (buf[b * stride + k] != SENTINEL) {
                fail(__LINE__, "%s from rank %d: gap element %zu was written", what, src,
                     b * stride + k);
            }
        }
    }
}

static void check_status(const MPI_Status *st, int src, MPI_Datatype type, int count)
{
    int n = -1;

    MPI_Get_count(st, type, &n);
    if (st->MPI_SOURCE != src || st->MPI_TAG != TAG_DATA || n != count) {
        fail(__LINE__, "status source %d tag %d count %d, expected %d %d %d", st->MPI_SOURCE,
             st->MPI_TAG, n, src, TAG_DATA, count);
    }
}

/* SENDER sends N elements to RECEIVER (possibly itself), described by STYPE/SCOUNT with the
 * given layout, received as RTYPE/RCOUNT with its layout.  The checksum follows separately. */
static void transfer(int sender, int receiver, uint64_t *sbuf, uint64_t *rbuf, size_t n,
                     MPI_Datatype stype, int scount, size_t sstride, MPI_Datatype rtype, int rcount,
                     size_t rstride, int round, int nonblocking, const char *what)
{
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status sts[2];
    uint64_t sum = 0, got = 0;
    size_t sblk = sstride == 1 ? n : BLOCK, rblk = rstride == 1 ? n : BLOCK;

    if (rank == sender) {
        fill(sbuf, n, sblk, sblk == n ? n : sstride, round);
        sum = checksum(sbuf, n, sblk, sblk == n ? n : sstride);
    }
    if (rank == receiver) {
        for (size_t i = 0; i < (rblk == n ? n : n / rblk * rstride); i++) {
            rbuf[i] = SENTINEL;
        }
        CHECK_MPI(MPI_Irecv(rbuf, rcount, rtype, sender, TAG_DATA, MPI_COMM_WORLD, &reqs[1]));
    }
    if (rank == sender) {
        if (nonblocking || receiver == rank) {
            CHECK_MPI(MPI_Isend(sbuf, scount, stype, receiver, TAG_DATA, MPI_COMM_WORLD, &reqs[0]));
        } else {
            CHECK_MPI(MPI_Send(sbuf, scount, stype, receiver, TAG_DATA, MPI_COMM_WORLD));
        }
    }
    if (rank == receiver && !nonblocking && receiver != sender) {
        CHECK_MPI(MPI_Wait(&reqs[1], &sts[1]));
    } else {
        CHECK_MPI(MPI_Waitall(2, reqs, sts));
    }
    if (rank == sender) {
        CHECK_MPI(MPI_Send(&sum, 1, MPI_UNSIGNED_LONG_LONG, receiver, TAG_SUM, MPI_COMM_WORLD));
    }
    if (rank == receiver) {
        check_status(&sts[1], sender, rtype, rcount);
        CHECK_MPI(MPI_Recv(&got, 1, MPI_UNSIGNED_LONG_LONG, sender, TAG_SUM, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        check(rbuf, n, rblk, rblk == n ? n : rstride, sender, round, what);
        if (checksum(rbuf, n, rblk, rblk == n ? n : rstride) != got) {
            fail(__LINE__, "%s from rank %d: checksum differs from the sender's", what, sender);
        }
    }
}

/* Both directions at once, nonblocking, contiguous. */
static void exchange(int peer, uint64_t *sbuf, uint64_t *rbuf, size_t n, int count, int round)
{
    MPI_Request reqs[2];
    MPI_Status sts[2];

    fill(sbuf, n, n, n, round);
    memset(rbuf, 0, n * sizeof(*rbuf));
    CHECK_MPI(
        MPI_Irecv(rbuf, count, MPI_UNSIGNED_LONG_LONG, peer, TAG_DATA, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(
        MPI_Isend(sbuf, count, MPI_UNSIGNED_LONG_LONG, peer, TAG_DATA, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, sts));
    check_status(&sts[0], peer, MPI_UNSIGNED_LONG_LONG, count);
    check(rbuf, n, n, n, peer, round, "simultaneous exchange");
}

/*
 * WINDOW large messages of N / WINDOW elements in flight at once from the lower rank of the
 * pair to the higher, each followed by a one-element message with the same tag: the receiver
 * posts every receive first and waits for the last large one first.  The large ones may be
 * read at once and end in any order; each must still land in the receive it matched in
 * order, and the small ones complete meanwhile.
 */
static void window(int peer, uint64_t *sbuf, uint64_t *rbuf, size_t n, int round)
{
    size_t m = n / WINDOW;
    MPI_Request reqs[2 * WINDOW];
    MPI_Status sts[2 * WINDOW];
    uint64_t small[WINDOW];

    for (int i = 0; i < WINDOW; i++) {
        uint64_t *slice = (rank < peer ? sbuf : rbuf) + (size_t)i * m;

        if (rank < peer) {
            fill(slice, m, m, m, round + i);
            small[i] = value(rank, round + i, m);
            CHECK_MPI(MPI_Isend(slice, (int)m, MPI_UNSIGNED_LONG_LONG, peer, TAG_DATA,
                                MPI_COMM_WORLD, &reqs[2 * i]));
            CHECK_MPI(MPI_Isend(&small[i], 1, MPI_UNSIGNED_LONG_LONG, peer, TAG_DATA,
                                MPI_COMM_WORLD, &reqs[2 * i + 1]));
        } else {
            memset(slice, 0, m * sizeof(*slice));
            small[i] = 0;
            CHECK_MPI(MPI_Irecv(slice, (int)m, MPI_UNSIGNED_LONG_LONG, peer, TAG_DATA,
                                MPI_COMM_WORLD, &reqs[2 * i]));
            CHECK_MPI(MPI_Irecv(&small[i], 1, MPI_UNSIGNED_LONG_LONG, peer, TAG_DATA,
                                MPI_COMM_WORLD, &reqs[2 * i + 1]));
        }
    }
    if (rank > peer) {
        CHECK_MPI(MPI_Wait(&reqs[2 * WINDOW - 2], &sts[2 * WINDOW - 2]));
        check_status(&sts[2 * WINDOW - 2], peer, MPI_UNSIGNED_LONG_LONG, (int)m);
    }
    CHECK_MPI(MPI_Waitall(2 * WINDOW, reqs, sts));
    if (rank < peer) {
        return;
    }
    for (int i = 0; i < WINDOW; i++) {
        if (i < WINDOW - 1) {
            check_status(&sts[2 * i], peer, MPI_UNSIGNED_LONG_LONG, (int)m);
        }
        check_status(&sts[2 * i + 1], peer, MPI_UNSIGNED_LONG_LONG, 1);
        check(rbuf + (size_t)i * m, m, m, m, peer, round + i, "window of messages");
        if (small[i] != value(peer, round + i, m)) {
            fail(__LINE__, "small message %d of the window from rank %d is wrong", i, peer);
        }
    }
}

static void run_pairs(int mib, int windows, int apart)
{
    size_t n = (size_t)mib << 17; /* 8-byte elements */
    int count = (int)n, peer, lo, hi, round = 0;
    uint64_t *sbuf = malloc(2 * n * sizeof(*sbuf)), *rbuf = malloc(2 * n * sizeof(*rbuf));
    MPI_Datatype vec;

    CHECK(sbuf != NULL && rbuf != NULL);
    peer = (rank ^ apart) < size ? rank ^ apart : rank;
    lo = rank < peer ? rank : peer;
    hi = rank < peer ? peer : rank;
    CHECK_MPI(MPI_Type_vector((int)(n / BLOCK), BLOCK, 2 * BLOCK, MPI_UNSIGNED_LONG_LONG, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));

    for (int dir = 0; dir < (lo == hi ? 1 : 2); dir++) {
        int s = dir == 0 ? lo : hi, r = dir == 0 ? hi : lo;

        transfer(s, r, sbuf, rbuf, n, MPI_UNSIGNED_LONG_LONG, count, 1, MPI_UNSIGNED_LONG_LONG,
                 count, 1, round++, 0, "blocking contiguous");
        transfer(s, r, sbuf, rbuf, n, MPI_UNSIGNED_LONG_LONG, count, 1, MPI_UNSIGNED_LONG_LONG,
                 count, 1, round++, 1, "nonblocking contiguous");
        transfer(s, r, sbuf, rbuf, n, vec, 1, 2 * BLOCK, vec, 1, 2 * BLOCK, round++, 0,
                 "vector to vector");
        transfer(s, r, sbuf, rbuf, n, vec, 1, 2 * BLOCK, MPI_UNSIGNED_LONG_LONG, count, 1, round++,
                 1, "vector to contiguous");
        transfer(s, r, sbuf, rbuf, n, MPI_UNSIGNED_LONG_LONG, count, 1, vec, 1, 2 * BLOCK, round++,
                 0, "contiguous to vector");
    }
    exchange(peer, sbuf, rbuf, n, count, round++);
    for (int w = 0; w < windows && peer != rank; w++) {
        window(peer, sbuf, rbuf, n, round);
        round += WINDOW;
    }

    CHECK_MPI(MPI_Type_free(&vec));
    free(sbuf);
    free(rbuf);
}

/* One message of 2^28 + 1 doubles (2 GiB + 8 bytes) from rank 0 to rank 1. */
static void run_big(void)
{
    const size_t n = ((size_t)1 << 28) + 1;
    MPI_Datatype big;
    MPI_Status st;
    MPI_Count elements_x = -1;
    int count = -1, elements = -1;
    double *buf;

    if (rank > 1) {
        return;
    }
    CHECK_MPI(MPI_Type_contiguous((int)n, MPI_DOUBLE, &big));
    CHECK_MPI(MPI_Type_commit(&big));
    buf = malloc(n * sizeof(*buf));
    if (buf == NULL) {
        fail(__LINE__, "cannot allocate %zu bytes", n * sizeof(*buf));
    }
    if (rank == 0) {
        for (size_t i = 0; i < n; i++) {
            buf[i] = (double)i * 3.0 + 1.0;
        }
        CHECK_MPI(MPI_Send(buf, 1, big, 1, TAG_BIG, MPI_COMM_WORLD));
    } else {
        /* Sampled positions start as 0, which no element of the pattern is. */
        for (size_t i = 0; i < n; i += 4096) {
            buf[i] = 0.0;
        }
        buf[n - 1] = 0.0;
        CHECK_MPI(MPI_Recv(buf, 1, big, 0, TAG_BIG, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, big, &count));
        CHECK_MPI(MPI_Get_elements(&st, big, &elements));
        CHECK_MPI(MPI_Get_elements_x(&st, big, &elements_x));
        if (st.MPI_SOURCE != 0 || st.MPI_TAG != TAG_BIG || count != 1 || elements != (int)n ||
            elements_x != (MPI_Count)n) {
            fail(__LINE__, "status source %d tag %d count %d elements %d elements_x %lld",
                 st.MPI_SOURCE, st.MPI_TAG, count, elements, (long long)elements_x);
        }
        for (size_t i = 0; i < n; i += 1021) {
            if (buf[i] != (double)i * 3.0 + 1.0) {
                fail(__LINE__, "element %zu of %zu is %.1f", i, n, buf[i]);
            }
        }
        for (size_t i = n - 4096; i < n; i++) {
            if (buf[i] != (double)i * 3.0 + 1.0) {
                fail(__LINE__, "element %zu of %zu is %.1f", i, n, buf[i]);
            }
        }
    }
    free(buf);
    CHECK_MPI(MPI_Type_free(&big));
}

int main(int argc, char **argv)
{
    int big = argc > 1 && strcmp(argv[1], "big") == 0;
    int mib = argc > 1 && !big ? atoi(argv[1]) : 64;
    int windows = argc > 2 && !big ? atoi(argv[2]) : 1;
    int apart = argc > 3 && !big ? atoi(argv[3]) : 1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || mib < 1 || mib > 8191 || windows < 1 || windows > 1000 || apart < 1 ||
        apart > (1 << 20) || (apart & (apart - 1)) != 0) {
        fail(__LINE__, "usage: p2p_large [SIZE-MIB (1 to 8191) [WINDOWS (1 to 1000) [APART (a "
                       "power of two)]] | big], at least 2 ranks");
    }
    if (big) {
        run_big();
    } else {
        run_pairs(mib, windows, apart);
    }
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
