/*
 * api_buffer.c - MPI_Buffer_attach and MPI_Buffer_detach.
 *
 * Layer: api.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/p2p/bsend.h"

int PMPI_Buffer_attach(void *buffer, int size)
{
    int err = comm_api_check_running("MPI_Buffer_attach");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (size < 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Buffer_attach: invalid size %d", size);
    }
    if (buffer == NULL && size > 0) {
        return comm_api_error(NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach: buffer is NULL");
    }
    if (comm_bsend_attach(buffer, (size_t)size) < 0) {
        return comm_api_error(NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach: a buffer is already "
                              "attached (MPI_Buffer_detach it first)");
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Buffer_attach);

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    void *buf;
    size_t len;
    int err = comm_api_check_running("MPI_Buffer_detach");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (buffer_addr == NULL || size == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Buffer_detach: %s is NULL",
                              size == NULL ? "size" : "buffer_addr");
    }
    if (comm_bsend_detach(&buf, &len) < 0) {
        return comm_api_error(NULL, MPI_ERR_BUFFER, "MPI_Buffer_detach: no buffer is attached");
    }
    *(void **)buffer_addr = buf;
    *size = (int)len;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Buffer_detach);
