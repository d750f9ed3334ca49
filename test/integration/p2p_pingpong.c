/*
 * p2p_pingpong.c - integration test of messages that travel one at a time: ROUNDS round trips
 * of a message of each size from 64 KiB to MAX KiB (doubling) between pairs of ranks, every
 * byte of every message checked.  One message at a time, each answered before the next: what
 * a latency benchmark does, and where a protocol's last word (the ofi transport's FIN after a
 * read, or its sender's write into the receiver's memory) meets the reply that follows it.
 *
 *   p2p_pingpong [MAX-KIB [ROUNDS [APART]]]
 *                        (default 512, 100 and 1; any number of ranks >= 2: each rank pairs
 *                         with its rank XOR APART, a power of two: 0-1, 2-3, ... for 1, 0-2,
 *                         1-3, 4-6, ... for 2; a rank whose partner is past the last idles)
 *
 * Plain portable MPI; no collectives.  Prints "p2p_pingpong R: ok" per rank, or
 * "FAIL: p2p_pingpong rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_PING = 1, TAG_PONG = 2 };

static const char *prog = "p2p_pingpong";
static int rank, size;

#include "p2p_check.h"

static unsigned char pattern(int src, int round, size_t i)
{
    return (unsigned char)(src * 29 + round * 13 + i * 7 + (i >> 9));
}

static void fill(unsigned char *buf, size_t n, int src, int round)
{
    for (size_t i = 0; i < n; i++) {
        buf[i] = pattern(src, round, i);
    }
}

static void check(const unsigned char *buf, size_t n, int src, int round)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] != pattern(src, round, i)) {
            fail(__LINE__, "byte %zu of round %d (%zu bytes) from rank %d is %u, expected %u", i,
                 round, n, src, buf[i], pattern(src, round, i));
        }
    }
}

int main(int argc, char **argv)
{
    int max_kib = argc > 1 ? atoi(argv[1]) : 512;
    int rounds = argc > 2 ? atoi(argv[2]) : 100;
    int apart = argc > 3 ? atoi(argv[3]) : 1;
    unsigned char *sbuf, *rbuf;
    int peer;

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size < 2 || max_kib < 64 || max_kib > 65536 || rounds < 1 || rounds > 100000 || apart < 1 ||
        (apart & (apart - 1)) != 0) {
        fail(__LINE__,
             "usage: %s [MAX-KIB (64-65536) [ROUNDS (1-100000) [APART (a power of two)]]], 2 "
             "ranks or more",
             prog);
    }
    peer = (rank ^ apart) < size ? rank ^ apart : rank;
    sbuf = malloc((size_t)max_kib << 10);
    rbuf = malloc((size_t)max_kib << 10);
    CHECK(sbuf != NULL && rbuf != NULL);
    for (size_t n = (size_t)64 << 10; n <= (size_t)max_kib << 10 && peer != rank; n *= 2) {
        for (int r = 0; r < rounds; r++) {
            MPI_Status st;
            int count;

            if (rank < peer) {
                fill(sbuf, n, rank, r);
                CHECK_MPI(MPI_Send(sbuf, (int)n, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD));
                memset(rbuf, 0, n);
                CHECK_MPI(MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, TAG_PONG, MPI_COMM_WORLD, &st));
            } else {
                memset(rbuf, 0, n);
                CHECK_MPI(MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, &st));
                fill(sbuf, n, rank, r);
                CHECK_MPI(MPI_Send(sbuf, (int)n, MPI_BYTE, peer, TAG_PONG, MPI_COMM_WORLD));
            }
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
            if ((size_t)count != n || st.MPI_SOURCE != peer) {
                fail(__LINE__, "round %d of %zu bytes: got %d bytes from rank %d", r, n, count,
                     st.MPI_SOURCE);
            }
            check(rbuf, n, peer, r);
        }
    }
    free(sbuf);
    free(rbuf);
    printf("%s %d: ok\n", prog, rank);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
