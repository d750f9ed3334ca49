/*
 * errors_test.c - statuses, MPI error classes and codes, and their strings.
 */
#include "config.h"

#include "api/api.h"
#include "base/error.h"

#include "test/unit/unit.h"

#include <string.h>

static const int statuses[] = {
    COMM_ERR_NOMEM,   COMM_ERR_BAD_PARAM,   COMM_ERR_NOT_SUPPORTED, COMM_ERR_NOT_FOUND,
    COMM_ERR_SYSTEM,  COMM_ERR_PMIX,        COMM_ERR_UNREACHABLE,   COMM_ERR_TIMEOUT,
    COMM_ERR_STATE,   COMM_ERR_INTERNAL,
};
enum { NSTATUSES = sizeof(statuses) / sizeof(statuses[0]) };

START_TEST(every_status_has_its_own_text)
{
    for (size_t i = 0; i < NSTATUSES; i++) {
        ck_assert_str_ne(comm_strerror(statuses[i]), "unknown status");
        for (size_t j = 0; j < i; j++) {
            ck_assert_str_ne(comm_strerror(statuses[i]), comm_strerror(statuses[j]));
        }
    }
    ck_assert_str_eq(comm_strerror(COMM_OK), "success");
    ck_assert_str_eq(comm_strerror(-999), "unknown status");
}
END_TEST

START_TEST(every_class_has_a_string)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = -1, cls = -1;

    for (int c = MPI_SUCCESS; c <= MPI_ERR_RMA_FLAVOR; c++) {
        ck_assert_int_eq(MPI_Error_string(c, text, &len), MPI_SUCCESS);
        ck_assert_int_gt(len, 0);
        ck_assert_int_eq((int)strlen(text), len);
        ck_assert_int_eq(MPI_Error_class(c, &cls), MPI_SUCCESS);
        ck_assert_int_eq(cls, c);
    }
    ck_assert_int_eq(MPI_Error_string(MPI_ERR_TRUNCATE, text, &len), MPI_SUCCESS);
    ck_assert_str_eq(text, "message truncated on receive");
}
END_TEST

START_TEST(status_codes_map_to_classes_and_keep_their_text)
{
    char text[MPI_MAX_ERROR_STRING];
    int len, cls;

    for (size_t i = 0; i < NSTATUSES; i++) {
        int code = comm_api_code_of_status(statuses[i]);

        ck_assert_int_ge(code, COMM_API_STATUS_CODE_BASE);
        ck_assert_int_le(code, MPI_ERR_LASTCODE);
        ck_assert_int_eq(MPI_Error_class(code, &cls), MPI_SUCCESS);
        ck_assert_int_gt(cls, MPI_SUCCESS);
        ck_assert_int_le(cls, MPI_ERR_RMA_FLAVOR);
        ck_assert_int_eq(MPI_Error_string(code, text, &len), MPI_SUCCESS);
        ck_assert_ptr_nonnull(strstr(text, comm_strerror(statuses[i])));
    }
    ck_assert_int_eq(MPI_Error_class(comm_api_code_of_status(COMM_ERR_NOMEM), &cls),
                     MPI_SUCCESS);
    ck_assert_int_eq(cls, MPI_ERR_NO_MEM);
    ck_assert_int_eq(MPI_Error_class(comm_api_code_of_status(COMM_ERR_INTERNAL), &cls),
                     MPI_SUCCESS);
    ck_assert_int_eq(cls, MPI_ERR_INTERN);
    ck_assert_int_eq(comm_api_code_of_status(COMM_OK), MPI_SUCCESS);
}
END_TEST

/* Outside init..finalize every error is fatal: the process ends with the error code. */
START_TEST(invalid_code_before_init_is_fatal)
{
    int cls;

    MPI_Error_class(MPI_ERR_LASTCODE + 1, &cls);
}
END_TEST

START_TEST(call_before_init_is_fatal)
{
    int rank;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = comm_test_case("errors");

    tcase_add_test(tc, every_status_has_its_own_text);
    tcase_add_test(tc, every_class_has_a_string);
    tcase_add_test(tc, status_codes_map_to_classes_and_keep_their_text);
    tcase_add_exit_test(tc, invalid_code_before_init_is_fatal, MPI_ERR_ARG);
    tcase_add_exit_test(tc, call_before_init_is_fatal, MPI_ERR_OTHER);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
