/*
 * btl_ofi_mr_cache.h - a bounded cache of memory registrations, least recently used first out.
 *
 * Layer: btl/ofi.  Free of libfabric types: the caller registers and deregisters through two
 * functions it gives, so unit tests can drive the cache with fakes.
 *
 * An entry covers whole pages and serves any range inside it.  Acquiring takes a reference;
 * releasing drops it.  An entry in use is never evicted; entries no one uses stay for reuse,
 * at most `max_idle` of them (0: deregistered as soon as released), the least recently used
 * deregistered first.  Not thread-safe: the owner (the ofi module) serializes calls.
 */
#ifndef COMM_BTL_OFI_MR_CACHE_H
#define COMM_BTL_OFI_MR_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct comm_btl_ofi_mr {
    uintptr_t base;
    size_t len;
    uint64_t key; /* what peers name this registration with; set by the register function */
    void *handle; /* the register function's own */
    void *desc;   /* local descriptor, when the provider wants one */
    unsigned refs;
    struct comm_btl_ofi_mr *prev; /* in recency order, most recent first */
    struct comm_btl_ofi_mr *next;
};

/* Registers [mr->base, mr->base + mr->len) and fills key, handle and desc; a status. */
typedef int (*comm_btl_ofi_mr_register_fn)(void *ctx, struct comm_btl_ofi_mr *mr);
typedef void (*comm_btl_ofi_mr_deregister_fn)(void *ctx, struct comm_btl_ofi_mr *mr);

struct comm_btl_ofi_mr_cache {
    size_t max_idle;
    size_t nidle;
    size_t count;
    size_t page;
    struct comm_btl_ofi_mr *head;
    struct comm_btl_ofi_mr *tail;
    comm_btl_ofi_mr_register_fn reg;
    comm_btl_ofi_mr_deregister_fn dereg;
    void *ctx;
};

void comm_btl_ofi_mr_cache_init(struct comm_btl_ofi_mr_cache *cache, size_t max_idle,
                                comm_btl_ofi_mr_register_fn reg,
                                comm_btl_ofi_mr_deregister_fn dereg, void *ctx);

/*
 * A registration covering [ptr, ptr+len), with one more reference.  Returns COMM_OK, or the
 * register function's status (COMM_ERR_NOMEM when out of memory).
 */
int comm_btl_ofi_mr_cache_acquire(struct comm_btl_ofi_mr_cache *cache, const void *ptr, size_t len,
                                  struct comm_btl_ofi_mr **mr_out);

/* Drops one reference; may deregister (the entry is then gone). */
void comm_btl_ofi_mr_cache_release(struct comm_btl_ofi_mr_cache *cache, struct comm_btl_ofi_mr *mr);

/* The entry in use whose key is KEY, or NULL. */
struct comm_btl_ofi_mr *comm_btl_ofi_mr_cache_find_key(struct comm_btl_ofi_mr_cache *cache,
                                                       uint64_t key);

/* Deregisters every entry, in use or not (at close). */
void comm_btl_ofi_mr_cache_flush(struct comm_btl_ofi_mr_cache *cache);

#endif
