/*
 * coll_neighbor.c - the neighbourhood collectives: MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w) and their nonblocking MPI_Ineighbor_ forms.  All ten become the
 * w form (a block per neighbour on each side) of one schedule (coll/neighbor/neighbor.h); the
 * blocking calls wait for it.
 *
 * Layer: runtime API (calls coll/).
 */
#include "config.h"

#include "coll/neighbor/neighbor.h"
#include "runtime/api/topo_api.h"
#include "runtime/datatype.h"

#include <stdlib.h>

/* How a side's blocks are laid out. */
enum neighbor_layout {
    NEIGHBOR_ONE,    /* one block for every neighbour (the allgather's send) */
    NEIGHBOR_BLOCKS, /* block j at j * count (allgather's receive, alltoall) */
    NEIGHBOR_V,      /* counts[] and displs[] in elements (v forms) */
    NEIGHBOR_W,      /* counts[], byte displs[] and types[] (w form) */
};

/* One side, as the user gave it. */
struct neighbor_args {
    const void *buf;
    int count;
    MPI_Datatype type;
    const int *counts;
    const int *displs;
    const MPI_Aint *bdispls;
    const MPI_Datatype *types;
};

/* Fills SIDE (arrays owned by the caller's schedule) for DEGREE neighbours RANKS from A. */
static int neighbor_side(const char *func, const char *what, struct comm_communicator *c,
                         struct comm_coll_sched *s, enum neighbor_layout layout,
                         const struct neighbor_args *a, int degree, const int *ranks,
                         struct comm_coll_neighbor_side *side)
{
    size_t n = (size_t)(degree > 0 ? degree : 1);
    int *counts = comm_coll_sched_buffer(s, n * sizeof(*counts));
    MPI_Aint *displs = comm_coll_sched_buffer(s, n * sizeof(*displs));
    struct comm_datatype **dts = comm_coll_sched_buffer(s, n * sizeof(*dts));
    int err = MPI_SUCCESS;

    if (counts == NULL || displs == NULL || dts == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    if (degree > 0 && layout >= NEIGHBOR_V &&
        (a->counts == NULL || (layout == NEIGHBOR_V ? a->displs == NULL : a->bdispls == NULL) ||
         (layout == NEIGHBOR_W && a->types == NULL))) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: a %s count, displacement or type array is NULL",
                              func, what);
    }
    for (int j = 0; j < degree && err == MPI_SUCCESS; j++) {
        counts[j] = layout >= NEIGHBOR_V ? a->counts[j] : a->count;
        if (counts[j] < 0) {
            return comm_api_error(c, MPI_ERR_COUNT, "%s: invalid %scount %d for neighbour %d", func,
                                  what, counts[j], j);
        }
        if (j > 0 && layout != NEIGHBOR_W) {
            dts[j] = dts[0]; /* one type: checked once */
        } else {
            err = comm_api_check_datatype(func, c, layout == NEIGHBOR_W ? a->types[j] : a->type,
                                          &dts[j]);
        }
        switch (layout) {
        case NEIGHBOR_ONE:
            displs[j] = 0;
            break;
        case NEIGHBOR_BLOCKS:
            displs[j] = (MPI_Aint)j * a->count * (err == MPI_SUCCESS ? dts[j]->extent : 0);
            break;
        case NEIGHBOR_V:
            displs[j] = (MPI_Aint)a->displs[j] * (err == MPI_SUCCESS ? dts[j]->extent : 0);
            break;
        case NEIGHBOR_W:
            displs[j] = a->bdispls[j];
            break;
        }
    }
    if (err == MPI_SUCCESS && degree > 0 && a->buf == MPI_IN_PLACE) {
        err = comm_api_error(c, MPI_ERR_BUFFER,
                             "%s: MPI_IN_PLACE is not allowed in neighbourhood collectives", func);
    }
    *side = (struct comm_coll_neighbor_side){.buf = a->buf,
                                             .degree = degree,
                                             .ranks = ranks,
                                             .counts = counts,
                                             .displs = displs,
                                             .dts = dts};
    return err;
}

/* Checks the arguments of FUNC, builds its schedule and starts it (REQUEST) or runs it. */
static int neighbor_run(const char *func, enum neighbor_layout slayout,
                        const struct neighbor_args *sa, enum neighbor_layout rlayout,
                        const struct neighbor_args *ra, MPI_Comm comm, bool nonblocking,
                        MPI_Request *request)
{
    struct comm_coll_neighbor_side send, recv;
    struct comm_communicator *c;
    const struct comm_proc_topo *t;
    struct comm_coll_sched *s;
    MPI_Request req;
    int err = comm_api_topo_enter(func, comm, 0, &c);

    if (err == MPI_SUCCESS && nonblocking) {
        err = comm_api_check_request_out(func, c, request);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    t = c->proc_topo;
    s = comm_coll_sched_new(c);
    if (s == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    err = neighbor_side(func, "send", c, s, slayout, sa, t->outdegree, t->out, &send);
    if (err == MPI_SUCCESS) {
        err = neighbor_side(func, "recv", c, s, rlayout, ra, t->indegree, t->in, &recv);
    }
    if (err != MPI_SUCCESS) {
        comm_coll_sched_free(s);
        return err;
    }
    err = comm_api_start_schedule(
        func, c, s, comm_coll_ineighbor(s, &send, &recv, t->kind == COMM_PROC_TOPO_CART),
        nonblocking ? request : &req);
    if (err != MPI_SUCCESS || nonblocking) {
        return err;
    }
    return PMPI_Wait(&req, MPI_STATUS_IGNORE);
}

static int neighbor_allgather(const char *func, const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, bool nonblocking,
                              MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_ONE,
        &(struct neighbor_args){.buf = sendbuf, .count = sendcount, .type = sendtype},
        NEIGHBOR_BLOCKS,
        &(struct neighbor_args){.buf = recvbuf, .count = recvcount, .type = recvtype}, comm,
        nonblocking, request);
}

static int neighbor_allgatherv(const char *func, const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                               const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                               bool nonblocking, MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_ONE,
        &(struct neighbor_args){.buf = sendbuf, .count = sendcount, .type = sendtype}, NEIGHBOR_V,
        &(struct neighbor_args){
            .buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype},
        comm, nonblocking, request);
}

static int neighbor_alltoall(const char *func, const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm, bool nonblocking,
                             MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_BLOCKS,
        &(struct neighbor_args){.buf = sendbuf, .count = sendcount, .type = sendtype},
        NEIGHBOR_BLOCKS,
        &(struct neighbor_args){.buf = recvbuf, .count = recvcount, .type = recvtype}, comm,
        nonblocking, request);
}

static int neighbor_alltoallv(const char *func, const void *sendbuf, const int sendcounts[],
                              const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm, bool nonblocking, MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_V,
        &(struct neighbor_args){
            .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .type = sendtype},
        NEIGHBOR_V,
        &(struct neighbor_args){
            .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .type = recvtype},
        comm, nonblocking, request);
}

static int neighbor_alltoallw(const char *func, const void *sendbuf, const int sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm, bool nonblocking,
                              MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_W,
        &(struct neighbor_args){
            .buf = sendbuf, .counts = sendcounts, .bdispls = sdispls, .types = sendtypes},
        NEIGHBOR_W,
        &(struct neighbor_args){
            .buf = recvbuf, .counts = recvcounts, .bdispls = rdispls, .types = recvtypes},
        comm, nonblocking, request);
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, recvtype, comm, false, NULL);
}
COMM_API_ALIAS(MPI_Neighbor_allgather);

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return neighbor_allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, recvtype, comm, true, request);
}
COMM_API_ALIAS(MPI_Ineighbor_allgather);

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                               recvcounts, displs, recvtype, comm, false, NULL);
}
COMM_API_ALIAS(MPI_Neighbor_allgatherv);

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return neighbor_allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                               recvcounts, displs, recvtype, comm, true, request);
}
COMM_API_ALIAS(MPI_Ineighbor_allgatherv);

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoall("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, false, NULL);
}
COMM_API_ALIAS(MPI_Neighbor_alltoall);

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return neighbor_alltoall("MPI_Ineighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, true, request);
}
COMM_API_ALIAS(MPI_Ineighbor_alltoall);

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoallv("MPI_Neighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype,
                              recvbuf, recvcounts, rdispls, recvtype, comm, false, NULL);
}
COMM_API_ALIAS(MPI_Neighbor_alltoallv);

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return neighbor_alltoallv("MPI_Ineighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype,
                              recvbuf, recvcounts, rdispls, recvtype, comm, true, request);
}
COMM_API_ALIAS(MPI_Ineighbor_alltoallv);

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return neighbor_alltoallw("MPI_Neighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes,
                              recvbuf, recvcounts, rdispls, recvtypes, comm, false, NULL);
}
COMM_API_ALIAS(MPI_Neighbor_alltoallw);

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request *request)
{
    return neighbor_alltoallw("MPI_Ineighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes,
                              recvbuf, recvcounts, rdispls, recvtypes, comm, true, request);
}
COMM_API_ALIAS(MPI_Ineighbor_alltoallw);
