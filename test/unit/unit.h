/*
 * unit.h - what every Check unit test shares: running its suite in fork mode.
 */
#ifndef COMM_TEST_UNIT_H
#define COMM_TEST_UNIT_H

#include <check.h>

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
