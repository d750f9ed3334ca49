/*
 * coll_persist.h - persistent collectives (MPI_Bcast_init and the rest, MPI 4.0): a request
 * that keeps a collective's arguments and runs a new schedule at every MPI_Start.
 *
 * Layer: coll.  Must not: check MPI arguments (the API does, at the _init call).
 *
 * Any operation with a builder (coll/nbc/nbc.h: a comm_coll_build_fn and its struct
 * comm_coll_args) is persistent with no code of its own: the _init call checks its arguments
 * as the blocking call does, fills the arguments, and calls comm_coll_persist_init.  The tag
 * is taken at the _init call (which every member makes in the same order as its other
 * collectives) and serves every start; one start cannot overlap the next, since a request is
 * restarted only once inactive.
 *
 * Ownership: the request owns what comm_coll_persist_init keeps (copies of the count,
 * displacement and type arrays; references to the datatypes and the operation) and the last
 * schedule; comm_request_free releases them.  The buffers stay the user's.
 * Threads: under the progress lock.
 */
#ifndef COMM_COLL_PERSIST_H
#define COMM_COLL_PERSIST_H

#include "coll/nbc/nbc.h"

struct comm_request;

/* Makes REQ (a new COMM_REQUEST_COLL request) an inactive persistent collective on COMM that
 * runs BUILD over a copy of A.  MPI_SUCCESS or MPI_ERR_NO_MEM (REQ is then untouched). */
int comm_coll_persist_init(struct comm_request *req, struct comm_communicator *comm,
                           comm_coll_build_fn build, const struct comm_coll_args *a);

/* Starts inactive persistent collective REQ.  MPI_SUCCESS or an error code (REQ stays
 * inactive). */
int comm_coll_persist_start(struct comm_request *req);

#endif
