/*
 * api_info.c - the MPI info calls: create, set, get, delete, dup, free, and walking the keys.
 *
 * Layer: api.  Checks every argument (keys of 1 to MPI_MAX_INFO_KEY characters, values
 * of 1 to MPI_MAX_INFO_VAL) and raises the error naming it; the info engine (runtime/info.c)
 * stores the strings.
 */
#include "config.h"

#include "api/api.h"
#include "base/error.h"
#include "runtime/info.h"

#include <stdint.h>
#include <string.h>

/* The start of every call on an existing info object: running, INFO valid. */
static int info_enter(const char *func, MPI_Info handle, struct comm_info **info_out)
{
    struct comm_info *info;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    info = comm_info_lookup(handle);
    if (info == NULL && handle == MPI_INFO_NULL) {
        return comm_api_error(NULL, MPI_ERR_INFO, "%s: invalid info MPI_INFO_NULL", func);
    }
    if (info == NULL) {
        return comm_api_error(NULL, MPI_ERR_INFO, "%s: invalid info handle %#lx", func,
                              (unsigned long)(uintptr_t)handle);
    }
    *info_out = info;
    return MPI_SUCCESS;
}

/* Checks a key: not NULL, 1 to MPI_MAX_INFO_KEY characters. */
static int info_check_key(const char *func, const char *key)
{
    size_t len;

    if (key == NULL) {
        return comm_api_error(NULL, MPI_ERR_INFO_KEY, "%s: key is NULL", func);
    }
    len = strnlen(key, MPI_MAX_INFO_KEY + 1);
    if (len == 0) {
        return comm_api_error(NULL, MPI_ERR_INFO_KEY, "%s: key is empty", func);
    }
    if (len > MPI_MAX_INFO_KEY) {
        return comm_api_error(NULL, MPI_ERR_INFO_KEY,
                              "%s: key '%.32s...' is longer than MPI_MAX_INFO_KEY (%d characters)",
                              func, key, MPI_MAX_INFO_KEY);
    }
    return MPI_SUCCESS;
}

/* Raises the error of a failed engine call. */
static int info_status_error(const char *func, int rc)
{
    if (rc == COMM_ERR_NOMEM) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    return comm_api_error(NULL, comm_api_code_of_status(rc), "%s: %s", func, comm_strerror(rc));
}

int PMPI_Info_create(MPI_Info *info)
{
    struct comm_info *i;
    int err = comm_api_check_running("MPI_Info_create");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (info == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Info_create: info is NULL");
    }
    err = comm_info_create(&i);
    if (err < 0) {
        return info_status_error("MPI_Info_create", err);
    }
    *info = comm_info_handle(i);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_create);

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    static const char func[] = "MPI_Info_set";
    struct comm_info *i;
    size_t len;
    int err = info_enter(func, info, &i);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = info_check_key(func, key);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (value == NULL) {
        return comm_api_error(NULL, MPI_ERR_INFO_VALUE, "%s: value of key '%s' is NULL", func, key);
    }
    len = strnlen(value, MPI_MAX_INFO_VAL + 1);
    if (len == 0) {
        return comm_api_error(NULL, MPI_ERR_INFO_VALUE, "%s: value of key '%s' is empty", func,
                              key);
    }
    if (len > MPI_MAX_INFO_VAL) {
        return comm_api_error(NULL, MPI_ERR_INFO_VALUE,
                              "%s: value '%.32s...' of key '%s' is longer than MPI_MAX_INFO_VAL "
                              "(%d characters)",
                              func, value, key, MPI_MAX_INFO_VAL);
    }
    err = comm_info_set(i, key, value);
    if (err < 0) {
        return info_status_error(func, err);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_set);

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    static const char func[] = "MPI_Info_get";
    struct comm_info *i;
    const char *v;
    size_t len;
    int err = info_enter(func, info, &i);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = info_check_key(func, key);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (valuelen < 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid valuelen %d", func, valuelen);
    }
    if (value == NULL || flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                              value == NULL ? "value" : "flag");
    }
    v = comm_info_value(i, key);
    if (v == NULL) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    /* VALUELEN leaves out the terminating NUL (MPI-3.1 section 9.4): VALUE holds VALUELEN+1. */
    len = strlen(v);
    if (len > (size_t)valuelen) {
        len = (size_t)valuelen;
    }
    memcpy(value, v, len);
    value[len] = '\0';
    *flag = 1;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_get);

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    static const char func[] = "MPI_Info_get_valuelen";
    struct comm_info *i;
    const char *v;
    int err = info_enter(func, info, &i);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = info_check_key(func, key);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (valuelen == NULL || flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                              valuelen == NULL ? "valuelen" : "flag");
    }
    v = comm_info_value(i, key);
    if (v == NULL) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    *valuelen = (int)strlen(v);
    *flag = 1;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_get_valuelen);

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    static const char func[] = "MPI_Info_delete";
    struct comm_info *i;
    int err = info_enter(func, info, &i);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = info_check_key(func, key);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_info_delete(i, key);
    if (err == COMM_ERR_NOT_FOUND) {
        return comm_api_error(NULL, MPI_ERR_INFO_NOKEY, "%s: key '%s' is not set", func, key);
    }
    if (err < 0) {
        return info_status_error(func, err);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_delete);

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    struct comm_info *i, *copy;
    int err = info_enter("MPI_Info_dup", info, &i);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (newinfo == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Info_dup: newinfo is NULL");
    }
    err = comm_info_dup(i, &copy);
    if (err < 0) {
        return info_status_error("MPI_Info_dup", err);
    }
    *newinfo = comm_info_handle(copy);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_dup);

int PMPI_Info_free(MPI_Info *info)
{
    struct comm_info *i;
    int err = comm_api_check_running("MPI_Info_free");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (info == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Info_free: info is NULL");
    }
    err = info_enter("MPI_Info_free", *info, &i);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (*info == MPI_INFO_ENV) {
        return comm_api_error(NULL, MPI_ERR_INFO,
                              "MPI_Info_free: MPI_INFO_ENV is predefined and cannot be freed");
    }
    comm_api_handle_forget(COMM_API_HANDLE_INFO, *info);
    comm_info_release(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_free);

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    struct comm_info *i;
    int err = info_enter("MPI_Info_get_nkeys", info, &i);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (nkeys == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Info_get_nkeys: nkeys is NULL");
    }
    *nkeys = comm_info_nkeys(i);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_get_nkeys);

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    struct comm_info *i;
    const char *k;
    int err = info_enter("MPI_Info_get_nthkey", info, &i);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (key == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Info_get_nthkey: key is NULL");
    }
    k = comm_info_nth_key(i, n);
    if (k == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "MPI_Info_get_nthkey: invalid n %d for an info object of %d keys", n,
                              comm_info_nkeys(i));
    }
    /* Keys are at most MPI_MAX_INFO_KEY characters: KEY holds MPI_MAX_INFO_KEY+1. */
    strcpy(key, k);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Info_get_nthkey);
