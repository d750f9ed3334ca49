/*
 * api_coll_post.c - the collectives' forms (see api_coll_post.h): blocking through a schedule,
 * nonblocking, persistent, and the start of a persistent collective; the start of any
 * schedule as a request (MPI_Comm_idup's too).
 *
 * Layer: api (calls coll/).
 */
#include "config.h"

#include "api/api_coll_post.h"
#include "coll/coll_persist.h"
#include "runtime/info.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

int comm_api_check_root(const char *func, struct comm_communicator *c, int root)
{
    if (c->inter && (root == MPI_ROOT || root == MPI_PROC_NULL)) {
        return MPI_SUCCESS;
    }
    if (c->inter && (root < 0 || root >= c->remote_size)) {
        return comm_api_error(c, MPI_ERR_ROOT,
                              "%s: invalid root %d on an intercommunicator whose remote group "
                              "has %d ranks (expected one of them, MPI_ROOT or MPI_PROC_NULL)",
                              func, root, c->remote_size);
    }
    if (!c->inter && (root < 0 || root >= c->size)) {
        return comm_api_error(c, MPI_ERR_ROOT, "%s: invalid root %d in a communicator of size %d",
                              func, root, c->size);
    }
    return MPI_SUCCESS;
}

static int coll_check_info(const char *func, struct comm_communicator *c, MPI_Info info)
{
    if (info != MPI_INFO_NULL && comm_info_lookup(info) == NULL) {
        return comm_api_error(c, MPI_ERR_INFO, "%s: invalid info", func);
    }
    return MPI_SUCCESS;
}

int comm_api_check_inter_in_place(const char *func, struct comm_communicator *c, bool in_place)
{
    if (in_place && c->inter) {
        return comm_api_error(c, MPI_ERR_BUFFER,
                              "%s: MPI_IN_PLACE is not allowed on an intercommunicator", func);
    }
    return MPI_SUCCESS;
}

int comm_api_check_request_out(const char *func, struct comm_communicator *comm,
                               MPI_Request *request)
{
    if (request == NULL) {
        return comm_api_error(comm, MPI_ERR_ARG, "%s: request is NULL", func);
    }
    return MPI_SUCCESS;
}

int comm_api_start_schedule(const char *func, struct comm_communicator *comm,
                            struct comm_coll_sched *s, int build_err, MPI_Request *request)
{
    struct comm_request *req;
    int err = build_err;

    if (s == NULL) {
        return comm_api_error(comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    req = err == MPI_SUCCESS ? comm_request_alloc(COMM_REQUEST_COLL) : NULL;
    if (req == NULL) {
        comm_coll_sched_free(s);
        return comm_api_error(comm, err != MPI_SUCCESS ? err : MPI_ERR_NO_MEM,
                              "%s: cannot build the schedule", func);
    }
    err = comm_coll_sched_start(s, req);
    if (err != MPI_SUCCESS) {
        comm_request_free(req);
        return comm_api_error(comm, err, "%s: cannot start the schedule", func);
    }
    *request = (MPI_Request)req;
    return MPI_SUCCESS;
}

int comm_api_coll_post(const char *func, struct comm_communicator *c, comm_coll_build_fn build,
                       const struct comm_coll_args *a, enum comm_api_coll_form form, MPI_Info info,
                       MPI_Request *request)
{
    struct comm_coll_sched *s;
    struct comm_request *req;
    MPI_Request mine;
    int err;

    if (form != COMM_API_COLL_BLOCKING && request == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: request is NULL", func);
    }
    if (form == COMM_API_COLL_PERSISTENT) {
        err = coll_check_info(func, c, info);
        if (err != MPI_SUCCESS) {
            return err;
        }
        req = comm_request_alloc(COMM_REQUEST_COLL);
        err = req == NULL ? MPI_ERR_NO_MEM : comm_coll_persist_init(req, c, build, a);
        if (err != MPI_SUCCESS) {
            if (req != NULL) {
                comm_request_free(req);
            }
            return comm_api_error(c, err, "%s: out of memory", func);
        }
        *request = (MPI_Request)req;
        return MPI_SUCCESS;
    }
    /* Nonblocking: the request goes to the user.  Blocking: to us, who wait for it. */
    s = comm_coll_sched_new(c);
    err = comm_api_start_schedule(func, c, s, s != NULL ? build(s, a) : MPI_SUCCESS,
                                  form == COMM_API_COLL_NONBLOCKING ? request : &mine);
    if (err != MPI_SUCCESS || form == COMM_API_COLL_NONBLOCKING) {
        return err;
    }
    req = comm_request_lookup(mine);
    comm_progress_until(&req->complete);
    err = req->error;
    comm_request_free(req);
    if (err != MPI_SUCCESS) {
        return comm_api_error(c, err, "%s: the operation failed (see above)", func);
    }
    return MPI_SUCCESS;
}

int comm_api_coll_start(struct comm_request *req)
{
    int err;

    if (req->state != COMM_REQUEST_INACTIVE) {
        return comm_api_error(req->comm, MPI_ERR_REQUEST,
                              "MPI_Start: the persistent collective is active (started and "
                              "not yet completed by a wait or test)");
    }
    err = comm_coll_persist_start(req);
    if (err != MPI_SUCCESS) {
        return comm_api_error(req->comm, err, "MPI_Start: cannot start the persistent collective");
    }
    return MPI_SUCCESS;
}
