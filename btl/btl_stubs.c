/*
 * btl_stubs.c - operations a btl does not provide.
 *
 * Layer: btl.  Must not: do anything but refuse.
 */
#include "config.h"

#include "btl/btl_stubs.h"
#include "base/error.h"

int comm_btl_stub_reserve(struct comm_btl_endpoint *ep, size_t len, void **slot_out)
{
    (void)ep;
    (void)len;
    (void)slot_out;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_commit(struct comm_btl_endpoint *ep, void *slot, size_t len)
{
    (void)ep;
    (void)slot;
    (void)len;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_send(struct comm_btl_endpoint *ep, const void *hdr, size_t hdr_len,
                       const void *data, size_t data_len)
{
    (void)ep;
    (void)hdr;
    (void)hdr_len;
    (void)data;
    (void)data_len;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_get(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                      uint64_t remote, const struct comm_btl_key *remote_key, size_t len)
{
    (void)ep;
    (void)local;
    (void)nlocal;
    (void)remote;
    (void)remote_key;
    (void)len;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_put(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                      uint64_t remote, const struct comm_btl_key *remote_key, size_t len)
{
    (void)ep;
    (void)local;
    (void)nlocal;
    (void)remote;
    (void)remote_key;
    (void)len;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_get_start(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                            uint64_t remote, const struct comm_btl_key *remote_key, size_t len,
                            comm_btl_get_done_fn done, void *ctx)
{
    (void)ep;
    (void)local;
    (void)nlocal;
    (void)remote;
    (void)remote_key;
    (void)len;
    (void)done;
    (void)ctx;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_put_start(struct comm_btl_endpoint *ep, const void *local, size_t len,
                            uint64_t remote, const struct comm_btl_key *remote_key, uint32_t token,
                            comm_btl_get_done_fn done, void *ctx)
{
    (void)ep;
    (void)local;
    (void)len;
    (void)remote;
    (void)remote_key;
    (void)token;
    (void)done;
    (void)ctx;
    return COMM_ERR_NOT_SUPPORTED;
}

void comm_btl_stub_describe(struct comm_btl_endpoint *ep, char *out, size_t len)
{
    (void)ep;
    if (len > 0) {
        out[0] = '\0';
    }
}

int comm_btl_stub_write_start(struct comm_btl_endpoint *ep, const struct iovec *local,
                              size_t nlocal, uint64_t remote, const struct comm_btl_key *remote_key,
                              size_t len, comm_btl_get_done_fn done, void *ctx)
{
    (void)ep;
    (void)local;
    (void)nlocal;
    (void)remote;
    (void)remote_key;
    (void)len;
    (void)done;
    (void)ctx;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_register(struct comm_btl_module *module, void *ptr, size_t len,
                           struct comm_btl_key *key_out)
{
    (void)module;
    (void)ptr;
    (void)len;
    (void)key_out;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_deregister(struct comm_btl_module *module, const struct comm_btl_key *key)
{
    (void)module;
    (void)key;
    return COMM_ERR_NOT_SUPPORTED;
}

int comm_btl_stub_flush(struct comm_btl_module *module)
{
    (void)module;
    return COMM_ERR_NOT_SUPPORTED;
}
