/*
 * api_handles.c - Fortran handles: MPI_*_c2f and MPI_*_f2c for every kind of handle, and
 * MPI_Status_c2f / MPI_Status_f2c.
 *
 * Layer: api.  Must not: look inside the objects (a handle is only a key here).
 *
 * C handles are pointers (predefined ones are small constants); a Fortran handle is an
 * integer.  Predefined handles have fixed indices: the constant minus the first constant of its
 * kind, so the null handle of every kind is 0 and MPI_INT is 8 (mpi.h's order).  A user
 * handle gets an index from USER_FIRST on at its first MPI_*_c2f; the index is released when
 * the user frees the object (comm_api_handle_forget, called by the free functions), and may
 * then be given to another object, as a C address may.
 *
 * MPI_*_f2c is an array lookup without a lock: the table of a kind is a fixed directory of
 * chunks that never move once allocated, read with atomic loads.  An index that names nothing
 * (never given, released, negative, out of range) gives the kind's null handle.  MPI_*_c2f
 * finds the index of a user handle in a hash table (open addressing) under the kind's lock.
 * Threads: every function is thread-safe.
 */
#include "config.h"

#include "api/api.h"
#include "base/error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    HANDLE_USER_FIRST = 256, /* indices below are predefined handles */
    HANDLE_CHUNK = 4096,
    HANDLE_NCHUNKS = 1024, /* 4 Mi user handles of each kind at a time */
};

/* Where each kind's predefined constants start (its null handle) and how many there are. */
static const struct {
    const char *name;
    uintptr_t first;
    int npredefined;
} handle_kinds[COMM_API_HANDLE_NKINDS] = {
    [COMM_API_HANDLE_COMM] = {"MPI_Comm_c2f", 0x100, 3},
    [COMM_API_HANDLE_TYPE] = {"MPI_Type_c2f", 0x200, 0x3f},
    [COMM_API_HANDLE_GROUP] = {"MPI_Group_c2f", 0x108, 2},
    [COMM_API_HANDLE_REQUEST] = {"MPI_Request_c2f", 0x180, 1},
    [COMM_API_HANDLE_OP] = {"MPI_Op_c2f", 0x140, 15},
    [COMM_API_HANDLE_INFO] = {"MPI_Info_c2f", 0x110, 2},
    [COMM_API_HANDLE_ERRHANDLER] = {"MPI_Errhandler_c2f", 0x120, 3},
    [COMM_API_HANDLE_MESSAGE] = {"MPI_Message_c2f", 0x190, 2},
    [COMM_API_HANDLE_SESSION] = {"MPI_Session_c2f", 0x130, 1},
    [COMM_API_HANDLE_WIN] = {"MPI_Win_c2f", 0x150, 1},
};

struct handle_slot {
    const void *handle; /* NULL: empty; &handle_tombstone: deleted */
    int index;
};

struct handle_table {
    pthread_mutex_t lock;
    _Atomic(_Atomic(const void *) *) chunks[HANDLE_NCHUNKS]; /* read without the lock */
    atomic_size_t live;                                      /* user handles with an index */
    int next;          /* indices never given out start here */
    int *free_indices; /* released, for reuse */
    size_t nfree, free_cap;
    struct handle_slot *slots; /* handle -> index */
    size_t cap, used;          /* used counts tombstones */
};

static struct handle_table handle_tables[COMM_API_HANDLE_NKINDS] = {
    [0 ... COMM_API_HANDLE_NKINDS - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER},
};
static const char handle_tombstone;

static bool handle_is_predefined(enum comm_api_handle_kind kind, const void *handle)
{
    uintptr_t h = (uintptr_t)handle;

    return h >= handle_kinds[kind].first &&
           h < handle_kinds[kind].first + (uintptr_t)handle_kinds[kind].npredefined;
}

static size_t handle_hash(const void *handle, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)handle;

    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

/* The slot holding HANDLE, or NULL; the caller holds the lock. */
static struct handle_slot *handle_find(struct handle_table *t, const void *handle)
{
    if (t->cap == 0) {
        return NULL;
    }
    for (size_t i = handle_hash(handle, t->cap), n = 0; n < t->cap;
         i = (i + 1) & (t->cap - 1), n++) {
        if (t->slots[i].handle == handle) {
            return &t->slots[i];
        }
        if (t->slots[i].handle == NULL) {
            return NULL;
        }
    }
    return NULL;
}

/* Rebuilds the hash table at twice the live count (at least 64), dropping tombstones. */
static int handle_rehash(struct handle_table *t)
{
    size_t live = atomic_load(&t->live), cap = 64;
    struct handle_slot *slots;

    while (cap < 4 * (live + 1)) {
        cap *= 2;
    }
    slots = calloc(cap, sizeof(*slots));
    if (slots == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (size_t i = 0; i < t->cap; i++) {
        const void *h = t->slots[i].handle;
        size_t j;

        if (h == NULL || h == &handle_tombstone) {
            continue;
        }
        for (j = handle_hash(h, cap); slots[j].handle != NULL; j = (j + 1) & (cap - 1)) {
        }
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    t->used = live;
    return COMM_OK;
}

/* A free index, with its chunk allocated; -1 when out of memory or of indices. */
static int handle_take_index(struct handle_table *t)
{
    int index;
    size_t chunk;

    if (t->nfree > 0) {
        return t->free_indices[--t->nfree];
    }
    if (t->next >= HANDLE_NCHUNKS * HANDLE_CHUNK) {
        return -1;
    }
    index = t->next;
    chunk = (size_t)index / HANDLE_CHUNK;
    if (atomic_load_explicit(&t->chunks[chunk], memory_order_relaxed) == NULL) {
        _Atomic(const void *) *c = calloc(HANDLE_CHUNK, sizeof(*c));

        if (c == NULL) {
            return -1;
        }
        for (size_t i = 0; i < HANDLE_CHUNK; i++) {
            atomic_init(&c[i], NULL);
        }
        /* Published before any index in it is: a reader never sees a half-made chunk. */
        atomic_store_explicit(&t->chunks[chunk], c, memory_order_release);
    }
    t->next++;
    return index;
}

/* The entry of a given index (its chunk exists); the caller holds the lock. */
static _Atomic(const void *) *handle_entry(struct handle_table *t, int index)
{
    _Atomic(const void *) *chunk =
        atomic_load_explicit(&t->chunks[index / HANDLE_CHUNK], memory_order_relaxed);

    return &chunk[index % HANDLE_CHUNK];
}

static MPI_Fint handle_c2f(enum comm_api_handle_kind kind, const void *handle)
{
    struct handle_table *t = &handle_tables[kind];
    struct handle_slot *slot;
    int index = -1;

    if (handle_is_predefined(kind, handle)) {
        return (MPI_Fint)((uintptr_t)handle - handle_kinds[kind].first);
    }
    pthread_mutex_lock(&t->lock);
    slot = handle_find(t, handle);
    if (slot != NULL) {
        index = slot->index;
        goto out_unlock;
    }
    if ((t->used + 1) * 2 > t->cap && handle_rehash(t) < 0) {
        goto out_unlock;
    }
    index = handle_take_index(t);
    if (index >= 0) {
        size_t i = handle_hash(handle, t->cap);

        while (t->slots[i].handle != NULL && t->slots[i].handle != &handle_tombstone) {
            i = (i + 1) & (t->cap - 1);
        }
        if (t->slots[i].handle == NULL) {
            t->used++;
        }
        t->slots[i] = (struct handle_slot){.handle = handle, .index = index};
        atomic_store_explicit(handle_entry(t, index), handle, memory_order_release);
        atomic_fetch_add(&t->live, 1);
    }
out_unlock:
    pthread_mutex_unlock(&t->lock);
    if (index < 0) {
        comm_api_error(NULL, MPI_ERR_NO_MEM,
                       "%s: no Fortran index left for handle %#lx (out of memory, or %d user "
                       "handles of this kind hold one)",
                       handle_kinds[kind].name, (unsigned long)(uintptr_t)handle,
                       HANDLE_NCHUNKS * HANDLE_CHUNK);
        return 0;
    }
    return (MPI_Fint)(HANDLE_USER_FIRST + index);
}

/* The handle of Fortran index F, or NULL when F names no user handle. */
static const void *handle_f2c(enum comm_api_handle_kind kind, MPI_Fint f)
{
    struct handle_table *t = &handle_tables[kind];
    _Atomic(const void *) *chunk;
    long index = (long)f - HANDLE_USER_FIRST;

    if (f >= 0 && f < handle_kinds[kind].npredefined) {
        return (const void *)(handle_kinds[kind].first + (uintptr_t)f);
    }
    if (index < 0 || index >= (long)HANDLE_NCHUNKS * HANDLE_CHUNK) {
        return NULL;
    }
    chunk = atomic_load_explicit(&t->chunks[index / HANDLE_CHUNK], memory_order_acquire);
    if (chunk == NULL) {
        return NULL;
    }
    return atomic_load_explicit(&chunk[index % HANDLE_CHUNK], memory_order_acquire);
}

void comm_api_handle_forget(enum comm_api_handle_kind kind, const void *handle)
{
    struct handle_table *t = &handle_tables[kind];
    struct handle_slot *slot;

    if (atomic_load(&t->live) == 0 || handle_is_predefined(kind, handle)) {
        return;
    }
    pthread_mutex_lock(&t->lock);
    slot = handle_find(t, handle);
    if (slot != NULL) {
        int index = slot->index;

        if (t->nfree == t->free_cap) {
            size_t cap = t->free_cap == 0 ? 64 : 2 * t->free_cap;
            int *grown = realloc(t->free_indices, cap * sizeof(*grown));

            if (grown != NULL) {
                t->free_indices = grown;
                t->free_cap = cap;
            }
        }
        if (t->nfree < t->free_cap) {
            t->free_indices[t->nfree++] = index; /* else the index is never reused */
        }
        atomic_store_explicit(handle_entry(t, index), NULL, memory_order_release);
        slot->handle = &handle_tombstone;
        atomic_fetch_sub(&t->live, 1);
    }
    pthread_mutex_unlock(&t->lock);
}

/* One pair of conversion functions per kind; an unknown index gives the null handle. */
#define HANDLE_CONVERSIONS(Name, CType, kind, null)                                                \
    MPI_Fint PMPI_##Name##_c2f(CType handle)                                                       \
    {                                                                                              \
        return handle_c2f(kind, handle);                                                           \
    }                                                                                              \
    COMM_API_ALIAS(MPI_##Name##_c2f);                                                              \
    CType PMPI_##Name##_f2c(MPI_Fint handle)                                                       \
    {                                                                                              \
        const void *h = handle_f2c(kind, handle);                                                  \
        return h != NULL ? (CType)(uintptr_t)h : null;                                             \
    }                                                                                              \
    COMM_API_ALIAS(MPI_##Name##_f2c)

HANDLE_CONVERSIONS(Comm, MPI_Comm, COMM_API_HANDLE_COMM, MPI_COMM_NULL);
HANDLE_CONVERSIONS(Type, MPI_Datatype, COMM_API_HANDLE_TYPE, MPI_DATATYPE_NULL);
HANDLE_CONVERSIONS(Group, MPI_Group, COMM_API_HANDLE_GROUP, MPI_GROUP_NULL);
HANDLE_CONVERSIONS(Request, MPI_Request, COMM_API_HANDLE_REQUEST, MPI_REQUEST_NULL);
HANDLE_CONVERSIONS(Op, MPI_Op, COMM_API_HANDLE_OP, MPI_OP_NULL);
HANDLE_CONVERSIONS(Info, MPI_Info, COMM_API_HANDLE_INFO, MPI_INFO_NULL);
HANDLE_CONVERSIONS(Errhandler, MPI_Errhandler, COMM_API_HANDLE_ERRHANDLER, MPI_ERRHANDLER_NULL);
HANDLE_CONVERSIONS(Message, MPI_Message, COMM_API_HANDLE_MESSAGE, MPI_MESSAGE_NULL);
HANDLE_CONVERSIONS(Session, MPI_Session, COMM_API_HANDLE_SESSION, MPI_SESSION_NULL);
HANDLE_CONVERSIONS(Win, MPI_Win, COMM_API_HANDLE_WIN, MPI_WIN_NULL);

/* A Fortran status is the C status's eight ints, in the same order. */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "a Fortran status is a copy of the C status");

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    if (c_status == MPI_STATUS_IGNORE || f_status == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Status_c2f: %s",
                              f_status == NULL ? "f_status is NULL"
                                               : "c_status is MPI_STATUS_IGNORE or NULL");
    }
    memcpy(f_status, c_status, sizeof(*c_status));
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Status_c2f);

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    if (f_status == MPI_F_STATUS_IGNORE || c_status == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Status_f2c: %s",
                              c_status == NULL ? "c_status is NULL"
                                               : "f_status is MPI_F_STATUS_IGNORE or NULL");
    }
    memcpy(c_status, f_status, sizeof(*c_status));
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Status_f2c);
