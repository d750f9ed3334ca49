/*
 * comm.c - communicator inquiry: MPI_Comm_rank, MPI_Comm_size.
 *
 * Layer: runtime API.
 */
#include "config.h"

#include "runtime/api/api.h"

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
