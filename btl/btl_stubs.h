/*
 * btl_stubs.h - what a btl points at for an operation it does not provide.
 *
 * Layer: btl.  Each stub has the exact signature of the operation it replaces and returns
 * COMM_ERR_NOT_SUPPORTED, so no operation of a btl table is ever NULL.
 */
#ifndef COMM_BTL_STUBS_H
#define COMM_BTL_STUBS_H

#include "btl/btl.h"

int comm_btl_stub_reserve(struct comm_btl_endpoint *ep, size_t len, void **slot_out);
int comm_btl_stub_commit(struct comm_btl_endpoint *ep, void *slot, size_t len);
int comm_btl_stub_send(struct comm_btl_endpoint *ep, const void *hdr, size_t hdr_len,
                       const void *data, size_t data_len);
int comm_btl_stub_get(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                      uint64_t remote, const struct comm_btl_key *remote_key, size_t len);
int comm_btl_stub_put(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                      uint64_t remote, const struct comm_btl_key *remote_key, size_t len);
int comm_btl_stub_get_start(struct comm_btl_endpoint *ep, const struct iovec *local, size_t nlocal,
                            uint64_t remote, const struct comm_btl_key *remote_key, size_t len,
                            comm_btl_get_done_fn done, void *ctx);
int comm_btl_stub_put_start(struct comm_btl_endpoint *ep, const void *local, size_t len,
                            uint64_t remote, const struct comm_btl_key *remote_key, uint32_t token,
                            comm_btl_get_done_fn done, void *ctx);
void comm_btl_stub_describe(struct comm_btl_endpoint *ep, char *out, size_t len);
int comm_btl_stub_write_start(struct comm_btl_endpoint *ep, const struct iovec *local,
                              size_t nlocal, uint64_t remote, const struct comm_btl_key *remote_key,
                              size_t len, comm_btl_get_done_fn done, void *ctx);
int comm_btl_stub_register(struct comm_btl_module *module, void *ptr, size_t len,
                           struct comm_btl_key *key_out);
int comm_btl_stub_deregister(struct comm_btl_module *module, const struct comm_btl_key *key);
/* For a btl whose fragments are in the peer's hands once committed. */
int comm_btl_stub_flush(struct comm_btl_module *module);

#endif
