/*
 * inter.h - collectives on intercommunicators: MPI_Barrier, MPI_Bcast and MPI_Allreduce.
 *
 * Layer: coll.
 *
 * Each group works on its local intracommunicator (comm->local_comm) with the algorithms the
 * selector picks there; the groups meet through their rank 0s, who exchange on the
 * intercommunicator's collective context.
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

#endif
