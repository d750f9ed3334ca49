/*
 * handles_test.c - Fortran handles: fixed indices of the predefined handles, an index per user
 * handle given at its first c2f and kept, released when the object is freed (f2c then gives the
 * null handle) and reused, invalid indices giving the null handle, thousands of handles across
 * the table's chunks, and statuses both ways.
 */
#include "config.h"

#include "api/api.h"

#include "test/unit/unit.h"

#include <stdint.h>
#include <string.h>

static void setup(void)
{
    ck_assert_int_eq(MPI_Init(NULL, NULL), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
}

static void teardown(void)
{
    MPI_Finalize();
}

START_TEST(predefined_handles_have_fixed_small_indices)
{
    ck_assert_int_eq(MPI_Comm_c2f(MPI_COMM_NULL), 0);
    ck_assert_int_eq(MPI_Comm_c2f(MPI_COMM_WORLD), 1);
    ck_assert_int_eq(MPI_Comm_c2f(MPI_COMM_SELF), 2);
    ck_assert_int_eq(MPI_Type_c2f(MPI_DATATYPE_NULL), 0);
    ck_assert_int_eq(MPI_Type_c2f(MPI_INT), 8);
    ck_assert_int_eq(MPI_Op_c2f(MPI_OP_NULL), 0);
    ck_assert_int_eq(MPI_Op_c2f(MPI_SUM), 3);
    ck_assert_int_eq(MPI_Group_c2f(MPI_GROUP_EMPTY), 1);
    ck_assert_int_eq(MPI_Request_c2f(MPI_REQUEST_NULL), 0);
    ck_assert_int_eq(MPI_Info_c2f(MPI_INFO_NULL), 0);
    ck_assert_int_eq(MPI_Errhandler_c2f(MPI_ERRORS_RETURN), 2);
    ck_assert_int_eq(MPI_Message_c2f(MPI_MESSAGE_NO_PROC), 1);
    for (uintptr_t h = 0x200; h <= 0x23e; h++) {
        MPI_Datatype t = (MPI_Datatype)h;

        COMM_CHECK(MPI_Type_f2c(MPI_Type_c2f(t)) == t, "datatype %#lx", (unsigned long)h);
    }
    for (uintptr_t h = 0x140; h <= 0x14e; h++) {
        COMM_CHECK(MPI_Op_f2c(MPI_Op_c2f((MPI_Op)h)) == (MPI_Op)h, "op %#lx", (unsigned long)h);
    }
}
END_TEST

START_TEST(invalid_indices_give_the_null_handle)
{
    static const MPI_Fint bad[] = {
        -1, -1000, 3, 100, 255, 256, 257, 70000, 4 * 1024 * 1024 + 256, 0x7fffffff};

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        COMM_CHECK(MPI_Comm_f2c(bad[i]) == MPI_COMM_NULL, "comm %d", bad[i]);
        COMM_CHECK(MPI_Request_f2c(bad[i]) == MPI_REQUEST_NULL, "request %d", bad[i]);
        COMM_CHECK(MPI_Message_f2c(bad[i]) == MPI_MESSAGE_NULL, "message %d", bad[i]);
        COMM_CHECK(MPI_Errhandler_f2c(bad[i]) == MPI_ERRHANDLER_NULL, "errhandler %d", bad[i]);
        COMM_CHECK(MPI_Info_f2c(bad[i]) == MPI_INFO_NULL, "info %d", bad[i]);
        COMM_CHECK(MPI_Group_f2c(bad[i]) == MPI_GROUP_NULL, "group %d", bad[i]);
    }
    ck_assert(MPI_Type_f2c(0x3f) == MPI_DATATYPE_NULL); /* one past the last predefined */
    ck_assert(MPI_Op_f2c(15) == MPI_OP_NULL);
}
END_TEST

START_TEST(a_user_handle_keeps_its_index_until_freed)
{
    MPI_Comm a, b;
    MPI_Fint fa, fb;

    ck_assert_int_eq(MPI_Comm_dup(MPI_COMM_WORLD, &a), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_dup(MPI_COMM_WORLD, &b), MPI_SUCCESS);
    fa = MPI_Comm_c2f(a);
    fb = MPI_Comm_c2f(b);
    ck_assert_int_ge(fa, 256);
    ck_assert_int_ne(fa, fb);
    ck_assert_int_eq(MPI_Comm_c2f(a), fa);
    ck_assert(MPI_Comm_f2c(fa) == a && MPI_Comm_f2c(fb) == b);
    ck_assert_int_eq(MPI_Comm_free(&a), MPI_SUCCESS);
    ck_assert(MPI_Comm_f2c(fa) == MPI_COMM_NULL);
    ck_assert(MPI_Comm_f2c(fb) == b);
    /* The released index serves the next handle. */
    ck_assert_int_eq(MPI_Comm_dup(MPI_COMM_WORLD, &a), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_c2f(a), fa);
    ck_assert(MPI_Comm_f2c(fa) == a);
    ck_assert_int_eq(MPI_Comm_free(&a), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_free(&b), MPI_SUCCESS);
    ck_assert(MPI_Comm_f2c(fb) == MPI_COMM_NULL);
}
END_TEST

/* Handles are only keys to the table: made-up addresses stand for ten thousand objects. */
static MPI_Info fake_info(int i)
{
    return (MPI_Info)(uintptr_t)(0x10000000u + 16u * (unsigned)i);
}

START_TEST(ten_thousand_handles_cross_the_chunks_and_come_back)
{
    enum { N = 10000 };
    static MPI_Fint f[N];

    for (int i = 0; i < N; i++) {
        f[i] = MPI_Info_c2f(fake_info(i));
        COMM_CHECK(f[i] == 256 + i, "handle %d got index %d", i, f[i]);
    }
    for (int i = 0; i < N; i++) {
        MPI_Info h = fake_info(i);

        COMM_CHECK(MPI_Info_f2c(f[i]) == h, "index %d", f[i]);
        COMM_CHECK(MPI_Info_c2f(h) == f[i], "handle %d", i);
    }
    for (int i = 0; i < N; i += 2) {
        comm_api_handle_forget(COMM_API_HANDLE_INFO, fake_info(i));
    }
    for (int i = 0; i < N; i++) {
        COMM_CHECK((MPI_Info_f2c(f[i]) == MPI_INFO_NULL) == (i % 2 == 0), "index %d", f[i]);
    }
    for (int i = 1; i < N; i += 2) {
        comm_api_handle_forget(COMM_API_HANDLE_INFO, fake_info(i));
    }
    ck_assert(MPI_Info_f2c(f[N - 1]) == MPI_INFO_NULL);
}
END_TEST

START_TEST(statuses_convert_both_ways)
{
    MPI_Status c = {.MPI_SOURCE = 5, .MPI_TAG = 9, .MPI_ERROR = MPI_ERR_TAG}, back;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    int count;

    ck_assert_int_eq(MPI_Status_set_elements_x(&c, MPI_DOUBLE, 3), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Status_c2f(&c, f), MPI_SUCCESS);
    ck_assert_int_eq(f[0], 5);
    ck_assert_int_eq(f[1], 9);
    ck_assert_int_eq(f[2], MPI_ERR_TAG);
    ck_assert_int_eq(MPI_Status_f2c(f, &back), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Get_count(&back, MPI_DOUBLE, &count), MPI_SUCCESS);
    ck_assert_int_eq(count, 3);
    ck_assert_int_eq(memcmp(&c, &back, sizeof(c)), 0);
    ck_assert_int_eq(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back), MPI_ERR_ARG);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("handles");
    TCase *tc = comm_test_case("fortran");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, predefined_handles_have_fixed_small_indices);
    tcase_add_test(tc, invalid_indices_give_the_null_handle);
    tcase_add_test(tc, a_user_handle_keeps_its_index_until_freed);
    tcase_add_test(tc, ten_thousand_handles_cross_the_chunks_and_come_back);
    tcase_add_test(tc, statuses_convert_both_ways);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
