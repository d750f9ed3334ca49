/*
 * api_status.c - what a status says: counts, elements, cancellation.
 *
 * Layer: api.  A status keeps the bytes received and the cancelled flag in its
 * reserved words (runtime/p2p/request.c).
 */
#include "config.h"

#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "runtime/p2p/request.h"

#include <limits.h>

static int status_check(const char *func, const MPI_Status *status, MPI_Datatype datatype,
                        const void *out, struct comm_datatype **dt_out)
{
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (status == MPI_STATUS_IGNORE || out == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                              out == NULL ? "the output" : "status");
    }
    return comm_api_check_datatype(func, NULL, datatype, dt_out);
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    struct comm_datatype *dt;
    MPI_Count bytes;
    int err = status_check("MPI_Get_count", status, datatype, count, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    bytes = comm_status_bytes(status);
    if (dt->size == 0) {
        *count = 0;
    } else if (bytes % dt->size != 0 || bytes / dt->size > INT_MAX) {
        *count = MPI_UNDEFINED;
    } else {
        *count = (int)(bytes / dt->size);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Get_count);

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    struct comm_datatype *dt;
    MPI_Count elements;
    int err = status_check("MPI_Get_elements_x", status, datatype, count, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (comm_datatype_count_elements(dt, (size_t)comm_status_bytes(status), &elements) < 0) {
        *count = MPI_UNDEFINED;
    } else {
        *count = elements;
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Get_elements_x);

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count n;
    int err = PMPI_Get_elements_x(status, datatype, &n);

    if (err == MPI_SUCCESS) {
        *count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    }
    return err;
}
COMM_API_ALIAS(MPI_Get_elements);

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    struct comm_datatype *dt, *basic;
    int err = status_check("MPI_Status_set_elements_x", status, datatype, status, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (count < 0) {
        return comm_api_error(NULL, MPI_ERR_COUNT, "MPI_Status_set_elements_x: invalid count "
                              "%lld", (long long)count);
    }
    basic = comm_datatype_lookup(dt->basic);
    if (basic != NULL && dt->basic != MPI_DATATYPE_NULL && basic->nelements == 1) {
        comm_status_set_bytes(status, count * basic->size);
    } else if (dt->nelements > 0 && count % dt->nelements == 0) {
        comm_status_set_bytes(status, count / dt->nelements * dt->size);
    } else {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Status_set_elements_x: %lld elements are "
                              "not whole elements of a datatype mixing basic types",
                              (long long)count);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Status_set_elements_x);

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    return PMPI_Status_set_elements_x(status, datatype, count);
}
COMM_API_ALIAS(MPI_Status_set_elements);

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    if (status == MPI_STATUS_IGNORE) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Status_set_cancelled: status is NULL");
    }
    comm_status_set_cancelled(status, flag != 0);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Status_set_cancelled);

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    if (status == MPI_STATUS_IGNORE || flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Test_cancelled: %s is NULL",
                              flag == NULL ? "flag" : "status");
    }
    *flag = comm_status_cancelled(status);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Test_cancelled);
