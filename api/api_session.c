/*
 * api_session.c - MPI 4.0 sessions: MPI_Session_init and _finalize, the process sets a session
 * shows, groups made from them, communicators made from groups (MPI_Comm_create_from_group),
 * and the error handlers of sessions.
 *
 * Layer: api.  Must not: talk to PMIx (the job's shape comes from runtime/job_topo.h).
 *
 * Sessions and the world model share one runtime (init.c): MPI_Session_init before MPI_Init
 * starts it, and the last of the sessions and the world model to end ends it, with a fence
 * over the whole job, so every rank ends its last session at the same point.  A session may
 * start again after that.
 *
 * Process sets, the same list on every rank: mpi://WORLD, mpi://SELF, then comm://host/NAME
 * for every host of the job (comm://host/NAME:0, :1, ... for the parts of a host that
 * COMM_TOPO_SPLIT_HOSTS splits, as communicators see them), then comm://LEVEL/NAME for every switch
 * of the topology file above the hosts (LEVEL is the level's name: rack, and whatever the file
 * names above it) that holds ranks of the job; hosts and switches in the order of their lowest
 * rank.  A pset's info has mpi_size, its number of processes.
 *
 * Communicators from groups: the members agree on a context among themselves, through the
 * group's first member, on MPI_COMM_WORLD's collective context (which exists under sessions
 * too) with a tag made from the string tag, so that creations with different string tags (and
 * groups) may run at the same time.
 *
 * Threads: as every MPI call (serialized by the caller).
 */
#include "config.h"

#include "coll/coll.h"
#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "runtime/comm/group.h"
#include "runtime/info.h"
#include "runtime/job_topo.h"
#include "base/log.h"
#include "runtime/runtime.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tags of MPI_Comm_create_from_group's agreement on MPI_COMM_WORLD's collective context. */
enum { SESSION_TAG_BASE = 1 << 28, SESSION_TAG_SPAN = 1 << 24 };

enum { COMM_SESSION_MAGIC = 0x73657373 };

struct comm_session {
    uint32_t magic; /* COMM_SESSION_MAGIC while open */
    struct comm_errhandler *errhandler;
    struct comm_info *info; /* what MPI_Session_get_info returns a copy of */
};

/* The open sessions: a handle is valid when it is one of them. */
static struct comm_session **session_open = NULL;
static int session_nopen = 0;

/* One process set: its name and its members' world ranks, in order. */
struct session_pset {
    char *name;
    long *ranks;
    int size;
    int cap; /* of ranks */
};

/* The job's process sets, made when the first session opens and freed when the last closes. */
static struct session_pset *session_psets = NULL;
static int session_npsets = 0;

static const char *const session_thread_names[] = {
    [MPI_THREAD_SINGLE] = "MPI_THREAD_SINGLE",
    [MPI_THREAD_FUNNELED] = "MPI_THREAD_FUNNELED",
    [MPI_THREAD_SERIALIZED] = "MPI_THREAD_SERIALIZED",
    [MPI_THREAD_MULTIPLE] = "MPI_THREAD_MULTIPLE",
};

/*
 * Raises error CODE through error handler EH (the fatal one when NULL) with the message of
 * FMT: a user handler of a session gets SESSION, one of a communicator MPI_COMM_NULL.
 * Returns CODE (unless the handler ends the job).
 */
static int session_vraise(struct comm_errhandler *eh, MPI_Session session, int code,
                          const char *fmt, va_list ap)
{
    char message[MPI_MAX_ERROR_STRING];

    if (eh != NULL && eh->kind == COMM_ERRHANDLER_RETURN) {
        return code;
    }
    if (eh != NULL && eh->kind == COMM_ERRHANDLER_USER) {
        MPI_Comm none = MPI_COMM_NULL;
        int c = code;

        if (comm_errhandler_is_invoked_for(eh, COMM_ERRHANDLER_FOR_SESSION)) {
            eh->invoke(eh->invoke_data, eh->object, &session, &c);
        } else if (eh->invoke != NULL) {
            eh->invoke(eh->invoke_data, COMM_ERRHANDLER_FOR_COMM, &none, &c);
        } else if (eh->session_fn != NULL) {
            eh->session_fn(&session, &c);
        } else {
            eh->fn(&none, &c);
        }
        return code;
    }
    vsnprintf(message, sizeof(message), fmt, ap);
    comm_runtime_abort(code, message);
}

static int session_raise(struct comm_errhandler *eh, MPI_Session session, int code, const char *fmt,
                         ...) __attribute__((format(printf, 4, 5)));

static int session_raise(struct comm_errhandler *eh, MPI_Session session, int code, const char *fmt,
                         ...)
{
    va_list ap;
    int err;

    va_start(ap, fmt);
    err = session_vraise(eh, session, code, fmt, ap);
    va_end(ap);
    return err;
}

/* An error on session S, raised through its handler. */
static int session_error(struct comm_session *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int session_error(struct comm_session *s, int code, const char *fmt, ...)
{
    va_list ap;
    int err;

    va_start(ap, fmt);
    err = session_vraise(s->errhandler, (MPI_Session)s, code, fmt, ap);
    va_end(ap);
    return err;
}

/* The open session behind HANDLE, or NULL. */
static struct comm_session *session_lookup(MPI_Session handle)
{
    for (int i = 0; i < session_nopen; i++) {
        if ((MPI_Session)session_open[i] == handle) {
            return session_open[i];
        }
    }
    return NULL;
}

/* The session of HANDLE for FUNC, or the error (MPI_ERR_SESSION) raised on the default
 * handler (MPI_COMM_WORLD's, fatal before the world model starts). */
static int session_enter(const char *func, MPI_Session handle, struct comm_session **s_out)
{
    struct comm_session *s = session_lookup(handle);

    if (s == NULL) {
        if (handle == MPI_SESSION_NULL) {
            return comm_api_error(NULL, MPI_ERR_SESSION, "%s: invalid session MPI_SESSION_NULL",
                                  func);
        }
        return comm_api_error(NULL, MPI_ERR_SESSION, "%s: invalid session handle %#lx", func,
                              (unsigned long)(uintptr_t)handle);
    }
    *s_out = s;
    return MPI_SUCCESS;
}

static void session_psets_free(void)
{
    for (int i = 0; i < session_npsets; i++) {
        free(session_psets[i].name);
        free(session_psets[i].ranks);
    }
    free(session_psets);
    session_psets = NULL;
    session_npsets = 0;
}

/* Adds world rank RANK to the pset named NAME (made, last, if new).  COMM_ERR_NOMEM. */
static int session_pset_add(const char *name, long rank)
{
    struct session_pset *p = NULL;

    for (int i = 0; i < session_npsets && p == NULL; i++) {
        p = strcmp(session_psets[i].name, name) == 0 ? &session_psets[i] : NULL;
    }
    if (p == NULL) {
        struct session_pset *more =
            realloc(session_psets, (size_t)(session_npsets + 1) * sizeof(*more));

        if (more == NULL) {
            return COMM_ERR_NOMEM;
        }
        session_psets = more;
        p = &session_psets[session_npsets];
        *p = (struct session_pset){.name = strdup(name)};
        session_npsets++;
        if (p->name == NULL) {
            return COMM_ERR_NOMEM;
        }
    }
    if (p->size == p->cap) {
        int cap = p->cap == 0 ? 8 : 2 * p->cap;
        long *ranks = realloc(p->ranks, (size_t)cap * sizeof(*ranks));

        if (ranks == NULL) {
            return COMM_ERR_NOMEM;
        }
        p->ranks = ranks;
        p->cap = cap;
    }
    p->ranks[p->size++] = rank;
    return COMM_OK;
}

/* The name of world rank R's pset at LEVEL of the topology (>= 1) into NAME, or false when R's
 * host is under no switch of that level. */
static bool session_switch_name(long r, int level, char *name, size_t len)
{
    const struct comm_topo *topo = comm_job_topo();
    long key = comm_job_topo_key(r, level);

    if (topo == NULL || key < 0 || (size_t)key >= topo->nswitches ||
        !comm_job_topo_placed(r, level)) {
        return false;
    }
    snprintf(name, len, "comm://%s/%s", comm_job_topo_level_name(level), topo->switches[key].name);
    return true;
}

/* Adds the host psets: one per group of the job's host level, in the order of their lowest
 * ranks, named comm://host/HOST, or comm://host/HOST:I for the Ith part (0, 1, ...) of a host
 * that COMM_TOPO_SPLIT_HOSTS splits.  COMM_ERR_NOMEM. */
static int session_host_psets(int size)
{
    long *first = malloc((size_t)size * sizeof(*first)); /* each group's lowest rank */
    int *group = malloc((size_t)size * sizeof(*group)), ngroups = 0, rc = COMM_OK;
    char name[MPI_MAX_PSET_NAME_LEN + 64];

    if (first == NULL || group == NULL) {
        rc = COMM_ERR_NOMEM;
        goto out_free;
    }
    for (long r = 0; r < size; r++) {
        int g = 0;

        while (g < ngroups && comm_job_topo_key(first[g], 0) != comm_job_topo_key(r, 0)) {
            g++;
        }
        if (g == ngroups) {
            first[ngroups++] = r;
        }
        group[r] = g;
    }
    for (long r = 0; r < size && rc == COMM_OK; r++) {
        const char *host = comm_job_topo_host(r);
        int part = 0, parts = 0;

        for (int g = 0; g < ngroups; g++) {
            if (strcmp(comm_job_topo_host(first[g]), host) == 0) {
                part = g < group[r] ? part + 1 : part;
                parts++;
            }
        }
        if (parts > 1) {
            snprintf(name, sizeof(name), "comm://host/%s:%d", host, part);
        } else {
            snprintf(name, sizeof(name), "comm://host/%s", host);
        }
        rc = session_pset_add(name, r);
    }
out_free:
    free(group);
    free(first);
    return rc;
}

/* Makes the job's process sets (see the top of the file). */
static int session_psets_make(void)
{
    const struct comm_pmix_job *job = comm_runtime_job();
    int size = (int)job->size, rc = COMM_OK;
    char name[MPI_MAX_PSET_NAME_LEN + 64];

    for (long r = 0; r < size && rc == COMM_OK; r++) {
        rc = session_pset_add("mpi://WORLD", r);
    }
    if (rc == COMM_OK) {
        rc = session_pset_add("mpi://SELF", job->rank);
    }
    if (rc == COMM_OK) {
        rc = session_host_psets(size);
    }
    for (int level = 1; level < comm_job_topo_nlevels() && rc == COMM_OK; level++) {
        for (long r = 0; r < size && rc == COMM_OK; r++) {
            if (session_switch_name(r, level, name, sizeof(name))) {
                rc = session_pset_add(name, r);
            }
        }
    }
    for (int i = 0; i < session_npsets && rc == COMM_OK; i++) {
        if (strlen(session_psets[i].name) >= MPI_MAX_PSET_NAME_LEN) {
            comm_log_error("session", "process set name %s is longer than %d characters",
                           session_psets[i].name, MPI_MAX_PSET_NAME_LEN - 1);
            rc = COMM_ERR_BAD_PARAM;
        }
    }
    if (rc < 0) {
        session_psets_free();
    }
    return rc;
}

static const struct session_pset *session_pset_find(const char *name)
{
    for (int i = 0; i < session_npsets; i++) {
        if (strcmp(session_psets[i].name, name) == 0) {
            return &session_psets[i];
        }
    }
    return NULL;
}

/* The thread level that INFO's "thread_level" asks for (MPI_THREAD_SINGLE when not set) into
 * *LEVEL_OUT; false for a value that names no level. */
static bool session_thread_level(const struct comm_info *info, int *level_out)
{
    const char *v = info != NULL ? comm_info_value(info, "thread_level") : NULL;

    *level_out = MPI_THREAD_SINGLE;
    if (v == NULL) {
        return true;
    }
    for (int l = MPI_THREAD_SINGLE; l <= MPI_THREAD_MULTIPLE; l++) {
        if (strcmp(v, session_thread_names[l]) == 0) {
            *level_out = l;
            return true;
        }
    }
    return false;
}

/* Makes the session object of a started runtime (and the psets for the first one).  Returns
 * COMM_OK, COMM_ERR_NOMEM, or COMM_ERR_BAD_PARAM (a pset name too long, logged). */
static int session_open_new(struct comm_errhandler *eh, int level, struct comm_session **s_out)
{
    struct comm_session *s = calloc(1, sizeof(*s));
    struct comm_session **more = realloc(session_open, (size_t)(session_nopen + 1) * sizeof(*more));
    int rc = COMM_ERR_NOMEM;

    if (more != NULL) {
        session_open = more;
    }
    if (s == NULL || more == NULL || comm_info_create(&s->info) < 0) {
        free(s);
        return COMM_ERR_NOMEM;
    }
    if (comm_info_set(s->info, "thread_level", session_thread_names[level]) < 0) {
        goto out_free;
    }
    if (session_nopen == 0) {
        rc = session_psets_make();
        if (rc < 0) {
            goto out_free;
        }
    }
    s->magic = COMM_SESSION_MAGIC;
    s->errhandler = eh;
    comm_errhandler_retain(eh);
    session_open[session_nopen++] = s;
    *s_out = s;
    return COMM_OK;
out_free:
    comm_info_release(s->info);
    free(s);
    return rc;
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    const char *func = "MPI_Session_init";
    struct comm_errhandler *eh = comm_errhandler_lookup(errhandler);
    struct comm_info *given = comm_info_lookup(info);
    struct comm_session *s;
    int required, level, rc;

    if (eh == NULL || eh->fn != NULL ||
        comm_errhandler_is_invoked_for(eh, COMM_ERRHANDLER_FOR_COMM)) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: invalid error handler %#lx (a session takes a predefined one "
                              "or one from MPI_Session_create_errhandler)",
                              func, (unsigned long)(uintptr_t)errhandler);
    }
    if (session == NULL) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_ARG, "%s: session is NULL", func);
    }
    if (given == NULL && info != MPI_INFO_NULL) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_INFO, "%s: invalid info handle", func);
    }
    if (!session_thread_level(given, &required)) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_ARG,
                             "%s: invalid thread_level \"%s\" (expected MPI_THREAD_SINGLE, "
                             "_FUNNELED, _SERIALIZED or _MULTIPLE)",
                             func, comm_info_value(given, "thread_level"));
    }
    rc = comm_api_runtime_hold(required, &level);
    if (rc < 0) {
        return session_raise(eh, MPI_SESSION_NULL, comm_api_code_of_status(rc),
                             "%s: cannot start: %s", func, comm_strerror(rc));
    }
    rc = session_open_new(eh, level, &s);
    if (rc < 0) {
        comm_api_runtime_release();
        return session_raise(eh, MPI_SESSION_NULL, comm_api_code_of_status(rc),
                             "%s: cannot list the process sets: %s", func, comm_strerror(rc));
    }
    *session = (MPI_Session)s;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_init);

int PMPI_Session_finalize(MPI_Session *session)
{
    const char *func = "MPI_Session_finalize";
    struct comm_session *s;
    int err, rc;

    if (session == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: session is NULL", func);
    }
    err = session_enter(func, *session, &s);
    if (err != MPI_SUCCESS) {
        return err;
    }
    for (int i = 0; i < session_nopen; i++) {
        if (session_open[i] == s) {
            session_open[i] = session_open[--session_nopen];
            break;
        }
    }
    if (session_nopen == 0) {
        session_psets_free();
    }
    comm_api_handle_forget(COMM_API_HANDLE_SESSION, *session);
    *session = MPI_SESSION_NULL;
    s->magic = 0;
    comm_info_release(s->info);
    comm_errhandler_release(s->errhandler);
    free(s);
    rc = comm_api_runtime_release();
    if (rc < 0) {
        return comm_api_error(NULL, comm_api_code_of_status(rc), "%s: %s", func, comm_strerror(rc));
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_finalize);

/* Checks the info argument of the pset queries: MPI_INFO_NULL or a valid object. */
static int session_check_info(const char *func, struct comm_session *s, MPI_Info info)
{
    if (info != MPI_INFO_NULL && comm_info_lookup(info) == NULL) {
        return session_error(s, MPI_ERR_INFO, "%s: invalid info handle", func);
    }
    return MPI_SUCCESS;
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    const char *func = "MPI_Session_get_num_psets";
    struct comm_session *s;
    int err = session_enter(func, session, &s);

    if (err == MPI_SUCCESS) {
        err = session_check_info(func, s, info);
    }
    if (err == MPI_SUCCESS && npset_names == NULL) {
        err = session_error(s, MPI_ERR_ARG, "%s: npset_names is NULL", func);
    }
    if (err == MPI_SUCCESS) {
        *npset_names = session_npsets;
    }
    return err;
}
COMM_API_ALIAS(MPI_Session_get_num_psets);

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                              char *pset_name)
{
    const char *func = "MPI_Session_get_nth_pset";
    struct comm_session *s;
    const char *name;
    int err = session_enter(func, session, &s), len;

    if (err == MPI_SUCCESS) {
        err = session_check_info(func, s, info);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (n < 0 || n >= session_npsets) {
        return session_error(s, MPI_ERR_ARG,
                             "%s: invalid index %d (the session has process sets 0 to %d)", func, n,
                             session_npsets - 1);
    }
    if (pset_len == NULL || *pset_len < 0 || (*pset_len > 0 && pset_name == NULL)) {
        return session_error(s, MPI_ERR_ARG, "%s: %s", func,
                             pset_len == NULL ? "pset_len is NULL"
                             : *pset_len < 0  ? "pset_len is negative"
                                              : "pset_name is NULL");
    }
    name = session_psets[n].name;
    len = (int)strlen(name) + 1;
    if (*pset_len > 0) {
        snprintf(pset_name, (size_t)*pset_len, "%s", name);
    }
    *pset_len = len;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_get_nth_pset);

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    const char *func = "MPI_Session_get_info";
    struct comm_session *s;
    struct comm_info *copy;
    int err = session_enter(func, session, &s);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (info_used == NULL) {
        return session_error(s, MPI_ERR_ARG, "%s: info_used is NULL", func);
    }
    if (comm_info_dup(s->info, &copy) < 0) {
        return session_error(s, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *info_used = comm_info_handle(copy);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_get_info);

/* The pset named NAME for FUNC on session S, or the error: a NULL name or one that names no
 * pset of the session is MPI_ERR_ARG. */
static int session_enter_pset(const char *func, MPI_Session session, const char *name,
                              struct comm_session **s_out, const struct session_pset **p_out)
{
    int err = session_enter(func, session, s_out);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (name == NULL) {
        return session_error(*s_out, MPI_ERR_ARG, "%s: pset_name is NULL", func);
    }
    *p_out = session_pset_find(name);
    if (*p_out == NULL) {
        return session_error(*s_out, MPI_ERR_ARG,
                             "%s: unknown process set \"%.*s\" (MPI_Session_get_nth_pset lists "
                             "them)",
                             func, MPI_MAX_PSET_NAME_LEN, name);
    }
    return MPI_SUCCESS;
}

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    const char *func = "MPI_Session_get_pset_info";
    const struct session_pset *p;
    struct comm_session *s;
    struct comm_info *out;
    char size[32];
    int err = session_enter_pset(func, session, pset_name, &s, &p);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (info == NULL) {
        return session_error(s, MPI_ERR_ARG, "%s: info is NULL", func);
    }
    snprintf(size, sizeof(size), "%d", p->size);
    if (comm_info_create(&out) < 0) {
        return session_error(s, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    if (comm_info_set(out, "mpi_size", size) < 0) {
        comm_info_release(out);
        return session_error(s, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *info = comm_info_handle(out);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_get_pset_info);

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    const char *func = "MPI_Group_from_session_pset";
    const struct session_pset *p;
    struct comm_session *s;
    struct comm_group *g;
    int err = session_enter_pset(func, session, pset_name, &s, &p);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (newgroup == NULL) {
        return session_error(s, MPI_ERR_ARG, "%s: newgroup is NULL", func);
    }
    if (comm_group_create(p->ranks, p->size, comm_runtime_job()->rank, &g) < 0) {
        return session_error(s, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *newgroup = comm_group_handle(g);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Group_from_session_pset);

/* The agreement's tag for STRINGTAG (FNV-1a). */
static int session_tag(const char *stringtag)
{
    uint32_t h = 2166136261u;

    for (const char *c = stringtag; *c != '\0'; c++) {
        h = (h ^ (unsigned char)*c) * 16777619u;
    }
    return SESSION_TAG_BASE + (int)(h % SESSION_TAG_SPAN);
}

/* A context new to every member of G (which this process is in), agreed through G's first
 * member on WORLD with TAG. */
static int session_agree_context(struct comm_communicator *world, const struct comm_group *g,
                                 int tag, unsigned *context_out)
{
    uint32_t context = 0;
    int err = comm_api_group_agree_context(world, g, tag, &context);

    if (err == MPI_SUCCESS) {
        *context_out = context;
    }
    return err;
}

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    const char *func = "MPI_Comm_create_from_group";
    struct comm_errhandler *eh = comm_errhandler_lookup(errhandler);
    struct comm_communicator *n;
    struct comm_group *g;
    unsigned context;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (eh == NULL || eh->session_fn != NULL ||
        comm_errhandler_is_invoked_for(eh, COMM_ERRHANDLER_FOR_SESSION)) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: invalid error handler %#lx (a communicator takes a predefined "
                              "one or one from MPI_Comm_create_errhandler)",
                              func, (unsigned long)(uintptr_t)errhandler);
    }
    g = comm_group_lookup(group);
    if (g == NULL) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_GROUP, "%s: invalid group", func);
    }
    if (g->rank == MPI_UNDEFINED) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_GROUP,
                             "%s: the calling process is not in the group", func);
    }
    if (stringtag == NULL || strnlen(stringtag, MPI_MAX_STRINGTAG_LEN) >= MPI_MAX_STRINGTAG_LEN) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_ARG, "%s: %s", func,
                             stringtag == NULL ? "stringtag is NULL"
                                               : "stringtag is longer than "
                                                 "MPI_MAX_STRINGTAG_LEN - 1 characters");
    }
    if (info != MPI_INFO_NULL && comm_info_lookup(info) == NULL) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_INFO, "%s: invalid info handle", func);
    }
    if (newcomm == NULL) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_ARG, "%s: newcomm is NULL", func);
    }
    err = session_agree_context(comm_communicator_lookup(MPI_COMM_WORLD), g, session_tag(stringtag),
                                &context);
    if (err != MPI_SUCCESS) {
        return session_raise(eh, MPI_SESSION_NULL, err, "%s: cannot agree on a context", func);
    }
    if (comm_communicator_create(g->world_ranks, g->size, g->rank, context, eh, &n) < 0) {
        return session_raise(eh, MPI_SESSION_NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *newcomm = n->handle;
    return info == MPI_INFO_NULL ? MPI_SUCCESS : PMPI_Comm_set_info(n->handle, info);
}
COMM_API_ALIAS(MPI_Comm_create_from_group);

/* ---- error handlers ------------------------------------------------------------------ */

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    struct comm_errhandler *eh;

    /* Callable before MPI_Session_init: nothing here needs the runtime. */
    if (session_errhandler_fn == NULL || errhandler == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Session_create_errhandler: %s is NULL",
                              errhandler == NULL ? "errhandler" : "the function");
    }
    eh = comm_errhandler_create_session(session_errhandler_fn);
    if (eh == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Session_create_errhandler: out of memory");
    }
    *errhandler = comm_errhandler_handle(eh);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_create_errhandler);

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    const char *func = "MPI_Session_set_errhandler";
    struct comm_session *s;
    struct comm_errhandler *eh;
    int err = session_enter(func, session, &s);

    if (err != MPI_SUCCESS) {
        return err;
    }
    eh = comm_errhandler_lookup(errhandler);
    if (eh == NULL || eh->fn != NULL ||
        comm_errhandler_is_invoked_for(eh, COMM_ERRHANDLER_FOR_COMM)) {
        return session_error(s, MPI_ERR_ARG,
                             "%s: invalid error handler %#lx (a session takes a predefined one "
                             "or one from MPI_Session_create_errhandler)",
                             func, (unsigned long)(uintptr_t)errhandler);
    }
    comm_errhandler_retain(eh);
    comm_errhandler_release(s->errhandler);
    s->errhandler = eh;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_set_errhandler);

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    const char *func = "MPI_Session_get_errhandler";
    struct comm_session *s;
    int err = session_enter(func, session, &s);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (errhandler == NULL) {
        return session_error(s, MPI_ERR_ARG, "%s: errhandler is NULL", func);
    }
    /* The caller gets a reference of its own, to free with MPI_Errhandler_free. */
    comm_errhandler_retain(s->errhandler);
    *errhandler = comm_errhandler_handle(s->errhandler);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_get_errhandler);

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    const char *func = "MPI_Session_call_errhandler";
    struct comm_session *s;
    int err = session_enter(func, session, &s);

    if (err != MPI_SUCCESS) {
        return err;
    }
    session_error(s, errorcode, "%s: error code %d raised by the application", func, errorcode);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Session_call_errhandler);
