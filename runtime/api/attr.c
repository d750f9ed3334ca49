/*
 * attr.c - attributes on communicators: the predefined ones (MPI_TAG_UB and friends) and the
 * user's keyvals with their copy and delete callbacks.
 *
 * Layer: runtime API.
 *
 * Keyvals are slots of a table, handed out as COMM_ATTR_KEYVAL_BASE + slot and never reused.
 * A freed keyval stays alive while attributes use it (its delete callback still runs when they
 * go).  A communicator's attributes are a list in the order they were set; MPI_Comm_dup copies
 * them in that order, and they are deleted in reverse order when the communicator is freed.
 * Threads: the keyval table has its own lock (runtime/thread.h), never held across a
 * callback; keyvals never move once made.  A communicator's attributes are changed by one
 * thread at a time (the standard leaves calls on one object from several threads to the user).
 */
#include "config.h"

#include "runtime/api/api.h"
#include "runtime/runtime.h"
#include "runtime/thread.h"

#include <stdlib.h>

enum { COMM_ATTR_KEYVAL_BASE = 0x2000 };

struct attr_keyval {
    MPI_Comm_copy_attr_function *copy_fn;
    MPI_Comm_delete_attr_function *delete_fn;
    void *extra_state;
    bool freed; /* MPI_Comm_free_keyval was called */
};

struct attr_value {
    int keyval;
    void *value;
    struct attr_value *next;
};

/* Guarded by attr_lock: the keyvals, each allocated once and never moved or freed. */
static struct comm_mutex attr_lock = COMM_MUTEX_INITIALIZER;
static struct attr_keyval **attr_keyvals;
static int attr_nkeyvals;

/* The keyval of slot KEYVAL - COMM_ATTR_KEYVAL_BASE, or NULL if there is none. */
static struct attr_keyval *attr_keyval_at(int keyval)
{
    int slot = keyval - COMM_ATTR_KEYVAL_BASE;
    struct attr_keyval *k = NULL;

    comm_mutex_lock(&attr_lock);
    if (slot >= 0 && slot < attr_nkeyvals) {
        k = attr_keyvals[slot];
    }
    comm_mutex_unlock(&attr_lock);
    return k;
}

/* The values the attributes point at; the standard hands out pointers to them. */
static int attr_tag_ub = COMM_API_TAG_UB;
static int attr_host = MPI_PROC_NULL;
static int attr_io = MPI_ANY_SOURCE;
static int attr_wtime_is_global = 0;
static int attr_universe_size;
static int attr_appnum;
static int attr_lastusedcode = MPI_ERR_LASTCODE;

/* The keyval behind KEYVAL, or NULL (after raising MPI_ERR_KEYVAL on COMM) if none or freed
 * (a freed keyval's slot lives on for the attributes that still use it). */
static struct attr_keyval *attr_keyval(const char *func, struct comm_communicator *comm, int keyval)
{
    struct attr_keyval *k = attr_keyval_at(keyval);

    if (k == NULL || __atomic_load_n(&k->freed, __ATOMIC_RELAXED)) {
        comm_api_error(comm, MPI_ERR_KEYVAL, "%s: invalid keyval %d%s", func, keyval,
                       keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE
                           ? " (a predefined attribute, which cannot be changed)"
                           : "");
        return NULL;
    }
    return k;
}

static struct attr_value **attr_find(struct comm_communicator *comm, int keyval)
{
    struct attr_value **link = (struct attr_value **)&comm->attrs;

    while (*link != NULL && (*link)->keyval != keyval) {
        link = &(*link)->next;
    }
    return link;
}

/* Runs the delete callback of *LINK and removes it; the callback's error code if it fails. */
static int attr_remove(struct comm_communicator *comm, struct attr_value **link)
{
    struct attr_value *a = *link;
    struct attr_keyval *k = attr_keyval_at(a->keyval);
    int rc = MPI_SUCCESS;

    if (k->delete_fn != MPI_COMM_NULL_DELETE_FN) {
        rc = k->delete_fn(comm->handle, a->keyval, a->value, k->extra_state);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *link = a->next;
    free(a);
    return MPI_SUCCESS;
}

static int attr_get_user(struct comm_communicator *c, int keyval, void *attribute_val, int *flag)
{
    struct attr_value **link;

    if (attr_keyval("MPI_Comm_get_attr", c, keyval) == NULL) {
        return MPI_ERR_KEYVAL;
    }
    link = attr_find(c, keyval);
    *flag = *link != NULL;
    if (*link != NULL) {
        *(void **)attribute_val = (*link)->value;
    }
    return MPI_SUCCESS;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    struct attr_keyval **grown, *k;
    int err = comm_api_check_running("MPI_Comm_create_keyval");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (comm_keyval == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Comm_create_keyval: comm_keyval is NULL");
    }
    k = malloc(sizeof(*k));
    if (k == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_keyval: out of memory");
    }
    *k = (struct attr_keyval){
        .copy_fn = comm_copy_attr_fn,
        .delete_fn = comm_delete_attr_fn,
        .extra_state = extra_state,
    };
    comm_mutex_lock(&attr_lock);
    grown = realloc(attr_keyvals, (size_t)(attr_nkeyvals + 1) * sizeof(*grown));
    if (grown != NULL) {
        attr_keyvals = grown;
        attr_keyvals[attr_nkeyvals] = k;
        *comm_keyval = COMM_ATTR_KEYVAL_BASE + attr_nkeyvals++;
    }
    comm_mutex_unlock(&attr_lock);
    if (grown == NULL) {
        free(k);
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_keyval: out of memory");
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_create_keyval);

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    struct attr_keyval *k;
    int err = comm_api_check_running("MPI_Comm_free_keyval");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (comm_keyval == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Comm_free_keyval: comm_keyval is NULL");
    }
    k = attr_keyval("MPI_Comm_free_keyval", NULL, *comm_keyval);
    if (k == NULL) {
        return MPI_ERR_KEYVAL;
    }
    __atomic_store_n(&k->freed, true, __ATOMIC_RELAXED);
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_free_keyval);

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    struct comm_communicator *c;
    struct attr_value **link, *a;
    int err = comm_api_enter_comm("MPI_Comm_set_attr", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (attr_keyval("MPI_Comm_set_attr", c, comm_keyval) == NULL) {
        return MPI_ERR_KEYVAL;
    }
    link = attr_find(c, comm_keyval);
    if (*link != NULL) {
        /* The old value goes through its delete callback first. */
        err = attr_remove(c, link);
        if (err != MPI_SUCCESS) {
            return comm_api_error(c, err,
                                  "MPI_Comm_set_attr: the delete callback of keyval %d "
                                  "failed with %d",
                                  comm_keyval, err);
        }
    }
    a = malloc(sizeof(*a));
    if (a == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_set_attr: out of memory");
    }
    *a = (struct attr_value){.keyval = comm_keyval, .value = attribute_val};
    *attr_find(c, comm_keyval) = a; /* at the end: the order of setting */
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_set_attr);

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    struct comm_communicator *c;
    struct attr_value **link;
    int err = comm_api_enter_comm("MPI_Comm_delete_attr", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (attr_keyval("MPI_Comm_delete_attr", c, comm_keyval) == NULL) {
        return MPI_ERR_KEYVAL;
    }
    link = attr_find(c, comm_keyval);
    if (*link == NULL) {
        return comm_api_error(c, MPI_ERR_KEYVAL,
                              "MPI_Comm_delete_attr: no attribute for keyval "
                              "%d on this communicator",
                              comm_keyval);
    }
    err = attr_remove(c, link);
    if (err != MPI_SUCCESS) {
        return comm_api_error(c, err,
                              "MPI_Comm_delete_attr: the delete callback of keyval %d "
                              "failed with %d",
                              comm_keyval, err);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_delete_attr);

int comm_api_attr_copy(const char *func, struct comm_communicator *old,
                       struct comm_communicator *new_comm)
{
    struct attr_value **tail = (struct attr_value **)&new_comm->attrs;

    for (struct attr_value *a = old->attrs; a != NULL; a = a->next) {
        struct attr_keyval *k = attr_keyval_at(a->keyval);
        struct attr_value *copy;
        void *out = NULL;
        int flag = 0, rc = MPI_SUCCESS;

        if (k->copy_fn == MPI_COMM_DUP_FN) {
            out = a->value;
            flag = 1;
        } else if (k->copy_fn != MPI_COMM_NULL_COPY_FN) {
            rc = k->copy_fn(old->handle, a->keyval, k->extra_state, a->value, &out, &flag);
        }
        if (rc != MPI_SUCCESS) {
            return comm_api_error(old, rc, "%s: the copy callback of keyval %d failed with %d",
                                  func, a->keyval, rc);
        }
        if (!flag) {
            continue;
        }
        copy = malloc(sizeof(*copy));
        if (copy == NULL) {
            return comm_api_error(old, MPI_ERR_NO_MEM, "%s: out of memory", func);
        }
        *copy = (struct attr_value){.keyval = a->keyval, .value = out};
        *tail = copy;
        tail = &copy->next;
    }
    return MPI_SUCCESS;
}

int comm_api_attr_delete_all(const char *func, struct comm_communicator *comm)
{
    /* Last set, first deleted. */
    while (comm->attrs != NULL) {
        struct attr_value **link = (struct attr_value **)&comm->attrs;
        int err;

        while ((*link)->next != NULL) {
            link = &(*link)->next;
        }
        err = attr_remove(comm, link);
        if (err != MPI_SUCCESS) {
            return comm_api_error(comm, err,
                                  "%s: the delete callback of keyval %d failed with "
                                  "%d",
                                  func, (*link)->keyval, err);
        }
    }
    return MPI_SUCCESS;
}

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    struct comm_communicator *c;
    int *value;
    int err = comm_api_enter_comm("MPI_Comm_get_attr", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (attribute_val == NULL || flag == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_get_attr: %s is NULL",
                              flag == NULL ? "flag" : "attribute_val");
    }
    switch (comm_keyval) {
    case MPI_TAG_UB:
        value = &attr_tag_ub;
        break;
    case MPI_HOST:
        value = &attr_host;
        break;
    case MPI_IO:
        value = &attr_io;
        break;
    case MPI_WTIME_IS_GLOBAL:
        value = &attr_wtime_is_global;
        break;
    case MPI_UNIVERSE_SIZE:
        /* Threads may ask at once: the same value, stored atomically. */
        __atomic_store_n(&attr_universe_size, (int)comm_runtime_job()->universe_size,
                         __ATOMIC_RELAXED);
        value = &attr_universe_size;
        break;
    case MPI_APPNUM:
        __atomic_store_n(&attr_appnum, (int)comm_runtime_job()->appnum, __ATOMIC_RELAXED);
        value = &attr_appnum;
        break;
    case MPI_LASTUSEDCODE:
        value = &attr_lastusedcode;
        break;
    default:
        return attr_get_user(c, comm_keyval, attribute_val, flag);
    }
    *(int **)attribute_val = value;
    *flag = 1;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_get_attr);
