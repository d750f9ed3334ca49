/*
 * api_grequest.c - generalized requests: MPI_Grequest_start and MPI_Grequest_complete, and the
 * callbacks the completion calls run on them.
 *
 * Layer: api.  Must not: touch the request engine's protocol state (it only borrows
 * the engine's completion, comm_request_complete).
 *
 * The request is an ordinary request of kind COMM_REQUEST_GENERALIZED whose completion the
 * user signals; its callbacks live beside it (req->coll, freed by req->coll_free) and are
 * called as MPI-3.1 section 12.2 says:
 * - query_fn when MPI_Wait/Test and friends (or MPI_Request_get_status) see it complete, to
 *   fill the status; its return value is the operation's error;
 * - free_fn once, when the request is collected by a completion call, or at
 *   MPI_Grequest_complete if MPI_Request_free came first; its error is returned by the call
 *   that freed it (a completion call reports it unless the query failed first);
 * - cancel_fn at MPI_Cancel, with whether MPI_Grequest_complete was already called.
 * Threads: as the rest of the request API.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/p2p/request.h"

#include <stdlib.h>

struct grequest {
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
    bool freed; /* free_fn has run */
};

/* Runs free_fn once; returns its error code. */
static int grequest_run_free(struct grequest *g)
{
    if (g->freed) {
        return MPI_SUCCESS;
    }
    g->freed = true;
    return g->free_fn(g->extra_state);
}

/* req->coll_free of a generalized request: freed by the engine after MPI_Request_free. */
static void grequest_free(void *state)
{
    struct grequest *g = state;

    grequest_run_free(g);
    free(g);
}

int comm_api_grequest_query(struct comm_request *req)
{
    struct grequest *g = req->coll;
    int rc;

    comm_status_set_empty(&req->status);
    rc = g->query_fn(g->extra_state, &req->status);
    req->error = rc;
    return rc;
}

int comm_api_grequest_release(struct comm_request *req)
{
    return grequest_run_free(req->coll);
}

int comm_api_grequest_cancel(struct comm_request *req)
{
    struct grequest *g = req->coll;

    return g->cancel_fn(g->extra_state, comm_request_is_complete(req) ? 1 : 0);
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    struct comm_request *req;
    struct grequest *g;
    int err = comm_api_check_running("MPI_Grequest_start");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (query_fn == NULL || free_fn == NULL || cancel_fn == NULL || request == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Grequest_start: %s is NULL",
                              request == NULL    ? "request"
                              : query_fn == NULL ? "query_fn"
                              : free_fn == NULL  ? "free_fn"
                                                 : "cancel_fn");
    }
    g = malloc(sizeof(*g));
    req = g != NULL ? comm_request_alloc(COMM_REQUEST_GENERALIZED) : NULL;
    if (req == NULL) {
        free(g);
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Grequest_start: out of memory");
    }
    *g = (struct grequest){.query_fn = query_fn,
                           .free_fn = free_fn,
                           .cancel_fn = cancel_fn,
                           .extra_state = extra_state};
    req->coll = g;
    req->coll_free = grequest_free;
    req->state = COMM_REQUEST_QUEUED;
    req->comm = NULL; /* errors of its completion go to MPI_COMM_WORLD's handler */
    *request = (MPI_Request)req;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Grequest_start);

int PMPI_Grequest_complete(MPI_Request request)
{
    struct comm_request *req = comm_request_lookup(request);
    int err = comm_api_check_running("MPI_Grequest_complete");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (req == NULL || req->kind != COMM_REQUEST_GENERALIZED) {
        return comm_api_error(NULL, MPI_ERR_REQUEST, "MPI_Grequest_complete: the request is %s",
                              req == NULL ? "MPI_REQUEST_NULL"
                                          : "not a generalized request (MPI_Grequest_start)");
    }
    if (comm_request_is_complete(req)) {
        return comm_api_error(NULL, MPI_ERR_REQUEST,
                              "MPI_Grequest_complete: the request was already completed");
    }
    /* With MPI_Request_free done before, this frees it (free_fn runs). */
    comm_request_complete(req, MPI_SUCCESS);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Grequest_complete);
