/*
 * api_comm.c - communicator inquiry: MPI_Comm_rank, MPI_Comm_size.
 *
 * Layer: api.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/comm/group.h"
#include "runtime/runtime.h"

#include <stdlib.h>

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Comm_rank", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (rank == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_rank: rank is NULL");
    }
    *rank = c->rank;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_rank);

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Comm_size", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (size == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_size: size is NULL");
    }
    *size = c->size;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_size);

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    struct comm_communicator *c;
    struct comm_group *g;
    long *ranks;
    int err = comm_api_enter_comm("MPI_Comm_group", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (group == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_group: group is NULL");
    }
    ranks = malloc((size_t)c->size * sizeof(*ranks));
    if (ranks == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_group: out of memory");
    }
    for (int r = 0; r < c->size; r++) {
        ranks[r] = comm_communicator_world_rank(c, r);
    }
    err = comm_group_create(ranks, c->size, comm_runtime_job()->rank, &g);
    free(ranks);
    if (err < 0) {
        return comm_api_error(c, comm_api_code_of_status(err), "MPI_Comm_group: cannot build "
                              "the group");
    }
    *group = comm_group_handle(g);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_group);
