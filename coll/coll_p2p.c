/*
 * coll_p2p.c - the point-to-point that collective algorithms use: on the communicator's
 * collective context, with requests on the stack.
 *
 * Layer: coll.  Must not: be used for the user's messages.
 */
#include "config.h"

#include "coll/coll.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

#include <stdlib.h>
#include <string.h>

void comm_coll_request_init(struct comm_request *req, int kind, const void *buf, MPI_Count count,
                            struct comm_datatype *dt, int peer, int tag,
                            struct comm_communicator *comm)
{
    memset(req, 0, sizeof(*req));
    req->kind = kind;
    req->comm = comm;
    req->dt = dt;
    req->buf = (void *)(uintptr_t)buf;
    req->count = count;
    req->peer = peer;
    req->tag = tag;
    req->mode = COMM_SEND_STANDARD;
    req->collective = true;
}

int comm_coll_send(const void *buf, MPI_Count count, struct comm_datatype *dt, int peer, int tag,
                   struct comm_communicator *comm)
{
    struct comm_request req;

    comm_coll_request_init(&req, COMM_REQUEST_SEND, buf, count, dt, peer, tag, comm);
    if (comm_p2p_start_send(&req) < 0) {
        return MPI_ERR_OTHER;
    }
    comm_progress_until(&req.complete);
    return req.error;
}

int comm_coll_recv(void *buf, MPI_Count count, struct comm_datatype *dt, int peer, int tag,
                   struct comm_communicator *comm)
{
    struct comm_request req;

    comm_coll_request_init(&req, COMM_REQUEST_RECV, buf, count, dt, peer, tag, comm);
    if (comm_p2p_start_recv(&req) < 0) {
        return MPI_ERR_OTHER;
    }
    comm_progress_until(&req.complete);
    return req.error;
}

int comm_coll_isend(struct comm_request *req, const void *buf, MPI_Count count,
                    struct comm_datatype *dt, int peer, int tag, struct comm_communicator *comm)
{
    comm_coll_request_init(req, COMM_REQUEST_SEND, buf, count, dt, peer, tag, comm);
    return comm_p2p_start_send(req) < 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
}

int comm_coll_irecv(struct comm_request *req, void *buf, MPI_Count count,
                    struct comm_datatype *dt, int peer, int tag, struct comm_communicator *comm)
{
    comm_coll_request_init(req, COMM_REQUEST_RECV, buf, count, dt, peer, tag, comm);
    return comm_p2p_start_recv(req) < 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
}

int comm_coll_wait(struct comm_request *req)
{
    comm_progress_until(&req->complete);
    return req->error;
}

int comm_coll_sendrecv(const void *sbuf, MPI_Count scount, struct comm_datatype *sdt, int dest,
                       void *rbuf, MPI_Count rcount, struct comm_datatype *rdt, int source, int tag,
                       struct comm_communicator *comm)
{
    struct comm_request sreq, rreq;

    comm_coll_request_init(&rreq, COMM_REQUEST_RECV, rbuf, rcount, rdt, source, tag, comm);
    comm_coll_request_init(&sreq, COMM_REQUEST_SEND, sbuf, scount, sdt, dest, tag, comm);
    if (comm_p2p_start_recv(&rreq) < 0 || comm_p2p_start_send(&sreq) < 0) {
        return MPI_ERR_OTHER;
    }
    comm_progress_until(&sreq.complete);
    comm_progress_until(&rreq.complete);
    return sreq.error != MPI_SUCCESS ? sreq.error : rreq.error;
}

int comm_coll_copy(const void *src, void *dst, MPI_Count count, struct comm_datatype *dt)
{
    size_t len = (size_t)(count * dt->size);
    void *packed;

    if (src == dst || len == 0) {
        return MPI_SUCCESS;
    }
    if (dt->contiguous) {
        memmove((char *)dst + dt->true_lb, (const char *)src + dt->true_lb, len);
        return MPI_SUCCESS;
    }
    packed = malloc(len);
    if (packed == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_datatype_pack(dt, src, count, 0, packed, len);
    comm_datatype_unpack(dt, dst, count, 0, packed, len);
    free(packed);
    return MPI_SUCCESS;
}

void *comm_coll_alloc_buffer(MPI_Count count, struct comm_datatype *dt, void **block_out)
{
    /* Elements span (count-1) extents plus the true extent, from true_lb. */
    size_t span = count > 0 ? (size_t)((count - 1) * dt->extent + dt->true_extent) : 0;
    char *block = malloc(span > 0 ? span : 1);

    if (block == NULL) {
        return NULL;
    }
    *block_out = block;
    return block - dt->true_lb;
}

void comm_coll_free_buffer(void *block)
{
    free(block);
}

char *comm_coll_bytes(void *buf, MPI_Count count, struct comm_datatype *dt, bool pack,
                      char **packed_out)
{
    size_t n = (size_t)count * (size_t)dt->size;

    *packed_out = NULL;
    if (dt->contiguous) {
        return (char *)buf + dt->true_lb;
    }
    *packed_out = malloc(n > 0 ? n : 1);
    if (*packed_out != NULL && pack) {
        comm_datatype_pack(dt, buf, count, 0, *packed_out, n);
    }
    return *packed_out;
}
