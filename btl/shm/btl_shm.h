/*
 * btl_shm.h - the shared-memory transport inside a host: internal structures.
 *
 * Layer: btl/shm.  Private to the files of btl/shm.
 *
 * Every rank owns one segment, /dev/shm/<job>.shm.<rank>, created 0600 before the address
 * fence and unlinked by its owner once every local peer has mapped it (a second fence), so a
 * crash leaves at most that one file, which the launcher removes.  The segment holds one ring
 * per local peer: ring i carries fragments from local rank i to the owner.
 *
 * A ring is a single-producer single-consumer array of cells behind one cache line holding
 * the receiver's count of fragments consumed.  Each cell starts with a sequence word: the
 * sender fills cell n mod ncells and publishes it by storing 2*lap+1 (lap = n / ncells); the
 * receiver waits for that value and never writes the cell.  The sender knows a cell is free
 * from the consumed count, which it reads only when its cached copy says the ring may be
 * full.  So a small fragment costs one cache line moving from sender to receiver, and the
 * count's line moves back once per ring's worth of fragments.  While it streams to a peer the
 * sender claims the lines of the cell three ahead early (PREFETCHW), so that its stores never
 * wait for a line the receiver holds; the first fragment through a ring touches all its pages
 * on each side (btl_shm_send.c and btl_shm_init.c say why).
 *
 * Large messages are read by the receiver straight from the sender's memory with
 * process_vm_readv (CMA), one copy.  When CMA is refused (or COMM_SHM_CMA=0), the runtime
 * copies them through the rings in fragments instead.
 */
#ifndef COMM_BTL_SHM_H
#define COMM_BTL_SHM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "btl/btl.h"

enum {
    BTL_SHM_MAGIC = 0x636f6d6d73686d31, /* "commshm1" */
    BTL_SHM_CELL_HEADER = 16,
    BTL_SHM_CACHE_LINE = 64,
    BTL_SHM_RING_HEADER = 64, /* the consumed count, alone in its cache line */
};

/* One cell: the sequence word, the fragment's length, then the fragment. */
struct btl_shm_cell {
    _Atomic uint64_t seq;
    uint32_t len;
    uint32_t pad;
    char data[];
};

struct btl_shm_segment_header {
    uint64_t magic;
    uint64_t owner_pid;
    uint64_t owner_addr; /* where the owner mapped this segment (a probe target for CMA) */
    uint64_t nrings;
    uint64_t ncells;
    uint64_t cell_size;   /* bytes per cell, header included, a multiple of the cache line */
    uint64_t ring_offset; /* of ring 0 */
};

/* A peer served by shm: the ring we write into (in its segment) and our counter. */
struct btl_shm_endpoint {
    struct comm_btl_endpoint base;
    char *ring;        /* the ring for us in the peer's segment */
    uint64_t tail;     /* next cell to fill; private */
    uint64_t consumed; /* the receiver's consumed count as last read; private */
    long local;        /* the peer's local rank: its ring into our segment is heads[local] */
    uint64_t heard;    /* fragments read from the peer when we last sent it one */
    pid_t pid;
    bool cma;      /* process_vm_readv and process_vm_writev work on this peer */
    void *mapping; /* the peer's whole segment */
    size_t mapping_len;
};

/* A write_start whose bytes have landed: its done function waits for the next progress
 * call.  Owned by the module. */
struct btl_shm_written {
    struct btl_shm_written *next;
    comm_btl_get_done_fn done;
    void *ctx;
};

struct btl_shm_module {
    struct comm_btl_module base;
    comm_btl_recv_fn recv;
    char nspace[256]; /* the job: segments are named after it */
    char name[320];   /* /dev/shm name of our segment */
    bool unlinked;
    struct btl_shm_segment_header *segment;
    size_t segment_len;
    uint64_t ncells;
    uint64_t cell_size;
    long local_size;
    long my_local;
    const long *local_peers;       /* world rank of each local rank */
    uint64_t *heads;               /* next cell to read, per incoming ring; private */
    struct btl_shm_endpoint **eps; /* by local rank */
    bool populated;                /* the rings' pages were made at start-up (within budget) */
    bool cma_allowed;              /* COMM_SHM_CMA */
    bool cma_warned;
    struct btl_shm_written *written_head; /* write_starts to report, oldest first */
    struct btl_shm_written **written_tail;
};

extern const struct comm_btl_ops comm_btl_shm;
extern const struct comm_setting_table comm_btl_shm_settings;

/* The ring carrying fragments from local rank SENDER into SEGMENT. */
char *comm_btl_shm_ring(struct btl_shm_segment_header *segment, long sender);

/* The receiver's count of fragments consumed from a ring. */
static inline _Atomic uint64_t *comm_btl_shm_consumed(char *ring)
{
    return (_Atomic uint64_t *)ring;
}

/* Bytes of one ring: the consumed count's line and the cells. */
static inline size_t comm_btl_shm_ring_bytes(uint64_t ncells, uint64_t cell_size)
{
    return BTL_SHM_RING_HEADER + ncells * cell_size;
}

/* The cell of a ring for counter value N. */
struct btl_shm_cell *comm_btl_shm_cell(char *ring, uint64_t ncells, uint64_t cell_size, uint64_t n);

/* Touches every page of [ADDR, ADDR + LEN), for writing or reading (btl_shm_init.c says why). */
void comm_btl_shm_warm(void *addr, size_t len, bool write);

int comm_btl_shm_reserve(struct comm_btl_endpoint *ep, size_t len, void **slot_out);
int comm_btl_shm_commit(struct comm_btl_endpoint *ep, void *slot, size_t len);
int comm_btl_shm_send(struct comm_btl_endpoint *ep, const void *hdr, size_t hdr_len,
                      const void *data, size_t data_len);
int comm_btl_shm_get(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                     uint64_t remote, const struct comm_btl_key *remote_key, size_t len);
int comm_btl_shm_put(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                     uint64_t remote, const struct comm_btl_key *remote_key, size_t len);
/* Writes with CMA at once; the done function is called by the next progress call. */
int comm_btl_shm_write_start(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                             uint64_t remote, const struct comm_btl_key *remote_key, size_t len,
                             comm_btl_get_done_fn done, void *ctx);
/* Calls the done functions of the write_starts queued before this call; returns how many. */
int comm_btl_shm_report_writes(struct btl_shm_module *m);
/* Frees the write_starts not reported yet, at close (their done functions are not called). */
void comm_btl_shm_drop_writes(struct btl_shm_module *m);
bool comm_btl_shm_probe_cma(struct btl_shm_endpoint *ep);
int comm_btl_shm_progress(struct comm_btl_module *module);

#endif
