/*
 * coll_barrier.c - integration test of MPI_Barrier: no rank leaves before every rank has
 * entered (ranks enter after staggered sleeps, times exchanged by point-to-point and compared
 * on the system-wide monotonic clock between ranks on the same host), on MPI_COMM_WORLD, a
 * reversed and a rank % 3 split communicator and MPI_COMM_SELF; many barriers interleaved on
 * several communicators; 150 communicators made, used and freed, after which the process
 * must not hold more mappings (where /proc says).
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_barrier R: ok" per rank, or
 * "FAIL: coll_barrier rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *prog = "coll_barrier";
static int rank, size;

#include "p2p_check.h"
#include "coll_remake.h"

enum { TAG_TIMES = 11, ROUNDS = 4, HOST = 64 };

/* Times are compared across processes, so they come from the system-wide monotonic clock and
 * only between ranks on the same host (MPI_Wtime need not be global). */
static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void nap(double seconds)
{
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};

    nanosleep(&ts, NULL);
}

struct stamp {
    double in, out;
    char host[HOST];
};

/* Each rank enters the barrier after a different delay; no rank may leave it before the last
 * one has entered.  Round k staggers ranks up, down, or puts one late rank last.  The times go
 * to every rank by point-to-point, so nothing but the barrier under test is collective. */
static void test_order(MPI_Comm comm, const char *what)
{
    int me, n, len;
    struct stamp mine, *all;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    all = malloc(sizeof(*all) * (size_t)n);
    CHECK(all != NULL);
    memset(&mine, 0, sizeof(mine));
    MPI_Get_processor_name(mine.host, &len);
    for (int k = 0; k < ROUNDS; k++) {
        int late = k == 0 ? me : k == 1 ? n - 1 - me : k == 2 ? (me == n / 2) * n : 0;

        nap(0.004 * late);
        mine.in = now();
        CHECK_MPI(MPI_Barrier(comm));
        mine.out = now();
        for (int p = 0; p < n; p++) {
            if (p == me) {
                all[p] = mine;
                continue;
            }
            CHECK_MPI(MPI_Sendrecv(&mine, (int)sizeof(mine), MPI_BYTE, p, TAG_TIMES, &all[p],
                                   (int)sizeof(all[p]), MPI_BYTE, p, TAG_TIMES, comm,
                                   MPI_STATUS_IGNORE));
        }
        for (int p = 0; p < n; p++) {
            if (strcmp(all[p].host, mine.host) == 0 && all[p].in > mine.out) {
                fail(__LINE__, "%s round %d: left the barrier %.6f s before rank %d entered", what,
                     k, all[p].in - mine.out, p);
            }
        }
    }
    free(all);
}

/* Many barriers in a row, and barriers on several communicators interleaved. */
static void test_many(void)
{
    MPI_Comm dup, half;

    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    for (int i = 0; i < 60; i++) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(i % 2 ? dup : half));
        CHECK_MPI(MPI_Barrier(MPI_COMM_SELF));
    }
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&dup));
}

/* Communicators made, used and freed many times: nothing may pile up. */
static void remake_use(MPI_Comm c, int i)
{
    (void)i;
    CHECK_MPI(MPI_Barrier(c));
}

int main(int argc, char **argv)
{
    MPI_Comm rev, sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    test_order(MPI_COMM_WORLD, "world");
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    test_order(rev, "reversed");
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &sub));
    test_order(sub, "split by rank % 3");
    CHECK_MPI(MPI_Comm_free(&sub));
    test_order(MPI_COMM_SELF, "self");
    test_many();
    remake_check(remake_use);

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
