/*
 * errhandler.c - error handler objects.
 *
 * Layer: runtime core.
 */
#include "config.h"

#include "runtime/errhandler.h"

#include <stdint.h>
#include <stdlib.h>

static struct comm_errhandler errhandler_fatal = {.kind = COMM_ERRHANDLER_FATAL};
static struct comm_errhandler errhandler_return = {.kind = COMM_ERRHANDLER_RETURN};

struct comm_errhandler *comm_errhandler_lookup(MPI_Errhandler handle)
{
    if (handle == MPI_ERRORS_ARE_FATAL) {
        return &errhandler_fatal;
    }
    if (handle == MPI_ERRORS_RETURN) {
        return &errhandler_return;
    }
    if ((uintptr_t)handle < 0x1000) {
        return NULL; /* MPI_ERRHANDLER_NULL and the other small constants */
    }
    return (struct comm_errhandler *)handle;
}

MPI_Errhandler comm_errhandler_handle(struct comm_errhandler *eh)
{
    if (eh == &errhandler_fatal) {
        return MPI_ERRORS_ARE_FATAL;
    }
    if (eh == &errhandler_return) {
        return MPI_ERRORS_RETURN;
    }
    return (MPI_Errhandler)eh;
}

/* A user handler with one reference and no function yet. */
static struct comm_errhandler *errhandler_new(void)
{
    struct comm_errhandler *eh = calloc(1, sizeof(*eh));

    if (eh != NULL) {
        eh->kind = COMM_ERRHANDLER_USER;
        eh->refcount = 1;
    }
    return eh;
}

struct comm_errhandler *comm_errhandler_create(MPI_Comm_errhandler_function *fn)
{
    struct comm_errhandler *eh = errhandler_new();

    if (eh != NULL) {
        eh->fn = fn;
    }
    return eh;
}

struct comm_errhandler *comm_errhandler_create_session(MPI_Session_errhandler_function *fn)
{
    struct comm_errhandler *eh = errhandler_new();

    if (eh != NULL) {
        eh->session_fn = fn;
    }
    return eh;
}

struct comm_errhandler *comm_errhandler_create_invoked(enum comm_errhandler_object object,
                                                       comm_errhandler_invoke_fn *invoke,
                                                       void *invoke_data)
{
    struct comm_errhandler *eh = errhandler_new();

    if (eh == NULL) {
        free(invoke_data);
        return NULL;
    }
    eh->invoke = invoke;
    eh->invoke_data = invoke_data;
    eh->object = object;
    return eh;
}

void comm_errhandler_retain(struct comm_errhandler *eh)
{
    if (eh->kind == COMM_ERRHANDLER_USER) {
        __atomic_add_fetch(&eh->refcount, 1, __ATOMIC_RELAXED);
    }
}

void comm_errhandler_release(struct comm_errhandler *eh)
{
    if (eh != NULL && eh->kind == COMM_ERRHANDLER_USER &&
        __atomic_sub_fetch(&eh->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        free(eh->invoke_data);
        free(eh);
    }
}
