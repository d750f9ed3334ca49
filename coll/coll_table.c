/*
 * coll_table.c - the tables a communicator gets when it is made (runtime/comm/coll_table.h):
 * each entry describes its call for the selector (message size, operation, plain or v form),
 * runs the algorithm chosen, and is all the API and the core ever call.
 *
 * Layer: coll, the top of it.  Must not: check MPI arguments (the API did); be named by the
 * algorithms (those that run others go through the communicator's table).
 *
 * The bytes a call is chosen by are those the API gave the selector before the table existed:
 * one rank's block for the plain forms (at a rooted call's root, a block of the root's side),
 * 0 for the v and w forms; a reduce-scatter is plain when every rank gets as many elements.
 */
#include "config.h"

#include "coll/coll.h"
#include "coll/inter/inter.h"
#include "base/error.h"
#include "base/log.h"
#include "runtime/datatype/datatype.h"

/* ---- intracommunicators ----------------------------------------------------------------- */

static size_t table_bytes(MPI_Count count, const struct comm_datatype *dt)
{
    return (size_t)count * (size_t)dt->size;
}

/* A rooted plain call's block: the root's side at the root (the receive block of a gather, the
 * send block of a scatter, ROOT_COUNT elements of ROOT_DT), else this rank's own. */
static size_t table_rooted_bytes(const struct comm_communicator *comm, int root, MPI_Count count,
                                 const struct comm_datatype *dt, MPI_Count root_count,
                                 const struct comm_datatype *root_dt)
{
    if (dt == NULL || (comm->rank == root && root_dt != NULL)) {
        return root_dt == NULL ? 0 : table_bytes(root_count, root_dt);
    }
    return table_bytes(count, dt);
}

static int table_barrier(struct comm_communicator *comm)
{
    return comm_coll_select(COMM_COLL_BARRIER, &(struct comm_coll_call){.comm = comm})
        ->fn.barrier(comm);
}

static int table_bcast(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                       struct comm_communicator *comm)
{
    const struct comm_coll_call call = {
        .comm = comm, .bytes = table_bytes(count, dt), .uniform = true};

    return comm_coll_select(COMM_COLL_BCAST, &call)->fn.bcast(buf, count, dt, root, comm);
}

static int table_reduce(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                        struct comm_op *op, int root, struct comm_communicator *comm)
{
    const struct comm_coll_call call = {
        .comm = comm, .bytes = table_bytes(count, dt), .op = op, .uniform = true};

    return comm_coll_select(COMM_COLL_REDUCE, &call)
        ->fn.reduce(sbuf, rbuf, count, dt, op, root, comm);
}

static int table_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                           struct comm_datatype *dt, struct comm_op *op,
                           struct comm_communicator *comm)
{
    const struct comm_coll_call call = {
        .comm = comm, .bytes = table_bytes(count, dt), .op = op, .uniform = true};

    return comm_coll_select(COMM_COLL_ALLREDUCE, &call)
        ->fn.allreduce(sbuf, rbuf, count, dt, op, comm);
}

static int table_gather_as(bool plain, const void *sbuf, MPI_Count scount,
                           struct comm_datatype *sdt, void *rbuf, const int *rcounts,
                           const int *displs, struct comm_datatype *rdt, int root,
                           struct comm_communicator *comm)
{
    const struct comm_coll_call call = {
        .comm = comm,
        .uniform = plain,
        .bytes = plain ? table_rooted_bytes(comm, root, scount, sdt,
                                            rcounts != NULL ? rcounts[0] : 0, rdt)
                       : 0};
    const struct comm_coll_algorithm *a = comm_coll_select(COMM_COLL_GATHER, &call);

    return (!plain && a->fn_v.gatherv != NULL ? a->fn_v.gatherv : a->fn.gatherv)(
        sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm);
}

static int table_gather(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt, void *rbuf,
                        const int *rcounts, const int *displs, struct comm_datatype *rdt, int root,
                        struct comm_communicator *comm)
{
    return table_gather_as(true, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm);
}

static int table_gatherv(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt, void *rbuf,
                         const int *rcounts, const int *displs, struct comm_datatype *rdt,
                         int root, struct comm_communicator *comm)
{
    return table_gather_as(false, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm);
}

static int table_scatter_as(bool plain, const void *sbuf, const int *scounts, const int *displs,
                            struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                            struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    const struct comm_coll_call call = {
        .comm = comm,
        .uniform = plain,
        .bytes = plain ? table_rooted_bytes(comm, root, rcount, rdt,
                                            scounts != NULL ? scounts[0] : 0, sdt)
                       : 0};
    const struct comm_coll_algorithm *a = comm_coll_select(COMM_COLL_SCATTER, &call);

    return (!plain && a->fn_v.scatterv != NULL ? a->fn_v.scatterv : a->fn.scatterv)(
        sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm);
}

static int table_scatter(const void *sbuf, const int *scounts, const int *displs,
                         struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                         struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    return table_scatter_as(true, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm);
}

static int table_scatterv(const void *sbuf, const int *scounts, const int *displs,
                          struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                          struct comm_datatype *rdt, int root, struct comm_communicator *comm)
{
    return table_scatter_as(false, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm);
}

static int table_allgather_as(bool plain, const void *sbuf, MPI_Count scount,
                              struct comm_datatype *sdt, void *rbuf, const int *rcounts,
                              const int *displs, struct comm_datatype *rdt,
                              struct comm_communicator *comm)
{
    const struct comm_coll_call call = {
        .comm = comm, .uniform = plain, .bytes = plain ? table_bytes(rcounts[0], rdt) : 0};

    return comm_coll_select(COMM_COLL_ALLGATHER, &call)
        ->fn.allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm);
}

static int table_allgather(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                           void *rbuf, const int *rcounts, const int *displs,
                           struct comm_datatype *rdt, struct comm_communicator *comm)
{
    return table_allgather_as(true, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm);
}

static int table_allgatherv(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                            void *rbuf, const int *rcounts, const int *displs,
                            struct comm_datatype *rdt, struct comm_communicator *comm)
{
    return table_allgather_as(false, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm);
}

static int table_alltoall_as(bool plain, const void *sbuf, const int *scounts,
                             const MPI_Aint *sdispls, struct comm_datatype *const *sdts,
                             void *rbuf, const int *rcounts, const MPI_Aint *rdispls,
                             struct comm_datatype *const *rdts, struct comm_communicator *comm)
{
    const struct comm_coll_call call = {
        .comm = comm, .uniform = plain, .bytes = plain ? table_bytes(rcounts[0], rdts[0]) : 0};

    return comm_coll_select(COMM_COLL_ALLTOALL, &call)
        ->fn.alltoallw(sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, comm);
}

static int table_alltoall(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                          struct comm_datatype *const *sdts, void *rbuf, const int *rcounts,
                          const MPI_Aint *rdispls, struct comm_datatype *const *rdts,
                          struct comm_communicator *comm)
{
    return table_alltoall_as(true, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts,
                             comm);
}

static int table_alltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                           struct comm_datatype *const *sdts, void *rbuf, const int *rcounts,
                           const MPI_Aint *rdispls, struct comm_datatype *const *rdts,
                           struct comm_communicator *comm)
{
    return table_alltoall_as(false, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts,
                             comm);
}

static int table_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                struct comm_datatype *dt, struct comm_op *op,
                                struct comm_communicator *comm)
{
    MPI_Count total = 0;
    bool uniform = true;

    /* Every rank passes the same counts, so all see the same call. */
    for (int r = 0; r < comm->size; r++) {
        total += rcounts[r];
        uniform = uniform && rcounts[r] == rcounts[0];
    }
    return comm_coll_select(COMM_COLL_REDUCE_SCATTER,
                            &(struct comm_coll_call){.comm = comm,
                                                     .bytes = table_bytes(total, dt),
                                                     .op = op,
                                                     .uniform = uniform})
        ->fn.reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
}

static int table_scan(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                      struct comm_op *op, bool exclusive, struct comm_communicator *comm)
{
    const struct comm_coll_call call = {
        .comm = comm, .bytes = table_bytes(count, dt), .op = op, .uniform = true};

    return comm_coll_select(COMM_COLL_SCAN, &call)
        ->fn.scan(sbuf, rbuf, count, dt, op, exclusive, comm);
}

static const struct comm_coll_table coll_intra_table = {
    .barrier = table_barrier,
    .bcast = table_bcast,
    .reduce = table_reduce,
    .allreduce = table_allreduce,
    .gather = table_gather,
    .gatherv = table_gatherv,
    .scatter = table_scatter,
    .scatterv = table_scatterv,
    .allgather = table_allgather,
    .allgatherv = table_allgatherv,
    .alltoall = table_alltoall,
    .alltoallw = table_alltoallw,
    .reduce_scatter = table_reduce_scatter,
    .scan = table_scan,
};

/* ---- intercommunicators ----------------------------------------------------------------- */

/* The entries an intercommunicator's table refuses: the API runs those collectives as
 * schedules (coll/nbc), in every form. */
static int table_inter_refused(const char *op)
{
    comm_log_error("coll", "%s on an intercommunicator runs as a schedule, not from its table",
                   op);
    return MPI_ERR_INTERN;
}

static int table_inter_reduce(const void *sbuf, void *rbuf, MPI_Count count,
                              struct comm_datatype *dt, struct comm_op *op, int root,
                              struct comm_communicator *comm)
{
    (void)sbuf;
    (void)rbuf;
    (void)count;
    (void)dt;
    (void)op;
    (void)root;
    (void)comm;
    return table_inter_refused("reduce");
}

static int table_inter_gatherv(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                               void *rbuf, const int *rcounts, const int *displs,
                               struct comm_datatype *rdt, int root,
                               struct comm_communicator *comm)
{
    (void)sbuf;
    (void)scount;
    (void)sdt;
    (void)rbuf;
    (void)rcounts;
    (void)displs;
    (void)rdt;
    (void)root;
    (void)comm;
    return table_inter_refused("gather");
}

static int table_inter_scatterv(const void *sbuf, const int *scounts, const int *displs,
                                struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                                struct comm_datatype *rdt, int root,
                                struct comm_communicator *comm)
{
    (void)sbuf;
    (void)scounts;
    (void)displs;
    (void)sdt;
    (void)rbuf;
    (void)rcount;
    (void)rdt;
    (void)root;
    (void)comm;
    return table_inter_refused("scatter");
}

static int table_inter_allgatherv(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                                  void *rbuf, const int *rcounts, const int *displs,
                                  struct comm_datatype *rdt, struct comm_communicator *comm)
{
    (void)sbuf;
    (void)scount;
    (void)sdt;
    (void)rbuf;
    (void)rcounts;
    (void)displs;
    (void)rdt;
    (void)comm;
    return table_inter_refused("allgather");
}

static int table_inter_alltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                                 struct comm_datatype *const *sdts, void *rbuf,
                                 const int *rcounts, const MPI_Aint *rdispls,
                                 struct comm_datatype *const *rdts,
                                 struct comm_communicator *comm)
{
    (void)sbuf;
    (void)scounts;
    (void)sdispls;
    (void)sdts;
    (void)rbuf;
    (void)rcounts;
    (void)rdispls;
    (void)rdts;
    (void)comm;
    return table_inter_refused("alltoall");
}

static int table_inter_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                      struct comm_datatype *dt, struct comm_op *op,
                                      struct comm_communicator *comm)
{
    (void)sbuf;
    (void)rbuf;
    (void)rcounts;
    (void)dt;
    (void)op;
    (void)comm;
    return table_inter_refused("reduce_scatter");
}

static int table_inter_scan(const void *sbuf, void *rbuf, MPI_Count count,
                            struct comm_datatype *dt, struct comm_op *op, bool exclusive,
                            struct comm_communicator *comm)
{
    (void)sbuf;
    (void)rbuf;
    (void)count;
    (void)dt;
    (void)op;
    (void)exclusive;
    (void)comm;
    return table_inter_refused("scan");
}

static const struct comm_coll_table coll_inter_table = {
    .barrier = comm_coll_inter_barrier,
    .bcast = comm_coll_inter_bcast,
    .reduce = table_inter_reduce,
    .allreduce = comm_coll_inter_allreduce,
    .gather = table_inter_gatherv,
    .gatherv = table_inter_gatherv,
    .scatter = table_inter_scatterv,
    .scatterv = table_inter_scatterv,
    .allgather = table_inter_allgatherv,
    .allgatherv = table_inter_allgatherv,
    .alltoall = table_inter_alltoallw,
    .alltoallw = table_inter_alltoallw,
    .reduce_scatter = table_inter_reduce_scatter,
    .scan = table_inter_scan,
};

int comm_coll_attach(struct comm_communicator *comm)
{
    comm->coll = comm->inter ? &coll_inter_table : &coll_intra_table;
    comm->coll_forced = 0;
    for (int f = 0; f < COMM_COLL_NFAMILIES; f++) {
        if (comm_coll_forced((enum comm_coll_family)f) != NULL) {
            comm->coll_forced |= 1u << f;
        }
    }
    return COMM_OK;
}
