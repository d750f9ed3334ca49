/*
 * reduce_scatter.h - reduce-scatter algorithms (MPI_Reduce_scatter and _block).
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_REDUCE_SCATTER_H
#define COMM_COLL_REDUCE_SCATTER_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_REDUCE_SCATTER = 9 };

int comm_coll_reduce_scatter_reduce_scatterv(const void *sbuf, void *rbuf, const int *rcounts,
                                             struct comm_datatype *dt, struct comm_op *op,
                                             struct comm_communicator *comm);
int comm_coll_reduce_scatter_recursive_halving(const void *sbuf, void *rbuf, const int *rcounts,
                                               struct comm_datatype *dt, struct comm_op *op,
                                               struct comm_communicator *comm);
int comm_coll_reduce_scatter_ring(const void *sbuf, void *rbuf, const int *rcounts,
                                  struct comm_datatype *dt, struct comm_op *op,
                                  struct comm_communicator *comm);
int comm_coll_reduce_scatter_hier(const void *sbuf, void *rbuf, const int *rcounts,
                                  struct comm_datatype *dt, struct comm_op *op,
                                  struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_reduce_scatter_algorithms[];
extern const size_t comm_coll_reduce_scatter_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_reduce_scatter_choose(const struct comm_coll_call *call);

#endif
