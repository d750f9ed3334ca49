/*
 * btl_ofi_lib.c - loading libfabric when a job needs the network, not before.
 *
 * Layer: btl/ofi.  Must not: load libfabric from anywhere but the calls that need it (opening
 * the btl, comm-info's listing), or unload a library it uses.
 *
 * libcomm does not link libfabric.  Debian's libfabric links the PSM libraries, whose
 * constructors calibrate a clock with ~800 short sleeps in every process that loads them: a
 * program linked with libfabric took 0.20 s to start and end where the same program unlinked
 * took under 0.01 s.  A singleton, or a job whose ranks all share one host and reach each
 * other through shared memory, never opens btl/ofi and so never pays it.
 *
 * The file is COMM_OFI_LIBRARY (by default the file name a link would have recorded, found by
 * configure), and each function is taken at the symbol version a link against the headers
 * comm was built with would have used (dlvsym): a newer libfabric keeps those versions, so its
 * structures are read as these headers lay them out.
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "btl/ofi/btl_ofi_settings.h"
#include "base/error.h"
#include "base/log.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>

/* The functions btl/ofi calls by name; everything else goes through the objects' operations. */
static struct {
    int (*getinfo)(uint32_t version, const char *node, const char *service, uint64_t flags,
                   const struct fi_info *hints, struct fi_info **info);
    void (*freeinfo)(struct fi_info *info);
    struct fi_info *(*dupinfo)(const struct fi_info *info);
    int (*fabric)(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context);
    const char *(*strerror)(int errnum);
    uint32_t (*version)(void);
} ofi_lib;

/* The libfabric API btl/ofi asks for; a library older than this is refused when loaded. */
#define BTL_OFI_API FI_VERSION(1, 17)

/* Guarded by: the first call's caller (MPI_Init or comm-info, one thread). */
static void *ofi_lib_handle;
static char ofi_lib_file[512];
static char ofi_lib_failure[512];

int comm_btl_ofi_lib_load(char *why_out, size_t len)
{
    const char *file = comm_config_value(&comm_btl_ofi_setting_list[COMM_BTL_OFI_SETTING_LIBRARY]);
    const struct {
        const char *name, *version;
        void **slot;
    } symbols[] = {
        {"fi_getinfo", COMM_FI_GETINFO_VERSION, (void **)&ofi_lib.getinfo},
        {"fi_freeinfo", COMM_FI_FREEINFO_VERSION, (void **)&ofi_lib.freeinfo},
        {"fi_dupinfo", COMM_FI_DUPINFO_VERSION, (void **)&ofi_lib.dupinfo},
        {"fi_fabric", COMM_FI_FABRIC_VERSION, (void **)&ofi_lib.fabric},
        {"fi_strerror", COMM_FI_STRERROR_VERSION, (void **)&ofi_lib.strerror},
        {"fi_version", COMM_FI_VERSION_VERSION, (void **)&ofi_lib.version},
    };
    struct link_map *map = NULL;
    void *handle;

    if (ofi_lib_handle != NULL) {
        return COMM_OK;
    }
    if (ofi_lib_failure[0] != '\0') {
        snprintf(why_out, len, "%s", ofi_lib_failure);
        return COMM_ERR_NOT_FOUND;
    }
    handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    comm_btl_ofi_restore_signals(); /* the PSM libraries' constructors have run */
    if (handle == NULL) {
        const char *err = dlerror();

        snprintf(ofi_lib_failure, sizeof(ofi_lib_failure), "cannot load %s (COMM_OFI_LIBRARY): %s",
                 file, err != NULL ? err : "unknown error");
        snprintf(why_out, len, "%s", ofi_lib_failure);
        return COMM_ERR_NOT_FOUND;
    }
    for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
        *symbols[i].slot = dlvsym(handle, symbols[i].name, symbols[i].version);
        if (*symbols[i].slot == NULL) {
            snprintf(ofi_lib_failure, sizeof(ofi_lib_failure),
                     "%s (COMM_OFI_LIBRARY) has no %s@%s, the version comm was built against", file,
                     symbols[i].name, symbols[i].version);
            snprintf(why_out, len, "%s", ofi_lib_failure);
            ofi_lib.strerror = NULL; /* comm_btl_ofi_fi_strerror must not call into it */
            dlclose(handle);
            return COMM_ERR_NOT_FOUND;
        }
    }
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != NULL && map->l_name != NULL &&
        map->l_name[0] != '\0') {
        file = map->l_name;
    }
    /* An older library would refuse every request for this API. */
    if (FI_VERSION_LT(ofi_lib.version(), BTL_OFI_API)) {
        snprintf(ofi_lib_failure, sizeof(ofi_lib_failure),
                 "libfabric %u.%u loaded from %s (COMM_OFI_LIBRARY) is older than %u.%u, the "
                 "API comm asks for",
                 FI_MAJOR(ofi_lib.version()), FI_MINOR(ofi_lib.version()), file,
                 FI_MAJOR(BTL_OFI_API), FI_MINOR(BTL_OFI_API));
        snprintf(why_out, len, "%s", ofi_lib_failure);
        ofi_lib.strerror = NULL;
        dlclose(handle);
        return COMM_ERR_NOT_FOUND;
    }
    ofi_lib_handle = handle;
    snprintf(ofi_lib_file, sizeof(ofi_lib_file), "%s", file);
    comm_log_info("btl_ofi", "libfabric %u.%u loaded from %s", FI_MAJOR(ofi_lib.version()),
                  FI_MINOR(ofi_lib.version()), ofi_lib_file);
    return COMM_OK;
}

const char *comm_btl_ofi_library_file(void)
{
    return ofi_lib_file;
}

int comm_btl_ofi_fi_getinfo(const struct fi_info *hints, struct fi_info **info)
{
    return ofi_lib.getinfo(BTL_OFI_API, NULL, NULL, 0, hints, info);
}

void comm_btl_ofi_fi_freeinfo(struct fi_info *info)
{
    ofi_lib.freeinfo(info);
}

struct fi_info *comm_btl_ofi_fi_dupinfo(const struct fi_info *info)
{
    return ofi_lib.dupinfo(info);
}

int comm_btl_ofi_fi_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric)
{
    return ofi_lib.fabric(attr, fabric, NULL);
}

const char *comm_btl_ofi_fi_strerror(int errnum)
{
    return ofi_lib.strerror != NULL ? ofi_lib.strerror(errnum) : "libfabric is not loaded";
}

uint32_t comm_btl_ofi_fi_version(void)
{
    return ofi_lib.version();
}
