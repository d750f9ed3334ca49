/*
 * api_coll.c - the collective entry points of barrier, bcast, the reductions and the prefix
 * reductions, in their blocking, nonblocking and persistent forms: argument checks,
 * MPI_IN_PLACE, and the call through the communicator's collective table (blocking calls:
 * comm->coll, runtime/comm/coll_table.h) or to the operation's schedule (api_coll_post.h).
 *
 * Layer: api (calls coll/).
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "api/api.h"
#include "api/api_coll_post.h"
#include "runtime/datatype/datatype.h"
#include "runtime/op/op.h"
#include "runtime/p2p/request.h"

#include <stdlib.h>

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

static int coll_result(const char *func, struct comm_communicator *comm, int err)
{
    if (err == MPI_SUCCESS) {
        return MPI_SUCCESS;
    }
    return comm_api_error(comm, err, "%s: the operation failed (see above)", func);
}

int PMPI_Barrier(MPI_Comm comm)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Barrier", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return coll_result("MPI_Barrier", c, c->coll->barrier(c));
}
COMM_API_ALIAS(MPI_Barrier);

static int barrier_post(const char *func, MPI_Comm comm, MPI_Info info,
                        enum comm_api_coll_form form, MPI_Request *request)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return comm_api_coll_post(func, c, comm_coll_build_barrier, &(struct comm_coll_args){0}, form,
                              info, request);
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return barrier_post("MPI_Ibarrier", comm, MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Ibarrier);

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return barrier_post("MPI_Barrier_init", comm, info, COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Barrier_init);

static int bcast_run(const char *func, void *buffer, int count, MPI_Datatype datatype, int root,
                     MPI_Comm comm, MPI_Info info, enum comm_api_coll_form form,
                     MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    int err = comm_api_enter_comm(func, comm, &c);

    err = err == MPI_SUCCESS ? comm_api_check_root(func, c, root) : err;
    err = err == MPI_SUCCESS ? comm_api_check_data(func, c, buffer, count, datatype, &dt) : err;
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (form != COMM_API_COLL_BLOCKING) {
        return comm_api_coll_post(
            func, c, comm_coll_build_bcast,
            &(struct comm_coll_args){.rbuf = buffer, .rcount = count, .rdt = dt, .root = root},
            form, info, request);
    }
    /* (On an intercommunicator the table's broadcast runs between the groups.) */
    if (!c->inter && (count == 0 || c->size == 1)) {
        return MPI_SUCCESS;
    }
    return coll_result(func, c, c->coll->bcast(buffer, count, dt, root, c));
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast_run("MPI_Bcast", buffer, count, datatype, root, comm, MPI_INFO_NULL,
                     COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Bcast);

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return bcast_run("MPI_Ibcast", buffer, count, datatype, root, comm, MPI_INFO_NULL,
                     COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Ibcast);

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    return bcast_run("MPI_Bcast_init", buffer, count, datatype, root, comm, info,
                     COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Bcast_init);

/* Checks of the reduce calls.  On an intercommunicator the root (MPI_ROOT) only receives, the
 * other group only sends, and the rest of the root's group (MPI_PROC_NULL) passes nothing that
 * counts (*dt_out and *op_out stay NULL). */
static int reduce_args(const char *func, MPI_Comm comm, const void *sendbuf, void *recvbuf,
                       int count, MPI_Datatype datatype, MPI_Op op, int root,
                       struct comm_communicator **c_out, struct comm_datatype **dt_out,
                       struct comm_op **op_out)
{
    struct comm_communicator *c;
    bool sends, receives;
    int err = comm_api_enter_comm(func, comm, c_out);

    if (err != MPI_SUCCESS) {
        return err;
    }
    c = *c_out;
    *dt_out = NULL;
    *op_out = NULL;
    err = comm_api_check_root(func, c, root);
    err =
        err == MPI_SUCCESS ? comm_api_check_inter_in_place(func, c, sendbuf == MPI_IN_PLACE) : err;
    if (err == MPI_SUCCESS && !c->inter && sendbuf == MPI_IN_PLACE && c->rank != root) {
        err =
            comm_api_error(c, MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is only allowed at the root", func);
    }
    sends = !c->inter || (root != MPI_ROOT && root != MPI_PROC_NULL);
    receives = c->inter ? root == MPI_ROOT : c->rank == root;
    if (err == MPI_SUCCESS && sends) {
        err = comm_api_check_data(func, c, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count,
                                  datatype, dt_out);
    }
    if (err == MPI_SUCCESS && receives) {
        err = comm_api_check_data(func, c, recvbuf, count, datatype, dt_out);
    }
    if (err == MPI_SUCCESS && (sends || receives)) {
        err = coll_check_op(func, c, op, *dt_out, op_out);
    }
    return err;
}

static int reduce_run(const char *func, const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                      enum comm_api_coll_form form, MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_op *o;
    const void *sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    int err = reduce_args(func, comm, sendbuf, recvbuf, count, datatype, op, root, &c, &dt, &o);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (form != COMM_API_COLL_BLOCKING || c->inter) {
        return comm_api_coll_post(func, c, comm_coll_build_reduce,
                                  &(struct comm_coll_args){.sbuf = sbuf,
                                                           .rbuf = recvbuf,
                                                           .rcount = dt != NULL ? count : 0,
                                                           .rdt = dt,
                                                           .op = o,
                                                           .root = root},
                                  form, info, request);
    }
    if (count == 0) {
        return MPI_SUCCESS;
    }
    return coll_result(func, c, c->coll->reduce(sbuf, recvbuf, count, dt, o, root, c));
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    return reduce_run("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm,
                      MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Reduce);

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    return reduce_run("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm,
                      MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Ireduce);

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_run("MPI_Reduce_init", sendbuf, recvbuf, count, datatype, op, root, comm, info,
                      COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Reduce_init);

static int allreduce_run(const char *func, const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                         enum comm_api_coll_form form, MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_op *o;
    const void *sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    int err = comm_api_enter_comm(func, comm, &c);

    err = err == MPI_SUCCESS ? comm_api_check_data(func, c, recvbuf, count, datatype, &dt) : err;
    err =
        err == MPI_SUCCESS ? comm_api_check_inter_in_place(func, c, sendbuf == MPI_IN_PLACE) : err;
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE) {
        err = comm_api_check_data(func, c, sendbuf, count, datatype, &dt);
    }
    err = err == MPI_SUCCESS ? coll_check_op(func, c, op, dt, &o) : err;
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (form != COMM_API_COLL_BLOCKING) {
        return comm_api_coll_post(
            func, c, comm_coll_build_allreduce,
            &(struct comm_coll_args){
                .sbuf = sbuf, .rbuf = recvbuf, .rcount = count, .rdt = dt, .op = o},
            form, info, request);
    }
    if (count == 0) {
        return MPI_SUCCESS;
    }
    /* (On an intercommunicator, where MPI_IN_PLACE is refused, the table's allreduce runs
     * between the groups.) */
    return coll_result(func, c, c->coll->allreduce(sbuf, recvbuf, count, dt, o, c));
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    return allreduce_run("MPI_Allreduce", sendbuf, recvbuf, count, datatype, op, comm,
                         MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Allreduce);

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    return allreduce_run("MPI_Iallreduce", sendbuf, recvbuf, count, datatype, op, comm,
                         MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Iallreduce);

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_run("MPI_Allreduce_init", sendbuf, recvbuf, count, datatype, op, comm, info,
                         COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Allreduce_init);

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

/* The reduce-scatters: per-rank RECVCOUNTS, or RECVCOUNT for every rank (RECVCOUNTS NULL,
 * the block form). */
static int reduce_scatter_run(const char *func, const void *sendbuf, void *recvbuf,
                              const int *recvcounts, int recvcount, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Info info, enum comm_api_coll_form form,
                              MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_op *o;
    MPI_Count total = 0;
    int *counts, err = comm_api_enter_comm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (recvcounts == NULL && recvcount < 0) {
        return comm_api_error(c, MPI_ERR_COUNT, "%s: invalid count %d", func, recvcount);
    }
    for (int r = 0; r < c->size; r++) {
        int n = recvcounts != NULL ? recvcounts[r] : recvcount;

        if (n < 0) {
            return comm_api_error(c, MPI_ERR_COUNT, "%s: invalid count %d for rank %d", func, n, r);
        }
        total += n;
    }
    err = comm_api_check_inter_in_place(func, c, sendbuf == MPI_IN_PLACE);
    err = err == MPI_SUCCESS
              ? coll_reduce_args(func, c, sendbuf, recvbuf, total,
                                 recvcounts != NULL ? recvcounts[c->rank] : recvcount, datatype, op,
                                 &dt, &o)
              : err;
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (form != COMM_API_COLL_BLOCKING || c->inter) {
        return comm_api_coll_post(
            func, c, comm_coll_build_reduce_scatter,
            &(struct comm_coll_args){.sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
                                     .rbuf = recvbuf,
                                     .rcount = recvcount,
                                     .rcounts = recvcounts,
                                     .nrecv = c->size,
                                     .rdt = dt,
                                     .op = o},
            form, info, request);
    }
    if (total == 0) {
        return MPI_SUCCESS;
    }
    counts = (int *)(uintptr_t)recvcounts;
    if (recvcounts == NULL) {
        counts = malloc((size_t)c->size * sizeof(*counts));
        if (counts == NULL) {
            return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
        }
        for (int r = 0; r < c->size; r++) {
            counts[r] = recvcount;
        }
    }
    err = c->coll->reduce_scatter(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, counts, dt,
                                  o, c);
    if (recvcounts == NULL) {
        free(counts);
    }
    return coll_result(func, c, err);
}

/* The v form's recvcounts, checked before anything reads it. */
static int reduce_scatter_v(const char *func, const void *sendbuf, void *recvbuf,
                            const int *recvcounts, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            MPI_Info info, enum comm_api_coll_form form, MPI_Request *request)
{
    if (recvcounts == NULL) {
        struct comm_communicator *c;
        int err = comm_api_enter_comm(func, comm, &c);

        return err != MPI_SUCCESS ? err
                                  : comm_api_error(c, MPI_ERR_ARG, "%s: recvcounts is NULL", func);
    }
    return reduce_scatter_run(func, sendbuf, recvbuf, recvcounts, 0, datatype, op, comm, info, form,
                              request);
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_v("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                            MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Reduce_scatter);

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter_v("MPI_Ireduce_scatter", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                            MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Ireduce_scatter);

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    return reduce_scatter_v("MPI_Reduce_scatter_init", sendbuf, recvbuf, recvcounts, datatype, op,
                            comm, info, COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Reduce_scatter_init);

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_run("MPI_Reduce_scatter_block", sendbuf, recvbuf, NULL, recvcount,
                              datatype, op, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Reduce_scatter_block);

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    return reduce_scatter_run("MPI_Ireduce_scatter_block", sendbuf, recvbuf, NULL, recvcount,
                              datatype, op, comm, MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING,
                              request);
}
COMM_API_ALIAS(MPI_Ireduce_scatter_block);

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return reduce_scatter_run("MPI_Reduce_scatter_block_init", sendbuf, recvbuf, NULL, recvcount,
                              datatype, op, comm, info, COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Reduce_scatter_block_init);

static int scan_run(const char *func, const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, bool exclusive, MPI_Info info,
                    enum comm_api_coll_form form, MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    struct comm_op *o;
    const void *sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    int err = comm_api_enter_intracomm(func, comm, &c);

    if (err == MPI_SUCCESS) {
        err = coll_reduce_args(func, c, sendbuf, recvbuf, count, count, datatype, op, &dt, &o);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (form != COMM_API_COLL_BLOCKING) {
        return comm_api_coll_post(
            func, c, exclusive ? comm_coll_build_exscan : comm_coll_build_scan,
            &(struct comm_coll_args){
                .sbuf = sbuf, .rbuf = recvbuf, .rcount = count, .rdt = dt, .op = o},
            form, info, request);
    }
    if (count == 0) {
        return MPI_SUCCESS;
    }
    return coll_result(func, c, c->coll->scan(sbuf, recvbuf, count, dt, o, exclusive, c));
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    return scan_run("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm, false, MPI_INFO_NULL,
                    COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Scan);

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    return scan_run("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, true, MPI_INFO_NULL,
                    COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Exscan);

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    return scan_run("MPI_Iscan", sendbuf, recvbuf, count, datatype, op, comm, false, MPI_INFO_NULL,
                    COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Iscan);

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request)
{
    return scan_run("MPI_Iexscan", sendbuf, recvbuf, count, datatype, op, comm, true, MPI_INFO_NULL,
                    COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Iexscan);

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scan_run("MPI_Scan_init", sendbuf, recvbuf, count, datatype, op, comm, false, info,
                    COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Scan_init);

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scan_run("MPI_Exscan_init", sendbuf, recvbuf, count, datatype, op, comm, true, info,
                    COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Exscan_init);
