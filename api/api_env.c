/*
 * api_env.c - inquiry functions: time, processor name, versions.
 *
 * Layer: api.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/runtime.h"

#include <stdio.h>

double PMPI_Wtime(void)
{
    return comm_runtime_wtime();
}
COMM_API_ALIAS(MPI_Wtime);

double PMPI_Wtick(void)
{
    return comm_runtime_wtick();
}
COMM_API_ALIAS(MPI_Wtick);

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    int err = comm_api_check_running("MPI_Get_processor_name");
    int n;

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (name == NULL || resultlen == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Get_processor_name: %s is NULL",
                              name == NULL ? "name" : "resultlen");
    }
    n = snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", comm_runtime_job()->host);
    *resultlen = n < MPI_MAX_PROCESSOR_NAME ? n : MPI_MAX_PROCESSOR_NAME - 1;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Get_processor_name);

int PMPI_Get_version(int *version, int *subversion)
{
    if (version == NULL || subversion == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Get_version: %s is NULL",
                              version == NULL ? "version" : "subversion");
    }
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Get_version);

int PMPI_Get_library_version(char *version, int *resultlen)
{
    int n;

    if (version == NULL || resultlen == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Get_library_version: %s is NULL",
                              version == NULL ? "version" : "resultlen");
    }
    /* Callable at any time, even before MPI_Init: only what the build knows. */
    n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                 "comm %s (MPI %d.%d), built with PMIx %s, libfabric %s, hwloc %s%s",
                 PACKAGE_VERSION, MPI_VERSION, MPI_SUBVERSION, COMM_PMIX_BUILD_VERSION,
                 COMM_FABRIC_BUILD_VERSION, COMM_HWLOC_BUILD_VERSION,
                 COMM_ENABLE_DEBUG ? ", debug build" : "");
    *resultlen = n;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Get_library_version);
