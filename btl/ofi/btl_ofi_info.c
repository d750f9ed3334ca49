/*
 * btl_ofi_info.c - what libfabric offers on this host, for comm-info.
 *
 * Layer: btl/ofi.  Must not: open fabrics, domains or endpoints, or look at a device a job
 * would not be allowed to use (outside a job that is the loopback interface, unless
 * COMM_DEVICE_ALLOWLIST or COMM_NET_INTERFACES names others).
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "btl/ofi/btl_ofi_settings.h"
#include "base/error.h"

#include <stdio.h>

int comm_btl_ofi_list_providers(comm_btl_ofi_provider_fn fn, void *ctx)
{
    const char *allowlist =
        comm_config_value(&comm_btl_ofi_setting_list[COMM_BTL_OFI_SETTING_ALLOWLIST]);
    const char *net = comm_config_env("COMM_NET_INTERFACES");
    struct comm_btl_ofi_devices devices;
    struct fi_info *list = NULL;
    char why[256];

    if (comm_btl_ofi_device_policy(allowlist[0] != '\0' ? allowlist : NULL,
                                   net != NULL && net[0] != '\0' ? net : NULL, true, &devices, why,
                                   sizeof(why)) < 0) {
        return COMM_ERR_NOT_FOUND;
    }
    comm_btl_ofi_restrict_env(&devices);
    if (comm_btl_ofi_lib_load(why, sizeof(why)) < 0 ||
        comm_btl_ofi_getinfo(NULL, &devices, COMM_BTL_OFI_RMA_NONE, &list, why, sizeof(why)) < 0) {
        return COMM_ERR_NOT_FOUND;
    }
    for (struct fi_info *i = list; i != NULL; i = i->next) {
        fn(ctx, i->fabric_attr->prov_name, i->fabric_attr->name, i->domain_attr->name, "rdm");
    }
    comm_btl_ofi_fi_freeinfo(list);
    return COMM_OK;
}

void comm_btl_ofi_version(char *out, size_t len)
{
    char why[512];
    uint32_t v;

    if (comm_btl_ofi_lib_load(why, sizeof(why)) < 0) {
        snprintf(out, len, "not loaded: %s", why);
        return;
    }
    v = comm_btl_ofi_fi_version();
    snprintf(out, len, "%u.%u", FI_MAJOR(v), FI_MINOR(v));
}
