/*
 * communicator.c - the predefined communicators, handle lookup, context ids.
 *
 * Layer: runtime core.  Must not: check MPI arguments or print.
 */
#include "config.h"

#include "runtime/communicator.h"

#include <stdint.h>
#include <stdio.h>

enum { COMMUNICATOR_WORLD_CONTEXT = 0, COMMUNICATOR_SELF_CONTEXT = 2 };

static struct comm_communicator communicator_world;
static struct comm_communicator communicator_self;
static long communicator_self_world_rank;

void comm_communicator_init_predefined(int rank, int size)
{
    communicator_world = (struct comm_communicator){
        .handle = MPI_COMM_WORLD,
        .rank = rank,
        .size = size,
        .context_id = COMMUNICATOR_WORLD_CONTEXT,
        .errhandler = comm_errhandler_lookup(MPI_ERRORS_ARE_FATAL),
    };
    snprintf(communicator_world.name, sizeof(communicator_world.name), "MPI_COMM_WORLD");
    communicator_self_world_rank = rank;
    communicator_self = (struct comm_communicator){
        .handle = MPI_COMM_SELF,
        .rank = 0,
        .size = 1,
        .context_id = COMMUNICATOR_SELF_CONTEXT,
        .world_ranks = &communicator_self_world_rank,
        .errhandler = comm_errhandler_lookup(MPI_ERRORS_ARE_FATAL),
    };
    snprintf(communicator_self.name, sizeof(communicator_self.name), "MPI_COMM_SELF");
}

void comm_communicator_finalize_predefined(void)
{
    comm_match_drain(&communicator_world.match);
    comm_match_drain(&communicator_self.match);
    comm_errhandler_release(communicator_world.errhandler);
    comm_errhandler_release(communicator_self.errhandler);
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

struct comm_communicator *comm_communicator_by_context(uint32_t context_id)
{
    switch (context_id) {
    case COMMUNICATOR_WORLD_CONTEXT:
        return &communicator_world;
    case COMMUNICATOR_SELF_CONTEXT:
        return &communicator_self;
    default:
        return NULL;
    }
}
