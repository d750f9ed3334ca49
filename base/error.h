/*
 * error.h - comm's internal status codes.
 *
 * Layer: base (below everything else; used by every layer).
 * Must not: know about MPI error classes (the API maps statuses to classes).
 *
 * Every internal function returns an int: COMM_OK (0) on success, a negative COMM_ERR_* on
 * failure (`rc < 0` is the only failure test), or a positive value meaning "neither failed nor
 * finished".
 */
#ifndef COMM_ERROR_H
#define COMM_ERROR_H

enum comm_status {
    COMM_OK = 0,
    COMM_AGAIN = 1,   /* out of resources for now: progress and retry */
    COMM_PENDING = 2, /* started; the request completes it */

    COMM_ERR_NOMEM = -1,         /* an allocation failed */
    COMM_ERR_BAD_PARAM = -2,     /* bad input from the user or a setting */
    COMM_ERR_NOT_SUPPORTED = -3, /* the operation is not provided by this component */
    COMM_ERR_NOT_FOUND = -4,     /* the thing asked for does not exist */
    COMM_ERR_SYSTEM = -5,        /* a system call failed (errno was logged) */
    COMM_ERR_PMIX = -6,          /* the PMIx server refused or failed an operation */
    COMM_ERR_UNREACHABLE = -7,   /* a peer or server cannot be reached */
    COMM_ERR_TIMEOUT = -8,       /* no progress within the allowed time */
    COMM_ERR_STATE = -9,         /* called in the wrong state (before init, after finalize) */
    COMM_ERR_INTERNAL = -10,     /* an internal invariant does not hold */
};

/*
 * Text for a status, for logs and MPI_Error_string.  Never NULL; unknown values get a generic
 * text.  Thread-safe (returns a static string).
 */
const char *comm_strerror(int status);

#endif
