/*
 * coll_table.h - a communicator's collectives as the layers below and beside coll/ see them:
 * one table of operations, which the collective layer fills when the communicator is made.
 *
 * Layer: runtime core (the contract; coll/coll_table.c implements it).
 * Must not: name an algorithm; the core never calls coll/ by name.
 *
 * Life cycle: comm_runtime_init is given the collective layer's attach function; every
 * communicator the core makes (the predefined ones, comm_communicator_create and _create_stage,
 * and again when comm_communicator_make_inter turns one into an intercommunicator) is handed
 * to it before the maker returns, and it sets comm->coll.  The table is constant and shared:
 * each entry chooses its algorithm for the call (communicator, message size, operation; see
 * coll/coll.h), so the API and the core only call comm->coll->allreduce(...).
 *
 * Entries: the signatures below, the same as the algorithms'.  The arguments are checked (by the
 * API, or by the core for its own agreements); count 0 and one-rank communicators are the
 * caller's to skip where the standard lets it.  The plain forms (gather, scatter, allgather,
 * alltoall) take the v form's arrays with equal blocks: the entry knows every member sees the
 * same sizes.  On an intercommunicator barrier, bcast and allreduce run between the groups;
 * the other entries of its table refuse (MPI_ERR_INTERN): the API runs those as schedules.
 * Returns: MPI_SUCCESS or an MPI error code, which the caller raises.
 * Threads: as coll/coll.h says (no lock held; one thread per communicator at a time).
 */
#ifndef COMM_COLL_TABLE_H
#define COMM_COLL_TABLE_H

#include <stdbool.h>

#include "include/mpi.h"

struct comm_communicator;
struct comm_datatype;
struct comm_op;

typedef int (*comm_coll_barrier_fn)(struct comm_communicator *comm);
typedef int (*comm_coll_bcast_fn)(void *buf, MPI_Count count, struct comm_datatype *dt,
                                  int root, struct comm_communicator *comm);
typedef int (*comm_coll_reduce_fn)(const void *sbuf, void *rbuf, MPI_Count count,
                                   struct comm_datatype *dt, struct comm_op *op, int root,
                                   struct comm_communicator *comm);
typedef int (*comm_coll_allreduce_fn)(const void *sbuf, void *rbuf, MPI_Count count,
                                      struct comm_datatype *dt, struct comm_op *op,
                                      struct comm_communicator *comm);

/* Rooted and all-to-all gathers and scatters take per-rank counts and displacements (in
 * elements of the receive or send type); the plain forms pass equal counts.  A NULL send
 * buffer at the root of a gather (or receive buffer at the root of a scatter) means
 * MPI_IN_PLACE: the root's block is already where it belongs. */
typedef int (*comm_coll_gatherv_fn)(const void *sbuf, MPI_Count scount,
                                    struct comm_datatype *sdt, void *rbuf, const int *rcounts,
                                    const int *displs, struct comm_datatype *rdt, int root,
                                    struct comm_communicator *comm);
typedef int (*comm_coll_scatterv_fn)(const void *sbuf, const int *scounts, const int *displs,
                                     struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                                     struct comm_datatype *rdt, int root,
                                     struct comm_communicator *comm);
/* Allgather: a NULL send buffer means MPI_IN_PLACE (every rank's block is in rbuf). */
typedef int (*comm_coll_allgatherv_fn)(const void *sbuf, MPI_Count scount,
                                       struct comm_datatype *sdt, void *rbuf,
                                       const int *rcounts, const int *displs,
                                       struct comm_datatype *rdt,
                                       struct comm_communicator *comm);

/* All-to-all in its most general form (MPI_Alltoallw): per-peer counts, byte displacements
 * and datatypes; a NULL send buffer means MPI_IN_PLACE (the receive arrays describe both). */
typedef int (*comm_coll_alltoallw_fn)(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                                      struct comm_datatype *const *sdts, void *rbuf,
                                      const int *rcounts, const MPI_Aint *rdispls,
                                      struct comm_datatype *const *rdts,
                                      struct comm_communicator *comm);

/* Reduce-scatter: rank r gets element block r (rcounts[r] elements) of the reduction of every
 * rank's sbuf (the sum of rcounts elements); sbuf may equal rbuf (MPI_IN_PLACE: the input is
 * the whole of rbuf and the result goes at its start). */
typedef int (*comm_coll_reduce_scatter_fn)(const void *sbuf, void *rbuf, const int *rcounts,
                                           struct comm_datatype *dt, struct comm_op *op,
                                           struct comm_communicator *comm);
/* Inclusive (MPI_Scan) or exclusive (MPI_Exscan) prefix reduction in rank order. */
typedef int (*comm_coll_scan_fn)(const void *sbuf, void *rbuf, MPI_Count count,
                                 struct comm_datatype *dt, struct comm_op *op, bool exclusive,
                                 struct comm_communicator *comm);

/* The table.  Fields may be appended; none is ever NULL. */
struct comm_coll_table {
    comm_coll_barrier_fn barrier;
    comm_coll_bcast_fn bcast;
    comm_coll_reduce_fn reduce;
    comm_coll_allreduce_fn allreduce;
    comm_coll_gatherv_fn gather; /* MPI_Gather: equal blocks */
    comm_coll_gatherv_fn gatherv;
    comm_coll_scatterv_fn scatter; /* MPI_Scatter: equal blocks */
    comm_coll_scatterv_fn scatterv;
    comm_coll_allgatherv_fn allgather; /* MPI_Allgather: equal blocks */
    comm_coll_allgatherv_fn allgatherv;
    comm_coll_alltoallw_fn alltoall; /* MPI_Alltoall: equal blocks of one type */
    comm_coll_alltoallw_fn alltoallw; /* the v and w forms */
    comm_coll_reduce_scatter_fn reduce_scatter; /* and _block */
    comm_coll_scan_fn scan;                     /* and MPI_Exscan */
};

/* Sets COMM->coll (and what the collective layer keeps with it) for a communicator the core has
 * just made, or made an intercommunicator.  Returns COMM_OK or a status (COMM_ERR_NOMEM). */
typedef int (*comm_coll_attach_fn)(struct comm_communicator *comm);

#endif
