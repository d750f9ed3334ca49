/*
 * nbc.h - nonblocking collectives: each adds its rounds to a schedule (coll/coll_sched.h).
 *
 * Layer: coll.
 *
 * One file per operation.  The builders follow the blocking algorithms' conventions
 * (coll/coll.h): a NULL send buffer is MPI_IN_PLACE where the operation has it (gather at the
 * root, allgather, alltoall), a NULL receive buffer is MPI_IN_PLACE for scatter at the root,
 * and for reductions the API passes the receive buffer as the send buffer.  Counts are
 * already checked; each returns MPI_SUCCESS or MPI_ERR_NO_MEM.  nbc_build.c turns a call's
 * arguments (struct comm_coll_args) into the right builder, which is what the API, the
 * blocking intercommunicator calls and the persistent collectives use.
 *
 * Algorithms: barrier by dissemination, bcast by binomial tree, reduce by binomial tree (in
 * rank order for non-commutative operations), allreduce as reduce then bcast, direct
 * exchanges for gather(v), scatter(v), allgather(v) and alltoall(v,w) (every message posted
 * at once), reduce-scatter as reduce to rank 0 then scatterv, and scan/exscan by recursive
 * doubling (in rank order for every operation).
 * Barrier, bcast and allreduce run over the communicator's hierarchy where the blocking call
 * would (coll/hier/hier.h).
 */
#ifndef COMM_COLL_NBC_H
#define COMM_COLL_NBC_H

#include "coll/coll_sched.h"

#include <stdint.h>

int comm_coll_ibarrier(struct comm_coll_sched *s);
int comm_coll_ibcast(struct comm_coll_sched *s, void *buf, MPI_Count count,
                     struct comm_datatype *dt, int root);
int comm_coll_ireduce(struct comm_coll_sched *s, const void *sbuf, void *rbuf, MPI_Count count,
                      struct comm_datatype *dt, struct comm_op *op, int root);
int comm_coll_iallreduce(struct comm_coll_sched *s, const void *sbuf, void *rbuf, MPI_Count count,
                         struct comm_datatype *dt, struct comm_op *op);

/*
 * The arguments of one collective call, as every builder below and the persistent
 * collectives (coll/coll_persist.h) keep them.  Unused fields are zero.
 *
 * Blocks: with no arrays, block r is SCOUNT (RCOUNT) elements of SDT (RDT) at r times that
 * much; with SCOUNTS and SDISPLS (the v forms), SCOUNTS[r] elements at SDISPLS[r] elements;
 * with SCOUNTS, SBDISPLS and SDTS (the w form), SCOUNTS[r] elements of SDTS[r] at SBDISPLS[r]
 * bytes.  The receive side likewise.  NSEND and NRECV are how many entries the arrays have
 * (what a copy of them must take).  A NULL SBUF is MPI_IN_PLACE where the operation has it
 * (for reductions the caller passes RBUF instead, as the blocking calls do).
 */
struct comm_coll_args {
    const void *sbuf;
    void *rbuf;
    MPI_Count scount, rcount;
    struct comm_datatype *sdt, *rdt;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    const MPI_Aint *sbdispls, *rbdispls;
    struct comm_datatype *const *sdts, *const *rdts;
    int nsend, nrecv;
    struct comm_op *op;
    int root;
};

/* Adds one collective's rounds to S from A: MPI_SUCCESS or MPI_ERR_NO_MEM. */
typedef int (*comm_coll_build_fn)(struct comm_coll_sched *s, const struct comm_coll_args *a);

/*
 * The builders, one per operation; each serves intra- and intercommunicators (the schedule's
 * communicator decides; coll/inter/inter.h).  Gather, scatter, allgather and alltoall take
 * every block layout above; reduce-scatter takes RCOUNTS (or RCOUNT for the block form).
 */
int comm_coll_build_barrier(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_bcast(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_reduce(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_allreduce(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_gather(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_scatter(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_allgather(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_alltoall(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_reduce_scatter(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_scan(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_build_exscan(struct comm_coll_sched *s, const struct comm_coll_args *a);

/* The intracommunicator schedules of the operations with blocks (igatherv.c, ialltoallw.c),
 * the reduce-scatter (ireduce_scatter.c) and the prefix reductions (iscan.c). */
int comm_coll_igatherv(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_iscatterv(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_iallgatherv(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_ialltoallw(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_ireduce_scatter(struct comm_coll_sched *s, const struct comm_coll_args *a);
/* Scatters FROM (the whole vector, at rank 0) by A's receive blocks (RCOUNTS or RCOUNT)
 * into A's RBUF. */
int comm_coll_ireduce_scatter_spread(struct comm_coll_sched *s, const void *from,
                                     const struct comm_coll_args *a);
int comm_coll_iscan(struct comm_coll_sched *s, const void *sbuf, void *rbuf, MPI_Count count,
                    struct comm_datatype *dt, struct comm_op *op, bool exclusive);

/* The hierarchical schedules (ihier.c), which the builders above take when the blocking
 * collective of the same call would run "hier". */
int comm_coll_ibarrier_hier(struct comm_coll_sched *s);
int comm_coll_ibcast_hier(struct comm_coll_sched *s, void *buf, MPI_Count count,
                          struct comm_datatype *dt, int root);
int comm_coll_iallreduce_hier(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                              MPI_Count count, struct comm_datatype *dt, struct comm_op *op);

/* The address of block I of COUNT elements of DT from BUF. */
static inline void *comm_coll_block(const void *buf, int i, MPI_Count count, MPI_Aint extent)
{
    return (char *)(uintptr_t)buf + (MPI_Aint)i * count * extent;
}

/* Block R of A's send (receive) side: its count, its datatype and its address. */
MPI_Count comm_coll_args_scount(const struct comm_coll_args *a, int r);
struct comm_datatype *comm_coll_args_sdt(const struct comm_coll_args *a, int r);
const void *comm_coll_args_sblock(const struct comm_coll_args *a, int r);
MPI_Count comm_coll_args_rcount(const struct comm_coll_args *a, int r);
struct comm_datatype *comm_coll_args_rdt(const struct comm_coll_args *a, int r);
void *comm_coll_args_rblock(const struct comm_coll_args *a, int r);

#endif
