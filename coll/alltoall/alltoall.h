/*
 * alltoall.h - all-to-all algorithms (MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw).
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_ALLTOALL_H
#define COMM_COLL_ALLTOALL_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_ALLTOALL = 8 };

/* Exchanges the pairwise all-to-all keeps in flight at once.  Measured on 4 and 8 ranks,
 * blocks of 8 B to 16 MiB: a full window beat one exchange at a time at every size (4 ranks,
 * 1 MiB: 0.70-0.80 against 0.84-1.40 ms); large messages are read by the receiver, so a window
 * costs no buffers. */
enum { COMM_COLL_ALLTOALL_PAIRWISE_WINDOW = 8 };

int comm_coll_alltoall_pairwise(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                                struct comm_datatype *const *sdts, void *rbuf, const int *rcounts,
                                const MPI_Aint *rdispls, struct comm_datatype *const *rdts,
                                struct comm_communicator *comm);
int comm_coll_alltoall_shm(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                           struct comm_datatype *const *sdts, void *rbuf, const int *rcounts,
                           const MPI_Aint *rdispls, struct comm_datatype *const *rdts,
                           struct comm_communicator *comm);
int comm_coll_alltoall_bruck(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                             struct comm_datatype *const *sdts, void *rbuf, const int *rcounts,
                             const MPI_Aint *rdispls, struct comm_datatype *const *rdts,
                             struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_alltoall_algorithms[];
extern const size_t comm_coll_alltoall_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_alltoall_choose(const struct comm_coll_call *call);

#endif
