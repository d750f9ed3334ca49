/*
 * datatype.c - datatype objects: the predefined table, handle lookup, references, free.
 *
 * Layer: runtime core (datatype engine).  Must not: check MPI arguments or report errors to
 * the user (api/api_datatype.c does); build descriptions (datatype_desc.c) or pack.
 *
 * Predefined types live in a static table indexed by their handle, built on first use.  A
 * derived type's handle is its address; every live derived type is in a registry (a hash set
 * of addresses, under a mutex) so that a handle that names nothing, or one the user already
 * freed, is refused instead of dereferenced.
 */
#include "config.h"

#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "base/log.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* Handles 0x200 (MPI_DATATYPE_NULL) to 0x23e (MPI_CXX_LONG_DOUBLE_COMPLEX). */
enum { DT_HANDLE_FIRST = 0x200, DT_NPREDEFINED = 0x3f };

/* C layouts of the pair types. */
struct dt_float_int {
    float a;
    int b;
};
struct dt_double_int {
    double a;
    int b;
};
struct dt_long_int {
    long a;
    int b;
};
struct dt_2int {
    int a;
    int b;
};
struct dt_short_int {
    short a;
    int b;
};
struct dt_long_double_int {
    long double a;
    int b;
};
struct dt_2float {
    float a;
    float b;
};
struct dt_2double {
    double a;
    double b;
};

/* One predefined type: its size, or for a pair the size of each member, the offset of the
 * second and the extent. */
struct dt_predefined_info {
    MPI_Datatype handle;
    const char *name;
    size_t first;
    size_t second_offset;
    size_t second;
    size_t extent;
};

static const struct dt_predefined_info dt_predefined_info[] = {
    {MPI_CHAR, "MPI_CHAR", sizeof(char), 0, 0, sizeof(char)},
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", sizeof(signed char), 0, 0, sizeof(signed char)},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", sizeof(unsigned char), 0, 0, sizeof(unsigned char)},
    {MPI_BYTE, "MPI_BYTE", sizeof(unsigned char), 0, 0, sizeof(unsigned char)},
    {MPI_WCHAR, "MPI_WCHAR", sizeof(wchar_t), 0, 0, sizeof(wchar_t)},
    {MPI_SHORT, "MPI_SHORT", sizeof(short), 0, 0, sizeof(short)},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", sizeof(unsigned short), 0, 0,
     sizeof(unsigned short)},
    {MPI_INT, "MPI_INT", sizeof(int), 0, 0, sizeof(int)},
    {MPI_UNSIGNED, "MPI_UNSIGNED", sizeof(unsigned), 0, 0, sizeof(unsigned)},
    {MPI_LONG, "MPI_LONG", sizeof(long), 0, 0, sizeof(long)},
    {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", sizeof(unsigned long), 0, 0, sizeof(unsigned long)},
    {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", sizeof(long long), 0, 0, sizeof(long long)},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", sizeof(unsigned long long), 0, 0,
     sizeof(unsigned long long)},
    {MPI_FLOAT, "MPI_FLOAT", sizeof(float), 0, 0, sizeof(float)},
    {MPI_DOUBLE, "MPI_DOUBLE", sizeof(double), 0, 0, sizeof(double)},
    {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double), 0, 0, sizeof(long double)},
    {MPI_C_BOOL, "MPI_C_BOOL", sizeof(_Bool), 0, 0, sizeof(_Bool)},
    {MPI_INT8_T, "MPI_INT8_T", sizeof(int8_t), 0, 0, sizeof(int8_t)},
    {MPI_INT16_T, "MPI_INT16_T", sizeof(int16_t), 0, 0, sizeof(int16_t)},
    {MPI_INT32_T, "MPI_INT32_T", sizeof(int32_t), 0, 0, sizeof(int32_t)},
    {MPI_INT64_T, "MPI_INT64_T", sizeof(int64_t), 0, 0, sizeof(int64_t)},
    {MPI_UINT8_T, "MPI_UINT8_T", sizeof(uint8_t), 0, 0, sizeof(uint8_t)},
    {MPI_UINT16_T, "MPI_UINT16_T", sizeof(uint16_t), 0, 0, sizeof(uint16_t)},
    {MPI_UINT32_T, "MPI_UINT32_T", sizeof(uint32_t), 0, 0, sizeof(uint32_t)},
    {MPI_UINT64_T, "MPI_UINT64_T", sizeof(uint64_t), 0, 0, sizeof(uint64_t)},
    {MPI_AINT, "MPI_AINT", sizeof(MPI_Aint), 0, 0, sizeof(MPI_Aint)},
    {MPI_COUNT, "MPI_COUNT", sizeof(MPI_Count), 0, 0, sizeof(MPI_Count)},
    {MPI_OFFSET, "MPI_OFFSET", sizeof(MPI_Offset), 0, 0, sizeof(MPI_Offset)},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", sizeof(float _Complex), 0, 0,
     sizeof(float _Complex)},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", sizeof(double _Complex), 0, 0,
     sizeof(double _Complex)},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", sizeof(long double _Complex), 0, 0,
     sizeof(long double _Complex)},
    {MPI_PACKED, "MPI_PACKED", sizeof(unsigned char), 0, 0, sizeof(unsigned char)},
    {MPI_FLOAT_INT, "MPI_FLOAT_INT", sizeof(float), offsetof(struct dt_float_int, b), sizeof(int),
     sizeof(struct dt_float_int)},
    {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", sizeof(double), offsetof(struct dt_double_int, b),
     sizeof(int), sizeof(struct dt_double_int)},
    {MPI_LONG_INT, "MPI_LONG_INT", sizeof(long), offsetof(struct dt_long_int, b), sizeof(int),
     sizeof(struct dt_long_int)},
    {MPI_2INT, "MPI_2INT", sizeof(int), offsetof(struct dt_2int, b), sizeof(int),
     sizeof(struct dt_2int)},
    {MPI_SHORT_INT, "MPI_SHORT_INT", sizeof(short), offsetof(struct dt_short_int, b), sizeof(int),
     sizeof(struct dt_short_int)},
    {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", sizeof(long double),
     offsetof(struct dt_long_double_int, b), sizeof(int), sizeof(struct dt_long_double_int)},
    /* Fortran: default INTEGER, REAL and LOGICAL are 4 bytes, DOUBLE PRECISION 8. */
    {MPI_CHARACTER, "MPI_CHARACTER", sizeof(char), 0, 0, sizeof(char)},
    {MPI_INTEGER, "MPI_INTEGER", sizeof(int32_t), 0, 0, sizeof(int32_t)},
    {MPI_REAL, "MPI_REAL", sizeof(float), 0, 0, sizeof(float)},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", sizeof(double), 0, 0, sizeof(double)},
    {MPI_LOGICAL, "MPI_LOGICAL", sizeof(int32_t), 0, 0, sizeof(int32_t)},
    {MPI_COMPLEX, "MPI_COMPLEX", sizeof(float _Complex), 0, 0, sizeof(float _Complex)},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", sizeof(double _Complex), 0, 0,
     sizeof(double _Complex)},
    {MPI_2INTEGER, "MPI_2INTEGER", sizeof(int), offsetof(struct dt_2int, b), sizeof(int),
     sizeof(struct dt_2int)},
    {MPI_2REAL, "MPI_2REAL", sizeof(float), offsetof(struct dt_2float, b), sizeof(float),
     sizeof(struct dt_2float)},
    {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", sizeof(double), offsetof(struct dt_2double, b),
     sizeof(double), sizeof(struct dt_2double)},
    {MPI_INTEGER1, "MPI_INTEGER1", sizeof(int8_t), 0, 0, sizeof(int8_t)},
    {MPI_INTEGER2, "MPI_INTEGER2", sizeof(int16_t), 0, 0, sizeof(int16_t)},
    {MPI_INTEGER4, "MPI_INTEGER4", sizeof(int32_t), 0, 0, sizeof(int32_t)},
    {MPI_INTEGER8, "MPI_INTEGER8", sizeof(int64_t), 0, 0, sizeof(int64_t)},
    {MPI_REAL4, "MPI_REAL4", sizeof(float), 0, 0, sizeof(float)},
    {MPI_REAL8, "MPI_REAL8", sizeof(double), 0, 0, sizeof(double)},
    /* REAL*16 is IEEE binary128, 16 bytes, whatever the C long double is. */
    {MPI_REAL16, "MPI_REAL16", 16, 0, 0, 16},
    {MPI_COMPLEX8, "MPI_COMPLEX8", sizeof(float _Complex), 0, 0, sizeof(float _Complex)},
    {MPI_COMPLEX16, "MPI_COMPLEX16", sizeof(double _Complex), 0, 0, sizeof(double _Complex)},
    {MPI_COMPLEX32, "MPI_COMPLEX32", 32, 0, 0, 32},
    /* C++: bool is one byte and std::complex<T> is laid out as T _Complex (C++11 26.4). */
    {MPI_CXX_BOOL, "MPI_CXX_BOOL", sizeof(_Bool), 0, 0, sizeof(_Bool)},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", sizeof(float _Complex), 0, 0,
     sizeof(float _Complex)},
    {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", sizeof(double _Complex), 0, 0,
     sizeof(double _Complex)},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", sizeof(long double _Complex), 0, 0,
     sizeof(long double _Complex)},
};

enum { DT_NINFO = sizeof(dt_predefined_info) / sizeof(dt_predefined_info[0]) };

static struct comm_datatype dt_predefined[DT_NPREDEFINED];
static struct comm_dt_node dt_predefined_node[DT_NPREDEFINED];
static struct comm_dt_entry dt_predefined_entry[DT_NPREDEFINED][2];
static pthread_once_t dt_predefined_once = PTHREAD_ONCE_INIT;

static void dt_predefined_init(void)
{
    for (size_t i = 0; i < DT_NINFO; i++) {
        const struct dt_predefined_info *info = &dt_predefined_info[i];
        size_t k = (size_t)((uintptr_t)info->handle - DT_HANDLE_FIRST);
        struct comm_datatype *dt = &dt_predefined[k];
        struct comm_dt_node *node = &dt_predefined_node[k];
        struct comm_dt_entry *e = dt_predefined_entry[k];
        bool pair = info->second > 0;
        size_t size = info->first + info->second;

        e[0] = (struct comm_dt_entry){.disp = 0, .count = 1, .size = (MPI_Count)info->first};
        node->nentries = 1;
        if (pair && info->second_offset == info->first) {
            e[0].size = (MPI_Count)size; /* no padding: one run */
        } else if (pair) {
            e[1] = (struct comm_dt_entry){.disp = (MPI_Aint)info->second_offset,
                                          .count = 1,
                                          .size = (MPI_Count)info->second,
                                          .packed = (MPI_Count)info->first};
            node->nentries = 2;
        }
        node->refcount = -1;
        node->depth = 1;
        node->size = (MPI_Count)size;
        node->lo = 0;
        node->hi = pair ? (MPI_Aint)(info->second_offset + info->second) : (MPI_Aint)size;
        node->entries = e;

        dt->handle = info->handle;
        dt->predefined = true;
        dt->committed = true;
        dt->combiner = MPI_COMBINER_NAMED;
        dt->size = (MPI_Count)size;
        dt->lb = 0;
        dt->extent = (MPI_Aint)info->extent;
        dt->true_lb = 0;
        dt->true_extent = node->hi;
        dt->has_bounds = true;
        dt->contiguous = node->nentries == 1 && dt->extent == dt->size;
        dt->nelements = pair ? 2 : 1;
        dt->basic = info->handle;
        dt->pair_first = pair ? (MPI_Count)info->first : 0;
        dt->desc = node;
        strncpy(dt->name, info->name, sizeof(dt->name) - 1);
    }
}

static struct comm_datatype *dt_predefined_get(MPI_Datatype handle)
{
    uintptr_t k = (uintptr_t)handle - DT_HANDLE_FIRST;

    pthread_once(&dt_predefined_once, dt_predefined_init);
    return &dt_predefined[k];
}

static bool dt_is_predefined_handle(MPI_Datatype handle)
{
    uintptr_t h = (uintptr_t)handle;

    return h >= DT_HANDLE_FIRST && h < DT_HANDLE_FIRST + DT_NPREDEFINED;
}

/*
 * The registry of live derived types: open addressing with linear probing over a power-of-two
 * table; deleted slots hold a tombstone.  Freed when it empties, so nothing outlives the last
 * type.
 */
static pthread_mutex_t dt_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct comm_datatype **dt_registry;
static size_t dt_registry_cap, dt_registry_used, dt_registry_live;
static struct comm_datatype dt_registry_tombstone; /* marks a deleted slot */

static size_t dt_registry_hash(const struct comm_datatype *dt, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)dt;

    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

/* The slot of DT, or of the first free slot where it would go; the caller holds the lock. */
static size_t dt_registry_find(const struct comm_datatype *dt, bool for_insert)
{
    size_t i = dt_registry_hash(dt, dt_registry_cap), first_free = SIZE_MAX;

    for (size_t probes = 0; probes < dt_registry_cap; probes++) {
        struct comm_datatype *slot = dt_registry[i];

        if (slot == dt) {
            return i;
        }
        if (slot == &dt_registry_tombstone && first_free == SIZE_MAX) {
            first_free = i;
        }
        if (slot == NULL) {
            return for_insert && first_free != SIZE_MAX ? first_free : i;
        }
        i = (i + 1) & (dt_registry_cap - 1);
    }
    return first_free;
}

static int dt_registry_grow(void)
{
    size_t cap = dt_registry_cap == 0 ? 64 : dt_registry_cap;
    struct comm_datatype **old = dt_registry;
    size_t old_cap = dt_registry_cap;

    if (dt_registry_live * 2 >= cap) {
        cap *= 2;
    }
    dt_registry = calloc(cap, sizeof(*dt_registry));
    if (dt_registry == NULL) {
        dt_registry = old;
        comm_log_error("datatype", "out of memory for the table of %zu datatype handles", cap);
        return COMM_ERR_NOMEM;
    }
    dt_registry_cap = cap;
    dt_registry_used = dt_registry_live;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i] != NULL && old[i] != &dt_registry_tombstone) {
            dt_registry[dt_registry_find(old[i], true)] = old[i];
        }
    }
    free(old);
    return COMM_OK;
}

static int dt_registry_add(struct comm_datatype *dt)
{
    int rc = COMM_OK;
    size_t i;

    pthread_mutex_lock(&dt_registry_lock);
    if ((dt_registry_used + 1) * 4 > dt_registry_cap * 3) {
        rc = dt_registry_grow();
    }
    if (rc == COMM_OK) {
        i = dt_registry_find(dt, true);
        if (dt_registry[i] == NULL) {
            dt_registry_used++;
        }
        dt_registry[i] = dt;
        dt_registry_live++;
    }
    pthread_mutex_unlock(&dt_registry_lock);
    return rc;
}

static void dt_registry_remove(struct comm_datatype *dt)
{
    size_t i;

    pthread_mutex_lock(&dt_registry_lock);
    i = dt_registry_find(dt, false);
    if (i != SIZE_MAX && dt_registry[i] == dt) {
        dt_registry[i] = &dt_registry_tombstone;
        if (--dt_registry_live == 0) {
            free(dt_registry);
            dt_registry = NULL;
            dt_registry_cap = dt_registry_used = 0;
        }
    }
    pthread_mutex_unlock(&dt_registry_lock);
}

struct comm_datatype *comm_datatype_lookup(MPI_Datatype handle)
{
    struct comm_datatype *dt = NULL;

    if (dt_is_predefined_handle(handle)) {
        return handle == MPI_DATATYPE_NULL ? NULL : dt_predefined_get(handle);
    }
    pthread_mutex_lock(&dt_registry_lock);
    if (dt_registry_cap > 0) {
        size_t i = dt_registry_find(handle, false);

        if (i != SIZE_MAX && dt_registry[i] == handle && handle->user_refs > 0) {
            dt = handle;
        }
    }
    pthread_mutex_unlock(&dt_registry_lock);
    return dt;
}

struct comm_datatype *comm_dt_object(MPI_Datatype handle)
{
    return dt_is_predefined_handle(handle) ? dt_predefined_get(handle) : handle;
}

int comm_dt_alloc(int combiner, int ninteger, int naddress, int ntype,
                  struct comm_datatype **dt_out)
{
    struct comm_datatype *dt = calloc(1, sizeof(*dt));

    if (dt == NULL) {
        comm_log_error("datatype", "out of memory for a new datatype");
        return COMM_ERR_NOMEM;
    }
    dt->integers = ninteger > 0 ? calloc((size_t)ninteger, sizeof(*dt->integers)) : NULL;
    dt->addresses = naddress > 0 ? calloc((size_t)naddress, sizeof(*dt->addresses)) : NULL;
    dt->types = ntype > 0 ? calloc((size_t)ntype, sizeof(*dt->types)) : NULL;
    if ((ninteger > 0 && dt->integers == NULL) || (naddress > 0 && dt->addresses == NULL) ||
        (ntype > 0 && dt->types == NULL)) {
        comm_log_error("datatype", "out of memory for the contents of a new datatype");
        goto out_free_arrays;
    }
    dt->handle = dt;
    dt->refcount = 1;
    dt->user_refs = 1;
    dt->combiner = combiner;
    dt->basic = MPI_DATATYPE_NULL;
    dt->ninteger = ninteger;
    dt->naddress = naddress;
    dt->ntype = ntype;
    if (dt_registry_add(dt) < 0) {
        goto out_free_arrays; /* logged */
    }
    *dt_out = dt;
    return COMM_OK;

out_free_arrays:
    free(dt->integers);
    free(dt->addresses);
    free(dt->types);
    free(dt);
    return COMM_ERR_NOMEM;
}

static void dt_destroy(struct comm_datatype *dt)
{
    dt_registry_remove(dt);
    comm_dt_node_release(dt->desc);
    for (int i = 0; i < dt->ntype; i++) {
        if (dt->types[i] != NULL) {
            comm_datatype_release(comm_dt_object(dt->types[i]));
        }
    }
    free(dt->integers);
    free(dt->addresses);
    free(dt->types);
    free(dt);
}

void comm_datatype_retain(struct comm_datatype *dt)
{
    if (dt != NULL && !dt->predefined) {
        __atomic_add_fetch(&dt->refcount, 1, __ATOMIC_RELAXED);
    }
}

void comm_datatype_release(struct comm_datatype *dt)
{
    if (dt == NULL || dt->predefined) {
        return;
    }
    if (__atomic_sub_fetch(&dt->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        dt_destroy(dt);
    }
}

void comm_datatype_retain_user(struct comm_datatype *dt)
{
    if (dt == NULL || dt->predefined) {
        return;
    }
    comm_datatype_retain(dt);
    pthread_mutex_lock(&dt_registry_lock);
    dt->user_refs++;
    pthread_mutex_unlock(&dt_registry_lock);
}

int comm_datatype_free(struct comm_datatype *dt)
{
    int rc = COMM_OK;

    if (dt->predefined) {
        return COMM_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&dt_registry_lock);
    if (dt->user_refs > 0) {
        dt->user_refs--;
    } else {
        rc = COMM_ERR_BAD_PARAM;
    }
    pthread_mutex_unlock(&dt_registry_lock);
    if (rc == COMM_OK) {
        comm_datatype_release(dt);
    }
    return rc;
}

int comm_datatype_commit(struct comm_datatype *dt)
{
    dt->committed = true;
    return COMM_OK;
}
