/*
 * p2p_flood.c - integration test of flow control: every rank but 0 floods rank 0 with COUNT
 * messages that rank 0 has not asked for yet, then rank 0 receives them all and checks that
 * each sender's messages arrive complete and in order.
 *
 *   p2p_flood [COUNT [BYTES]]   (default 100000 in all, of 8 bytes; BYTES a multiple of 8;
 *                               any number of ranks >= 2)
 *
 * Phase 1: blocking sends, with rank 0 only in a barrier meanwhile (so every message arrives
 * unexpected); a transport without flow control would have to keep them all in flight.
 * Phase 2: the same with nonblocking sends completed by one MPI_Waitall.
 * Plain portable MPI.  Prints "p2p_flood R: ok" per rank, or "FAIL: p2p_flood rank R: ..." and
 * aborts.
 */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *prog = "p2p_flood";
static int rank, size;
static long words = 1; /* 64-bit words per message */

#include "p2p_check.h"

enum { TAG_FLOOD = 7 };

static uint64_t payload(int src, int phase, long seq)
{
    return (uint64_t)src << 40 ^ (uint64_t)phase << 32 ^ (uint64_t)seq;
}

/* Message SEQ of SRC in PHASE: every word says which message and which word it is. */
static void fill(uint64_t *msg, int src, int phase, long seq)
{
    for (long w = 0; w < words; w++) {
        msg[w] = payload(src, phase, seq) ^ (uint64_t)w << 48;
    }
}

static void receive_all(long per_sender, int phase)
{
    long *next = calloc((size_t)size, sizeof(*next));
    uint64_t *v = malloc((size_t)words * sizeof(*v)), *want = malloc((size_t)words * sizeof(*want));

    CHECK(next != NULL && v != NULL && want != NULL);
    for (long i = 0; i < per_sender * (size - 1); i++) {
        MPI_Status st;
        int src;

        CHECK_MPI(
            MPI_Recv(v, (int)words, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_FLOOD, MPI_COMM_WORLD, &st));
        src = st.MPI_SOURCE;
        CHECK(src > 0 && src < size);
        fill(want, src, phase, next[src]);
        for (long w = 0; w < words; w++) {
            if (v[w] != want[w]) {
                fail(__LINE__, "phase %d: from rank %d, word %ld is %#llx, expected message %ld",
                     phase, src, w, (unsigned long long)v[w], next[src]);
            }
        }
        next[src]++;
    }
    for (int r = 1; r < size; r++) {
        CHECK(next[r] == per_sender);
    }
    free(next);
    free(v);
    free(want);
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 100000;
    long bytes = argc > 2 ? atol(argv[2]) : 8;
    long per_sender;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || count < size - 1 || bytes < 8 || bytes % 8 != 0) {
        fail(__LINE__, "needs at least 2 ranks, COUNT >= ranks - 1 and BYTES a multiple of 8");
    }
    per_sender = count / (size - 1);
    words = bytes / 8;

    /* Phase 1: blocking sends, all unexpected at rank 0. */
    if (rank != 0) {
        uint64_t *v = malloc((size_t)words * sizeof(*v));

        CHECK(v != NULL);
        for (long i = 0; i < per_sender; i++) {
            fill(v, rank, 1, i);
            CHECK_MPI(MPI_Send(v, (int)words, MPI_UINT64_T, 0, TAG_FLOOD, MPI_COMM_WORLD));
        }
        free(v);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        receive_all(per_sender, 1);
    }
    /* Rank 0 receives from any source: a sender's phase-2 messages must not reach it before it
     * has every phase-1 message (a sender done with phase 1 may otherwise go on at once, and
     * its phase-2 messages may rightly match a receive meant for another sender's phase 1). */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Phase 2: nonblocking sends, completed at once. */
    if (rank != 0) {
        uint64_t *v = malloc((size_t)per_sender * (size_t)words * sizeof(*v));
        MPI_Request *req = malloc((size_t)per_sender * sizeof(*req));

        CHECK(v != NULL && req != NULL);
        for (long i = 0; i < per_sender; i++) {
            fill(&v[i * words], rank, 2, i);
            CHECK_MPI(MPI_Isend(&v[i * words], (int)words, MPI_UINT64_T, 0, TAG_FLOOD,
                                MPI_COMM_WORLD, &req[i]));
        }
        CHECK_MPI(MPI_Waitall((int)per_sender, req, MPI_STATUSES_IGNORE));
        free(v);
        free(req);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        receive_all(per_sender, 2);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    printf("%s %d: ok\n", prog, rank);
    MPI_Finalize();
    return 0;
}
