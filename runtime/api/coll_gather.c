/*
 * coll_gather.c - the gather and scatter entry points: MPI_Gather(v), MPI_Scatter(v),
 * MPI_Allgather(v).  The plain forms run the "v" algorithms with equal blocks.
 *
 * Layer: runtime API (calls coll/).
 */
#include "config.h"

#include "coll/coll.h"
#include "coll/nbc/nbc.h"
#include "runtime/api/api.h"
#include "runtime/datatype.h"

#include <stdlib.h>

/* Per-rank counts and displacements: checked (v forms) or made equal (plain forms). */
static int gather_blocks(const char *func, struct comm_communicator *comm, const int *counts,
                         const int *displs, int count, int **counts_out, int **displs_out)
{
    int *c, *d;

    if (counts != NULL) {
        if (displs == NULL) {
            return comm_api_error(comm, MPI_ERR_ARG, "%s: displs is NULL", func);
        }
        for (int r = 0; r < comm->size; r++) {
            if (counts[r] < 0) {
                return comm_api_error(comm, MPI_ERR_COUNT, "%s: invalid count %d for rank %d", func,
                                      counts[r], r);
            }
        }
        *counts_out = (int *)(uintptr_t)counts;
        *displs_out = (int *)(uintptr_t)displs;
        return MPI_SUCCESS;
    }
    c = malloc((size_t)comm->size * sizeof(*c));
    d = malloc((size_t)comm->size * sizeof(*d));
    if (c == NULL || d == NULL) {
        free(c);
        free(d);
        return comm_api_error(comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    for (int r = 0; r < comm->size; r++) {
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

/* One rank's block in bytes, the same at every rank: from the send side except at a root that
 * gathers in place (whose receive side matches it). */
static size_t gather_bytes(const struct comm_communicator *comm, int root, int count,
                           const struct comm_datatype *dt, int root_count,
                           const struct comm_datatype *root_dt)
{
    if (dt == NULL || (comm->rank == root && root_dt != NULL)) {
        return root_dt == NULL ? 0 : (size_t)root_count * root_dt->size;
    }
    return (size_t)count * dt->size;
}

static int gather_run(const char *func, bool plain, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                      const int *displs, int recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Request *request)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c;
    struct comm_datatype *sdt = NULL, *rdt = NULL;
    int *counts = NULL, *disps = NULL;
    int err = comm_api_enter_intracomm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (root < 0 || root >= c->size) {
        return comm_api_error(c, MPI_ERR_ROOT,
                              "%s: invalid root %d in a communicator of "
                              "size %d",
                              func, root, c->size);
    }
    if (sendbuf == MPI_IN_PLACE && c->rank != root) {
        return comm_api_error(c, MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is only allowed at the root",
                              func);
    }
    if (sendbuf != MPI_IN_PLACE) {
        err = comm_api_check_data(func, c, sendbuf, sendcount, sendtype, &sdt);
    }
    if (err == MPI_SUCCESS && c->rank == root) {
        if (recvcounts == NULL && displs != NULL) {
            return comm_api_error(c, MPI_ERR_ARG, "%s: recvcounts is NULL", func);
        }
        err = comm_api_check_data(func, c, recvbuf, recvcounts ? 0 : recvcount, recvtype, &rdt);
        if (err == MPI_SUCCESS) {
            err = gather_blocks(func, c, recvcounts, displs, recvcount, &counts, &disps);
        }
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (request != NULL) {
        struct comm_coll_sched *s = comm_coll_sched_new(c);

        if (c->rank == root) {
            gather_free_blocks(NULL, counts, disps);
        }
        return comm_api_start_schedule(
            func, c, s,
            s ? comm_coll_igather(s, sendbuf == MPI_IN_PLACE ? NULL : sendbuf, sendcount, sdt,
                                  recvbuf, recvcount, rdt, root)
              : 0,
            request);
    }
    a = comm_coll_select(
        COMM_COLL_GATHER,
        &(struct comm_coll_call){
            .comm = c,
            .uniform = plain,
            .bytes = plain ? gather_bytes(c, root, sendcount, sdt, recvcount, rdt) : 0});
    err = a->fn.gatherv(sendbuf == MPI_IN_PLACE ? NULL : sendbuf, sendcount, sdt, recvbuf, counts,
                        disps, rdt, root, c);
    if (c->rank == root) {
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
                      recvcount, recvtype, root, comm, NULL);
}
COMM_API_ALIAS(MPI_Gather);

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    struct comm_communicator *c = comm_communicator_lookup(comm);

    if (c != NULL && c->rank == root && recvcounts == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Gatherv: recvcounts is NULL");
    }
    return gather_run("MPI_Gatherv", false, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                      displs, 0, recvtype, root, comm, NULL);
}
COMM_API_ALIAS(MPI_Gatherv);

static int scatter_run(const char *func, bool plain, const void *sendbuf, const int *sendcounts,
                       const int *displs, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request *request)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c;
    struct comm_datatype *sdt = NULL, *rdt = NULL;
    int *counts = NULL, *disps = NULL;
    int err = comm_api_enter_intracomm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (root < 0 || root >= c->size) {
        return comm_api_error(c, MPI_ERR_ROOT,
                              "%s: invalid root %d in a communicator of "
                              "size %d",
                              func, root, c->size);
    }
    if (recvbuf == MPI_IN_PLACE && c->rank != root) {
        return comm_api_error(c, MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is only allowed at the root",
                              func);
    }
    if (recvbuf != MPI_IN_PLACE) {
        err = comm_api_check_data(func, c, recvbuf, recvcount, recvtype, &rdt);
    }
    if (err == MPI_SUCCESS && c->rank == root) {
        err = comm_api_check_data(func, c, sendbuf, sendcounts ? 0 : sendcount, sendtype, &sdt);
        if (err == MPI_SUCCESS) {
            err = gather_blocks(func, c, sendcounts, displs, sendcount, &counts, &disps);
        }
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (request != NULL) {
        struct comm_coll_sched *s = comm_coll_sched_new(c);

        if (c->rank == root) {
            gather_free_blocks(NULL, counts, disps);
        }
        return comm_api_start_schedule(
            func, c, s,
            s ? comm_coll_iscatter(s, sendbuf, sendcount, sdt,
                                   recvbuf == MPI_IN_PLACE ? NULL : recvbuf, recvcount, rdt, root)
              : 0,
            request);
    }
    a = comm_coll_select(
        COMM_COLL_SCATTER,
        &(struct comm_coll_call){
            .comm = c,
            .uniform = plain,
            .bytes = plain ? gather_bytes(c, root, recvcount, rdt, sendcount, sdt) : 0});
    err = a->fn.scatterv(sendbuf, counts, disps, sdt, recvbuf == MPI_IN_PLACE ? NULL : recvbuf,
                         recvcount, rdt, root, c);
    if (c->rank == root) {
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
                       recvcount, recvtype, root, comm, NULL);
}
COMM_API_ALIAS(MPI_Scatter);

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    struct comm_communicator *c = comm_communicator_lookup(comm);

    if (c != NULL && c->rank == root && sendcounts == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Scatterv: sendcounts is NULL");
    }
    return scatter_run("MPI_Scatterv", false, sendbuf, sendcounts, displs, 0, sendtype, recvbuf,
                       recvcount, recvtype, root, comm, NULL);
}
COMM_API_ALIAS(MPI_Scatterv);

static int allgather_run(const char *func, bool plain, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                         const int *displs, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request *request)
{
    const struct comm_coll_algorithm *a;
    struct comm_communicator *c;
    struct comm_datatype *sdt = NULL, *rdt = NULL;
    int *counts = NULL, *disps = NULL;
    int err = comm_api_enter_intracomm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (sendbuf != MPI_IN_PLACE) {
        err = comm_api_check_data(func, c, sendbuf, sendcount, sendtype, &sdt);
    }
    if (err == MPI_SUCCESS) {
        err = comm_api_check_data(func, c, recvbuf, recvcounts ? 0 : recvcount, recvtype, &rdt);
    }
    if (err == MPI_SUCCESS) {
        err = gather_blocks(func, c, recvcounts, displs, recvcount, &counts, &disps);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (request != NULL) {
        struct comm_coll_sched *s = comm_coll_sched_new(c);

        gather_free_blocks(recvcounts, counts, disps);
        return comm_api_start_schedule(
            func, c, s,
            s ? comm_coll_iallgather(s, sendbuf == MPI_IN_PLACE ? NULL : sendbuf, sendcount, sdt,
                                     recvbuf, recvcount, rdt)
              : 0,
            request);
    }
    a = comm_coll_select(
        COMM_COLL_ALLGATHER,
        &(struct comm_coll_call){
            .comm = c, .uniform = plain, .bytes = plain ? (size_t)recvcount * rdt->size : 0});
    err = a->fn.allgatherv(sendbuf == MPI_IN_PLACE ? NULL : sendbuf, sendcount, sdt, recvbuf,
                           counts, disps, rdt, c);
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
                         recvcount, recvtype, comm, NULL);
}
COMM_API_ALIAS(MPI_Allgather);

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    if (recvcounts == NULL) {
        return comm_api_error(comm_communicator_lookup(comm), MPI_ERR_ARG,
                              "MPI_Allgatherv: recvcounts is NULL");
    }
    return allgather_run("MPI_Allgatherv", false, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                         displs, 0, recvtype, comm, NULL);
}
COMM_API_ALIAS(MPI_Allgatherv);

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    if (request == NULL) {
        return comm_api_error(comm_communicator_lookup(comm), MPI_ERR_ARG,
                              "MPI_Igather: request is NULL");
    }
    return gather_run("MPI_Igather", true, sendbuf, sendcount, sendtype, recvbuf, NULL, NULL,
                      recvcount, recvtype, root, comm, request);
}
COMM_API_ALIAS(MPI_Igather);

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    if (request == NULL) {
        return comm_api_error(comm_communicator_lookup(comm), MPI_ERR_ARG,
                              "MPI_Iscatter: request is NULL");
    }
    return scatter_run("MPI_Iscatter", true, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, root, comm, request);
}
COMM_API_ALIAS(MPI_Iscatter);

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (request == NULL) {
        return comm_api_error(comm_communicator_lookup(comm), MPI_ERR_ARG,
                              "MPI_Iallgather: request is NULL");
    }
    return allgather_run("MPI_Iallgather", true, sendbuf, sendcount, sendtype, recvbuf, NULL, NULL,
                         recvcount, recvtype, comm, request);
}
COMM_API_ALIAS(MPI_Iallgather);
