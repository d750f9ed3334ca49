/*
 * errhandler.h - error handlers: the predefined ones and those the user creates.
 *
 * Layer: runtime core.  Must not: decide what an error is (the API raises errors).
 *
 * Ownership: MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN are static.  A user handler is
 * reference-counted: its handle holds one reference, each communicator using it one more.
 */
#ifndef COMM_ERRHANDLER_H
#define COMM_ERRHANDLER_H

#include <stdbool.h>

#include "include/mpi.h"

enum comm_errhandler_kind {
    COMM_ERRHANDLER_FATAL,  /* MPI_ERRORS_ARE_FATAL: end the job */
    COMM_ERRHANDLER_RETURN, /* MPI_ERRORS_RETURN: return the error code */
    COMM_ERRHANDLER_USER,   /* call fn, then return the error code */
};

/* The kind of object a user handler of another calling convention serves. */
enum comm_errhandler_object {
    COMM_ERRHANDLER_FOR_COMM,
    COMM_ERRHANDLER_FOR_WIN,
    COMM_ERRHANDLER_FOR_SESSION,
};

/*
 * A user handler written in another calling convention (a Fortran procedure, whose handles are
 * integers): called instead of fn, win_fn or session_fn (all NULL then) with the handler's
 * invoke_data, the kind of object, the address of its C handle (MPI_Comm, MPI_Win or
 * MPI_Session, as a C handler gets it) and the address of the error code.
 */
typedef void comm_errhandler_invoke_fn(const void *invoke_data, enum comm_errhandler_object object,
                                       void *handle, int *code);

struct comm_errhandler {
    enum comm_errhandler_kind kind;
    int refcount;
    MPI_Comm_errhandler_function *fn;            /* a communicator's user handler, or NULL */
    MPI_Session_errhandler_function *session_fn; /* a session's user handler, or NULL */
    MPI_Win_errhandler_function *win_fn;         /* a window's user handler, or NULL */
    comm_errhandler_invoke_fn *invoke;           /* another convention's handler, or NULL */
    void *invoke_data;                           /* given to invoke; freed with the handler */
    enum comm_errhandler_object object;          /* with invoke: what it serves */
};

/* The object behind a handle, or NULL (MPI_ERRHANDLER_NULL or a handle that names nothing). */
struct comm_errhandler *comm_errhandler_lookup(MPI_Errhandler handle);

/* The handle of an object. */
MPI_Errhandler comm_errhandler_handle(struct comm_errhandler *eh);

/* A new user handler with one reference; NULL when out of memory. */
struct comm_errhandler *comm_errhandler_create(MPI_Comm_errhandler_function *fn);

/* The same for a session's handler (MPI_Session_create_errhandler). */
struct comm_errhandler *comm_errhandler_create_session(MPI_Session_errhandler_function *fn);

/*
 * A user handler of another calling convention for OBJECT, calling INVOKE with INVOKE_DATA
 * (malloc'ed; owned by the handler from here on, even on failure, and freed with free()).
 * One reference; NULL when out of memory.
 */
struct comm_errhandler *comm_errhandler_create_invoked(enum comm_errhandler_object object,
                                                       comm_errhandler_invoke_fn *invoke,
                                                       void *invoke_data);

/* Whether EH is a user handler of another convention made for OBJECT. */
static inline bool comm_errhandler_is_invoked_for(const struct comm_errhandler *eh,
                                                  enum comm_errhandler_object object)
{
    return eh->invoke != NULL && eh->object == object;
}

void comm_errhandler_retain(struct comm_errhandler *eh);
void comm_errhandler_release(struct comm_errhandler *eh);

#endif
