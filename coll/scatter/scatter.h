/*
 * scatter.h - scatter algorithms (MPI_Scatter and MPI_Scatterv).
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_SCATTER_H
#define COMM_COLL_SCATTER_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_SCATTER = 6 };

int comm_coll_scatter_linear(const void *sbuf, const int *scounts, const int *displs,
                             struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                             struct comm_datatype *rdt, int root, struct comm_communicator *comm);
int comm_coll_scatter_binomial(const void *sbuf, const int *scounts, const int *displs,
                               struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                               struct comm_datatype *rdt, int root, struct comm_communicator *comm);
int comm_coll_scatter_hier(const void *sbuf, const int *scounts, const int *displs,
                           struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                           struct comm_datatype *rdt, int root, struct comm_communicator *comm);
/* hier's MPI_Scatterv (the sizes travel with the blocks). */
int comm_coll_scatterv_hier(const void *sbuf, const int *scounts, const int *displs,
                            struct comm_datatype *sdt, void *rbuf, MPI_Count rcount,
                            struct comm_datatype *rdt, int root, struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_scatter_algorithms[];
extern const size_t comm_coll_scatter_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_scatter_choose(const struct comm_coll_call *call);

#endif
