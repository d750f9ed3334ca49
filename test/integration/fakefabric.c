/*
 * fakefabric.c - a library that looks like libfabric to the loader but says it is version
 * 1.0: it exports the six functions btl/ofi takes, at the symbol versions comm was built
 * against (config.h, fakefabric.map), so that COMM_OFI_LIBRARY pointing at it reaches the
 * check of the library's API version.  Nothing here is ever asked to do real work.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

/* A function name bound to one symbol version, as libfabric binds its own. */
#define FAKE_VERSIONED(fn, name, version) __asm__(".symver " #fn "," name "@@" version)

int fake_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
                 const void *hints, void **info);
void fake_freeinfo(void *info);
void *fake_dupinfo(const void *info);
int fake_fabric(void *attr, void **fabric, void *context);
const char *fake_strerror(int errnum);
uint32_t fake_version(void);

FAKE_VERSIONED(fake_getinfo, "fi_getinfo", COMM_FI_GETINFO_VERSION);
FAKE_VERSIONED(fake_freeinfo, "fi_freeinfo", COMM_FI_FREEINFO_VERSION);
FAKE_VERSIONED(fake_dupinfo, "fi_dupinfo", COMM_FI_DUPINFO_VERSION);
FAKE_VERSIONED(fake_fabric, "fi_fabric", COMM_FI_FABRIC_VERSION);
FAKE_VERSIONED(fake_strerror, "fi_strerror", COMM_FI_STRERROR_VERSION);
FAKE_VERSIONED(fake_version, "fi_version", COMM_FI_VERSION_VERSION);

__attribute__((visibility("default"))) int fake_getinfo(uint32_t version, const char *node,
                                                        const char *service, uint64_t flags,
                                                        const void *hints, void **info)
{
    (void)version, (void)node, (void)service, (void)flags, (void)hints;
    *info = NULL;
    return -38; /* -FI_ENOSYS */
}

__attribute__((visibility("default"))) void fake_freeinfo(void *info)
{
    (void)info;
}

__attribute__((visibility("default"))) void *fake_dupinfo(const void *info)
{
    (void)info;
    return NULL;
}

__attribute__((visibility("default"))) int fake_fabric(void *attr, void **fabric, void *context)
{
    (void)attr, (void)context;
    *fabric = NULL;
    return -38;
}

__attribute__((visibility("default"))) const char *fake_strerror(int errnum)
{
    (void)errnum;
    return "fake libfabric";
}

__attribute__((visibility("default"))) uint32_t fake_version(void)
{
    return (1U << 16) | 0U; /* FI_VERSION(1, 0) */
}
