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
#include <string.h>

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

/* RC, returned by WHAT, must be an error of class CLS with a non-empty string (for tests
 * that set MPI_ERRORS_RETURN). */
#if defined(__GNUC__)
static void expect_class(int rc, int cls, const char *what, int line) __attribute__((unused));
#endif

static void expect_class(int rc, int cls, const char *what, int line)
{
    char text[MPI_MAX_ERROR_STRING];
    int got = -1, len = -1;

    if (rc == MPI_SUCCESS) {
        fail(line, "%s succeeded, expected error class %d", what, cls);
    }
    CHECK_MPI(MPI_Error_class(rc, &got));
    if (got != cls) {
        fail(line, "%s returned %d of class %d, expected class %d", what, rc, got, cls);
    }
    CHECK_MPI(MPI_Error_string(rc, text, &len));
    if (len <= 0 || (size_t)len != strlen(text)) {
        fail(line, "%s: error string of %d is empty or its length is wrong", what, rc);
    }
}

#define EXPECT(call, cls) expect_class((call), (cls), #call, __LINE__)

#endif
