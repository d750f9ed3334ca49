/*
 * api_coll_post.h - what the collective entry points share: one call that runs a collective's
 * schedule in the form the user asked for (blocking, nonblocking or persistent), and the
 * argument checks every form makes the same way.
 *
 * Layer: api (calls coll/).
 *
 * A collective's entry points (MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init) share one
 * function that checks the arguments as the blocking call does and fills a struct
 * comm_coll_args; then comm_api_coll_post runs the operation's builder (coll/nbc/nbc.h) in
 * the requested form.  A new persistent collective (MPI_Neighbor_allgather_init, say) is its
 * nonblocking twin with COMM_API_COLL_PERSISTENT and the info argument: the builder, the copy
 * of the arguments (struct comm_coll_args, whose NSEND and NRECV say how long its arrays are)
 * and the restarts are shared.
 */
#ifndef COMM_API_COLL_POST_H
#define COMM_API_COLL_POST_H

#include "coll/nbc/nbc.h"
#include "api/api.h"

enum comm_api_coll_form {
    COMM_API_COLL_BLOCKING,    /* runs to completion (the intercommunicator calls use it) */
    COMM_API_COLL_NONBLOCKING, /* a request that completes the operation once */
    COMM_API_COLL_PERSISTENT,  /* an inactive request, started by MPI_Start(all) */
};

/*
 * Runs BUILD over A (checked) on C in FORM; REQUEST receives the request of the nonblocking
 * and persistent forms (checked not NULL here).  INFO is the persistent form's (checked here:
 * MPI_INFO_NULL or a valid info; its keys are ignored).  Raises errors on C naming FUNC.
 */
int comm_api_coll_post(const char *func, struct comm_communicator *c, comm_coll_build_fn build,
                       const struct comm_coll_args *a, enum comm_api_coll_form form, MPI_Info info,
                       MPI_Request *request);

/* Checks the root of a rooted collective: a rank of C, or on an intercommunicator MPI_ROOT,
 * MPI_PROC_NULL or a rank of the remote group.  MPI_ERR_ROOT, raised, when it is none. */
int comm_api_check_root(const char *func, struct comm_communicator *c, int root);

/* Refuses MPI_IN_PLACE on an intercommunicator (MPI_ERR_BUFFER, raised). */
int comm_api_check_inter_in_place(const char *func, struct comm_communicator *c, bool in_place);

/* The MPI_Start of a persistent collective (api/api_p2p.c calls it for collective
 * requests). */
int comm_api_coll_start(struct comm_request *req);

#endif
