/*
 * api_coll_gather.c - the gather and scatter entry points: MPI_Gather(v), MPI_Scatter(v),
 * MPI_Allgather(v), blocking, nonblocking and persistent.  The blocking forms on an
 * intracommunicator go through the communicator's collective table (the plain forms with
 * equal blocks); intercommunicators and the other forms run the operation's schedule
 * (api_coll_post.h).
 *
 * Layer: api (calls coll/).
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "api/api.h"
#include "api/api_coll_post.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>

/* Per-rank counts and displacements for N ranks: checked (v forms) or made equal (plain
 * forms). */
static int gather_blocks(const char *func, struct comm_communicator *comm, int n, const int *counts,
                         const int *displs, int count, int **counts_out, int **displs_out)
{
    int *c, *d;

    if (counts != NULL) {
        if (displs == NULL) {
            return comm_api_error(comm, MPI_ERR_ARG, "%s: displs is NULL", func);
        }
        for (int r = 0; r < n; r++) {
            if (counts[r] < 0) {
                return comm_api_error(comm, MPI_ERR_COUNT, "%s: invalid count %d for rank %d", func,
                                      counts[r], r);
            }
        }
        *counts_out = (int *)(uintptr_t)counts;
        *displs_out = (int *)(uintptr_t)displs;
        return MPI_SUCCESS;
    }
    c = malloc((size_t)n * sizeof(*c));
    d = malloc((size_t)n * sizeof(*d));
    if (c == NULL || d == NULL) {
        free(c);
        free(d);
        return comm_api_error(comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    for (int r = 0; r < n; r++) {
        c[r] = count;
        d[r] = r * count;
    }
    *counts_out = c;
    *displs_out = d;
    return MPI_SUCCESS;
}

static void gather_free_blocks(const int *given, int *counts, int *displs)
{
    if (given == NULL) {
        free(counts);
        free(displs);
    }
}

/*
 * The checks of a gather or scatter: the root; MPI_IN_PLACE (ONE_BUF, only at an
 * intracommunicator's root); the one block of the ranks that are not the root (ONE_*: the
 * gather's send side, the scatter's receive side), also the root's own on an
 * intracommunicator; and the root's blocks (ALL_*: per-rank counts and displacements for the
 * v forms, named COUNTS_NAME).  Sets *at_root_out and the two datatypes (NULL where unused).
 */
static int rooted_check(const char *func, struct comm_communicator *c, int root, bool plain,
                        const void *one_buf, int one_count, MPI_Datatype one_type,
                        const void *all_buf, const int *all_counts, const int *all_displs,
                        int all_count, MPI_Datatype all_type, const char *counts_name,
                        bool *at_root_out, struct comm_datatype **one_dt_out,
                        struct comm_datatype **all_dt_out)
{
    bool in_place = one_buf == MPI_IN_PLACE, at_root, leaf;
    int *counts, *displs;
    int err = comm_api_check_root(func, c, root);

    err = err == MPI_SUCCESS ? comm_api_check_inter_in_place(func, c, in_place) : err;
    if (err != MPI_SUCCESS) {
        return err;
    }
    at_root = c->inter ? root == MPI_ROOT : c->rank == root;
    leaf = c->inter ? root >= 0 : c->rank != root;
    *at_root_out = at_root;
    *one_dt_out = NULL;
    *all_dt_out = NULL;
    if (in_place && !at_root) {
        return comm_api_error(c, MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is only allowed at the root",
                              func);
    }
    if ((leaf || (at_root && !c->inter)) && !in_place) {
        err = comm_api_check_data(func, c, one_buf, one_count, one_type, one_dt_out);
    }
    if (err == MPI_SUCCESS && at_root) {
        if (!plain && all_counts == NULL) {
            return comm_api_error(c, MPI_ERR_ARG, "%s: %s is NULL", func, counts_name);
        }
        err = comm_api_check_data(func, c, all_buf, plain ? all_count : 0, all_type, all_dt_out);
        if (err == MPI_SUCCESS && !plain) {
            err = gather_blocks(func, c, c->inter ? c->remote_size : c->size, all_counts,
                                all_displs, 0, &counts, &displs);
        }
    }
    return err;
}

static int gather_run(const char *func, bool plain, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                      const int *displs, int recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, enum comm_api_coll_form form,
                      MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *sdt = NULL, *rdt = NULL;
    int *counts = NULL, *disps = NULL;
    bool at_root;
    int err = comm_api_enter_comm(func, comm, &c);

    err = err == MPI_SUCCESS ? rooted_check(func, c, root, plain, sendbuf, sendcount, sendtype,
                                            recvbuf, recvcounts, displs, recvcount, recvtype,
                                            "recvcounts", &at_root, &sdt, &rdt)
                             : err;
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (form != COMM_API_COLL_BLOCKING || c->inter) {
        return comm_api_coll_post(
            func, c, comm_coll_build_gather,
            &(struct comm_coll_args){.sbuf = sendbuf == MPI_IN_PLACE ? NULL : sendbuf,
                                     .scount = sendcount,
                                     .sdt = sdt,
                                     .rbuf = recvbuf,
                                     .rcount = recvcount,
                                     .rdt = rdt,
                                     .rcounts = at_root ? recvcounts : NULL,
                                     .rdispls = at_root ? displs : NULL,
                                     .nrecv = c->inter ? c->remote_size : c->size,
                                     .root = root},
            form, info, request);
    }
    if (at_root) { /* the v form's blocks as given, or equal ones */
        err = gather_blocks(func, c, c->size, recvcounts, displs, recvcount, &counts, &disps);
        if (err != MPI_SUCCESS) {
            return err;
        }
    }
    err = (plain ? c->coll->gather : c->coll->gatherv)(sendbuf == MPI_IN_PLACE ? NULL : sendbuf,
                                                       sendcount, sdt, recvbuf, counts, disps,
                                                       rdt, root, c);
    if (at_root) {
        gather_free_blocks(recvcounts, counts, disps);
    }
    if (err != MPI_SUCCESS) {
        return comm_api_error(c, err, "%s: the operation failed (see above)", func);
    }
    return MPI_SUCCESS;
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_run("MPI_Gather", true, sendbuf, sendcount, sendtype, recvbuf, NULL, NULL,
                      recvcount, recvtype, root, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Gather);

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    return gather_run("MPI_Gatherv", false, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                      displs, 0, recvtype, root, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Gatherv);

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return gather_run("MPI_Igather", true, sendbuf, sendcount, sendtype, recvbuf, NULL, NULL,
                      recvcount, recvtype, root, comm, MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING,
                      request);
}
COMM_API_ALIAS(MPI_Igather);

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    return gather_run("MPI_Igatherv", false, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                      displs, 0, recvtype, root, comm, MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING,
                      request);
}
COMM_API_ALIAS(MPI_Igatherv);

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    return gather_run("MPI_Gather_init", true, sendbuf, sendcount, sendtype, recvbuf, NULL, NULL,
                      recvcount, recvtype, root, comm, info, COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Gather_init);

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gather_run("MPI_Gatherv_init", false, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                      displs, 0, recvtype, root, comm, info, COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Gatherv_init);

static int scatter_run(const char *func, bool plain, const void *sendbuf, const int *sendcounts,
                       const int *displs, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       enum comm_api_coll_form form, MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *sdt = NULL, *rdt = NULL;
    int *counts = NULL, *disps = NULL;
    bool at_root;
    int err = comm_api_enter_comm(func, comm, &c);

    err = err == MPI_SUCCESS ? rooted_check(func, c, root, plain, recvbuf, recvcount, recvtype,
                                            sendbuf, sendcounts, displs, sendcount, sendtype,
                                            "sendcounts", &at_root, &rdt, &sdt)
                             : err;
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (form != COMM_API_COLL_BLOCKING || c->inter) {
        return comm_api_coll_post(
            func, c, comm_coll_build_scatter,
            &(struct comm_coll_args){.sbuf = sendbuf,
                                     .scount = sendcount,
                                     .sdt = sdt,
                                     .scounts = at_root ? sendcounts : NULL,
                                     .sdispls = at_root ? displs : NULL,
                                     .nsend = c->inter ? c->remote_size : c->size,
                                     .rbuf = recvbuf == MPI_IN_PLACE ? NULL : recvbuf,
                                     .rcount = recvcount,
                                     .rdt = rdt,
                                     .root = root},
            form, info, request);
    }
    if (at_root) { /* the v form's blocks as given, or equal ones */
        err = gather_blocks(func, c, c->size, sendcounts, displs, sendcount, &counts, &disps);
        if (err != MPI_SUCCESS) {
            return err;
        }
    }
    err = (plain ? c->coll->scatter : c->coll->scatterv)(
        sendbuf, counts, disps, sdt, recvbuf == MPI_IN_PLACE ? NULL : recvbuf, recvcount, rdt, root,
        c);
    if (at_root) {
        gather_free_blocks(sendcounts, counts, disps);
    }
    if (err != MPI_SUCCESS) {
        return comm_api_error(c, err, "%s: the operation failed (see above)", func);
    }
    return MPI_SUCCESS;
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_run("MPI_Scatter", true, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, root, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING,
                       NULL);
}
COMM_API_ALIAS(MPI_Scatter);

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    return scatter_run("MPI_Scatterv", false, sendbuf, sendcounts, displs, 0, sendtype, recvbuf,
                       recvcount, recvtype, root, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING,
                       NULL);
}
COMM_API_ALIAS(MPI_Scatterv);

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return scatter_run("MPI_Iscatter", true, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, root, comm, MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING,
                       request);
}
COMM_API_ALIAS(MPI_Iscatter);

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    return scatter_run("MPI_Iscatterv", false, sendbuf, sendcounts, displs, 0, sendtype, recvbuf,
                       recvcount, recvtype, root, comm, MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING,
                       request);
}
COMM_API_ALIAS(MPI_Iscatterv);

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    return scatter_run("MPI_Scatter_init", true, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, root, comm, info, COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Scatter_init);

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scatter_run("MPI_Scatterv_init", false, sendbuf, sendcounts, displs, 0, sendtype,
                       recvbuf, recvcount, recvtype, root, comm, info, COMM_API_COLL_PERSISTENT,
                       request);
}
COMM_API_ALIAS(MPI_Scatterv_init);

static int allgather_run(const char *func, bool plain, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                         const int *displs, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, enum comm_api_coll_form form, MPI_Request *request)
{
    struct comm_communicator *c;
    struct comm_datatype *sdt = NULL, *rdt = NULL;
    int *counts = NULL, *disps = NULL;
    int err = comm_api_enter_comm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (!plain && recvcounts == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: recvcounts is NULL", func);
    }
    err = comm_api_check_inter_in_place(func, c, sendbuf == MPI_IN_PLACE);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE) {
        err = comm_api_check_data(func, c, sendbuf, sendcount, sendtype, &sdt);
    }
    if (err == MPI_SUCCESS) {
        err = comm_api_check_data(func, c, recvbuf, recvcounts ? 0 : recvcount, recvtype, &rdt);
    }
    if (err == MPI_SUCCESS) {
        err = gather_blocks(func, c, c->inter ? c->remote_size : c->size, recvcounts, displs,
                            recvcount, &counts, &disps);
    }
    if (err != MPI_SUCCESS) {
        gather_free_blocks(recvcounts, counts, disps);
        return err;
    }
    if (form != COMM_API_COLL_BLOCKING || c->inter) {
        gather_free_blocks(recvcounts, counts, disps);
        return comm_api_coll_post(
            func, c, comm_coll_build_allgather,
            &(struct comm_coll_args){.sbuf = sendbuf == MPI_IN_PLACE ? NULL : sendbuf,
                                     .scount = sendcount,
                                     .sdt = sdt,
                                     .rbuf = recvbuf,
                                     .rcount = recvcount,
                                     .rdt = rdt,
                                     .rcounts = recvcounts,
                                     .rdispls = displs,
                                     .nrecv = c->inter ? c->remote_size : c->size},
            form, info, request);
    }
    err = (plain ? c->coll->allgather : c->coll->allgatherv)(
        sendbuf == MPI_IN_PLACE ? NULL : sendbuf, sendcount, sdt, recvbuf, counts, disps, rdt, c);
    gather_free_blocks(recvcounts, counts, disps);
    if (err != MPI_SUCCESS) {
        return comm_api_error(c, err, "%s: the operation failed (see above)", func);
    }
    return MPI_SUCCESS;
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_run("MPI_Allgather", true, sendbuf, sendcount, sendtype, recvbuf, NULL, NULL,
                         recvcount, recvtype, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Allgather);

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    return allgather_run("MPI_Allgatherv", false, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                         displs, 0, recvtype, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Allgatherv);

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return allgather_run("MPI_Iallgather", true, sendbuf, sendcount, sendtype, recvbuf, NULL, NULL,
                         recvcount, recvtype, comm, MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING,
                         request);
}
COMM_API_ALIAS(MPI_Iallgather);

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    return allgather_run("MPI_Iallgatherv", false, sendbuf, sendcount, sendtype, recvbuf,
                         recvcounts, displs, 0, recvtype, comm, MPI_INFO_NULL,
                         COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Iallgatherv);

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return allgather_run("MPI_Allgather_init", true, sendbuf, sendcount, sendtype, recvbuf, NULL,
                         NULL, recvcount, recvtype, comm, info, COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Allgather_init);

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allgather_run("MPI_Allgatherv_init", false, sendbuf, sendcount, sendtype, recvbuf,
                         recvcounts, displs, 0, recvtype, comm, info, COMM_API_COLL_PERSISTENT,
                         request);
}
COMM_API_ALIAS(MPI_Allgatherv_init);
