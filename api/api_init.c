/*
 * api_init.c - MPI_Init and friends: entering and leaving the MPI world, and MPI_Abort.
 *
 * Layer: api.  Must not: talk to PMIx or btls directly (runtime core does).
 *
 * The world model (MPI_Init to MPI_Finalize) and the sessions (session.c) share one runtime:
 * the first of them to start starts it, and it ends when the last one ends (a count of
 * holders, below); a session started after that starts it again.  The world model itself
 * starts once and ends once, whatever the sessions do.
 */
#include "config.h"

#include "api/api.h"
#include "coll/coll.h"
#include "base/error.h"
#include "base/log.h"
#include "runtime/runtime.h"

#include <stdio.h>

/* The highest level comm provides: calls may come from any thread at once (the runtime core
 * takes its lock at MPI_THREAD_MULTIPLE only, runtime/thread.h). */
static const int init_max_thread_level = MPI_THREAD_MULTIPLE;

/* The world model's state. */
static enum {
    INIT_WORLD_NOT_STARTED,
    INIT_WORLD_RUNNING,
    INIT_WORLD_FINALIZED,
} init_world = INIT_WORLD_NOT_STARTED;

/* What holds the runtime: the world model while it runs, and each open session. */
static int init_holders = 0;
/* The runtime ran and was finalized: starting it again in the same process is refused (its
 * PMIx client, finalized and started anew, saw the job's fence fail now and then). */
static bool init_ended = false;

int comm_api_runtime_hold(int required, int *provided_out)
{
    int level = required < init_max_thread_level ? required : init_max_thread_level;
    int rc;

    if (init_holders == 0) {
        if (init_ended) {
            comm_log_error("runtime", "the runtime ended with the last session or MPI_Finalize; "
                                      "comm cannot start it again in the same process");
            return COMM_ERR_NOT_SUPPORTED;
        }
        rc = comm_runtime_init(comm_settings_tables, comm_settings_ntables, comm_coll_attach,
                               level);
        if (rc < 0) {
            return rc;
        }
    }
    init_holders++;
    /* The level the runtime started with holds for every later holder. */
    *provided_out = level < comm_runtime_thread_level() ? level : comm_runtime_thread_level();
    return COMM_OK;
}

int comm_api_runtime_release(void)
{
    if (init_holders == 0 || --init_holders > 0) {
        return COMM_OK;
    }
    init_ended = true;
    return comm_runtime_finalize();
}

static int init_common(const char *func, int required, int *provided)
{
    int level, rc;

    if (init_world != INIT_WORLD_NOT_STARTED) {
        return comm_api_error(NULL, MPI_ERR_OTHER, "%s: MPI was already %s", func,
                              init_world == INIT_WORLD_RUNNING ? "initialized" : "finalized");
    }
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: invalid thread level %d (expected MPI_THREAD_SINGLE, "
                              "_FUNNELED, _SERIALIZED or _MULTIPLE)",
                              func, required);
    }
    rc = comm_api_runtime_hold(required, &level);
    if (rc < 0) {
        /* The cause was logged where it was found. */
        return comm_api_error(NULL, comm_api_code_of_status(rc), "%s: cannot start: %s", func,
                              comm_strerror(rc));
    }
    init_world = INIT_WORLD_RUNNING;
    if (provided != NULL) {
        *provided = level;
    }
    return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return init_common("MPI_Init", MPI_THREAD_SINGLE, NULL);
}
COMM_API_ALIAS(MPI_Init);

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    if (provided == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Init_thread: provided is NULL");
    }
    return init_common("MPI_Init_thread", required, provided);
}
COMM_API_ALIAS(MPI_Init_thread);

int PMPI_Finalize(void)
{
    int err = comm_api_check_running("MPI_Finalize");
    int rc;

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (init_world != INIT_WORLD_RUNNING) {
        return comm_api_error(NULL, MPI_ERR_OTHER, "MPI_Finalize: called %s",
                              init_world == INIT_WORLD_NOT_STARTED ? "before MPI_Init"
                                                                   : "after MPI_Finalize");
    }
    /* MPI_COMM_SELF's attributes go first, as if it were freed (the standard's hook for
     * libraries that must clean up before the end). */
    err = comm_api_attr_delete_all("MPI_Finalize", comm_communicator_lookup(MPI_COMM_SELF));
    if (err != MPI_SUCCESS) {
        return err;
    }
    init_world = INIT_WORLD_FINALIZED;
    rc = comm_api_runtime_release();
    if (rc < 0) {
        return comm_api_error(NULL, comm_api_code_of_status(rc), "MPI_Finalize: %s",
                              comm_strerror(rc));
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Finalize);

int PMPI_Initialized(int *flag)
{
    if (flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Initialized: flag is NULL");
    }
    *flag = init_world != INIT_WORLD_NOT_STARTED;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Initialized);

int PMPI_Finalized(int *flag)
{
    if (flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Finalized: flag is NULL");
    }
    *flag = init_world == INIT_WORLD_FINALIZED;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Finalized);

int PMPI_Query_thread(int *provided)
{
    int err = comm_api_check_running("MPI_Query_thread");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (provided == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Query_thread: provided is NULL");
    }
    *provided = comm_runtime_thread_level();
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Query_thread);

int PMPI_Is_thread_main(int *flag)
{
    int err = comm_api_check_running("MPI_Is_thread_main");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Is_thread_main: flag is NULL");
    }
    *flag = comm_runtime_is_main_thread();
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Is_thread_main);

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    char message[256];
    struct comm_communicator *c = comm_communicator_lookup(comm);
    const char *name = c == NULL ? "<invalid>" : c->name;

    /* MPI_Abort ends the whole job whatever the communicator, valid or not. */
    snprintf(message, sizeof(message), "MPI_Abort(%s, %d) called",
             name[0] != '\0' ? name : "<unnamed communicator>", errorcode);
    comm_runtime_abort(errorcode, message);
}
COMM_API_ALIAS(MPI_Abort);
