/*
 * abort.h - the one way out of a process that uses libcomm.
 *
 * Layer: base.  The only file in the library that may call exit(), _exit() or abort().
 *
 * comm_abort() logs why, asks the process manager (through the hook that the runtime installs
 * once PMIx is up) to end the whole job, then exits.  COMM_ASSERT checks internal invariants in
 * debug builds only and ends in comm_abort() too.
 */
#ifndef COMM_ABORT_H
#define COMM_ABORT_H

/* Asks the process manager to end the job; may return (then the caller exits). */
typedef void (*comm_abort_hook_fn)(int status, const char *message);

/* Installs (or, with NULL, removes) the hook.  Call from the init thread. */
void comm_abort_set_hook(comm_abort_hook_fn hook);

/* Logs "aborting: MESSAGE", ends the job and exits with STATUS (modulo 256).  Never returns. */
_Noreturn void comm_abort(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#if COMM_ENABLE_DEBUG
#define COMM_ASSERT(cond)                                                                     \
    ((cond) ? (void)0                                                                         \
            : comm_abort(1, "internal error: %s:%d: assertion '%s' failed", __FILE__, __LINE__, \
                         #cond))
#else
#define COMM_ASSERT(cond) ((void)0)
#endif

#endif
