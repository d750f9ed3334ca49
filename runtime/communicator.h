/*
 * communicator.h - communicator objects and the mapping from MPI_Comm handles to them.
 *
 * Layer: runtime core.  Must not: check MPI arguments or print (runtime/api does).
 *
 * Ownership: MPI_COMM_WORLD and MPI_COMM_SELF are static objects set up by
 * comm_communicator_init_predefined(); they live until the process exits.  Fields are written
 * on the init thread, or under the progress lock (the match queues).
 */
#ifndef COMM_COMMUNICATOR_H
#define COMM_COMMUNICATOR_H

#include <stdint.h>

#include "runtime/api/mpi.h"
#include "runtime/errhandler.h"
#include "runtime/match.h"

struct comm_communicator {
    MPI_Comm handle; /* what the user holds */
    int rank;
    int size;
    uint32_t context_id;     /* carried by every message of this communicator */
    const long *world_ranks; /* world rank of each rank; NULL: the same (MPI_COMM_WORLD) */
    struct comm_errhandler *errhandler;
    struct comm_match_queues match;
    char name[MPI_MAX_OBJECT_NAME];
};

/* Sets up MPI_COMM_WORLD (RANK of SIZE) and MPI_COMM_SELF. */
void comm_communicator_init_predefined(int rank, int size);

/* Frees what the predefined communicators hold (unreceived messages); at finalize. */
void comm_communicator_finalize_predefined(void);

/* The object behind a handle, or NULL for MPI_COMM_NULL and handles that name nothing. */
struct comm_communicator *comm_communicator_lookup(MPI_Comm handle);

/* The communicator a message's context id names, or NULL. */
struct comm_communicator *comm_communicator_by_context(uint32_t context_id);

/* World rank of RANK in COMM. */
static inline long comm_communicator_world_rank(const struct comm_communicator *comm, int rank)
{
    return comm->world_ranks == NULL ? (long)rank : comm->world_ranks[rank];
}

#endif
