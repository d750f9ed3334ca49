/*
 * api_errors.c - MPI error classes, codes and strings, and raising an error on an object (the
 * error-handler dispatch every entry point goes through); the error-handler objects' own calls
 * are api_errhandler.c.
 *
 * Layer: api.  The one table that maps comm statuses to MPI error classes lives here;
 * MPI_Error_class and MPI_Error_string both read it, and the user's classes and codes
 * (MPI_Add_error_class and friends, from MPI_ERR_LASTCODE + 1) beside it.
 */
#include "config.h"

#include "api/api.h"
#include "base/error.h"
#include "rma/rma.h"
#include "runtime/p2p/progress.h"
#include "runtime/runtime.h"
#include "runtime/thread.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const api_class_text[] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype argument",
    [MPI_ERR_TAG] = "invalid tag argument",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_REQUEST] = "invalid request handle",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid reduction operation",
    [MPI_ERR_TOPOLOGY] = "invalid topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument of some other kind",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated on receive",
    [MPI_ERR_OTHER] = "known error not in this list",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_IN_STATUS] = "error code is in status",
    [MPI_ERR_PENDING] = "pending request",
    [MPI_ERR_KEYVAL] = "invalid keyval",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_BASE] = "invalid base address",
    [MPI_ERR_INFO_KEY] = "info key too long",
    [MPI_ERR_INFO_VALUE] = "info value too long",
    [MPI_ERR_INFO_NOKEY] = "info key not defined",
    [MPI_ERR_SPAWN] = "error in spawning processes",
    [MPI_ERR_PORT] = "invalid port name",
    [MPI_ERR_SERVICE] = "invalid service name",
    [MPI_ERR_NAME] = "invalid service name in lookup",
    [MPI_ERR_WIN] = "invalid window",
    [MPI_ERR_SIZE] = "invalid size argument",
    [MPI_ERR_DISP] = "invalid displacement argument",
    [MPI_ERR_INFO] = "invalid info argument",
    [MPI_ERR_LOCKTYPE] = "invalid lock type",
    [MPI_ERR_ASSERT] = "invalid assert argument",
    [MPI_ERR_RMA_CONFLICT] = "conflicting accesses to window",
    [MPI_ERR_RMA_SYNC] = "wrong synchronization of RMA calls",
    [MPI_ERR_FILE] = "invalid file handle",
    [MPI_ERR_NOT_SAME] = "collective argument not identical on all processes",
    [MPI_ERR_AMODE] = "invalid file access mode",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "unsupported operation",
    [MPI_ERR_NO_SUCH_FILE] = "file does not exist",
    [MPI_ERR_FILE_EXISTS] = "file exists",
    [MPI_ERR_BAD_FILE] = "invalid file name",
    [MPI_ERR_ACCESS] = "permission denied",
    [MPI_ERR_NO_SPACE] = "not enough space",
    [MPI_ERR_QUOTA] = "quota exceeded",
    [MPI_ERR_READ_ONLY] = "read-only file or file system",
    [MPI_ERR_FILE_IN_USE] = "file operation could not be completed: file in use",
    [MPI_ERR_DUP_DATAREP] = "data representation already defined",
    [MPI_ERR_CONVERSION] = "error in user data conversion function",
    [MPI_ERR_IO] = "other I/O error",
    [MPI_ERR_RMA_RANGE] = "target memory outside the window",
    [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
    [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
    [MPI_ERR_RMA_FLAVOR] = "wrong window flavor",
    [MPI_T_ERR_MEMORY] = "tools interface: out of memory",
    [MPI_T_ERR_NOT_INITIALIZED] = "tools interface not initialized",
    [MPI_T_ERR_CANNOT_INIT] = "tools interface cannot be initialized",
    [MPI_T_ERR_INVALID_INDEX] = "tools interface: invalid index",
    [MPI_T_ERR_INVALID_ITEM] = "tools interface: invalid enumeration item",
    [MPI_T_ERR_INVALID_HANDLE] = "tools interface: invalid handle",
    [MPI_T_ERR_OUT_OF_HANDLES] = "tools interface: no more handles",
    [MPI_T_ERR_OUT_OF_SESSIONS] = "tools interface: no more sessions",
    [MPI_T_ERR_INVALID_SESSION] = "tools interface: invalid session",
    [MPI_T_ERR_CVAR_SET_NOT_NOW] = "control variable cannot be set now",
    [MPI_T_ERR_CVAR_SET_NEVER] = "control variable cannot be set",
    [MPI_T_ERR_PVAR_NO_STARTSTOP] = "performance variable cannot be started or stopped",
    [MPI_T_ERR_PVAR_NO_WRITE] = "performance variable cannot be written or reset",
    [MPI_T_ERR_PVAR_NO_ATOMIC] = "performance variable cannot be read and reset atomically",
    [MPI_T_ERR_INVALID_NAME] = "tools interface: no variable or category of that name",
    [MPI_T_ERR_INVALID] = "tools interface: invalid use",
    [MPI_ERR_SESSION] = "invalid session",
};

enum { API_NCLASSES = sizeof(api_class_text) / sizeof(api_class_text[0]) };

/* The one mapping from comm statuses to MPI error classes. */
static const struct {
    int status;
    int mpi_class;
} api_status_class[] = {
    {COMM_ERR_NOMEM, MPI_ERR_NO_MEM},
    {COMM_ERR_BAD_PARAM, MPI_ERR_ARG},
    {COMM_ERR_NOT_SUPPORTED, MPI_ERR_UNSUPPORTED_OPERATION},
    {COMM_ERR_NOT_FOUND, MPI_ERR_OTHER},
    {COMM_ERR_SYSTEM, MPI_ERR_OTHER},
    {COMM_ERR_PMIX, MPI_ERR_OTHER},
    {COMM_ERR_UNREACHABLE, MPI_ERR_OTHER},
    {COMM_ERR_TIMEOUT, MPI_ERR_OTHER},
    {COMM_ERR_STATE, MPI_ERR_OTHER},
    {COMM_ERR_INTERNAL, MPI_ERR_INTERN},
};

enum { API_NSTATUSES = sizeof(api_status_class) / sizeof(api_status_class[0]) };

int comm_api_code_of_status(int status)
{
    if (status >= 0) {
        return MPI_SUCCESS;
    }
    return COMM_API_STATUS_CODE_BASE - status;
}

/*
 * The user's classes and codes (MPI_Add_error_class, _code), numbered from MPI_ERR_LASTCODE + 1
 * in the order they were added; a class is also a code whose class is itself.  Never removed.
 */
struct api_user_code {
    int mpi_class;
    char *text; /* MPI_Add_error_string's; NULL: the empty string */
};

/* Guarded by api_codes_lock (runtime/thread.h): each code allocated once, never moved. */
static struct comm_mutex api_codes_lock = COMM_MUTEX_INITIALIZER;
static struct api_user_code **api_user_codes;
static int api_nuser_codes;

int comm_api_last_used_code(void)
{
    int n;

    comm_mutex_lock(&api_codes_lock);
    n = api_nuser_codes;
    comm_mutex_unlock(&api_codes_lock);
    return MPI_ERR_LASTCODE + n;
}

static struct api_user_code *api_user_code(int code)
{
    struct api_user_code *user = NULL;

    comm_mutex_lock(&api_codes_lock);
    if (code > MPI_ERR_LASTCODE && code <= MPI_ERR_LASTCODE + api_nuser_codes) {
        user = api_user_codes[code - MPI_ERR_LASTCODE - 1];
    }
    comm_mutex_unlock(&api_codes_lock);
    return user;
}

/* Class and text of an error code; false for a code that names nothing. */
static bool api_describe(int code, int *class_out, const char **class_text_out,
                         const char **detail_out)
{
    const struct api_user_code *user = api_user_code(code);

    if (user != NULL) {
        *class_out = user->mpi_class;
        *class_text_out = user->text != NULL ? user->text : "";
        *detail_out = NULL;
        return true;
    }
    if (code >= 0 && code < API_NCLASSES) {
        *class_out = code;
        *class_text_out = api_class_text[code];
        *detail_out = NULL;
        return true;
    }
    for (size_t i = 0; i < API_NSTATUSES; i++) {
        if (code == comm_api_code_of_status(api_status_class[i].status)) {
            *class_out = api_status_class[i].mpi_class;
            *class_text_out = api_class_text[api_status_class[i].mpi_class];
            *detail_out = comm_strerror(api_status_class[i].status);
            return true;
        }
    }
    return false;
}

int comm_api_error(struct comm_communicator *comm, int code, const char *fmt, ...)
{
    char message[MPI_MAX_ERROR_STRING];
    enum comm_errhandler_kind handler = COMM_ERRHANDLER_FATAL;
    va_list ap;

    if (comm == NULL && comm_runtime_state() == COMM_RUNTIME_RUNNING) {
        comm = comm_communicator_lookup(MPI_COMM_WORLD);
    }
    if (comm != NULL && comm_runtime_state() == COMM_RUNTIME_RUNNING) {
        handler = comm->errhandler->kind;
    }
    if (handler == COMM_ERRHANDLER_RETURN) {
        return code;
    }
    if (handler == COMM_ERRHANDLER_USER && comm->errhandler->invoke != NULL) {
        const struct comm_errhandler *eh = comm->errhandler;
        MPI_Comm handle = comm->handle;
        MPI_Win win = comm->win;
        int c = code;

        if (eh->object == COMM_ERRHANDLER_FOR_WIN && win != NULL) {
            eh->invoke(eh->invoke_data, eh->object, &win, &c);
            return code;
        }
        if (eh->object == COMM_ERRHANDLER_FOR_COMM) {
            eh->invoke(eh->invoke_data, eh->object, &handle, &c);
            return code;
        }
    }
    if (handler == COMM_ERRHANDLER_USER && comm->win != NULL && comm->errhandler->win_fn) {
        MPI_Win win = comm->win;
        int c = code;

        comm->errhandler->win_fn(&win, &c);
        return code;
    }
    if (handler == COMM_ERRHANDLER_USER && comm->errhandler->fn != NULL) {
        MPI_Comm handle = comm->handle;
        int c = code;

        comm->errhandler->fn(&handle, &c);
        return code;
    }
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    if (api_user_code(code) != NULL && api_user_code(code)->text != NULL) {
        /* The program's own words for its code. */
        size_t n = strlen(message);

        snprintf(message + n, sizeof(message) - n, " (%s)", api_user_code(code)->text);
    }
    comm_runtime_abort(code, message);
}

int comm_api_check_running(const char *func)
{
    switch (comm_runtime_state()) {
    case COMM_RUNTIME_RUNNING:
        comm_progress_note_call(func); /* named if it waits with nothing moving */
        return MPI_SUCCESS;
    case COMM_RUNTIME_NOT_STARTED:
        return comm_api_error(NULL, MPI_ERR_OTHER, "%s: called before MPI_Init", func);
    case COMM_RUNTIME_FINALIZED:
        return comm_api_error(NULL, MPI_ERR_OTHER, "%s: called after MPI_Finalize", func);
    }
    return MPI_ERR_INTERN;
}

int comm_api_enter_comm(const char *func, MPI_Comm comm, struct comm_communicator **comm_out)
{
    struct comm_communicator *c;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    c = comm_communicator_lookup(comm);
    if (c == NULL && comm == MPI_COMM_NULL) {
        return comm_api_error(NULL, MPI_ERR_COMM, "%s: invalid communicator MPI_COMM_NULL", func);
    }
    if (c == NULL) {
        return comm_api_error(NULL, MPI_ERR_COMM, "%s: invalid communicator handle %#lx", func,
                              (unsigned long)(uintptr_t)comm);
    }
    *comm_out = c;
    return MPI_SUCCESS;
}

int comm_api_enter_intracomm(const char *func, MPI_Comm comm, struct comm_communicator **comm_out)
{
    int err = comm_api_enter_comm(func, comm, comm_out);

    if (err == MPI_SUCCESS && (*comm_out)->inter) {
        return comm_api_error(*comm_out, MPI_ERR_COMM, "%s: not available on an intercommunicator",
                              func);
    }
    return err;
}

int comm_api_enter_win(const char *func, MPI_Win win, struct comm_win **win_out)
{
    struct comm_win *w = NULL;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    w = comm_win_lookup(win);
    if (w == NULL) {
        return comm_api_error(NULL, MPI_ERR_WIN, "%s: invalid window %s", func,
                              win == MPI_WIN_NULL ? "MPI_WIN_NULL" : "handle");
    }
    *win_out = w;
    return MPI_SUCCESS;
}

int PMPI_Error_class(int errorcode, int *errorclass)
{
    int cls;
    const char *text, *detail;

    if (errorclass == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Error_class: errorclass is NULL");
    }
    if (!api_describe(errorcode, &cls, &text, &detail)) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Error_class: invalid error code %d",
                              errorcode);
    }
    *errorclass = cls;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Error_class);

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    int cls, n;
    const char *text, *detail;

    if (string == NULL || resultlen == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Error_string: %s is NULL",
                              string == NULL ? "string" : "resultlen");
    }
    if (!api_describe(errorcode, &cls, &text, &detail)) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Error_string: invalid error code %d",
                              errorcode);
    }
    if (detail != NULL) {
        n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", text, detail);
    } else {
        n = snprintf(string, MPI_MAX_ERROR_STRING, "%s", text);
    }
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Error_string);

/* Adds a user code of class MPI_CLASS (-1: a new class, its own); its number, or the error. */
static int api_add_code(const char *func, int mpi_class, int *code_out)
{
    struct api_user_code **grown, *made = malloc(sizeof(*made));
    int code = 0;

    if (made == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    comm_mutex_lock(&api_codes_lock);
    grown = realloc(api_user_codes, (size_t)(api_nuser_codes + 1) * sizeof(*grown));
    if (grown != NULL) {
        code = MPI_ERR_LASTCODE + api_nuser_codes + 1;
        *made = (struct api_user_code){.mpi_class = mpi_class < 0 ? code : mpi_class};
        api_user_codes = grown;
        api_user_codes[api_nuser_codes++] = made;
    }
    comm_mutex_unlock(&api_codes_lock);
    if (grown == NULL) {
        free(made);
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *code_out = code;
    return MPI_SUCCESS;
}

int PMPI_Add_error_class(int *errorclass)
{
    int err = comm_api_check_running("MPI_Add_error_class");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (errorclass == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Add_error_class: errorclass is NULL");
    }
    return api_add_code("MPI_Add_error_class", -1, errorclass);
}
COMM_API_ALIAS(MPI_Add_error_class);

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    const struct api_user_code *user = api_user_code(errorclass);
    int err = comm_api_check_running("MPI_Add_error_code");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (errorcode == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Add_error_code: errorcode is NULL");
    }
    if ((errorclass < 0 || errorclass >= API_NCLASSES) &&
        (user == NULL || user->mpi_class != errorclass)) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "MPI_Add_error_code: %d is not an error class (neither "
                              "predefined nor added by MPI_Add_error_class)",
                              errorclass);
    }
    return api_add_code("MPI_Add_error_code", errorclass, errorcode);
}
COMM_API_ALIAS(MPI_Add_error_code);

int PMPI_Add_error_string(int errorcode, const char *string)
{
    struct api_user_code *user = api_user_code(errorcode);
    char *copy;
    int err = comm_api_check_running("MPI_Add_error_string");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (string == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Add_error_string: string is NULL");
    }
    if (user == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "MPI_Add_error_string: %d is not an error code or class added by "
                              "MPI_Add_error_class or MPI_Add_error_code",
                              errorcode);
    }
    if (strlen(string) >= MPI_MAX_ERROR_STRING) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "MPI_Add_error_string: the string is %zu characters long, more "
                              "than MPI_MAX_ERROR_STRING - 1 (%d)",
                              strlen(string), MPI_MAX_ERROR_STRING - 1);
    }
    copy = strdup(string);
    if (copy == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Add_error_string: out of memory");
    }
    free(user->text);
    user->text = copy;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Add_error_string);
