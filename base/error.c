/*
 * error.c - the only place that turns a comm status into text.
 *
 * Layer: base.  Must not: log, allocate, or depend on any other comm file.
 */
#include "config.h"

#include "base/error.h"

const char *comm_strerror(int status)
{
    switch (status) {
    case COMM_OK:
        return "success";
    case COMM_AGAIN:
        return "resources temporarily exhausted, try again";
    case COMM_PENDING:
        return "operation in progress";
    case COMM_ERR_NOMEM:
        return "out of memory";
    case COMM_ERR_BAD_PARAM:
        return "invalid argument";
    case COMM_ERR_NOT_SUPPORTED:
        return "operation not supported";
    case COMM_ERR_NOT_FOUND:
        return "not found";
    case COMM_ERR_SYSTEM:
        return "system call failed";
    case COMM_ERR_PMIX:
        return "process management (PMIx) operation failed";
    case COMM_ERR_UNREACHABLE:
        return "peer or server unreachable";
    case COMM_ERR_TIMEOUT:
        return "timed out without progress";
    case COMM_ERR_STATE:
        return "called in the wrong state";
    case COMM_ERR_INTERNAL:
        return "internal error";
    default:
        return "unknown status";
    }
}
