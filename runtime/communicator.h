/*
 * communicator.h - communicator objects and the mapping from MPI_Comm handles to them.
 *
 * Layer: runtime core.  Must not: check MPI arguments or print (runtime/api does).
 *
 * Ownership: MPI_COMM_WORLD and MPI_COMM_SELF are static objects set up by
 * comm_communicator_init_predefined(); they live until the process exits.  Fields are written
 * on the init thread, or by the thread that owns the communicator under the MPI thread level.
 */
#ifndef COMM_COMMUNICATOR_H
#define COMM_COMMUNICATOR_H

#include "runtime/api/mpi.h"

enum comm_errhandler_kind {
    COMM_ERRHANDLER_FATAL,  /* MPI_ERRORS_ARE_FATAL: end the job */
    COMM_ERRHANDLER_RETURN, /* MPI_ERRORS_RETURN: return the error class */
};

struct comm_communicator {
    MPI_Comm handle; /* what the user holds */
    int rank;
    int size;
    enum comm_errhandler_kind errhandler;
    char name[MPI_MAX_OBJECT_NAME];
};

/* Sets up MPI_COMM_WORLD (RANK of SIZE) and MPI_COMM_SELF. */
void comm_communicator_init_predefined(int rank, int size);

/* The object behind a handle, or NULL for MPI_COMM_NULL and handles that name nothing. */
struct comm_communicator *comm_communicator_lookup(MPI_Comm handle);

#endif
