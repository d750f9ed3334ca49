/*
 * api_win.c - the MPI entry points of windows: making and freeing them, their memory, group,
 * name, hints and error handlers (attributes: attr.c; operations and epochs: rma.c).
 *
 * Layer: api.  Must not: reach a window's memory or peers (rma/ does).
 *
 * A window owns a communicator of its own, made like a duplicate of the one it was made over
 * (without its attributes): the window's messages travel on that context, and errors on the
 * window are raised on it, whose error handler is the window's (MPI_ERRORS_ARE_FATAL first).
 */
#include "config.h"

#include "rma/rma.h"
#include "api/api.h"
#include "runtime/errhandler.h"
#include "runtime/comm/group.h"
#include "runtime/info.h"
#include "runtime/thread.h"

#include <stdlib.h>
#include <string.h>

/* The hints a window keeps (and MPI_Win_get_info returns), with their defaults. */
static const struct {
    const char *key;
    const char *value;
} win_hints[] = {
    {"no_locks", "false"},
    {"accumulate_ordering", "rar,raw,war,waw"},
    {"accumulate_ops", "same_op_no_op"},
    {"same_size", "false"},
    {"same_disp_unit", "false"},
    {"alloc_shared_noncontig", "false"},
};

/* The hints of INFO (MPI_INFO_NULL: none) over the current ones of W (or the defaults). */
static int win_take_hints(const char *func, struct comm_communicator *err_comm, struct comm_win *w,
                          MPI_Info info)
{
    struct comm_info *given = NULL, *kept;

    if (info != MPI_INFO_NULL) {
        given = comm_info_lookup(info);
        if (given == NULL) {
            return comm_api_error(err_comm, MPI_ERR_INFO, "%s: invalid info handle", func);
        }
    }
    if (comm_info_create(&kept) < 0) {
        return comm_api_error(err_comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    for (size_t i = 0; i < sizeof(win_hints) / sizeof(win_hints[0]); i++) {
        const char *v = given != NULL ? comm_info_value(given, win_hints[i].key) : NULL;

        if (v == NULL && w->info != NULL) {
            v = comm_info_value(w->info, win_hints[i].key);
        }
        if (v == NULL) {
            v = win_hints[i].value;
        }
        if (comm_info_set(kept, win_hints[i].key, v) < 0) {
            comm_info_release(kept);
            return comm_api_error(err_comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
        }
    }
    if (w->info != NULL) {
        comm_info_release(w->info);
    }
    w->info = kept;
    return MPI_SUCCESS;
}

/* Checks and makes a window of FLAVOR: the common part of the four MPI_Win_create calls. */
static int win_make(const char *func, int flavor, void *base, MPI_Aint size, int disp_unit,
                    MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    struct comm_communicator *c, *wc;
    struct comm_win *w = NULL;
    uint32_t context;
    void *got = NULL;
    int err = comm_api_enter_intracomm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (win == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: win is NULL", func);
    }
    if (size < 0) {
        return comm_api_error(c, MPI_ERR_SIZE, "%s: size %lld is negative", func, (long long)size);
    }
    if (disp_unit <= 0) {
        return comm_api_error(c, MPI_ERR_DISP, "%s: disp_unit %d is not positive", func, disp_unit);
    }
    if (flavor != MPI_WIN_FLAVOR_CREATE && flavor != MPI_WIN_FLAVOR_DYNAMIC && baseptr == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: baseptr is NULL", func);
    }
    if (flavor == MPI_WIN_FLAVOR_CREATE && base == NULL && size > 0) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: base is NULL for %lld bytes", func,
                              (long long)size);
    }
    if (info != MPI_INFO_NULL && comm_info_lookup(info) == NULL) {
        return comm_api_error(c, MPI_ERR_INFO, "%s: invalid info handle", func);
    }
    err = comm_communicator_agree_context(c, &context);
    if (err != MPI_SUCCESS) {
        return comm_api_error(c, err, "%s: cannot agree on a context", func);
    }
    if (comm_communicator_make_from(c, context, &wc) < 0) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    comm_errhandler_release(wc->errhandler);
    wc->errhandler = comm_errhandler_lookup(MPI_ERRORS_ARE_FATAL);
    snprintf(wc->name, sizeof(wc->name), "window of %.100s", c->name);
    err = comm_win_create(wc, flavor, base, size, disp_unit, &got, &w);
    if (err != MPI_SUCCESS) {
        comm_communicator_free(wc);
        return comm_api_error(c, err, "%s: cannot make the window%s", func,
                              err == MPI_ERR_RMA_SHARED
                                  ? " (MPI_Win_allocate_shared needs every rank on one host)"
                              : err == MPI_ERR_NO_MEM ? " (out of memory)"
                                                      : "");
    }
    wc->win = w->handle;
    err = win_take_hints(func, c, w, info);
    if (err != MPI_SUCCESS) {
        comm_win_free(w);
        return err;
    }
    if (baseptr != NULL) {
        *(void **)baseptr = got;
    }
    *win = w->handle;
    return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win)
{
    return win_make("MPI_Win_create", MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm,
                    NULL, win);
}
COMM_API_ALIAS(MPI_Win_create);

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win)
{
    return win_make("MPI_Win_allocate", MPI_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info, comm,
                    baseptr, win);
}
COMM_API_ALIAS(MPI_Win_allocate);

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
    return win_make("MPI_Win_allocate_shared", MPI_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info,
                    comm, baseptr, win);
}
COMM_API_ALIAS(MPI_Win_allocate_shared);

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return win_make("MPI_Win_create_dynamic", MPI_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, comm, NULL,
                    win);
}
COMM_API_ALIAS(MPI_Win_create_dynamic);

int PMPI_Win_free(MPI_Win *win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_free", win != NULL ? *win : MPI_WIN_NULL, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->access != COMM_RMA_NONE || w->exposed) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_free: the window is still in an epoch (%s)",
                              w->exposed ? "posted, not waited for" : "locked or started");
    }
    err = comm_api_win_attr_delete_all("MPI_Win_free", w);
    if (err != MPI_SUCCESS) {
        return err;
    }
    comm_api_handle_forget(COMM_API_HANDLE_WIN, *win);
    if (w->info != NULL) {
        comm_info_release(w->info);
    }
    err = comm_win_free(w);
    *win = MPI_WIN_NULL;
    return err == MPI_SUCCESS ? MPI_SUCCESS
                              : comm_api_error(NULL, err, "MPI_Win_free: the members did not meet");
}
COMM_API_ALIAS(MPI_Win_free);

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_shared_query", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (size == NULL || disp_unit == NULL || baseptr == NULL) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_shared_query: %s is NULL",
                              size == NULL        ? "size"
                              : disp_unit == NULL ? "disp_unit"
                                                  : "baseptr");
    }
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size)) {
        return comm_api_error(w->comm, MPI_ERR_RANK,
                              "MPI_Win_shared_query: rank %d is not in the window's group of %d",
                              rank, w->size);
    }
    if (w->flavor != MPI_WIN_FLAVOR_SHARED && w->flavor != MPI_WIN_FLAVOR_ALLOCATE) {
        return comm_api_error(w->comm, MPI_ERR_RMA_FLAVOR,
                              "MPI_Win_shared_query: the window was not made by "
                              "MPI_Win_allocate_shared");
    }
    err = comm_win_shared_query(w, rank, size, disp_unit, baseptr);
    if (err != MPI_SUCCESS) {
        return comm_api_error(w->comm, err,
                              "MPI_Win_shared_query: rank %d's memory is not shared with this "
                              "process",
                              rank);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_shared_query);

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_attach", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        return comm_api_error(w->comm, MPI_ERR_RMA_FLAVOR,
                              "MPI_Win_attach: the window was not made by MPI_Win_create_dynamic");
    }
    if (size < 0) {
        return comm_api_error(w->comm, MPI_ERR_SIZE, "MPI_Win_attach: size %lld is negative",
                              (long long)size);
    }
    if (base == NULL && size > 0) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_attach: base is NULL");
    }
    err = comm_win_attach(w, base, size);
    if (err != MPI_SUCCESS) {
        return comm_api_error(w->comm, err, "MPI_Win_attach: %s",
                              err == MPI_ERR_RMA_ATTACH
                                  ? "the memory overlaps memory already attached"
                                  : "out of memory");
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_attach);

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_detach", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        return comm_api_error(w->comm, MPI_ERR_RMA_FLAVOR,
                              "MPI_Win_detach: the window was not made by MPI_Win_create_dynamic");
    }
    if (comm_win_detach(w, base) != MPI_SUCCESS) {
        return comm_api_error(w->comm, MPI_ERR_RMA_ATTACH,
                              "MPI_Win_detach: no memory attached at %p", base);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_detach);

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_get_group", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (group == NULL) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_get_group: group is NULL");
    }
    return PMPI_Comm_group(w->comm->handle, group);
}
COMM_API_ALIAS(MPI_Win_get_group);

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_set_info", win, &w);

    return err != MPI_SUCCESS ? err : win_take_hints("MPI_Win_set_info", w->comm, w, info);
}
COMM_API_ALIAS(MPI_Win_set_info);

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    struct comm_win *w = NULL;
    struct comm_info *copy;
    int err = comm_api_enter_win("MPI_Win_get_info", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (info_used == NULL) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_get_info: info_used is NULL");
    }
    if (comm_info_dup(w->info, &copy) < 0) {
        return comm_api_error(w->comm, MPI_ERR_NO_MEM, "MPI_Win_get_info: out of memory");
    }
    *info_used = comm_info_handle(copy);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_get_info);

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_set_name", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (win_name == NULL) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_set_name: win_name is NULL");
    }
    snprintf(w->name, sizeof(w->name), "%s", win_name);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_set_name);

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_get_name", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (win_name == NULL || resultlen == NULL) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_get_name: %s is NULL",
                              win_name == NULL ? "win_name" : "resultlen");
    }
    snprintf(win_name, MPI_MAX_OBJECT_NAME, "%s", w->name);
    *resultlen = (int)strlen(win_name);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_get_name);

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
    struct comm_errhandler *eh;
    int err = comm_api_check_running("MPI_Win_create_errhandler");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (win_errhandler_fn == NULL || errhandler == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Win_create_errhandler: %s is NULL",
                              errhandler == NULL ? "errhandler" : "the function");
    }
    eh = comm_errhandler_create(NULL);
    if (eh == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Win_create_errhandler: out of memory");
    }
    eh->win_fn = win_errhandler_fn;
    *errhandler = comm_errhandler_handle(eh);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_create_errhandler);

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    struct comm_win *w = NULL;
    struct comm_errhandler *eh;
    int err = comm_api_enter_win("MPI_Win_set_errhandler", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    eh = comm_errhandler_lookup(errhandler);
    if (eh == NULL || (eh->kind == COMM_ERRHANDLER_USER && eh->win_fn == NULL &&
                       !comm_errhandler_is_invoked_for(eh, COMM_ERRHANDLER_FOR_WIN))) {
        return comm_api_error(w->comm, MPI_ERR_ARG,
                              "MPI_Win_set_errhandler: invalid error handler %#lx%s",
                              (unsigned long)(uintptr_t)errhandler,
                              eh != NULL ? " (not made by MPI_Win_create_errhandler)" : "");
    }
    comm_errhandler_retain(eh);
    comm_errhandler_release(w->comm->errhandler);
    w->comm->errhandler = eh;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_set_errhandler);

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_get_errhandler", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (errhandler == NULL) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_get_errhandler: errhandler is NULL");
    }
    comm_errhandler_retain(w->comm->errhandler);
    *errhandler = comm_errhandler_handle(w->comm->errhandler);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_get_errhandler);

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_call_errhandler", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    comm_api_error(w->comm, errorcode,
                   "MPI_Win_call_errhandler: error code %d raised by the application", errorcode);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Win_call_errhandler);
