/*
 * comm_run_evlog.c - libevent's own messages, through comm's log.
 *
 * Layer: launcher.  Must not: write to stderr itself (the log does).
 *
 * libevent prints its diagnostics as bare "[warn] ..." lines on stderr.  libpmix shares
 * comm-run's libevent and, in PMIx 4.2.2, its server finalize deletes the event of a client
 * socket it closed already when a rank aborted; libevent then warned "Epoll MOD(1) on fd 16
 * failed ... Bad file descriptor" on the user's terminal, about nothing the user can act on.
 * So its errors become comm-run warnings, and its other messages info lines
 * (COMM_LOG_LEVEL=info shows them).
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "base/log.h"

#include <event2/event.h>

void comm_run_libevent_log(int severity, const char *msg)
{
    comm_log_emit(severity >= EVENT_LOG_ERR ? COMM_LOG_WARN : COMM_LOG_INFO, "launcher",
                  "libevent: %s", msg);
}
