/*
 * api_coll_alltoall.c - MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw, blocking, nonblocking and
 * persistent: all three become the w form (per-peer counts, byte displacements and datatypes)
 * for the communicator's collective table or the schedule (api_coll_post.h).
 *
 * Layer: api (calls coll/).
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "api/api.h"
#include "api/api_coll_post.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>

/* Communicators up to this size keep a side's arrays in the side itself (no allocation per
 * call for the short exchanges where it would show). */
enum { ALLTOALL_INLINE = 16 };

/* One side of an all-to-all, as the w form wants it.  Arrays are owned here: the inline ones,
 * or allocated for a larger communicator. */
struct alltoall_side {
    int *counts;
    MPI_Aint *displs;
    struct comm_datatype **dts;
    int counts_inline[ALLTOALL_INLINE];
    MPI_Aint displs_inline[ALLTOALL_INLINE];
    struct comm_datatype *dts_inline[ALLTOALL_INLINE];
};

static void alltoall_side_free(struct alltoall_side *side)
{
    if (side->counts != side->counts_inline) {
        free(side->counts);
        free(side->displs);
        free((void *)side->dts);
    }
}

/*
 * Fills SIDE for FUNC from either one count and type (COUNTS NULL), per-peer counts and
 * displacements in elements (TYPES NULL), or per-peer counts, byte displacements and types.
 */
static int alltoall_side(const char *func, const char *what, struct comm_communicator *comm,
                         int count, MPI_Datatype type, const int *counts, const int *displs,
                         const MPI_Aint *bdispls, const MPI_Datatype *types,
                         struct alltoall_side *side)
{
    int size = comm->inter ? comm->remote_size : comm->size, err = MPI_SUCCESS;

    if (size <= ALLTOALL_INLINE) {
        side->counts = side->counts_inline;
        side->displs = side->displs_inline;
        side->dts = side->dts_inline;
    } else {
        side->counts = malloc((size_t)size * sizeof(*side->counts));
        side->displs = malloc((size_t)size * sizeof(*side->displs));
        side->dts = malloc((size_t)size * sizeof(*side->dts));
    }
    if (side->counts == NULL || side->displs == NULL || side->dts == NULL) {
        return comm_api_error(comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    if (counts != NULL &&
        ((types == NULL && displs == NULL) || (types != NULL && bdispls == NULL))) {
        return comm_api_error(comm, MPI_ERR_ARG, "%s: %sdispls is NULL", func, what);
    }
    for (int r = 0; r < size; r++) {
        int c = counts != NULL ? counts[r] : count;

        if (c < 0) {
            return comm_api_error(comm, MPI_ERR_COUNT, "%s: invalid %scount %d for rank %d", func,
                                  what, c, r);
        }
        if (types == NULL && r > 0) {
            side->dts[r] = side->dts[0]; /* one type for every peer: checked once */
        } else {
            err =
                comm_api_check_datatype(func, comm, types != NULL ? types[r] : type, &side->dts[r]);
            if (err != MPI_SUCCESS) {
                break;
            }
        }
        side->counts[r] = c;
        if (counts == NULL) {
            side->displs[r] = (MPI_Aint)r * count * side->dts[r]->extent;
        } else if (types == NULL) {
            side->displs[r] = (MPI_Aint)displs[r] * side->dts[r]->extent;
        } else {
            side->displs[r] = bdispls[r];
        }
    }
    return err;
}

static int alltoall_run(const char *func, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        const int *sendcounts, const int *sdispls, const MPI_Aint *sbdispls,
                        const MPI_Datatype *sendtypes, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, const int *recvcounts, const int *rdispls,
                        const MPI_Aint *rbdispls, const MPI_Datatype *recvtypes, MPI_Comm comm,
                        MPI_Info info, enum comm_api_coll_form form, MPI_Request *request)
{
    struct comm_communicator *c;
    struct alltoall_side s = {0}, r = {0};
    bool in_place = sendbuf == MPI_IN_PLACE, plain = recvcounts == NULL;
    int err = comm_api_enter_comm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_api_check_inter_in_place(func, c, in_place);
    if (err == MPI_SUCCESS && !in_place) {
        err = alltoall_side(func, "send", c, sendcount, sendtype, sendcounts, sdispls, sbdispls,
                            sendtypes, &s);
    }
    if (err == MPI_SUCCESS) {
        err = alltoall_side(func, "recv", c, recvcount, recvtype, recvcounts, rdispls, rbdispls,
                            recvtypes, &r);
    }
    if (err == MPI_SUCCESS && (form != COMM_API_COLL_BLOCKING || c->inter)) {
        int n = c->inter ? c->remote_size : c->size;

        err = comm_api_coll_post(func, c, comm_coll_build_alltoall,
                                 &(struct comm_coll_args){.sbuf = in_place ? NULL : sendbuf,
                                                          .scounts = in_place ? NULL : s.counts,
                                                          .sbdispls = in_place ? NULL : s.displs,
                                                          .sdts = in_place ? NULL : s.dts,
                                                          .nsend = n,
                                                          .rbuf = recvbuf,
                                                          .rcounts = r.counts,
                                                          .rbdispls = r.displs,
                                                          .rdts = r.dts,
                                                          .nrecv = n},
                                 form, info, request);
    } else if (err == MPI_SUCCESS) {
        err = (plain ? c->coll->alltoall : c->coll->alltoallw)(
            in_place ? NULL : sendbuf, s.counts, s.displs, (struct comm_datatype *const *)s.dts,
            recvbuf, r.counts, r.displs, (struct comm_datatype *const *)r.dts, c);
        if (err != MPI_SUCCESS) {
            err = comm_api_error(c, err, "%s: the operation failed (see above)", func);
        }
    }
    alltoall_side_free(&s);
    alltoall_side_free(&r);
    return err;
}

static int alltoall_plain(const char *func, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          enum comm_api_coll_form form, MPI_Request *request)
{
    return alltoall_run(func, sendbuf, sendcount, sendtype, NULL, NULL, NULL, NULL, recvbuf,
                        recvcount, recvtype, NULL, NULL, NULL, NULL, comm, info, form, request);
}

static int alltoallv_run(const char *func, const void *sendbuf, const int *sendcounts,
                         const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                         const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, enum comm_api_coll_form form,
                         MPI_Request *request)
{
    if (recvcounts == NULL || (sendbuf != MPI_IN_PLACE && sendcounts == NULL)) {
        return comm_api_error(comm_communicator_lookup(comm), MPI_ERR_ARG, "%s: %s is NULL", func,
                              recvcounts == NULL ? "recvcounts" : "sendcounts");
    }
    return alltoall_run(func, sendbuf, 0, sendtype, sendcounts, sdispls, NULL, NULL, recvbuf, 0,
                        recvtype, recvcounts, rdispls, NULL, NULL, comm, info, form, request);
}

static int alltoallw_run(const char *func, const void *sendbuf, const int *sendcounts,
                         const int *sdispls, const MPI_Datatype *sendtypes, void *recvbuf,
                         const int *recvcounts, const int *rdispls, const MPI_Datatype *recvtypes,
                         MPI_Comm comm, MPI_Info info, enum comm_api_coll_form form,
                         MPI_Request *request)
{
    MPI_Aint *sb = NULL, *rb = NULL;
    struct comm_communicator *c = comm_communicator_lookup(comm);
    int size = c == NULL ? 0 : c->inter ? c->remote_size : c->size, err;

    if (recvcounts == NULL || recvtypes == NULL || rdispls == NULL ||
        (sendbuf != MPI_IN_PLACE && (sendcounts == NULL || sendtypes == NULL || sdispls == NULL))) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: a count, displacement or type array is NULL",
                              func);
    }
    /* MPI_Alltoallw's displacements are ints in bytes. */
    sb = malloc((size_t)(size ? size : 1) * sizeof(*sb));
    rb = malloc((size_t)(size ? size : 1) * sizeof(*rb));
    if (sb == NULL || rb == NULL) {
        free(sb);
        free(rb);
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    for (int r = 0; r < size; r++) {
        sb[r] = sendbuf != MPI_IN_PLACE ? sdispls[r] : 0;
        rb[r] = rdispls[r];
    }
    err = alltoall_run(func, sendbuf, 0, MPI_DATATYPE_NULL, sendcounts, NULL, sb, sendtypes,
                       recvbuf, 0, MPI_DATATYPE_NULL, recvcounts, NULL, rb, recvtypes, comm, info,
                       form, request);
    free(sb);
    free(rb);
    return err;
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_plain("MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Alltoall);

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoall_plain("MPI_Ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, MPI_INFO_NULL, COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Ialltoall);

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return alltoall_plain("MPI_Alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, info, COMM_API_COLL_PERSISTENT, request);
}
COMM_API_ALIAS(MPI_Alltoall_init);

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoallv_run("MPI_Alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, MPI_INFO_NULL, COMM_API_COLL_BLOCKING,
                         NULL);
}
COMM_API_ALIAS(MPI_Alltoallv);

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoallv_run("MPI_Ialltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, MPI_INFO_NULL,
                         COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Ialltoallv);

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return alltoallv_run("MPI_Alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, info, COMM_API_COLL_PERSISTENT,
                         request);
}
COMM_API_ALIAS(MPI_Alltoallv_init);

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw_run("MPI_Alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                         recvcounts, rdispls, recvtypes, comm, MPI_INFO_NULL,
                         COMM_API_COLL_BLOCKING, NULL);
}
COMM_API_ALIAS(MPI_Alltoallw);

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    return alltoallw_run("MPI_Ialltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                         recvcounts, rdispls, recvtypes, comm, MPI_INFO_NULL,
                         COMM_API_COLL_NONBLOCKING, request);
}
COMM_API_ALIAS(MPI_Ialltoallw);

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    return alltoallw_run("MPI_Alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                         recvcounts, rdispls, recvtypes, comm, info, COMM_API_COLL_PERSISTENT,
                         request);
}
COMM_API_ALIAS(MPI_Alltoallw_init);
