/*
 * btl_shm_rdma.c - reading and writing a peer's memory with process_vm_readv and
 * process_vm_writev (CMA): the single copy of large messages inside a host, which the
 * receiver and the sender may share.
 *
 * Layer: btl/shm.  Must not: retry forever (a refusal turns CMA off for that peer and the
 * runtime falls back to copying through the rings), or call a done function from anywhere but
 * progress.
 */
#include "config.h"

#include "btl/shm/btl_shm.h"
#include "base/error.h"
#include "base/log.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#ifndef IOV_MAX
#define IOV_MAX 1024
#endif

bool comm_btl_shm_probe_cma(struct btl_shm_endpoint *ep)
{
    const struct btl_shm_segment_header *h = ep->mapping;
    uint64_t magic = 0;
    struct iovec local = {&magic, sizeof(magic)};
    struct iovec remote = {(void *)(uintptr_t)h->owner_addr, sizeof(magic)};

    return process_vm_readv(ep->pid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof(magic) &&
           magic == (uint64_t)BTL_SHM_MAGIC;
}

/* Moves LEN bytes between the local iovec and the peer's REMOTE: a read (process_vm_readv)
 * or a write (process_vm_writev), in runs of at most IOV_MAX local pieces. */
static int shm_cma(struct btl_shm_endpoint *ep, const struct iovec *local, size_t nlocal,
                   uint64_t remote, size_t len, bool write)
{
    const char *call = write ? "process_vm_writev" : "process_vm_readv";
    const char *way = write ? "to" : "from";
    struct iovec chunk[IOV_MAX];
    size_t li = 0, loff = 0;

    if (!ep->cma) {
        return COMM_ERR_NOT_SUPPORTED;
    }
    while (len > 0) {
        size_t n = 0, want = 0;
        struct iovec r;
        ssize_t got;

        /* The next run of local pieces, at most IOV_MAX of them. */
        for (size_t i = li, off = loff; i < nlocal && n < IOV_MAX && want < len; i++, off = 0) {
            size_t piece = local[i].iov_len - off;

            if (piece > len - want) {
                piece = len - want;
            }
            chunk[n].iov_base = (char *)local[i].iov_base + off;
            chunk[n].iov_len = piece;
            want += piece;
            n++;
        }
        if (n == 0) {
            return COMM_ERR_BAD_PARAM; /* the local side is smaller than LEN */
        }
        r.iov_base = (void *)(uintptr_t)remote;
        r.iov_len = want;
        got = write ? process_vm_writev(ep->pid, chunk, (unsigned long)n, &r, 1, 0)
                    : process_vm_readv(ep->pid, chunk, (unsigned long)n, &r, 1, 0);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EPERM || errno == ENOSYS) {
                comm_log_info("btl_shm",
                              "%s %s rank %ld refused (%s): large messages to it "
                              "are copied through the rings",
                              call, way, ep->base.peer, strerror(errno));
                ep->cma = false;
                return COMM_ERR_NOT_SUPPORTED;
            }
            comm_log_error("btl_shm", "%s %s rank %ld failed: %s", call, way, ep->base.peer,
                           strerror(errno));
            return COMM_ERR_SYSTEM;
        }
        if (got == 0) {
            comm_log_error("btl_shm", "%s %s rank %ld moved nothing", call, way, ep->base.peer);
            return COMM_ERR_SYSTEM;
        }
        remote += (uint64_t)got;
        len -= (size_t)got;
        /* Advance the local position by what was moved. */
        for (size_t adv = (size_t)got; adv > 0;) {
            size_t rest = local[li].iov_len - loff;

            if (adv < rest) {
                loff += adv;
                adv = 0;
            } else {
                adv -= rest;
                li++;
                loff = 0;
            }
        }
    }
    return COMM_OK;
}

int comm_btl_shm_get(struct comm_btl_endpoint *base, const struct iovec *local, size_t nlocal,
                     uint64_t remote, const struct comm_btl_key *remote_key, size_t len)
{
    (void)remote_key;
    return shm_cma((struct btl_shm_endpoint *)base, local, nlocal, remote, len, false);
}

int comm_btl_shm_put(struct comm_btl_endpoint *base, const struct iovec *local, size_t nlocal,
                     uint64_t remote, const struct comm_btl_key *remote_key, size_t len)
{
    struct btl_shm_endpoint *ep = (struct btl_shm_endpoint *)base;

    (void)remote_key; /* CMA writes any memory of the peer */
    if (len == 0) {
        return ep->cma ? COMM_OK : COMM_ERR_NOT_SUPPORTED;
    }
    return shm_cma(ep, local, nlocal, remote, len, true);
}

int comm_btl_shm_write_start(struct comm_btl_endpoint *base, const struct iovec *local,
                             size_t nlocal, uint64_t remote, const struct comm_btl_key *remote_key,
                             size_t len, comm_btl_get_done_fn done, void *ctx)
{
    struct btl_shm_endpoint *ep = (struct btl_shm_endpoint *)base;
    struct btl_shm_module *m = (struct btl_shm_module *)base->module;
    struct btl_shm_written *w;
    int rc;

    (void)remote_key; /* CMA writes any memory of the peer */
    if (!ep->cma) {
        return COMM_ERR_NOT_SUPPORTED;
    }
    if (len == 0) {
        return COMM_OK;
    }
    /* Allocated first: once the bytes are written, their done function must come. */
    w = malloc(sizeof(*w));
    if (w == NULL) {
        return COMM_ERR_NOMEM;
    }
    rc = shm_cma(ep, local, nlocal, remote, len, true);
    if (rc < 0) {
        free(w);
        return rc;
    }
    w->next = NULL;
    w->done = done;
    w->ctx = ctx;
    *m->written_tail = w;
    m->written_tail = &w->next;
    return COMM_OK;
}

int comm_btl_shm_report_writes(struct btl_shm_module *m)
{
    struct btl_shm_written *list = m->written_head;
    int n = 0;

    /* Only those queued before this call: a done function may begin more. */
    m->written_head = NULL;
    m->written_tail = &m->written_head;
    while (list != NULL) {
        struct btl_shm_written *w = list;

        list = w->next;
        w->done(w->ctx, COMM_OK);
        free(w);
        n++;
    }
    return n;
}

void comm_btl_shm_drop_writes(struct btl_shm_module *m)
{
    while (m->written_head != NULL) {
        struct btl_shm_written *w = m->written_head;

        m->written_head = w->next;
        free(w);
    }
    m->written_tail = &m->written_head;
}
