/*
 * api_request.c - completing requests: the Wait and Test families, MPI_Request_free,
 * MPI_Request_get_status and MPI_Cancel.
 *
 * Layer: api.
 *
 * A request that is MPI_REQUEST_NULL, or persistent and inactive, counts as complete with an
 * empty status.  Completing a nonblocking request frees it and sets the handle to
 * MPI_REQUEST_NULL; a persistent one becomes inactive.  Single-completion calls return the
 * operation's error; multiple-completion calls return MPI_ERR_IN_STATUS and set each status's
 * MPI_ERROR (MPI_ERR_PENDING for those not completed).
 */
#include "config.h"

#include "api/api.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

#include <string.h>

/* Whether REQ (possibly NULL) has nothing to wait for. */
static bool request_is_idle(const struct comm_request *req)
{
    return req == NULL || (req->persistent && req->state == COMM_REQUEST_INACTIVE);
}

static void request_copy_status(MPI_Status *status, const struct comm_request *req)
{
    int keep;

    if (status == MPI_STATUS_IGNORE) {
        return;
    }
    keep = status->MPI_ERROR;
    *status = req->status;
    status->MPI_ERROR = keep;
}

static void request_empty_status(MPI_Status *status)
{
    int keep;

    if (status == MPI_STATUS_IGNORE) {
        return;
    }
    keep = status->MPI_ERROR;
    comm_status_set_empty(status);
    status->MPI_ERROR = keep;
}

/* A generalized request seen complete: the user's query_fn gives its status and error, then
 * its free_fn runs (the first failure of the two is the operation's error). */
static void request_generalized_done(struct comm_request *req)
{
    int rc = comm_api_grequest_query(req);
    int free_rc = comm_api_grequest_release(req);

    if (rc == MPI_SUCCESS && free_rc != MPI_SUCCESS) {
        req->error = free_rc;
    }
}

/*
 * Hands a completed request back: copies its status, takes its error, frees it (or makes a
 * persistent one inactive) and clears the handle.  Returns the MPI error code of the
 * operation without raising it.
 */
static int request_release(MPI_Request *handle, MPI_Status *status)
{
    struct comm_request *req = comm_request_lookup(*handle);
    int error;

    request_copy_status(status, req);
    error = req->error;
    if (req->persistent) {
        req->state = COMM_REQUEST_INACTIVE;
    } else {
        comm_api_handle_forget(COMM_API_HANDLE_REQUEST, *handle);
        comm_request_free(req);
        *handle = MPI_REQUEST_NULL;
    }
    return error;
}

/* Collects a completed request: a generalized one's callbacks run first. */
static int request_collect(MPI_Request *handle, MPI_Status *status)
{
    struct comm_request *req = comm_request_lookup(*handle);

    if (req->kind == COMM_REQUEST_GENERALIZED) {
        request_generalized_done(req);
    }
    return request_release(handle, status);
}

/* Raises the error of a completed request before collecting it. */
static int request_finish(const char *func, MPI_Request *handle, MPI_Status *status)
{
    struct comm_request *req = comm_request_lookup(*handle);
    int err = MPI_SUCCESS;

    if (req->kind == COMM_REQUEST_GENERALIZED) {
        request_generalized_done(req); /* its error is known once its callbacks ran */
    }
    if (req->error != MPI_SUCCESS) {
        /* Collect first: the user's handler may not return.  Raise with a copy. */
        struct comm_request copy = *req;
        request_release(handle, status);
        return comm_api_request_error(func, &copy);
    }
    request_release(handle, status);
    return err;
}

static int request_check_array(const char *func, int count, const MPI_Request *array)
{
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (count < 0) {
        return comm_api_error(NULL, MPI_ERR_COUNT, "%s: invalid count %d", func, count);
    }
    if (count > 0 && array == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: array_of_requests is NULL", func);
    }
    return MPI_SUCCESS;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    struct comm_request *req;
    int err = comm_api_check_running("MPI_Wait");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (request == NULL) {
        return comm_api_error(NULL, MPI_ERR_REQUEST, "MPI_Wait: request is NULL");
    }
    req = comm_request_lookup(*request);
    if (request_is_idle(req)) {
        request_empty_status(status);
        return MPI_SUCCESS;
    }
    comm_progress_until(&req->complete);
    return request_finish("MPI_Wait", request, status);
}
COMM_API_ALIAS(MPI_Wait);

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    struct comm_request *req;
    int err = comm_api_check_running("MPI_Test");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (request == NULL || flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Test: %s is NULL",
                              request == NULL ? "request" : "flag");
    }
    req = comm_request_lookup(*request);
    if (request_is_idle(req)) {
        *flag = 1;
        request_empty_status(status);
        return MPI_SUCCESS;
    }
    if (!comm_request_is_complete(req)) {
        comm_progress();
    }
    *flag = comm_request_is_complete(req);
    if (!comm_request_is_complete(req)) {
        return MPI_SUCCESS;
    }
    return request_finish("MPI_Test", request, status);
}
COMM_API_ALIAS(MPI_Test);

/* Completes every request of a completed array, filling statuses; MPI_ERR_IN_STATUS when an
 * operation failed (raised on the first failing request's communicator). */
static int request_collect_all(const char *func, int count, MPI_Request array[],
                               MPI_Status statuses[])
{
    struct comm_request failed;
    bool any_error = false;

    for (int i = 0; i < count; i++) {
        struct comm_request *req = comm_request_lookup(array[i]);
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        int error;

        if (request_is_idle(req)) {
            request_empty_status(st);
            if (st != MPI_STATUS_IGNORE) {
                st->MPI_ERROR = MPI_SUCCESS;
            }
            continue;
        }
        if (req->error != MPI_SUCCESS && !any_error) {
            failed = *req;
            any_error = true;
        }
        error = request_collect(&array[i], st);
        if (st != MPI_STATUS_IGNORE) {
            st->MPI_ERROR = error;
        }
    }
    if (!any_error) {
        return MPI_SUCCESS;
    }
    return comm_api_error(failed.comm, MPI_ERR_IN_STATUS, "%s: an operation failed: %s", func,
                          failed.error == MPI_ERR_TRUNCATE ? "message truncated"
                                                           : "see the statuses");
}

static bool request_all_complete(int count, MPI_Request array[])
{
    for (int i = 0; i < count; i++) {
        struct comm_request *req = comm_request_lookup(array[i]);

        if (!request_is_idle(req) && !comm_request_is_complete(req)) {
            return false;
        }
    }
    return true;
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    int err = request_check_array("MPI_Waitall", count, array_of_requests);

    if (err != MPI_SUCCESS) {
        return err;
    }
    for (int i = 0; i < count; i++) {
        struct comm_request *req = comm_request_lookup(array_of_requests[i]);

        if (!request_is_idle(req)) {
            comm_progress_until(&req->complete);
        }
    }
    return request_collect_all("MPI_Waitall", count, array_of_requests, array_of_statuses);
}
COMM_API_ALIAS(MPI_Waitall);

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
    int err = request_check_array("MPI_Testall", count, array_of_requests);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Testall: flag is NULL");
    }
    if (!request_all_complete(count, array_of_requests)) {
        comm_progress();
    }
    *flag = request_all_complete(count, array_of_requests);
    if (!*flag) {
        return MPI_SUCCESS;
    }
    return request_collect_all("MPI_Testall", count, array_of_requests, array_of_statuses);
}
COMM_API_ALIAS(MPI_Testall);

/* The first completed active request, -1 if none; *all_idle when there is nothing active. */
static int request_find_complete(int count, MPI_Request array[], bool *all_idle)
{
    *all_idle = true;
    for (int i = 0; i < count; i++) {
        struct comm_request *req = comm_request_lookup(array[i]);

        if (request_is_idle(req)) {
            continue;
        }
        *all_idle = false;
        if (comm_request_is_complete(req)) {
            return i;
        }
    }
    return -1;
}

struct request_array {
    int count;
    MPI_Request *array;
};

/* For comm_progress_wait: whether one of the active requests has completed (or none is
 * active). */
static bool request_any_done(void *arg)
{
    const struct request_array *a = arg;
    bool all_idle;

    return request_find_complete(a->count, a->array, &all_idle) >= 0 || all_idle;
}

/* Waits until one request of ARRAY completes, sleeping while another thread progresses. */
static void request_wait_any(int count, MPI_Request array[])
{
    struct request_array a = {.count = count, .array = array};

    comm_progress_wait(request_any_done, &a);
}

static int request_any(const char *func, int count, MPI_Request array[], int *index, int *flag,
                       MPI_Status *status, bool wait)
{
    bool all_idle;
    int i, err = request_check_array(func, count, array);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (index == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: index is NULL", func);
    }
    i = request_find_complete(count, array, &all_idle);
    if (i < 0 && !all_idle) {
        if (wait) {
            request_wait_any(count, array);
        } else {
            comm_progress();
        }
        i = request_find_complete(count, array, &all_idle);
    }
    if (all_idle) {
        *index = MPI_UNDEFINED;
        if (flag != NULL) {
            *flag = 1;
        }
        request_empty_status(status);
        return MPI_SUCCESS;
    }
    if (flag != NULL) {
        *flag = i >= 0;
    }
    if (i < 0) {
        *index = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    *index = i;
    return request_finish(func, &array[i], status);
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    return request_any("MPI_Waitany", count, array_of_requests, index, NULL, status, true);
}
COMM_API_ALIAS(MPI_Waitany);

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status)
{
    if (flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Testany: flag is NULL");
    }
    return request_any("MPI_Testany", count, array_of_requests, index, flag, status, false);
}
COMM_API_ALIAS(MPI_Testany);

static int request_some(const char *func, int incount, MPI_Request array[], int *outcount,
                        int indices[], MPI_Status statuses[], bool wait)
{
    struct comm_request failed;
    bool all_idle, any_error = false;
    int n = 0, err = request_check_array(func, incount, array);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (outcount == NULL || (incount > 0 && indices == NULL)) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                              outcount == NULL ? "outcount" : "array_of_indices");
    }
    if (request_find_complete(incount, array, &all_idle) < 0 && !all_idle) {
        if (wait) {
            request_wait_any(incount, array);
        } else {
            comm_progress();
        }
    }
    request_find_complete(incount, array, &all_idle);
    if (all_idle) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    for (int i = 0; i < incount; i++) {
        struct comm_request *req = comm_request_lookup(array[i]);
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[n];
        int error;

        if (request_is_idle(req) || !comm_request_is_complete(req)) {
            continue;
        }
        if (req->error != MPI_SUCCESS && !any_error) {
            failed = *req;
            any_error = true;
        }
        error = request_collect(&array[i], st);
        if (st != MPI_STATUS_IGNORE) {
            st->MPI_ERROR = error;
        }
        indices[n++] = i;
    }
    *outcount = n;
    if (!any_error) {
        return MPI_SUCCESS;
    }
    return comm_api_error(failed.comm, MPI_ERR_IN_STATUS, "%s: an operation failed", func);
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return request_some("MPI_Waitsome", incount, array_of_requests, outcount, array_of_indices,
                        array_of_statuses, true);
}
COMM_API_ALIAS(MPI_Waitsome);

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return request_some("MPI_Testsome", incount, array_of_requests, outcount, array_of_indices,
                        array_of_statuses, false);
}
COMM_API_ALIAS(MPI_Testsome);

int PMPI_Request_free(MPI_Request *request)
{
    struct comm_request *req;
    int err = comm_api_check_running("MPI_Request_free");

    if (err != MPI_SUCCESS) {
        return err;
    }
    req = request ? comm_request_lookup(*request) : NULL;
    if (req == NULL) {
        return comm_api_error(NULL, MPI_ERR_REQUEST,
                              "MPI_Request_free: the request is "
                              "MPI_REQUEST_NULL");
    }
    comm_request_user_free(req);
    comm_api_handle_forget(COMM_API_HANDLE_REQUEST, *request);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Request_free);

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    struct comm_request *req;
    int err = comm_api_check_running("MPI_Request_get_status");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (flag == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Request_get_status: flag is NULL");
    }
    req = comm_request_lookup(request);
    if (request_is_idle(req)) {
        *flag = 1;
        request_empty_status(status);
        return MPI_SUCCESS;
    }
    if (!comm_request_is_complete(req)) {
        comm_progress();
    }
    *flag = comm_request_is_complete(req);
    if (*flag && req->kind == COMM_REQUEST_GENERALIZED) {
        comm_api_grequest_query(req);
    }
    if (*flag) {
        request_copy_status(status, req);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Request_get_status);

int PMPI_Cancel(MPI_Request *request)
{
    struct comm_request *req;
    int err = comm_api_check_running("MPI_Cancel");

    if (err != MPI_SUCCESS) {
        return err;
    }
    req = request ? comm_request_lookup(*request) : NULL;
    if (req == NULL) {
        return comm_api_error(NULL, MPI_ERR_REQUEST,
                              "MPI_Cancel: the request is "
                              "MPI_REQUEST_NULL");
    }
    if (req->kind == COMM_REQUEST_COLL) {
        return comm_api_error(req->comm, MPI_ERR_REQUEST,
                              "MPI_Cancel: the request is a "
                              "nonblocking collective's, which cannot be cancelled");
    }
    if (req->kind == COMM_REQUEST_GENERALIZED) {
        err = comm_api_grequest_cancel(req);
        if (err != MPI_SUCCESS) {
            return comm_api_error(NULL, err,
                                  "MPI_Cancel: the cancel function of the "
                                  "generalized request failed with %d",
                                  err);
        }
        return MPI_SUCCESS;
    }
    if (!request_is_idle(req)) {
        comm_p2p_cancel(req);
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Cancel);
