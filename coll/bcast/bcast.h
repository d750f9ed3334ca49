/*
 * bcast.h - broadcast algorithms.
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_BCAST_H
#define COMM_COLL_BCAST_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_BCAST = 2 };

int comm_coll_bcast_binomial(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                             struct comm_communicator *comm);
int comm_coll_bcast_scatter_allgather(void *buf, MPI_Count count, struct comm_datatype *dt,
                                      int root, struct comm_communicator *comm);
int comm_coll_bcast_chain(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                          struct comm_communicator *comm);
/* Host-local communicators; on others it is the binomial broadcast. */
int comm_coll_bcast_shm(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                        struct comm_communicator *comm);

/* Communicators across hosts: over their hierarchy (coll/hier/hier.h). */
int comm_coll_bcast_hier(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                         struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_bcast_algorithms[];
extern const size_t comm_coll_bcast_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_bcast_choose(const struct comm_coll_call *call);

#endif
