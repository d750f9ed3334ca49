/*
 * info_test.c - info objects: the engine (order, replacement, deletion, duplication, references)
 * and the MPI info calls with their length limits, truncation and error classes.
 *
 * The engine cases run without MPI_Init; the API cases run in a singleton (MPI_Init without a
 * launcher) with MPI_ERRORS_RETURN.
 */
#include "config.h"

#include "include/mpi.h"
#include "base/error.h"
#include "runtime/info.h"

#include "test/unit/unit.h"

#include <stdio.h>
#include <string.h>

/* ---- the engine ----------------------------------------------------------------------------- */

static struct comm_info *make(void)
{
    struct comm_info *info = NULL;

    ck_assert_int_eq(comm_info_create(&info), COMM_OK);
    ck_assert_ptr_nonnull(info);
    return info;
}

START_TEST(keys_keep_the_order_they_were_first_set_in)
{
    struct comm_info *info = make();

    ck_assert_int_eq(comm_info_nkeys(info), 0);
    ck_assert_ptr_null(comm_info_nth_key(info, 0));
    for (int i = 0; i < 20; i++) {
        char key[16], value[16];

        snprintf(key, sizeof(key), "k%02d", 19 - i);
        snprintf(value, sizeof(value), "v%d", i);
        ck_assert_int_eq(comm_info_set(info, key, value), COMM_OK);
    }
    ck_assert_int_eq(comm_info_nkeys(info), 20);
    ck_assert_str_eq(comm_info_nth_key(info, 0), "k19");
    ck_assert_str_eq(comm_info_nth_key(info, 19), "k00");
    ck_assert_ptr_null(comm_info_nth_key(info, 20));
    ck_assert_ptr_null(comm_info_nth_key(info, -1));
    ck_assert_str_eq(comm_info_value(info, "k00"), "v19");
    ck_assert_ptr_null(comm_info_value(info, "k20"));
    comm_info_release(info);
}
END_TEST

START_TEST(setting_a_key_again_replaces_its_value_in_place)
{
    struct comm_info *info = make();

    ck_assert_int_eq(comm_info_set(info, "a", "1"), COMM_OK);
    ck_assert_int_eq(comm_info_set(info, "b", "2"), COMM_OK);
    ck_assert_int_eq(comm_info_set(info, "a", "three"), COMM_OK);
    ck_assert_int_eq(comm_info_nkeys(info), 2);
    ck_assert_str_eq(comm_info_nth_key(info, 0), "a");
    ck_assert_str_eq(comm_info_value(info, "a"), "three");
    comm_info_release(info);
}
END_TEST

START_TEST(delete_closes_the_gap_and_reports_missing_keys)
{
    struct comm_info *info = make();

    ck_assert_int_eq(comm_info_set(info, "a", "1"), COMM_OK);
    ck_assert_int_eq(comm_info_set(info, "b", "2"), COMM_OK);
    ck_assert_int_eq(comm_info_set(info, "c", "3"), COMM_OK);
    ck_assert_int_eq(comm_info_delete(info, "b"), COMM_OK);
    ck_assert_int_eq(comm_info_nkeys(info), 2);
    ck_assert_str_eq(comm_info_nth_key(info, 1), "c");
    ck_assert_ptr_null(comm_info_value(info, "b"));
    ck_assert_int_eq(comm_info_delete(info, "b"), COMM_ERR_NOT_FOUND);
    ck_assert_int_eq(comm_info_delete(info, "c"), COMM_OK);
    ck_assert_int_eq(comm_info_delete(info, "a"), COMM_OK);
    ck_assert_int_eq(comm_info_nkeys(info), 0);
    ck_assert_int_eq(comm_info_set(info, "b", "again"), COMM_OK);
    ck_assert_str_eq(comm_info_nth_key(info, 0), "b");
    comm_info_release(info);
}
END_TEST

START_TEST(dup_copies_every_pair_in_order_and_is_independent)
{
    struct comm_info *info = make(), *copy = NULL;

    ck_assert_int_eq(comm_info_set(info, "z", "26"), COMM_OK);
    ck_assert_int_eq(comm_info_set(info, "y", "25"), COMM_OK);
    ck_assert_int_eq(comm_info_dup(info, &copy), COMM_OK);
    ck_assert_ptr_ne(copy, info);
    ck_assert_int_eq(copy->refcount, 1);
    ck_assert_int_eq(comm_info_nkeys(copy), 2);
    ck_assert_str_eq(comm_info_nth_key(copy, 0), "z");
    ck_assert_str_eq(comm_info_nth_key(copy, 1), "y");
    ck_assert_int_eq(comm_info_set(info, "z", "changed"), COMM_OK);
    ck_assert_str_eq(comm_info_value(copy, "z"), "26");
    comm_info_release(info);
    ck_assert_str_eq(comm_info_value(copy, "y"), "25");
    comm_info_release(copy);
}
END_TEST

START_TEST(references_keep_an_object_until_the_last_release)
{
    struct comm_info *info = make();

    ck_assert_int_eq(comm_info_set(info, "k", "v"), COMM_OK);
    comm_info_retain(info);
    comm_info_release(info);
    ck_assert_str_eq(comm_info_value(info, "k"), "v");
    comm_info_release(info); /* freed: valgrind checks nothing leaks */
    comm_info_release(NULL);
}
END_TEST

START_TEST(handles_map_to_objects_and_back)
{
    struct comm_info *info = make();

    ck_assert_ptr_null(comm_info_lookup(MPI_INFO_NULL));
    ck_assert_ptr_eq(comm_info_lookup(comm_info_handle(info)), info);
    ck_assert_ptr_ne(comm_info_handle(info), MPI_INFO_NULL);
    comm_info_release(info);
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

/* A string of N copies of C (static buffer, N <= 2000). */
static const char *repeat(char c, int n)
{
    static char s[2001];

    memset(s, c, (size_t)n);
    s[n] = '\0';
    return s;
}

START_TEST(api_set_get_and_walk_the_keys)
{
    MPI_Info info = MPI_INFO_NULL;
    char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    int flag = -1, nkeys = -1, len = -1;

    ck_assert_int_eq(MPI_Info_create(&info), MPI_SUCCESS);
    ck_assert_ptr_ne(info, MPI_INFO_NULL);
    ck_assert_int_eq(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
    ck_assert_int_eq(nkeys, 0);
    ck_assert_int_eq(MPI_Info_set(info, "cb_nodes", "4"), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_set(info, "access_style", "read_once"), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_set(info, "cb_nodes", "8"), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
    ck_assert_int_eq(nkeys, 2);
    ck_assert_int_eq(MPI_Info_get_nthkey(info, 0, key), MPI_SUCCESS);
    ck_assert_str_eq(key, "cb_nodes");
    ck_assert_int_eq(MPI_Info_get_nthkey(info, 1, key), MPI_SUCCESS);
    ck_assert_str_eq(key, "access_style");
    ck_assert_int_eq(MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_str_eq(value, "8");
    ck_assert_int_eq(MPI_Info_get_valuelen(info, "access_style", &len, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_int_eq(len, 9);
    /* Absent keys give flag false and leave the outputs alone. */
    strcpy(value, "untouched");
    len = -1;
    ck_assert_int_eq(MPI_Info_get(info, "nope", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 0);
    ck_assert_str_eq(value, "untouched");
    flag = -1;
    ck_assert_int_eq(MPI_Info_get_valuelen(info, "nope", &len, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 0);
    ck_assert_int_eq(len, -1);
    ck_assert_int_eq(MPI_Info_free(&info), MPI_SUCCESS);
    ck_assert_ptr_eq(info, MPI_INFO_NULL);
}
END_TEST

START_TEST(api_get_truncates_to_valuelen_and_terminates)
{
    MPI_Info info;
    char value[8];
    int flag = 0;

    ck_assert_int_eq(MPI_Info_create(&info), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_set(info, "k", "abcdefghij"), MPI_SUCCESS);
    memset(value, 'X', sizeof(value));
    ck_assert_int_eq(MPI_Info_get(info, "k", 4, value, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_str_eq(value, "abcd");
    ck_assert_int_eq(value[5], 'X'); /* nothing written past valuelen + 1 */
    ck_assert_int_eq(MPI_Info_get(info, "k", 0, value, &flag), MPI_SUCCESS);
    ck_assert_str_eq(value, "");
    ck_assert_int_eq(error_class(MPI_Info_get(info, "k", -1, value, &flag)), MPI_ERR_ARG);
    MPI_Info_free(&info);
}
END_TEST

START_TEST(api_keys_and_values_have_length_limits)
{
    MPI_Info info;
    char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    int flag = 0, len = 0;

    ck_assert_int_eq(MPI_Info_create(&info), MPI_SUCCESS);
    strcpy(key, repeat('k', MPI_MAX_INFO_KEY));
    ck_assert_int_eq(MPI_Info_set(info, key, repeat('v', MPI_MAX_INFO_VAL)), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_get_valuelen(info, key, &len, &flag), MPI_SUCCESS);
    ck_assert_int_eq(len, MPI_MAX_INFO_VAL);
    ck_assert_int_eq(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    ck_assert_int_eq(strlen(value), MPI_MAX_INFO_VAL);
    memset(key, 0, sizeof(key));
    ck_assert_int_eq(MPI_Info_get_nthkey(info, 0, key), MPI_SUCCESS);
    ck_assert_int_eq(strlen(key), MPI_MAX_INFO_KEY);

    ck_assert_int_eq(error_class(MPI_Info_set(info, repeat('k', MPI_MAX_INFO_KEY + 1), "v")),
                     MPI_ERR_INFO_KEY);
    ck_assert_int_eq(error_class(MPI_Info_set(info, "k", repeat('v', MPI_MAX_INFO_VAL + 1))),
                     MPI_ERR_INFO_VALUE);
    ck_assert_int_eq(error_class(MPI_Info_set(info, "", "v")), MPI_ERR_INFO_KEY);
    ck_assert_int_eq(error_class(MPI_Info_set(info, NULL, "v")), MPI_ERR_INFO_KEY);
    ck_assert_int_eq(error_class(MPI_Info_set(info, "k", "")), MPI_ERR_INFO_VALUE);
    ck_assert_int_eq(error_class(MPI_Info_set(info, "k", NULL)), MPI_ERR_INFO_VALUE);
    ck_assert_int_eq(error_class(MPI_Info_get(info, repeat('k', MPI_MAX_INFO_KEY + 1),
                                              MPI_MAX_INFO_VAL, value, &flag)),
                     MPI_ERR_INFO_KEY);
    ck_assert_int_eq(error_class(MPI_Info_get_valuelen(info, NULL, &len, &flag)), MPI_ERR_INFO_KEY);
    ck_assert_int_eq(error_class(MPI_Info_delete(info, repeat('k', MPI_MAX_INFO_KEY + 1))),
                     MPI_ERR_INFO_KEY);
    ck_assert_int_eq(MPI_Info_get_nkeys(info, &len), MPI_SUCCESS);
    ck_assert_int_eq(len, 1);
    MPI_Info_free(&info);
}
END_TEST

START_TEST(api_delete_of_a_missing_key_is_info_nokey)
{
    MPI_Info info;
    int nkeys = -1;

    ck_assert_int_eq(MPI_Info_create(&info), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_set(info, "a", "1"), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_delete(info, "a"), MPI_SUCCESS);
    ck_assert_int_eq(error_class(MPI_Info_delete(info, "a")), MPI_ERR_INFO_NOKEY);
    ck_assert_int_eq(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
    ck_assert_int_eq(nkeys, 0);
    MPI_Info_free(&info);
}
END_TEST

START_TEST(api_dup_is_a_deep_copy)
{
    MPI_Info info, copy = MPI_INFO_NULL;
    char value[16], key[MPI_MAX_INFO_KEY + 1];
    int flag = 0;

    ck_assert_int_eq(MPI_Info_create(&info), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_set(info, "b", "2"), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_set(info, "a", "1"), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_dup(info, &copy), MPI_SUCCESS);
    ck_assert_ptr_ne(copy, info);
    ck_assert_int_eq(MPI_Info_free(&info), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_get_nthkey(copy, 0, key), MPI_SUCCESS);
    ck_assert_str_eq(key, "b");
    ck_assert_int_eq(MPI_Info_get(copy, "a", 15, value, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_str_eq(value, "1");
    ck_assert_int_eq(MPI_Info_free(&copy), MPI_SUCCESS);
}
END_TEST

START_TEST(api_invalid_objects_indices_and_null_arguments_are_refused)
{
    MPI_Info info, out = MPI_INFO_NULL;
    char value[16], key[MPI_MAX_INFO_KEY + 1];
    int flag = 0, n = 0;

    ck_assert_int_eq(MPI_Info_create(&info), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_set(info, "a", "1"), MPI_SUCCESS);
    ck_assert_int_eq(error_class(MPI_Info_set(MPI_INFO_NULL, "a", "1")), MPI_ERR_INFO);
    ck_assert_int_eq(error_class(MPI_Info_get(MPI_INFO_NULL, "a", 15, value, &flag)), MPI_ERR_INFO);
    ck_assert_int_eq(error_class(MPI_Info_get_valuelen(MPI_INFO_NULL, "a", &n, &flag)),
                     MPI_ERR_INFO);
    ck_assert_int_eq(error_class(MPI_Info_delete(MPI_INFO_NULL, "a")), MPI_ERR_INFO);
    ck_assert_int_eq(error_class(MPI_Info_dup(MPI_INFO_NULL, &out)), MPI_ERR_INFO);
    ck_assert_int_eq(error_class(MPI_Info_get_nkeys(MPI_INFO_NULL, &n)), MPI_ERR_INFO);
    ck_assert_int_eq(error_class(MPI_Info_get_nthkey(MPI_INFO_NULL, 0, key)), MPI_ERR_INFO);
    ck_assert_int_eq(error_class(MPI_Info_free(&out)), MPI_ERR_INFO);
    ck_assert_ptr_eq(out, MPI_INFO_NULL);

    ck_assert_int_eq(error_class(MPI_Info_get_nthkey(info, 1, key)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_get_nthkey(info, -1, key)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_get_nthkey(info, 0, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_get(info, "a", 15, NULL, &flag)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_get(info, "a", 15, value, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_get_valuelen(info, "a", NULL, &flag)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_get_valuelen(info, "a", &n, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_get_nkeys(info, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_dup(info, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_create(NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Info_free(NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Info_free(&info), MPI_SUCCESS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("info");
    TCase *engine = comm_test_case("engine");
    TCase *api = comm_test_case("api");

    tcase_add_test(engine, keys_keep_the_order_they_were_first_set_in);
    tcase_add_test(engine, setting_a_key_again_replaces_its_value_in_place);
    tcase_add_test(engine, delete_closes_the_gap_and_reports_missing_keys);
    tcase_add_test(engine, dup_copies_every_pair_in_order_and_is_independent);
    tcase_add_test(engine, references_keep_an_object_until_the_last_release);
    tcase_add_test(engine, handles_map_to_objects_and_back);
    suite_add_tcase(s, engine);

    tcase_add_checked_fixture(api, setup, teardown);
    tcase_add_test(api, api_set_get_and_walk_the_keys);
    tcase_add_test(api, api_get_truncates_to_valuelen_and_terminates);
    tcase_add_test(api, api_keys_and_values_have_length_limits);
    tcase_add_test(api, api_delete_of_a_missing_key_is_info_nokey);
    tcase_add_test(api, api_dup_is_a_deep_copy);
    tcase_add_test(api, api_invalid_objects_indices_and_null_arguments_are_refused);
    suite_add_tcase(s, api);
    return comm_test_run(s);
}
