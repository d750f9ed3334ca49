/*
 * api_check.c - argument checks shared by the point-to-point entry points.
 *
 * Layer: api.  Messages name the function, the argument and the value at fault.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "runtime/p2p/request.h"

#include <stdint.h>

int comm_api_check_datatype(const char *func, struct comm_communicator *comm, MPI_Datatype datatype,
                            struct comm_datatype **dt_out)
{
    struct comm_datatype *dt = comm_datatype_lookup(datatype);

    if (datatype == MPI_DATATYPE_NULL) {
        return comm_api_error(comm, MPI_ERR_TYPE, "%s: invalid datatype MPI_DATATYPE_NULL", func);
    }
    if (dt == NULL) {
        return comm_api_error(comm, MPI_ERR_TYPE, "%s: invalid datatype handle %#lx", func,
                              (unsigned long)(uintptr_t)datatype);
    }
    if (!dt->committed) {
        return comm_api_error(comm, MPI_ERR_TYPE,
                              "%s: datatype %s is not committed "
                              "(MPI_Type_commit)",
                              func, dt->name[0] ? dt->name : "(derived)");
    }
    *dt_out = dt;
    return MPI_SUCCESS;
}

int comm_api_check_data(const char *func, struct comm_communicator *comm, const void *buf,
                        int count, MPI_Datatype datatype, struct comm_datatype **dt_out)
{
    struct comm_datatype *dt;
    int err;

    if (count < 0) {
        return comm_api_error(comm, MPI_ERR_COUNT, "%s: invalid count %d", func, count);
    }
    err = comm_api_check_datatype(func, comm, datatype, &dt);
    if (err != MPI_SUCCESS) {
        return err;
    }
    /* MPI_BOTTOM is NULL too: only a buffer whose data would start at address 0 is wrong. */
    if (buf == NULL && count > 0 && dt->size > 0 && dt->true_lb == 0) {
        return comm_api_error(comm, MPI_ERR_BUFFER, "%s: buffer is NULL with count %d", func,
                              count);
    }
    *dt_out = dt;
    return MPI_SUCCESS;
}

int comm_api_check_p2p(const char *func, struct comm_communicator *comm, const void *buf, int count,
                       MPI_Datatype datatype, int rank, int tag, bool is_recv,
                       struct comm_datatype **dt_out)
{
    struct comm_datatype *dt;
    int err = comm_api_check_data(func, comm, buf, count, datatype, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (rank != MPI_PROC_NULL && !(is_recv && rank == MPI_ANY_SOURCE) &&
        (rank < 0 || rank >= comm_communicator_peer_count(comm))) {
        return comm_api_error(comm, MPI_ERR_RANK,
                              "%s: invalid rank %d in a%s communicator of "
                              "size %d",
                              func, rank, comm->inter ? "n inter" : "",
                              comm_communicator_peer_count(comm));
    }
    if (!(is_recv && tag == MPI_ANY_TAG) && (tag < 0 || tag > COMM_API_TAG_UB)) {
        return comm_api_error(comm, MPI_ERR_TAG, "%s: invalid tag %d (tags go from 0 to %d)", func,
                              tag, COMM_API_TAG_UB);
    }
    *dt_out = dt;
    return MPI_SUCCESS;
}

int comm_api_request_error(const char *func, struct comm_request *req)
{
    if (req->error == MPI_SUCCESS) {
        return MPI_SUCCESS;
    }
    if (req->error == MPI_ERR_TRUNCATE) {
        return comm_api_error(req->comm, MPI_ERR_TRUNCATE,
                              "%s: message truncated: %zu bytes "
                              "sent by rank %d, the receive buffer holds %zu",
                              func, req->msg_len, req->status.MPI_SOURCE, req->len);
    }
    return comm_api_error(req->comm, req->error, "%s: the operation failed (see above)", func);
}
