/*
 * match_test.c - the matching queues: FIFO order, wildcards, cancel, unexpected messages.
 */
#include "config.h"

#include "include/mpi.h"
#include "runtime/p2p/match.h"
#include "test/unit/unit.h"

#include <stdlib.h>

static struct comm_unexpected *message(int src, int tag)
{
    struct comm_unexpected *u = calloc(1, sizeof(*u));

    u->src = src;
    u->tag = tag;
    return u;
}

START_TEST(wildcards_accept_any_source_and_tag)
{
    ck_assert(comm_match_accepts(3, 7, 3, 7));
    ck_assert(!comm_match_accepts(3, 7, 2, 7));
    ck_assert(!comm_match_accepts(3, 7, 3, 8));
    ck_assert(comm_match_accepts(MPI_ANY_SOURCE, 7, 5, 7));
    ck_assert(comm_match_accepts(3, MPI_ANY_TAG, 3, 0));
    ck_assert(comm_match_accepts(MPI_ANY_SOURCE, MPI_ANY_TAG, 9, 99));
}
END_TEST

START_TEST(message_matches_oldest_accepting_receive)
{
    struct comm_match_queues q = {0};
    struct comm_posted a = {.src = 1, .tag = 5}, b = {.src = MPI_ANY_SOURCE, .tag = 5},
                       c = {.src = 2, .tag = MPI_ANY_TAG};

    comm_match_post(&q, &a);
    comm_match_post(&q, &b);
    comm_match_post(&q, &c);
    ck_assert_ptr_eq(comm_match_take_posted(&q, 2, 5), &b); /* a wants rank 1 */
    ck_assert_ptr_eq(comm_match_take_posted(&q, 2, 5), &c);
    ck_assert_ptr_null(comm_match_take_posted(&q, 2, 5));
    ck_assert_ptr_eq(comm_match_take_posted(&q, 1, 5), &a);
    ck_assert_ptr_null(q.posted_head);
    ck_assert_ptr_null(q.posted_tail);
}
END_TEST

START_TEST(receive_matches_oldest_accepted_message)
{
    struct comm_match_queues q = {0};
    struct comm_unexpected *m1 = message(1, 4), *m2 = message(2, 4), *m3 = message(1, 5);

    comm_match_add_unexpected(&q, m1);
    comm_match_add_unexpected(&q, m2);
    comm_match_add_unexpected(&q, m3);
    /* Probing does not take. */
    ck_assert_ptr_eq(comm_match_find_unexpected(&q, MPI_ANY_SOURCE, MPI_ANY_TAG, false), m1);
    ck_assert_ptr_eq(comm_match_find_unexpected(&q, 1, MPI_ANY_TAG, false), m1);
    ck_assert_ptr_eq(comm_match_find_unexpected(&q, 1, 5, true), m3);
    ck_assert_ptr_eq(comm_match_find_unexpected(&q, MPI_ANY_SOURCE, 4, true), m1);
    ck_assert_ptr_eq(comm_match_find_unexpected(&q, MPI_ANY_SOURCE, 4, true), m2);
    ck_assert_ptr_null(comm_match_find_unexpected(&q, MPI_ANY_SOURCE, MPI_ANY_TAG, true));
    ck_assert_ptr_null(q.unexpected_tail);
    free(m1);
    free(m2);
    free(m3);
}
END_TEST

START_TEST(unpost_removes_only_queued_receives)
{
    struct comm_match_queues q = {0};
    struct comm_posted a = {.src = 1, .tag = 1}, b = {.src = 1, .tag = 1};

    comm_match_post(&q, &a);
    comm_match_post(&q, &b);
    ck_assert(comm_match_unpost(&q, &a));
    ck_assert(!comm_match_unpost(&q, &a));
    ck_assert_ptr_eq(comm_match_take_posted(&q, 1, 1), &b);
    ck_assert(!comm_match_unpost(&q, &b));
}
END_TEST

START_TEST(drain_frees_waiting_messages)
{
    struct comm_match_queues q = {0};

    for (int i = 0; i < 10; i++) {
        comm_match_add_unexpected(&q, message(i, i));
    }
    ck_assert_uint_eq(comm_match_drain(&q), 10);
    ck_assert_ptr_null(q.unexpected_head);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("match");
    TCase *tc = comm_test_case("match");

    tcase_add_test(tc, wildcards_accept_any_source_and_tag);
    tcase_add_test(tc, message_matches_oldest_accepting_receive);
    tcase_add_test(tc, receive_matches_oldest_accepted_message);
    tcase_add_test(tc, unpost_removes_only_queued_receives);
    tcase_add_test(tc, drain_frees_waiting_messages);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
