/*
 * communicator.c - the predefined communicators and handle lookup.
 *
 * Layer: runtime core.  Must not: check MPI arguments or print.
 */
#include "config.h"

#include "runtime/communicator.h"

#include <stdint.h>
#include <stdio.h>

static struct comm_communicator communicator_world;
static struct comm_communicator communicator_self;

void comm_communicator_init_predefined(int rank, int size)
{
    communicator_world = (struct comm_communicator){
        .handle = MPI_COMM_WORLD,
        .rank = rank,
        .size = size,
        .errhandler = COMM_ERRHANDLER_FATAL,
    };
    snprintf(communicator_world.name, sizeof(communicator_world.name), "MPI_COMM_WORLD");
    communicator_self = (struct comm_communicator){
        .handle = MPI_COMM_SELF,
        .rank = 0,
        .size = 1,
        .errhandler = COMM_ERRHANDLER_FATAL,
    };
    snprintf(communicator_self.name, sizeof(communicator_self.name), "MPI_COMM_SELF");
}

struct comm_communicator *comm_communicator_lookup(MPI_Comm handle)
{
    if (handle == MPI_COMM_WORLD) {
        return &communicator_world;
    }
    if (handle == MPI_COMM_SELF) {
        return &communicator_self;
    }
    /* No other communicator can be created yet, so any other handle names nothing. */
    return NULL;
}
