/*
 * bsend.c - first-fit allocation of message blocks inside the user's attached buffer.
 *
 * Layer: runtime core.
 */
#include "config.h"

#include "runtime/p2p/bsend.h"
#include "include/mpi.h"
#include "base/error.h"
#include "runtime/p2p/p2p.h"
#include "runtime/thread.h"

#include <stdint.h>

/* The header of a block: blocks in use form a list sorted by address. */
struct bsend_block {
    struct bsend_block *next;
    size_t size; /* of the whole block, header included */
    _Alignas(16) char data[];
};

_Static_assert(sizeof(struct bsend_block) <= MPI_BSEND_OVERHEAD,
               "MPI_BSEND_OVERHEAD must cover a block header and its alignment");

/* Guarded by: the core lock. */
static char *bsend_base;
static size_t bsend_size;
static struct bsend_block *bsend_used;

static size_t bsend_align(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

bool comm_bsend_is_attached(void)
{
    bool attached;

    comm_core_lock();
    attached = bsend_base != NULL;
    comm_core_unlock();
    return attached;
}

int comm_bsend_attach(void *buf, size_t size)
{
    int rc = COMM_OK;

    comm_core_lock();
    if (bsend_base != NULL) {
        rc = COMM_ERR_STATE;
    } else {
        bsend_base = buf;
        bsend_size = size;
        bsend_used = NULL;
    }
    comm_core_unlock();
    return rc;
}

/* For comm_progress_wait: whether every buffered send has left the buffer. */
static bool bsend_drained(void *arg)
{
    (void)arg;
    return bsend_used == NULL;
}

int comm_bsend_detach(void **buf_out, size_t *size_out)
{
    if (!comm_bsend_is_attached()) {
        return COMM_ERR_STATE;
    }
    comm_progress_wait(bsend_drained, NULL);
    comm_core_lock();
    *buf_out = bsend_base;
    *size_out = bsend_size;
    bsend_base = NULL;
    bsend_size = 0;
    comm_core_unlock();
    return COMM_OK;
}

static int bsend_alloc(size_t len, void **data_out, size_t *free_out);

int comm_bsend_alloc(size_t len, void **data_out, size_t *free_out)
{
    int rc;

    comm_core_lock();
    rc = bsend_alloc(len, data_out, free_out);
    comm_core_unlock();
    return rc;
}

static int bsend_alloc(size_t len, void **data_out, size_t *free_out)
{
    char *start = (char *)(((uintptr_t)bsend_base + 15) & ~(uintptr_t)15);
    char *end = bsend_base + bsend_size;
    size_t need = bsend_align(sizeof(struct bsend_block) + len);
    struct bsend_block **link = &bsend_used;
    char *candidate = start;
    size_t largest = 0;

    if (bsend_base == NULL) {
        *free_out = 0;
        return COMM_ERR_NOMEM;
    }
    /* Walk the gaps between blocks in use, in address order. */
    for (;;) {
        char *gap_end = *link != NULL ? (char *)*link : end;
        size_t gap = gap_end > candidate ? (size_t)(gap_end - candidate) : 0;

        if (gap >= need) {
            struct bsend_block *b = (struct bsend_block *)candidate;

            b->size = need;
            b->next = *link;
            *link = b;
            *data_out = b->data;
            return COMM_OK;
        }
        if (gap > largest) {
            largest = gap;
        }
        if (*link == NULL) {
            break;
        }
        candidate = (char *)*link + (*link)->size;
        link = &(*link)->next;
    }
    *free_out = largest > sizeof(struct bsend_block) ? largest - sizeof(struct bsend_block) : 0;
    return COMM_ERR_NOMEM;
}

void comm_bsend_release(void *data)
{
    struct bsend_block *b = (struct bsend_block *)((char *)data -
                                                   offsetof(struct bsend_block, data));

    comm_core_lock();
    for (struct bsend_block **link = &bsend_used; *link != NULL; link = &(*link)->next) {
        if (*link == b) {
            *link = b->next;
            break;
        }
    }
    comm_core_unlock();
}
