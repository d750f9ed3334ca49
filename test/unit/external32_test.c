/*
 * external32_test.c - the "external32" representation: the standard's size of every predefined
 * type (MPI-3.1 table 13.2), big-endian integers and IEEE floats byte for byte, long double as
 * binary128, strided and mixed derived types both ways, values that do not fit, and the errors
 * of the API (data representation, room, count).
 */
#include "config.h"

#include "include/mpi.h"

#include "test/unit/unit.h"

#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

static void setup(void)
{
    ck_assert_int_eq(MPI_Init(NULL, NULL), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
}

static void teardown(void)
{
    MPI_Finalize();
}

START_TEST(every_predefined_type_has_the_standards_size)
{
    static const struct {
        MPI_Datatype type;
        MPI_Aint size;
    } sizes[] = {
        {MPI_CHAR, 1},
        {MPI_SIGNED_CHAR, 1},
        {MPI_UNSIGNED_CHAR, 1},
        {MPI_BYTE, 1},
        {MPI_PACKED, 1},
        {MPI_WCHAR, 2},
        {MPI_SHORT, 2},
        {MPI_UNSIGNED_SHORT, 2},
        {MPI_INT, 4},
        {MPI_UNSIGNED, 4},
        {MPI_LONG, 4},
        {MPI_UNSIGNED_LONG, 4},
        {MPI_LONG_LONG_INT, 8},
        {MPI_FLOAT, 4},
        {MPI_DOUBLE, 8},
        {MPI_LONG_DOUBLE, 16},
        {MPI_C_BOOL, 1},
        {MPI_INT8_T, 1},
        {MPI_UINT16_T, 2},
        {MPI_INT32_T, 4},
        {MPI_UINT64_T, 8},
        {MPI_AINT, 8},
        {MPI_COUNT, 8},
        {MPI_OFFSET, 8},
        {MPI_C_COMPLEX, 8},
        {MPI_C_DOUBLE_COMPLEX, 16},
        {MPI_C_LONG_DOUBLE_COMPLEX, 32},
        {MPI_CXX_BOOL, 1},
        {MPI_CXX_FLOAT_COMPLEX, 8},
        {MPI_CXX_DOUBLE_COMPLEX, 16},
        {MPI_CXX_LONG_DOUBLE_COMPLEX, 32},
        {MPI_CHARACTER, 1},
        {MPI_LOGICAL, 4},
        {MPI_INTEGER, 4},
        {MPI_REAL, 4},
        {MPI_DOUBLE_PRECISION, 8},
        {MPI_COMPLEX, 8},
        {MPI_DOUBLE_COMPLEX, 16},
        {MPI_INTEGER8, 8},
        {MPI_REAL16, 16},
        {MPI_FLOAT_INT, 8},
        {MPI_DOUBLE_INT, 12},
        {MPI_LONG_INT, 8},
        {MPI_2INT, 8},
        {MPI_SHORT_INT, 6},
        {MPI_LONG_DOUBLE_INT, 20},
    };

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        MPI_Aint size = -1;

        ck_assert_int_eq(MPI_Pack_external_size("external32", 3, sizes[i].type, &size),
                         MPI_SUCCESS);
        COMM_CHECK(size == 3 * sizes[i].size, "type %zu: %ld bytes, expected %ld", i, (long)size,
                   (long)(3 * sizes[i].size));
    }
}
END_TEST

/* Packs COUNT of TYPE from IN and compares with WANT (N bytes), then unpacks it into OUT. */
static void round_trip(const void *in, int count, MPI_Datatype type, const unsigned char *want,
                       size_t n, void *out)
{
    unsigned char buf[256];
    MPI_Aint pos = 0;

    ck_assert_int_eq(MPI_Pack_external("external32", in, count, type, buf, sizeof(buf), &pos),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, (MPI_Aint)n);
    ck_assert_int_eq(memcmp(buf, want, n), 0);
    pos = 0;
    ck_assert_int_eq(MPI_Unpack_external("external32", buf, (MPI_Aint)n, &pos, out, count, type),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, (MPI_Aint)n);
}

START_TEST(integers_are_big_endian_and_sign_extended_back)
{
    int i[2] = {0x01020304, -2}, i_out[2];
    unsigned long ul = 0xdeadbeefUL, ul_out;
    long l = -5, l_out;
    wchar_t w = L'\x263a', w_out;
    short s = -300, s_out;
    const unsigned char i_want[] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe};
    const unsigned char ul_want[] = {0xde, 0xad, 0xbe, 0xef};
    const unsigned char l_want[] = {0xff, 0xff, 0xff, 0xfb};
    const unsigned char w_want[] = {0x26, 0x3a};
    const unsigned char s_want[] = {0xfe, 0xd4};

    round_trip(i, 2, MPI_INT, i_want, sizeof(i_want), i_out);
    ck_assert(i_out[0] == i[0] && i_out[1] == i[1]);
    round_trip(&ul, 1, MPI_UNSIGNED_LONG, ul_want, sizeof(ul_want), &ul_out);
    ck_assert(ul_out == ul);
    round_trip(&l, 1, MPI_LONG, l_want, sizeof(l_want), &l_out);
    ck_assert(l_out == -5);
    round_trip(&w, 1, MPI_WCHAR, w_want, sizeof(w_want), &w_out);
    ck_assert(w_out == w);
    round_trip(&s, 1, MPI_SHORT, s_want, sizeof(s_want), &s_out);
    ck_assert(s_out == s);
}
END_TEST

START_TEST(floats_are_big_endian_ieee_and_long_double_is_binary128)
{
    float f = -2.5f, f_out;
    double d = 1.0, d_out;
    long double ld = -3.0L, ld_out;
    double _Complex z = 1.0 + 2.0 * _Complex_I, z_out;
    const unsigned char f_want[] = {0xc0, 0x20, 0, 0};
    const unsigned char d_want[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    /* -3 = -1.5 * 2^1: sign, exponent 0x4000, fraction .1000... */
    const unsigned char ld_want[16] = {0xc0, 0x00, 0x80};
    const unsigned char z_want[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0};

    round_trip(&f, 1, MPI_FLOAT, f_want, sizeof(f_want), &f_out);
    ck_assert(f_out == f);
    round_trip(&d, 1, MPI_DOUBLE, d_want, sizeof(d_want), &d_out);
    ck_assert(d_out == d);
    round_trip(&ld, 1, MPI_LONG_DOUBLE, ld_want, sizeof(ld_want), &ld_out);
    ck_assert(ld_out == ld);
    round_trip(&z, 1, MPI_C_DOUBLE_COMPLEX, z_want, sizeof(z_want), &z_out);
    ck_assert(z_out == z);
}
END_TEST

struct pair {
    char c;
    double d;
};

START_TEST(derived_types_convert_each_member_as_its_own_type)
{
    int v[6] = {1, 2, 3, 4, 5, 6}, v_out[6] = {0};
    const unsigned char v_want[] = {0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 5};
    struct pair p[2] = {{'a', 0.5}, {'b', -1.0}}, p_out[2];
    int blocklens[] = {1, 1};
    MPI_Aint disps[] = {offsetof(struct pair, c), offsetof(struct pair, d)};
    MPI_Datatype types[] = {MPI_CHAR, MPI_DOUBLE}, vec, st, resized, two;
    const unsigned char p_want[] = {'a', 0x3f, 0xe0, 0, 0, 0, 0, 0, 0,
                                    'b', 0xbf, 0xf0, 0, 0, 0, 0, 0, 0};

    ck_assert_int_eq(MPI_Type_vector(3, 1, 2, MPI_INT, &vec), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&vec), MPI_SUCCESS);
    round_trip(v, 1, vec, v_want, sizeof(v_want), v_out);
    ck_assert(v_out[0] == 1 && v_out[1] == 0 && v_out[2] == 3 && v_out[4] == 5);

    ck_assert_int_eq(MPI_Type_create_struct(2, blocklens, disps, types, &st), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_resized(st, 0, sizeof(struct pair), &resized), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_contiguous(2, resized, &two), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&two), MPI_SUCCESS);
    memset(p_out, 0, sizeof(p_out));
    round_trip(p, 1, two, p_want, sizeof(p_want), p_out);
    ck_assert(p_out[0].c == 'a' && p_out[0].d == 0.5 && p_out[1].c == 'b' && p_out[1].d == -1.0);
    MPI_Type_free(&vec);
    MPI_Type_free(&st);
    MPI_Type_free(&resized);
    MPI_Type_free(&two);
}
END_TEST

START_TEST(bad_arguments_and_values_get_their_class)
{
    long big = (long)1 << 40;
    wchar_t w = 0x10000;
    int x[4] = {0}, cls;
    unsigned char buf[16];
    MPI_Aint pos = 0, size;

    ck_assert_int_eq(MPI_Pack_external("native", x, 1, MPI_INT, buf, 16, &pos),
                     MPI_ERR_UNSUPPORTED_DATAREP);
    ck_assert_int_eq(MPI_Pack_external_size(NULL, 1, MPI_INT, &size), MPI_ERR_UNSUPPORTED_DATAREP);
    ck_assert_int_eq(MPI_Pack_external("external32", x, 4, MPI_INT, buf, 15, &pos),
                     MPI_ERR_TRUNCATE);
    ck_assert_int_eq(MPI_Pack_external("external32", x, -1, MPI_INT, buf, 16, &pos), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Pack_external("external32", x, 1, MPI_DATATYPE_NULL, buf, 16, &pos),
                     MPI_ERR_TYPE);
    pos = 17;
    ck_assert_int_eq(MPI_Pack_external("external32", x, 1, MPI_INT, buf, 16, &pos), MPI_ERR_ARG);
    pos = 0;
    ck_assert_int_eq(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, 16, &pos),
                     MPI_ERR_CONVERSION);
    ck_assert_int_eq(MPI_Pack_external("external32", &w, 1, MPI_WCHAR, buf, 16, &pos),
                     MPI_ERR_CONVERSION);
    ck_assert_int_eq(pos, 0);
    ck_assert_int_eq(MPI_Unpack_external("external32", buf, 3, &pos, x, 1, MPI_INT),
                     MPI_ERR_TRUNCATE);
    ck_assert_int_eq(MPI_Error_class(MPI_ERR_CONVERSION, &cls), MPI_SUCCESS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("external32");
    TCase *tc = comm_test_case("external32");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, every_predefined_type_has_the_standards_size);
    tcase_add_test(tc, integers_are_big_endian_and_sign_extended_back);
    tcase_add_test(tc, floats_are_big_endian_ieee_and_long_double_is_binary128);
    tcase_add_test(tc, derived_types_convert_each_member_as_its_own_type);
    tcase_add_test(tc, bad_arguments_and_values_get_their_class);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
