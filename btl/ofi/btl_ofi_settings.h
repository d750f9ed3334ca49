/*
 * btl_ofi_settings.h - the indices of the ofi btl's settings in its table.
 *
 * Layer: btl/ofi.  Private to the files of btl/ofi; free of libfabric types.
 */
#ifndef COMM_BTL_OFI_SETTINGS_H
#define COMM_BTL_OFI_SETTINGS_H

#include "base/config_table.h"

enum comm_btl_ofi_setting {
    COMM_BTL_OFI_SETTING_BACKEND,
    COMM_BTL_OFI_SETTING_ALLOWLIST,
    COMM_BTL_OFI_SETTING_EAGER,
    COMM_BTL_OFI_SETTING_FRAGMENT,
    COMM_BTL_OFI_SETTING_CREDITS,
    COMM_BTL_OFI_SETTING_RECV_MEMORY,
    COMM_BTL_OFI_SETTING_MR_CACHE,
    COMM_BTL_OFI_SETTING_READ_SIZE,
    COMM_BTL_OFI_SETTING_WRITE_MAX,
    COMM_BTL_OFI_SETTING_WRITE_PIECE,
    COMM_BTL_OFI_SETTING_LIBRARY,
    COMM_BTL_OFI_SETTING_STRIPE_MIN,
    COMM_BTL_OFI_SETTING_RAIL_TIMEOUT,
    COMM_BTL_OFI_SETTING_LINK_TIMEOUT,
    COMM_BTL_OFI_SETTING_HOST_PROVIDER,
    COMM_BTL_OFI_SETTING_PROGRESS_THREADS,
    COMM_BTL_OFI_SETTING_RAIL_REREAD,
};

extern const struct comm_setting comm_btl_ofi_setting_list[];

#endif
