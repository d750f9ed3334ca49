/*
 * group_test.c - process groups: the engine (creation, search by world rank, set operations,
 * references) and the MPI group calls with their error classes.
 *
 * The engine cases run without MPI_Init.  The API cases run in a singleton (MPI_Init without a
 * launcher: world rank 0 of 1) with MPI_ERRORS_RETURN, on groups built by the engine over world
 * ranks that need not exist, since groups never communicate.
 */
#include "config.h"

#include "include/mpi.h"
#include "base/error.h"
#include "runtime/comm/group.h"

#include "test/unit/unit.h"

#include <stdlib.h>

/* ---- helpers -------------------------------------------------------------------------------- */

static struct comm_group *make(const long *world, int size, long me)
{
    struct comm_group *g = NULL;

    ck_assert_int_eq(comm_group_create(world, size, me, &g), COMM_OK);
    ck_assert_ptr_nonnull(g);
    return g;
}

static void check_members(const struct comm_group *g, const long *world, int size)
{
    ck_assert_int_eq(g->size, size);
    for (int i = 0; i < size; i++) {
        ck_assert_int_eq(comm_group_world_rank(g, i), world[i]);
        ck_assert_int_eq(comm_group_rank_of_world(g, world[i]), i);
    }
}

/* ---- the engine ----------------------------------------------------------------------------- */

START_TEST(create_copies_the_ranks_and_finds_this_process)
{
    long world[] = {7, 3, 9, 0};
    struct comm_group *g = make(world, 4, 9);

    world[0] = 100; /* the group has its own copy */
    ck_assert_int_eq(g->size, 4);
    ck_assert_int_eq(g->rank, 2);
    ck_assert_int_eq(g->refcount, 1);
    ck_assert(!g->predefined);
    ck_assert_int_eq(comm_group_world_rank(g, 0), 7);
    ck_assert_int_eq(comm_group_rank_of_world(g, 0), 3);
    ck_assert_int_eq(comm_group_rank_of_world(g, 100), MPI_UNDEFINED);
    ck_assert_int_eq(comm_group_rank_of_world(g, 4), MPI_UNDEFINED);
    comm_group_release(g);

    g = make((const long[]){1, 2}, 2, 5);
    ck_assert_int_eq(g->rank, MPI_UNDEFINED);
    comm_group_release(g);
}
END_TEST

START_TEST(create_refuses_bad_sizes_and_repeated_or_negative_world_ranks)
{
    struct comm_group *g = (struct comm_group *)&g; /* a sentinel: untouched on failure */

    ck_assert_int_eq(comm_group_create((const long[]){1}, -1, 0, &g), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_create((const long[]){4, 2, 4}, 3, 0, &g), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_create((const long[]){4, -2}, 2, 0, &g), COMM_ERR_BAD_PARAM);
    ck_assert_ptr_eq(g, (struct comm_group *)&g);
}
END_TEST

START_TEST(empty_results_are_the_static_empty_group)
{
    struct comm_group *empty = comm_group_lookup(MPI_GROUP_EMPTY), *g = NULL;

    ck_assert_ptr_nonnull(empty);
    ck_assert_int_eq(empty->size, 0);
    ck_assert_int_eq(empty->rank, MPI_UNDEFINED);
    ck_assert(empty->predefined);
    ck_assert_int_eq(comm_group_rank_of_world(empty, 0), MPI_UNDEFINED);
    ck_assert_int_eq(comm_group_create(NULL, 0, 0, &g), COMM_OK);
    ck_assert_ptr_eq(g, empty);
    ck_assert_ptr_eq(comm_group_handle(g), MPI_GROUP_EMPTY);
    /* References to the static group are no-ops. */
    comm_group_retain(empty);
    comm_group_release(empty);
    comm_group_release(empty);
    comm_group_release(NULL);
    ck_assert_int_eq(empty->size, 0);
}
END_TEST

START_TEST(handles_map_to_objects_and_back)
{
    struct comm_group *g = make((const long[]){0}, 1, 0);

    ck_assert_ptr_null(comm_group_lookup(MPI_GROUP_NULL));
    ck_assert_ptr_null(comm_group_lookup((MPI_Group)0x110));
    ck_assert_ptr_eq(comm_group_lookup(comm_group_handle(g)), g);
    ck_assert_ptr_ne(comm_group_handle(g), MPI_GROUP_NULL);
    ck_assert_ptr_ne(comm_group_handle(g), MPI_GROUP_EMPTY);
    comm_group_release(g);
}
END_TEST

START_TEST(references_keep_a_group_until_the_last_release)
{
    struct comm_group *g = make((const long[]){5, 6}, 2, 6);

    comm_group_retain(g);
    ck_assert_int_eq(g->refcount, 2);
    comm_group_release(g);
    ck_assert_int_eq(g->refcount, 1);
    ck_assert_int_eq(g->rank, 1); /* still readable */
    comm_group_release(g);        /* freed: valgrind checks nothing leaks */
}
END_TEST

START_TEST(world_rank_search_is_exact_in_300000_ranks)
{
    enum { N = 300000 };
    long *world = malloc(N * sizeof(*world)), wrong = 0;
    struct comm_group *g;

    ck_assert_ptr_nonnull(world);
    /* A permutation of the even numbers 0 .. 2N-2: 7919 is prime and does not divide N. */
    for (long i = 0; i < N; i++) {
        world[i] = 2 * ((i * 7919) % N);
    }
    g = make(world, N, world[N / 3]);
    ck_assert_int_eq(g->rank, N / 3);
    /* One assertion at the end: 600000 ck_asserts would dominate the run time. */
    for (long i = 0; i < N; i++) {
        wrong += comm_group_rank_of_world(g, world[i]) != i;
        wrong += comm_group_rank_of_world(g, world[i] + 1) != MPI_UNDEFINED;
    }
    ck_assert_int_eq(wrong, 0);
    ck_assert_int_eq(comm_group_rank_of_world(g, -1), MPI_UNDEFINED);
    ck_assert_int_eq(comm_group_rank_of_world(g, 2 * N), MPI_UNDEFINED);
    comm_group_release(g);
    free(world);
}
END_TEST

START_TEST(compare_is_ident_for_same_order_similar_for_same_members_else_unequal)
{
    struct comm_group *a = make((const long[]){1, 2, 3}, 3, 0);
    struct comm_group *b = make((const long[]){1, 2, 3}, 3, 0);
    struct comm_group *c = make((const long[]){3, 1, 2}, 3, 0);
    struct comm_group *d = make((const long[]){1, 2, 4}, 3, 0);
    struct comm_group *e = make((const long[]){1, 2}, 2, 0);
    struct comm_group *empty = comm_group_lookup(MPI_GROUP_EMPTY);

    ck_assert_int_eq(comm_group_compare(a, a), MPI_IDENT);
    ck_assert_int_eq(comm_group_compare(a, b), MPI_IDENT);
    ck_assert_int_eq(comm_group_compare(a, c), MPI_SIMILAR);
    ck_assert_int_eq(comm_group_compare(c, a), MPI_SIMILAR);
    ck_assert_int_eq(comm_group_compare(a, d), MPI_UNEQUAL);
    ck_assert_int_eq(comm_group_compare(a, e), MPI_UNEQUAL);
    ck_assert_int_eq(comm_group_compare(e, a), MPI_UNEQUAL);
    ck_assert_int_eq(comm_group_compare(empty, empty), MPI_IDENT);
    ck_assert_int_eq(comm_group_compare(a, empty), MPI_UNEQUAL);
    comm_group_release(a);
    comm_group_release(b);
    comm_group_release(c);
    comm_group_release(d);
    comm_group_release(e);
}
END_TEST

START_TEST(translate_passes_proc_null_and_marks_absent_ranks_undefined)
{
    struct comm_group *a = make((const long[]){10, 11, 12, 13}, 4, 10);
    struct comm_group *b = make((const long[]){13, 10}, 2, 10);
    int in[] = {0, 1, MPI_PROC_NULL, 3};
    int out[4] = {-5, -5, -5, -5};

    ck_assert_int_eq(comm_group_translate(a, 4, in, b, out), COMM_OK);
    ck_assert_int_eq(out[0], 1);
    ck_assert_int_eq(out[1], MPI_UNDEFINED);
    ck_assert_int_eq(out[2], MPI_PROC_NULL);
    ck_assert_int_eq(out[3], 0);
    /* In place. */
    ck_assert_int_eq(comm_group_translate(a, 4, in, b, in), COMM_OK);
    ck_assert_int_eq(in[0], 1);
    ck_assert_int_eq(in[3], 0);
    out[0] = -5;
    ck_assert_int_eq(comm_group_translate(a, 1, (const int[]){4}, b, out), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_translate(a, 1, (const int[]){-3}, b, out), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_translate(a, -1, in, b, out), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(out[0], -5);
    ck_assert_int_eq(comm_group_translate(a, 0, NULL, b, NULL), COMM_OK);
    comm_group_release(a);
    comm_group_release(b);
}
END_TEST

START_TEST(union_takes_group1_in_order_then_the_rest_of_group2_in_order)
{
    struct comm_group *a = make((const long[]){5, 1, 3}, 3, 7);
    struct comm_group *b = make((const long[]){4, 3, 7, 5, 0}, 5, 7);
    struct comm_group *u = NULL;

    ck_assert_int_eq(comm_group_union(a, b, &u), COMM_OK);
    check_members(u, (const long[]){5, 1, 3, 4, 7, 0}, 6);
    ck_assert_int_eq(u->rank, 4); /* this process (world rank 7) came from group2 */
    comm_group_release(u);
    ck_assert_int_eq(comm_group_union(b, a, &u), COMM_OK);
    check_members(u, (const long[]){4, 3, 7, 5, 0, 1}, 6);
    comm_group_release(u);
    ck_assert_int_eq(comm_group_union(a, comm_group_lookup(MPI_GROUP_EMPTY), &u), COMM_OK);
    check_members(u, (const long[]){5, 1, 3}, 3);
    ck_assert_int_eq(u->rank, MPI_UNDEFINED);
    comm_group_release(u);
    ck_assert_int_eq(comm_group_union(comm_group_lookup(MPI_GROUP_EMPTY),
                                      comm_group_lookup(MPI_GROUP_EMPTY), &u),
                     COMM_OK);
    ck_assert_ptr_eq(u, comm_group_lookup(MPI_GROUP_EMPTY));
    comm_group_release(a);
    comm_group_release(b);
}
END_TEST

START_TEST(intersection_and_difference_keep_group1_order)
{
    struct comm_group *a = make((const long[]){5, 1, 3, 8}, 4, 3);
    struct comm_group *b = make((const long[]){8, 3, 2, 5}, 4, 3);
    struct comm_group *c = make((const long[]){9}, 1, 3);
    struct comm_group *r = NULL;

    ck_assert_int_eq(comm_group_intersection(a, b, &r), COMM_OK);
    check_members(r, (const long[]){5, 3, 8}, 3);
    ck_assert_int_eq(r->rank, 1);
    comm_group_release(r);
    ck_assert_int_eq(comm_group_intersection(b, a, &r), COMM_OK);
    check_members(r, (const long[]){8, 3, 5}, 3);
    comm_group_release(r);
    ck_assert_int_eq(comm_group_intersection(a, c, &r), COMM_OK);
    ck_assert_ptr_eq(r, comm_group_lookup(MPI_GROUP_EMPTY));

    ck_assert_int_eq(comm_group_difference(a, b, &r), COMM_OK);
    check_members(r, (const long[]){1}, 1);
    ck_assert_int_eq(r->rank, MPI_UNDEFINED); /* world rank 3 was taken out */
    comm_group_release(r);
    ck_assert_int_eq(comm_group_difference(b, a, &r), COMM_OK);
    check_members(r, (const long[]){2}, 1);
    comm_group_release(r);
    ck_assert_int_eq(comm_group_difference(a, a, &r), COMM_OK);
    ck_assert_ptr_eq(r, comm_group_lookup(MPI_GROUP_EMPTY));
    ck_assert_int_eq(comm_group_difference(a, c, &r), COMM_OK);
    check_members(r, (const long[]){5, 1, 3, 8}, 4);
    ck_assert_int_eq(comm_group_compare(r, a), MPI_IDENT);
    comm_group_release(r);
    comm_group_release(a);
    comm_group_release(b);
    comm_group_release(c);
}
END_TEST

START_TEST(incl_reorders_and_excl_keeps_the_order_and_both_refuse_bad_ranks)
{
    struct comm_group *g = make((const long[]){10, 11, 12, 13, 14}, 5, 12);
    struct comm_group *r = NULL, *sentinel = (struct comm_group *)&g;

    ck_assert_int_eq(comm_group_incl(g, 3, (const int[]){4, 2, 0}, &r), COMM_OK);
    check_members(r, (const long[]){14, 12, 10}, 3);
    ck_assert_int_eq(r->rank, 1);
    comm_group_release(r);
    ck_assert_int_eq(comm_group_incl(g, 0, NULL, &r), COMM_OK);
    ck_assert_ptr_eq(r, comm_group_lookup(MPI_GROUP_EMPTY));

    ck_assert_int_eq(comm_group_excl(g, 2, (const int[]){3, 0}, &r), COMM_OK);
    check_members(r, (const long[]){11, 12, 14}, 3);
    ck_assert_int_eq(r->rank, 1);
    comm_group_release(r);
    ck_assert_int_eq(comm_group_excl(g, 0, NULL, &r), COMM_OK);
    ck_assert_int_eq(comm_group_compare(r, g), MPI_IDENT);
    comm_group_release(r);
    ck_assert_int_eq(comm_group_excl(g, 5, (const int[]){0, 1, 2, 3, 4}, &r), COMM_OK);
    ck_assert_ptr_eq(r, comm_group_lookup(MPI_GROUP_EMPTY));

    r = sentinel;
    ck_assert_int_eq(comm_group_incl(g, 2, (const int[]){1, 5}, &r), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_incl(g, 2, (const int[]){1, 1}, &r), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_incl(g, 1, (const int[]){-1}, &r), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_incl(g, -1, NULL, &r), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_excl(g, 2, (const int[]){2, 2}, &r), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_group_excl(g, 1, (const int[]){MPI_PROC_NULL}, &r), COMM_ERR_BAD_PARAM);
    ck_assert_ptr_eq(r, sentinel);
    comm_group_release(g);
}
END_TEST

/* ---- the MPI calls -------------------------------------------------------------------------- */

static void setup(void)
{
    ck_assert_int_eq(MPI_Init(NULL, NULL), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
}

static void teardown(void)
{
    MPI_Finalize();
}

static int error_class(int code)
{
    int cls = -1;

    ck_assert_int_ne(code, MPI_SUCCESS);
    ck_assert_int_eq(MPI_Error_class(code, &cls), MPI_SUCCESS);
    return cls;
}

/* A group handle over WORLD; this process is world rank 0 (a singleton). */
static MPI_Group handle_of(const long *world, int size)
{
    return comm_group_handle(make(world, size, 0));
}

static void check_group(MPI_Group group, const long *world, int size)
{
    int n = -1;

    ck_assert_int_eq(MPI_Group_size(group, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, size);
    check_members(comm_group_lookup(group), world, size);
}

START_TEST(api_size_and_rank_report_membership)
{
    MPI_Group g = handle_of((const long[]){4, 0, 2}, 3), h = handle_of((const long[]){5}, 1);
    int size = -1, rank = -1;

    ck_assert_int_eq(MPI_Group_size(g, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 3);
    ck_assert_int_eq(MPI_Group_rank(g, &rank), MPI_SUCCESS);
    ck_assert_int_eq(rank, 1);
    ck_assert_int_eq(MPI_Group_rank(h, &rank), MPI_SUCCESS);
    ck_assert_int_eq(rank, MPI_UNDEFINED);
    ck_assert_int_eq(MPI_Group_size(MPI_GROUP_EMPTY, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 0);
    ck_assert_int_eq(MPI_Group_rank(MPI_GROUP_EMPTY, &rank), MPI_SUCCESS);
    ck_assert_int_eq(rank, MPI_UNDEFINED);
    ck_assert_int_eq(MPI_Group_free(&g), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_free(&h), MPI_SUCCESS);
}
END_TEST

START_TEST(api_invalid_groups_and_null_outputs_are_refused)
{
    MPI_Group g = handle_of((const long[]){0, 1}, 2), out = MPI_GROUP_NULL;
    int v = 7, ranks[1] = {0};

    ck_assert_int_eq(error_class(MPI_Group_size(MPI_GROUP_NULL, &v)), MPI_ERR_GROUP);
    ck_assert_int_eq(error_class(MPI_Group_rank((MPI_Group)0x110, &v)), MPI_ERR_GROUP);
    ck_assert_int_eq(v, 7);
    ck_assert_int_eq(error_class(MPI_Group_size(g, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_rank(g, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_compare(g, MPI_GROUP_NULL, &v)), MPI_ERR_GROUP);
    ck_assert_int_eq(error_class(MPI_Group_compare(g, g, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_union(MPI_GROUP_NULL, g, &out)), MPI_ERR_GROUP);
    ck_assert_int_eq(error_class(MPI_Group_intersection(g, MPI_GROUP_NULL, &out)), MPI_ERR_GROUP);
    ck_assert_int_eq(error_class(MPI_Group_difference(g, g, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_incl(MPI_GROUP_NULL, 1, ranks, &out)), MPI_ERR_GROUP);
    ck_assert_int_eq(error_class(MPI_Group_excl(g, 1, ranks, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_translate_ranks(MPI_GROUP_NULL, 1, ranks, g, ranks)),
                     MPI_ERR_GROUP);
    ck_assert_int_eq(error_class(MPI_Group_translate_ranks(g, 1, ranks, MPI_GROUP_NULL, ranks)),
                     MPI_ERR_GROUP);
    ck_assert_ptr_eq(out, MPI_GROUP_NULL);
    ck_assert_int_eq(MPI_Group_free(&g), MPI_SUCCESS);
}
END_TEST

START_TEST(api_translate_ranks_checks_ranks_and_passes_proc_null)
{
    MPI_Group a = handle_of((const long[]){0, 1, 2, 3}, 4);
    MPI_Group b = handle_of((const long[]){3, 2}, 2);
    int in[] = {3, MPI_PROC_NULL, 0, 2}, out[4];

    ck_assert_int_eq(MPI_Group_translate_ranks(a, 4, in, b, out), MPI_SUCCESS);
    ck_assert_int_eq(out[0], 0);
    ck_assert_int_eq(out[1], MPI_PROC_NULL);
    ck_assert_int_eq(out[2], MPI_UNDEFINED);
    ck_assert_int_eq(out[3], 1);
    ck_assert_int_eq(MPI_Group_translate_ranks(a, 0, NULL, b, NULL), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_translate_ranks(a, 1, in, MPI_GROUP_EMPTY, out), MPI_SUCCESS);
    ck_assert_int_eq(out[0], MPI_UNDEFINED);
    ck_assert_int_eq(error_class(MPI_Group_translate_ranks(a, 1, (int[]){4}, b, out)),
                     MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_translate_ranks(b, 1, (int[]){MPI_ANY_SOURCE}, a, out)),
                     MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, (int[]){0}, a, out)),
                     MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_translate_ranks(a, -1, in, b, out)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_translate_ranks(a, 1, NULL, b, out)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_translate_ranks(a, 1, in, b, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Group_free(&a), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_free(&b), MPI_SUCCESS);
}
END_TEST

START_TEST(api_compare_gives_ident_similar_unequal)
{
    MPI_Group a = handle_of((const long[]){0, 1, 2}, 3), b = handle_of((const long[]){0, 1, 2}, 3);
    MPI_Group c = handle_of((const long[]){2, 0, 1}, 3), d = handle_of((const long[]){0, 1}, 2);
    int result = -1;

    ck_assert_int_eq(MPI_Group_compare(a, b, &result), MPI_SUCCESS);
    ck_assert_int_eq(result, MPI_IDENT);
    ck_assert_int_eq(MPI_Group_compare(a, c, &result), MPI_SUCCESS);
    ck_assert_int_eq(result, MPI_SIMILAR);
    ck_assert_int_eq(MPI_Group_compare(a, d, &result), MPI_SUCCESS);
    ck_assert_int_eq(result, MPI_UNEQUAL);
    ck_assert_int_eq(MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &result), MPI_SUCCESS);
    ck_assert_int_eq(result, MPI_IDENT);
    ck_assert_int_eq(MPI_Group_compare(d, MPI_GROUP_EMPTY, &result), MPI_SUCCESS);
    ck_assert_int_eq(result, MPI_UNEQUAL);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&c);
    MPI_Group_free(&d);
}
END_TEST

START_TEST(api_set_operations_follow_the_order_rules)
{
    MPI_Group a = handle_of((const long[]){5, 1, 3, 0}, 4),
              b = handle_of((const long[]){3, 6, 5}, 3);
    MPI_Group r;
    int rank;

    ck_assert_int_eq(MPI_Group_union(a, b, &r), MPI_SUCCESS);
    check_group(r, (const long[]){5, 1, 3, 0, 6}, 5);
    ck_assert_int_eq(MPI_Group_rank(r, &rank), MPI_SUCCESS);
    ck_assert_int_eq(rank, 3);
    ck_assert_int_eq(MPI_Group_free(&r), MPI_SUCCESS);
    ck_assert_ptr_eq(r, MPI_GROUP_NULL);
    ck_assert_int_eq(MPI_Group_intersection(a, b, &r), MPI_SUCCESS);
    check_group(r, (const long[]){5, 3}, 2);
    ck_assert_int_eq(MPI_Group_free(&r), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_difference(a, b, &r), MPI_SUCCESS);
    check_group(r, (const long[]){1, 0}, 2);
    ck_assert_int_eq(MPI_Group_rank(r, &rank), MPI_SUCCESS);
    ck_assert_int_eq(rank, 1);
    ck_assert_int_eq(MPI_Group_free(&r), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_difference(b, a, &r), MPI_SUCCESS);
    check_group(r, (const long[]){6}, 1);
    ck_assert_int_eq(MPI_Group_free(&r), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_intersection(a, MPI_GROUP_EMPTY, &r), MPI_SUCCESS);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    ck_assert_int_eq(MPI_Group_free(&r), MPI_SUCCESS);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
}
END_TEST

START_TEST(api_incl_and_excl_refuse_bad_and_repeated_ranks)
{
    MPI_Group g = handle_of((const long[]){10, 11, 12, 13}, 4), r = MPI_GROUP_NULL;

    ck_assert_int_eq(MPI_Group_incl(g, 2, (int[]){3, 1}, &r), MPI_SUCCESS);
    check_group(r, (const long[]){13, 11}, 2);
    MPI_Group_free(&r);
    ck_assert_int_eq(MPI_Group_excl(g, 2, (int[]){3, 1}, &r), MPI_SUCCESS);
    check_group(r, (const long[]){10, 12}, 2);
    MPI_Group_free(&r);
    ck_assert_int_eq(MPI_Group_incl(g, 0, NULL, &r), MPI_SUCCESS);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    ck_assert_int_eq(MPI_Group_excl(MPI_GROUP_EMPTY, 0, NULL, &r), MPI_SUCCESS);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    r = MPI_GROUP_NULL;
    ck_assert_int_eq(error_class(MPI_Group_incl(g, 1, (int[]){7}, &r)), MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_incl(g, 1, (int[]){-1}, &r)), MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_incl(g, 3, (int[]){0, 2, 0}, &r)), MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_excl(g, 1, (int[]){4}, &r)), MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_excl(g, 2, (int[]){1, 1}, &r)), MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_incl(g, -1, NULL, &r)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_excl(g, 1, NULL, &r)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_incl(MPI_GROUP_EMPTY, 1, (int[]){0}, &r)), MPI_ERR_RANK);
    ck_assert_ptr_eq(r, MPI_GROUP_NULL);
    MPI_Group_free(&g);
}
END_TEST

START_TEST(api_range_incl_and_excl_walk_strides_both_ways)
{
    MPI_Group g = handle_of((const long[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 10), r;

    ck_assert_int_eq(MPI_Group_range_incl(g, 2, (int[][3]){{0, 6, 3}, {9, 4, -4}}, &r),
                     MPI_SUCCESS);
    check_group(r, (const long[]){0, 3, 6, 9, 5}, 5);
    MPI_Group_free(&r);
    /* A stride past last still stops at the last rank reached; first == last is one rank. */
    ck_assert_int_eq(MPI_Group_range_incl(g, 2, (int[][3]){{1, 2, 5}, {7, 7, -1}}, &r),
                     MPI_SUCCESS);
    check_group(r, (const long[]){1, 7}, 2);
    MPI_Group_free(&r);
    ck_assert_int_eq(MPI_Group_range_excl(g, 2, (int[][3]){{8, 2, -3}, {9, 9, 1}}, &r),
                     MPI_SUCCESS);
    check_group(r, (const long[]){0, 1, 3, 4, 6, 7}, 6);
    MPI_Group_free(&r);
    ck_assert_int_eq(MPI_Group_range_excl(g, 1, (int[][3]){{0, 9, 1}}, &r), MPI_SUCCESS);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    ck_assert_int_eq(MPI_Group_range_incl(g, 0, NULL, &r), MPI_SUCCESS);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    MPI_Group_free(&g);
}
END_TEST

START_TEST(api_range_incl_and_excl_refuse_bad_triplets)
{
    MPI_Group g = handle_of((const long[]){0, 1, 2, 3, 4}, 5), r = MPI_GROUP_NULL;

    ck_assert_int_eq(error_class(MPI_Group_range_incl(g, 1, (int[][3]){{0, 5, 1}}, &r)),
                     MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_range_incl(g, 1, (int[][3]){{-1, 3, 1}}, &r)),
                     MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_range_excl(g, 1, (int[][3]){{0, 3, 0}}, &r)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_range_incl(g, 1, (int[][3]){{3, 0, 1}}, &r)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_range_excl(g, 1, (int[][3]){{0, 3, -1}}, &r)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_range_incl(g, 2, (int[][3]){{0, 4, 2}, {4, 1, -1}}, &r)),
                     MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_range_excl(g, 2, (int[][3]){{1, 1, 1}, {1, 1, 1}}, &r)),
                     MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Group_range_incl(g, -2, NULL, &r)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_range_incl(g, 1, NULL, &r)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Group_range_excl(MPI_GROUP_NULL, 0, NULL, &r)), MPI_ERR_GROUP);
    ck_assert_ptr_eq(r, MPI_GROUP_NULL);
    MPI_Group_free(&g);
}
END_TEST

START_TEST(api_free_accepts_group_empty_and_refuses_group_null)
{
    MPI_Group g = MPI_GROUP_EMPTY;

    ck_assert_int_eq(MPI_Group_free(&g), MPI_SUCCESS);
    ck_assert_ptr_eq(g, MPI_GROUP_NULL);
    ck_assert_int_eq(error_class(MPI_Group_free(&g)), MPI_ERR_GROUP);
    ck_assert_int_eq(error_class(MPI_Group_free(NULL)), MPI_ERR_ARG);
    /* MPI_GROUP_EMPTY stays usable after being freed. */
    ck_assert_int_eq(MPI_Group_size(MPI_GROUP_EMPTY, &(int){0}), MPI_SUCCESS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("group");
    TCase *engine = comm_test_case("engine");
    TCase *api = comm_test_case("api");

    tcase_add_test(engine, create_copies_the_ranks_and_finds_this_process);
    tcase_add_test(engine, create_refuses_bad_sizes_and_repeated_or_negative_world_ranks);
    tcase_add_test(engine, empty_results_are_the_static_empty_group);
    tcase_add_test(engine, handles_map_to_objects_and_back);
    tcase_add_test(engine, references_keep_a_group_until_the_last_release);
    tcase_add_test(engine, world_rank_search_is_exact_in_300000_ranks);
    tcase_add_test(engine, compare_is_ident_for_same_order_similar_for_same_members_else_unequal);
    tcase_add_test(engine, translate_passes_proc_null_and_marks_absent_ranks_undefined);
    tcase_add_test(engine, union_takes_group1_in_order_then_the_rest_of_group2_in_order);
    tcase_add_test(engine, intersection_and_difference_keep_group1_order);
    tcase_add_test(engine, incl_reorders_and_excl_keeps_the_order_and_both_refuse_bad_ranks);
    suite_add_tcase(s, engine);

    tcase_add_checked_fixture(api, setup, teardown);
    tcase_add_test(api, api_size_and_rank_report_membership);
    tcase_add_test(api, api_invalid_groups_and_null_outputs_are_refused);
    tcase_add_test(api, api_translate_ranks_checks_ranks_and_passes_proc_null);
    tcase_add_test(api, api_compare_gives_ident_similar_unequal);
    tcase_add_test(api, api_set_operations_follow_the_order_rules);
    tcase_add_test(api, api_incl_and_excl_refuse_bad_and_repeated_ranks);
    tcase_add_test(api, api_range_incl_and_excl_walk_strides_both_ways);
    tcase_add_test(api, api_range_incl_and_excl_refuse_bad_triplets);
    tcase_add_test(api, api_free_accepts_group_empty_and_refuses_group_null);
    suite_add_tcase(s, api);
    return comm_test_run(s);
}
