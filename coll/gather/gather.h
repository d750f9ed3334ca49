/*
 * gather.h - gather algorithms (MPI_Gather and MPI_Gatherv).
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_GATHER_H
#define COMM_COLL_GATHER_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_GATHER = 5 };

int comm_coll_gather_linear(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                            void *rbuf, const int *rcounts, const int *displs,
                            struct comm_datatype *rdt, int root, struct comm_communicator *comm);
int comm_coll_gather_binomial(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                              void *rbuf, const int *rcounts, const int *displs,
                              struct comm_datatype *rdt, int root, struct comm_communicator *comm);
int comm_coll_gather_hier(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt, void *rbuf,
                          const int *rcounts, const int *displs, struct comm_datatype *rdt,
                          int root, struct comm_communicator *comm);
/* hier's MPI_Gatherv (the sizes travel with the blocks). */
int comm_coll_gatherv_hier(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt,
                           void *rbuf, const int *rcounts, const int *displs,
                           struct comm_datatype *rdt, int root, struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_gather_algorithms[];
extern const size_t comm_coll_gather_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_gather_choose(const struct comm_coll_call *call);

#endif
