/*
 * p2p_persistent.c - integration test of persistent requests: Send_init, Ssend_init,
 * Bsend_init, Rsend_init and Recv_init, started with Start and Startall over many iterations
 * with new buffer contents each time; Wait and Test on inactive persistent requests return at
 * once with an empty status and leave the request allocated; Request_free of inactive ones.
 *
 *   p2p_persistent [ITERATIONS]    (default 100; any number of ranks >= 2)
 *
 * Ranks work in pairs (0-1, 2-3, ...; with an odd size the last rank works with itself),
 * exchanging in both directions each iteration.  Rsend is started only after the peer said its
 * receives are started.  Plain portable MPI; no collectives.  Prints "p2p_persistent R: ok" per
 * rank, or "FAIL: p2p_persistent rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    KINDS = 4,     /* send, ssend, bsend, rsend */
    SMALL = 1000,  /* ints, for ssend, bsend and rsend */
    LARGE = 32768, /* doubles, for send */
    TAG_BASE = 10, /* plus the kind */
    TAG_READY = 20,
};

static const char *prog = "p2p_persistent";
static int rank, size;

#include "p2p_check.h"

static int value(int src, int iter, int kind, int i)
{
    return src * 1000003 + iter * 10007 + kind * 101 + i;
}

static void check_empty(const MPI_Status *st, int line)
{
    int count = -1, cancelled = -1;

    MPI_Get_count(st, MPI_INT, &count);
    MPI_Test_cancelled(st, &cancelled);
    if (st->MPI_SOURCE != MPI_ANY_SOURCE || st->MPI_TAG != MPI_ANY_TAG || count != 0 ||
        cancelled != 0) {
        fail(line, "status source %d tag %d count %d cancelled %d is not empty", st->MPI_SOURCE,
             st->MPI_TAG, count, cancelled);
    }
}

/* Wait, Test and Request_get_status on inactive persistent requests: immediate, empty status,
 * request kept. */
static void check_inactive(MPI_Request *reqs, int n)
{
    MPI_Status st, sts[2 * KINDS];
    int flag;

    for (int i = 0; i < n; i++) {
        MPI_Request before = reqs[i];

        CHECK_MPI(MPI_Wait(&reqs[i], &st));
        CHECK(reqs[i] == before);
        check_empty(&st, __LINE__);
        flag = 0;
        CHECK_MPI(MPI_Test(&reqs[i], &flag, &st));
        CHECK(flag == 1 && reqs[i] == before);
        check_empty(&st, __LINE__);
    }
    CHECK_MPI(MPI_Waitall(n, reqs, sts));
    for (int i = 0; i < n; i++) {
        CHECK(reqs[i] != MPI_REQUEST_NULL);
        check_empty(&sts[i], __LINE__);
    }
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 100;
    int *sint[KINDS], *rint[KINDS], peer, bsize, packed, ready_out = 0, ready_in = 0;
    int extra_buf[4];
    double *sdbl, *rdbl;
    MPI_Request reqs[2 * KINDS], ready, extra;
    MPI_Status sts[2 * KINDS];
    void *battach, *bdetach;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || iters < 1) {
        fail(__LINE__, "usage: p2p_persistent [ITERATIONS >= 1], at least 2 ranks");
    }
    peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    sdbl = malloc(sizeof(*sdbl) * LARGE);
    rdbl = malloc(sizeof(*rdbl) * LARGE);
    CHECK(sdbl != NULL && rdbl != NULL);
    for (int k = 1; k < KINDS; k++) {
        sint[k] = malloc(sizeof(int) * SMALL);
        rint[k] = malloc(sizeof(int) * SMALL);
        CHECK(sint[k] != NULL && rint[k] != NULL);
    }
    /* Room for every iteration's buffered message, so Bsend never waits for space. */
    CHECK_MPI(MPI_Pack_size(SMALL, MPI_INT, MPI_COMM_WORLD, &packed));
    bsize = iters * (packed + MPI_BSEND_OVERHEAD);
    battach = malloc((size_t)bsize);
    CHECK(battach != NULL);
    CHECK_MPI(MPI_Buffer_attach(battach, bsize));

    /* reqs[0..3]: receives of each kind; reqs[4..7]: send, ssend, bsend, rsend. */
    CHECK_MPI(MPI_Recv_init(rdbl, LARGE, MPI_DOUBLE, peer, TAG_BASE, MPI_COMM_WORLD, &reqs[0]));
    for (int k = 1; k < KINDS; k++) {
        CHECK_MPI(
            MPI_Recv_init(rint[k], SMALL, MPI_INT, peer, TAG_BASE + k, MPI_COMM_WORLD, &reqs[k]));
    }
    CHECK_MPI(MPI_Send_init(sdbl, LARGE, MPI_DOUBLE, peer, TAG_BASE, MPI_COMM_WORLD, &reqs[4]));
    CHECK_MPI(
        MPI_Ssend_init(sint[1], SMALL, MPI_INT, peer, TAG_BASE + 1, MPI_COMM_WORLD, &reqs[5]));
    CHECK_MPI(
        MPI_Bsend_init(sint[2], SMALL, MPI_INT, peer, TAG_BASE + 2, MPI_COMM_WORLD, &reqs[6]));
    CHECK_MPI(
        MPI_Rsend_init(sint[3], SMALL, MPI_INT, peer, TAG_BASE + 3, MPI_COMM_WORLD, &reqs[7]));
    check_inactive(reqs, 2 * KINDS);

    /* A persistent request that is never started can be freed. */
    CHECK_MPI(MPI_Send_init(extra_buf, 4, MPI_INT, peer, TAG_BASE, MPI_COMM_WORLD, &extra));
    CHECK_MPI(MPI_Request_free(&extra));
    CHECK(extra == MPI_REQUEST_NULL);

    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < LARGE; i++) {
            sdbl[i] = (double)value(rank, it, 0, i);
        }
        for (int k = 1; k < KINDS; k++) {
            for (int i = 0; i < SMALL; i++) {
                sint[k][i] = value(rank, it, k, i);
            }
            memset(rint[k], 0, sizeof(int) * SMALL);
        }
        memset(rdbl, 0, sizeof(*rdbl) * LARGE);

        CHECK_MPI(MPI_Startall(KINDS, reqs));
        /* The peer's receives are started once its message arrives: then Rsend is correct. */
        CHECK_MPI(MPI_Isend(&ready_out, 1, MPI_INT, peer, TAG_READY, MPI_COMM_WORLD, &ready));
        CHECK_MPI(
            MPI_Recv(&ready_in, 1, MPI_INT, peer, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Startall(3, reqs + KINDS));
        CHECK_MPI(MPI_Start(&reqs[7]));
        CHECK_MPI(MPI_Waitall(2 * KINDS, reqs, sts));
        CHECK_MPI(MPI_Wait(&ready, MPI_STATUS_IGNORE));

        for (int k = 0; k < KINDS; k++) {
            int count = -1;

            CHECK(reqs[k] != MPI_REQUEST_NULL && reqs[KINDS + k] != MPI_REQUEST_NULL);
            MPI_Get_count(&sts[k], k == 0 ? MPI_DOUBLE : MPI_INT, &count);
            if (sts[k].MPI_SOURCE != peer || sts[k].MPI_TAG != TAG_BASE + k ||
                count != (k == 0 ? LARGE : SMALL)) {
                fail(__LINE__, "iteration %d kind %d: status source %d tag %d count %d", it, k,
                     sts[k].MPI_SOURCE, sts[k].MPI_TAG, count);
            }
        }
        for (int i = 0; i < LARGE; i++) {
            if (rdbl[i] != (double)value(peer, it, 0, i)) {
                fail(__LINE__, "iteration %d: Send_init data element %d is wrong", it, i);
            }
        }
        for (int k = 1; k < KINDS; k++) {
            for (int i = 0; i < SMALL; i++) {
                if (rint[k][i] != value(peer, it, k, i)) {
                    fail(__LINE__, "iteration %d kind %d: element %d is %d, expected %d", it, k, i,
                         rint[k][i], value(peer, it, k, i));
                }
            }
        }
    }

    check_inactive(reqs, 2 * KINDS);
    for (int i = 0; i < 2 * KINDS; i++) {
        CHECK_MPI(MPI_Request_free(&reqs[i]));
        CHECK(reqs[i] == MPI_REQUEST_NULL);
    }
    CHECK_MPI(MPI_Buffer_detach(&bdetach, &bsize));
    CHECK(bdetach == battach && bsize == iters * (packed + MPI_BSEND_OVERHEAD));
    free(battach);
    for (int k = 1; k < KINDS; k++) {
        free(sint[k]);
        free(rint[k]);
    }
    free(sdbl);
    free(rdbl);
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
