/*
 * coll.c - the collective entry points: argument checks, MPI_IN_PLACE, and the call to the
 * algorithm the selector picks.
 *
 * Layer: runtime API (calls coll/).
 */
#include "config.h"

#include "coll/coll.h"
#include "coll/nbc/nbc.h"
#include "coll/inter/inter.h"
#include "runtime/api/api.h"
#include "runtime/datatype.h"
#include "runtime/op.h"
#include "runtime/request.h"

#include <stdlib.h>

static int coll_check_root(const char *func, struct comm_communicator *comm, int root)
{
    if (root < 0 || root >= comm->size) {
        return comm_api_error(comm, MPI_ERR_ROOT,
                              "%s: invalid root %d in a communicator of "
                              "size %d",
                              func, root, comm->size);
    }
    return MPI_SUCCESS;
}

static int coll_check_op(const char *func, struct comm_communicator *comm, MPI_Op handle,
                         const struct comm_datatype *dt, struct comm_op **op_out)
{
    struct comm_op *op = comm_op_lookup(handle);

    if (op == NULL) {
        return comm_api_error(comm, MPI_ERR_OP, "%s: invalid operation%s", func,
                              handle == MPI_OP_NULL ? " MPI_OP_NULL" : "");
    }
    if (!comm_op_accepts(op, dt)) {
        return comm_api_error(comm, MPI_ERR_OP, "%s: %s is not defined on %s", func,
                              comm_op_name(op), dt->name[0] ? dt->name : "this datatype");
    }
    *op_out = op;
    return MPI_SUCCESS;
}

/* Refuses an intercommunicator where only intracommunicators are served. */
static int coll_check_intra(const char *func, struct comm_communicator *comm)
{
    if (comm->inter) {
        return comm_api_error(comm, MPI_ERR_COMM, "%s: not available on an intercommunicator",
                              func);
    }
    return MPI_SUCCESS;
}

static int coll_result(const char *func, struct comm_communicator *comm, int err)
{
    if (err == MPI_SUCCESS) {
        return MPI_SUCCESS;
    }
    return comm_api_error(comm, err, "%s: the operation failed (see above)", func);
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

int PMPI_Barrier(MPI_Comm comm)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Barrier", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (c->inter) {
        return coll_result("MPI_Barrier", c, comm_coll_inter_barrier(c));
    }
    a = comm_coll_select(COMM_COLL_BARRIER, &(struct comm_coll_call){.comm = c});
    return coll_result("MPI_Barrier", c, a->fn.barrier(c));
}
COMM_API_ALIAS(MPI_Barrier);

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_coll_sched *s;
    int err = comm_api_enter_intracomm("MPI_Ibarrier", comm, &c);

    if (err == MPI_SUCCESS) {
        err = comm_api_check_request_out("MPI_Ibarrier", c, request);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    s = comm_coll_sched_new(c);
    return comm_api_start_schedule("MPI_Ibarrier", c, s, s ? comm_coll_ibarrier(s) : 0, request);
}
COMM_API_ALIAS(MPI_Ibarrier);

/* Checks of MPI_Bcast and MPI_Ibcast.  On an intercommunicator ROOT is MPI_ROOT (the root),
 * MPI_PROC_NULL (the root's group) or a rank of the remote group. */
static int bcast_args(const char *func, MPI_Comm comm, void *buffer, int count,
                      MPI_Datatype datatype, int root, struct comm_communicator **c_out,
                      struct comm_datatype **dt_out)
{
    int err = comm_api_enter_comm(func, comm, c_out);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if ((*c_out)->inter && (root == MPI_ROOT || root == MPI_PROC_NULL)) {
        err = MPI_SUCCESS;
    } else if ((*c_out)->inter && (root < 0 || root >= (*c_out)->remote_size)) {
        return comm_api_error(*c_out, MPI_ERR_ROOT,
                              "%s: invalid root %d on an intercommunicator whose remote group "
                              "has %d ranks (expected one of them, MPI_ROOT or MPI_PROC_NULL)",
                              func, root, (*c_out)->remote_size);
    } else if (!(*c_out)->inter) {
        err = coll_check_root(func, *c_out, root);
    }
    if (err == MPI_SUCCESS) {
        err = comm_api_check_data(func, *c_out, buffer, count, datatype, dt_out);
    }
    return err;
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c;
    struct comm_datatype *dt;
    int err = bcast_args("MPI_Bcast", comm, buffer, count, datatype, root, &c, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (c->inter) {
        return coll_result("MPI_Bcast", c, comm_coll_inter_bcast(buffer, count, dt, root, c));
    }
    if (count == 0 || c->size == 1) {
        return MPI_SUCCESS;
    }
    a = comm_coll_select(COMM_COLL_BCAST,
                         &(struct comm_coll_call){.comm = c,
                                                  .bytes = (size_t)count * (size_t)dt->size,
                                                  .uniform = true});
    return coll_result("MPI_Bcast", c, a->fn.bcast(buffer, count, dt, root, c));
}
COMM_API_ALIAS(MPI_Bcast);

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_coll_sched *s;
    int err = bcast_args("MPI_Ibcast", comm, buffer, count, datatype, root, &c, &dt);

    if (err == MPI_SUCCESS) {
        err = coll_check_intra("MPI_Ibcast", c);
    }
    if (err == MPI_SUCCESS) {
        err = comm_api_check_request_out("MPI_Ibcast", c, request);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    s = comm_coll_sched_new(c);
    return comm_api_start_schedule("MPI_Ibcast", c, s,
                                   s ? comm_coll_ibcast(s, buffer, count, dt, root) : 0, request);
}
COMM_API_ALIAS(MPI_Ibcast);

/* Checks of MPI_Reduce and MPI_Ireduce. */
static int reduce_args(const char *func, MPI_Comm comm, const void *sendbuf, void *recvbuf,
                       int count, MPI_Datatype datatype, MPI_Op op, int root,
                       struct comm_communicator **c_out, struct comm_datatype **dt_out,
                       struct comm_op **op_out)
{
    struct comm_communicator *c;
    int err = comm_api_enter_intracomm(func, comm, c_out);

    if (err != MPI_SUCCESS) {
        return err;
    }
    c = *c_out;
    err = coll_check_root(func, c, root);
    if (err == MPI_SUCCESS && sendbuf == MPI_IN_PLACE && c->rank != root) {
        err =
            comm_api_error(c, MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is only allowed at the root", func);
    }
    if (err == MPI_SUCCESS) {
        err = comm_api_check_data(func, c, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count,
                                  datatype, dt_out);
    }
    if (err == MPI_SUCCESS && c->rank == root) {
        err = comm_api_check_data(func, c, recvbuf, count, datatype, dt_out);
    }
    if (err == MPI_SUCCESS) {
        err = coll_check_op(func, c, op, *dt_out, op_out);
    }
    return err;
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_op *o;
    int err =
        reduce_args("MPI_Reduce", comm, sendbuf, recvbuf, count, datatype, op, root, &c, &dt, &o);

    if (err != MPI_SUCCESS || count == 0) {
        return err;
    }
    a = comm_coll_select(
        COMM_COLL_REDUCE,
        &(struct comm_coll_call){
            .comm = c, .bytes = (size_t)count * (size_t)dt->size, .op = o, .uniform = true});
    return coll_result(
        "MPI_Reduce", c,
        a->fn.reduce(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count, dt, o, root, c));
}
COMM_API_ALIAS(MPI_Reduce);

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_coll_sched *s;
    struct comm_op *o;
    int err =
        reduce_args("MPI_Ireduce", comm, sendbuf, recvbuf, count, datatype, op, root, &c, &dt, &o);

    if (err == MPI_SUCCESS) {
        err = comm_api_check_request_out("MPI_Ireduce", c, request);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    s = comm_coll_sched_new(c);
    if (s != NULL && count > 0) {
        err = comm_coll_ireduce(s, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count, dt,
                                o, root);
    }
    return comm_api_start_schedule("MPI_Ireduce", c, s, err, request);
}
COMM_API_ALIAS(MPI_Ireduce);

/* Checks of MPI_Allreduce and MPI_Iallreduce. */
static int allreduce_args(const char *func, MPI_Comm comm, const void *sendbuf, void *recvbuf,
                          int count, MPI_Datatype datatype, MPI_Op op,
                          struct comm_communicator **c_out, struct comm_datatype **dt_out,
                          struct comm_op **op_out)
{
    int err = comm_api_enter_comm(func, comm, c_out);

    if (err == MPI_SUCCESS) {
        err = comm_api_check_data(func, *c_out, recvbuf, count, datatype, dt_out);
    }
    if (err == MPI_SUCCESS && sendbuf == MPI_IN_PLACE && (*c_out)->inter) {
        err = comm_api_error(*c_out, MPI_ERR_BUFFER,
                             "%s: MPI_IN_PLACE is not allowed on an intercommunicator", func);
    }
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE) {
        err = comm_api_check_data(func, *c_out, sendbuf, count, datatype, dt_out);
    }
    if (err == MPI_SUCCESS) {
        err = coll_check_op(func, *c_out, op, *dt_out, op_out);
    }
    return err;
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_op *o;
    int err =
        allreduce_args("MPI_Allreduce", comm, sendbuf, recvbuf, count, datatype, op, &c, &dt, &o);

    if (err != MPI_SUCCESS || count == 0) {
        return err;
    }
    if (c->inter) {
        return coll_result("MPI_Allreduce", c,
                           comm_coll_inter_allreduce(sendbuf, recvbuf, count, dt, o, c));
    }
    a = comm_coll_select(
        COMM_COLL_ALLREDUCE,
        &(struct comm_coll_call){
            .comm = c, .bytes = (size_t)count * (size_t)dt->size, .op = o, .uniform = true});
    return coll_result(
        "MPI_Allreduce", c,
        a->fn.allreduce(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count, dt, o, c));
}
COMM_API_ALIAS(MPI_Allreduce);

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_coll_sched *s;
    struct comm_op *o;
    int err =
        allreduce_args("MPI_Iallreduce", comm, sendbuf, recvbuf, count, datatype, op, &c, &dt, &o);

    if (err == MPI_SUCCESS) {
        err = coll_check_intra("MPI_Iallreduce", c);
    }
    if (err == MPI_SUCCESS) {
        err = comm_api_check_request_out("MPI_Iallreduce", c, request);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    s = comm_coll_sched_new(c);
    if (s != NULL && count > 0) {
        err = comm_coll_iallreduce(s, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count,
                                   dt, o);
    }
    return comm_api_start_schedule("MPI_Iallreduce", c, s, err, request);
}
COMM_API_ALIAS(MPI_Iallreduce);

/* Checks of a reduction whose send and receive counts may differ (reduce-scatter). */
static int coll_reduce_args(const char *func, struct comm_communicator *c, const void *sendbuf,
                            void *recvbuf, MPI_Count total, int mycount, MPI_Datatype datatype,
                            MPI_Op op, struct comm_datatype **dt_out, struct comm_op **op_out)
{
    int err = comm_api_check_data(func, c, recvbuf, mycount, datatype, dt_out);

    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE) {
        err = comm_api_check_data(func, c, sendbuf, total > 0 ? 1 : 0, datatype, dt_out);
    }
    if (err == MPI_SUCCESS) {
        err = coll_check_op(func, c, op, *dt_out, op_out);
    }
    return err;
}

static int coll_reduce_scatter_run(const char *func, const void *sendbuf, void *recvbuf,
                                   const int *recvcounts, MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c = comm_communicator_lookup(comm);
    struct comm_datatype *dt;
    struct comm_op *o;
    MPI_Count total = 0;
    bool uniform = true;
    int err;

    for (int r = 0; r < c->size; r++) {
        if (recvcounts[r] < 0) {
            return comm_api_error(c, MPI_ERR_COUNT, "%s: invalid count %d for rank %d", func,
                                  recvcounts[r], r);
        }
        total += recvcounts[r];
    }
    err = coll_reduce_args(func, c, sendbuf, recvbuf, total, recvcounts[c->rank], datatype, op, &dt,
                           &o);
    if (err != MPI_SUCCESS || total == 0) {
        return err;
    }
    /* Every rank passes the same recvcounts, so all see the same call. */
    for (int r = 1; r < c->size; r++) {
        uniform = uniform && recvcounts[r] == recvcounts[0];
    }
    a = comm_coll_select(
        COMM_COLL_REDUCE_SCATTER,
        &(struct comm_coll_call){
            .comm = c, .bytes = (size_t)total * (size_t)dt->size, .op = o, .uniform = uniform});
    return coll_result(func, c,
                       a->fn.reduce_scatter(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf,
                                            recvcounts, dt, o, c));
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    struct comm_communicator *c;
    int err = comm_api_enter_intracomm("MPI_Reduce_scatter", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (recvcounts == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Reduce_scatter: recvcounts is NULL");
    }
    return coll_reduce_scatter_run("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, datatype, op,
                                   comm);
}
COMM_API_ALIAS(MPI_Reduce_scatter);

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    struct comm_communicator *c;
    int *counts;
    int err = comm_api_enter_intracomm("MPI_Reduce_scatter_block", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (recvcount < 0) {
        return comm_api_error(c, MPI_ERR_COUNT, "MPI_Reduce_scatter_block: invalid count %d",
                              recvcount);
    }
    counts = malloc((size_t)c->size * sizeof(*counts));
    if (counts == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Reduce_scatter_block: out of memory");
    }
    for (int r = 0; r < c->size; r++) {
        counts[r] = recvcount;
    }
    err = coll_reduce_scatter_run("MPI_Reduce_scatter_block", sendbuf, recvbuf, counts, datatype,
                                  op, comm);
    free(counts);
    return err;
}
COMM_API_ALIAS(MPI_Reduce_scatter_block);

static int coll_scan_run(const char *func, const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, bool exclusive)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_op *o;
    int err = comm_api_enter_intracomm(func, comm, &c);

    if (err == MPI_SUCCESS) {
        err = coll_reduce_args(func, c, sendbuf, recvbuf, count, count, datatype, op, &dt, &o);
    }
    if (err != MPI_SUCCESS || count == 0) {
        return err;
    }
    a = comm_coll_select(
        COMM_COLL_SCAN,
        &(struct comm_coll_call){
            .comm = c, .bytes = (size_t)count * (size_t)dt->size, .op = o, .uniform = true});
    return coll_result(func, c,
                       a->fn.scan(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count, dt,
                                  o, exclusive, c));
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    return coll_scan_run("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm, false);
}
COMM_API_ALIAS(MPI_Scan);

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    return coll_scan_run("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, true);
}
COMM_API_ALIAS(MPI_Exscan);
