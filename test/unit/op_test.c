/*
 * op_test.c - reduction ops: which op is defined on which type, every predefined op on every
 * type it accepts against a naive reference, integer wrap-around, MAXLOC/MINLOC ties,
 * non-contiguous and misaligned layouts, user ops, references, and the MPI op API.
 *
 * The reference is written independently of runtime/op/op_kernels.c: its own table of types and
 * type groups (MPI-3.1 section 5.9.2, plus MPI_CHAR and MPI_WCHAR as C integers, and MPI_AINT,
 * MPI_OFFSET and MPI_COUNT also as C integers, for the logical ops), one element
 * at a time, integers in 64-bit unsigned arithmetic truncated to the type.  Floating values are
 * small multiples of 1/4, so every sum and product is exact and compared with ==.
 */
#include "config.h"

#include "include/mpi.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "runtime/op/op.h"

#include "test/unit/unit.h"

#include <complex.h>
#include <float.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wchar.h>

/* ---- the reference ------------------------------------------------------------------------ */

/* Fortran REAL*16 is IEEE binary128: long double where that is binary128, else GCC's
 * __float128; without either, no op may accept MPI_REAL16 or MPI_COMPLEX32. */
#if LDBL_MANT_DIG == 113
#define REF_HAVE_REAL16 1
typedef long double ref_real16;
typedef long double _Complex ref_complex32;
#elif defined(__SIZEOF_FLOAT128__) && defined(__GNUC__) && !defined(__clang__)
#define REF_HAVE_REAL16 1
typedef __float128 ref_real16;
typedef _Complex float __attribute__((mode(TC))) ref_complex32;
#else
#define REF_HAVE_REAL16 0
typedef long double ref_real16;
typedef long double _Complex ref_complex32;
#endif

enum ref_kind {
    K_I8,
    K_U8,
    K_I16,
    K_U16,
    K_I32,
    K_U32,
    K_I64,
    K_U64,
    K_BOOL,
    K_FLT,
    K_DBL,
    K_LDBL,
    K_CFLT,
    K_CDBL,
    K_CLDBL,
    K_REAL16,
    K_COMPLEX32,
    K_FLOAT_INT,
    K_DOUBLE_INT,
    K_LONG_INT,
    K_2INT,
    K_SHORT_INT,
    K_LONG_DOUBLE_INT,
    K_2FLOAT,
    K_2DOUBLE,
    K_OPAQUE, /* bytes no arithmetic op is defined on */
};

enum ref_group {
    G_NONE = 0,
    G_CINT = 1,
    G_FINT = 2,
    G_FLOAT = 4,
    G_COMPLEX = 8,
    G_LOGICAL = 16,
    G_BYTE = 32,
    G_PAIR = 64,
};

struct ref_type {
    MPI_Datatype type;
    const char *name;
    enum ref_kind kind;
    unsigned group;
};

/* Integer kinds by size and signedness. */
static enum ref_kind ref_int_kind(size_t size, bool is_signed)
{
    switch (size) {
    case 1:
        return is_signed ? K_I8 : K_U8;
    case 2:
        return is_signed ? K_I16 : K_U16;
    case 4:
        return is_signed ? K_I32 : K_U32;
    default:
        return is_signed ? K_I64 : K_U64;
    }
}

static struct ref_type ref_types[] = {
    {MPI_CHAR, "MPI_CHAR", K_I8, G_CINT}, /* kind fixed up in ref_types_init */
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", K_I8, G_CINT},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", K_U8, G_CINT},
    {MPI_BYTE, "MPI_BYTE", K_U8, G_BYTE},
    {MPI_WCHAR, "MPI_WCHAR", K_I32, G_CINT}, /* fixed up */
    {MPI_SHORT, "MPI_SHORT", K_I16, G_CINT},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", K_U16, G_CINT},
    {MPI_INT, "MPI_INT", K_I32, G_CINT},
    {MPI_UNSIGNED, "MPI_UNSIGNED", K_U32, G_CINT},
    {MPI_LONG, "MPI_LONG", K_I64, G_CINT},                   /* fixed up */
    {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", K_U64, G_CINT}, /* fixed up */
    {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", K_I64, G_CINT},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", K_U64, G_CINT},
    {MPI_FLOAT, "MPI_FLOAT", K_FLT, G_FLOAT},
    {MPI_DOUBLE, "MPI_DOUBLE", K_DBL, G_FLOAT},
    {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", K_LDBL, G_FLOAT},
    {MPI_C_BOOL, "MPI_C_BOOL", K_BOOL, G_LOGICAL},
    {MPI_INT8_T, "MPI_INT8_T", K_I8, G_CINT},
    {MPI_INT16_T, "MPI_INT16_T", K_I16, G_CINT},
    {MPI_INT32_T, "MPI_INT32_T", K_I32, G_CINT},
    {MPI_INT64_T, "MPI_INT64_T", K_I64, G_CINT},
    {MPI_UINT8_T, "MPI_UINT8_T", K_U8, G_CINT},
    {MPI_UINT16_T, "MPI_UINT16_T", K_U16, G_CINT},
    {MPI_UINT32_T, "MPI_UINT32_T", K_U32, G_CINT},
    {MPI_UINT64_T, "MPI_UINT64_T", K_U64, G_CINT},
    {MPI_AINT, "MPI_AINT", K_I64, G_CINT | G_FINT},
    {MPI_COUNT, "MPI_COUNT", K_I64, G_CINT | G_FINT},
    {MPI_OFFSET, "MPI_OFFSET", K_I64, G_CINT | G_FINT},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", K_CFLT, G_COMPLEX},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", K_CDBL, G_COMPLEX},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", K_CLDBL, G_COMPLEX},
    {MPI_PACKED, "MPI_PACKED", K_OPAQUE, G_NONE},
    {MPI_FLOAT_INT, "MPI_FLOAT_INT", K_FLOAT_INT, G_PAIR},
    {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", K_DOUBLE_INT, G_PAIR},
    {MPI_LONG_INT, "MPI_LONG_INT", K_LONG_INT, G_PAIR},
    {MPI_2INT, "MPI_2INT", K_2INT, G_PAIR},
    {MPI_SHORT_INT, "MPI_SHORT_INT", K_SHORT_INT, G_PAIR},
    {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", K_LONG_DOUBLE_INT, G_PAIR},
    {MPI_CHARACTER, "MPI_CHARACTER", K_OPAQUE, G_NONE},
    {MPI_INTEGER, "MPI_INTEGER", K_I32, G_FINT},
    {MPI_REAL, "MPI_REAL", K_FLT, G_FLOAT},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", K_DBL, G_FLOAT},
    {MPI_LOGICAL, "MPI_LOGICAL", K_I32, G_LOGICAL},
    {MPI_COMPLEX, "MPI_COMPLEX", K_CFLT, G_COMPLEX},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", K_CDBL, G_COMPLEX},
    {MPI_2INTEGER, "MPI_2INTEGER", K_2INT, G_PAIR},
    {MPI_2REAL, "MPI_2REAL", K_2FLOAT, G_PAIR},
    {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", K_2DOUBLE, G_PAIR},
    {MPI_INTEGER1, "MPI_INTEGER1", K_I8, G_FINT},
    {MPI_INTEGER2, "MPI_INTEGER2", K_I16, G_FINT},
    {MPI_INTEGER4, "MPI_INTEGER4", K_I32, G_FINT},
    {MPI_INTEGER8, "MPI_INTEGER8", K_I64, G_FINT},
    {MPI_REAL4, "MPI_REAL4", K_FLT, G_FLOAT},
    {MPI_REAL8, "MPI_REAL8", K_DBL, G_FLOAT},
    {MPI_REAL16, "MPI_REAL16", K_REAL16, REF_HAVE_REAL16 ? G_FLOAT : G_NONE},
    {MPI_COMPLEX8, "MPI_COMPLEX8", K_CFLT, G_COMPLEX},
    {MPI_COMPLEX16, "MPI_COMPLEX16", K_CDBL, G_COMPLEX},
    {MPI_COMPLEX32, "MPI_COMPLEX32", K_COMPLEX32, REF_HAVE_REAL16 ? G_COMPLEX : G_NONE},
    {MPI_CXX_BOOL, "MPI_CXX_BOOL", K_BOOL, G_LOGICAL},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", K_CFLT, G_COMPLEX},
    {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", K_CDBL, G_COMPLEX},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", K_CLDBL, G_COMPLEX},
};

enum { REF_NTYPES = sizeof(ref_types) / sizeof(ref_types[0]) };

static void ref_types_init(void)
{
    for (size_t t = 0; t < REF_NTYPES; t++) {
        if (ref_types[t].type == MPI_CHAR) {
            ref_types[t].kind = ref_int_kind(sizeof(char), CHAR_MIN < 0);
        } else if (ref_types[t].type == MPI_WCHAR) {
            ref_types[t].kind = ref_int_kind(sizeof(wchar_t), WCHAR_MIN < 0);
        } else if (ref_types[t].type == MPI_LONG) {
            ref_types[t].kind = ref_int_kind(sizeof(long), true);
        } else if (ref_types[t].type == MPI_UNSIGNED_LONG) {
            ref_types[t].kind = ref_int_kind(sizeof(unsigned long), false);
        } else if (ref_types[t].type == MPI_AINT) {
            ref_types[t].kind = ref_int_kind(sizeof(MPI_Aint), true);
        }
    }
}

static const MPI_Op ref_ops[] = {MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
                                 MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
                                 MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
static const char *const ref_op_names[] = {
    "MPI_MAX", "MPI_MIN",  "MPI_SUM",  "MPI_PROD",   "MPI_LAND",   "MPI_BAND",    "MPI_LOR",
    "MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};

enum { REF_NOPS = sizeof(ref_ops) / sizeof(ref_ops[0]) };

/* The groups each op is defined on, per the standard (REPLACE and NO_OP: everything). */
static bool ref_accepts(MPI_Op op, unsigned group)
{
    if (op == MPI_MAX || op == MPI_MIN) {
        return (group & (G_CINT | G_FINT | G_FLOAT)) != 0;
    }
    if (op == MPI_SUM || op == MPI_PROD) {
        return (group & (G_CINT | G_FINT | G_FLOAT | G_COMPLEX)) != 0;
    }
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) {
        return (group & (G_CINT | G_LOGICAL)) != 0;
    }
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) {
        return (group & (G_CINT | G_FINT | G_BYTE)) != 0;
    }
    if (op == MPI_MAXLOC || op == MPI_MINLOC) {
        return (group & G_PAIR) != 0;
    }
    return true;
}

struct ref_float_int {
    float v;
    int i;
};
struct ref_double_int {
    double v;
    int i;
};
struct ref_long_int {
    long v;
    int i;
};
struct ref_2int {
    int v;
    int i;
};
struct ref_short_int {
    short v;
    int i;
};
struct ref_long_double_int {
    long double v;
    int i;
};
struct ref_2float {
    float v;
    float i;
};
struct ref_2double {
    double v;
    double i;
};

static uint64_t ref_int(MPI_Op op, uint64_t a, uint64_t b, bool is_signed)
{
    bool a_gt = is_signed ? (int64_t)a > (int64_t)b : a > b;
    bool a_lt = is_signed ? (int64_t)a < (int64_t)b : a < b;

    if (op == MPI_MAX) {
        return a_gt ? a : b;
    }
    if (op == MPI_MIN) {
        return a_lt ? a : b;
    }
    if (op == MPI_SUM) {
        return a + b;
    }
    if (op == MPI_PROD) {
        return a * b;
    }
    if (op == MPI_LAND) {
        return a != 0 && b != 0;
    }
    if (op == MPI_LOR) {
        return a != 0 || b != 0;
    }
    if (op == MPI_LXOR) {
        return (a != 0) != (b != 0);
    }
    if (op == MPI_BAND) {
        return a & b;
    }
    if (op == MPI_BOR) {
        return a | b;
    }
    return a ^ b; /* MPI_BXOR */
}

/* y[i] = x[i] op y[i], one element, for every op defined on an integer kind. */
#define REF_INT_CASE(K, T, SIGNED)                                                                 \
    case K: {                                                                                      \
        const T *x = in;                                                                           \
        T *y = io;                                                                                 \
        y[i] = (T)ref_int(op, (uint64_t)(int64_t)x[i], (uint64_t)(int64_t)y[i], SIGNED);           \
        break;                                                                                     \
    }

#define REF_FLOAT_CASE(K, T)                                                                       \
    case K: {                                                                                      \
        const T *x = in;                                                                           \
        T *y = io;                                                                                 \
        if (op == MPI_MAX) {                                                                       \
            y[i] = x[i] > y[i] ? x[i] : y[i];                                                      \
        } else if (op == MPI_MIN) {                                                                \
            y[i] = x[i] < y[i] ? x[i] : y[i];                                                      \
        } else if (op == MPI_SUM) {                                                                \
            y[i] = x[i] + y[i];                                                                    \
        } else {                                                                                   \
            y[i] = x[i] * y[i];                                                                    \
        }                                                                                          \
        break;                                                                                     \
    }

#define REF_COMPLEX_CASE(K, T)                                                                     \
    case K: {                                                                                      \
        const T *x = in;                                                                           \
        T *y = io;                                                                                 \
        y[i] = op == MPI_SUM ? x[i] + y[i] : x[i] * y[i];                                          \
        break;                                                                                     \
    }

#define REF_PAIR_CASE(K, T)                                                                        \
    case K: {                                                                                      \
        const T *x = in;                                                                           \
        T *y = io;                                                                                 \
        bool better = op == MPI_MAXLOC ? x[i].v > y[i].v : x[i].v < y[i].v;                        \
        if (better) {                                                                              \
            y[i].v = x[i].v;                                                                       \
            y[i].i = x[i].i;                                                                       \
        } else if (x[i].v == y[i].v && x[i].i < y[i].i) {                                          \
            y[i].i = x[i].i;                                                                       \
        }                                                                                          \
        break;                                                                                     \
    }

/* Reduces element I of arrays of KIND (as C arrays) with a predefined op other than REPLACE
 * and NO_OP. */
static void ref_reduce(MPI_Op op, enum ref_kind kind, const void *in, void *io, size_t i)
{
    switch (kind) {
        REF_INT_CASE(K_I8, int8_t, true)
        REF_INT_CASE(K_U8, uint8_t, false)
        REF_INT_CASE(K_I16, int16_t, true)
        REF_INT_CASE(K_U16, uint16_t, false)
        REF_INT_CASE(K_I32, int32_t, true)
        REF_INT_CASE(K_U32, uint32_t, false)
        REF_INT_CASE(K_I64, int64_t, true)
        REF_INT_CASE(K_U64, uint64_t, false)
        REF_INT_CASE(K_BOOL, uint8_t, false)
        REF_FLOAT_CASE(K_FLT, float)
        REF_FLOAT_CASE(K_DBL, double)
        REF_FLOAT_CASE(K_LDBL, long double)
        REF_COMPLEX_CASE(K_CFLT, float _Complex)
        REF_COMPLEX_CASE(K_CDBL, double _Complex)
        REF_COMPLEX_CASE(K_CLDBL, long double _Complex)
        REF_FLOAT_CASE(K_REAL16, ref_real16)
        REF_COMPLEX_CASE(K_COMPLEX32, ref_complex32)
        REF_PAIR_CASE(K_FLOAT_INT, struct ref_float_int)
        REF_PAIR_CASE(K_DOUBLE_INT, struct ref_double_int)
        REF_PAIR_CASE(K_LONG_INT, struct ref_long_int)
        REF_PAIR_CASE(K_2INT, struct ref_2int)
        REF_PAIR_CASE(K_SHORT_INT, struct ref_short_int)
        REF_PAIR_CASE(K_LONG_DOUBLE_INT, struct ref_long_double_int)
        REF_PAIR_CASE(K_2FLOAT, struct ref_2float)
        REF_PAIR_CASE(K_2DOUBLE, struct ref_2double)
    case K_OPAQUE:
        break;
    }
}

/* Values: integers from every bit pattern (so sums and products wrap), logicals mixing 0, 1
 * and other non-zero values, floating values small multiples of 1/4, pairs from few values so
 * that ties happen. */
static uint64_t ref_rand(uint64_t *state)
{
    *state = *state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return *state >> 11;
}

#define REF_FILL_INT(K, T)                                                                         \
    case K:                                                                                        \
        ((T *)buf)[i] = (T)(logical ? r % 3 == 0 ? 0 : r % 3 == 1 ? 1 : (r >> 8) : r);             \
        break;
#define REF_FILL_FLOAT(K, T)                                                                       \
    case K:                                                                                        \
        ((T *)buf)[i] = (T)((double)(int)(r % 33) / 4.0 - 4.0);                                    \
        break;
#define REF_FILL_COMPLEX(K, T, R)                                                                  \
    case K:                                                                                        \
        ((T *)buf)[i] = (R)((int)(r % 9) - 4) / 2 + (R)((int)((r >> 8) % 9) - 4) / 2 * I;          \
        break;
#define REF_FILL_PAIR(K, T)                                                                        \
    case K:                                                                                        \
        ((T *)buf)[i].v = (__typeof__(((T *)buf)[i].v))(r % 4);                                    \
        ((T *)buf)[i].i = (__typeof__(((T *)buf)[i].i))((r >> 8) % 16);                            \
        break;

static void ref_fill(enum ref_kind kind, bool logical, void *buf, size_t n, uint64_t seed)
{
    uint64_t state = seed;

    for (size_t i = 0; i < n; i++) {
        uint64_t r = ref_rand(&state) ^ (ref_rand(&state) << 32);

        switch (kind) {
            REF_FILL_INT(K_I8, int8_t)
            REF_FILL_INT(K_U8, uint8_t)
            REF_FILL_INT(K_I16, int16_t)
            REF_FILL_INT(K_U16, uint16_t)
            REF_FILL_INT(K_I32, int32_t)
            REF_FILL_INT(K_U32, uint32_t)
            REF_FILL_INT(K_I64, int64_t)
            REF_FILL_INT(K_U64, uint64_t)
        case K_BOOL:
            ((bool *)buf)[i] = r % 2 == 0;
            break;
            REF_FILL_FLOAT(K_FLT, float)
            REF_FILL_FLOAT(K_DBL, double)
            REF_FILL_FLOAT(K_LDBL, long double)
            REF_FILL_COMPLEX(K_CFLT, float _Complex, float)
            REF_FILL_COMPLEX(K_CDBL, double _Complex, double)
            REF_FILL_COMPLEX(K_CLDBL, long double _Complex, long double)
            REF_FILL_FLOAT(K_REAL16, ref_real16)
            REF_FILL_COMPLEX(K_COMPLEX32, ref_complex32, ref_real16)
            REF_FILL_PAIR(K_FLOAT_INT, struct ref_float_int)
            REF_FILL_PAIR(K_DOUBLE_INT, struct ref_double_int)
            REF_FILL_PAIR(K_LONG_INT, struct ref_long_int)
            REF_FILL_PAIR(K_2INT, struct ref_2int)
            REF_FILL_PAIR(K_SHORT_INT, struct ref_short_int)
            REF_FILL_PAIR(K_LONG_DOUBLE_INT, struct ref_long_double_int)
            REF_FILL_PAIR(K_2FLOAT, struct ref_2float)
            REF_FILL_PAIR(K_2DOUBLE, struct ref_2double)
        case K_OPAQUE:
            ((unsigned char *)buf)[i] = (unsigned char)r;
            break;
        }
    }
}

#define REF_EQ_SCALAR(K, T)                                                                        \
    case K:                                                                                        \
        return ((const T *)a)[i] == ((const T *)b)[i];
#define REF_EQ_PAIR(K, T)                                                                          \
    case K:                                                                                        \
        return ((const T *)a)[i].v == ((const T *)b)[i].v &&                                       \
               ((const T *)a)[i].i == ((const T *)b)[i].i;

/* Element I of A and of B hold the same value (padding ignored). */
static bool ref_equal(enum ref_kind kind, const void *a, const void *b, size_t i)
{
    switch (kind) {
        REF_EQ_SCALAR(K_I8, int8_t)
        REF_EQ_SCALAR(K_U8, uint8_t)
        REF_EQ_SCALAR(K_I16, int16_t)
        REF_EQ_SCALAR(K_U16, uint16_t)
        REF_EQ_SCALAR(K_I32, int32_t)
        REF_EQ_SCALAR(K_U32, uint32_t)
        REF_EQ_SCALAR(K_I64, int64_t)
        REF_EQ_SCALAR(K_U64, uint64_t)
        REF_EQ_SCALAR(K_BOOL, uint8_t)
        REF_EQ_SCALAR(K_FLT, float)
        REF_EQ_SCALAR(K_DBL, double)
        REF_EQ_SCALAR(K_LDBL, long double)
        REF_EQ_SCALAR(K_CFLT, float _Complex)
        REF_EQ_SCALAR(K_CDBL, double _Complex)
        REF_EQ_SCALAR(K_CLDBL, long double _Complex)
        REF_EQ_SCALAR(K_REAL16, ref_real16)
        REF_EQ_SCALAR(K_COMPLEX32, ref_complex32)
        REF_EQ_PAIR(K_FLOAT_INT, struct ref_float_int)
        REF_EQ_PAIR(K_DOUBLE_INT, struct ref_double_int)
        REF_EQ_PAIR(K_LONG_INT, struct ref_long_int)
        REF_EQ_PAIR(K_2INT, struct ref_2int)
        REF_EQ_PAIR(K_SHORT_INT, struct ref_short_int)
        REF_EQ_PAIR(K_LONG_DOUBLE_INT, struct ref_long_double_int)
        REF_EQ_PAIR(K_2FLOAT, struct ref_2float)
        REF_EQ_PAIR(K_2DOUBLE, struct ref_2double)
        REF_EQ_SCALAR(K_OPAQUE, unsigned char)
    }
    return false;
}

/* ---- helpers -------------------------------------------------------------------------------- */

static struct comm_datatype *dtype(MPI_Datatype type)
{
    struct comm_datatype *dt = comm_datatype_lookup(type);

    ck_assert_ptr_nonnull(dt);
    return dt;
}

static struct comm_op *op_of(MPI_Op handle)
{
    struct comm_op *op = comm_op_lookup(handle);

    ck_assert_ptr_nonnull(op);
    return op;
}

/* Reduces ARRAY inout[0..n) with in[0..n) of TYPE (predefined) and checks against the reference;
 * for REPLACE and NO_OP, checks the copy or its absence. */
static void check_against_reference(size_t t, size_t o, size_t n, uint64_t seed)
{
    const struct ref_type *rt = &ref_types[t];
    MPI_Op op = ref_ops[o];
    struct comm_datatype *dt = dtype(rt->type);
    size_t bytes = n * (size_t)dt->extent;
    bool logical = op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR;
    unsigned char *in = malloc(bytes), *io = malloc(bytes), *ref = malloc(bytes);
    unsigned char *in_copy = malloc(bytes);

    ck_assert(in != NULL && io != NULL && ref != NULL && in_copy != NULL);
    memset(in, 0, bytes);
    memset(io, 0, bytes);
    ref_fill(rt->kind, logical, in, n, seed);
    ref_fill(rt->kind, logical, io, n, seed * 31 + 7);
    memcpy(ref, io, bytes);
    memcpy(in_copy, in, bytes);
    for (size_t i = 0; i < n; i++) {
        if (op == MPI_REPLACE) {
            memcpy(ref + i * (size_t)dt->extent, in + i * (size_t)dt->extent, (size_t)dt->extent);
        } else if (op != MPI_NO_OP) {
            ref_reduce(op, rt->kind, in, ref, i);
        }
    }
    ck_assert_int_eq(comm_op_reduce(op_of(op), in, io, (MPI_Count)n, dt), COMM_OK);
    for (size_t i = 0; i < n; i++) {
        COMM_CHECK(ref_equal(rt->kind, ref, io, i), "%s on %s: element %zu differs",
                   ref_op_names[o], rt->name, i);
        COMM_CHECK(ref_equal(rt->kind, in_copy, in, i), "%s on %s: input %zu changed",
                   ref_op_names[o], rt->name, i);
    }
    free(in);
    free(io);
    free(ref);
    free(in_copy);
}

/* ---- tests ---------------------------------------------------------------------------------- */

START_TEST(predefined_ops_accept_exactly_the_types_of_their_groups)
{
    ref_types_init();
    for (size_t o = 0; o < REF_NOPS; o++) {
        struct comm_op *op = op_of(ref_ops[o]);

        ck_assert_str_eq(comm_op_name(op), ref_op_names[o]);
        ck_assert(op->predefined && op->commutative);
        ck_assert_ptr_eq(op->handle, ref_ops[o]);
        for (size_t t = 0; t < REF_NTYPES; t++) {
            bool expected = ref_accepts(ref_ops[o], ref_types[t].group);

            ck_assert_msg(comm_op_accepts(op, dtype(ref_types[t].type)) == expected,
                          "%s on %s: expected %s", ref_op_names[o], ref_types[t].name,
                          expected ? "accepted" : "refused");
        }
    }
}
END_TEST

START_TEST(every_predefined_op_matches_the_reference_on_every_type_it_accepts)
{
    static const size_t counts[] = {1, 7, 64, 1001};
    int checked = 0;

    ref_types_init();
    for (size_t o = 0; o < REF_NOPS; o++) {
        for (size_t t = 0; t < REF_NTYPES; t++) {
            if (!ref_accepts(ref_ops[o], ref_types[t].group)) {
                continue;
            }
            for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
                check_against_reference(t, o, counts[c], 1000 * o + 10 * t + c + 1);
            }
            checked++;
        }
    }
    ck_assert_int_gt(checked, 250);
}
END_TEST

START_TEST(integer_sums_and_products_wrap_like_c)
{
    int i_in[] = {INT_MAX, INT_MIN, -1, 65536}, i_io[] = {1, -1, INT_MIN, 65536};
    unsigned short us_in[] = {65535, 65535}, us_io[] = {65535, 1};
    int8_t i8_in[] = {-128, 127}, i8_io[] = {-1, 127};
    uint64_t u64_in[] = {UINT64_MAX, UINT64_C(1) << 63}, u64_io[] = {2, 2};
    int64_t i64_in[] = {INT64_MAX, INT64_MIN}, i64_io[] = {1, -1};
    char c_in[] = {'a', 100}, c_io[] = {1, 27};

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), i_in, i_io, 4, dtype(MPI_INT)), COMM_OK);
    ck_assert_int_eq(i_io[0], INT_MIN);
    ck_assert_int_eq(i_io[1], INT_MAX);
    ck_assert_int_eq(i_io[2], INT_MAX);
    ck_assert_int_eq(i_io[3], 131072);
    i_io[3] = 65536;
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_PROD), &i_in[3], &i_io[3], 1, dtype(MPI_INT)),
                     COMM_OK);
    ck_assert_int_eq(i_io[3], 0); /* 2^32 wraps to 0 */

    /* 65535 * 65535 would overflow int if unsigned short were promoted and multiplied */
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_PROD), us_in, us_io, 2, dtype(MPI_UNSIGNED_SHORT)),
                     COMM_OK);
    ck_assert_uint_eq(us_io[0], 1);
    ck_assert_uint_eq(us_io[1], 65535);

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_PROD), i8_in, i8_io, 2, dtype(MPI_INT8_T)), COMM_OK);
    ck_assert_int_eq(i8_io[0], -128); /* 128 wraps */
    ck_assert_int_eq(i8_io[1], 1);    /* 16129 = 63 * 256 + 1 */

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), u64_in, u64_io, 2, dtype(MPI_UINT64_T)),
                     COMM_OK);
    ck_assert(u64_io[0] == 1);
    ck_assert(u64_io[1] == (UINT64_C(1) << 63) + 2);
    u64_io[1] = 2;
    ck_assert_int_eq(
        comm_op_reduce(op_of(MPI_PROD), &u64_in[1], &u64_io[1], 1, dtype(MPI_UNSIGNED_LONG_LONG)),
        COMM_OK);
    ck_assert(u64_io[1] == 0);

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), i64_in, i64_io, 2, dtype(MPI_INT64_T)),
                     COMM_OK);
    ck_assert(i64_io[0] == INT64_MIN);
    ck_assert(i64_io[1] == INT64_MAX);

    /* OSU's benchmarks reduce MPI_CHAR with MPI_SUM */
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), c_in, c_io, 2, dtype(MPI_CHAR)), COMM_OK);
    ck_assert_int_eq(c_io[0], 'b');
    ck_assert_int_eq((unsigned char)c_io[1], 127);
}
END_TEST

/* Open MPI and MPICH take the logical and bitwise ops on address, offset and count integers. */
START_TEST(logical_and_bitwise_ops_work_on_aint_offset_and_count)
{
    static const MPI_Datatype types[] = {MPI_AINT, MPI_OFFSET, MPI_COUNT};
    static const struct {
        MPI_Op op;
        int64_t want[4];
    } cases[] = {
        {MPI_LAND, {0, 0, 1, 1}}, {MPI_LOR, {0, 1, 1, 1}},  {MPI_LXOR, {0, 1, 0, 0}},
        {MPI_BAND, {0, 0, 2, 6}}, {MPI_BOR, {0, 5, 7, -2}}, {MPI_BXOR, {0, 5, 5, -8}},
    };
    const int64_t in[4] = {0, 0, 3, -2}, io0[4] = {0, 5, 6, 6};

    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            int64_t io[4];

            memcpy(io, io0, sizeof(io));
            ck_assert(comm_op_accepts(op_of(cases[c].op), dtype(types[t])));
            ck_assert_int_eq(comm_op_reduce(op_of(cases[c].op), in, io, 4, dtype(types[t])),
                             COMM_OK);
            for (int i = 0; i < 4; i++) {
                ck_assert_msg(io[i] == cases[c].want[i], "type %zu op %zu element %d: %lld", t, c,
                              i, (long long)io[i]);
            }
        }
    }
}
END_TEST

START_TEST(maxloc_and_minloc_keep_the_lower_index_on_ties)
{
    struct ref_double_int d_in[] = {{2.5, 7}, {2.5, 3}, {1.0, 9}, {4.0, 1}};
    struct ref_double_int d_io[] = {{2.5, 3}, {2.5, 7}, {1.0, 2}, {-1.0, 0}};
    struct ref_2int i_in[] = {{5, 9}, {5, 1}, {-3, 4}};
    struct ref_2int i_io[] = {{5, 2}, {5, 8}, {-3, 4}};
    struct ref_float_int f_in[] = {{1.5f, 4}, {0.5f, 6}}, f_io[] = {{1.5f, 5}, {0.5f, 6}};
    struct ref_double_int d_min[4];
    struct ref_2double p_in[] = {{3.0, 8.0}}, p_io[] = {{3.0, 2.0}};

    memcpy(d_min, d_io, sizeof(d_min));
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAXLOC), d_in, d_io, 4, dtype(MPI_DOUBLE_INT)),
                     COMM_OK);
    ck_assert(d_io[0].v == 2.5 && d_io[0].i == 3);
    ck_assert(d_io[1].v == 2.5 && d_io[1].i == 3);
    ck_assert(d_io[2].v == 1.0 && d_io[2].i == 2);
    ck_assert(d_io[3].v == 4.0 && d_io[3].i == 1);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MINLOC), d_in, d_min, 4, dtype(MPI_DOUBLE_INT)),
                     COMM_OK);
    ck_assert(d_min[0].v == 2.5 && d_min[0].i == 3);
    ck_assert(d_min[1].v == 2.5 && d_min[1].i == 3);
    ck_assert(d_min[2].v == 1.0 && d_min[2].i == 2);
    ck_assert(d_min[3].v == -1.0 && d_min[3].i == 0);

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MINLOC), i_in, i_io, 3, dtype(MPI_2INT)), COMM_OK);
    ck_assert(i_io[0].v == 5 && i_io[0].i == 2);
    ck_assert(i_io[1].v == 5 && i_io[1].i == 1);
    ck_assert(i_io[2].v == -3 && i_io[2].i == 4);

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAXLOC), f_in, f_io, 2, dtype(MPI_FLOAT_INT)),
                     COMM_OK);
    ck_assert(f_io[0].v == 1.5f && f_io[0].i == 4);
    ck_assert(f_io[1].v == 0.5f && f_io[1].i == 6);

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAXLOC), p_in, p_io, 1, dtype(MPI_2DOUBLE_PRECISION)),
                     COMM_OK);
    ck_assert(p_io[0].v == 3.0 && p_io[0].i == 2.0);
}
END_TEST

/* Fortran types: the sizes gfortran gives them, LOGICAL results 1 or 0 whatever non-zero value
 * means .true. on input, REAL*16 computed in binary128 (1 + 2**-100 is exact there, and rounds
 * to 1 in the x86 long double), complex products, MAXLOC/MINLOC on pairs of one type with the
 * index in the second, and the ops the standard does not define on them refused. */
START_TEST(fortran_types_reduce_with_their_fortran_meaning)
{
    static const struct {
        MPI_Datatype type;
        MPI_Count size;
    } sizes[] = {
        {MPI_CHARACTER, 1},
        {MPI_INTEGER, 4},
        {MPI_REAL, 4},
        {MPI_DOUBLE_PRECISION, 8},
        {MPI_LOGICAL, 4},
        {MPI_COMPLEX, 8},
        {MPI_DOUBLE_COMPLEX, 16},
        {MPI_2INTEGER, 8},
        {MPI_2REAL, 8},
        {MPI_2DOUBLE_PRECISION, 16},
        {MPI_INTEGER1, 1},
        {MPI_INTEGER2, 2},
        {MPI_INTEGER4, 4},
        {MPI_INTEGER8, 8},
        {MPI_REAL4, 4},
        {MPI_REAL8, 8},
        {MPI_REAL16, 16},
        {MPI_COMPLEX8, 8},
        {MPI_COMPLEX16, 16},
        {MPI_COMPLEX32, 32},
    };
    int32_t l_in[] = {1, 0, 1, 0, -1, 7, 0}, l_and[] = {1, 1, 0, 0, 1, 0, 0};
    int32_t l_or[7], l_xor[7];
    float _Complex c_in[] = {1.0f + 2.0f * I}, c_io[] = {3.0f + 4.0f * I};
    double _Complex z_in[] = {1.0 + 2.0 * I, 0.5}, z_io[] = {3.0 + 4.0 * I, 2.0 * I};
    struct ref_2float r_in[] = {{2.0f, 3.0f}, {1.0f, 9.0f}}, r_io[] = {{2.0f, 1.0f}, {5.0f, 2.0f}};
    struct ref_2double d_in[] = {{-1.5, 4.0}, {7.0, 2.0}, {7.0, 6.0}};
    struct ref_2double d_io[] = {{-1.5, 8.0}, {6.0, 1.0}, {7.0, 5.0}};
    struct ref_2int i_in[] = {{4, 10}, {4, 2}}, i_io[] = {{3, 1}, {4, 3}};

    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        struct comm_datatype *dt = dtype(sizes[k].type);

        ck_assert_msg(dt->size == sizes[k].size && dt->extent == (MPI_Aint)sizes[k].size,
                      "%s: size %lld extent %ld, expected %lld", dt->name, (long long)dt->size,
                      (long)dt->extent, (long long)sizes[k].size);
        ck_assert_msg(dt->contiguous, "%s is not contiguous", dt->name);
    }

    memcpy(l_or, l_and, sizeof(l_or));
    memcpy(l_xor, l_and, sizeof(l_xor));
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_LAND), l_in, l_and, 7, dtype(MPI_LOGICAL)), COMM_OK);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_LOR), l_in, l_or, 7, dtype(MPI_LOGICAL)), COMM_OK);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_LXOR), l_in, l_xor, 7, dtype(MPI_LOGICAL)), COMM_OK);
    {
        static const int32_t want_and[] = {1, 0, 0, 0, 1, 0, 0};
        static const int32_t want_or[] = {1, 1, 1, 0, 1, 1, 0};
        static const int32_t want_xor[] = {0, 1, 1, 0, 0, 1, 0};

        for (int i = 0; i < 7; i++) {
            ck_assert_msg(l_and[i] == want_and[i] && l_or[i] == want_or[i] &&
                              l_xor[i] == want_xor[i],
                          "LOGICAL %d: and %d or %d xor %d", i, l_and[i], l_or[i], l_xor[i]);
        }
    }

#if REF_HAVE_REAL16
    {
        ref_real16 q_in[] = {0x1p-100, 3.0, -2.0}, q_io[] = {1.0, 0.5, -2.5};
        ref_real16 q_prod[] = {3.0, 0.25}, q_pin[] = {0x1p-60, 4.0};
        ref_real16 q_max[] = {-2.0, 2.0}, q_min[2];
        ref_complex32 x_in[] = {1.0 + 2.0 * I}, x_io[] = {3.0 + 4.0 * I};
        ref_complex32 x_sum[] = {0x1p-100 * I};

        memcpy(q_min, q_max, sizeof(q_min));
        ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), q_in, q_io, 3, dtype(MPI_REAL16)), COMM_OK);
        ck_assert(q_io[0] > 1.0 && q_io[0] - 1.0 == 0x1p-100);
        ck_assert(q_io[1] == 3.5 && q_io[2] == -4.5);
        ck_assert_int_eq(comm_op_reduce(op_of(MPI_PROD), q_pin, q_prod, 2, dtype(MPI_REAL16)),
                         COMM_OK);
        ck_assert(q_prod[0] == 3.0 * 0x1p-60 && q_prod[1] == 1.0);
        ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAX), q_in, q_max, 2, dtype(MPI_REAL16)),
                         COMM_OK);
        ck_assert(q_max[0] == 0x1p-100 && q_max[1] == 3.0);
        ck_assert_int_eq(comm_op_reduce(op_of(MPI_MIN), q_in, q_min, 2, dtype(MPI_REAL16)),
                         COMM_OK);
        ck_assert(q_min[0] == -2.0 && q_min[1] == 2.0);
        ck_assert_int_eq(comm_op_reduce(op_of(MPI_PROD), x_in, x_io, 1, dtype(MPI_COMPLEX32)),
                         COMM_OK);
        ck_assert(x_io[0] == -5.0 + 10.0 * I);
        ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), x_in, x_sum, 1, dtype(MPI_COMPLEX32)),
                         COMM_OK);
        ck_assert(__real__ x_sum[0] == 1.0 && __imag__ x_sum[0] - 2.0 == 0x1p-100);
    }
#else
    ck_assert(!comm_op_accepts(op_of(MPI_SUM), dtype(MPI_REAL16)));
    ck_assert(!comm_op_accepts(op_of(MPI_SUM), dtype(MPI_COMPLEX32)));
#endif

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_PROD), c_in, c_io, 1, dtype(MPI_COMPLEX)), COMM_OK);
    ck_assert(c_io[0] == -5.0f + 10.0f * I);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_PROD), z_in, z_io, 2, dtype(MPI_DOUBLE_COMPLEX)),
                     COMM_OK);
    ck_assert(z_io[0] == -5.0 + 10.0 * I && z_io[1] == 1.0 * I);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), z_in, z_io, 1, dtype(MPI_COMPLEX16)), COMM_OK);
    ck_assert(z_io[0] == -4.0 + 12.0 * I);

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAXLOC), r_in, r_io, 2, dtype(MPI_2REAL)), COMM_OK);
    ck_assert(r_io[0].v == 2.0f && r_io[0].i == 1.0f);
    ck_assert(r_io[1].v == 5.0f && r_io[1].i == 2.0f);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MINLOC), d_in, d_io, 3, dtype(MPI_2DOUBLE_PRECISION)),
                     COMM_OK);
    ck_assert(d_io[0].v == -1.5 && d_io[0].i == 4.0);
    ck_assert(d_io[1].v == 6.0 && d_io[1].i == 1.0);
    ck_assert(d_io[2].v == 7.0 && d_io[2].i == 5.0);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAXLOC), i_in, i_io, 2, dtype(MPI_2INTEGER)),
                     COMM_OK);
    ck_assert(i_io[0].v == 4 && i_io[0].i == 10);
    ck_assert(i_io[1].v == 4 && i_io[1].i == 2);

    /* Not defined by the standard on these. */
    ck_assert(!comm_op_accepts(op_of(MPI_SUM), dtype(MPI_LOGICAL)));
    ck_assert(!comm_op_accepts(op_of(MPI_MAX), dtype(MPI_COMPLEX)));
    ck_assert(!comm_op_accepts(op_of(MPI_MAX), dtype(MPI_DOUBLE_COMPLEX)));
    ck_assert(!comm_op_accepts(op_of(MPI_LAND), dtype(MPI_REAL)));
    ck_assert(!comm_op_accepts(op_of(MPI_MAXLOC), dtype(MPI_INTEGER)));
    ck_assert(!comm_op_accepts(op_of(MPI_SUM), dtype(MPI_2DOUBLE_PRECISION)));
    ck_assert(!comm_op_accepts(op_of(MPI_BAND), dtype(MPI_REAL16)));
    for (int o = 0; o < REF_NOPS - 2; o++) {
        ck_assert(!comm_op_accepts(op_of(ref_ops[o]), dtype(MPI_CHARACTER)));
    }
}
END_TEST

/* A vector of MPI_2DOUBLE_PRECISION in buffers that end exactly at the last pair: every pair
 * reduced, the gaps untouched, and (under AddressSanitizer) nothing read past the end. */
START_TEST(vector_of_fortran_pairs_reduces_every_pair_within_the_buffer)
{
    struct comm_datatype *vec;
    enum { NPAIRS = 5, STRIDE = 3 };
    size_t bytes = ((NPAIRS - 1) * STRIDE + 1) * sizeof(struct ref_2double);
    struct ref_2double *in = malloc(bytes), *io = malloc(bytes);

    ck_assert(in != NULL && io != NULL);
    for (size_t k = 0; k < bytes / sizeof(*in); k++) {
        in[k] = (struct ref_2double){(double)(k % 4), (double)k};
        io[k] = (struct ref_2double){2.0, 100.0 + (double)k};
    }
    ck_assert_int_eq(
        comm_datatype_create_vector(NPAIRS, 1, STRIDE, dtype(MPI_2DOUBLE_PRECISION), &vec),
        COMM_OK);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAXLOC), in, io, 1, vec), COMM_OK);
    for (size_t k = 0; k < bytes / sizeof(*in); k++) {
        bool data = k % STRIDE == 0;
        bool in_wins = data && k % 4 >= 2; /* greater, or equal with a lower index */

        ck_assert_msg(io[k].v == (in_wins ? (double)(k % 4) : 2.0) &&
                          io[k].i == (in_wins ? (double)k : 100.0 + (double)k),
                      "pair %zu: (%g, %g)", k, io[k].v, io[k].i);
    }
    comm_datatype_release(vec);
    free(in);
    free(io);
}
END_TEST

START_TEST(vector_of_int_reduces_the_data_and_leaves_the_gaps)
{
    /* 2 elements of vector(3 blocks of 2, stride 4): data at 0,1 4,5 8,9 then 10,11 14,15 .. */
    struct comm_datatype *vec;
    int in[24], io[24], expect[24];
    bool is_data[24] = {false};

    ck_assert_int_eq(comm_datatype_create_vector(3, 2, 4, dtype(MPI_INT), &vec), COMM_OK);
    ck_assert_int_eq(comm_datatype_commit(vec), COMM_OK);
    ck_assert(!vec->contiguous);
    ck_assert_ptr_eq(vec->basic, MPI_INT);
    for (int e = 0; e < 2; e++) {
        for (int b = 0; b < 3; b++) {
            is_data[e * 10 + b * 4] = is_data[e * 10 + b * 4 + 1] = true;
        }
    }
    for (int i = 0; i < 24; i++) {
        in[i] = 100 + i;
        io[i] = -1000 * i - 1;
        expect[i] = is_data[i] ? in[i] + io[i] : io[i];
    }
    ck_assert(comm_op_accepts(op_of(MPI_SUM), vec));
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), in, io, 2, vec), COMM_OK);
    for (int i = 0; i < 24; i++) {
        ck_assert_msg(io[i] == expect[i], "int %d: %d, expected %d", i, io[i], expect[i]);
        ck_assert_int_eq(in[i], 100 + i);
    }

    /* MPI_REPLACE copies only the data too */
    for (int i = 0; i < 24; i++) {
        io[i] = -7;
    }
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_REPLACE), in, io, 2, vec), COMM_OK);
    for (int i = 0; i < 24; i++) {
        ck_assert_int_eq(io[i], is_data[i] ? in[i] : -7);
    }
    ck_assert(!comm_op_accepts(op_of(MPI_MAXLOC), vec));
    comm_datatype_release(vec);
}
END_TEST

/* Two buffers of N MPI_DOUBLE_INT pairs each ending where the last pair's data ends (its true
 * extent, 12 of its 16 bytes), right before a page that may not be read: a loop that read the
 * last struct's padding would be killed.  CUT false: buffers of whole structs. */
static void check_pairs_before_a_guard_page(size_t n, bool cut)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t extent = sizeof(struct ref_double_int);
    size_t bytes =
        n * extent - (cut ? extent - (offsetof(struct ref_double_int, i) + sizeof(int)) : 0);
    unsigned char *map =
        mmap(NULL, (size_t)page * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *in, *io;

    /* pages: IN's data, a guard, IO's data, a guard */
    ck_assert(map != MAP_FAILED && bytes <= (size_t)page);
    ck_assert_int_eq(mprotect(map + page, (size_t)page, PROT_NONE), 0);
    ck_assert_int_eq(mprotect(map + 3 * page, (size_t)page, PROT_NONE), 0);
    in = map + page - bytes;
    io = map + 3 * page - bytes;
    for (size_t k = 0; k < n; k++) {
        struct ref_double_int a = {(double)(k % 3), (int)k}, b = {1.0, (int)(100 + k)};

        memcpy(in + k * extent, &a, k + 1 < n ? extent : bytes - k * extent);
        memcpy(io + k * extent, &b, k + 1 < n ? extent : bytes - k * extent);
    }
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAXLOC), in, io, (MPI_Count)n, dtype(MPI_DOUBLE_INT)),
                     COMM_OK);
    for (size_t k = 0; k < n; k++) {
        struct ref_double_int got;
        bool in_wins = k % 3 >= 1; /* 2 > 1, and 1 == 1 with the lower index k < 100 + k */

        memcpy(&got, io + k * extent, k + 1 < n ? extent : bytes - k * extent);
        ck_assert_msg(got.v == (in_wins ? (double)(k % 3) : 1.0) &&
                          got.i == (in_wins ? (int)k : (int)(100 + k)),
                      "pair %zu of %zu: (%g, %d)", k, n, got.v, got.i);
    }
    ck_assert_int_eq(munmap(map, (size_t)page * 4), 0);
}

START_TEST(predefined_padded_pairs_never_read_past_the_last_pairs_data)
{
    static const size_t counts[] = {1, 2, 7, 130};

    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        check_pairs_before_a_guard_page(counts[c], true);
        check_pairs_before_a_guard_page(counts[c], false);
    }
}
END_TEST

START_TEST(derived_types_of_padded_pairs_reduce_every_pair)
{
    /* vector of MPI_DOUBLE_INT: 5 blocks of 1, stride 2; the gaps keep their values */
    struct comm_datatype *vec, *contig;
    struct ref_double_int in[10], io[10], expect[10];
    struct ref_short_int s_in[6], s_io[6];

    ck_assert_int_eq(comm_datatype_create_vector(5, 1, 2, dtype(MPI_DOUBLE_INT), &vec), COMM_OK);
    ck_assert_ptr_eq(vec->basic, MPI_DOUBLE_INT);
    memset(in, 0, sizeof(in));
    memset(io, 0, sizeof(io));
    for (int i = 0; i < 10; i++) {
        in[i].v = (double)(i % 3);
        in[i].i = 20 - i;
        io[i].v = 1.0;
        io[i].i = i;
    }
    memcpy(expect, io, sizeof(expect));
    for (int i = 0; i < 10; i += 2) {
        ref_reduce(MPI_MAXLOC, K_DOUBLE_INT, in, expect, (size_t)i);
    }
    ck_assert(comm_op_accepts(op_of(MPI_MAXLOC), vec));
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MAXLOC), in, io, 1, vec), COMM_OK);
    for (int i = 0; i < 10; i++) {
        ck_assert_msg(io[i].v == expect[i].v && io[i].i == expect[i].i, "pair %d", i);
    }
    comm_datatype_release(vec);

    /* contiguous of 3 MPI_SHORT_INT, twice: the padding of each struct is kept */
    ck_assert_int_eq(comm_datatype_create_contiguous(3, dtype(MPI_SHORT_INT), &contig), COMM_OK);
    for (int i = 0; i < 6; i++) {
        s_in[i] = (struct ref_short_int){.v = (short)(i - 2), .i = i};
        s_io[i] = (struct ref_short_int){.v = 0, .i = 100};
    }
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_MINLOC), s_in, s_io, 2, contig), COMM_OK);
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(s_io[i].v, i < 2 ? i - 2 : 0);
        ck_assert_int_eq(s_io[i].i, i <= 2 ? i : 100);
    }
    comm_datatype_release(contig);
}
END_TEST

START_TEST(misaligned_elements_are_reduced_through_aligned_copies)
{
    /* doubles at odd byte offsets: an hvector of 300 doubles, 13 bytes apart, from offset 1 */
    enum { N = 300, STRIDE = 13 };
    struct comm_datatype *hvec;
    unsigned char *in = malloc(N * STRIDE + 16), *io = malloc(N * STRIDE + 16);
    long double x = 0.25L, y;
    unsigned char raw[2 * sizeof(long double)];

    ck_assert(in != NULL && io != NULL);
    memset(in, 0xab, N * STRIDE + 16);
    memset(io, 0xcd, N * STRIDE + 16);
    for (int i = 0; i < N; i++) {
        double a = i * 0.5, b = 1000.0 - i;

        memcpy(in + 1 + i * STRIDE, &a, sizeof(a));
        memcpy(io + 1 + i * STRIDE, &b, sizeof(b));
    }
    ck_assert_int_eq(comm_datatype_create_hvector(N, 1, STRIDE, dtype(MPI_DOUBLE), &hvec), COMM_OK);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), in + 1, io + 1, 1, hvec), COMM_OK);
    for (int i = 0; i < N; i++) {
        double got;

        memcpy(&got, io + 1 + i * STRIDE, sizeof(got));
        ck_assert_msg(got == i * 0.5 + 1000.0 - i, "double %d: %g", i, got);
        for (int k = 1 + (int)sizeof(double); k < STRIDE + 1 && i < N - 1; k++) {
            ck_assert_uint_eq(io[i * STRIDE + k], 0xcd);
        }
    }
    ck_assert_uint_eq(io[0], 0xcd);
    comm_datatype_release(hvec);

    /* a dense but misaligned array of long double */
    memset(raw, 0, sizeof(raw));
    memcpy(raw + 1, &x, sizeof(x));
    memcpy(io + 3, &x, sizeof(x));
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_PROD), raw + 1, io + 3, 1, dtype(MPI_LONG_DOUBLE)),
                     COMM_OK);
    memcpy(&y, io + 3, sizeof(y));
    ck_assert(y == 0.0625L);
    free(in);
    free(io);
}
END_TEST

/* What user functions saw. */
static int user_calls;
static int user_lens[4];
static MPI_Datatype user_types[4];
static void *user_in[4], *user_io[4];

static void user_record(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    if (user_calls < 4) {
        user_lens[user_calls] = *len;
        user_types[user_calls] = *datatype;
        user_in[user_calls] = invec;
        user_io[user_calls] = inoutvec;
    }
    user_calls++;
}

/* Not commutative: inout = 10 * in + inout, over a vector of int (blocks of 1, stride 2). */
static void user_affine(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    const int *in = invec;
    int *io = inoutvec;
    struct comm_datatype *dt = comm_datatype_lookup(*datatype);

    ck_assert_ptr_nonnull(dt);
    for (int e = 0; e < *len; e++) {
        for (int b = 0; b < 3; b++) {
            int k = e * (int)(dt->extent / (MPI_Aint)sizeof(int)) + 2 * b;

            io[k] = 10 * in[k] + io[k];
        }
    }
    user_record(invec, inoutvec, len, datatype);
}

START_TEST(user_ops_get_the_count_and_the_users_datatype)
{
    struct comm_op *commute, *ordered;
    struct comm_datatype *vec;
    int in[12], io[12];

    ck_assert_int_eq(comm_op_create(user_record, true, &commute), COMM_OK);
    ck_assert_int_eq(comm_op_create(user_affine, false, &ordered), COMM_OK);
    ck_assert(commute->commutative && !commute->predefined);
    ck_assert(!ordered->commutative);
    ck_assert_ptr_eq(comm_op_lookup(commute->handle), commute);
    ck_assert_str_eq(comm_op_name(ordered), "user-defined op");

    ck_assert_int_eq(comm_datatype_create_vector(3, 1, 2, dtype(MPI_INT), &vec), COMM_OK);
    ck_assert(comm_op_accepts(ordered, vec));
    for (int i = 0; i < 12; i++) {
        in[i] = i;
        io[i] = -1;
    }
    user_calls = 0;
    ck_assert_int_eq(comm_op_reduce(ordered, in, io, 2, vec), COMM_OK);
    ck_assert_int_eq(user_calls, 1);
    ck_assert_int_eq(user_lens[0], 2);
    ck_assert_ptr_eq(user_types[0], vec->handle);
    ck_assert_ptr_eq(user_in[0], in);
    ck_assert_ptr_eq(user_io[0], io);
    /* extent of the vector is 5 ints: elements at 0,2,4 and 5,7,9 */
    for (int i = 0; i < 12; i++) {
        bool data = i == 0 || i == 2 || i == 4 || i == 5 || i == 7 || i == 9;

        ck_assert_int_eq(io[i], data ? 10 * i - 1 : -1);
    }

    /* a count above INT_MAX is cut into calls of at most INT_MAX elements; the buffers are
     * never touched by this function */
    user_calls = 0;
    ck_assert_int_eq(comm_op_reduce(commute, (const void *)(uintptr_t)0x10000,
                                    (void *)(uintptr_t)0x20000, (MPI_Count)INT_MAX + 5,
                                    dtype(MPI_INT)),
                     COMM_OK);
    ck_assert_int_eq(user_calls, 2);
    ck_assert_int_eq(user_lens[0], INT_MAX);
    ck_assert_int_eq(user_lens[1], 5);
    ck_assert_ptr_eq(user_types[1], MPI_INT);
    ck_assert(user_in[1] == (void *)(uintptr_t)(0x10000 + (uintptr_t)INT_MAX * sizeof(int)));
    ck_assert(user_io[1] == (void *)(uintptr_t)(0x20000 + (uintptr_t)INT_MAX * sizeof(int)));

    /* zero elements: no call */
    user_calls = 0;
    ck_assert_int_eq(comm_op_reduce(commute, in, io, 0, dtype(MPI_INT)), COMM_OK);
    ck_assert_int_eq(user_calls, 0);

    comm_datatype_release(vec);
    ck_assert_int_eq(comm_op_free(commute), COMM_OK);
    ck_assert_int_eq(comm_op_free(ordered), COMM_OK);
}
END_TEST

/* What an invoked op's data says: the value it was made with. */
struct invoke_tag {
    int value;
};
static const void *invoke_data_seen;

/* A user op of another calling convention: records its data and calls user_record. */
static void invoke_record(const void *invoke_data, void *invec, void *inoutvec, int *len,
                          MPI_Datatype *datatype)
{
    invoke_data_seen = invoke_data;
    user_record(invec, inoutvec, len, datatype);
}

START_TEST(invoked_user_ops_are_called_through_their_invoke_function_with_their_data)
{
    struct invoke_tag *tag = malloc(sizeof(*tag));
    struct comm_op *op;
    int in[4] = {0}, io[4] = {0};

    ck_assert_ptr_nonnull(tag);
    tag->value = 17;
    ck_assert_int_eq(comm_op_create_invoked(invoke_record, tag, false, &op), COMM_OK);
    ck_assert(!op->predefined && !op->commutative && op->user_fn == NULL);
    ck_assert_ptr_eq(comm_op_lookup(op->handle), op);
    user_calls = 0;
    invoke_data_seen = NULL;
    ck_assert_int_eq(comm_op_reduce(op, in, io, 4, dtype(MPI_INTEGER)), COMM_OK);
    ck_assert_int_eq(user_calls, 1);
    ck_assert_ptr_eq(invoke_data_seen, tag);
    ck_assert_int_eq(((const struct invoke_tag *)invoke_data_seen)->value, 17);
    ck_assert_int_eq(user_lens[0], 4);
    ck_assert_ptr_eq(user_types[0], MPI_INTEGER);
    ck_assert_ptr_eq(user_in[0], in);
    ck_assert_ptr_eq(user_io[0], io);
    /* the op owns the data: freed with it (a leak checker sees it otherwise) */
    ck_assert_int_eq(comm_op_free(op), COMM_OK);
}
END_TEST

START_TEST(refused_combinations_are_refused_and_leave_the_buffers)
{
    static const struct {
        MPI_Op op;
        MPI_Datatype type;
    } refused[] = {
        {MPI_LAND, MPI_DOUBLE},          {MPI_LOR, MPI_FLOAT},      {MPI_LXOR, MPI_INTEGER},
        {MPI_BAND, MPI_FLOAT},           {MPI_BXOR, MPI_LOGICAL},   {MPI_MAX, MPI_C_BOOL},
        {MPI_MAX, MPI_C_DOUBLE_COMPLEX}, {MPI_SUM, MPI_BYTE},       {MPI_SUM, MPI_2INT},
        {MPI_SUM, MPI_PACKED},           {MPI_PROD, MPI_CHARACTER}, {MPI_MAXLOC, MPI_INT},
        {MPI_MINLOC, MPI_DOUBLE},        {MPI_BOR, MPI_DOUBLE_INT}, {MPI_LAND, MPI_BYTE},
    };
    struct comm_datatype *mixed, *types[2];
    int blocklens[2] = {1, 1};
    MPI_Aint disps[2] = {0, 8};
    unsigned char in[64], io[64], saved[64];

    memset(in, 1, sizeof(in));
    memset(io, 2, sizeof(io));
    memcpy(saved, io, sizeof(io));
    for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
        struct comm_datatype *dt = dtype(refused[k].type);

        ck_assert_msg(!comm_op_accepts(op_of(refused[k].op), dt), "%s on %s accepted",
                      comm_op_name(op_of(refused[k].op)), dt->name);
        ck_assert_int_eq(comm_op_reduce(op_of(refused[k].op), in, io, 1, dt), COMM_ERR_BAD_PARAM);
        ck_assert(memcmp(io, saved, sizeof(io)) == 0);
    }

    /* a struct of int and double has no single basic type: only REPLACE, NO_OP, user ops */
    types[0] = dtype(MPI_INT);
    types[1] = dtype(MPI_DOUBLE);
    ck_assert_int_eq(comm_datatype_create_struct(2, blocklens, disps, types, &mixed), COMM_OK);
    ck_assert_ptr_eq(mixed->basic, MPI_DATATYPE_NULL);
    ck_assert(!comm_op_accepts(op_of(MPI_SUM), mixed));
    ck_assert(!comm_op_accepts(op_of(MPI_MAX), mixed));
    ck_assert(comm_op_accepts(op_of(MPI_REPLACE), mixed));
    ck_assert(comm_op_accepts(op_of(MPI_NO_OP), mixed));
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), in, io, 2, mixed), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_op_reduce(op_of(MPI_REPLACE), in, io, 2, mixed), COMM_OK);
    for (int i = 0; i < 32; i++) {
        bool data = i < 4 || (i >= 8 && i < 16) || (i >= 16 && i < 20) || (i >= 24 && i < 32);

        ck_assert_uint_eq(io[i], data ? 1 : 2);
    }
    comm_datatype_release(mixed);

    ck_assert_int_eq(comm_op_reduce(op_of(MPI_SUM), in, io, -1, dtype(MPI_INT)),
                     COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(handles_references_and_free)
{
    struct comm_op *op, *again;

    ck_assert_ptr_null(comm_op_lookup(MPI_OP_NULL));
    ck_assert_ptr_null(comm_op_lookup((MPI_Op)(uintptr_t)0x14f));
    ck_assert_ptr_null(comm_op_lookup((MPI_Op)(uintptr_t)0x13f));
    ck_assert_ptr_null(comm_op_lookup((MPI_Op)(uintptr_t)0xdeadbee0));
    ck_assert_int_eq(op_of(MPI_SUM)->index, COMM_OP_SUM);
    ck_assert_int_eq(op_of(MPI_NO_OP)->index, COMM_OP_NO_OP);

    /* predefined: references are no-ops, freeing is refused */
    comm_op_retain(op_of(MPI_MAX));
    comm_op_release(op_of(MPI_MAX));
    ck_assert_int_eq(comm_op_free(op_of(MPI_MAX)), COMM_ERR_BAD_PARAM);
    ck_assert_ptr_nonnull(comm_op_lookup(MPI_MAX));

    ck_assert_int_eq(comm_op_create(user_record, true, &op), COMM_OK);
    ck_assert_int_eq(comm_op_create(user_record, false, &again), COMM_OK);
    ck_assert_ptr_ne(op, again);
    ck_assert_ptr_eq(comm_op_lookup(op->handle), op);
    ck_assert_ptr_eq(comm_op_lookup(again->handle), again);

    /* a pending operation keeps a freed op usable; its handle is gone at once */
    comm_op_retain(op);
    ck_assert_int_eq(comm_op_free(op), COMM_OK);
    ck_assert_ptr_null(comm_op_lookup((MPI_Op)op));
    ck_assert_ptr_eq(comm_op_lookup(again->handle), again);
    ck_assert_int_eq(comm_op_free(op), COMM_ERR_BAD_PARAM);
    user_calls = 0;
    ck_assert_int_eq(comm_op_reduce(op, &user_calls, &user_lens[3], 1, dtype(MPI_INT)), COMM_OK);
    ck_assert_int_eq(user_calls, 1);
    comm_op_release(op); /* the last reference: valgrind checks that it is freed */
    ck_assert_int_eq(comm_op_free(again), COMM_OK);
}
END_TEST

/* ---- the MPI API (needs MPI_Init) ------------------------------------------------------------ */

static void api_setup(void)
{
    ck_assert_int_eq(MPI_Init(NULL, NULL), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
}

static void api_teardown(void)
{
    MPI_Finalize();
}

static int error_class(int code)
{
    int cls = -1;

    ck_assert_int_eq(MPI_Error_class(code, &cls), MPI_SUCCESS);
    return cls;
}

START_TEST(reduce_local_refuses_bad_arguments_with_their_class)
{
    int in[4] = {1, 2, 3, 4}, io[4] = {5, 6, 7, 8};
    double d_in[2] = {1.0, 0.0}, d_io[2] = {1.0, 1.0};

    ck_assert_int_eq(error_class(MPI_Reduce_local(in, io, -1, MPI_INT, MPI_SUM)), MPI_ERR_COUNT);
    ck_assert_int_eq(error_class(MPI_Reduce_local(in, io, 4, MPI_DATATYPE_NULL, MPI_SUM)),
                     MPI_ERR_TYPE);
    ck_assert_int_eq(error_class(MPI_Reduce_local(in, io, 4, MPI_INT, MPI_OP_NULL)), MPI_ERR_OP);
    ck_assert_int_eq(
        error_class(MPI_Reduce_local(in, io, 4, MPI_INT, (MPI_Op)(uintptr_t)0xdeadbee0)),
        MPI_ERR_OP);
    ck_assert_int_eq(error_class(MPI_Reduce_local(d_in, d_io, 2, MPI_DOUBLE, MPI_LAND)),
                     MPI_ERR_OP);
    ck_assert_int_eq(error_class(MPI_Reduce_local(in, io, 2, MPI_INT, MPI_MAXLOC)), MPI_ERR_OP);
    ck_assert_int_eq(error_class(MPI_Reduce_local(MPI_IN_PLACE, io, 4, MPI_INT, MPI_SUM)),
                     MPI_ERR_BUFFER);
    ck_assert_int_eq(error_class(MPI_Reduce_local(in, NULL, 4, MPI_INT, MPI_SUM)), MPI_ERR_BUFFER);
    ck_assert_int_eq(io[0], 5);
    ck_assert(d_io[1] == 1.0);

    /* zero elements of anything valid: nothing to do */
    ck_assert_int_eq(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Reduce_local(in, io, 4, MPI_INT, MPI_SUM), MPI_SUCCESS);
    ck_assert_int_eq(io[0], 6);
    ck_assert_int_eq(io[3], 12);
}
END_TEST

START_TEST(op_create_commutative_and_free_round_trip)
{
    MPI_Op op = MPI_OP_NULL, sum = MPI_SUM;
    int commute = -1, in[3] = {1, 2, 3}, io[3] = {0, 0, 0};

    ck_assert_int_eq(error_class(MPI_Op_create(NULL, 1, &op)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Op_create(user_record, 1, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Op_create(user_record, 0, &op), MPI_SUCCESS);
    ck_assert_ptr_ne(op, MPI_OP_NULL);
    ck_assert_int_eq(MPI_Op_commutative(op, &commute), MPI_SUCCESS);
    ck_assert_int_eq(commute, 0);
    ck_assert_int_eq(MPI_Op_commutative(MPI_MAX, &commute), MPI_SUCCESS);
    ck_assert_int_eq(commute, 1);
    ck_assert_int_eq(error_class(MPI_Op_commutative(op, NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Op_commutative(MPI_OP_NULL, &commute)), MPI_ERR_OP);

    user_calls = 0;
    ck_assert_int_eq(MPI_Reduce_local(in, io, 3, MPI_DOUBLE_INT, op), MPI_SUCCESS);
    ck_assert_int_eq(user_calls, 1);
    ck_assert_int_eq(user_lens[0], 3);
    ck_assert_ptr_eq(user_types[0], MPI_DOUBLE_INT);

    ck_assert_int_eq(error_class(MPI_Op_free(&sum)), MPI_ERR_OP);
    ck_assert_ptr_eq(sum, MPI_SUM);
    ck_assert_int_eq(error_class(MPI_Op_free(NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Op_free(&op), MPI_SUCCESS);
    ck_assert_ptr_eq(op, MPI_OP_NULL);
    ck_assert_int_eq(error_class(MPI_Op_free(&op)), MPI_ERR_OP);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("op");
    TCase *tc = comm_test_case("op");

    tcase_add_test(tc, predefined_ops_accept_exactly_the_types_of_their_groups);
    tcase_add_test(tc, every_predefined_op_matches_the_reference_on_every_type_it_accepts);
    tcase_add_test(tc, integer_sums_and_products_wrap_like_c);
    tcase_add_test(tc, logical_and_bitwise_ops_work_on_aint_offset_and_count);
    tcase_add_test(tc, maxloc_and_minloc_keep_the_lower_index_on_ties);
    tcase_add_test(tc, fortran_types_reduce_with_their_fortran_meaning);
    tcase_add_test(tc, vector_of_fortran_pairs_reduces_every_pair_within_the_buffer);
    tcase_add_test(tc, vector_of_int_reduces_the_data_and_leaves_the_gaps);
    tcase_add_test(tc, derived_types_of_padded_pairs_reduce_every_pair);
    tcase_add_test(tc, predefined_padded_pairs_never_read_past_the_last_pairs_data);
    tcase_add_test(tc, misaligned_elements_are_reduced_through_aligned_copies);
    tcase_add_test(tc, user_ops_get_the_count_and_the_users_datatype);
    tcase_add_test(tc, invoked_user_ops_are_called_through_their_invoke_function_with_their_data);
    tcase_add_test(tc, refused_combinations_are_refused_and_leave_the_buffers);
    tcase_add_test(tc, handles_references_and_free);
    suite_add_tcase(s, tc);

    tc = comm_test_case("api");
    tcase_add_checked_fixture(tc, api_setup, api_teardown);
    tcase_add_test(tc, reduce_local_refuses_bad_arguments_with_their_class);
    tcase_add_test(tc, op_create_commutative_and_free_round_trip);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
