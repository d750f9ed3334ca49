/*
 * btl_shm_init.c - the shared-memory transport: settings, segments, connecting to peers.
 *
 * Layer: btl/shm.  Must not: know which runtime header a fragment carries.
 */
#include "config.h"

#include "btl/btl_stubs.h"
#include "btl/shm/btl_shm.h"
#include "base/error.h"
#include "base/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int shm_check_power_of_two(const char *value, char *expected_out, size_t len);

static const struct comm_setting shm_settings[] = {
    {.name = "COMM_SHM",
     .type = COMM_SETTING_BOOL,
     .default_value = "1",
     .help = "use shared memory between ranks of a host (0: every message takes another "
             "transport)",
     .audience = COMM_AUDIENCE_USER},
    {.name = "COMM_SHM_EAGER_LIMIT",
     .type = COMM_SETTING_INT,
     .default_value = "4096",
     .help = "largest message sent through the rings in one piece; larger ones are read by "
             "the receiver from the sender's memory",
     .audience = COMM_AUDIENCE_TUNER,
     .min = 0,
     .max = 1048576},
    {.name = "COMM_SHM_FRAGMENT_SIZE",
     .type = COMM_SETTING_INT,
     .default_value = "8192",
     .help = "bytes of one ring cell (a fragment and its header)",
     .audience = COMM_AUDIENCE_TUNER,
     .min = 256,
     .max = 1048576},
    {.name = "COMM_SHM_CELLS",
     .type = COMM_SETTING_INT,
     .default_value = "64",
     .help = "cells in each ring, a power of two",
     .audience = COMM_AUDIENCE_TUNER,
     .min = 2,
     .max = 65536,
     .check = shm_check_power_of_two},
    {.name = "COMM_SHM_CMA",
     .type = COMM_SETTING_BOOL,
     .default_value = "1",
     .help = "read large messages from the sender's memory with process_vm_readv (0: copy "
             "them through the rings)",
     .audience = COMM_AUDIENCE_TUNER},
    {.name = "COMM_SHM_SPLIT_SIZE",
     .type = COMM_SETTING_INT,
     .default_value = "16384",
     .help = "from this many bytes, a message read from the sender's memory is copied half by "
             "each side: the receiver reads the first half while the sender writes the rest "
             "with process_vm_writev (0: the receiver copies it all)",
     .audience = COMM_AUDIENCE_TUNER,
     .min = 0,
     .max = 2147483647},
};

const struct comm_setting_table comm_btl_shm_settings = {
    .component = "btl_shm",
    .count = sizeof(shm_settings) / sizeof(shm_settings[0]),
    .settings = shm_settings,
};

static int shm_check_power_of_two(const char *value, char *expected_out, size_t len)
{
    long v;

    if (comm_config_parse_long(value, 2, 65536, &v) < 0 || (v & (v - 1)) != 0) {
        snprintf(expected_out, len, "a power of two from 2 to 65536");
        return COMM_ERR_BAD_PARAM;
    }
    return COMM_OK;
}

char *comm_btl_shm_ring(struct btl_shm_segment_header *segment, long sender)
{
    return (char *)segment + segment->ring_offset +
           (size_t)sender * comm_btl_shm_ring_bytes(segment->ncells, segment->cell_size);
}

struct btl_shm_cell *comm_btl_shm_cell(char *ring, uint64_t ncells, uint64_t cell_size, uint64_t n)
{
    return (struct btl_shm_cell *)(ring + BTL_SHM_RING_HEADER + (n & (ncells - 1)) * cell_size);
}

static void shm_segment_name(char *out, size_t len, const char *nspace, long rank)
{
    size_t used;

    snprintf(out, len, "/%s.shm.%ld", nspace, rank);
    for (used = 1; out[used] != '\0'; used++) {
        if (out[used] == '/') {
            out[used] = '_';
        }
    }
}

bool comm_btl_shm_is_enabled(void)
{
    /* Read once: collectives ask on every call.  A malformed value was refused when the
     * environment was checked at init. */
    static int enabled = -1;

    if (enabled < 0) {
        bool b = true;

        comm_config_get_bool(&shm_settings[0], &b);
        enabled = b;
    }
    return enabled != 0;
}

static int shm_read_settings(struct btl_shm_module *m, long *eager_out)
{
    long eager, frag, cells, split;
    bool cma;
    int rc;

    if ((rc = comm_config_get_int(&shm_settings[1], &eager)) < 0 ||
        (rc = comm_config_get_int(&shm_settings[2], &frag)) < 0 ||
        (rc = comm_config_get_int(&shm_settings[3], &cells)) < 0 ||
        (rc = comm_config_get_bool(&shm_settings[4], &cma)) < 0 ||
        (rc = comm_config_get_int(&shm_settings[5], &split)) < 0) {
        return rc;
    }
    /* The runtime's header travels with the payload in one cell. */
    if (eager + 128 > frag) {
        comm_log_error("btl_shm",
                       "COMM_SHM_EAGER_LIMIT %ld does not fit a fragment of "
                       "COMM_SHM_FRAGMENT_SIZE %ld: the limit must be at most the fragment size "
                       "less 128",
                       eager, frag);
        return COMM_ERR_BAD_PARAM;
    }
    m->ncells = (uint64_t)cells;
    m->cell_size = ((uint64_t)frag + BTL_SHM_CELL_HEADER + BTL_SHM_CACHE_LINE - 1) &
                   ~(uint64_t)(BTL_SHM_CACHE_LINE - 1);
    m->cma_allowed = cma;
    m->base.split_min = (size_t)split;
    *eager_out = eager;
    return COMM_OK;
}

/*
 * The first lap through a ring takes a page fault per new page on both sides (a fresh tmpfs
 * page for the writer, a mapping for the reader): a few microseconds each, so the first 64
 * messages to a peer, and the first ones of each larger size, ran several times slower than
 * the rest.  So the pages are made and mapped up front: the owner of a segment makes all of
 * it, each sender maps the ring it writes.  That commits the rings' memory at start-up,
 * which this does only while all the host's rings fit in BTL_SHM_POPULATE_BUDGET; beyond,
 * pages are made as messages first reach them.
 */
enum { BTL_SHM_POPULATE_BUDGET = 256 << 20 };

static bool shm_populate_allowed(const struct btl_shm_module *m)
{
    size_t ring = comm_btl_shm_ring_bytes(m->ncells, m->cell_size);

    return (size_t)m->local_size * (size_t)m->local_size * ring <= (size_t)BTL_SHM_POPULATE_BUDGET;
}

/* Makes and maps the pages of [ADDR, ADDR + LEN); only a speed-up, so failing is logged at
 * debug level and otherwise ignored (older kernels lack MADV_POPULATE_WRITE). */
static void shm_populate(void *addr, size_t len)
{
#ifdef MADV_POPULATE_WRITE
    uintptr_t start = (uintptr_t)addr & ~(uintptr_t)4095, end = (uintptr_t)addr + len;

    if (madvise((void *)start, end - start, MADV_POPULATE_WRITE) != 0) {
        comm_log_debug("btl_shm", "cannot populate %zu bytes of shared memory: %s", len,
                       strerror(errno));
    }
#else
    (void)addr;
    (void)len;
#endif
}

/*
 * Touches each page of [ADDR, ADDR + LEN), WRITE with an atomic add of zero to its first word
 * (the content stays, whatever another process stores there meanwhile).  Populating the pages
 * is not enough on every machine: under some hypervisors (this one's, a VM whose page tables the
 * host shadows) a process's first access to each page still costs several microseconds, which
 * the first lap through a ring paid one page per fragment: a ring carrying one message per
 * round (the acknowledgements of a bandwidth test) took 64 rounds, several times slower than
 * the rest, to warm.  So the first fragment through a ring touches all of it at once, on each
 * side; only rings whose pages were populated (see above).
 */
void comm_btl_shm_warm(void *addr, size_t len, bool write)
{
    uintptr_t start = ((uintptr_t)addr + 7) & ~(uintptr_t)7, end = (uintptr_t)addr + len;

    for (uintptr_t p = start; p + 8 <= end; p = (p + 4096) & ~(uintptr_t)4095) {
        if (write) {
            __atomic_fetch_add((uint64_t *)p, 0, __ATOMIC_RELAXED);
        } else {
            (void)__atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
        }
    }
}

static int btl_shm_open(const struct comm_btl_self_info *self, comm_btl_recv_fn recv,
                        struct comm_btl_module **module_out)
{
    struct btl_shm_module *m;
    struct btl_shm_segment_header *h;
    bool enabled;
    long eager;
    size_t len;
    int fd, rc;

    rc = comm_config_get_bool(&shm_settings[0], &enabled);
    if (rc < 0) {
        return rc;
    }
    if (!enabled) {
        comm_log_info("btl_shm", "shared memory disabled by COMM_SHM=0");
        return COMM_ERR_NOT_FOUND;
    }
    m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return COMM_ERR_NOMEM;
    }
    rc = shm_read_settings(m, &eager); /* also sets base.split_min */
    if (rc < 0) {
        goto out_free;
    }
    m->base.ops = &comm_btl_shm;
    m->base.max_fragment = m->cell_size - BTL_SHM_CELL_HEADER;
    m->base.eager_limit = (size_t)eager;
    m->recv = recv;
    m->written_tail = &m->written_head;
    m->local_size = self->local_size;
    m->my_local = self->local_rank;
    m->local_peers = self->local_peers;
    m->heads = calloc((size_t)self->local_size, sizeof(*m->heads));
    m->eps = calloc((size_t)self->local_size, sizeof(*m->eps));
    if (m->heads == NULL || m->eps == NULL) {
        rc = COMM_ERR_NOMEM;
        goto out_free;
    }
    snprintf(m->nspace, sizeof(m->nspace), "%s", self->nspace);
    shm_segment_name(m->name, sizeof(m->name), self->nspace, self->rank);
    len = 4096 + (size_t)self->local_size * comm_btl_shm_ring_bytes(m->ncells, m->cell_size);
    fd = shm_open(m->name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        comm_log_error("btl_shm", "cannot create shared memory /dev/shm%s: %s", m->name,
                       strerror(errno));
        rc = COMM_ERR_SYSTEM;
        goto out_free;
    }
    if (ftruncate(fd, (off_t)len) != 0) {
        comm_log_error("btl_shm", "cannot size shared memory /dev/shm%s to %zu bytes: %s", m->name,
                       len, strerror(errno));
        close(fd);
        rc = COMM_ERR_SYSTEM;
        goto out_unlink;
    }
    h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (h == MAP_FAILED) {
        comm_log_error("btl_shm", "cannot map shared memory /dev/shm%s: %s", m->name,
                       strerror(errno));
        rc = COMM_ERR_SYSTEM;
        goto out_unlink;
    }
    /* The rings need no initialization: zero means "free in lap 0". */
    h->owner_pid = (uint64_t)getpid();
    h->owner_addr = (uint64_t)(uintptr_t)h;
    h->nrings = (uint64_t)self->local_size;
    h->ncells = m->ncells;
    h->cell_size = m->cell_size;
    h->ring_offset = 4096;
    atomic_store_explicit((_Atomic uint64_t *)&h->magic, (uint64_t)BTL_SHM_MAGIC,
                          memory_order_release);
    m->segment = h;
    m->segment_len = len;
    m->populated = shm_populate_allowed(m);
    if (m->populated) {
        shm_populate(h, len);
    }
    if (!m->cma_allowed) {
        comm_log_info("btl_shm", "large messages are copied through the rings "
                                 "(COMM_SHM_CMA=0)");
    }
    *module_out = &m->base;
    return COMM_OK;
out_unlink:
    shm_unlink(m->name);
out_free:
    free(m->heads);
    free(m->eps);
    free(m);
    return rc;
}

static bool btl_shm_reaches(struct comm_btl_module *module, const struct comm_btl_peer *peer)
{
    (void)module;
    return peer->same_host && !peer->is_self;
}

static int btl_shm_connect(struct comm_btl_module *module, const struct comm_btl_peer *peer,
                           struct comm_btl_endpoint **endpoint_out)
{
    struct btl_shm_module *m = (struct btl_shm_module *)module;
    struct btl_shm_endpoint *ep;
    struct btl_shm_segment_header *h;
    char name[320];
    struct stat st;
    int fd;

    if (peer->local_rank < 0 || peer->local_rank >= m->local_size) {
        return COMM_ERR_UNREACHABLE;
    }
    shm_segment_name(name, sizeof(name), m->nspace, peer->rank);
    fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
    if (fd < 0) {
        comm_log_error("btl_shm", "cannot open the shared memory of rank %ld (/dev/shm%s): %s",
                       peer->rank, name, strerror(errno));
        return COMM_ERR_UNREACHABLE;
    }
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < 4096) {
        comm_log_error("btl_shm", "the shared memory of rank %ld (/dev/shm%s) is truncated",
                       peer->rank, name);
        close(fd);
        return COMM_ERR_UNREACHABLE;
    }
    h = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (h == MAP_FAILED) {
        comm_log_error("btl_shm", "cannot map the shared memory of rank %ld: %s", peer->rank,
                       strerror(errno));
        return COMM_ERR_UNREACHABLE;
    }
    if (atomic_load_explicit((_Atomic uint64_t *)&h->magic, memory_order_acquire) !=
            (uint64_t)BTL_SHM_MAGIC ||
        h->nrings != (uint64_t)m->local_size || h->ncells != m->ncells ||
        h->cell_size != m->cell_size ||
        h->ring_offset + h->nrings * comm_btl_shm_ring_bytes(h->ncells, h->cell_size) >
            (uint64_t)st.st_size) {
        comm_log_error("btl_shm",
                       "the shared memory of rank %ld does not match this rank's "
                       "(different COMM_SHM_* settings on the two ranks?)",
                       peer->rank);
        munmap(h, (size_t)st.st_size);
        return COMM_ERR_UNREACHABLE;
    }
    ep = calloc(1, sizeof(*ep));
    if (ep == NULL) {
        munmap(h, (size_t)st.st_size);
        return COMM_ERR_NOMEM;
    }
    ep->base.module = module;
    ep->base.peer = peer->rank;
    ep->local = peer->local_rank;
    ep->ring = comm_btl_shm_ring(h, m->my_local);
    if (m->populated) {
        shm_populate(ep->ring, comm_btl_shm_ring_bytes(m->ncells, m->cell_size));
    }
    ep->pid = (pid_t)h->owner_pid;
    ep->mapping = h;
    ep->mapping_len = (size_t)st.st_size;
    ep->cma = m->cma_allowed && comm_btl_shm_probe_cma(ep);
    if (m->cma_allowed && !ep->cma && !m->cma_warned) {
        m->cma_warned = true;
        comm_log_info("btl_shm",
                      "process_vm_readv cannot read rank %ld: large messages are "
                      "copied through the rings instead",
                      peer->rank);
    }
    m->eps[peer->local_rank] = ep;
    *endpoint_out = &ep->base;
    return COMM_OK;
}

static void btl_shm_wired(struct comm_btl_module *module)
{
    struct btl_shm_module *m = (struct btl_shm_module *)module;

    if (!m->unlinked && shm_unlink(m->name) != 0 && errno != ENOENT) {
        comm_log_warn("btl_shm", "cannot remove /dev/shm%s: %s", m->name, strerror(errno));
    }
    m->unlinked = true;
}

static void btl_shm_close(struct comm_btl_module *module)
{
    struct btl_shm_module *m = (struct btl_shm_module *)module;

    btl_shm_wired(module);
    comm_btl_shm_drop_writes(m);
    for (long i = 0; i < m->local_size; i++) {
        if (m->eps[i] != NULL) {
            munmap(m->eps[i]->mapping, m->eps[i]->mapping_len);
            free(m->eps[i]);
        }
    }
    munmap(m->segment, m->segment_len);
    free(m->heads);
    free(m->eps);
    free(m);
}

static int btl_shm_register(struct comm_btl_module *module, void *ptr, size_t len,
                            struct comm_btl_key *key_out)
{
    (void)module;
    (void)ptr;
    (void)len;
    memset(key_out, 0, sizeof(*key_out)); /* CMA reads any memory of the peer */
    return COMM_OK;
}

static int btl_shm_deregister(struct comm_btl_module *module, const struct comm_btl_key *key)
{
    (void)module;
    (void)key;
    return COMM_OK;
}

const struct comm_btl_ops comm_btl_shm = {
    .size = sizeof(struct comm_btl_ops),
    .name = "shm",
    .exclusivity = 50,
    .open = btl_shm_open,
    .reaches = btl_shm_reaches,
    .connect = btl_shm_connect,
    .reserve = comm_btl_shm_reserve,
    .commit = comm_btl_shm_commit,
    .send = comm_btl_shm_send,
    .get = comm_btl_shm_get,
    .register_mem = btl_shm_register,
    .deregister_mem = btl_shm_deregister,
    .progress = comm_btl_shm_progress,
    .close = btl_shm_close,
    .wired = btl_shm_wired,
    .flush = comm_btl_stub_flush,
    .put = comm_btl_shm_put,
    .get_start = comm_btl_stub_get_start,
    .put_start = comm_btl_stub_put_start,
    .write_start = comm_btl_shm_write_start,
    .describe = comm_btl_stub_describe,
};
