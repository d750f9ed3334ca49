/*
 * api_pack_external.c - the "external32" data representation (MPI_Pack_external and friends),
 * MPI_Type_match_size and the MPI_Type_create_f90_* types.
 *
 * Layer: api.  Must not: walk type descriptions (the engine packs natively first).
 *
 * external32 (MPI-3.1 section 13.5.2) is big-endian, IEEE floating point, with the standard's
 * sizes: MPI_LONG and MPI_UNSIGNED_LONG are 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE a 16-byte
 * IEEE binary128, MPI_AINT, MPI_OFFSET and MPI_COUNT 8.  Data is packed natively by the
 * datatype engine, then each basic element of the packed stream is converted; the order of
 * basic elements in that stream is found from the type's constructor (its contents), so a
 * struct of mixed types converts each member as its own type.  A value that does not fit its
 * external size (a long above 2^31, a wide character above 0xffff) is MPI_ERR_CONVERSION.
 * Threads: reentrant.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/datatype/datatype.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum ext_kind {
    EXT_BYTES, /* copied as is */
    EXT_SINT,
    EXT_UINT,
    EXT_FLOAT, /* IEEE of the same size: byte order only */
    EXT_LDBL,  /* native long double <-> binary128 */
};

/* One member of a predefined type; a complex is two members, a pair type two as well. */
struct ext_member {
    enum ext_kind kind;
    unsigned char native, ext;
};

struct ext_basic {
    MPI_Datatype handle;
    struct ext_member m[2]; /* m[1].native == 0: one member */
};

#define EXT_I(t)                                                                                   \
    {                                                                                              \
        EXT_SINT, sizeof(t), sizeof(t)                                                             \
    }
#define EXT_U(t)                                                                                   \
    {                                                                                              \
        EXT_UINT, sizeof(t), sizeof(t)                                                             \
    }
#define EXT_F(t)                                                                                   \
    {                                                                                              \
        EXT_FLOAT, sizeof(t), sizeof(t)                                                            \
    }
#define EXT_LD                                                                                     \
    {                                                                                              \
        EXT_LDBL, sizeof(long double), 16                                                          \
    }

static const struct ext_basic ext_basics[] = {
    {MPI_CHAR, {{EXT_BYTES, 1, 1}}},
    {MPI_SIGNED_CHAR, {{EXT_BYTES, 1, 1}}},
    {MPI_UNSIGNED_CHAR, {{EXT_BYTES, 1, 1}}},
    {MPI_BYTE, {{EXT_BYTES, 1, 1}}},
    {MPI_PACKED, {{EXT_BYTES, 1, 1}}},
    {MPI_CHARACTER, {{EXT_BYTES, 1, 1}}},
    {MPI_C_BOOL, {{EXT_BYTES, 1, 1}}},
    {MPI_WCHAR, {{EXT_UINT, sizeof(wchar_t), 2}}},
    {MPI_SHORT, {EXT_I(short)}},
    {MPI_UNSIGNED_SHORT, {EXT_U(unsigned short)}},
    {MPI_INT, {EXT_I(int)}},
    {MPI_UNSIGNED, {EXT_U(unsigned)}},
    {MPI_LONG, {{EXT_SINT, sizeof(long), 4}}},
    {MPI_UNSIGNED_LONG, {{EXT_UINT, sizeof(unsigned long), 4}}},
    {MPI_LONG_LONG_INT, {EXT_I(long long)}},
    {MPI_UNSIGNED_LONG_LONG, {EXT_U(unsigned long long)}},
    {MPI_INT8_T, {EXT_I(int8_t)}},
    {MPI_INT16_T, {EXT_I(int16_t)}},
    {MPI_INT32_T, {EXT_I(int32_t)}},
    {MPI_INT64_T, {EXT_I(int64_t)}},
    {MPI_UINT8_T, {EXT_U(uint8_t)}},
    {MPI_UINT16_T, {EXT_U(uint16_t)}},
    {MPI_UINT32_T, {EXT_U(uint32_t)}},
    {MPI_UINT64_T, {EXT_U(uint64_t)}},
    {MPI_AINT, {{EXT_SINT, sizeof(MPI_Aint), 8}}},
    {MPI_COUNT, {{EXT_SINT, sizeof(MPI_Count), 8}}},
    {MPI_OFFSET, {{EXT_SINT, sizeof(MPI_Offset), 8}}},
    {MPI_INTEGER, {EXT_I(int32_t)}},
    {MPI_LOGICAL, {EXT_I(int32_t)}},
    {MPI_INTEGER1, {EXT_I(int8_t)}},
    {MPI_INTEGER2, {EXT_I(int16_t)}},
    {MPI_INTEGER4, {EXT_I(int32_t)}},
    {MPI_INTEGER8, {EXT_I(int64_t)}},
    {MPI_FLOAT, {EXT_F(float)}},
    {MPI_DOUBLE, {EXT_F(double)}},
    {MPI_REAL, {EXT_F(float)}},
    {MPI_DOUBLE_PRECISION, {EXT_F(double)}},
    {MPI_REAL4, {EXT_F(float)}},
    {MPI_REAL8, {EXT_F(double)}},
    {MPI_LONG_DOUBLE, {EXT_LD}},
    {MPI_REAL16, {EXT_LD}},
    {MPI_C_FLOAT_COMPLEX, {EXT_F(float), EXT_F(float)}},
    {MPI_C_DOUBLE_COMPLEX, {EXT_F(double), EXT_F(double)}},
    {MPI_C_LONG_DOUBLE_COMPLEX, {EXT_LD, EXT_LD}},
    {MPI_COMPLEX, {EXT_F(float), EXT_F(float)}},
    {MPI_DOUBLE_COMPLEX, {EXT_F(double), EXT_F(double)}},
    {MPI_COMPLEX8, {EXT_F(float), EXT_F(float)}},
    {MPI_COMPLEX16, {EXT_F(double), EXT_F(double)}},
    {MPI_COMPLEX32, {EXT_LD, EXT_LD}},
    {MPI_CXX_BOOL, {{EXT_BYTES, 1, 1}}},
    {MPI_CXX_FLOAT_COMPLEX, {EXT_F(float), EXT_F(float)}},
    {MPI_CXX_DOUBLE_COMPLEX, {EXT_F(double), EXT_F(double)}},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, {EXT_LD, EXT_LD}},
    {MPI_FLOAT_INT, {EXT_F(float), EXT_I(int)}},
    {MPI_DOUBLE_INT, {EXT_F(double), EXT_I(int)}},
    {MPI_LONG_INT, {{EXT_SINT, sizeof(long), 4}, EXT_I(int)}},
    {MPI_2INT, {EXT_I(int), EXT_I(int)}},
    {MPI_SHORT_INT, {EXT_I(short), EXT_I(int)}},
    {MPI_LONG_DOUBLE_INT, {EXT_LD, EXT_I(int)}},
    {MPI_2INTEGER, {EXT_I(int), EXT_I(int)}},
    {MPI_2REAL, {EXT_F(float), EXT_F(float)}},
    {MPI_2DOUBLE_PRECISION, {EXT_F(double), EXT_F(double)}},
};

enum { EXT_NBASICS = sizeof(ext_basics) / sizeof(ext_basics[0]) };

static const struct ext_basic *ext_basic(MPI_Datatype handle)
{
    for (size_t i = 0; i < EXT_NBASICS; i++) {
        if (ext_basics[i].handle == handle) {
            return &ext_basics[i];
        }
    }
    return NULL;
}

/* Native and external bytes of one basic element. */
static void ext_basic_sizes(const struct ext_basic *b, size_t *native_out, size_t *ext_out)
{
    *native_out = (size_t)b->m[0].native + b->m[1].native;
    *ext_out = (size_t)b->m[0].ext + b->m[1].ext;
}

/* Native (little-endian here) integer bytes <-> a 64-bit value. */
static uint64_t ext_load_native(const unsigned char *p, size_t n, bool is_signed)
{
    uint64_t v = 0;

    memcpy(&v, p, n); /* little-endian host: the low bytes */
    if (is_signed && n < 8 && (p[n - 1] & 0x80)) {
        v |= ~UINT64_C(0) << (8 * n);
    }
    return v;
}

static bool ext_fits(uint64_t v, size_t n, bool is_signed)
{
    if (n >= 8) {
        return true;
    }
    if (is_signed) {
        int64_t s = (int64_t)v, lim = INT64_C(1) << (8 * n - 1);

        return s >= -lim && s < lim;
    }
    return v < UINT64_C(1) << (8 * n);
}

static void ext_put_be(unsigned char *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[n - 1 - i] = (unsigned char)(v >> (8 * i));
    }
}

static uint64_t ext_get_be(const unsigned char *p, size_t n, bool is_signed)
{
    uint64_t v = 0;

    for (size_t i = 0; i < n; i++) {
        v = v << 8 | p[i];
    }
    if (is_signed && n < 8 && (p[0] & 0x80)) {
        v |= ~UINT64_C(0) << (8 * n);
    }
    return v;
}

/* The native long double at NATIVE as big-endian binary128 at EXT, or the reverse. */
static void ext_ldbl(unsigned char *native, unsigned char *ext, bool to_ext)
{
#if LDBL_MANT_DIG == 64
    /* x87 extended: 64-bit significand with its integer bit, then sign and 15-bit exponent;
     * binary128 has the same exponent and a 112-bit fraction without the integer bit. */
    uint64_t mant, hi, lo;
    uint16_t se;

    if (to_ext) {
        memcpy(&mant, native, 8);
        memcpy(&se, native + 8, 2);
        hi = (uint64_t)se << 48 | (mant & ~(UINT64_C(1) << 63)) >> 15;
        lo = mant << 49;
        ext_put_be(ext, hi, 8);
        ext_put_be(ext + 8, lo, 8);
    } else {
        hi = ext_get_be(ext, 8, false);
        lo = ext_get_be(ext + 8, 8, false);
        se = (uint16_t)(hi >> 48);
        mant = (hi & ((UINT64_C(1) << 48) - 1)) << 15 | lo >> 49;
        if ((se & 0x7fff) != 0) {
            mant |= UINT64_C(1) << 63; /* normal, infinite or NaN: the integer bit */
        }
        memset(native, 0, sizeof(long double));
        memcpy(native, &mant, 8);
        memcpy(native + 8, &se, 2);
    }
#elif LDBL_MANT_DIG == 113
    for (size_t i = 0; i < 16; i++) {
        if (to_ext) {
            ext[i] = native[15 - i];
        } else {
            native[15 - i] = ext[i];
        }
    }
#else
#error "external32: no conversion for this long double"
#endif
}

/* Converts one member between NATIVE and EXT; false when the value does not fit. */
static bool ext_convert_member(const struct ext_member *m, unsigned char *native,
                               unsigned char *ext, bool to_ext)
{
    bool is_signed = m->kind == EXT_SINT;

    switch (m->kind) {
    case EXT_BYTES:
        memcpy(to_ext ? ext : native, to_ext ? native : ext, m->native);
        return true;
    case EXT_LDBL:
        ext_ldbl(native, ext, to_ext);
        return true;
    case EXT_FLOAT:
        is_signed = false;
        break;
    case EXT_SINT:
    case EXT_UINT:
        break;
    }
    if (to_ext) {
        uint64_t v = ext_load_native(native, m->native, is_signed);

        if (m->kind != EXT_FLOAT && !ext_fits(v, m->ext, is_signed)) {
            return false;
        }
        ext_put_be(ext, v, m->ext);
    } else {
        uint64_t v = ext_get_be(ext, m->ext, is_signed);

        if (m->kind != EXT_FLOAT && !ext_fits(v, m->native, is_signed)) {
            return false;
        }
        memcpy(native, &v, m->native);
    }
    return true;
}

/* A walk over the basic elements of packed data: positions in both streams. */
struct ext_walk {
    unsigned char *native; /* NULL: only count the external size */
    unsigned char *ext;
    size_t ext_size;
    bool to_ext;
    bool failed; /* a value did not fit */
};

/*
 * Walks COUNT elements of DT in packed order.  A type whose elements are all one basic type
 * is a run of them; a struct walks its blocks; any other constructor is a sequence of its one
 * old type (its packed size over the old type's).  Returns MPI_SUCCESS or MPI_ERR_TYPE for a
 * type with no external32 form.
 */
static int ext_walk_type(const struct comm_datatype *dt, MPI_Count count, struct ext_walk *w)
{
    const struct ext_basic *b = dt->basic != MPI_DATATYPE_NULL ? ext_basic(dt->basic) : NULL;

    if (count == 0 || dt->size == 0) {
        return MPI_SUCCESS;
    }
    if (b != NULL) {
        size_t native, ext;
        MPI_Count n;

        ext_basic_sizes(b, &native, &ext);
        n = count * (dt->size / (MPI_Count)native);
        for (MPI_Count i = 0; i < n && w->native != NULL; i++) {
            for (int k = 0; k < 2 && b->m[k].native > 0; k++) {
                if (!ext_convert_member(&b->m[k], w->native, w->ext, w->to_ext)) {
                    w->failed = true;
                }
                w->native += b->m[k].native;
                w->ext += b->m[k].ext;
            }
        }
        w->ext_size += (size_t)n * ext;
        return MPI_SUCCESS;
    }
    if (dt->predefined) {
        return MPI_ERR_TYPE;
    }
    if (dt->combiner == MPI_COMBINER_STRUCT) {
        for (MPI_Count c = 0; c < count; c++) {
            for (int i = 0; i < dt->integers[0]; i++) {
                int err = ext_walk_type(comm_dt_object(dt->types[i]), dt->integers[1 + i], w);

                if (err != MPI_SUCCESS) {
                    return err;
                }
            }
        }
        return MPI_SUCCESS;
    }
    if (dt->ntype != 1) {
        return MPI_ERR_TYPE;
    }
    {
        const struct comm_datatype *old = comm_dt_object(dt->types[0]);

        return old->size == 0 ? MPI_SUCCESS : ext_walk_type(old, count * (dt->size / old->size), w);
    }
}

static int ext_enter(const char *func, const char *datarep, int count, MPI_Datatype datatype,
                     struct comm_datatype **dt_out)
{
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (datarep == NULL || strcmp(datarep, "external32") != 0) {
        return comm_api_error(NULL, MPI_ERR_UNSUPPORTED_DATAREP,
                              "%s: data representation '%s' is not supported (only "
                              "\"external32\")",
                              func, datarep == NULL ? "(null)" : datarep);
    }
    if (count < 0) {
        return comm_api_error(NULL, MPI_ERR_COUNT, "%s: invalid count %d", func, count);
    }
    return comm_api_check_datatype(func, NULL, datatype, dt_out);
}

/* The external32 size of COUNT elements of DT, or the error raised. */
static int ext_size(const char *func, const struct comm_datatype *dt, int count, size_t *size_out)
{
    struct ext_walk w = {.native = NULL};
    int err = ext_walk_type(dt, count, &w);

    if (err != MPI_SUCCESS) {
        return comm_api_error(NULL, err, "%s: datatype %s has no external32 form", func,
                              dt->name[0] ? dt->name : "(derived)");
    }
    *size_out = w.ext_size;
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
    static const char func[] = "MPI_Pack_external_size";
    struct comm_datatype *dt;
    size_t n = 0;
    int err = ext_enter(func, datarep, incount, datatype, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (size == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: size is NULL", func);
    }
    err = ext_size(func, dt, incount, &n);
    if (err == MPI_SUCCESS) {
        *size = (MPI_Aint)n;
    }
    return err;
}
COMM_API_ALIAS(MPI_Pack_external_size);

/* Checks the position and room of a pack or unpack of EXT bytes into a buffer of SIZE. */
static int ext_check_room(const char *func, const void *buf, MPI_Aint size, MPI_Aint *position,
                          size_t ext)
{
    if (position == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: position is NULL", func);
    }
    if (size < 0 || *position < 0 || *position > size) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: invalid position %ld (the buffer size is %ld)", func,
                              (long)*position, (long)size);
    }
    if ((size_t)(size - *position) < ext) {
        return comm_api_error(NULL, MPI_ERR_TRUNCATE,
                              "%s: %zu bytes do not fit in the %ld left after position %ld", func,
                              ext, (long)(size - *position), (long)*position);
    }
    if (ext > 0 && buf == NULL) {
        return comm_api_error(NULL, MPI_ERR_BUFFER, "%s: the packed buffer is NULL", func);
    }
    return MPI_SUCCESS;
}

/* Packs or unpacks COUNT elements of DT between USER and the external buffer at EXT. */
static int ext_move(const char *func, struct comm_datatype *dt, int count, void *user,
                    unsigned char *ext, bool to_ext)
{
    size_t native_bytes = (size_t)dt->size * (size_t)count;
    unsigned char *native = malloc(native_bytes > 0 ? native_bytes : 1);
    struct ext_walk w = {.native = native, .ext = ext, .to_ext = to_ext};

    if (native == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    if (to_ext) {
        comm_datatype_pack(dt, user, count, 0, native, native_bytes);
    }
    ext_walk_type(dt, count, &w); /* the type was walked once already by ext_size */
    if (!to_ext && !w.failed) {
        comm_datatype_unpack(dt, user, count, 0, native, native_bytes);
    }
    free(native);
    if (w.failed) {
        return comm_api_error(NULL, MPI_ERR_CONVERSION,
                              "%s: a value does not fit in its %s size (e.g. a long beyond 32 "
                              "bits in external32)",
                              func, to_ext ? "external32" : "native");
    }
    return MPI_SUCCESS;
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    static const char func[] = "MPI_Pack_external";
    struct comm_datatype *dt;
    size_t n = 0;
    int err = ext_enter(func, datarep, incount, datatype, &dt);

    if (err == MPI_SUCCESS) {
        err = ext_size(func, dt, incount, &n);
    }
    if (err == MPI_SUCCESS) {
        err = ext_check_room(func, outbuf, outsize, position, n);
    }
    if (err == MPI_SUCCESS && n > 0) {
        err = ext_move(func, dt, incount, (void *)(uintptr_t)inbuf,
                       (unsigned char *)outbuf + *position, true);
    }
    if (err == MPI_SUCCESS) {
        *position += (MPI_Aint)n;
    }
    return err;
}
COMM_API_ALIAS(MPI_Pack_external);

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    static const char func[] = "MPI_Unpack_external";
    struct comm_datatype *dt;
    size_t n = 0;
    int err = ext_enter(func, datarep, outcount, datatype, &dt);

    if (err == MPI_SUCCESS) {
        err = ext_size(func, dt, outcount, &n);
    }
    if (err == MPI_SUCCESS) {
        err = ext_check_room(func, inbuf, insize, position, n);
    }
    if (err == MPI_SUCCESS && n > 0) {
        err = ext_move(func, dt, outcount, outbuf, (unsigned char *)(uintptr_t)inbuf + *position,
                       false);
    }
    if (err == MPI_SUCCESS) {
        *position += (MPI_Aint)n;
    }
    return err;
}
COMM_API_ALIAS(MPI_Unpack_external);

/* ---- MPI_Type_match_size and the Fortran 90 parameterized types ---------------------------- */

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const struct {
        int typeclass;
        int size;
        MPI_Datatype type;
    } matches[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},   {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},   {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},         {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, 16, MPI_REAL16},       {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16}, {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
    };
    int err = comm_api_check_running("MPI_Type_match_size");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (datatype == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Type_match_size: datatype is NULL");
    }
    if (typeclass < MPI_TYPECLASS_INTEGER || typeclass > MPI_TYPECLASS_COMPLEX) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Type_match_size: invalid typeclass %d",
                              typeclass);
    }
    for (size_t i = 0; i < sizeof(matches) / sizeof(matches[0]); i++) {
        if (matches[i].typeclass == typeclass && matches[i].size == size) {
            *datatype = matches[i].type;
            return MPI_SUCCESS;
        }
    }
    return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Type_match_size: no %s type of %d bytes",
                          typeclass == MPI_TYPECLASS_INTEGER ? "integer"
                          : typeclass == MPI_TYPECLASS_REAL  ? "real"
                                                             : "complex",
                          size);
}
COMM_API_ALIAS(MPI_Type_match_size);

/*
 * The smallest predefined type with the precision (decimal digits P) and range (decimal
 * exponent R) asked for, as gfortran's SELECTED_INT_KIND / SELECTED_REAL_KIND choose; the
 * standard lets an implementation return a predefined type (MPI-3.1 section 17.1.9).
 * MPI_UNDEFINED means "not constrained".
 */
static int f90_select(const char *func, int typeclass, int p, int r, MPI_Datatype *newtype)
{
    /* Decimal precision and range of IEEE binary32, binary64 and x87 extended. */
    static const struct {
        int p, r, size;
    } reals[] = {{6, 37, 4}, {15, 307, 8}, {18, 4931, 16}};
    static const struct {
        int r, size;
    } ints[] = {{2, 1}, {4, 2}, {9, 4}, {18, 8}};
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (newtype == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: newtype is NULL", func);
    }
    if (typeclass == MPI_TYPECLASS_INTEGER) {
        for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
            if (r <= ints[i].r) {
                return PMPI_Type_match_size(typeclass, ints[i].size, newtype);
            }
        }
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: no integer type has a range of 10^%d (at most 10^18)", func, r);
    }
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: p and r are both MPI_UNDEFINED", func);
    }
    for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++) {
        if ((p == MPI_UNDEFINED || p <= reals[i].p) && (r == MPI_UNDEFINED || r <= reals[i].r)) {
            int size = typeclass == MPI_TYPECLASS_COMPLEX ? 2 * reals[i].size : reals[i].size;

            return PMPI_Type_match_size(typeclass, size, newtype);
        }
    }
    return comm_api_error(NULL, MPI_ERR_ARG,
                          "%s: no type has a precision of %d digits and a range of 10^%d (at "
                          "most 18 digits and 10^4931)",
                          func, p, r);
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return f90_select("MPI_Type_create_f90_integer", MPI_TYPECLASS_INTEGER, MPI_UNDEFINED, r,
                      newtype);
}
COMM_API_ALIAS(MPI_Type_create_f90_integer);

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return f90_select("MPI_Type_create_f90_real", MPI_TYPECLASS_REAL, p, r, newtype);
}
COMM_API_ALIAS(MPI_Type_create_f90_real);

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return f90_select("MPI_Type_create_f90_complex", MPI_TYPECLASS_COMPLEX, p, r, newtype);
}
COMM_API_ALIAS(MPI_Type_create_f90_complex);
