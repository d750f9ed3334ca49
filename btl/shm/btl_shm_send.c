/*
 * btl_shm_send.c - putting fragments into a peer's ring.
 *
 * Layer: btl/shm.  Hot path: no allocation, no system call, no lock.
 */
#include "config.h"

#include "btl/shm/btl_shm.h"
#include "base/error.h"

#include <string.h>

/*
 * Asks for the cache line at P in the exclusive state, ahead of the store: the cell a few
 * fragments on was last read by the receiver, so the sender's first store to it must take the
 * line back (a transfer between cores), and until that store is done no later store of the
 * sender can finish either (x86 keeps stores in order).  The send path of a small message makes
 * enough stores (request, call frames) to fill the processor's store buffer before the transfer
 * ends, so without this every message waited for one such transfer: three to four times the time
 * of a message when the receiver is waiting on the ring.  Only a hint: P's content is not
 * changed, and a processor without the instruction skips it.
 */
static inline void shm_prefetch_for_write(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
    /* GCC emits PREFETCHW for __builtin_prefetch only with -mprfchw, whatever the processor */
    __asm__ volatile("prefetchw %0" ::"m"(*(const char *)p));
#else
    __builtin_prefetch(p, 1, 3);
#endif
}

int comm_btl_shm_reserve(struct comm_btl_endpoint *base, size_t len, void **slot_out)
{
    struct btl_shm_endpoint *ep = (struct btl_shm_endpoint *)base;
    struct btl_shm_module *m = (struct btl_shm_module *)base->module;
    if (len > m->base.max_fragment) {
        return COMM_ERR_BAD_PARAM;
    }
    if (ep->tail == 0 && m->populated) { /* the first fragment through this ring */
        comm_btl_shm_warm(ep->ring, comm_btl_shm_ring_bytes(m->ncells, m->cell_size), true);
    }
    /* Read the receiver's count only when the ring may be full. */
    if (ep->tail - ep->consumed >= m->ncells) {
        ep->consumed = atomic_load_explicit(comm_btl_shm_consumed(ep->ring),
                                            memory_order_acquire);
        if (ep->tail - ep->consumed >= m->ncells) {
            return COMM_AGAIN;
        }
    }
    *slot_out = comm_btl_shm_cell(ep->ring, m->ncells, m->cell_size, ep->tail)->data;
    return COMM_OK;
}

int comm_btl_shm_commit(struct comm_btl_endpoint *base, void *slot, size_t len)
{
    struct btl_shm_endpoint *ep = (struct btl_shm_endpoint *)base;
    struct btl_shm_module *m = (struct btl_shm_module *)base->module;
    struct btl_shm_cell *cell = (struct btl_shm_cell *)((char *)slot -
                                                        offsetof(struct btl_shm_cell, data));
    uint64_t lap = ep->tail / m->ncells;
    char *ahead;

    cell->len = (uint32_t)len;
    atomic_store_explicit(&cell->seq, 2 * lap + 1, memory_order_release);
    ep->tail++;
    /* Only while fragments stream to this peer (nothing came back from it since the last one we
     * sent): between a message and its answer the early claim competes with the message's own
     * transfer, which a ping-pong's latency shows (0.43 -> 0.52 us).  After the fragment's
     * own stores, so their transfer goes first.  Three cells on covers a transfer between cores
     * at the rate small messages go; in a smaller ring, the next cell (the receiver may still
     * be reading it: the hint only costs it a transfer then).  As many lines as this fragment
     * took, up to four: the next ones are likely the same size. */
    if (m->heads[ep->local] == ep->heard) {
        ahead = (char *)comm_btl_shm_cell(ep->ring, m->ncells, m->cell_size,
                                          ep->tail + (m->ncells >= 8 ? 3 : 0));
        for (size_t off = 0; off < BTL_SHM_CELL_HEADER + len && off < 4 * BTL_SHM_CACHE_LINE;
             off += BTL_SHM_CACHE_LINE) {
            shm_prefetch_for_write(ahead + off);
        }
    }
    ep->heard = m->heads[ep->local];
    return COMM_OK;
}

int comm_btl_shm_send(struct comm_btl_endpoint *base, const void *hdr, size_t hdr_len,
                      const void *data, size_t data_len)
{
    void *slot;
    int rc = comm_btl_shm_reserve(base, hdr_len + data_len, &slot);

    if (rc != COMM_OK) {
        return rc;
    }
    memcpy(slot, hdr, hdr_len);
    if (data_len > 0) {
        memcpy((char *)slot + hdr_len, data, data_len);
    }
    return comm_btl_shm_commit(base, slot, hdr_len + data_len);
}

int comm_btl_shm_progress(struct comm_btl_module *module)
{
    struct btl_shm_module *m = (struct btl_shm_module *)module;
    int delivered = 0;

    if (m->written_head != NULL) {
        delivered += comm_btl_shm_report_writes(m);
    }
    for (long s = 0; s < m->local_size; s++) {
        char *ring;
        uint64_t head = m->heads[s], first = head;

        if (s == m->my_local) {
            continue;
        }
        ring = comm_btl_shm_ring(m->segment, s);
        /* A bounded batch per ring, so one busy sender cannot starve the others; the
         * consumed count is published once per batch. */
        for (int batch = 0; batch < 32; batch++) {
            uint64_t lap = head / m->ncells;
            struct btl_shm_cell *cell = comm_btl_shm_cell(ring, m->ncells, m->cell_size, head);

            if (atomic_load_explicit(&cell->seq, memory_order_acquire) != 2 * lap + 1) {
                break;
            }
            if (head == 0 && m->populated) { /* the first fragment through this ring */
                comm_btl_shm_warm(ring, comm_btl_shm_ring_bytes(m->ncells, m->cell_size), false);
            }
            m->recv(m->local_peers[s], cell->data, cell->len);
            head++;
            m->heads[s] = head;
            delivered++;
        }
        if (head != first) {
            atomic_store_explicit(comm_btl_shm_consumed(ring), head, memory_order_release);
        }
    }
    return delivered;
}
