/*
 * neighbor.h - neighbourhood collectives (MPI_Neighbor_* and MPI_Ineighbor_*): each process
 * exchanges with the neighbours its communicator's process topology gives it.
 *
 * Layer: coll.  Must not: block (the blocking calls wait on the same schedule).
 *
 * One builder serves the five operations in their w form: a block per neighbour on each side
 * (count, byte displacement, datatype).  An allgather sends one block to every out-neighbour
 * (every send displacement 0).  The API checks the arguments and passes the topology's lists.
 */
#ifndef COMM_COLL_NEIGHBOR_H
#define COMM_COLL_NEIGHBOR_H

#include "coll/coll_sched.h"

#include <stdbool.h>

/* One side of a neighbourhood exchange: per neighbour, a block of BUF. */
struct comm_coll_neighbor_side {
    const void *buf;
    int degree;
    const int *ranks; /* the neighbours, MPI_PROC_NULL for none */
    const int *counts;
    const MPI_Aint *displs; /* bytes from BUF */
    struct comm_datatype *const *dts;
};

/*
 * Adds one round to S: a receive from every in-neighbour into its block of RECV, a send of
 * its block of SEND to every out-neighbour; MPI_PROC_NULL neighbours are skipped (their blocks
 * untouched).  CART_PAIRS: the lists are a grid's (per dimension, the source then the
 * destination of a shift by +1), whose neighbour can be one rank twice (a periodic dimension
 * of 1 or 2): the receives are posted in each pair's reverse order, so that the message sent to
 * the lower neighbour lands in the block of the upper one, as the standard orders them.
 * MPI_SUCCESS or MPI_ERR_NO_MEM.
 */
int comm_coll_ineighbor(struct comm_coll_sched *s, const struct comm_coll_neighbor_side *send,
                        const struct comm_coll_neighbor_side *recv, bool cart_pairs);

#endif
