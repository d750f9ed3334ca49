/*
 * allreduce.h - allreduce algorithms.
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_ALLREDUCE_H
#define COMM_COLL_ALLREDUCE_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_ALLREDUCE = 4 };

int comm_coll_allreduce_recursive_doubling(const void *sbuf, void *rbuf, MPI_Count count,
                                           struct comm_datatype *dt, struct comm_op *op,
                                           struct comm_communicator *comm);
int comm_coll_allreduce_reduce_bcast(const void *sbuf, void *rbuf, MPI_Count count,
                                     struct comm_datatype *dt, struct comm_op *op,
                                     struct comm_communicator *comm);
int comm_coll_allreduce_rabenseifner(const void *sbuf, void *rbuf, MPI_Count count,
                                     struct comm_datatype *dt, struct comm_op *op,
                                     struct comm_communicator *comm);
int comm_coll_allreduce_ring(const void *sbuf, void *rbuf, MPI_Count count,
                             struct comm_datatype *dt, struct comm_op *op,
                             struct comm_communicator *comm);
/* Host-local communicators; on others it is recursive doubling. */
int comm_coll_allreduce_shm(const void *sbuf, void *rbuf, MPI_Count count, struct comm_datatype *dt,
                            struct comm_op *op, struct comm_communicator *comm);

/* Communicators across hosts: over their hierarchy (coll/hier/hier.h). */
int comm_coll_allreduce_hier(const void *sbuf, void *rbuf, MPI_Count count,
                             struct comm_datatype *dt, struct comm_op *op,
                             struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_allreduce_algorithms[];
extern const size_t comm_coll_allreduce_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_allreduce_choose(const struct comm_coll_call *call);

#endif
