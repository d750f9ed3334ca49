/*
 * p2p_check.h - what every point-to-point test program shares: failing loudly and checking.
 *
 * Include it after declaring `static const char *prog` (the program's name) and `static int
 * rank` (this process's rank): fail() names both, prints one "FAIL: ..." line and aborts the
 * job, so the launcher reports it and the test runner sees it.
 */
#ifndef COMM_TEST_P2P_CHECK_H
#define COMM_TEST_P2P_CHECK_H

#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>

#if defined(__GNUC__) && !defined(__clang__)
/* MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1, which gcc takes for a too-small array. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#if defined(__GNUC__)
static void fail(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));
#endif

static void fail(int line, const char *fmt, ...)
{
    char what[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    printf("FAIL: %s rank %d: %s (line %d)\n", prog, rank, what, line);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fail(__LINE__, "check failed: %s", #cond);                                        \
        }                                                                                     \
    } while (0)

#define CHECK_MPI(call)                                                                       \
    do {                                                                                      \
        int rc_ = (call);                                                                     \
        if (rc_ != MPI_SUCCESS) {                                                             \
            fail(__LINE__, "%s returned %d", #call, rc_);                                     \
        }                                                                                     \
    } while (0)

#endif
