/*
 * abort.c - ending the job on a fatal error or MPI_Abort.
 *
 * Layer: base.  The only file of libcomm that calls _exit().
 * Must not: call PMIx directly (the runtime installs a hook that does).
 */
#include "config.h"

#include "base/abort.h"
#include "base/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static comm_abort_hook_fn abort_hook = NULL;

void comm_abort_set_hook(comm_abort_hook_fn hook)
{
    abort_hook = hook;
}

void comm_abort(int status, const char *fmt, ...)
{
    char message[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    comm_log_error("runtime", "%s", message);
    if (abort_hook != NULL) {
        abort_hook(status, message);
    }
    _exit(status & 0xff);
}
