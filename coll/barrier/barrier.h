/*
 * barrier.h - barrier algorithms.
 *
 * Layer: coll.
 */
#ifndef COMM_COLL_BARRIER_H
#define COMM_COLL_BARRIER_H

#include "coll/coll.h"

enum { COMM_COLL_TAG_BARRIER = 1 };

int comm_coll_barrier_dissemination(struct comm_communicator *comm);
/* Host-local communicators; on others it is the dissemination barrier. */
int comm_coll_barrier_shm(struct comm_communicator *comm);

/* Communicators across hosts: over their hierarchy (coll/hier/hier.h). */
int comm_coll_barrier_hier(struct comm_communicator *comm);

extern const struct comm_coll_algorithm comm_coll_barrier_algorithms[];
extern const size_t comm_coll_barrier_nalgorithms;

/* The algorithm (an index into the table) a call gets when none is forced. */
size_t comm_coll_barrier_choose(const struct comm_coll_call *call);

#endif
