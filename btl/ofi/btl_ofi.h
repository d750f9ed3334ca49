/*
 * btl_ofi.h - the libfabric byte-transfer layer.
 *
 * Layer: btl.  btl/ofi is the only code in comm that includes libfabric headers; its interface
 * speaks comm's terms only.
 * Must not: open endpoints or touch the network to answer an inquiry: listing providers reads
 * what libfabric reports and opens nothing.
 */
#ifndef COMM_BTL_OFI_H
#define COMM_BTL_OFI_H

#include <stddef.h>

/* Called once per provider/fabric/domain triple that libfabric reports. */
typedef void (*comm_btl_ofi_provider_fn)(void *ctx, const char *provider, const char *fabric,
                                         const char *domain, const char *endpoint_type);

/*
 * Lists the reliable-datagram providers libfabric can offer on this host.  Returns COMM_OK,
 * or COMM_ERR_NOT_FOUND when libfabric offers none (not an error for an inquiry).
 */
int comm_btl_ofi_list_providers(comm_btl_ofi_provider_fn fn, void *ctx);

/* libfabric's version as "1.17". */
void comm_btl_ofi_version(char *out, size_t len);

#endif
