/*
 * api_errhandler.c - error handlers: MPI_Comm_create_errhandler, _set_, _get_ and
 * _call_errhandler, MPI_Errhandler_free (the window's and the file's forms are beside their
 * objects; the handler runs from comm_api_error, api_errors.c).
 *
 * Layer: api.
 */
#include "config.h"

#include "api/api.h"
#include "base/error.h"
#include "rma/rma.h"
#include "runtime/runtime.h"
#include "runtime/thread.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct comm_communicator *c;
    struct comm_errhandler *eh;
    int err = comm_api_enter_comm("MPI_Comm_set_errhandler", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    eh = comm_errhandler_lookup(errhandler);
    if (eh == NULL || eh->session_fn != NULL || eh->win_fn != NULL ||
        comm_errhandler_is_invoked_for(eh, COMM_ERRHANDLER_FOR_WIN) ||
        comm_errhandler_is_invoked_for(eh, COMM_ERRHANDLER_FOR_SESSION)) {
        return comm_api_error(c, MPI_ERR_ARG,
                              "MPI_Comm_set_errhandler: invalid error handler "
                              "%#lx%s",
                              (unsigned long)(uintptr_t)errhandler,
                              eh == NULL ? ""
                              : eh->win_fn != NULL ||
                                      comm_errhandler_is_invoked_for(eh, COMM_ERRHANDLER_FOR_WIN)
                                  ? " (a window's)"
                                  : " (a session's)");
    }
    comm_errhandler_retain(eh);
    comm_errhandler_release(c->errhandler);
    c->errhandler = eh;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_set_errhandler);

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Comm_get_errhandler", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (errhandler == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_get_errhandler: errhandler is NULL");
    }
    /* The caller gets a reference of its own, to free with MPI_Errhandler_free. */
    comm_errhandler_retain(c->errhandler);
    *errhandler = comm_errhandler_handle(c->errhandler);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_get_errhandler);

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    struct comm_errhandler *eh;
    int err = comm_api_check_running("MPI_Comm_create_errhandler");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (comm_errhandler_fn == NULL || errhandler == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler: %s is NULL",
                              errhandler == NULL ? "errhandler" : "the function");
    }
    eh = comm_errhandler_create(comm_errhandler_fn);
    if (eh == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_errhandler: out of memory");
    }
    *errhandler = comm_errhandler_handle(eh);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_create_errhandler);

int comm_api_errhandler_create_invoked(const char *func, enum comm_errhandler_object object,
                                       comm_errhandler_invoke_fn *invoke, void *invoke_data,
                                       MPI_Errhandler *errhandler)
{
    struct comm_errhandler *eh;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        free(invoke_data);
        return err;
    }
    if (invoke == NULL || errhandler == NULL) {
        free(invoke_data);
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                              errhandler == NULL ? "errhandler" : "the function");
    }
    eh = comm_errhandler_create_invoked(object, invoke, invoke_data);
    if (eh == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *errhandler = comm_errhandler_handle(eh);
    return MPI_SUCCESS;
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Comm_call_errhandler", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    comm_api_error(c, errorcode,
                   "MPI_Comm_call_errhandler: error code %d raised by the "
                   "application",
                   errorcode);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_call_errhandler);

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    struct comm_errhandler *eh;
    int err = comm_api_check_running("MPI_Errhandler_free");

    if (err != MPI_SUCCESS) {
        return err;
    }
    eh = errhandler ? comm_errhandler_lookup(*errhandler) : NULL;
    if (eh == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Errhandler_free: invalid error handler");
    }
    /* The Fortran index goes with the user's handle: communicators may keep the object alive
     * after this, but the index must not outlive it. */
    comm_api_handle_forget(COMM_API_HANDLE_ERRHANDLER, *errhandler);
    comm_errhandler_release(eh);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Errhandler_free);
