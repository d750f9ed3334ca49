/*
 * btl_ofi_mr_cache.c - the registration cache of the ofi btl.  See btl_ofi_mr_cache.h.
 *
 * Layer: btl/ofi.  Must not: include libfabric (the caller's functions register), or evict an
 * entry that is in use.
 */
#include "config.h"

#include "btl/ofi/btl_ofi_mr_cache.h"
#include "base/error.h"

#include <stdlib.h>
#include <unistd.h>

void comm_btl_ofi_mr_cache_init(struct comm_btl_ofi_mr_cache *cache, size_t max_idle,
                                comm_btl_ofi_mr_register_fn reg,
                                comm_btl_ofi_mr_deregister_fn dereg, void *ctx)
{
    long page = sysconf(_SC_PAGESIZE);

    *cache = (struct comm_btl_ofi_mr_cache){
        .max_idle = max_idle,
        .page = page > 0 ? (size_t)page : 4096,
        .reg = reg,
        .dereg = dereg,
        .ctx = ctx,
    };
}

static void mr_unlink(struct comm_btl_ofi_mr_cache *cache, struct comm_btl_ofi_mr *mr)
{
    if (mr->prev != NULL) {
        mr->prev->next = mr->next;
    } else {
        cache->head = mr->next;
    }
    if (mr->next != NULL) {
        mr->next->prev = mr->prev;
    } else {
        cache->tail = mr->prev;
    }
    mr->prev = mr->next = NULL;
}

static void mr_push_front(struct comm_btl_ofi_mr_cache *cache, struct comm_btl_ofi_mr *mr)
{
    mr->prev = NULL;
    mr->next = cache->head;
    if (cache->head != NULL) {
        cache->head->prev = mr;
    } else {
        cache->tail = mr;
    }
    cache->head = mr;
}

static void mr_destroy(struct comm_btl_ofi_mr_cache *cache, struct comm_btl_ofi_mr *mr)
{
    mr_unlink(cache, mr);
    if (mr->refs == 0) {
        cache->nidle--;
    }
    cache->count--;
    cache->dereg(cache->ctx, mr);
    free(mr);
}

/* Deregisters idle entries, least recently used first, until at most KEEP stay. */
static void mr_trim(struct comm_btl_ofi_mr_cache *cache, size_t keep)
{
    struct comm_btl_ofi_mr *mr = cache->tail;

    while (cache->nidle > keep && mr != NULL) {
        struct comm_btl_ofi_mr *prev = mr->prev;

        if (mr->refs == 0) {
            mr_destroy(cache, mr);
        }
        mr = prev;
    }
}

int comm_btl_ofi_mr_cache_acquire(struct comm_btl_ofi_mr_cache *cache, const void *ptr, size_t len,
                                  struct comm_btl_ofi_mr **mr_out)
{
    uintptr_t start = (uintptr_t)ptr & ~(uintptr_t)(cache->page - 1);
    uintptr_t end = ((uintptr_t)ptr + len + cache->page - 1) & ~(uintptr_t)(cache->page - 1);
    struct comm_btl_ofi_mr *mr;
    int rc;

    if (len == 0) {
        end = start + cache->page;
    }
    for (mr = cache->head; mr != NULL; mr = mr->next) {
        if (mr->base <= start && end <= mr->base + mr->len) {
            if (mr->refs++ == 0) {
                cache->nidle--;
            }
            mr_unlink(cache, mr);
            mr_push_front(cache, mr);
            *mr_out = mr;
            return COMM_OK;
        }
    }
    /* Idle entries overlapping the new one go first: the new one replaces them, and a
     * provider that is given the base address as key never sees one key twice. */
    for (mr = cache->head; mr != NULL;) {
        struct comm_btl_ofi_mr *next = mr->next;

        if (mr->refs == 0 && mr->base < end && start < mr->base + mr->len) {
            mr_destroy(cache, mr);
        }
        mr = next;
    }
    mr = calloc(1, sizeof(*mr));
    if (mr == NULL) {
        return COMM_ERR_NOMEM;
    }
    mr->base = start;
    mr->len = end - start;
    rc = cache->reg(cache->ctx, mr);
    if (rc < 0) {
        free(mr);
        return rc;
    }
    mr->refs = 1;
    cache->count++;
    mr_push_front(cache, mr);
    *mr_out = mr;
    return COMM_OK;
}

void comm_btl_ofi_mr_cache_release(struct comm_btl_ofi_mr_cache *cache, struct comm_btl_ofi_mr *mr)
{
    if (mr->refs == 0) {
        return;
    }
    if (--mr->refs == 0) {
        cache->nidle++;
        mr_trim(cache, cache->max_idle);
    }
}

struct comm_btl_ofi_mr *comm_btl_ofi_mr_cache_find_key(struct comm_btl_ofi_mr_cache *cache,
                                                       uint64_t key)
{
    for (struct comm_btl_ofi_mr *mr = cache->head; mr != NULL; mr = mr->next) {
        if (mr->refs > 0 && mr->key == key) {
            return mr;
        }
    }
    return NULL;
}

void comm_btl_ofi_mr_cache_flush(struct comm_btl_ofi_mr_cache *cache)
{
    while (cache->head != NULL) {
        mr_destroy(cache, cache->head);
    }
}
