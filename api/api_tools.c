/*
 * api_tools.c - the MPI tools interface (MPI_T): control variables, categories, and the (empty)
 * set of performance variables.
 *
 * Layer: api.  Must not: read the environment itself (base/config.c does).
 *
 * Control variables are comm's settings, in the order of the tables of settings_registry.c
 * (the order comm-info prints them), named as the environment variables are (COMM_LOG_LEVEL).
 * comm reads its settings once, at MPI_Init (or later, from what it was given then): a control
 * variable can be written before MPI_Init, and its value then takes the environment's place
 * (comm_config_override); from MPI_Init on, MPI_T_cvar_write returns
 * MPI_T_ERR_CVAR_SET_NEVER.  The variables comm-run provides (COMM_WORLD_RANK ...) and the
 * compiler wrapper's are never writable (MPI_T_SCOPE_READONLY); the others are
 * MPI_T_SCOPE_LOCAL.  A value that its setting refuses is MPI_T_ERR_INVALID.  A string setting
 * is MPI_CHAR (its count is room for the longest value it takes: T_STRING_MAX or its current
 * value's length plus the null, whichever is more), a boolean MPI_INT (0 or 1), an integer
 * MPI_INT, or MPI_COUNT when its range does not fit an int.  A value that is malformed in the
 * environment reads as the default (MPI_Init refuses it anyway).  Categories are the components (a
 * component may declare more than one table), each holding its settings and no other category.
 * There are no performance variables: every pvar index is MPI_T_ERR_INVALID_INDEX, and no pvar
 * handle exists.
 *
 * MPI_T_init_thread may be called before MPI_Init and after MPI_Finalize; init and finalize
 * nest (a count).  MPI_T functions return their codes and never call error handlers.
 * Threads: every function is thread-safe (one lock).
 */
#include "config.h"

#include "api/api.h"
#include "base/config_table.h"
#include "base/error.h"
#include "runtime/runtime.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for a string value read or written through a handle. */
enum { T_STRING_MAX = 1024 };

static pthread_mutex_t t_lock = PTHREAD_MUTEX_INITIALIZER;
static int t_initialized; /* MPI_T_init_thread calls not yet finalized */

/* A control variable handle: which setting, and the count its reads fill. */
struct comm_t_cvar_handle {
    const struct comm_setting *setting;
    size_t table; /* of comm_settings_tables */
    int count;
    struct comm_t_cvar_handle *next; /* the list of live handles */
};

struct comm_t_pvar_session {
    struct comm_t_pvar_session *next; /* the list of live sessions */
};

static struct comm_t_cvar_handle *t_cvar_handles;
static struct comm_t_pvar_session *t_sessions;

/* Whether a setting can be written (before MPI_Init): not those comm-run gives every rank,
 * nor those of the compiler wrapper, which libcomm does not read. */
static bool t_cvar_is_writable(const struct comm_setting *s, size_t table)
{
    return s->audience != COMM_AUDIENCE_PROVIDED &&
           strcmp(comm_settings_tables[table]->component, "commcc") != 0;
}

/* The setting of control variable INDEX, or NULL. */
static const struct comm_setting *t_cvar(int index, size_t *table_out)
{
    if (index < 0) {
        return NULL;
    }
    for (size_t t = 0; t < comm_settings_ntables; t++) {
        if ((size_t)index < comm_settings_tables[t]->count) {
            if (table_out != NULL) {
                *table_out = t;
            }
            return &comm_settings_tables[t]->settings[index];
        }
        index -= (int)comm_settings_tables[t]->count;
    }
    return NULL;
}

static int t_ncvars(void)
{
    size_t n = 0;

    for (size_t t = 0; t < comm_settings_ntables; t++) {
        n += comm_settings_tables[t]->count;
    }
    return (int)n;
}

/* Whether table T is the first of its component (several tables may share one). */
static bool t_table_opens_category(size_t t)
{
    for (size_t i = 0; i < t; i++) {
        if (strcmp(comm_settings_tables[i]->component, comm_settings_tables[t]->component) == 0) {
            return false;
        }
    }
    return true;
}

static int t_ncategories(void)
{
    int n = 0;

    for (size_t t = 0; t < comm_settings_ntables; t++) {
        n += t_table_opens_category(t);
    }
    return n;
}

/* The component of category CAT (the order of first appearance), or NULL. */
static const char *t_category(int cat)
{
    for (size_t t = 0; t < comm_settings_ntables && cat >= 0; t++) {
        if (t_table_opens_category(t) && cat-- == 0) {
            return comm_settings_tables[t]->component;
        }
    }
    return NULL;
}

/* The control variables of COMPONENT: the first LEN of their indices into INDICES (may be
 * NULL when LEN is 0); returns how many there are. */
static int t_category_cvars(const char *component, int len, int indices[])
{
    int n = 0, first = 0;

    for (size_t t = 0; t < comm_settings_ntables; t++) {
        const struct comm_setting_table *table = comm_settings_tables[t];

        for (size_t i = 0; strcmp(table->component, component) == 0 && i < table->count; i++) {
            if (n < len) {
                indices[n] = first + (int)i;
            }
            n++;
        }
        first += (int)table->count;
    }
    return n;
}

/* Copies SRC into DST (LEN on input its room, on output the length written with the null);
 * with DST NULL or *LEN 0, *LEN is the room needed. */
static void t_string(const char *src, char *dst, int *len)
{
    int need = (int)strlen(src) + 1;

    if (len == NULL) {
        return;
    }
    if (dst == NULL || *len <= 0) {
        *len = need;
        return;
    }
    if (need > *len) {
        need = *len;
    }
    memcpy(dst, src, (size_t)need - 1);
    dst[need - 1] = '\0';
    *len = need;
}

static MPI_Datatype t_cvar_type(const struct comm_setting *s)
{
    switch (s->type) {
    case COMM_SETTING_STRING:
        return MPI_CHAR;
    case COMM_SETTING_BOOL:
        return MPI_INT;
    case COMM_SETTING_INT:
        return s->min >= INT_MIN && s->max <= INT_MAX ? MPI_INT : MPI_COUNT;
    }
    return MPI_CHAR;
}

static int t_verbosity(const struct comm_setting *s)
{
    switch (s->audience) {
    case COMM_AUDIENCE_USER:
        return MPI_T_VERBOSITY_USER_BASIC;
    case COMM_AUDIENCE_TUNER:
        return MPI_T_VERBOSITY_TUNER_BASIC;
    case COMM_AUDIENCE_DEVELOPER:
        return MPI_T_VERBOSITY_MPIDEV_BASIC;
    case COMM_AUDIENCE_PROVIDED:
        return MPI_T_VERBOSITY_USER_DETAIL;
    }
    return MPI_T_VERBOSITY_USER_ALL;
}

/* The entry of every function but init: takes the lock; MPI_T_ERR_NOT_INITIALIZED unless
 * MPI_T is initialized.  t_leave releases it and passes RC on. */
static int t_enter(void)
{
    pthread_mutex_lock(&t_lock);
    return t_initialized > 0 ? MPI_SUCCESS : MPI_T_ERR_NOT_INITIALIZED;
}

static int t_leave(int rc)
{
    pthread_mutex_unlock(&t_lock);
    return rc;
}

int PMPI_T_init_thread(int required, int *provided)
{
    if (provided == NULL) {
        return MPI_ERR_ARG;
    }
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE) {
        return MPI_ERR_ARG;
    }
    pthread_mutex_lock(&t_lock);
    t_initialized++;
    pthread_mutex_unlock(&t_lock);
    *provided = required; /* the lock makes every function safe from any thread */
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_T_init_thread);

int PMPI_T_finalize(void)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && --t_initialized == 0) {
        /* Handles and sessions the tool did not free die with the interface. */
        while (t_cvar_handles != NULL) {
            struct comm_t_cvar_handle *h = t_cvar_handles;

            t_cvar_handles = h->next;
            free(h);
        }
        while (t_sessions != NULL) {
            struct comm_t_pvar_session *s = t_sessions;

            t_sessions = s->next;
            free(s);
        }
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_finalize);

/* No enumeration exists: every MPI_T_enum is invalid. */
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    (void)enumtype, (void)num, (void)name, (void)name_len;
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS) {
        t_rc = MPI_T_ERR_INVALID_HANDLE;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_enum_get_info);

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    (void)enumtype, (void)index, (void)value, (void)name, (void)name_len;
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS) {
        t_rc = MPI_T_ERR_INVALID_HANDLE;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_enum_get_item);

int PMPI_T_cvar_get_num(int *num_cvar)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && num_cvar == NULL) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        *num_cvar = t_ncvars();
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_cvar_get_num);

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *binding, int *scope)
{
    const struct comm_setting *s;
    size_t table = 0;
    int t_rc = t_enter();
    s = t_rc == MPI_SUCCESS ? t_cvar(cvar_index, &table) : NULL;
    if (t_rc == MPI_SUCCESS && s == NULL) {
        t_rc = MPI_T_ERR_INVALID_INDEX;
    }
    if (t_rc == MPI_SUCCESS) {
        t_string(s->name, name, name_len);
        t_string(s->help, desc, desc_len);
        if (verbosity != NULL) {
            *verbosity = t_verbosity(s);
        }
        if (datatype != NULL) {
            *datatype = t_cvar_type(s);
        }
        if (enumtype != NULL) {
            *enumtype = MPI_T_ENUM_NULL;
        }
        if (binding != NULL) {
            *binding = MPI_T_BIND_NO_OBJECT;
        }
        if (scope != NULL) {
            *scope = t_cvar_is_writable(s, table) ? MPI_T_SCOPE_LOCAL : MPI_T_SCOPE_READONLY;
        }
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_cvar_get_info);

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && (name == NULL || cvar_index == NULL)) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        int n = t_ncvars(), i;

        for (i = 0; i < n && strcmp(t_cvar(i, NULL)->name, name) != 0; i++) {
        }
        if (i == n) {
            t_rc = MPI_T_ERR_INVALID_NAME;
        } else {
            *cvar_index = i;
        }
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_cvar_get_index);

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    const struct comm_setting *s;
    struct comm_t_cvar_handle *h = NULL;
    size_t table = 0;
    int t_rc = t_enter();

    (void)obj_handle; /* no variable is bound to an object */
    s = t_rc == MPI_SUCCESS ? t_cvar(cvar_index, &table) : NULL;
    if (t_rc == MPI_SUCCESS && s == NULL) {
        t_rc = MPI_T_ERR_INVALID_INDEX;
    }
    if (t_rc == MPI_SUCCESS && (handle == NULL || count == NULL)) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        h = malloc(sizeof(*h));
        t_rc = h != NULL ? MPI_SUCCESS : MPI_T_ERR_MEMORY;
    }
    if (t_rc == MPI_SUCCESS) {
        int len = (int)strlen(comm_config_value(s)) + 1;

        h->setting = s;
        h->table = table;
        h->count = s->type != COMM_SETTING_STRING ? 1 : len > T_STRING_MAX ? len : T_STRING_MAX;
        h->next = t_cvar_handles;
        t_cvar_handles = h;
        *handle = h;
        *count = h->count;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_cvar_handle_alloc);

/* Whether H is a live control variable handle; the caller holds the lock. */
static bool t_cvar_handle_is_live(const struct comm_t_cvar_handle *h)
{
    for (const struct comm_t_cvar_handle *l = t_cvar_handles; l != NULL; l = l->next) {
        if (l == h) {
            return true;
        }
    }
    return false;
}

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && (handle == NULL || !t_cvar_handle_is_live(*handle))) {
        t_rc = MPI_T_ERR_INVALID_HANDLE;
    }
    if (t_rc == MPI_SUCCESS) {
        struct comm_t_cvar_handle **link = &t_cvar_handles;

        while (*link != *handle) {
            link = &(*link)->next;
        }
        *link = (*handle)->next;
        free(*handle);
        *handle = MPI_T_CVAR_HANDLE_NULL;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_cvar_handle_free);

/* The value of S in force as a number (booleans 0 or 1); a malformed one reads as the
 * default's. */
static long t_cvar_number(const struct comm_setting *s)
{
    const char *values[] = {comm_config_value(s), s->default_value};
    long v = 0;

    for (int i = 0; i < 2; i++) {
        bool b;

        if (s->type == COMM_SETTING_BOOL && comm_config_parse_bool(values[i], &b) == COMM_OK) {
            return b ? 1 : 0;
        }
        if (s->type == COMM_SETTING_INT &&
            comm_config_parse_long(values[i], s->min, s->max, &v) == COMM_OK) {
            return v;
        }
    }
    return 0;
}

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && !t_cvar_handle_is_live(handle)) {
        t_rc = MPI_T_ERR_INVALID_HANDLE;
    }
    if (t_rc == MPI_SUCCESS && buf == NULL) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        const struct comm_setting *s = handle->setting;

        if (s->type == COMM_SETTING_STRING) {
            int len = handle->count;

            t_string(comm_config_value(s), buf, &len);
        } else if (t_cvar_type(s) == MPI_INT) {
            *(int *)buf = (int)t_cvar_number(s);
        } else {
            *(MPI_Count *)buf = t_cvar_number(s);
        }
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_cvar_read);

/* BUF, as MPI_T_cvar_write gets it for H's setting, as the setting's text (in TEXT). */
static void t_cvar_text(const struct comm_t_cvar_handle *h, const void *buf, char *text, size_t len)
{
    const struct comm_setting *s = h->setting;

    if (s->type == COMM_SETTING_STRING) {
        snprintf(text, len, "%.*s", h->count, (const char *)buf);
    } else if (t_cvar_type(s) == MPI_INT) {
        snprintf(text, len, "%d", *(const int *)buf);
    } else {
        snprintf(text, len, "%lld", (long long)*(const MPI_Count *)buf);
    }
}

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    int t_rc = t_enter();

    if (t_rc == MPI_SUCCESS && !t_cvar_handle_is_live(handle)) {
        t_rc = MPI_T_ERR_INVALID_HANDLE;
    }
    if (t_rc == MPI_SUCCESS && buf == NULL) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS && (!t_cvar_is_writable(handle->setting, handle->table) ||
                                comm_runtime_state() != COMM_RUNTIME_NOT_STARTED)) {
        t_rc = MPI_T_ERR_CVAR_SET_NEVER; /* read once, at MPI_Init, or not by libcomm */
    }
    if (t_rc == MPI_SUCCESS) {
        char text[T_STRING_MAX + 1];

        t_cvar_text(handle, buf, text, sizeof(text));
        if (handle->setting->type == COMM_SETTING_BOOL && strcmp(text, "0") != 0) {
            snprintf(text, sizeof(text), "1"); /* C's truth: any non-zero int */
        }
        if (comm_config_check(handle->setting, text, NULL, 0) < 0) {
            t_rc = MPI_T_ERR_INVALID;
        } else if (comm_config_override(handle->setting, text) < 0) {
            t_rc = MPI_T_ERR_MEMORY;
        }
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_cvar_write);

int PMPI_T_pvar_get_num(int *num_pvar)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && num_pvar == NULL) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        *num_pvar = 0;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_pvar_get_num);

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *binding, int *readonly, int *continuous, int *atomic)
{
    (void)pvar_index, (void)name, (void)name_len, (void)verbosity, (void)var_class;
    (void)datatype, (void)enumtype, (void)desc, (void)desc_len, (void)binding, (void)readonly;
    (void)continuous, (void)atomic;
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS) {
        t_rc = MPI_T_ERR_INVALID_INDEX;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_pvar_get_info);

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    (void)var_class;
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && (name == NULL || pvar_index == NULL)) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        t_rc = MPI_T_ERR_INVALID_NAME;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_pvar_get_index);

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    struct comm_t_pvar_session *s = NULL;

    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && session == NULL) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        s = malloc(sizeof(*s));
        t_rc = s != NULL ? MPI_SUCCESS : MPI_T_ERR_MEMORY;
    }
    if (t_rc == MPI_SUCCESS) {
        s->next = t_sessions;
        t_sessions = s;
        *session = s;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_pvar_session_create);

/* MPI_SUCCESS if SESSION is live, else MPI_T_ERR_INVALID_SESSION; the caller holds the lock. */
static int t_check_session(MPI_T_pvar_session session)
{
    for (const struct comm_t_pvar_session *s = t_sessions; s != NULL; s = s->next) {
        if (s == session) {
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_SESSION;
}

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS) {
        t_rc = session == NULL ? MPI_T_ERR_INVALID_SESSION : t_check_session(*session);
    }
    if (t_rc == MPI_SUCCESS) {
        struct comm_t_pvar_session **link = &t_sessions;

        while (*link != *session) {
            link = &(*link)->next;
        }
        *link = (*session)->next;
        free(*session);
        *session = MPI_T_PVAR_SESSION_NULL;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_pvar_session_free);

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    (void)pvar_index, (void)obj_handle, (void)handle, (void)count;
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS) {
        t_rc = t_check_session(session);
    }
    if (t_rc == MPI_SUCCESS) {
        t_rc = MPI_T_ERR_INVALID_INDEX; /* there are no performance variables */
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_pvar_handle_alloc);

/*
 * The calls on a pvar handle: no handle can exist, so any is invalid, except
 * MPI_T_PVAR_ALL_HANDLES where the call allows it (start, stop, reset: nothing to do).
 */
static int t_pvar_call(MPI_T_pvar_session session, MPI_T_pvar_handle handle, bool all_allowed)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS) {
        t_rc = t_check_session(session);
    }
    if (t_rc == MPI_SUCCESS && !(all_allowed && handle == MPI_T_PVAR_ALL_HANDLES)) {
        t_rc = MPI_T_ERR_INVALID_HANDLE;
    }
    return t_leave(t_rc);
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    return t_pvar_call(session, handle != NULL ? *handle : MPI_T_PVAR_HANDLE_NULL, false);
}
COMM_API_ALIAS(MPI_T_pvar_handle_free);

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return t_pvar_call(session, handle, true);
}
COMM_API_ALIAS(MPI_T_pvar_start);

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return t_pvar_call(session, handle, true);
}
COMM_API_ALIAS(MPI_T_pvar_stop);

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    (void)buf;
    return t_pvar_call(session, handle, false);
}
COMM_API_ALIAS(MPI_T_pvar_read);

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    (void)buf;
    return t_pvar_call(session, handle, false);
}
COMM_API_ALIAS(MPI_T_pvar_write);

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return t_pvar_call(session, handle, true);
}
COMM_API_ALIAS(MPI_T_pvar_reset);

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    (void)buf;
    return t_pvar_call(session, handle, false);
}
COMM_API_ALIAS(MPI_T_pvar_readreset);

int PMPI_T_category_get_num(int *num_cat)
{
    int t_rc = t_enter();
    if (t_rc == MPI_SUCCESS && num_cat == NULL) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        *num_cat = t_ncategories();
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_category_get_num);

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                             int *num_cvars, int *num_pvars, int *num_categories)
{
    const char *component;
    int t_rc = t_enter();

    component = t_rc == MPI_SUCCESS ? t_category(cat_index) : NULL;
    if (t_rc == MPI_SUCCESS && component == NULL) {
        t_rc = MPI_T_ERR_INVALID_INDEX;
    }
    if (t_rc == MPI_SUCCESS) {
        char text[128];

        snprintf(text, sizeof(text), "settings of comm's %s component", component);
        t_string(component, name, name_len);
        t_string(text, desc, desc_len);
        if (num_cvars != NULL) {
            *num_cvars = t_category_cvars(component, 0, NULL);
        }
        if (num_pvars != NULL) {
            *num_pvars = 0;
        }
        if (num_categories != NULL) {
            *num_categories = 0;
        }
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_category_get_info);

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    int t_rc = t_enter();

    if (t_rc == MPI_SUCCESS && (name == NULL || cat_index == NULL)) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        int n = t_ncategories(), c;

        for (c = 0; c < n && strcmp(t_category(c), name) != 0; c++) {
        }
        if (c == n) {
            t_rc = MPI_T_ERR_INVALID_NAME;
        } else {
            *cat_index = c;
        }
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_category_get_index);

/* The checks of the category lists: a category that exists, and room for LEN indices. */
static int t_check_category_list(int cat_index, int len, const int indices[])
{
    if (t_category(cat_index) == NULL) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    return len < 0 || (len > 0 && indices == NULL) ? MPI_ERR_ARG : MPI_SUCCESS;
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    int t_rc = t_enter();

    if (t_rc == MPI_SUCCESS) {
        t_rc = t_check_category_list(cat_index, len, indices);
    }
    if (t_rc == MPI_SUCCESS) {
        t_category_cvars(t_category(cat_index), len, indices);
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_category_get_cvars);

/* A category holds no performance variable and no other category. */
static int t_category_empty_list(int cat_index, int len, const int indices[])
{
    int t_rc = t_enter();

    if (t_rc == MPI_SUCCESS) {
        t_rc = t_check_category_list(cat_index, len, indices);
    }
    return t_leave(t_rc);
}

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    return t_category_empty_list(cat_index, len, indices);
}
COMM_API_ALIAS(MPI_T_category_get_pvars);

int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return t_category_empty_list(cat_index, len, indices);
}
COMM_API_ALIAS(MPI_T_category_get_categories);

/* The categories never change while the library is loaded. */
int PMPI_T_category_changed(int *stamp)
{
    int t_rc = t_enter();

    if (t_rc == MPI_SUCCESS && stamp == NULL) {
        t_rc = MPI_ERR_ARG;
    }
    if (t_rc == MPI_SUCCESS) {
        *stamp = 0;
    }
    return t_leave(t_rc);
}
COMM_API_ALIAS(MPI_T_category_changed);
