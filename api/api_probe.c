/*
 * api_probe.c - looking at messages before receiving them: Probe, Iprobe, Mprobe, Improbe, and
 * receiving a matched message: Mrecv, Imrecv.
 *
 * Layer: api.  A message handle is the waiting message itself, taken out of the
 * matching queue, so no other receive can match it.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

#include <string.h>

static int probe_check(const char *func, int source, int tag, MPI_Comm comm,
                       struct comm_communicator **comm_out)
{
    struct comm_datatype *dt;
    int err = comm_api_enter_comm(func, comm, comm_out);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return comm_api_check_p2p(func, *comm_out, NULL, 0, MPI_BYTE, source, tag, true, &dt);
}

static void probe_proc_null(MPI_Status *status)
{
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        comm_status_set_empty(status);
        status->MPI_SOURCE = MPI_PROC_NULL;
        status->MPI_ERROR = keep;
    }
}

static void probe_copy(MPI_Status *status, const MPI_Status *found)
{
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = *found;
        status->MPI_ERROR = keep;
    }
}

/* Looks once (after progress); with WAIT until found. */
static int probe(const char *func, int source, int tag, MPI_Comm comm, bool wait, bool take,
                 int *flag, MPI_Message *message, MPI_Status *status)
{
    struct comm_communicator *c;
    struct comm_unexpected *msg = NULL;
    MPI_Status found;
    int err = probe_check(func, source, tag, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if ((!wait && flag == NULL) || (take && message == NULL)) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: %s is NULL", func,
                              !wait && flag == NULL ? "flag" : "message");
    }
    if (source == MPI_PROC_NULL) {
        probe_proc_null(status);
        if (flag != NULL) {
            *flag = 1;
        }
        if (take) {
            *message = MPI_MESSAGE_NO_PROC;
        }
        return MPI_SUCCESS;
    }
    comm_progress();
    if (wait) {
        comm_p2p_probe_wait(c, source, tag, take, &msg, &found);
    } else if (comm_p2p_probe(c, source, tag, take, &msg, &found) != COMM_OK) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    if (flag != NULL) {
        *flag = 1;
    }
    if (take) {
        msg->comm = c;
        comm_communicator_retain(c); /* the message's, handed to its receive */
        *message = (MPI_Message)msg;
    }
    probe_copy(status, &found);
    return MPI_SUCCESS;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe("MPI_Probe", source, tag, comm, true, false, NULL, NULL, status);
}
COMM_API_ALIAS(MPI_Probe);

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    return probe("MPI_Iprobe", source, tag, comm, false, false, flag, NULL, status);
}
COMM_API_ALIAS(MPI_Iprobe);

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    return probe("MPI_Mprobe", source, tag, comm, true, true, NULL, message, status);
}
COMM_API_ALIAS(MPI_Mprobe);

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    return probe("MPI_Improbe", source, tag, comm, false, true, flag, message, status);
}
COMM_API_ALIAS(MPI_Improbe);

/* Starts receiving *MESSAGE into REQ; a NO_PROC message completes at once. */
static int mrecv_start(const char *func, void *buf, int count, MPI_Datatype datatype,
                       MPI_Message *message, struct comm_request *req)
{
    struct comm_unexpected *msg;
    struct comm_datatype *dt;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (message == NULL || *message == MPI_MESSAGE_NULL) {
        return comm_api_error(NULL, MPI_ERR_REQUEST, "%s: the message is MPI_MESSAGE_NULL",
                              func);
    }
    if (*message == MPI_MESSAGE_NO_PROC) {
        comm_status_set_empty(&req->status);
        req->status.MPI_SOURCE = MPI_PROC_NULL;
        req->complete = true;
        req->state = COMM_REQUEST_DONE;
        req->comm = comm_communicator_lookup(MPI_COMM_SELF);
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    msg = (struct comm_unexpected *)*message;
    err = comm_api_check_p2p(func, msg->comm, buf, count, datatype, MPI_ANY_SOURCE, MPI_ANY_TAG,
                             true, &dt);
    if (err != MPI_SUCCESS) {
        return err;
    }
    req->comm = msg->comm;
    req->dt = dt;
    req->buf = buf;
    req->count = count;
    req->peer = msg->src;
    req->tag = msg->tag;
    comm_api_handle_forget(COMM_API_HANDLE_MESSAGE, *message);
    *message = MPI_MESSAGE_NULL;
    comm_p2p_start_mrecv(req, msg);
    return MPI_SUCCESS;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    struct comm_request req;
    int err;

    memset(&req, 0, sizeof(req));
    req.kind = COMM_REQUEST_RECV;
    err = mrecv_start("MPI_Mrecv", buf, count, datatype, message, &req);
    if (err != MPI_SUCCESS) {
        return err;
    }
    comm_progress_until(&req.complete);
    comm_communicator_release(req.comm); /* the message's reference */
    probe_copy(status, &req.status);
    return comm_api_request_error("MPI_Mrecv", &req);
}
COMM_API_ALIAS(MPI_Mrecv);

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    struct comm_request *req;
    int err;

    if (request == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Imrecv: request is NULL");
    }
    req = comm_request_alloc(COMM_REQUEST_RECV);
    if (req == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Imrecv: out of memory");
    }
    err = mrecv_start("MPI_Imrecv", buf, count, datatype, message, req);
    if (err != MPI_SUCCESS) {
        comm_request_free(req);
        return err;
    }
    if (req->dt != NULL) {
        comm_datatype_retain(req->dt);
    }
    *request = (MPI_Request)req;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Imrecv);
