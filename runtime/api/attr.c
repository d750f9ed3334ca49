/*
 * attr.c - MPI_Comm_get_attr for the predefined attributes.
 *
 * Layer: runtime API.  Attributes the user creates (keyvals) do not exist yet; asking for one
 * is MPI_ERR_KEYVAL.
 */
#include "config.h"

#include "runtime/api/api.h"
#include "runtime/runtime.h"

/* The values the attributes point at; the standard hands out pointers to them. */
static int attr_tag_ub = COMM_API_TAG_UB;
static int attr_host = MPI_PROC_NULL;
static int attr_io = MPI_ANY_SOURCE;
static int attr_wtime_is_global = 0;
static int attr_universe_size;
static int attr_appnum;
static int attr_lastusedcode = MPI_ERR_LASTCODE;

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    struct comm_communicator *c;
    int *value;
    int err = comm_api_enter_comm("MPI_Comm_get_attr", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (attribute_val == NULL || flag == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_get_attr: %s is NULL",
                              flag == NULL ? "flag" : "attribute_val");
    }
    switch (comm_keyval) {
    case MPI_TAG_UB:
        value = &attr_tag_ub;
        break;
    case MPI_HOST:
        value = &attr_host;
        break;
    case MPI_IO:
        value = &attr_io;
        break;
    case MPI_WTIME_IS_GLOBAL:
        value = &attr_wtime_is_global;
        break;
    case MPI_UNIVERSE_SIZE:
        attr_universe_size = (int)comm_runtime_job()->universe_size;
        value = &attr_universe_size;
        break;
    case MPI_APPNUM:
        attr_appnum = (int)comm_runtime_job()->appnum;
        value = &attr_appnum;
        break;
    case MPI_LASTUSEDCODE:
        value = &attr_lastusedcode;
        break;
    default:
        return comm_api_error(c, MPI_ERR_KEYVAL, "MPI_Comm_get_attr: invalid keyval %d",
                              comm_keyval);
    }
    *(int **)attribute_val = value;
    *flag = 1;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_get_attr);
