/*
 * info.c - info objects: an ordered array of (key, value) string pairs.
 *
 * Layer: runtime core.  Must not: check MPI arguments, raise MPI errors or print.
 *
 * Info objects hold a handful of hints, so lookups are linear scans; the array keeps the order
 * in which keys were first set, which MPI_Info_get_nthkey exposes.
 */
#include "config.h"

#include "runtime/info.h"
#include "base/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* MPI_INFO_ENV: comm records nothing of the environment in it (the standard allows that).
 * Its reference never drops to 0: the API refuses to free it. */
static struct comm_info info_env = {.refcount = 1};

struct comm_info *comm_info_lookup(MPI_Info handle)
{
    if (handle == MPI_INFO_ENV) {
        return &info_env;
    }
    if ((uintptr_t)handle < 0x1000) {
        return NULL; /* MPI_INFO_NULL and the other small constants */
    }
    return (struct comm_info *)handle;
}

MPI_Info comm_info_handle(struct comm_info *info)
{
    if (info == &info_env) {
        return MPI_INFO_ENV;
    }
    return (MPI_Info)info;
}

int comm_info_create(struct comm_info **info_out)
{
    struct comm_info *info = calloc(1, sizeof(*info));

    if (info == NULL) {
        return COMM_ERR_NOMEM;
    }
    info->refcount = 1;
    *info_out = info;
    return COMM_OK;
}

/* Grows the array so that one more entry fits. */
static int info_reserve(struct comm_info *info)
{
    struct comm_info_entry *entries;
    int capacity;

    if (info->nentries < info->capacity) {
        return COMM_OK;
    }
    capacity = info->capacity > 0 ? 2 * info->capacity : 8;
    entries = realloc(info->entries, (size_t)capacity * sizeof(*entries));
    if (entries == NULL) {
        return COMM_ERR_NOMEM;
    }
    info->entries = entries;
    info->capacity = capacity;
    return COMM_OK;
}

static int info_find(const struct comm_info *info, const char *key)
{
    for (int i = 0; i < info->nentries; i++) {
        if (strcmp(info->entries[i].key, key) == 0) {
            return i;
        }
    }
    return -1;
}

int comm_info_set(struct comm_info *info, const char *key, const char *value)
{
    int i = info_find(info, key);
    char *v = strdup(value), *k;

    if (v == NULL) {
        return COMM_ERR_NOMEM;
    }
    if (i >= 0) {
        free(info->entries[i].value);
        info->entries[i].value = v;
        return COMM_OK;
    }
    k = strdup(key);
    if (k == NULL || info_reserve(info) < 0) {
        free(k);
        free(v);
        return COMM_ERR_NOMEM;
    }
    info->entries[info->nentries].key = k;
    info->entries[info->nentries].value = v;
    info->nentries++;
    return COMM_OK;
}

int comm_info_dup(const struct comm_info *info, struct comm_info **info_out)
{
    struct comm_info *copy;
    int rc = comm_info_create(&copy);

    if (rc < 0) {
        return rc;
    }
    for (int i = 0; i < info->nentries; i++) {
        rc = comm_info_set(copy, info->entries[i].key, info->entries[i].value);
        if (rc < 0) {
            comm_info_release(copy);
            return rc;
        }
    }
    *info_out = copy;
    return COMM_OK;
}

void comm_info_retain(struct comm_info *info)
{
    __atomic_add_fetch(&info->refcount, 1, __ATOMIC_RELAXED);
}

void comm_info_release(struct comm_info *info)
{
    if (info == NULL || __atomic_sub_fetch(&info->refcount, 1, __ATOMIC_ACQ_REL) > 0) {
        return;
    }
    for (int i = 0; i < info->nentries; i++) {
        free(info->entries[i].key);
        free(info->entries[i].value);
    }
    free(info->entries);
    free(info);
}

int comm_info_delete(struct comm_info *info, const char *key)
{
    int i = info_find(info, key);

    if (i < 0) {
        return COMM_ERR_NOT_FOUND;
    }
    free(info->entries[i].key);
    free(info->entries[i].value);
    memmove(&info->entries[i], &info->entries[i + 1],
            (size_t)(info->nentries - i - 1) * sizeof(*info->entries));
    info->nentries--;
    return COMM_OK;
}

const char *comm_info_value(const struct comm_info *info, const char *key)
{
    int i = info_find(info, key);

    return i < 0 ? NULL : info->entries[i].value;
}

int comm_info_nkeys(const struct comm_info *info)
{
    return info->nentries;
}

const char *comm_info_nth_key(const struct comm_info *info, int n)
{
    if (n < 0 || n >= info->nentries) {
        return NULL;
    }
    return info->entries[n].key;
}
