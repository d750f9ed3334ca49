/*
 * api_attr.c - attributes on communicators and datatypes: the predefined ones (MPI_TAG_UB and
 * friends) and the user's keyvals with their copy and delete callbacks.
 *
 * Layer: api.
 *
 * Keyvals are slots of a table, handed out as COMM_ATTR_KEYVAL_BASE + slot and never reused.
 * A freed keyval stays alive while attributes use it (its delete callback still runs when they
 * go).  One table serves both kinds of object; a keyval remembers the kind it was made for.
 * An object's attributes are a list in the order they were set; MPI_Comm_dup copies
 * them in that order, and they are deleted in reverse order when the communicator is freed.
 * Threads: the keyval table has its own lock (runtime/thread.h), never held across a
 * callback; keyvals never move once made.  An object's attributes are changed by one thread at
 * a time (the standard leaves calls on one object from several threads to the user).
 */
#include "config.h"

#include "rma/rma.h"
#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "runtime/runtime.h"
#include "runtime/thread.h"

#include <stdlib.h>

enum { COMM_ATTR_KEYVAL_BASE = 0x2000 };

/* The kind of object a keyval serves: a keyval made for communicators is refused on types. */
enum attr_kind {
    ATTR_COMM,
    ATTR_TYPE,
    ATTR_WIN,
};

struct attr_keyval {
    enum attr_kind kind;
    union {
        MPI_Comm_copy_attr_function *comm;
        MPI_Type_copy_attr_function *type;
        MPI_Win_copy_attr_function *win;
    } copy_fn;
    union {
        MPI_Comm_delete_attr_function *comm;
        MPI_Type_delete_attr_function *type;
        MPI_Win_delete_attr_function *win;
    } delete_fn;
    void *extra_state;
    bool freed; /* MPI_Comm_free_keyval was called */
};

struct attr_value {
    int keyval;
    void *value;
    struct attr_value *next;
};

/* An object that holds attributes: its list, its handle for the callbacks, and the
 * communicator whose error handler reports errors (NULL: MPI_COMM_WORLD's). */
struct attr_owner {
    enum attr_kind kind;
    void **list;
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Win win;
    struct comm_communicator *err_comm;
};

/* Guarded by attr_lock: the keyvals, each allocated once and never moved or freed. */
static struct comm_mutex attr_lock = COMM_MUTEX_INITIALIZER;
static struct attr_keyval **attr_keyvals;
static int attr_nkeyvals;

static const char *const attr_kind_name[] = {
    [ATTR_COMM] = "communicator", [ATTR_TYPE] = "datatype", [ATTR_WIN] = "window"};

/* The values the attributes point at; the standard hands out pointers to them. */
static int attr_tag_ub = COMM_API_TAG_UB;
static int attr_host = MPI_PROC_NULL;
static int attr_io = MPI_ANY_SOURCE;
static int attr_wtime_is_global = 0;
static int attr_universe_size;
static int attr_appnum;
static int attr_lastusedcode;

static struct attr_owner attr_of_comm(struct comm_communicator *c)
{
    return (struct attr_owner){
        .kind = ATTR_COMM, .list = &c->attrs, .comm = c->handle, .err_comm = c};
}

static struct attr_owner attr_of_type(struct comm_datatype *dt)
{
    return (struct attr_owner){.kind = ATTR_TYPE, .list = &dt->attrs, .type = dt->handle};
}

/* The keyval behind KEYVAL, or NULL (after raising MPI_ERR_KEYVAL) if none, freed (a freed
 * keyval's slot lives on for the attributes that still use it) or made for another kind. */
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

static struct attr_keyval *attr_keyval(const char *func, const struct attr_owner *o, int keyval)
{
    struct attr_keyval *k = attr_keyval_at(keyval);

    if (k == NULL || __atomic_load_n(&k->freed, __ATOMIC_RELAXED)) {
        comm_api_error(o->err_comm, MPI_ERR_KEYVAL, "%s: invalid keyval %d%s", func, keyval,
                       keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE
                           ? " (a predefined attribute, which cannot be changed)"
                           : "");
        return NULL;
    }
    if (k->kind != o->kind) {
        comm_api_error(o->err_comm, MPI_ERR_KEYVAL, "%s: keyval %d was made for %ss, not %ss", func,
                       keyval, attr_kind_name[k->kind], attr_kind_name[o->kind]);
        return NULL;
    }
    return k;
}

static struct attr_value **attr_find(const struct attr_owner *o, int keyval)
{
    struct attr_value **link = (struct attr_value **)o->list;

    while (*link != NULL && (*link)->keyval != keyval) {
        link = &(*link)->next;
    }
    return link;
}

/* Runs the delete callback of *LINK and removes it; the callback's error code if it fails. */
static int attr_remove(const struct attr_owner *o, struct attr_value **link)
{
    struct attr_value *a = *link;
    struct attr_keyval *k = attr_keyval_at(a->keyval);
    int rc = MPI_SUCCESS;

    if (o->kind == ATTR_COMM && k->delete_fn.comm != MPI_COMM_NULL_DELETE_FN) {
        rc = k->delete_fn.comm(o->comm, a->keyval, a->value, k->extra_state);
    } else if (o->kind == ATTR_TYPE && k->delete_fn.type != MPI_TYPE_NULL_DELETE_FN) {
        rc = k->delete_fn.type(o->type, a->keyval, a->value, k->extra_state);
    } else if (o->kind == ATTR_WIN && k->delete_fn.win != MPI_WIN_NULL_DELETE_FN) {
        rc = k->delete_fn.win(o->win, a->keyval, a->value, k->extra_state);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *link = a->next;
    free(a);
    return MPI_SUCCESS;
}

static int attr_get(const char *func, const struct attr_owner *o, int keyval, void *attribute_val,
                    int *flag)
{
    struct attr_value **link;

    if (attr_keyval(func, o, keyval) == NULL) {
        return MPI_ERR_KEYVAL;
    }
    link = attr_find(o, keyval);
    *flag = *link != NULL;
    if (*link != NULL) {
        *(void **)attribute_val = (*link)->value;
    }
    return MPI_SUCCESS;
}

static int attr_create_keyval(const char *func, struct attr_keyval k, int *keyval)
{
    struct attr_keyval **grown, *made;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (keyval == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: the keyval argument is NULL", func);
    }
    made = malloc(sizeof(*made));
    if (made == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *made = k;
    comm_mutex_lock(&attr_lock);
    grown = realloc(attr_keyvals, (size_t)(attr_nkeyvals + 1) * sizeof(*grown));
    if (grown != NULL) {
        attr_keyvals = grown;
        attr_keyvals[attr_nkeyvals] = made;
        *keyval = COMM_ATTR_KEYVAL_BASE + attr_nkeyvals++;
    }
    comm_mutex_unlock(&attr_lock);
    if (grown == NULL) {
        free(made);
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    return MPI_SUCCESS;
}

static int attr_free_keyval(const char *func, enum attr_kind kind, int *keyval)
{
    struct attr_keyval *k;
    struct attr_owner o = {.kind = kind};
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (keyval == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: the keyval argument is NULL", func);
    }
    k = attr_keyval(func, &o, *keyval);
    if (k == NULL) {
        return MPI_ERR_KEYVAL;
    }
    __atomic_store_n(&k->freed, true, __ATOMIC_RELAXED);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static int attr_set(const char *func, const struct attr_owner *o, int keyval, void *attribute_val)
{
    struct attr_value **link, *a;
    int err;

    if (attr_keyval(func, o, keyval) == NULL) {
        return MPI_ERR_KEYVAL;
    }
    link = attr_find(o, keyval);
    if (*link != NULL) {
        /* The old value goes through its delete callback first. */
        err = attr_remove(o, link);
        if (err != MPI_SUCCESS) {
            return comm_api_error(o->err_comm, err,
                                  "%s: the delete callback of keyval %d failed with %d", func,
                                  keyval, err);
        }
    }
    a = malloc(sizeof(*a));
    if (a == NULL) {
        return comm_api_error(o->err_comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *a = (struct attr_value){.keyval = keyval, .value = attribute_val};
    *attr_find(o, keyval) = a; /* at the end: the order of setting */
    return MPI_SUCCESS;
}

static int attr_delete(const char *func, const struct attr_owner *o, int keyval)
{
    struct attr_value **link;
    int err;

    if (attr_keyval(func, o, keyval) == NULL) {
        return MPI_ERR_KEYVAL;
    }
    link = attr_find(o, keyval);
    if (*link == NULL) {
        return comm_api_error(o->err_comm, MPI_ERR_KEYVAL,
                              "%s: no attribute for keyval %d on this %s", func, keyval,
                              attr_kind_name[o->kind]);
    }
    err = attr_remove(o, link);
    if (err != MPI_SUCCESS) {
        return comm_api_error(o->err_comm, err,
                              "%s: the delete callback of keyval %d failed with %d", func, keyval,
                              err);
    }
    return MPI_SUCCESS;
}

/* Runs OLD's copy callbacks and gives NEW_OBJ the attributes they keep, in OLD's order. */
static int attr_copy(const char *func, const struct attr_owner *old,
                     const struct attr_owner *new_obj)
{
    struct attr_value **tail = (struct attr_value **)new_obj->list;

    for (struct attr_value *a = *old->list; a != NULL; a = a->next) {
        struct attr_keyval *k = attr_keyval_at(a->keyval);
        struct attr_value *copy;
        void *out = NULL;
        int flag = 0, rc = MPI_SUCCESS;

        if (old->kind == ATTR_COMM && k->copy_fn.comm == MPI_COMM_DUP_FN) {
            out = a->value;
            flag = 1;
        } else if (old->kind == ATTR_COMM && k->copy_fn.comm != MPI_COMM_NULL_COPY_FN) {
            rc = k->copy_fn.comm(old->comm, a->keyval, k->extra_state, a->value, &out, &flag);
        } else if (old->kind == ATTR_TYPE && k->copy_fn.type == MPI_TYPE_DUP_FN) {
            out = a->value;
            flag = 1;
        } else if (old->kind == ATTR_TYPE && k->copy_fn.type != MPI_TYPE_NULL_COPY_FN) {
            rc = k->copy_fn.type(old->type, a->keyval, k->extra_state, a->value, &out, &flag);
        }
        if (rc != MPI_SUCCESS) {
            return comm_api_error(old->err_comm, rc,
                                  "%s: the copy callback of keyval %d failed with %d", func,
                                  a->keyval, rc);
        }
        if (!flag) {
            continue;
        }
        copy = malloc(sizeof(*copy));
        if (copy == NULL) {
            return comm_api_error(old->err_comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
        }
        *copy = (struct attr_value){.keyval = a->keyval, .value = out};
        *tail = copy;
        tail = &copy->next;
    }
    return MPI_SUCCESS;
}

static int attr_delete_all(const char *func, const struct attr_owner *o)
{
    /* Last set, first deleted. */
    while (*o->list != NULL) {
        struct attr_value **link = (struct attr_value **)o->list;
        int err;

        while ((*link)->next != NULL) {
            link = &(*link)->next;
        }
        err = attr_remove(o, link);
        if (err != MPI_SUCCESS) {
            return comm_api_error(o->err_comm, err,
                                  "%s: the delete callback of keyval %d failed with %d", func,
                                  (*link)->keyval, err);
        }
    }
    return MPI_SUCCESS;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    return attr_create_keyval("MPI_Comm_create_keyval",
                              (struct attr_keyval){.kind = ATTR_COMM,
                                                   .copy_fn.comm = comm_copy_attr_fn,
                                                   .delete_fn.comm = comm_delete_attr_fn,
                                                   .extra_state = extra_state},
                              comm_keyval);
}
COMM_API_ALIAS(MPI_Comm_create_keyval);

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    return attr_free_keyval("MPI_Comm_free_keyval", ATTR_COMM, comm_keyval);
}
COMM_API_ALIAS(MPI_Comm_free_keyval);

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    struct comm_communicator *c;
    struct attr_owner o;
    int err = comm_api_enter_comm("MPI_Comm_set_attr", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    o = attr_of_comm(c);
    return attr_set("MPI_Comm_set_attr", &o, comm_keyval, attribute_val);
}
COMM_API_ALIAS(MPI_Comm_set_attr);

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    struct comm_communicator *c;
    struct attr_owner o;
    int err = comm_api_enter_comm("MPI_Comm_delete_attr", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    o = attr_of_comm(c);
    return attr_delete("MPI_Comm_delete_attr", &o, comm_keyval);
}
COMM_API_ALIAS(MPI_Comm_delete_attr);

int comm_api_attr_copy(const char *func, struct comm_communicator *old,
                       struct comm_communicator *new_comm)
{
    struct attr_owner o = attr_of_comm(old), n = attr_of_comm(new_comm);

    return attr_copy(func, &o, &n);
}

int comm_api_attr_delete_all(const char *func, struct comm_communicator *comm)
{
    struct attr_owner o = attr_of_comm(comm);

    return attr_delete_all(func, &o);
}

int comm_api_type_attr_copy(const char *func, struct comm_datatype *old,
                            struct comm_datatype *new_type)
{
    struct attr_owner o = attr_of_type(old), n = attr_of_type(new_type);

    return attr_copy(func, &o, &n);
}

int comm_api_type_attr_delete_all(const char *func, struct comm_datatype *dt)
{
    struct attr_owner o = attr_of_type(dt);

    return attr_delete_all(func, &o);
}

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state)
{
    return attr_create_keyval("MPI_Type_create_keyval",
                              (struct attr_keyval){.kind = ATTR_TYPE,
                                                   .copy_fn.type = type_copy_attr_fn,
                                                   .delete_fn.type = type_delete_attr_fn,
                                                   .extra_state = extra_state},
                              type_keyval);
}
COMM_API_ALIAS(MPI_Type_create_keyval);

int PMPI_Type_free_keyval(int *type_keyval)
{
    return attr_free_keyval("MPI_Type_free_keyval", ATTR_TYPE, type_keyval);
}
COMM_API_ALIAS(MPI_Type_free_keyval);

/* The start of the datatype attribute calls: running, and a valid datatype. */
static int attr_enter_type(const char *func, MPI_Datatype datatype, struct attr_owner *o_out)
{
    struct comm_datatype *dt;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    dt = comm_datatype_lookup(datatype);
    if (dt == NULL) {
        return comm_api_error(NULL, MPI_ERR_TYPE, "%s: invalid datatype %#lx", func,
                              (unsigned long)(uintptr_t)datatype);
    }
    *o_out = attr_of_type(dt);
    return MPI_SUCCESS;
}

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    struct attr_owner o;
    int err = attr_enter_type("MPI_Type_set_attr", datatype, &o);

    return err != MPI_SUCCESS ? err : attr_set("MPI_Type_set_attr", &o, type_keyval, attribute_val);
}
COMM_API_ALIAS(MPI_Type_set_attr);

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    struct attr_owner o;
    int err = attr_enter_type("MPI_Type_get_attr", datatype, &o);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (attribute_val == NULL || flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Type_get_attr: %s is NULL",
                              flag == NULL ? "flag" : "attribute_val");
    }
    return attr_get("MPI_Type_get_attr", &o, type_keyval, attribute_val, flag);
}
COMM_API_ALIAS(MPI_Type_get_attr);

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    struct attr_owner o;
    int err = attr_enter_type("MPI_Type_delete_attr", datatype, &o);

    return err != MPI_SUCCESS ? err : attr_delete("MPI_Type_delete_attr", &o, type_keyval);
}
COMM_API_ALIAS(MPI_Type_delete_attr);

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
        __atomic_store_n(&attr_lastusedcode, comm_api_last_used_code(), __ATOMIC_RELAXED);
        value = &attr_lastusedcode;
        break;
    default: {
        struct attr_owner o = attr_of_comm(c);

        return attr_get("MPI_Comm_get_attr", &o, comm_keyval, attribute_val, flag);
    }
    }
    *(int **)attribute_val = value;
    *flag = 1;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_get_attr);

/* ---- windows ---------------------------------------------------------------------------- */

static struct attr_owner attr_of_win(struct comm_win *w)
{
    return (struct attr_owner){
        .kind = ATTR_WIN, .list = &w->attrs, .win = w->handle, .err_comm = w->comm};
}

int comm_api_win_attr_delete_all(const char *func, struct comm_win *win)
{
    struct attr_owner o = attr_of_win(win);

    return attr_delete_all(func, &o);
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
    return attr_create_keyval("MPI_Win_create_keyval",
                              (struct attr_keyval){.kind = ATTR_WIN,
                                                   .copy_fn.win = win_copy_attr_fn,
                                                   .delete_fn.win = win_delete_attr_fn,
                                                   .extra_state = extra_state},
                              win_keyval);
}
COMM_API_ALIAS(MPI_Win_create_keyval);

int PMPI_Win_free_keyval(int *win_keyval)
{
    return attr_free_keyval("MPI_Win_free_keyval", ATTR_WIN, win_keyval);
}
COMM_API_ALIAS(MPI_Win_free_keyval);

static int attr_enter_win(const char *func, MPI_Win win, struct attr_owner *o_out,
                          struct comm_win **w_out)
{
    int err = comm_api_enter_win(func, win, w_out);

    if (err == MPI_SUCCESS) {
        *o_out = attr_of_win(*w_out);
    }
    return err;
}

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    struct attr_owner o;
    struct comm_win *w = NULL;
    int err = attr_enter_win("MPI_Win_set_attr", win, &o, &w);

    return err != MPI_SUCCESS ? err : attr_set("MPI_Win_set_attr", &o, win_keyval, attribute_val);
}
COMM_API_ALIAS(MPI_Win_set_attr);

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    struct attr_owner o;
    struct comm_win *w = NULL;
    int err = attr_enter_win("MPI_Win_get_attr", win, &o, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (attribute_val == NULL || flag == NULL) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_get_attr: %s is NULL",
                              flag == NULL ? "flag" : "attribute_val");
    }
    *flag = 1;
    switch (win_keyval) {
    case MPI_WIN_BASE:
        *(void **)attribute_val = w->base;
        return MPI_SUCCESS;
    case MPI_WIN_SIZE:
        *(MPI_Aint **)attribute_val = &w->wsize;
        return MPI_SUCCESS;
    case MPI_WIN_DISP_UNIT:
        *(int **)attribute_val = &w->disp_unit;
        return MPI_SUCCESS;
    case MPI_WIN_CREATE_FLAVOR:
        *(int **)attribute_val = &w->flavor;
        return MPI_SUCCESS;
    case MPI_WIN_MODEL:
        *(int **)attribute_val = &w->model;
        return MPI_SUCCESS;
    default:
        break;
    }
    *flag = 0;
    return attr_get("MPI_Win_get_attr", &o, win_keyval, attribute_val, flag);
}
COMM_API_ALIAS(MPI_Win_get_attr);

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    struct attr_owner o;
    struct comm_win *w = NULL;
    int err = attr_enter_win("MPI_Win_delete_attr", win, &o, &w);

    return err != MPI_SUCCESS ? err : attr_delete("MPI_Win_delete_attr", &o, win_keyval);
}
COMM_API_ALIAS(MPI_Win_delete_attr);
