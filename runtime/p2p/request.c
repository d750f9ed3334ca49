/*
 * request.c - allocating, completing and freeing requests; status internals.
 *
 * Layer: runtime core.
 */
#include "config.h"

#include "runtime/p2p/request.h"
#include "runtime/p2p/bsend.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/thread.h"

#include <stdlib.h>
#include <string.h>

/* Freed requests kept for reuse: nonblocking calls at high message rates would otherwise
 * spend their time in malloc.  Guarded by the core lock. */
enum { REQUEST_CACHE_MAX = 1024 };
static struct comm_request *request_cache;
static size_t request_cached;

/*
 * Zeroes a cached request.  A memset of the struct's known size is inlined as `rep stos`, whose
 * start-up costs more than clearing a few hundred bytes (the largest single cost of a small
 * nonblocking message in a profile); the library's memset, called with a size the compiler
 * cannot see, clears it with vector stores.
 */
static void request_zero(struct comm_request *req)
{
    size_t n = sizeof(*req);

    __asm__("" : "+r"(n)); /* hides the constant: no inlined rep stos */
    memset(req, 0, n);
}

struct comm_request *comm_request_alloc(enum comm_request_kind kind)
{
    struct comm_request *req;

    comm_core_lock();
    req = request_cache;
    if (req != NULL) {
        request_cache = req->queue_next;
        request_cached--;
    }
    comm_core_unlock();
    if (req != NULL) {
        request_zero(req);
    } else {
        req = calloc(1, sizeof(*req));
        if (req == NULL) {
            return NULL;
        }
    }
    req->kind = kind;
    req->state = COMM_REQUEST_INACTIVE;
    return req;
}

void comm_request_free(struct comm_request *req)
{
    if (req->dt != NULL) {
        comm_datatype_release(req->dt);
    }
    if (req->comm != NULL) {
        comm_communicator_release(req->comm);
    }
    free(req->bounce);
    if (req->coll_free != NULL) {
        req->coll_free(req->coll);
    }
    comm_core_lock();
    if (request_cached < REQUEST_CACHE_MAX) {
        req->queue_next = request_cache;
        request_cache = req;
        request_cached++;
        req = NULL;
    }
    comm_core_unlock();
    free(req);
}

bool comm_request_user_free(struct comm_request *req)
{
    bool now;

    comm_core_lock();
    now = req->complete || (req->persistent && req->state == COMM_REQUEST_INACTIVE);
    if (!now) {
        req->user_freed = true; /* comm_request_complete frees it */
        req->persistent = false;
    }
    comm_core_unlock();
    if (now) {
        comm_request_free(req);
    }
    return now;
}

void comm_request_complete(struct comm_request *req, int error)
{
    /* Mostly called with the lock held; MPI_Grequest_complete calls it from any thread. */
    comm_core_lock();
    req->error = error;
    req->state = COMM_REQUEST_DONE;
    free(req->bounce);
    req->bounce = NULL;
    if (req->bsend_block != NULL) {
        comm_bsend_release(req->bsend_block);
        req->bsend_block = NULL;
    }
    __atomic_store_n(&req->complete, true, __ATOMIC_RELEASE);
    if (req->on_complete != NULL) {
        req->on_complete(req);
    }
    if (req->user_freed) {
        comm_request_free(req);
    }
    comm_core_unlock();
}

struct comm_request *comm_request_lookup(MPI_Request handle)
{
    if (handle == MPI_REQUEST_NULL) {
        return NULL;
    }
    return (struct comm_request *)handle;
}

/* comm_reserved[0..1]: bytes (low, high); [2]: cancelled. */
void comm_status_set_bytes(MPI_Status *status, MPI_Count bytes)
{
    uint64_t b = (uint64_t)bytes;

    status->comm_reserved[0] = (int)(uint32_t)(b & 0xffffffffu);
    status->comm_reserved[1] = (int)(uint32_t)(b >> 32);
}

MPI_Count comm_status_bytes(const MPI_Status *status)
{
    return (MPI_Count)(((uint64_t)(uint32_t)status->comm_reserved[1] << 32) |
                       (uint64_t)(uint32_t)status->comm_reserved[0]);
}

void comm_status_set_cancelled(MPI_Status *status, bool cancelled)
{
    status->comm_reserved[2] = cancelled ? 1 : 0;
}

bool comm_status_cancelled(const MPI_Status *status)
{
    return status->comm_reserved[2] != 0;
}

void comm_status_set_empty(MPI_Status *status)
{
    memset(status, 0, sizeof(*status));
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
}
