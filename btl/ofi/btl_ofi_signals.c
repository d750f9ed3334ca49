/*
 * btl_ofi_signals.c - undoing what libfabric's dependencies do to signals when loaded.
 *
 * Layer: btl/ofi.  Must not: touch a handler that is not theirs (the application's, the
 * launcher's).
 *
 * libfabric links the PSM libraries, and libinfinipath installs its own handlers for SIGSEGV,
 * SIGBUS, SIGILL, SIGABRT, SIGINT and SIGTERM from a constructor, in every process that loads
 * it, whether any fabric is used or not: a crashing rank then prints a backtrace and exits
 * with status 1 instead of dying of its signal, so the launcher cannot say what killed it, and
 * SIGTERM no longer simply ends a rank.  A handler whose code lies in one of those libraries
 * goes back to the default after btl/ofi has loaded libfabric (btl_ofi_lib.c), again after
 * libfabric has initialized its providers, and once when libcomm is loaded (for a program
 * that links libfabric itself).
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"

#include <dlfcn.h>
#include <signal.h>
#include <string.h>

void comm_btl_ofi_restore_signals(void)
{
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa;
        Dl_info where;
        void *fn;

        if (sigaction(sig, NULL, &sa) != 0) {
            continue;
        }
        fn = (sa.sa_flags & SA_SIGINFO) ? (void *)sa.sa_sigaction : (void *)sa.sa_handler;
        if (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN || dladdr(fn, &where) == 0 ||
            where.dli_fname == NULL) {
            continue;
        }
        if (strstr(where.dli_fname, "libinfinipath") != NULL ||
            strstr(where.dli_fname, "libpsm") != NULL) {
            signal(sig, SIG_DFL);
        }
    }
}

__attribute__((constructor)) static void btl_ofi_signals_at_load(void)
{
    comm_btl_ofi_restore_signals();
}
