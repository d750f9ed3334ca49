/*
 * datatype_test.c - datatypes: predefined types, every constructor and their nesting, bounds,
 * envelopes and contents, packing and unpacking against a naive reference, element counting,
 * huge types and references.
 *
 * The reference expands a type into its typemap one basic element at a time, from the
 * envelope and contents alone (MPI_Type_get_envelope/get_contents) and its own table of
 * predefined layouts, and copies byte by byte; the engine's packing is compared against it at
 * every split of the packed stream.
 */
#include "config.h"

#include "include/mpi.h"
#include "base/copy.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"

#include "test/unit/unit.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference ------------------------------------------------------------------------ */

/* Layout of a predefined type on x86_64 with gcc: members (one, or two for pair types). */
struct ref_basic {
    MPI_Datatype type;
    const char *name;
    MPI_Aint extent;
    int nmembers;
    MPI_Aint off[2];
    MPI_Aint len[2];
};

static const struct ref_basic ref_basics[] = {
    {MPI_CHAR, "MPI_CHAR", 1, 1, {0}, {1}},
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 1, {0}, {1}},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 1, {0}, {1}},
    {MPI_BYTE, "MPI_BYTE", 1, 1, {0}, {1}},
    {MPI_WCHAR, "MPI_WCHAR", 4, 1, {0}, {4}},
    {MPI_SHORT, "MPI_SHORT", 2, 1, {0}, {2}},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", 2, 1, {0}, {2}},
    {MPI_INT, "MPI_INT", 4, 1, {0}, {4}},
    {MPI_UNSIGNED, "MPI_UNSIGNED", 4, 1, {0}, {4}},
    {MPI_LONG, "MPI_LONG", 8, 1, {0}, {8}},
    {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", 8, 1, {0}, {8}},
    {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", 8, 1, {0}, {8}},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", 8, 1, {0}, {8}},
    {MPI_FLOAT, "MPI_FLOAT", 4, 1, {0}, {4}},
    {MPI_DOUBLE, "MPI_DOUBLE", 8, 1, {0}, {8}},
    {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", 16, 1, {0}, {16}},
    {MPI_C_BOOL, "MPI_C_BOOL", 1, 1, {0}, {1}},
    {MPI_INT8_T, "MPI_INT8_T", 1, 1, {0}, {1}},
    {MPI_INT16_T, "MPI_INT16_T", 2, 1, {0}, {2}},
    {MPI_INT32_T, "MPI_INT32_T", 4, 1, {0}, {4}},
    {MPI_INT64_T, "MPI_INT64_T", 8, 1, {0}, {8}},
    {MPI_UINT8_T, "MPI_UINT8_T", 1, 1, {0}, {1}},
    {MPI_UINT16_T, "MPI_UINT16_T", 2, 1, {0}, {2}},
    {MPI_UINT32_T, "MPI_UINT32_T", 4, 1, {0}, {4}},
    {MPI_UINT64_T, "MPI_UINT64_T", 8, 1, {0}, {8}},
    {MPI_AINT, "MPI_AINT", 8, 1, {0}, {8}},
    {MPI_COUNT, "MPI_COUNT", 8, 1, {0}, {8}},
    {MPI_OFFSET, "MPI_OFFSET", 8, 1, {0}, {8}},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", 8, 1, {0}, {8}},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16, 1, {0}, {16}},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 32, 1, {0}, {32}},
    {MPI_PACKED, "MPI_PACKED", 1, 1, {0}, {1}},
    {MPI_FLOAT_INT, "MPI_FLOAT_INT", 8, 2, {0, 4}, {4, 4}},
    {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 16, 2, {0, 8}, {8, 4}},
    {MPI_LONG_INT, "MPI_LONG_INT", 16, 2, {0, 8}, {8, 4}},
    {MPI_2INT, "MPI_2INT", 8, 2, {0, 4}, {4, 4}},
    {MPI_SHORT_INT, "MPI_SHORT_INT", 8, 2, {0, 4}, {2, 4}},
    {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", 32, 2, {0, 16}, {16, 4}},
    {MPI_CHARACTER, "MPI_CHARACTER", 1, 1, {0}, {1}},
    {MPI_INTEGER, "MPI_INTEGER", 4, 1, {0}, {4}},
    {MPI_REAL, "MPI_REAL", 4, 1, {0}, {4}},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 1, {0}, {8}},
    {MPI_LOGICAL, "MPI_LOGICAL", 4, 1, {0}, {4}},
    {MPI_COMPLEX, "MPI_COMPLEX", 8, 1, {0}, {8}},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 1, {0}, {16}},
    {MPI_2INTEGER, "MPI_2INTEGER", 8, 2, {0, 4}, {4, 4}},
    {MPI_2REAL, "MPI_2REAL", 8, 2, {0, 4}, {4, 4}},
    {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 2, {0, 8}, {8, 8}},
    {MPI_INTEGER1, "MPI_INTEGER1", 1, 1, {0}, {1}},
    {MPI_INTEGER2, "MPI_INTEGER2", 2, 1, {0}, {2}},
    {MPI_INTEGER4, "MPI_INTEGER4", 4, 1, {0}, {4}},
    {MPI_INTEGER8, "MPI_INTEGER8", 8, 1, {0}, {8}},
    {MPI_REAL4, "MPI_REAL4", 4, 1, {0}, {4}},
    {MPI_REAL8, "MPI_REAL8", 8, 1, {0}, {8}},
    {MPI_REAL16, "MPI_REAL16", 16, 1, {0}, {16}},
    {MPI_COMPLEX8, "MPI_COMPLEX8", 8, 1, {0}, {8}},
    {MPI_COMPLEX16, "MPI_COMPLEX16", 16, 1, {0}, {16}},
    {MPI_COMPLEX32, "MPI_COMPLEX32", 32, 1, {0}, {32}},
    {MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, 1, {0}, {1}},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8, 1, {0}, {8}},
    {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16, 1, {0}, {16}},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 1, {0}, {32}},
};
enum { REF_NBASICS = sizeof(ref_basics) / sizeof(ref_basics[0]) };

static const struct ref_basic *ref_basic_of(MPI_Datatype type)
{
    for (size_t i = 0; i < REF_NBASICS; i++) {
        if (ref_basics[i].type == type) {
            return &ref_basics[i];
        }
    }
    ck_abort_msg("no reference layout for predefined handle %#lx", (unsigned long)(uintptr_t)type);
    return NULL;
}

/* A typemap: one run per basic element (pair members count apart), in typemap order. */
struct ref_map {
    MPI_Aint *off;
    MPI_Aint *len;
    size_t n, cap;
};

static void ref_push(struct ref_map *m, MPI_Aint off, MPI_Aint len)
{
    if (m->n == m->cap) {
        m->cap = m->cap == 0 ? 64 : 2 * m->cap;
        m->off = realloc(m->off, m->cap * sizeof(*m->off));
        m->len = realloc(m->len, m->cap * sizeof(*m->len));
        COMM_CHECK(m->off != NULL && m->len != NULL, "out of memory at %zu runs", m->n);
    }
    m->off[m->n] = off;
    m->len[m->n] = len;
    m->n++;
}

static void ref_free(struct ref_map *m)
{
    free(m->off);
    free(m->len);
    memset(m, 0, sizeof(*m));
}

static MPI_Aint ref_extent(MPI_Datatype type)
{
    MPI_Aint lb, extent;

    COMM_CHECK(MPI_Type_get_extent(type, &lb, &extent) == MPI_SUCCESS, "MPI_Type_get_extent");
    return extent;
}

static bool ref_is_named(MPI_Datatype type)
{
    int ni, na, nd, combiner;

    COMM_CHECK(MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) == MPI_SUCCESS,
               "MPI_Type_get_envelope");
    return combiner == MPI_COMBINER_NAMED;
}

static void ref_expand(MPI_Datatype type, MPI_Aint disp, struct ref_map *m);

/* Elements of an array, in array order (ORDER), each at its offset if OWNED says so. */
struct ref_array {
    int ndims;
    const int *dims;  /* whole array */
    const int *first; /* subarray: start and count of each dimension */
    const int *count;
    int order;
    /* darray: ownership of each index */
    const int *distribs, *dargs, *psizes;
    int *coords;
};

static bool ref_owns(const struct ref_array *a, int d, int i)
{
    int g = a->dims[d], p = a->psizes[d], c = a->coords[d], b = a->dargs[d];

    switch (a->distribs[d]) {
    case MPI_DISTRIBUTE_NONE:
        return true;
    case MPI_DISTRIBUTE_BLOCK:
        b = b == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : b;
        return i / b == c;
    default:
        b = b == MPI_DISTRIBUTE_DFLT_DARG ? 1 : b;
        return (i / b) % p == c;
    }
}

static void ref_array_expand(const struct ref_array *a, MPI_Datatype old, MPI_Aint disp,
                             struct ref_map *m)
{
    int nd = a->ndims, idx[16];
    long long total = 1;
    MPI_Aint ext = ref_extent(old);

    COMM_CHECK(nd <= 16, "%d types in one constructor", nd);
    for (int d = 0; d < nd; d++) {
        total *= a->count != NULL ? a->count[d] : a->dims[d];
    }
    for (long long k = 0; k < total; k++) {
        long long r = k, lin = 0, mul = 1;
        bool owned = true;

        for (int j = 0; j < nd; j++) { /* fastest dimension first */
            int d = a->order == MPI_ORDER_C ? nd - 1 - j : j;
            int n = a->count != NULL ? a->count[d] : a->dims[d];

            idx[d] = (int)(r % n) + (a->first != NULL ? a->first[d] : 0);
            r /= n;
            if (a->distribs != NULL && !ref_owns(a, d, idx[d])) {
                owned = false;
            }
        }
        if (!owned) {
            continue;
        }
        for (int j = 0; j < nd; j++) {
            int d = a->order == MPI_ORDER_C ? nd - 1 - j : j;

            lin += idx[d] * mul;
            mul *= a->dims[d];
        }
        ref_expand(old, disp + (MPI_Aint)lin * ext, m);
    }
}

static void ref_expand(MPI_Datatype type, MPI_Aint disp, struct ref_map *m)
{
    int ni, na, nd, combiner;
    int *ints;
    MPI_Aint *addrs;
    MPI_Datatype *types;

    COMM_CHECK(MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) == MPI_SUCCESS,
               "MPI_Type_get_envelope");
    if (combiner == MPI_COMBINER_NAMED) {
        const struct ref_basic *b = ref_basic_of(type);

        for (int i = 0; i < b->nmembers; i++) {
            ref_push(m, disp + b->off[i], b->len[i]);
        }
        return;
    }
    ints = malloc((size_t)(ni + 1) * sizeof(*ints));
    addrs = malloc((size_t)(na + 1) * sizeof(*addrs));
    types = malloc((size_t)(nd + 1) * sizeof(*types));
    COMM_CHECK(MPI_Type_get_contents(type, ni, na, nd, ints, addrs, types) == MPI_SUCCESS,
               "MPI_Type_get_contents");
    switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        ref_expand(types[0], disp, m);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        for (int i = 0; i < ints[0]; i++) {
            ref_expand(types[0], disp + i * ref_extent(types[0]), m);
        }
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < ints[0]; i++) {
            for (int j = 0; j < ints[1]; j++) {
                ref_expand(types[0], disp + ((MPI_Aint)i * ints[2] + j) * ref_extent(types[0]), m);
            }
        }
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < ints[0]; i++) {
            for (int j = 0; j < ints[1]; j++) {
                ref_expand(types[0], disp + i * addrs[0] + j * ref_extent(types[0]), m);
            }
        }
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < ints[0]; i++) {
            for (int j = 0; j < ints[1 + i]; j++) {
                MPI_Aint at = (MPI_Aint)ints[1 + ints[0] + i] + j;

                ref_expand(types[0], disp + at * ref_extent(types[0]), m);
            }
        }
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < ints[0]; i++) {
            for (int j = 0; j < ints[1 + i]; j++) {
                ref_expand(types[0], disp + addrs[i] + j * ref_extent(types[0]), m);
            }
        }
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < ints[0]; i++) {
            for (int j = 0; j < ints[1]; j++) {
                MPI_Aint at = (MPI_Aint)ints[2 + i] + j;

                ref_expand(types[0], disp + at * ref_extent(types[0]), m);
            }
        }
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < ints[0]; i++) {
            for (int j = 0; j < ints[1]; j++) {
                ref_expand(types[0], disp + addrs[i] + j * ref_extent(types[0]), m);
            }
        }
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < ints[0]; i++) {
            for (int j = 0; j < ints[1 + i]; j++) {
                ref_expand(types[i], disp + addrs[i] + j * ref_extent(types[i]), m);
            }
        }
        break;
    case MPI_COMBINER_SUBARRAY: {
        int n = ints[0];
        struct ref_array a = {.ndims = n,
                              .dims = &ints[1],
                              .count = &ints[1 + n],
                              .first = &ints[1 + 2 * n],
                              .order = ints[1 + 3 * n]};

        ref_array_expand(&a, types[0], disp, m);
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int n = ints[2], coords[16], r = ints[1];
        struct ref_array a = {.ndims = n,
                              .dims = &ints[3],
                              .distribs = &ints[3 + n],
                              .dargs = &ints[3 + 2 * n],
                              .psizes = &ints[3 + 3 * n],
                              .order = ints[3 + 4 * n],
                              .coords = coords};

        for (int d = n - 1; d >= 0; d--) { /* processes are row-major in the grid */
            coords[d] = r % a.psizes[d];
            r /= a.psizes[d];
        }
        ref_array_expand(&a, types[0], disp, m);
        break;
    }
    default:
        ck_abort_msg("unexpected combiner %d", combiner);
    }
    for (int i = 0; i < nd; i++) {
        if (!ref_is_named(types[i])) {
            COMM_CHECK(MPI_Type_free(&types[i]) == MPI_SUCCESS, "MPI_Type_free of a part");
        }
    }
    free(ints);
    free(addrs);
    free(types);
}

/* Copies COUNT elements between memory at BASE and a packed stream, byte by byte. */
static void ref_copy(const struct ref_map *m, MPI_Aint extent, char *base, int count, char *stream,
                     bool unpack)
{
    size_t pos = 0;

    for (int k = 0; k < count; k++) {
        for (size_t i = 0; i < m->n; i++) {
            char *mem = base + k * extent + m->off[i];

            for (MPI_Aint b = 0; b < m->len[i]; b++, pos++) {
                if (unpack) {
                    mem[b] = stream[pos];
                } else {
                    stream[pos] = mem[b];
                }
            }
        }
    }
}

/* Basic elements wholly in the first BYTES of the packed stream; -1 if BYTES splits one. */
static long long ref_elements(const struct ref_map *m, int count, size_t bytes)
{
    size_t pos = 0;
    long long n = 0;

    for (int k = 0; k < count; k++) {
        for (size_t i = 0; i < m->n; i++) {
            if (pos == bytes) {
                return n;
            }
            pos += (size_t)m->len[i];
            if (pos > bytes) {
                return -1;
            }
            n++;
        }
    }
    return pos == bytes ? n : -1;
}

/* ---- helpers -------------------------------------------------------------------------------- */

static void setup(void)
{
    ck_assert_int_eq(MPI_Init(NULL, NULL), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
}

static void teardown(void)
{
    MPI_Finalize();
}

static struct comm_datatype *engine(MPI_Datatype type)
{
    struct comm_datatype *dt = comm_datatype_lookup(type);

    ck_assert_ptr_nonnull(dt);
    return dt;
}

static int error_class(int code)
{
    int cls = -1;

    ck_assert_int_eq(MPI_Error_class(code, &cls), MPI_SUCCESS);
    return cls;
}

static void check_bounds(MPI_Datatype type, MPI_Count size, MPI_Aint lb, MPI_Aint extent,
                         MPI_Aint true_lb, MPI_Aint true_extent)
{
    MPI_Count s, l, e, tl, te;
    MPI_Aint al, ae, atl, ate;

    ck_assert_int_eq(MPI_Type_size_x(type, &s), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_get_extent_x(type, &l, &e), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_get_true_extent_x(type, &tl, &te), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_get_extent(type, &al, &ae), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_get_true_extent(type, &atl, &ate), MPI_SUCCESS);
    ck_assert_int_eq(s, size);
    ck_assert_int_eq(l, lb);
    ck_assert_int_eq(e, extent);
    ck_assert_int_eq(tl, true_lb);
    ck_assert_int_eq(te, true_extent);
    ck_assert_int_eq(al, lb);
    ck_assert_int_eq(ae, extent);
    ck_assert_int_eq(atl, true_lb);
    ck_assert_int_eq(ate, true_extent);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (unsigned char)(i * 131 + seed * 17 + (i >> 8));
    }
}

/*
 * Packs and unpacks COUNT elements of TYPE (committing it) and compares everything with the
 * reference: size and true bounds, MPI_Pack/MPI_Unpack, engine packing in chunks of 1, 7 and
 * 64 bytes and from every offset, the cursor's pieces, and element counts at every length.
 */
static void check_roundtrip(MPI_Datatype type, int count)
{
    struct ref_map m = {0};
    struct comm_datatype *dt;
    MPI_Datatype t = type;
    MPI_Aint lb, extent, tlb, text, lo = 0, hi = 0, span;
    MPI_Count size, ref_size = 0;
    unsigned char *mem, *mem2, *mem3, *ref, *out;
    char *base, *base2, *base3;
    size_t total;
    int pos;
    static const size_t chunks[] = {1, 7, 64};

    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    dt = engine(type);
    ref_expand(type, 0, &m);
    ck_assert_int_eq(MPI_Type_get_extent(type, &lb, &extent), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_get_true_extent(type, &tlb, &text), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_size_x(type, &size), MPI_SUCCESS);
    for (size_t i = 0; i < m.n; i++) {
        ref_size += m.len[i];
        lo = i == 0 || m.off[i] < lo ? m.off[i] : lo;
        hi = i == 0 || m.off[i] + m.len[i] > hi ? m.off[i] + m.len[i] : hi;
    }
    ck_assert_int_eq(size, ref_size);
    if (m.n > 0 && ref_size > 0) {
        ck_assert_int_eq(tlb, lo);
        ck_assert_int_eq(text, hi - lo);
    }
    ck_assert_int_eq(dt->nelements, (MPI_Count)m.n);

    /* memory covering every element */
    if (count > 1 && extent < 0) {
        lo += (count - 1) * extent;
    } else if (count > 1) {
        hi += (count - 1) * extent;
    }
    span = hi - lo;
    total = (size_t)size * (size_t)count;
    mem = malloc((size_t)span + 64);
    mem2 = malloc((size_t)span + 64);
    mem3 = malloc((size_t)span + 64);
    ref = malloc(total + 1);
    out = malloc(total + 64);
    ck_assert(mem && mem2 && mem3 && ref && out);
    base = (char *)mem + 32 - lo;
    base2 = (char *)mem2 + 32 - lo;
    base3 = (char *)mem3 + 32 - lo;
    fill(mem, (size_t)span + 64, 1);
    ref_copy(&m, extent, base, count, (char *)ref, false);

    /* one shot through the API */
    pos = 0;
    memset(out, 0xA5, total + 64);
    ck_assert_int_eq(MPI_Pack(base, count, type, out, (int)total, &pos, MPI_COMM_WORLD),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, (int)total);
    ck_assert(memcmp(out, ref, total) == 0);
    ck_assert_int_eq(out[total], 0xA5);

    /* in chunks, each from its offset */
    for (size_t c = 0; c < 3; c++) {
        memset(out, 0, total + 1);
        for (size_t off = 0; off < total; off += chunks[c]) {
            size_t want = total - off < chunks[c] ? total - off : chunks[c];

            size_t got = comm_datatype_pack(dt, base, count, off, out + off, chunks[c]);

            COMM_CHECK(got == want, "chunks of %zu: %zu bytes at %zu, not %zu", chunks[c], got,
                       off, want);
        }
        ck_assert(memcmp(out, ref, total) == 0);
    }
    ck_assert_uint_eq(comm_datatype_pack(dt, base, count, total, out, 8), 0);

    /* one cursor kept across fragments of 5 bytes */
    {
        struct comm_dt_cursor cursor;
        size_t got = 0, n;

        comm_datatype_cursor_init(&cursor, dt, base, count, 0);
        memset(out, 0, total + 1);
        while ((n = comm_datatype_cursor_pack(&cursor, out + got, 5)) > 0) {
            got += n;
        }
        ck_assert_uint_eq(got, total);
        ck_assert(memcmp(out, ref, total) == 0);
    }

    /* from every offset to the end */
    if (total <= 1024) {
        for (size_t off = 0; off <= total; off++) {
            size_t got = comm_datatype_pack(dt, base, count, off, out, total + 8);

            COMM_CHECK(got == total - off, "from %zu: %zu bytes, not %zu", off, got, total - off);
            COMM_CHECK(memcmp(out, ref + off, total - off) == 0, "from %zu: wrong bytes", off);
        }
    }

    /* the cursor's pieces: the packed bytes, and never two pieces that touch */
    {
        struct comm_dt_cursor cursor;
        void *ptr = NULL;
        char *prev_end = NULL;
        size_t got = 0, n;

        comm_datatype_cursor_init(&cursor, dt, base, count, 0);
        while ((n = comm_datatype_cursor_next(&cursor, &ptr, SIZE_MAX)) > 0) {
            COMM_CHECK(ptr != prev_end, "piece at %zu touches the one before it", got);
            memcpy(out + got, ptr, n);
            got += n;
            prev_end = (char *)ptr + n;
        }
        ck_assert_uint_eq(got, total);
        ck_assert(memcmp(out, ref, total) == 0);
        for (size_t c = 0; c < 3; c++) {
            got = 0;
            comm_datatype_cursor_init(&cursor, dt, base, count, 3 < total ? 3 : total);
            while ((n = comm_datatype_cursor_next(&cursor, &ptr, chunks[c])) > 0) {
                COMM_CHECK(n <= chunks[c], "pieces of %zu: %zu bytes at %zu", chunks[c], n, got);
                memcpy(out + got, ptr, n);
                got += n;
            }
            ck_assert_uint_eq(got, total - (3 < total ? 3 : total));
            ck_assert(memcmp(out, ref + (3 < total ? 3 : total), got) == 0);
        }
    }

    /* unpack: the API in one shot, then the engine in chunks */
    memset(mem2, 0xEE, (size_t)span + 64);
    memset(mem3, 0xEE, (size_t)span + 64);
    ref_copy(&m, extent, base3, count, (char *)ref, true);
    pos = 0;
    ck_assert_int_eq(MPI_Unpack(ref, (int)total, &pos, base2, count, type, MPI_COMM_WORLD),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, (int)total);
    ck_assert(memcmp(mem2, mem3, (size_t)span + 64) == 0);
    for (size_t c = 0; c < 3; c++) {
        memset(mem2, 0xEE, (size_t)span + 64);
        for (size_t off = 0; off < total; off += chunks[c]) {
            size_t n = total - off < chunks[c] ? total - off : chunks[c];

            size_t got = comm_datatype_unpack(dt, base2, count, off, ref + off, n);

            COMM_CHECK(got == n, "unpack in chunks of %zu: %zu bytes at %zu, not %zu", chunks[c],
                       got, off, n);
        }
        ck_assert(memcmp(mem2, mem3, (size_t)span + 64) == 0);
    }

    /* elements in every prefix of the stream */
    for (size_t bytes = 0; bytes <= total; bytes += total <= 4096 ? 1 : 97) {
        long long want = ref_elements(&m, count, bytes);
        MPI_Count n = -7;
        int rc = comm_datatype_count_elements(dt, bytes, &n);

        if (want < 0) {
            COMM_CHECK(rc == COMM_ERR_BAD_PARAM && n == -7,
                       "%zu bytes are no whole element: status %d, count %lld", bytes, rc,
                       (long long)n);
        } else {
            COMM_CHECK(rc == COMM_OK && n == want, "%zu bytes: status %d, %lld elements, not %lld",
                       bytes, rc, (long long)n, want);
        }
    }

    free(mem);
    free(mem2);
    free(mem3);
    free(ref);
    free(out);
    ref_free(&m);
}

/* Checks bounds against expected values and the round trip against the reference, then frees. */
static void check_and_free(MPI_Datatype *type, MPI_Count size, MPI_Aint lb, MPI_Aint extent,
                           MPI_Aint true_lb, MPI_Aint true_extent)
{
    check_bounds(*type, size, lb, extent, true_lb, true_extent);
    check_roundtrip(*type, 1);
    check_roundtrip(*type, 3);
    ck_assert_int_eq(MPI_Type_free(type), MPI_SUCCESS);
    ck_assert_ptr_eq(*type, MPI_DATATYPE_NULL);
}

/* Rebuilds TYPE from its envelope and contents and checks both describe the same typemap. */
static void check_contents_rebuild(MPI_Datatype type)
{
    int ni, na, nd, combiner, ints[64];
    MPI_Aint addrs[16];
    MPI_Datatype types[16], copy = MPI_DATATYPE_NULL;
    struct ref_map a = {0}, b = {0};

    ck_assert_int_eq(MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert_int_le(ni, 64);
    ck_assert_int_le(na, 16);
    ck_assert_int_le(nd, 16);
    ck_assert_int_eq(MPI_Type_get_contents(type, ni, na, nd, ints, addrs, types), MPI_SUCCESS);
    switch (combiner) {
    case MPI_COMBINER_DUP:
        ck_assert_int_eq(MPI_Type_dup(types[0], &copy), MPI_SUCCESS);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        ck_assert_int_eq(MPI_Type_contiguous(ints[0], types[0], &copy), MPI_SUCCESS);
        break;
    case MPI_COMBINER_VECTOR:
        ck_assert_int_eq(MPI_Type_vector(ints[0], ints[1], ints[2], types[0], &copy), MPI_SUCCESS);
        break;
    case MPI_COMBINER_HVECTOR:
        ck_assert_int_eq(MPI_Type_create_hvector(ints[0], ints[1], addrs[0], types[0], &copy),
                         MPI_SUCCESS);
        break;
    case MPI_COMBINER_INDEXED:
        ck_assert_int_eq(MPI_Type_indexed(ints[0], &ints[1], &ints[1 + ints[0]], types[0], &copy),
                         MPI_SUCCESS);
        break;
    case MPI_COMBINER_HINDEXED:
        ck_assert_int_eq(MPI_Type_create_hindexed(ints[0], &ints[1], addrs, types[0], &copy),
                         MPI_SUCCESS);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        ck_assert_int_eq(MPI_Type_create_indexed_block(ints[0], ints[1], &ints[2], types[0], &copy),
                         MPI_SUCCESS);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        ck_assert_int_eq(MPI_Type_create_hindexed_block(ints[0], ints[1], addrs, types[0], &copy),
                         MPI_SUCCESS);
        break;
    case MPI_COMBINER_STRUCT:
        ck_assert_int_eq(MPI_Type_create_struct(ints[0], &ints[1], addrs, types, &copy),
                         MPI_SUCCESS);
        break;
    case MPI_COMBINER_SUBARRAY: {
        int n = ints[0];

        ck_assert_int_eq(MPI_Type_create_subarray(n, &ints[1], &ints[1 + n], &ints[1 + 2 * n],
                                                  ints[1 + 3 * n], types[0], &copy),
                         MPI_SUCCESS);
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int n = ints[2];

        ck_assert_int_eq(MPI_Type_create_darray(ints[0], ints[1], n, &ints[3], &ints[3 + n],
                                                &ints[3 + 2 * n], &ints[3 + 3 * n], ints[3 + 4 * n],
                                                types[0], &copy),
                         MPI_SUCCESS);
        break;
    }
    case MPI_COMBINER_RESIZED:
        ck_assert_int_eq(MPI_Type_create_resized(types[0], addrs[0], addrs[1], &copy), MPI_SUCCESS);
        break;
    default:
        ck_abort_msg("unexpected combiner %d", combiner);
    }
    ref_expand(type, 0, &a);
    ref_expand(copy, 0, &b);
    ck_assert_uint_eq(a.n, b.n);
    ck_assert(a.n == 0 || memcmp(a.off, b.off, a.n * sizeof(*a.off)) == 0);
    ck_assert(a.n == 0 || memcmp(a.len, b.len, a.n * sizeof(*a.len)) == 0);
    ck_assert_int_eq(ref_extent(type), ref_extent(copy));
    ck_assert_int_eq(MPI_Type_free(&copy), MPI_SUCCESS);
    for (int i = 0; i < nd; i++) {
        if (!ref_is_named(types[i])) {
            ck_assert_int_eq(MPI_Type_free(&types[i]), MPI_SUCCESS);
        }
    }
    ref_free(&a);
    ref_free(&b);
}

/* ---- predefined types ----------------------------------------------------------------------- */

/* The streaming copy writes exactly the bytes memcpy would, for any length and any alignment of
 * either side, and nothing beyond them. */
START_TEST(stream_copy_writes_exactly_the_bytes_of_memcpy)
{
    enum { ROOM = 4096 + 256 };
    unsigned char *src = malloc(ROOM), *dst = malloc(ROOM);
    static const size_t lens[] = {0, 1, 31, 127, 128, 129, 160, 255, 256, 1000, 4096};

    ck_assert_ptr_nonnull(src);
    ck_assert_ptr_nonnull(dst);
    for (size_t i = 0; i < ROOM; i++) {
        src[i] = (unsigned char)(i * 7 + 3);
    }
    for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
        for (size_t soff = 0; soff < 40; soff += 13) {
            for (size_t doff = 0; doff < 40; doff += 5) {
                size_t len = lens[l];

                memset(dst, 0xee, ROOM);
                comm_copy_stream(dst + doff, src + soff, len);
                ck_assert_msg(memcmp(dst + doff, src + soff, len) == 0,
                              "length %zu, offsets %zu/%zu: wrong bytes", len, soff, doff);
                for (size_t k = 0; k < ROOM; k++) {
                    COMM_CHECK((k >= doff && k < doff + len) || dst[k] == 0xee,
                               "length %zu, offsets %zu/%zu: byte %zu written", len, soff, doff,
                               k);
                }
            }
        }
    }
    ck_assert_uint_ge(comm_copy_stream_min(), (size_t)1 << 20);
    free(src);
    free(dst);
}
END_TEST

START_TEST(predefined_types_have_c_sizes_names_and_one_element)
{
    for (size_t i = 0; i < REF_NBASICS; i++) {
        const struct ref_basic *b = &ref_basics[i];
        struct comm_datatype *dt = engine(b->type);
        MPI_Aint size = b->nmembers == 1 ? b->len[0] : b->len[0] + b->len[1];
        MPI_Aint true_extent = b->off[b->nmembers - 1] + b->len[b->nmembers - 1];
        int ni, na, nd, combiner, isize;

        check_bounds(b->type, size, 0, b->extent, 0, true_extent);
        ck_assert_int_eq(MPI_Type_size(b->type, &isize), MPI_SUCCESS);
        ck_assert_int_eq(isize, size);
        ck_assert_str_eq(dt->name, b->name);
        ck_assert(dt->predefined);
        ck_assert(dt->committed);
        ck_assert_ptr_eq(dt->handle, b->type);
        ck_assert_ptr_eq(dt->basic, b->type);
        ck_assert_int_eq(dt->nelements, b->nmembers);
        ck_assert_int_eq(MPI_Type_get_envelope(b->type, &ni, &na, &nd, &combiner), MPI_SUCCESS);
        ck_assert_int_eq(combiner, MPI_COMBINER_NAMED);
        ck_assert_int_eq(ni + na + nd, 0);
        check_roundtrip(b->type, 37);
    }
    ck_assert_ptr_null(comm_datatype_lookup(MPI_DATATYPE_NULL));
    ck_assert_ptr_null(comm_datatype_lookup((MPI_Datatype)0x23f));
    ck_assert_ptr_eq(MPI_LONG_LONG, MPI_LONG_LONG_INT);
}
END_TEST

START_TEST(pair_types_follow_c_struct_layout)
{
    struct {
        double d;
        int i;
    } di[2];
    struct {
        short s;
        int i;
    } si;
    MPI_Count n = -1;

    ck_assert_int_eq(engine(MPI_DOUBLE_INT)->extent, (MPI_Aint)sizeof(di[0]));
    ck_assert_int_eq(engine(MPI_SHORT_INT)->extent, (MPI_Aint)sizeof(si));
    ck_assert(!engine(MPI_DOUBLE_INT)->contiguous);
    ck_assert(!engine(MPI_SHORT_INT)->contiguous);
    ck_assert(engine(MPI_2INT)->contiguous);
    ck_assert(engine(MPI_FLOAT_INT)->contiguous);
    ck_assert(engine(MPI_DOUBLE)->contiguous);
    ck_assert(!engine(MPI_LONG_DOUBLE_INT)->contiguous);
    /* a double-int is two basic elements: 8 bytes is the double alone */
    ck_assert_int_eq(comm_datatype_count_elements(engine(MPI_DOUBLE_INT), 12, &n), COMM_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(comm_datatype_count_elements(engine(MPI_DOUBLE_INT), 8, &n), COMM_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(comm_datatype_count_elements(engine(MPI_DOUBLE_INT), 20, &n), COMM_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(comm_datatype_count_elements(engine(MPI_DOUBLE_INT), 4, &n),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_datatype_count_elements(engine(MPI_SHORT_INT), 2, &n), COMM_OK);
    ck_assert_int_eq(n, 1);
    /* packing skips the padding */
    {
        unsigned char out[24];
        int pos = 0;

        memset(di, 0, sizeof(di));
        di[0].d = 1.5;
        di[0].i = 7;
        di[1].d = -2.0;
        di[1].i = 9;
        ck_assert_int_eq(MPI_Pack(di, 2, MPI_DOUBLE_INT, out, sizeof(out), &pos, MPI_COMM_WORLD),
                         MPI_SUCCESS);
        ck_assert_int_eq(pos, 24);
        ck_assert(memcmp(out, &di[0].d, 8) == 0 && memcmp(out + 8, &di[0].i, 4) == 0);
        ck_assert(memcmp(out + 12, &di[1].d, 8) == 0 && memcmp(out + 20, &di[1].i, 4) == 0);
    }
}
END_TEST

/* ---- constructors --------------------------------------------------------------------------- */

START_TEST(contiguous_has_the_bounds_of_its_elements)
{
    MPI_Datatype t, r, rc;

    ck_assert_int_eq(MPI_Type_contiguous(3, MPI_INT, &t), MPI_SUCCESS);
    ck_assert(engine(t)->contiguous);
    ck_assert(!engine(t)->committed);
    ck_assert_ptr_eq(engine(t)->basic, MPI_INT);
    check_and_free(&t, 12, 0, 12, 0, 12);

    ck_assert_int_eq(MPI_Type_contiguous(2, MPI_SHORT_INT, &t), MPI_SUCCESS);
    check_and_free(&t, 12, 0, 16, 0, 16);

    /* of a type with a negative lower bound */
    ck_assert_int_eq(MPI_Type_create_resized(MPI_INT, -4, 12, &r), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_contiguous(2, r, &rc), MPI_SUCCESS);
    check_and_free(&rc, 8, -4, 24, 0, 16);
    check_and_free(&r, 4, -4, 12, 0, 4);
}
END_TEST

START_TEST(vector_strides_in_extents_and_may_go_backwards)
{
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &t), MPI_SUCCESS);
    ck_assert(!engine(t)->contiguous);
    check_and_free(&t, 48, 0, 80, 0, 80);

    ck_assert_int_eq(MPI_Type_vector(3, 1, -2, MPI_INT, &t), MPI_SUCCESS);
    check_and_free(&t, 12, -16, 20, -16, 20);

    ck_assert_int_eq(MPI_Type_vector(4, 3, 3, MPI_FLOAT, &t), MPI_SUCCESS);
    ck_assert(engine(t)->contiguous);
    check_and_free(&t, 48, 0, 48, 0, 48);

    ck_assert_int_eq(MPI_Type_vector(2, 3, 1, MPI_CHAR, &t), MPI_SUCCESS); /* overlapping */
    check_bounds(t, 6, 0, 4, 0, 4);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
}
END_TEST

/* Runs of 1, 2, 4, 8, 16 bytes and others, strided: the fixed-size copy loops. */
START_TEST(strided_runs_of_every_size_pack_like_the_reference)
{
    static const MPI_Datatype types[] = {MPI_CHAR,   MPI_SHORT,       MPI_FLOAT,
                                         MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_DOUBLE_INT,
                                         MPI_2INT,   MPI_C_LONG_DOUBLE_COMPLEX};

    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        MPI_Aint ext = ref_extent(types[i]);
        MPI_Count size;
        MPI_Datatype t;

        ck_assert_int_eq(MPI_Type_size_x(types[i], &size), MPI_SUCCESS);
        ck_assert_int_eq(MPI_Type_vector(9, 1, 3, types[i], &t), MPI_SUCCESS);
        check_bounds(t, 9 * size, 0, 25 * ext, 0, 24 * ext + engine(types[i])->true_extent);
        check_roundtrip(t, 2);
        ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
        ck_assert_int_eq(MPI_Type_vector(9, 1, -2, types[i], &t), MPI_SUCCESS);
        check_roundtrip(t, 2);
        ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
    }
}
END_TEST

START_TEST(hvector_strides_in_bytes)
{
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_hvector(2, 3, 100, MPI_SHORT, &t), MPI_SUCCESS);
    check_and_free(&t, 12, 0, 106, 0, 106);

    ck_assert_int_eq(MPI_Type_create_hvector(3, 1, -7, MPI_DOUBLE_INT, &t), MPI_SUCCESS);
    check_and_free(&t, 36, -14, 30, -14, 26);

    ck_assert_int_eq(MPI_Type_create_hvector(5, 2, 5, MPI_CHAR, &t), MPI_SUCCESS);
    check_and_free(&t, 10, 0, 22, 0, 22);
}
END_TEST

START_TEST(indexed_ignores_empty_blocks_for_bounds)
{
    static const int bl[] = {2, 0, 1}, disp[] = {4, 1, 0};
    static const int bl2[] = {1, 3, 2}, disp2[] = {7, -2, 3};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_indexed(3, bl, disp, MPI_INT, &t), MPI_SUCCESS);
    check_and_free(&t, 12, 0, 24, 0, 24);

    ck_assert_int_eq(MPI_Type_indexed(3, bl2, disp2, MPI_DOUBLE, &t), MPI_SUCCESS);
    check_and_free(&t, 48, -16, 80, -16, 80);
}
END_TEST

START_TEST(hindexed_takes_byte_displacements)
{
    static const int bl[] = {1, 2};
    static const MPI_Aint disp[] = {-8, 16};
    static const int bl2[] = {3, 1, 2};
    static const MPI_Aint disp2[] = {5, 0, 30};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_hindexed(2, bl, disp, MPI_DOUBLE, &t), MPI_SUCCESS);
    check_and_free(&t, 24, -8, 40, -8, 40);

    ck_assert_int_eq(MPI_Type_create_hindexed(3, bl2, disp2, MPI_SHORT_INT, &t), MPI_SUCCESS);
    check_and_free(&t, 36, 0, 46, 0, 46);
}
END_TEST

START_TEST(indexed_block_has_one_block_length)
{
    static const int disp[] = {5, 0, 10};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_indexed_block(3, 2, disp, MPI_FLOAT, &t), MPI_SUCCESS);
    check_and_free(&t, 24, 0, 48, 0, 48);
}
END_TEST

START_TEST(hindexed_block_keeps_the_given_order)
{
    static const MPI_Aint disp[] = {4, 0};
    static const MPI_Aint disp2[] = {3, 40, 17};
    MPI_Datatype t;
    int v[2] = {11, 22}, out[2];
    int pos = 0;

    ck_assert_int_eq(MPI_Type_create_hindexed_block(2, 1, disp, MPI_INT, &t), MPI_SUCCESS);
    ck_assert(!engine(t)->contiguous); /* the bytes are dense, but not in order */
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Pack(v, 1, t, out, sizeof(out), &pos, MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(out[0], 22);
    ck_assert_int_eq(out[1], 11);
    check_and_free(&t, 8, 0, 8, 0, 8);

    ck_assert_int_eq(MPI_Type_create_hindexed_block(3, 2, disp2, MPI_CHAR, &t), MPI_SUCCESS);
    check_and_free(&t, 6, 3, 39, 3, 39);
}
END_TEST

START_TEST(struct_mixes_types_without_padding_the_extent)
{
    static const int bl[] = {1, 1, 2};
    static const MPI_Aint disp[] = {0, 8, 16};
    static const MPI_Datatype types[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    static const int bl2[] = {2, 0, 1};
    static const MPI_Aint disp2[] = {12, -100, 0};
    static const MPI_Datatype types2[] = {MPI_SHORT, MPI_LONG_DOUBLE, MPI_DOUBLE_INT};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_struct(3, bl, disp, types, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(engine(t)->basic, MPI_DATATYPE_NULL);
    ck_assert_int_eq(engine(t)->nelements, 4);
    check_and_free(&t, 17, 0, 24, 0, 24);

    /* the zero-length block adds no bounds; the pair type keeps its own */
    ck_assert_int_eq(MPI_Type_create_struct(3, bl2, disp2, types2, &t), MPI_SUCCESS);
    check_and_free(&t, 16, 0, 16, 0, 16);
}
END_TEST

START_TEST(subarray_in_c_and_fortran_order)
{
    static const int sizes[] = {4, 5, 6}, subsizes[] = {2, 3, 2}, starts[] = {1, 2, 3};
    MPI_Datatype t;
    MPI_Aint full = 4 * 5 * 6 * 8;

    ck_assert_int_eq(
        MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &t),
        MPI_SUCCESS);
    /* first element (1,2,3): (1*30+2*6+3)*8, last (2,4,4): (2*30+4*6+4)*8 + 8 */
    check_and_free(&t, 12 * 8, 0, full, 45 * 8, (88 - 45) * 8 + 8);

    ck_assert_int_eq(
        MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t),
        MPI_SUCCESS);
    /* first (1,2,3): 1+2*4+3*20 = 69, last (2,4,4): 2+16+80 = 98 */
    check_and_free(&t, 12 * 8, 0, full, 69 * 8, (98 - 69) * 8 + 8);

    /* the whole array is contiguous */
    ck_assert_int_eq(
        MPI_Type_create_subarray(3, sizes, sizes, (const int[]){0, 0, 0}, MPI_ORDER_C, MPI_INT, &t),
        MPI_SUCCESS);
    ck_assert(engine(t)->contiguous);
    check_and_free(&t, 120 * 4, 0, 120 * 4, 0, 120 * 4);
}
END_TEST

/* The darray of every rank: each element of the array belongs to exactly one. */
static void check_darray_partition(int ndims, const int gsizes[], const int distribs[],
                                   const int dargs[], const int psizes[], int order,
                                   MPI_Datatype old)
{
    int size = 1, nelems = 1;
    MPI_Aint ext = ref_extent(old);
    unsigned char *seen;

    for (int d = 0; d < ndims; d++) {
        size *= psizes[d];
        nelems *= gsizes[d];
    }
    seen = calloc((size_t)nelems, 1);
    for (int rank = 0; rank < size; rank++) {
        MPI_Datatype t;
        struct ref_map m = {0};
        MPI_Aint lb, extent;

        ck_assert_int_eq(MPI_Type_create_darray(size, rank, ndims, gsizes, distribs, dargs, psizes,
                                                order, old, &t),
                         MPI_SUCCESS);
        ck_assert_int_eq(MPI_Type_get_extent(t, &lb, &extent), MPI_SUCCESS);
        ck_assert_int_eq(lb, 0);
        ck_assert_int_eq(extent, nelems * ext);
        ref_expand(t, 0, &m);
        for (size_t i = 0; i < m.n; i++) {
            if (m.off[i] % ext == 0) {
                ck_assert_int_eq(seen[m.off[i] / ext]++, 0);
            }
        }
        ref_free(&m);
        check_roundtrip(t, 1);
        check_roundtrip(t, 2);
        check_contents_rebuild(t);
        ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
    }
    for (int i = 0; i < nelems; i++) {
        ck_assert_int_eq(seen[i], 1);
    }
    free(seen);
}

START_TEST(darray_block_cyclic_and_none_in_both_orders)
{
    static const int gsizes[] = {7, 10, 3};
    static const int distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                                   MPI_DISTRIBUTE_NONE};
    static const int dflt[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG,
                               MPI_DISTRIBUTE_DFLT_DARG};
    static const int dargs[] = {4, 3, 0};
    static const int psizes[] = {2, 3, 1};
    static const int cyc[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
    static const int blk[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
    MPI_Datatype t;

    check_darray_partition(3, gsizes, distribs, dflt, psizes, MPI_ORDER_C, MPI_INT);
    check_darray_partition(3, gsizes, distribs, dflt, psizes, MPI_ORDER_FORTRAN, MPI_INT);
    check_darray_partition(3, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_DOUBLE);
    check_darray_partition(3, gsizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN, MPI_SHORT_INT);
    check_darray_partition(2, (const int[]){9, 8}, cyc, (const int[]){2, 3}, (const int[]){2, 2},
                           MPI_ORDER_C, MPI_CHAR);
    check_darray_partition(2, (const int[]){9, 8}, blk, (const int[]){5, 2}, (const int[]){2, 4},
                           MPI_ORDER_FORTRAN, MPI_FLOAT);

    /* a rank with nothing: block 4 of 5 elements over 2 ranks leaves rank 1 one element; a
     * block of 5 leaves it none */
    ck_assert_int_eq(MPI_Type_create_darray(2, 1, 1, (const int[]){5},
                                            (const int[]){MPI_DISTRIBUTE_BLOCK}, (const int[]){5},
                                            (const int[]){2}, MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    check_and_free(&t, 0, 0, 20, 0, 0);

    /* 1-D block: rank 1 of 3 over 10 ints holds 4..7 */
    ck_assert_int_eq(MPI_Type_create_darray(3, 1, 1, (const int[]){10},
                                            (const int[]){MPI_DISTRIBUTE_BLOCK}, dflt,
                                            (const int[]){3}, MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    check_and_free(&t, 16, 0, 40, 16, 16);
}
END_TEST

START_TEST(resized_changes_bounds_not_data)
{
    MPI_Datatype t, v;

    ck_assert_int_eq(MPI_Type_create_resized(MPI_INT, 0, 8, &t), MPI_SUCCESS);
    check_bounds(t, 4, 0, 8, 0, 4);
    ck_assert(!engine(t)->contiguous);
    ck_assert_int_eq(MPI_Type_contiguous(5, t, &v), MPI_SUCCESS);
    check_and_free(&v, 20, 0, 40, 0, 36);
    check_and_free(&t, 4, 0, 8, 0, 4);

    ck_assert_int_eq(MPI_Type_create_resized(MPI_DOUBLE, 0, 8, &t), MPI_SUCCESS);
    ck_assert(engine(t)->contiguous);
    check_and_free(&t, 8, 0, 8, 0, 8);

    /* shrinking: elements overlap in the buffer */
    ck_assert_int_eq(MPI_Type_vector(2, 1, 2, MPI_INT, &v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_resized(v, 4, 4, &t), MPI_SUCCESS);
    check_bounds(t, 8, 4, 4, 0, 12);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&v), MPI_SUCCESS);
}
END_TEST

START_TEST(dup_copies_layout_and_commit_state)
{
    MPI_Datatype v, d1, d2;

    ck_assert_int_eq(MPI_Type_vector(3, 2, 5, MPI_SHORT, &v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_dup(v, &d1), MPI_SUCCESS);
    ck_assert(!engine(d1)->committed);
    ck_assert_int_eq(MPI_Type_commit(&v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_dup(v, &d2), MPI_SUCCESS);
    ck_assert(engine(d2)->committed);
    ck_assert_int_eq(engine(d2)->combiner, MPI_COMBINER_DUP);
    check_and_free(&d1, 12, 0, 24, 0, 24);
    check_and_free(&d2, 12, 0, 24, 0, 24);
    ck_assert_int_eq(MPI_Type_free(&v), MPI_SUCCESS);

    ck_assert_int_eq(MPI_Type_dup(MPI_LONG_DOUBLE_INT, &d1), MPI_SUCCESS);
    ck_assert(engine(d1)->committed);
    check_and_free(&d1, 20, 0, 32, 0, 20);
}
END_TEST

/* ---- nesting and the compact description ----------------------------------------------------- */

START_TEST(vector_of_struct_of_indexed_packs_like_the_reference)
{
    static const int bl[] = {2, 1}, disp[] = {3, 0};
    static const int sbl[] = {1, 2, 1};
    static const MPI_Aint sdisp[] = {0, 4, 40};
    MPI_Datatype idx, types[3], st, vec;

    ck_assert_int_eq(MPI_Type_indexed(2, bl, disp, MPI_SHORT, &idx), MPI_SUCCESS);
    types[0] = MPI_CHAR;
    types[1] = idx;
    types[2] = MPI_DOUBLE;
    ck_assert_int_eq(MPI_Type_create_struct(3, sbl, sdisp, types, &st), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_vector(3, 2, 3, st, &vec), MPI_SUCCESS);
    check_contents_rebuild(vec);
    check_contents_rebuild(st);
    check_contents_rebuild(idx);
    /* idx: shorts at 6,8 then 0: lb 0, ub 10; st: 1 + 2*6 + 8 = 21 bytes, ub 48 */
    check_bounds(st, 21, 0, 48, 0, 48);
    check_and_free(&vec, 6 * 21, 0, (2 * 3 + 2) * 48, 0, (2 * 3 + 2) * 48);
    check_and_free(&st, 21, 0, 48, 0, 48);
    check_and_free(&idx, 6, 0, 10, 0, 10);
}
END_TEST

START_TEST(resized_inside_vector_strides_by_the_new_extent)
{
    MPI_Datatype pair, r, vec, sub;

    /* two ints 12 bytes apart, resized to 8: consecutive pairs interleave */
    ck_assert_int_eq(MPI_Type_vector(2, 1, 3, MPI_INT, &pair), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_resized(pair, 0, 8, &r), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_vector(2, 3, 5, r, &vec), MPI_SUCCESS);
    check_contents_rebuild(vec);
    check_contents_rebuild(r);
    /* blocks at 0 and 40 bytes, three pairs each spanning 16+12 bytes */
    check_and_free(&vec, 48, 0, 64, 0, 72);

    /* a subarray of resized elements */
    ck_assert_int_eq(MPI_Type_create_subarray(2, (const int[]){3, 4}, (const int[]){2, 2},
                                              (const int[]){1, 1}, MPI_ORDER_C, r, &sub),
                     MPI_SUCCESS);
    check_and_free(&sub, 32, 0, 96, 40, 56);
    ck_assert_int_eq(MPI_Type_free(&r), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&pair), MPI_SUCCESS);
}
END_TEST

START_TEST(descriptions_merge_runs_and_regular_blocks)
{
    static const int four[] = {1, 1, 1, 1}, regular[] = {0, 3, 6, 9}, adjacent[] = {0, 1, 2, 3};
    static const MPI_Aint ints_apart[] = {0, 4};
    static const int ones[] = {1, 1};
    static const MPI_Datatype two_ints[] = {MPI_INT, MPI_INT};
    MPI_Datatype a, b, t;
    struct comm_datatype *dt;

    /* contiguous of contiguous: one run */
    ck_assert_int_eq(MPI_Type_contiguous(3, MPI_INT, &a), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_contiguous(4, a, &t), MPI_SUCCESS);
    dt = engine(t);
    ck_assert(dt->contiguous);
    ck_assert_int_eq(dt->desc->nentries, 1);
    ck_assert_ptr_null(dt->desc->entries[0].child);
    ck_assert_int_eq(dt->desc->entries[0].size, 48);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&a), MPI_SUCCESS);

    /* a vector whose blocks touch: one run */
    ck_assert_int_eq(MPI_Type_vector(5, 2, 2, MPI_DOUBLE, &t), MPI_SUCCESS);
    ck_assert(engine(t)->contiguous);
    ck_assert_int_eq(engine(t)->desc->nentries, 1);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);

    /* an indexed type of regular blocks: one strided loop of 4-byte runs */
    ck_assert_int_eq(MPI_Type_indexed(4, four, regular, MPI_INT, &t), MPI_SUCCESS);
    dt = engine(t);
    ck_assert_int_eq(dt->desc->nentries, 1);
    ck_assert_int_eq(dt->desc->entries[0].count, 4);
    ck_assert_int_eq(dt->desc->entries[0].stride, 12);
    ck_assert_int_eq(dt->desc->entries[0].size, 4);
    ck_assert_int_eq(dt->desc->depth, 1);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_indexed(4, four, adjacent, MPI_INT, &t), MPI_SUCCESS);
    ck_assert(engine(t)->contiguous);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);

    /* a struct of two adjacent ints is one run of 8 bytes */
    ck_assert_int_eq(MPI_Type_create_struct(2, ones, ints_apart, two_ints, &t), MPI_SUCCESS);
    ck_assert(engine(t)->contiguous);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);

    /* a vector of a vector with no common stride keeps two levels; of a resized int, one */
    ck_assert_int_eq(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &a), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_hvector(4, 1, 100, a, &t), MPI_SUCCESS);
    ck_assert_int_eq(engine(t)->desc->depth, 2);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&a), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_resized(MPI_INT, 0, 8, &a), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_contiguous(10, a, &b), MPI_SUCCESS);
    dt = engine(b);
    ck_assert_int_eq(dt->desc->nentries, 1);
    ck_assert_int_eq(dt->desc->entries[0].count, 10);
    ck_assert_int_eq(dt->desc->entries[0].stride, 8);
    ck_assert_int_eq(MPI_Type_free(&b), MPI_SUCCESS);

    /* blocks of 1, 3 and 1 strided ints that continue one another: one loop of 5; the same
     * blocks out of step stay apart */
    ck_assert_int_eq(MPI_Type_create_hindexed(3, (const int[]){1, 3, 1},
                                              (const MPI_Aint[]){0, 8, 32}, a, &b),
                     MPI_SUCCESS);
    dt = engine(b);
    ck_assert_int_eq(dt->desc->nentries, 1);
    ck_assert_int_eq(dt->desc->entries[0].count, 5);
    check_roundtrip(b, 2);
    ck_assert_int_eq(MPI_Type_free(&b), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_hindexed(3, (const int[]){1, 3, 2},
                                              (const MPI_Aint[]){0, 100, 4}, a, &b),
                     MPI_SUCCESS);
    ck_assert_int_eq(engine(b)->desc->nentries, 3);
    check_roundtrip(b, 2);
    ck_assert_int_eq(MPI_Type_free(&b), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&a), MPI_SUCCESS);
}
END_TEST

START_TEST(cursor_yields_whole_runs_and_stops_anywhere)
{
    double d[40];
    MPI_Datatype t;
    struct comm_dt_cursor cursor;
    void *ptr = NULL;

    for (int i = 0; i < 40; i++) {
        d[i] = i;
    }
    /* contiguous: one piece for all the elements */
    ck_assert_int_eq(MPI_Type_contiguous(4, MPI_DOUBLE, &t), MPI_SUCCESS);
    comm_datatype_cursor_init(&cursor, engine(t), d, 5, 0);
    ck_assert_uint_eq(comm_datatype_cursor_next(&cursor, &ptr, SIZE_MAX), 160);
    ck_assert_ptr_eq(ptr, d);
    ck_assert_uint_eq(comm_datatype_cursor_next(&cursor, &ptr, SIZE_MAX), 0);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);

    /* vector: one piece per block, cut at MAX, resumed mid-block */
    ck_assert_int_eq(MPI_Type_vector(4, 3, 5, MPI_DOUBLE, &t), MPI_SUCCESS);
    comm_datatype_cursor_init(&cursor, engine(t), d, 2, 0);
    ck_assert_uint_eq(comm_datatype_cursor_next(&cursor, &ptr, SIZE_MAX), 24);
    ck_assert_ptr_eq(ptr, &d[0]);
    ck_assert_uint_eq(comm_datatype_cursor_next(&cursor, &ptr, 10), 10);
    ck_assert_ptr_eq(ptr, &d[5]);
    ck_assert_uint_eq(comm_datatype_cursor_next(&cursor, &ptr, SIZE_MAX), 14);
    ck_assert_ptr_eq(ptr, (char *)&d[5] + 10);
    /* the last block of element 0 (d[15..17]) and the first of element 1 (d[18..20]) touch */
    ck_assert_uint_eq(comm_datatype_cursor_next(&cursor, &ptr, SIZE_MAX), 24);
    ck_assert_uint_eq(comm_datatype_cursor_next(&cursor, &ptr, SIZE_MAX), 48);
    ck_assert_ptr_eq(ptr, &d[15]);
    /* starting at an offset in the middle of element 1 */
    comm_datatype_cursor_init(&cursor, engine(t), d, 2, 96 + 40);
    ck_assert_uint_eq(comm_datatype_cursor_next(&cursor, &ptr, SIZE_MAX), 8);
    ck_assert_ptr_eq(ptr, &d[18 + 5 + 2]);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
}
END_TEST

START_TEST(deep_nesting_is_flattened_and_still_packs)
{
    MPI_Datatype t = MPI_CHAR, next;
    struct comm_datatype *dt;
    MPI_Aint stride = 3;

    /* seventeen levels of two blocks whose strides never line up */
    for (int level = 0; level < 17; level++) {
        MPI_Aint lb, extent;

        ck_assert_int_eq(MPI_Type_get_extent(t, &lb, &extent), MPI_SUCCESS);
        stride = extent + 1 + level % 3;
        ck_assert_int_eq(MPI_Type_create_hvector(2, 1, stride, t, &next), MPI_SUCCESS);
        if (t != MPI_CHAR) {
            ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
        }
        t = next;
    }
    dt = engine(t);
    ck_assert_int_le(dt->desc->depth, COMM_DT_CURSOR_DEPTH - 1);
    ck_assert_int_eq(dt->size, 1 << 17);
    check_roundtrip(t, 1);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
}
END_TEST

/* ---- envelopes, contents, references ------------------------------------------------------- */

START_TEST(envelope_and_contents_round_trip_for_every_constructor)
{
    static const int bl[] = {2, 1, 3}, disp[] = {5, 0, 9};
    static const MPI_Aint adisp[] = {16, 0, 40};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT_INT}, t[12], inner;
    int ni, na, nd, combiner, ints[8];
    MPI_Aint addrs[4];
    MPI_Datatype got[4];
    int n = 0;

    ck_assert_int_eq(MPI_Type_vector(2, 1, 3, MPI_FLOAT, &inner), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_contiguous(3, inner, &t[n++]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_vector(2, 2, -3, MPI_INT, &t[n++]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_hvector(2, 2, 33, inner, &t[n++]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_indexed(3, bl, disp, MPI_CHAR, &t[n++]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_hindexed(3, bl, adisp, inner, &t[n++]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_indexed_block(3, 2, disp, MPI_INT, &t[n++]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_hindexed_block(3, 1, adisp, inner, &t[n++]), MPI_SUCCESS);
    types[2] = inner;
    ck_assert_int_eq(MPI_Type_create_struct(3, bl, adisp, types, &t[n++]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_subarray(2, (const int[]){5, 6}, (const int[]){2, 3},
                                              (const int[]){3, 1}, MPI_ORDER_FORTRAN, inner,
                                              &t[n++]),
                     MPI_SUCCESS);
    ck_assert_int_eq(
        MPI_Type_create_darray(4, 3, 2, (const int[]){5, 6},
                               (const int[]){MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
                               (const int[]){2, MPI_DISTRIBUTE_DFLT_DARG}, (const int[]){2, 2},
                               MPI_ORDER_C, inner, &t[n++]),
        MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_resized(inner, -3, 50, &t[n++]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_dup(inner, &t[n++]), MPI_SUCCESS);

    for (int i = 0; i < n; i++) {
        check_contents_rebuild(t[i]);
        check_roundtrip(t[i], 2);
    }

    /* envelope sizes of a few, and the contents of the vector */
    ck_assert_int_eq(MPI_Type_get_envelope(t[1], &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert_int_eq(combiner, MPI_COMBINER_VECTOR);
    ck_assert(ni == 3 && na == 0 && nd == 1);
    ck_assert_int_eq(MPI_Type_get_contents(t[1], 8, 4, 4, ints, addrs, got), MPI_SUCCESS);
    ck_assert(ints[0] == 2 && ints[1] == 2 && ints[2] == -3);
    ck_assert_ptr_eq(got[0], MPI_INT);
    ck_assert_int_eq(MPI_Type_get_envelope(t[3], &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert(combiner == MPI_COMBINER_INDEXED && ni == 7 && na == 0 && nd == 1);
    ck_assert_int_eq(MPI_Type_get_envelope(t[7], &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert(combiner == MPI_COMBINER_STRUCT && ni == 4 && na == 3 && nd == 3);
    ck_assert_int_eq(MPI_Type_get_envelope(t[8], &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert(combiner == MPI_COMBINER_SUBARRAY && ni == 8 && na == 0 && nd == 1);
    ck_assert_int_eq(MPI_Type_get_envelope(t[9], &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert(combiner == MPI_COMBINER_DARRAY && ni == 12 && na == 0 && nd == 1);
    ck_assert_int_eq(MPI_Type_get_envelope(t[10], &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert(combiner == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1);
    ck_assert_int_eq(MPI_Type_get_envelope(t[11], &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert(combiner == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1);

    /* too small arrays and predefined types are refused */
    ck_assert_int_eq(error_class(MPI_Type_get_contents(t[1], 2, 4, 4, ints, addrs, got)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_get_contents(MPI_INT, 8, 4, 4, ints, addrs, got)),
                     MPI_ERR_TYPE);

    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(MPI_Type_free(&t[i]), MPI_SUCCESS);
    }
    ck_assert_int_eq(MPI_Type_free(&inner), MPI_SUCCESS);
}
END_TEST

START_TEST(freeing_a_type_used_by_another_keeps_it_working)
{
    MPI_Datatype inner, outer, stale, got[1];
    int ints[3], size;
    MPI_Aint addrs[1];

    ck_assert_int_eq(MPI_Type_contiguous(2, MPI_INT, &inner), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_vector(3, 1, 2, inner, &outer), MPI_SUCCESS);
    stale = inner;
    ck_assert_int_eq(MPI_Type_free(&inner), MPI_SUCCESS);
    ck_assert_ptr_eq(inner, MPI_DATATYPE_NULL);
    /* the user's handle is dead even though the object lives on in OUTER */
    ck_assert_int_eq(error_class(MPI_Type_size(stale, &size)), MPI_ERR_TYPE);
    ck_assert_int_eq(error_class(MPI_Type_free(&stale)), MPI_ERR_TYPE);
    check_roundtrip(outer, 2);
    /* contents hand out a new reference to the inner type, freed on its own */
    ck_assert_int_eq(MPI_Type_get_contents(outer, 3, 1, 1, ints, addrs, got), MPI_SUCCESS);
    ck_assert_ptr_eq(got[0], stale);
    ck_assert_int_eq(MPI_Type_size(got[0], &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 8);
    ck_assert_int_eq(MPI_Type_free(&outer), MPI_SUCCESS);
    check_roundtrip(got[0], 3);
    ck_assert_int_eq(MPI_Type_free(&got[0]), MPI_SUCCESS);

    /* a pending operation's reference outlives MPI_Type_free */
    ck_assert_int_eq(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &outer), MPI_SUCCESS);
    {
        struct comm_datatype *dt = engine(outer);
        double v[3] = {1, 2, 3}, out[2];

        comm_datatype_retain(dt);
        ck_assert_int_eq(MPI_Type_free(&outer), MPI_SUCCESS);
        ck_assert_uint_eq(comm_datatype_pack(dt, v, 1, 0, out, sizeof(out)), 16);
        ck_assert(out[0] == 1 && out[1] == 3);
        comm_datatype_release(dt);
    }
}
END_TEST

START_TEST(free_refuses_predefined_and_commit_is_idempotent)
{
    MPI_Datatype t = MPI_INT, v;
    int size;

    ck_assert_int_eq(error_class(MPI_Type_free(&t)), MPI_ERR_TYPE);
    ck_assert_ptr_eq(t, MPI_INT);
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_vector(2, 1, 2, MPI_INT, &v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&v), MPI_SUCCESS);
    ck_assert(engine(v)->committed);
    ck_assert_int_eq(MPI_Type_free(&v), MPI_SUCCESS);
    ck_assert_int_eq(error_class(MPI_Type_free(&v)), MPI_ERR_TYPE);
    ck_assert_int_eq(error_class(MPI_Type_commit(NULL)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_size((MPI_Datatype)(uintptr_t)0xdeadbee0, &size)),
                     MPI_ERR_TYPE);
}
END_TEST

/* ---- counts, sizes, errors ------------------------------------------------------------------- */

START_TEST(negative_counts_are_refused_and_zero_counts_are_empty)
{
    static const int neg[] = {1, -1}, zero[] = {0, 0}, disp[] = {0, 1};
    static const MPI_Aint adisp[] = {0, 8};
    static const MPI_Datatype types[] = {MPI_INT, MPI_DATATYPE_NULL};
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int size;

    ck_assert_int_eq(error_class(MPI_Type_contiguous(-1, MPI_INT, &t)), MPI_ERR_COUNT);
    ck_assert_int_eq(error_class(MPI_Type_vector(-2, 1, 1, MPI_INT, &t)), MPI_ERR_COUNT);
    ck_assert_int_eq(error_class(MPI_Type_vector(2, -1, 1, MPI_INT, &t)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_create_hvector(2, -1, 1, MPI_INT, &t)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_indexed(-1, neg, disp, MPI_INT, &t)), MPI_ERR_COUNT);
    ck_assert_int_eq(error_class(MPI_Type_indexed(2, neg, disp, MPI_INT, &t)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_create_hindexed(2, neg, adisp, MPI_INT, &t)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_create_indexed_block(2, -3, disp, MPI_INT, &t)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_create_hindexed_block(-1, 1, adisp, MPI_INT, &t)),
                     MPI_ERR_COUNT);
    ck_assert_int_eq(error_class(MPI_Type_create_struct(2, zero, adisp, types, &t)), MPI_ERR_TYPE);
    ck_assert_int_eq(error_class(MPI_Type_indexed(2, NULL, disp, MPI_INT, &t)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t)), MPI_ERR_TYPE);
    ck_assert_int_eq(error_class(MPI_Type_contiguous(2, MPI_INT, NULL)), MPI_ERR_ARG);
    ck_assert_ptr_eq(t, MPI_DATATYPE_NULL);

    /* zero counts: empty types, no bounds */
    ck_assert_int_eq(MPI_Type_contiguous(0, MPI_INT, &t), MPI_SUCCESS);
    ck_assert(engine(t)->contiguous);
    ck_assert_ptr_eq(engine(t)->basic, MPI_INT);
    check_and_free(&t, 0, 0, 0, 0, 0);
    ck_assert_int_eq(MPI_Type_vector(0, 3, 5, MPI_DOUBLE, &t), MPI_SUCCESS);
    check_and_free(&t, 0, 0, 0, 0, 0);
    ck_assert_int_eq(MPI_Type_vector(4, 0, 5, MPI_DOUBLE, &t), MPI_SUCCESS);
    check_and_free(&t, 0, 0, 0, 0, 0);
    ck_assert_int_eq(MPI_Type_indexed(2, zero, disp, MPI_INT, &t), MPI_SUCCESS);
    check_and_free(&t, 0, 0, 0, 0, 0);
    ck_assert_int_eq(MPI_Type_create_struct(0, NULL, NULL, NULL, &t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_size(t, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 0);
    check_and_free(&t, 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(zero_size_types_have_bounds_only_when_resized)
{
    MPI_Datatype e, r, v, s;
    static const int bl[] = {1, 1};
    static const MPI_Aint disp[] = {100, 0};
    MPI_Datatype types[2];
    int pos = 0;
    char out[4];

    ck_assert_int_eq(MPI_Type_contiguous(0, MPI_INT, &e), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_resized(e, 0, 16, &r), MPI_SUCCESS);
    check_bounds(r, 0, 0, 16, 0, 0);
    ck_assert(!engine(r)->contiguous);
    /* a vector of empty-but-resized elements spans them */
    ck_assert_int_eq(MPI_Type_vector(3, 1, 2, r, &v), MPI_SUCCESS);
    check_bounds(v, 0, 0, 80, 0, 0);
    /* an empty typemap adds no bounds to a struct */
    types[0] = e;
    types[1] = MPI_INT;
    ck_assert_int_eq(MPI_Type_create_struct(2, bl, disp, types, &s), MPI_SUCCESS);
    check_and_free(&s, 4, 0, 4, 0, 4);
    ck_assert_int_eq(MPI_Type_commit(&v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Pack(NULL, 5, v, out, 0, &pos, MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(pos, 0);
    check_roundtrip(v, 4);
    ck_assert_int_eq(MPI_Type_free(&v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&r), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&e), MPI_SUCCESS);
}
END_TEST

START_TEST(count_elements_counts_basic_elements_and_refuses_partial_ones)
{
    static const int bl[] = {1, 2};
    static const MPI_Aint disp[] = {0, 8};
    static const MPI_Datatype types[] = {MPI_SHORT, MPI_DOUBLE};
    MPI_Datatype s, v;
    MPI_Count n = -1;

    ck_assert_int_eq(MPI_Type_create_struct(2, bl, disp, types, &s), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_contiguous(2, s, &v), MPI_SUCCESS);
    /* packed: short(2) double(8) double(8) short(2) double(8) double(8) */
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 0, &n), COMM_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 2, &n), COMM_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 18, &n), COMM_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 20, &n), COMM_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 36, &n), COMM_OK);
    ck_assert_int_eq(n, 6);
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 74, &n), COMM_OK);
    ck_assert_int_eq(n, 13);
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 80, &n), COMM_ERR_BAD_PARAM);
    n = -1;
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 6, &n), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(n, -1);
    ck_assert_int_eq(engine(v)->nelements, 6);
    ck_assert_ptr_eq(engine(v)->basic, MPI_DATATYPE_NULL);
    ck_assert_int_eq(MPI_Type_free(&v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&s), MPI_SUCCESS);

    ck_assert_int_eq(MPI_Type_vector(3, 2, 4, MPI_DOUBLE_INT, &v), MPI_SUCCESS);
    ck_assert_ptr_eq(engine(v)->basic, MPI_DOUBLE_INT);
    ck_assert_int_eq(engine(v)->nelements, 12);
    ck_assert_int_eq(comm_datatype_count_elements(engine(v), 12 * 5 + 8, &n), COMM_OK);
    ck_assert_int_eq(n, 11);
    ck_assert_int_eq(MPI_Type_free(&v), MPI_SUCCESS);
}
END_TEST

START_TEST(huge_types_keep_exact_sizes_without_overflow)
{
    const MPI_Count n = (1 << 28) + 1;
    const MPI_Count big = ((MPI_Count)1 << 31) + 8;
    MPI_Datatype t, v, h;
    MPI_Count size, lb, extent;
    int isize;
    double src[2] = {3.25, -7.5}, out[2] = {0, 0};
    char *base;

    ck_assert_int_eq(MPI_Type_contiguous((int)n, MPI_DOUBLE, &t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_size_x(t, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, big);
    ck_assert_int_eq(MPI_Type_size(t, &isize), MPI_SUCCESS);
    ck_assert_int_eq(isize, MPI_UNDEFINED);
    ck_assert_int_eq(MPI_Type_get_extent_x(t, &lb, &extent), MPI_SUCCESS);
    ck_assert_int_eq(extent, big);
    ck_assert_int_eq(error_class(MPI_Type_get_extent_x(t, NULL, &extent)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Pack_size(1, t, MPI_COMM_WORLD, &isize)), MPI_ERR_ARG);
    ck_assert(engine(t)->contiguous);

    /* 3 of them, strided: sizes past 4 GiB */
    ck_assert_int_eq(MPI_Type_vector(3, 1, 2, t, &v), MPI_SUCCESS);
    check_bounds(v, 3 * big, 0, 5 * big, 0, 5 * big);
    ck_assert_int_eq(MPI_Type_free(&v), MPI_SUCCESS);

    /* packing far into the stream touches only what it must: element 2^28 of the contiguous
     * type lies 2^31 bytes after BASE */
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    base = (char *)((uintptr_t)src - ((uintptr_t)1 << 31));
    ck_assert_uint_eq(comm_datatype_pack(engine(t), base, 1, (size_t)1 << 31, out, 16), 8);
    ck_assert(out[0] == src[0]);

    /* the same through a strided type: element 2^28 at 2^32 bytes */
    ck_assert_int_eq(MPI_Type_create_hvector((int)n, 1, 16, MPI_DOUBLE, &h), MPI_SUCCESS);
    check_bounds(h, big, 0, ((MPI_Count)1 << 32) + 8, 0, ((MPI_Count)1 << 32) + 8);
    base = (char *)((uintptr_t)src - ((uintptr_t)1 << 32));
    out[0] = 0;
    ck_assert_uint_eq(comm_datatype_pack(engine(h), base, 1, (size_t)1 << 31, out, 16), 8);
    ck_assert(out[0] == src[0]);
    ck_assert_uint_eq(comm_datatype_pack(engine(h), base, 1, ((size_t)1 << 31) + 3, out, 16), 5);
    ck_assert(memcmp(out, (char *)&src[0] + 3, 5) == 0);
    ck_assert_int_eq(MPI_Type_free(&h), MPI_SUCCESS);

    /* too big for 64 bits: refused, not wrapped */
    ck_assert_int_eq(error_class(MPI_Type_vector(INT_MAX, INT_MAX, INT_MAX, t, &v)), MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_create_hvector(INT_MAX, 2, INT64_MAX / 2, t, &v)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
}
END_TEST

START_TEST(array_constructors_refuse_bad_shapes)
{
    static const int sizes[] = {4, 5}, subsizes[] = {2, 6}, starts[] = {0, 0};
    static const int good_sub[] = {2, 2}, bad_starts[] = {3, 0};
    static const int blk[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
    static const int dflt[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    MPI_Datatype t = MPI_DATATYPE_NULL;

    ck_assert_int_eq(
        error_class(MPI_Type_create_subarray(0, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t)),
        MPI_ERR_DIMS);
    ck_assert_int_eq(
        error_class(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t)),
        MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_create_subarray(2, sizes, good_sub, bad_starts,
                                                          MPI_ORDER_C, MPI_INT, &t)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(
        error_class(MPI_Type_create_subarray(2, sizes, good_sub, starts, 3, MPI_INT, &t)),
        MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_create_darray(
                         4, 4, 2, sizes, blk, dflt, (const int[]){2, 2}, MPI_ORDER_C, MPI_INT, &t)),
                     MPI_ERR_RANK);
    ck_assert_int_eq(error_class(MPI_Type_create_darray(
                         4, 0, 2, sizes, blk, dflt, (const int[]){2, 3}, MPI_ORDER_C, MPI_INT, &t)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(
        error_class(MPI_Type_create_darray(4, 0, 2, sizes, blk, (const int[]){1, 3},
                                           (const int[]){2, 2}, MPI_ORDER_C, MPI_INT, &t)),
        MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Type_create_darray(
                         2, 0, 2, sizes, (const int[]){MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK},
                         dflt, (const int[]){2, 1}, MPI_ORDER_C, MPI_INT, &t)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(
        error_class(MPI_Type_create_darray(4, 0, 2, sizes, (const int[]){7, 7}, dflt,
                                           (const int[]){2, 2}, MPI_ORDER_C, MPI_INT, &t)),
        MPI_ERR_ARG);
    ck_assert_ptr_eq(t, MPI_DATATYPE_NULL);
}
END_TEST

START_TEST(pack_and_unpack_move_positions_and_refuse_overruns)
{
    int a[4] = {1, 2, 3, 4}, b[4] = {0, 0, 0, 0};
    double d = 2.5, e = 0;
    char buf[64];
    int pos = 0, size = 0;
    MPI_Datatype v;

    ck_assert_int_eq(MPI_Pack_size(4, MPI_INT, MPI_COMM_WORLD, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 16);
    ck_assert_int_eq(MPI_Pack(a, 4, MPI_INT, buf, sizeof(buf), &pos, MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Pack(&d, 1, MPI_DOUBLE, buf, sizeof(buf), &pos, MPI_COMM_WORLD),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, 24);
    pos = 0;
    ck_assert_int_eq(MPI_Unpack(buf, 24, &pos, b, 4, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Unpack(buf, 24, &pos, &e, 1, MPI_DOUBLE, MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(pos, 24);
    ck_assert(memcmp(a, b, sizeof(a)) == 0 && e == d);

    pos = 20;
    ck_assert_int_eq(error_class(MPI_Pack(a, 2, MPI_INT, buf, 24, &pos, MPI_COMM_WORLD)),
                     MPI_ERR_TRUNCATE);
    ck_assert_int_eq(pos, 20);
    ck_assert_int_eq(error_class(MPI_Unpack(buf, 24, &pos, b, 2, MPI_INT, MPI_COMM_WORLD)),
                     MPI_ERR_TRUNCATE);
    ck_assert_int_eq(error_class(MPI_Pack(a, -1, MPI_INT, buf, 24, &pos, MPI_COMM_WORLD)),
                     MPI_ERR_COUNT);
    ck_assert_int_eq(error_class(MPI_Pack(a, 1, MPI_INT, buf, 24, NULL, MPI_COMM_WORLD)),
                     MPI_ERR_ARG);
    ck_assert_int_eq(error_class(MPI_Pack(a, 1, MPI_INT, buf, 24, &pos, MPI_COMM_NULL)),
                     MPI_ERR_COMM);
    ck_assert_int_eq(error_class(MPI_Pack_size(1, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &size)),
                     MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_vector(2, 1, 2, MPI_INT, &v), MPI_SUCCESS);
    pos = 0;
    ck_assert_int_eq(error_class(MPI_Pack(a, 1, v, buf, 24, &pos, MPI_COMM_WORLD)),
                     MPI_ERR_TYPE); /* not committed */
    ck_assert_int_eq(MPI_Pack_size(3, v, MPI_COMM_WORLD, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 24);
    ck_assert_int_eq(MPI_Type_free(&v), MPI_SUCCESS);
}
END_TEST

START_TEST(addresses_and_their_arithmetic)
{
    double x[4] = {0, 0, 0, 0};
    MPI_Aint a0, a2;

    ck_assert_int_eq(MPI_Get_address(&x[0], &a0), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Get_address(&x[2], &a2), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Aint_diff(a2, a0), 16);
    ck_assert_int_eq(MPI_Aint_add(a0, 16), a2);
    ck_assert_int_eq(MPI_Aint_add(a2, -16), a0);
    ck_assert_int_eq(error_class(MPI_Get_address(&x[0], NULL)), MPI_ERR_ARG);
}
END_TEST

/* MPI_BOTTOM with absolute addresses: a struct of the addresses of two variables. */
START_TEST(absolute_addresses_pack_from_mpi_bottom)
{
    int i = 42;
    double d = 6.5;
    int bl[2] = {1, 1};
    MPI_Aint disp[2];
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
    char buf[12];
    int pos = 0;

    ck_assert_int_eq(MPI_Get_address(&i, &disp[0]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Get_address(&d, &disp[1]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_struct(2, bl, disp, types, &t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof(buf), &pos, MPI_COMM_WORLD),
                     MPI_SUCCESS);
    ck_assert(memcmp(buf, &i, 4) == 0 && memcmp(buf + 4, &d, 8) == 0);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
}
END_TEST

/* A type sent as bytes (a one-sided target's type) lays data out as the original does, and
 * malformed bytes are refused, not trusted. */
START_TEST(wire_form_round_trips_and_refuses_malformed_bytes)
{
    static const int bl[] = {2, 1}, disp[] = {3, 0};
    static const int sbl[] = {1, 2, 1};
    static const MPI_Aint sdisp[] = {0, 4, 40};
    MPI_Datatype idx, types[3], st, vec;
    struct comm_datatype *orig, *copy;
    unsigned char src[1024], a[512], b[512], *wire;
    size_t len;

    for (size_t i = 0; i < sizeof(src); i++) {
        src[i] = (unsigned char)(i * 7 + 1);
    }
    ck_assert_int_eq(MPI_Type_indexed(2, bl, disp, MPI_SHORT, &idx), MPI_SUCCESS);
    types[0] = MPI_CHAR;
    types[1] = idx;
    types[2] = MPI_DOUBLE;
    ck_assert_int_eq(MPI_Type_create_struct(3, sbl, sdisp, types, &st), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_vector(3, 2, 3, st, &vec), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&vec), MPI_SUCCESS);
    orig = comm_datatype_lookup(vec);
    len = comm_datatype_wire_size(orig);
    wire = malloc(len);
    ck_assert_ptr_nonnull(wire);
    ck_assert_int_eq(comm_datatype_wire_write(orig, wire, len - 1), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_datatype_wire_write(orig, wire, len), COMM_OK);
    ck_assert_int_eq(comm_datatype_wire_read(wire, len, &copy), COMM_OK);
    ck_assert_int_eq(copy->size, orig->size);
    ck_assert_int_eq(copy->extent, orig->extent);
    ck_assert_int_eq(copy->true_lb, orig->true_lb);
    ck_assert(copy->committed);
    /* Two elements packed by each: the same bytes. */
    ck_assert_uint_eq(comm_datatype_pack(orig, src, 2, 0, a, sizeof(a)),
                      comm_datatype_pack(copy, src, 2, 0, b, sizeof(b)));
    ck_assert(memcmp(a, b, (size_t)(2 * orig->size)) == 0);
    ck_assert_int_eq(comm_datatype_free(copy), COMM_OK);
    /* Truncated, or a child index pointing forward: refused. */
    ck_assert_int_eq(comm_datatype_wire_read(wire, len - 8, &copy), COMM_ERR_BAD_PARAM);
    wire[0] ^= 0xff;
    ck_assert_int_eq(comm_datatype_wire_read(wire, len, &copy), COMM_ERR_BAD_PARAM);
    free(wire);
    ck_assert_int_eq(MPI_Type_free(&vec), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&st), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_free(&idx), MPI_SUCCESS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("datatype");
    TCase *tc = comm_test_case("datatype");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, predefined_types_have_c_sizes_names_and_one_element);
    tcase_add_test(tc, pair_types_follow_c_struct_layout);
    tcase_add_test(tc, contiguous_has_the_bounds_of_its_elements);
    tcase_add_test(tc, vector_strides_in_extents_and_may_go_backwards);
    tcase_add_test(tc, strided_runs_of_every_size_pack_like_the_reference);
    tcase_add_test(tc, hvector_strides_in_bytes);
    tcase_add_test(tc, indexed_ignores_empty_blocks_for_bounds);
    tcase_add_test(tc, hindexed_takes_byte_displacements);
    tcase_add_test(tc, indexed_block_has_one_block_length);
    tcase_add_test(tc, hindexed_block_keeps_the_given_order);
    tcase_add_test(tc, struct_mixes_types_without_padding_the_extent);
    tcase_add_test(tc, subarray_in_c_and_fortran_order);
    tcase_add_test(tc, darray_block_cyclic_and_none_in_both_orders);
    tcase_add_test(tc, resized_changes_bounds_not_data);
    tcase_add_test(tc, dup_copies_layout_and_commit_state);
    tcase_add_test(tc, vector_of_struct_of_indexed_packs_like_the_reference);
    tcase_add_test(tc, resized_inside_vector_strides_by_the_new_extent);
    tcase_add_test(tc, descriptions_merge_runs_and_regular_blocks);
    tcase_add_test(tc, cursor_yields_whole_runs_and_stops_anywhere);
    tcase_add_test(tc, deep_nesting_is_flattened_and_still_packs);
    tcase_add_test(tc, envelope_and_contents_round_trip_for_every_constructor);
    tcase_add_test(tc, freeing_a_type_used_by_another_keeps_it_working);
    tcase_add_test(tc, free_refuses_predefined_and_commit_is_idempotent);
    tcase_add_test(tc, negative_counts_are_refused_and_zero_counts_are_empty);
    tcase_add_test(tc, zero_size_types_have_bounds_only_when_resized);
    tcase_add_test(tc, count_elements_counts_basic_elements_and_refuses_partial_ones);
    tcase_add_test(tc, huge_types_keep_exact_sizes_without_overflow);
    tcase_add_test(tc, array_constructors_refuse_bad_shapes);
    tcase_add_test(tc, pack_and_unpack_move_positions_and_refuse_overruns);
    tcase_add_test(tc, addresses_and_their_arithmetic);
    tcase_add_test(tc, absolute_addresses_pack_from_mpi_bottom);
    tcase_add_test(tc, stream_copy_writes_exactly_the_bytes_of_memcpy);
    tcase_add_test(tc, wire_form_round_trips_and_refuses_malformed_bytes);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
