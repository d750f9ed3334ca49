/*
 * inter.h - collectives on intercommunicators: blocking MPI_Barrier, MPI_Bcast and
 * MPI_Allreduce (inter.c), and the schedules of every collective the standard defines there
 * (inter_sched.c), which serve the nonblocking and persistent calls and the other blocking
 * ones.
 *
 * Layer: coll.
 *
 * Each group works on its local intracommunicator (comm->local_comm) with the algorithms the
 * selector picks there (the blocking calls) or the intracommunicator schedules (the others);
 * the groups meet through their rank 0s, who exchange on the intercommunicator's collective
 * context, or rank to rank where each rank's block goes to remote ranks.  A rooted call's ROOT
 * is MPI_ROOT at the root, MPI_PROC_NULL in the rest of its group, and the root's rank in the
 * other group.  The schedules are built on the intercommunicator; scan and exscan are not
 * defined there.
 */
#ifndef COMM_COLL_INTER_H
#define COMM_COLL_INTER_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_INTER = 11 };

/* No rank leaves before every rank of both groups has entered. */
int comm_coll_inter_barrier(struct comm_communicator *comm);

/* ROOT is MPI_ROOT at the root, MPI_PROC_NULL in the rest of its group, and the root's rank
 * in the other group, which receives BUF. */
int comm_coll_inter_bcast(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                          struct comm_communicator *comm);

/* Each group receives the reduction (in rank order) of the other group's SBUF. */
int comm_coll_inter_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                              struct comm_datatype *dt, struct comm_op *op,
                              struct comm_communicator *comm);

struct comm_coll_sched;
struct comm_coll_args;

/* Schedules (see coll/nbc/nbc.h for the arguments); MPI_SUCCESS or MPI_ERR_NO_MEM. */
int comm_coll_inter_ibarrier(struct comm_coll_sched *s);
int comm_coll_inter_ibcast(struct comm_coll_sched *s, void *buf, MPI_Count count,
                           struct comm_datatype *dt, int root);
/* At MPI_ROOT, RBUF receives the reduction (in rank order) of the other group's SBUF. */
int comm_coll_inter_ireduce(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                            MPI_Count count, struct comm_datatype *dt, struct comm_op *op,
                            int root);
int comm_coll_inter_iallreduce(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                               MPI_Count count, struct comm_datatype *dt, struct comm_op *op);
/* Each group's reduction is scattered over the other group by that group's receive blocks. */
int comm_coll_inter_ireduce_scatter(struct comm_coll_sched *s, const struct comm_coll_args *a);
/* Blocks are indexed by remote rank. */
int comm_coll_inter_igatherv(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_inter_iscatterv(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_inter_iallgatherv(struct comm_coll_sched *s, const struct comm_coll_args *a);
int comm_coll_inter_ialltoallw(struct comm_coll_sched *s, const struct comm_coll_args *a);

#endif
