/*
 * reduce.h - reduce algorithms.
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_REDUCE_H
#define COMM_COLL_REDUCE_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_REDUCE = 3 };

int comm_coll_reduce_binomial(const void *sbuf, void *rbuf, MPI_Count count,
                              struct comm_datatype *dt, struct comm_op *op, int root,
                              struct comm_communicator *comm);
int comm_coll_reduce_reduce_scatter_gather(const void *sbuf, void *rbuf, MPI_Count count,
                                           struct comm_datatype *dt, struct comm_op *op, int root,
                                           struct comm_communicator *comm);
/* Host-local communicators; on others it is the binomial reduce. */
int comm_coll_reduce_shm(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                         struct comm_op *op, int root, struct comm_communicator *comm);

/* Communicators across hosts: over their hierarchy (coll/hier/hier.h). */
int comm_coll_reduce_hier(const void *sbuf, void *rbuf, MPI_Count count,
                          struct comm_datatype *dt, struct comm_op *op, int root,
                          struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_reduce_algorithms[];
extern const size_t comm_coll_reduce_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_reduce_choose(const struct comm_coll_call *call);

#endif
