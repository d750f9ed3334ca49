/*
 * nbc.h - nonblocking collectives: each adds its rounds to a schedule (coll/coll_sched.h).
 *
 * Layer: coll.
 *
 * One file per operation.  The builders follow the blocking algorithms' conventions
 * (coll/coll.h): a NULL send buffer is MPI_IN_PLACE where the operation has it (gather at the
 * root, allgather, alltoall), a NULL receive buffer is MPI_IN_PLACE for scatter at the root,
 * and for reductions the API passes the receive buffer as the send buffer.  Counts are
 * already checked; each returns MPI_SUCCESS or MPI_ERR_NO_MEM.
 *
 * Algorithms: barrier by dissemination, bcast by binomial tree, reduce by binomial tree (in
 * rank order for non-commutative operations), allreduce as reduce then bcast, and direct
 * exchanges for gather, scatter, allgather and alltoall (every message posted at once).
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
int comm_coll_igather(struct comm_coll_sched *s, const void *sbuf, MPI_Count scount,
                      struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                      struct comm_datatype *rdt, int root);
int comm_coll_iscatter(struct comm_coll_sched *s, const void *sbuf, MPI_Count scount,
                       struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                       struct comm_datatype *rdt, int root);
int comm_coll_iallgather(struct comm_coll_sched *s, const void *sbuf, MPI_Count scount,
                         struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                         struct comm_datatype *rdt);
int comm_coll_ialltoall(struct comm_coll_sched *s, const void *sbuf, MPI_Count scount,
                        struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                        struct comm_datatype *rdt);

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

#endif
