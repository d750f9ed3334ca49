/*
 * btl_self.c - the transport from a process to itself.
 *
 * Layer: btl.  Fragments go through a private FIFO delivered at progress (never from inside
 * the send, so the runtime is never re-entered); reading "peer" memory is a memcpy.
 */
#include "config.h"

#include "btl/btl.h"
#include "btl/btl_stubs.h"
#include "base/error.h"
#include "base/log.h"

#include <stdlib.h>
#include <string.h>

enum { BTL_SELF_MAX_FRAGMENT = 64 * 1024, BTL_SELF_EAGER_LIMIT = 4096 };

struct btl_self_frag {
    struct btl_self_frag *next;
    size_t len;
    _Alignas(16) char data[];
};

struct btl_self_module {
    struct comm_btl_module base;
    struct comm_btl_endpoint ep;
    comm_btl_recv_fn recv;
    long rank;
    struct btl_self_frag *head; /* FIFO of fragments not yet delivered */
    struct btl_self_frag **tail;
};

extern const struct comm_btl_ops comm_btl_self;

static struct btl_self_module *btl_self_of(struct comm_btl_endpoint *ep)
{
    return (struct btl_self_module *)ep->module;
}

static int btl_self_open(const struct comm_btl_self_info *self, comm_btl_recv_fn recv,
                         struct comm_btl_module **module_out)
{
    struct btl_self_module *m = calloc(1, sizeof(*m));

    if (m == NULL) {
        return COMM_ERR_NOMEM;
    }
    m->base.ops = &comm_btl_self;
    m->base.max_fragment = BTL_SELF_MAX_FRAGMENT;
    m->base.eager_limit = BTL_SELF_EAGER_LIMIT;
    m->ep.module = &m->base;
    m->ep.peer = self->rank;
    m->recv = recv;
    m->rank = self->rank;
    m->tail = &m->head;
    *module_out = &m->base;
    return COMM_OK;
}

static bool btl_self_reaches(struct comm_btl_module *module, const struct comm_btl_peer *peer)
{
    (void)module;
    return peer->is_self;
}

static int btl_self_connect(struct comm_btl_module *module, const struct comm_btl_peer *peer,
                            struct comm_btl_endpoint **endpoint_out)
{
    struct btl_self_module *m = (struct btl_self_module *)module;

    if (!peer->is_self) {
        return COMM_ERR_UNREACHABLE;
    }
    *endpoint_out = &m->ep;
    return COMM_OK;
}

static int btl_self_reserve(struct comm_btl_endpoint *ep, size_t len, void **slot_out)
{
    struct btl_self_frag *f;

    (void)ep;
    if (len > BTL_SELF_MAX_FRAGMENT) {
        return COMM_ERR_BAD_PARAM;
    }
    f = malloc(sizeof(*f) + len);
    if (f == NULL) {
        return COMM_ERR_NOMEM;
    }
    *slot_out = f->data;
    return COMM_OK;
}

static int btl_self_commit(struct comm_btl_endpoint *ep, void *slot, size_t len)
{
    struct btl_self_module *m = btl_self_of(ep);
    struct btl_self_frag *f =
        (struct btl_self_frag *)((char *)slot - offsetof(struct btl_self_frag, data));

    f->len = len;
    f->next = NULL;
    *m->tail = f;
    m->tail = &f->next;
    return COMM_OK;
}

static int btl_self_send(struct comm_btl_endpoint *ep, const void *hdr, size_t hdr_len,
                         const void *data, size_t data_len)
{
    void *slot;
    int rc = btl_self_reserve(ep, hdr_len + data_len, &slot);

    if (rc < 0) {
        return rc;
    }
    memcpy(slot, hdr, hdr_len);
    if (data_len > 0) {
        memcpy((char *)slot + hdr_len, data, data_len);
    }
    return btl_self_commit(ep, slot, hdr_len + data_len);
}

static int btl_self_get(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                        uint64_t remote, const struct comm_btl_key *remote_key, size_t len)
{
    const char *src = (const char *)(uintptr_t)remote;

    (void)ep;
    (void)remote_key;
    for (size_t i = 0; i < nlocal && len > 0; i++) {
        size_t n = local[i].iov_len < len ? local[i].iov_len : len;

        memcpy(local[i].iov_base, src, n);
        src += n;
        len -= n;
    }
    return COMM_OK;
}

static int btl_self_register(struct comm_btl_module *module, void *ptr, size_t len,
                             struct comm_btl_key *key_out)
{
    (void)module;
    (void)ptr;
    (void)len;
    memset(key_out, 0, sizeof(*key_out));
    return COMM_OK;
}

static int btl_self_deregister(struct comm_btl_module *module, const struct comm_btl_key *key)
{
    (void)module;
    (void)key;
    return COMM_OK;
}

static int btl_self_progress(struct comm_btl_module *module)
{
    struct btl_self_module *m = (struct btl_self_module *)module;
    struct btl_self_frag *list = m->head;
    int n = 0;

    /* Only what was queued before this call: the handler may queue more. */
    m->head = NULL;
    m->tail = &m->head;
    while (list != NULL) {
        struct btl_self_frag *f = list;

        list = f->next;
        m->recv(m->rank, f->data, f->len);
        free(f);
        n++;
    }
    return n;
}

static void btl_self_wired(struct comm_btl_module *module)
{
    (void)module;
}

static void btl_self_close(struct comm_btl_module *module)
{
    struct btl_self_module *m = (struct btl_self_module *)module;

    while (m->head != NULL) {
        struct btl_self_frag *f = m->head;
        m->head = f->next;
        free(f);
    }
    free(m);
}

const struct comm_btl_ops comm_btl_self = {
    .size = sizeof(struct comm_btl_ops),
    .name = "self",
    .exclusivity = 100,
    .open = btl_self_open,
    .reaches = btl_self_reaches,
    .connect = btl_self_connect,
    .reserve = btl_self_reserve,
    .commit = btl_self_commit,
    .send = btl_self_send,
    .get = btl_self_get,
    .register_mem = btl_self_register,
    .deregister_mem = btl_self_deregister,
    .progress = btl_self_progress,
    .close = btl_self_close,
    .wired = btl_self_wired,
    .flush = comm_btl_stub_flush,
    .put = comm_btl_stub_put,
    .get_start = comm_btl_stub_get_start,
    .put_start = comm_btl_stub_put_start,
    .write_start = comm_btl_stub_write_start,
    .describe = comm_btl_stub_describe,
};
