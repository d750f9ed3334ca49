/*
 * unit.h - what every Check unit test shares: its cases' time limit, a check cheap enough for
 * loops, and running the suite in fork mode.
 *
 * Time.  Every test case runs in well under a second on an idle machine (test/unit-times
 * lists them); the limit exists only to catch a hang, so it is far above what a loaded machine
 * takes: COMM_TEST_TIMEOUT seconds per case, not Check's 4.  CK_TIMEOUT_MULTIPLIER still
 * scales it (valgrind, sanitizers).
 *
 * Loops.  Every ck_assert that passes records its file and line through a pipe (Check's
 * _mark_point, a system call each): a loop of a million of them takes seconds, and more on a
 * busy machine.  Inside loops use COMM_CHECK, which calls Check only when the condition fails,
 * with a message that says which element.
 */
#ifndef COMM_TEST_UNIT_H
#define COMM_TEST_UNIT_H

#include <check.h>

enum { COMM_TEST_TIMEOUT = 60 };

/* Fails the test with the printf-style message unless EXPR holds; costs nothing when it does. */
#define COMM_CHECK(expr, ...)                                                                      \
    do {                                                                                           \
        if (!(expr)) {                                                                             \
            ck_abort_msg(__VA_ARGS__);                                                             \
        }                                                                                          \
    } while (0)

/* A test case with comm's time limit. */
static inline TCase *comm_test_case(const char *name)
{
    TCase *tc = tcase_create(name);

    tcase_set_timeout(tc, COMM_TEST_TIMEOUT);
    return tc;
}

/* Runs every case of SUITE, each test in its own process; returns main()'s exit status. */
static inline int comm_test_run(Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    int failed;

    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}

#endif
