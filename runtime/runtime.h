/*
 * runtime.h - the process-wide state of libcomm: init, finalize, who this rank is.
 *
 * Layer: runtime core.  Called by api/; calls pmix-glue and base/
 * Must not: know about MPI argument checking or error handlers (the API does that).
 *
 * Thread safety: init and finalize run on the thread that called MPI_Init; the getters read
 * state that is fixed between them.
 */
#ifndef COMM_RUNTIME_H
#define COMM_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

#include "pmix-glue/pmix_client.h"
#include "base/config_table.h"
#include "runtime/comm/coll_table.h"

enum comm_runtime_state {
    COMM_RUNTIME_NOT_STARTED,
    COMM_RUNTIME_RUNNING,
    COMM_RUNTIME_FINALIZED,
};

/*
 * Brings the process into the job: connects to the process manager, sets the log identity,
 * checks every setting of TABLES in the environment (warning about unknown COMM_* names on
 * rank 0), configures logging, and checks with a fence that every rank runs the same libcomm.
 * COLL_ATTACH gives every communicator its collectives (runtime/comm/coll_table.h): the layers
 * above hand the core their settings and their collectives.  THREAD_LEVEL is the level
 * granted.  A runtime that was finalized may start again (sessions
 * do: api/api_init.c).  Returns COMM_OK, COMM_ERR_STATE (running already),
 * COMM_ERR_BAD_PARAM (a malformed setting, logged), or COMM_ERR_PMIX.
 */
int comm_runtime_init(const struct comm_setting_table *const *tables, size_t ntables,
                      comm_coll_attach_fn coll_attach, int thread_level);

/* Leaves the job after a fence with every other rank.  Returns COMM_OK or COMM_ERR_PMIX. */
int comm_runtime_finalize(void);

enum comm_runtime_state comm_runtime_state(void);

/* The job as the process manager described it; valid while running. */
const struct comm_pmix_job *comm_runtime_job(void);

int comm_runtime_thread_level(void);
bool comm_runtime_is_main_thread(void);

/* Seconds on a monotonic clock, and its resolution. */
double comm_runtime_wtime(void);
double comm_runtime_wtick(void);

/* Ends the job: asks the process manager, then exits with STATUS.  Never returns. */
_Noreturn void comm_runtime_abort(int status, const char *message);

#endif
