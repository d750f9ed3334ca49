/*
 * settings_registry.c - the list of every settings table of libcomm.
 *
 * Layer: api (the top of the library, so it may name every component's table).
 * MPI_Init checks the environment against this list; comm-info prints it; comm(7) documents it.
 * A component that declares settings adds its table here, once.
 */
#include "config.h"

#include "btl/btl.h"
#include "coll/coll.h"
#include "rma/rma.h"
#include "api/api.h"
#include "runtime/job_topo.h"
#include "base/log.h"
#include "runtime/p2p/p2p.h"

/* Read-only variables comm-run gives every rank, so that scripts need no MPI call. */
static const struct comm_setting provided_settings[] = {
    {.name = "COMM_WORLD_RANK",
     .type = COMM_SETTING_INT,
     .default_value = "",
     .help = "rank of this process in MPI_COMM_WORLD",
     .audience = COMM_AUDIENCE_PROVIDED,
     .min = 0,
     .max = 2147483647},
    {.name = "COMM_WORLD_SIZE",
     .type = COMM_SETTING_INT,
     .default_value = "",
     .help = "number of processes in MPI_COMM_WORLD",
     .audience = COMM_AUDIENCE_PROVIDED,
     .min = 1,
     .max = 2147483647},
    {.name = "COMM_WORLD_LOCAL_RANK",
     .type = COMM_SETTING_INT,
     .default_value = "",
     .help = "rank of this process among the job's processes on its host",
     .audience = COMM_AUDIENCE_PROVIDED,
     .min = 0,
     .max = 2147483647},
    {.name = "COMM_WORLD_LOCAL_SIZE",
     .type = COMM_SETTING_INT,
     .default_value = "",
     .help = "number of the job's processes on this host",
     .audience = COMM_AUDIENCE_PROVIDED,
     .min = 1,
     .max = 2147483647},
    {.name = "COMM_NET_INTERFACES",
     .type = COMM_SETTING_STRING,
     .default_value = "",
     .help = "network interfaces the job uses between hosts, comma separated (the network "
             "transport opens nothing else unless COMM_DEVICE_ALLOWLIST says so)",
     .audience = COMM_AUDIENCE_PROVIDED},
};

static const struct comm_setting_table provided_table = {
    .component = "comm-run",
    .count = sizeof(provided_settings) / sizeof(provided_settings[0]),
    .settings = provided_settings,
};

/* Read by comm-run and its agents (launcher/comm_run_options.c, in this order), listed here so
 * that the ranks, which get every COMM_* setting, know them. */
static const struct comm_setting launcher_settings[] = {
    {.name = "COMM_HEARTBEAT_MS",
     .type = COMM_SETTING_INT,
     .default_value = "1000",
     .help = "milliseconds between the heartbeats comm-run and the agent of each other host "
             "send each other",
     .audience = COMM_AUDIENCE_USER,
     .min = 10,
     .max = 60000},
    {.name = "COMM_HEARTBEAT_MISSES",
     .type = COMM_SETTING_INT,
     .default_value = "5",
     .help = "heartbeats missed in a row before a host (or comm-run, for an agent) is "
             "suspected: a warning naming it, and the job goes on",
     .audience = COMM_AUDIENCE_USER,
     .min = 1,
     .max = 100000},
    {.name = "COMM_HEARTBEAT_LOST_MS",
     .type = COMM_SETTING_INT,
     .default_value = "90000",
     .help = "milliseconds of silence after which a host is lost and the job ends (an agent "
             "that loses comm-run stops its ranks); longer than COMM_HEARTBEAT_MS times "
             "COMM_HEARTBEAT_MISSES",
     .audience = COMM_AUDIENCE_USER,
     .min = 100,
     .max = 86400000},
};

const struct comm_setting_table comm_launcher_settings = {
    .component = "comm-run",
    .count = sizeof(launcher_settings) / sizeof(launcher_settings[0]),
    .settings = launcher_settings,
};

/* Read by the commcc wrapper script, listed here so comm-info and comm(7) show it. */
static const struct comm_setting tool_settings[] = {
    {.name = "COMM_CC",
     .type = COMM_SETTING_STRING,
     .default_value = COMM_BUILD_CC,
     .help = "C compiler that commcc runs",
     .audience = COMM_AUDIENCE_USER},
    /* Read by commfort, the Fortran wrapper; empty when comm was built without Fortran. */
    {.name = "COMM_FC",
     .type = COMM_SETTING_STRING,
     .default_value = COMM_BUILD_FC,
     .help = "Fortran compiler that commfort (commf90, commf77) runs; the modules mpi.mod and "
             "mpi_f08.mod need the compiler that built them",
     .audience = COMM_AUDIENCE_USER},
};

static const struct comm_setting_table tool_table = {
    .component = "commcc",
    .count = sizeof(tool_settings) / sizeof(tool_settings[0]),
    .settings = tool_settings,
};

const struct comm_setting_table *const comm_settings_tables[] = {
    &comm_log_settings,
    &comm_progress_settings,
    &comm_topo_settings,
    &comm_btl_settings,
    &comm_btl_shm_settings,
    &comm_btl_ofi_settings,
    &comm_coll_settings,
    &comm_coll_tunable_settings,
    &comm_rma_settings,
    &provided_table,
    &comm_launcher_settings,
    &tool_table,
};

const size_t comm_settings_ntables = sizeof(comm_settings_tables) / sizeof(comm_settings_tables[0]);
