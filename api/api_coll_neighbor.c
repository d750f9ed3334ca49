/*
 * api_coll_neighbor.c - the neighbourhood collectives: MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w), their nonblocking MPI_Ineighbor_ forms and MPI 4.0's persistent
 * MPI_Neighbor_*_init forms.  All fifteen become the w form (a block per neighbour on each
 * side) of one builder (coll/neighbor/neighbor.h) run by comm_api_coll_post in the form asked
 * for (api/api_coll_post.h): the blocking calls wait for the schedule, the persistent ones
 * build a new one at every MPI_Start from their copy of the arguments.
 *
 * Layer: api (calls coll/).
 */
#include "config.h"

#include "coll/neighbor/neighbor.h"
#include "api/api_coll_post.h"
#include "api/api_topo.h"
#include "runtime/datatype/datatype.h"

#include <stdint.h>
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

/* One side in the w form: per neighbour a count, a byte displacement and a type. */
struct neighbor_blocks {
    int *counts;
    MPI_Aint *displs;
    struct comm_datatype **dts;
};

static void neighbor_blocks_free(struct neighbor_blocks *b)
{
    free(b->counts);
    free(b->displs);
    free(b->dts);
}

/* Fills B (allocated here; neighbor_blocks_free) for DEGREE neighbours from A. */
static int neighbor_side(const char *func, const char *what, struct comm_communicator *c,
                         enum neighbor_layout layout, const struct neighbor_args *a, int degree,
                         struct neighbor_blocks *b)
{
    size_t n = (size_t)(degree > 0 ? degree : 1);
    int err = MPI_SUCCESS;

    b->counts = calloc(n, sizeof(*b->counts));
    b->displs = calloc(n, sizeof(*b->displs));
    b->dts = calloc(n, sizeof(*b->dts));
    if (b->counts == NULL || b->displs == NULL || b->dts == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    if (degree > 0 && layout >= NEIGHBOR_V &&
        (a->counts == NULL || (layout == NEIGHBOR_V ? a->displs == NULL : a->bdispls == NULL) ||
         (layout == NEIGHBOR_W && a->types == NULL))) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: a %s count, displacement or type array is NULL",
                              func, what);
    }
    for (int j = 0; j < degree && err == MPI_SUCCESS; j++) {
        b->counts[j] = layout >= NEIGHBOR_V ? a->counts[j] : a->count;
        if (b->counts[j] < 0) {
            return comm_api_error(c, MPI_ERR_COUNT, "%s: invalid %scount %d for neighbour %d", func,
                                  what, b->counts[j], j);
        }
        if (j > 0 && layout != NEIGHBOR_W) {
            b->dts[j] = b->dts[0]; /* one type: checked once */
        } else {
            err = comm_api_check_datatype(func, c, layout == NEIGHBOR_W ? a->types[j] : a->type,
                                          &b->dts[j]);
        }
        switch (layout) {
        case NEIGHBOR_ONE:
            b->displs[j] = 0;
            break;
        case NEIGHBOR_BLOCKS:
            b->displs[j] = (MPI_Aint)j * a->count * (err == MPI_SUCCESS ? b->dts[j]->extent : 0);
            break;
        case NEIGHBOR_V:
            b->displs[j] = (MPI_Aint)a->displs[j] * (err == MPI_SUCCESS ? b->dts[j]->extent : 0);
            break;
        case NEIGHBOR_W:
            b->displs[j] = a->bdispls[j];
            break;
        }
    }
    if (err == MPI_SUCCESS && degree > 0 && a->buf == MPI_IN_PLACE) {
        err = comm_api_error(c, MPI_ERR_BUFFER,
                             "%s: MPI_IN_PLACE is not allowed in neighbourhood collectives", func);
    }
    return err;
}

/* The builder of all ten (and their persistent forms): A in the w form, over the topology of
 * the schedule's communicator (which a request holds as long as it lives). */
static int neighbor_build(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    const struct comm_proc_topo *t = comm_coll_sched_comm(s)->proc_topo;
    const struct comm_coll_neighbor_side send = {.buf = a->sbuf,
                                                 .degree = a->nsend,
                                                 .ranks = t->out,
                                                 .counts = a->scounts,
                                                 .displs = a->sbdispls,
                                                 .dts = a->sdts};
    const struct comm_coll_neighbor_side recv = {.buf = a->rbuf,
                                                 .degree = a->nrecv,
                                                 .ranks = t->in,
                                                 .counts = a->rcounts,
                                                 .displs = a->rbdispls,
                                                 .dts = a->rdts};

    return comm_coll_ineighbor(s, &send, &recv, t->kind == COMM_PROC_TOPO_CART);
}

/* Checks the arguments of FUNC and runs it in FORM (REQUEST: the nonblocking and persistent
 * forms' request; INFO: the persistent form's). */
static int neighbor_run(const char *func, enum neighbor_layout slayout,
                        const struct neighbor_args *sa, enum neighbor_layout rlayout,
                        const struct neighbor_args *ra, MPI_Comm comm, enum comm_api_coll_form form,
                        MPI_Info info, MPI_Request *request)
{
    struct neighbor_blocks send = {0}, recv = {0};
    struct comm_communicator *c;
    const struct comm_proc_topo *t;
    int err = comm_api_topo_enter(func, comm, 0, &c);

    if (err == MPI_SUCCESS && form != COMM_API_COLL_BLOCKING) {
        err = comm_api_check_request_out(func, c, request);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    t = c->proc_topo;
    err = neighbor_side(func, "send", c, slayout, sa, t->outdegree, &send);
    if (err == MPI_SUCCESS) {
        err = neighbor_side(func, "recv", c, rlayout, ra, t->indegree, &recv);
    }
    if (err == MPI_SUCCESS) {
        const struct comm_coll_args args = {.sbuf = sa->buf,
                                            .rbuf = (void *)(uintptr_t)ra->buf,
                                            .scounts = send.counts,
                                            .sbdispls = send.displs,
                                            .sdts = send.dts,
                                            .nsend = t->outdegree,
                                            .rcounts = recv.counts,
                                            .rbdispls = recv.displs,
                                            .rdts = recv.dts,
                                            .nrecv = t->indegree};

        err = comm_api_coll_post(func, c, neighbor_build, &args, form, info, request);
    }
    neighbor_blocks_free(&send);
    neighbor_blocks_free(&recv);
    return err;
}

static int neighbor_allgather(const char *func, const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, enum comm_api_coll_form form,
                              MPI_Info info, MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_ONE,
        &(struct neighbor_args){.buf = sendbuf, .count = sendcount, .type = sendtype},
        NEIGHBOR_BLOCKS,
        &(struct neighbor_args){.buf = recvbuf, .count = recvcount, .type = recvtype}, comm, form,
        info, request);
}

static int neighbor_allgatherv(const char *func, const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                               const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                               enum comm_api_coll_form form, MPI_Info info, MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_ONE,
        &(struct neighbor_args){.buf = sendbuf, .count = sendcount, .type = sendtype}, NEIGHBOR_V,
        &(struct neighbor_args){
            .buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype},
        comm, form, info, request);
}

static int neighbor_alltoall(const char *func, const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm, enum comm_api_coll_form form,
                             MPI_Info info, MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_BLOCKS,
        &(struct neighbor_args){.buf = sendbuf, .count = sendcount, .type = sendtype},
        NEIGHBOR_BLOCKS,
        &(struct neighbor_args){.buf = recvbuf, .count = recvcount, .type = recvtype}, comm, form,
        info, request);
}

static int neighbor_alltoallv(const char *func, const void *sendbuf, const int sendcounts[],
                              const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm, enum comm_api_coll_form form, MPI_Info info,
                              MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_V,
        &(struct neighbor_args){
            .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .type = sendtype},
        NEIGHBOR_V,
        &(struct neighbor_args){
            .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .type = recvtype},
        comm, form, info, request);
}

static int neighbor_alltoallw(const char *func, const void *sendbuf, const int sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm,
                              enum comm_api_coll_form form, MPI_Info info, MPI_Request *request)
{
    return neighbor_run(
        func, NEIGHBOR_W,
        &(struct neighbor_args){
            .buf = sendbuf, .counts = sendcounts, .bdispls = sdispls, .types = sendtypes},
        NEIGHBOR_W,
        &(struct neighbor_args){
            .buf = recvbuf, .counts = recvcounts, .bdispls = rdispls, .types = recvtypes},
        comm, form, info, request);
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, recvtype, comm, COMM_API_COLL_BLOCKING, MPI_INFO_NULL,
                              NULL);
}
COMM_API_ALIAS(MPI_Neighbor_allgather);

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return neighbor_allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, recvtype, comm, COMM_API_COLL_NONBLOCKING, MPI_INFO_NULL,
                              request);
}
COMM_API_ALIAS(MPI_Ineighbor_allgather);

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                               recvcounts, displs, recvtype, comm, COMM_API_COLL_BLOCKING,
                               MPI_INFO_NULL, NULL);
}
COMM_API_ALIAS(MPI_Neighbor_allgatherv);

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return neighbor_allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                               recvcounts, displs, recvtype, comm, COMM_API_COLL_NONBLOCKING,
                               MPI_INFO_NULL, request);
}
COMM_API_ALIAS(MPI_Ineighbor_allgatherv);

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoall("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, COMM_API_COLL_BLOCKING, MPI_INFO_NULL,
                             NULL);
}
COMM_API_ALIAS(MPI_Neighbor_alltoall);

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return neighbor_alltoall("MPI_Ineighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, COMM_API_COLL_NONBLOCKING, MPI_INFO_NULL,
                             request);
}
COMM_API_ALIAS(MPI_Ineighbor_alltoall);

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoallv("MPI_Neighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype,
                              recvbuf, recvcounts, rdispls, recvtype, comm, COMM_API_COLL_BLOCKING,
                              MPI_INFO_NULL, NULL);
}
COMM_API_ALIAS(MPI_Neighbor_alltoallv);

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return neighbor_alltoallv("MPI_Ineighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype,
                              recvbuf, recvcounts, rdispls, recvtype, comm,
                              COMM_API_COLL_NONBLOCKING, MPI_INFO_NULL, request);
}
COMM_API_ALIAS(MPI_Ineighbor_alltoallv);

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return neighbor_alltoallw("MPI_Neighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes,
                              recvbuf, recvcounts, rdispls, recvtypes, comm, COMM_API_COLL_BLOCKING,
                              MPI_INFO_NULL, NULL);
}
COMM_API_ALIAS(MPI_Neighbor_alltoallw);

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request *request)
{
    return neighbor_alltoallw("MPI_Ineighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes,
                              recvbuf, recvcounts, rdispls, recvtypes, comm,
                              COMM_API_COLL_NONBLOCKING, MPI_INFO_NULL, request);
}
COMM_API_ALIAS(MPI_Ineighbor_alltoallw);

/* MPI 4.0's persistent forms: the same checks and builder, run at every MPI_Start. */
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    return neighbor_allgather("MPI_Neighbor_allgather_init", sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, recvtype, comm, COMM_API_COLL_PERSISTENT, info, request);
}
COMM_API_ALIAS(MPI_Neighbor_allgather_init);

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    return neighbor_allgatherv("MPI_Neighbor_allgatherv_init", sendbuf, sendcount, sendtype,
                               recvbuf, recvcounts, displs, recvtype, comm,
                               COMM_API_COLL_PERSISTENT, info, request);
}
COMM_API_ALIAS(MPI_Neighbor_allgatherv_init);

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request)
{
    return neighbor_alltoall("MPI_Neighbor_alltoall_init", sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, COMM_API_COLL_PERSISTENT, info, request);
}
COMM_API_ALIAS(MPI_Neighbor_alltoall_init);

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    return neighbor_alltoallv("MPI_Neighbor_alltoallv_init", sendbuf, sendcounts, sdispls, sendtype,
                              recvbuf, recvcounts, rdispls, recvtype, comm,
                              COMM_API_COLL_PERSISTENT, info, request);
}
COMM_API_ALIAS(MPI_Neighbor_alltoallv_init);

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    return neighbor_alltoallw("MPI_Neighbor_alltoallw_init", sendbuf, sendcounts, sdispls,
                              sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                              COMM_API_COLL_PERSISTENT, info, request);
}
COMM_API_ALIAS(MPI_Neighbor_alltoallw_init);
