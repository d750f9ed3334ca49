/*
 * allgather.h - allgather algorithms (MPI_Allgather and MPI_Allgatherv).
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_ALLGATHER_H
#define COMM_COLL_ALLGATHER_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_ALLGATHER = 7 };

int comm_coll_allgather_ring(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                             void *rbuf, const int *rcounts, const int *displs,
                             struct comm_datatype *rdt, struct comm_communicator *comm);
int comm_coll_allgather_recursive_doubling(const void *sbuf, MPI_Count scount,
                                           struct comm_datatype *sdt, void *rbuf,
                                           const int *rcounts, const int *displs,
                                           struct comm_datatype *rdt,
                                           struct comm_communicator *comm);
int comm_coll_allgather_bruck(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                              void *rbuf, const int *rcounts, const int *displs,
                              struct comm_datatype *rdt, struct comm_communicator *comm);

/* Communicators across hosts: over their hierarchy (coll/hier/hier.h); the v form too. */
int comm_coll_allgather_hier(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                             void *rbuf, const int *rcounts, const int *displs,
                             struct comm_datatype *rdt, struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_allgather_algorithms[];
extern const size_t comm_coll_allgather_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_allgather_choose(const struct comm_coll_call *call);

#endif
