/*
 * scan.h - prefix reduction algorithms (MPI_Scan, MPI_Exscan).
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_SCAN_H
#define COMM_COLL_SCAN_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_SCAN = 10 };

int comm_coll_scan_recursive_doubling(const void *sbuf, void *rbuf, MPI_Count count,
                                      struct comm_datatype *dt, struct comm_op *op,
                                      bool exclusive, struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_scan_algorithms[];
extern const size_t comm_coll_scan_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_scan_choose(const struct comm_coll_call *call);

#endif
