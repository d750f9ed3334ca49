/*
 * api_p2p.c - the point-to-point entry points: sends and receives in every mode, blocking,
 * nonblocking and persistent.
 *
 * Layer: api.  Checks arguments, builds the request, and hands it to runtime/p2p/p2p.c.
 * Blocking calls keep their request on the stack: no allocation on the latency path.
 */
#include "config.h"

#include "api/api.h"
#include "api/api_coll_post.h"
#include "runtime/p2p/bsend.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

#include <stdlib.h>
#include <string.h>

/* What a call asked for, checked. */
struct api_op {
    const char *func;
    enum comm_request_kind kind;
    enum comm_send_mode mode;
    struct comm_communicator *comm;
    struct comm_datatype *dt;
    void *buf;
    int count;
    int peer;
    int tag;
};

static int api_check(struct api_op *op, const void *buf, int count, MPI_Datatype datatype,
                     int peer, int tag, MPI_Comm comm)
{
    int err = comm_api_enter_comm(op->func, comm, &op->comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_api_check_p2p(op->func, op->comm, buf, count, datatype, peer, tag,
                             op->kind == COMM_REQUEST_RECV, &op->dt);
    if (err != MPI_SUCCESS) {
        return err;
    }
    op->buf = (void *)(uintptr_t)buf;
    op->count = count;
    op->peer = peer;
    op->tag = tag;
    return MPI_SUCCESS;
}

static void api_fill(struct comm_request *req, const struct api_op *op)
{
    req->comm = op->comm;
    req->dt = op->dt;
    req->buf = op->buf;
    req->count = op->count;
    req->peer = op->peer;
    req->tag = op->tag;
    req->mode = op->mode;
}

/* A request that is complete at once: MPI_PROC_NULL, or a buffered send already copied. */
static void api_complete_null(struct comm_request *req, bool proc_null)
{
    comm_status_set_empty(&req->status);
    if (proc_null) {
        req->status.MPI_SOURCE = MPI_PROC_NULL;
    }
    req->complete = true;
    req->state = COMM_REQUEST_DONE;
    req->error = MPI_SUCCESS;
}

/* Packs a buffered send into the attached buffer and starts it from there. */
static int api_start_bsend(const struct api_op *op)
{
    struct comm_request *req;
    size_t len = (size_t)op->count * (size_t)op->dt->size, free_bytes;
    void *block;

    if (comm_bsend_alloc(len, &block, &free_bytes) < 0) {
        if (!comm_bsend_is_attached()) {
            return comm_api_error(op->comm, MPI_ERR_BUFFER, "%s: no buffer attached "
                                  "(MPI_Buffer_attach)", op->func);
        }
        return comm_api_error(op->comm, MPI_ERR_BUFFER, "%s: the attached buffer has %zu bytes "
                              "free, the message needs %zu plus MPI_BSEND_OVERHEAD", op->func,
                              free_bytes, len);
    }
    req = comm_request_alloc(COMM_REQUEST_SEND);
    if (req == NULL) {
        comm_bsend_release(block);
        return comm_api_error(op->comm, MPI_ERR_NO_MEM, "%s: out of memory", op->func);
    }
    comm_datatype_pack(op->dt, op->buf, op->count, 0, block, len);
    req->comm = op->comm;
    comm_communicator_retain(req->comm);
    req->dt = comm_datatype_lookup(MPI_BYTE);
    req->buf = block;
    req->count = (MPI_Count)len;
    req->peer = op->peer;
    req->tag = op->tag;
    req->mode = COMM_SEND_STANDARD;
    req->bsend_block = block;
    req->user_freed = true; /* nobody waits for it: it frees itself when done */
    if (comm_p2p_start_send(req) < 0) {
        return comm_api_error(op->comm, MPI_ERR_OTHER, "%s: cannot start the send", op->func);
    }
    return MPI_SUCCESS;
}

/* Starts REQ (filled from its op); completes MPI_PROC_NULL at once. */
static int api_start(struct comm_request *req)
{
    int rc;

    if (req->peer == MPI_PROC_NULL) {
        api_complete_null(req, true);
        return COMM_OK;
    }
    rc = req->kind == COMM_REQUEST_SEND ? comm_p2p_start_send(req) : comm_p2p_start_recv(req);
    return rc;
}

/* A blocking send or receive, with its request on the stack. */
static int api_blocking(struct api_op *op, MPI_Status *status)
{
    struct comm_request req;
    int err;

    if (op->mode == COMM_SEND_BUFFERED && op->peer != MPI_PROC_NULL) {
        return api_start_bsend(op);
    }
    memset(&req, 0, sizeof(req));
    req.kind = op->kind;
    api_fill(&req, op);
    if (api_start(&req) < 0) {
        return comm_api_error(op->comm, MPI_ERR_OTHER, "%s: cannot start", op->func);
    }
    comm_progress_until(&req.complete);
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = req.status;
        status->MPI_ERROR = keep;
    }
    err = comm_api_request_error(op->func, &req);
    return err;
}

/* A nonblocking or persistent call: a request on the heap, returned to the user. */
static int api_nonblocking(struct api_op *op, bool persistent, MPI_Request *request)
{
    struct comm_request *req;

    if (request == NULL) {
        return comm_api_error(op->comm, MPI_ERR_ARG, "%s: request is NULL", op->func);
    }
    req = comm_request_alloc(op->kind);
    if (req == NULL) {
        return comm_api_error(op->comm, MPI_ERR_NO_MEM, "%s: out of memory", op->func);
    }
    api_fill(req, op);
    comm_datatype_retain(req->dt);
    comm_communicator_retain(req->comm);
    req->persistent = persistent;
    if (persistent) {
        req->state = COMM_REQUEST_INACTIVE;
        comm_status_set_empty(&req->status);
        *request = (MPI_Request)req;
        return MPI_SUCCESS;
    }
    if (op->mode == COMM_SEND_BUFFERED && op->peer != MPI_PROC_NULL) {
        int err = api_start_bsend(op);

        if (err != MPI_SUCCESS) {
            comm_request_free(req);
            return err;
        }
        api_complete_null(req, false);
        *request = (MPI_Request)req;
        return MPI_SUCCESS;
    }
    if (api_start(req) < 0) {
        comm_request_free(req);
        return comm_api_error(op->comm, MPI_ERR_OTHER, "%s: cannot start", op->func);
    }
    *request = (MPI_Request)req;
    return MPI_SUCCESS;
}

static int api_send(const char *func, enum comm_send_mode mode, const void *buf, int count,
                    MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct api_op op = {.func = func, .kind = COMM_REQUEST_SEND, .mode = mode};
    int err = api_check(&op, buf, count, datatype, dest, tag, comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return api_blocking(&op, MPI_STATUS_IGNORE);
}

static int api_isend(const char *func, enum comm_send_mode mode, const void *buf, int count,
                     MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, bool persistent,
                     MPI_Request *request)
{
    struct api_op op = {.func = func, .kind = COMM_REQUEST_SEND, .mode = mode};
    int err = api_check(&op, buf, count, datatype, dest, tag, comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return api_nonblocking(&op, persistent, request);
}

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return api_send("MPI_Send", COMM_SEND_STANDARD, buf, count, datatype, dest, tag, comm);
}
COMM_API_ALIAS(MPI_Send);

int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    return api_send("MPI_Ssend", COMM_SEND_SYNC, buf, count, datatype, dest, tag, comm);
}
COMM_API_ALIAS(MPI_Ssend);

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    return api_send("MPI_Rsend", COMM_SEND_READY, buf, count, datatype, dest, tag, comm);
}
COMM_API_ALIAS(MPI_Rsend);

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    return api_send("MPI_Bsend", COMM_SEND_BUFFERED, buf, count, datatype, dest, tag, comm);
}
COMM_API_ALIAS(MPI_Bsend);

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return api_isend("MPI_Isend", COMM_SEND_STANDARD, buf, count, datatype, dest, tag, comm,
                     false, request);
}
COMM_API_ALIAS(MPI_Isend);

int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    return api_isend("MPI_Issend", COMM_SEND_SYNC, buf, count, datatype, dest, tag, comm, false,
                     request);
}
COMM_API_ALIAS(MPI_Issend);

int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    return api_isend("MPI_Irsend", COMM_SEND_READY, buf, count, datatype, dest, tag, comm, false,
                     request);
}
COMM_API_ALIAS(MPI_Irsend);

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    return api_isend("MPI_Ibsend", COMM_SEND_BUFFERED, buf, count, datatype, dest, tag, comm,
                     false, request);
}
COMM_API_ALIAS(MPI_Ibsend);

int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return api_isend("MPI_Send_init", COMM_SEND_STANDARD, buf, count, datatype, dest, tag, comm,
                     true, request);
}
COMM_API_ALIAS(MPI_Send_init);

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return api_isend("MPI_Ssend_init", COMM_SEND_SYNC, buf, count, datatype, dest, tag, comm,
                     true, request);
}
COMM_API_ALIAS(MPI_Ssend_init);

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return api_isend("MPI_Rsend_init", COMM_SEND_READY, buf, count, datatype, dest, tag, comm,
                     true, request);
}
COMM_API_ALIAS(MPI_Rsend_init);

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    return api_isend("MPI_Bsend_init", COMM_SEND_BUFFERED, buf, count, datatype, dest, tag,
                     comm, true, request);
}
COMM_API_ALIAS(MPI_Bsend_init);

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    struct api_op op = {.func = "MPI_Recv", .kind = COMM_REQUEST_RECV};
    int err = api_check(&op, buf, count, datatype, source, tag, comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return api_blocking(&op, status);
}
COMM_API_ALIAS(MPI_Recv);

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    struct api_op op = {.func = "MPI_Irecv", .kind = COMM_REQUEST_RECV};
    int err = api_check(&op, buf, count, datatype, source, tag, comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return api_nonblocking(&op, false, request);
}
COMM_API_ALIAS(MPI_Irecv);

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    struct api_op op = {.func = "MPI_Recv_init", .kind = COMM_REQUEST_RECV};
    int err = api_check(&op, buf, count, datatype, source, tag, comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return api_nonblocking(&op, true, request);
}
COMM_API_ALIAS(MPI_Recv_init);

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct api_op sop = {.func = "MPI_Sendrecv", .kind = COMM_REQUEST_SEND};
    struct api_op rop = {.func = "MPI_Sendrecv", .kind = COMM_REQUEST_RECV};
    struct comm_request sreq, rreq;
    int err = api_check(&sop, sendbuf, sendcount, sendtype, dest, sendtag, comm);

    if (err == MPI_SUCCESS) {
        err = api_check(&rop, recvbuf, recvcount, recvtype, source, recvtag, comm);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    memset(&sreq, 0, sizeof(sreq));
    memset(&rreq, 0, sizeof(rreq));
    sreq.kind = COMM_REQUEST_SEND;
    rreq.kind = COMM_REQUEST_RECV;
    api_fill(&rreq, &rop);
    api_fill(&sreq, &sop);
    /* The receive first, so a message from a peer doing the same finds it posted. */
    if (api_start(&rreq) < 0 || api_start(&sreq) < 0) {
        return comm_api_error(rop.comm, MPI_ERR_OTHER, "MPI_Sendrecv: cannot start");
    }
    comm_progress_until(&sreq.complete);
    comm_progress_until(&rreq.complete);
    if (status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = rreq.status;
        status->MPI_ERROR = keep;
    }
    err = comm_api_request_error("MPI_Sendrecv", &sreq);
    if (err == MPI_SUCCESS) {
        err = comm_api_request_error("MPI_Sendrecv", &rreq);
    }
    return err;
}
COMM_API_ALIAS(MPI_Sendrecv);

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct api_op op = {.func = "MPI_Sendrecv_replace", .kind = COMM_REQUEST_SEND};
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    size_t len;
    void *copy;
    int err = api_check(&op, buf, count, datatype, dest, sendtag, comm);

    if (err == MPI_SUCCESS) {
        struct api_op rop = {.func = op.func, .kind = COMM_REQUEST_RECV};
        err = api_check(&rop, buf, count, datatype, source, recvtag, comm);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    /* Send a packed copy, receive in place. */
    len = (size_t)count * (size_t)op.dt->size;
    copy = malloc(len ? len : 1);
    if (copy == NULL) {
        return comm_api_error(op.comm, MPI_ERR_NO_MEM, "MPI_Sendrecv_replace: out of memory "
                              "for %zu bytes", len);
    }
    comm_datatype_pack(op.dt, buf, count, 0, copy, len);
    err = PMPI_Sendrecv(copy, (int)len, byte->handle, dest, sendtag, buf, count, datatype,
                        source, recvtag, comm, status);
    free(copy);
    return err;
}
COMM_API_ALIAS(MPI_Sendrecv_replace);

int PMPI_Start(MPI_Request *request)
{
    struct comm_request *req;
    int err = comm_api_check_running("MPI_Start");

    if (err != MPI_SUCCESS) {
        return err;
    }
    req = request ? comm_request_lookup(*request) : NULL;
    if (req == NULL || !req->persistent) {
        return comm_api_error(NULL, MPI_ERR_REQUEST, "MPI_Start: not a persistent request");
    }
    if (req->kind == COMM_REQUEST_COLL) {
        return comm_api_coll_start(req);
    }
    if (req->state != COMM_REQUEST_INACTIVE && !req->complete) {
        return comm_api_error(req->comm, MPI_ERR_REQUEST, "MPI_Start: the request is active");
    }
    req->complete = false;
    if (req->kind == COMM_REQUEST_SEND && req->mode == COMM_SEND_BUFFERED &&
        req->peer != MPI_PROC_NULL) {
        struct api_op op = {.func = "MPI_Start",
                            .comm = req->comm,
                            .dt = req->dt,
                            .buf = req->buf,
                            .count = (int)req->count,
                            .peer = req->peer,
                            .tag = req->tag};
        err = api_start_bsend(&op);
        if (err != MPI_SUCCESS) {
            return err;
        }
        api_complete_null(req, false);
        return MPI_SUCCESS;
    }
    if (api_start(req) < 0) {
        return comm_api_error(req->comm, MPI_ERR_OTHER, "MPI_Start: cannot start");
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Start);

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    if (count < 0) {
        return comm_api_error(NULL, MPI_ERR_COUNT, "MPI_Startall: invalid count %d", count);
    }
    for (int i = 0; i < count; i++) {
        int err = PMPI_Start(&array_of_requests[i]);

        if (err != MPI_SUCCESS) {
            return err;
        }
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Startall);
