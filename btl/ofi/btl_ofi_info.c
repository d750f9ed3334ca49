/*
 * btl_ofi_info.c - what libfabric offers on this host, for comm-info.
 *
 * Layer: btl/ofi.  Must not: open fabrics, domains or endpoints.
 */
#include "config.h"

#include "btl/ofi/btl_ofi.h"
#include "runtime/error.h"

#include <rdma/fabric.h>

#include <stdio.h>

int comm_btl_ofi_list_providers(comm_btl_ofi_provider_fn fn, void *ctx)
{
    struct fi_info *hints = fi_allocinfo();
    struct fi_info *list = NULL;
    int rc;

    if (hints == NULL) {
        return COMM_ERR_NOMEM;
    }
    hints->ep_attr->type = FI_EP_RDM;
    hints->caps = FI_MSG;
    rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &list);
    fi_freeinfo(hints);
    if (rc != 0 || list == NULL) {
        return COMM_ERR_NOT_FOUND;
    }
    for (struct fi_info *i = list; i != NULL; i = i->next) {
        fn(ctx, i->fabric_attr->prov_name, i->fabric_attr->name, i->domain_attr->name, "rdm");
    }
    fi_freeinfo(list);
    return COMM_OK;
}

void comm_btl_ofi_version(char *out, size_t len)
{
    uint32_t v = fi_version();

    snprintf(out, len, "%u.%u", FI_MAJOR(v), FI_MINOR(v));
}
