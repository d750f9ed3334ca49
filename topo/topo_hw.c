/*
 * topo_hw.c - a rank's place inside its host (topo_hw.h), from hwloc.
 *
 * Layer: topo.  No logging: faults go back to the caller in err.
 */
#include "config.h"

#include "topo/topo_hw.h"

#include "base/error.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const struct {
    const char *name;
    hwloc_obj_type_t type;
} hw_levels[COMM_TOPO_HW_LEVELS] = {
    [COMM_TOPO_HW_PACKAGE] = {"Package", HWLOC_OBJ_PACKAGE},
    [COMM_TOPO_HW_NUMANODE] = {"NUMANode", HWLOC_OBJ_NUMANODE},
    [COMM_TOPO_HW_L3CACHE] = {"L3Cache", HWLOC_OBJ_L3CACHE},
    [COMM_TOPO_HW_L2CACHE] = {"L2Cache", HWLOC_OBJ_L2CACHE},
    [COMM_TOPO_HW_L1CACHE] = {"L1Cache", HWLOC_OBJ_L1CACHE},
    [COMM_TOPO_HW_CORE] = {"Core", HWLOC_OBJ_CORE},
    [COMM_TOPO_HW_PU] = {"PU", HWLOC_OBJ_PU},
};

const char *comm_topo_hw_name(enum comm_topo_hw_level level)
{
    return level < COMM_TOPO_HW_LEVELS ? hw_levels[level].name : "?";
}

int comm_topo_hw_find(const char *name)
{
    static const char prefix[] = "hwloc://";

    if (name == NULL) {
        return -1;
    }
    if (strncasecmp(name, prefix, sizeof(prefix) - 1) == 0) {
        name += sizeof(prefix) - 1;
    }
    for (int i = 0; i < COMM_TOPO_HW_LEVELS; i++) {
        if (strcasecmp(name, hw_levels[i].name) == 0) {
            return i;
        }
    }
    return -1;
}

/* The set of PUs this rank may run on, within the host hwloc describes. */
static hwloc_bitmap_t hw_allowed(hwloc_topology_t topo, struct comm_topo_hw_place *out)
{
    hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();

    if (set == NULL) {
        return NULL;
    }
    out->from_xml = !hwloc_topology_is_thissystem(topo);
    if (out->from_xml || hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0) {
        hwloc_bitmap_copy(set, all);
    }
    hwloc_bitmap_and(set, set, all);
    if (hwloc_bitmap_iszero(set)) {
        hwloc_bitmap_copy(set, all);
    }
    return set;
}

/* The core (or PU, on a host hwloc shows no cores for) this rank sits on. */
static hwloc_obj_t hw_core(hwloc_topology_t topo, hwloc_const_bitmap_t allowed, long local_rank,
                           struct comm_topo_hw_place *out)
{
    hwloc_obj_type_t type =
        hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    int n = hwloc_get_nbobjs_by_type(topo, type);
    int usable = 0;
    long pick;

    for (int i = 0; i < n; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, type, (unsigned)i);

        if (hwloc_bitmap_isincluded(allowed, core->cpuset)) {
            out->bound = !out->from_xml;
            return core;
        }
        usable += hwloc_bitmap_intersects(allowed, core->cpuset);
    }
    if (usable == 0) {
        return NULL;
    }
    pick = (local_rank < 0 ? 0 : local_rank) % usable;
    for (int i = 0; i < n; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, type, (unsigned)i);

        if (hwloc_bitmap_intersects(allowed, core->cpuset) && pick-- == 0) {
            return core;
        }
    }
    return NULL;
}

/* The instance of TYPE that holds all of CPUS, or -1. */
static int hw_holder(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_bitmap_t cpus)
{
    int n = hwloc_get_nbobjs_by_type(topo, type);

    for (int i = 0; i < n; i++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, (unsigned)i);

        if (obj->cpuset != NULL && hwloc_bitmap_isincluded(cpus, obj->cpuset)) {
            return (int)obj->logical_index;
        }
    }
    return -1;
}

int comm_topo_hw_place(long local_rank, struct comm_topo_hw_place *out, char *err,
                       size_t errlen)
{
    const char *xml = getenv("HWLOC_XMLFILE");
    hwloc_topology_t topo;
    hwloc_bitmap_t allowed, at;
    hwloc_obj_t core;
    int rc = COMM_OK;

    memset(out, 0, sizeof(*out));
    /* hwloc reads this host instead when it cannot read the file: say so rather than do that. */
    if (xml != NULL && xml[0] != '\0' && access(xml, R_OK) != 0) {
        snprintf(err, errlen, "cannot read HWLOC_XMLFILE '%s': %s", xml, strerror(errno));
        return COMM_ERR_SYSTEM;
    }
    if (hwloc_topology_init(&topo) != 0) {
        snprintf(err, errlen, "cannot initialize hwloc");
        return COMM_ERR_SYSTEM;
    }
    if (hwloc_topology_load(topo) != 0) {
        if (xml != NULL && xml[0] != '\0') {
            snprintf(err, errlen, "hwloc cannot read HWLOC_XMLFILE '%s'", xml);
        } else {
            snprintf(err, errlen, "hwloc cannot read this host's topology");
        }
        hwloc_topology_destroy(topo);
        return COMM_ERR_SYSTEM;
    }
    if (xml != NULL && xml[0] != '\0' && hwloc_topology_is_thissystem(topo) &&
        getenv("HWLOC_THISSYSTEM") == NULL) {
        /* hwloc could not parse the file and read this host instead. */
        snprintf(err, errlen, "hwloc cannot parse HWLOC_XMLFILE '%s' (not hwloc XML?)", xml);
        hwloc_topology_destroy(topo);
        return COMM_ERR_SYSTEM;
    }
    allowed = hw_allowed(topo, out);
    at = hwloc_bitmap_alloc();
    core = allowed != NULL ? hw_core(topo, allowed, local_rank, out) : NULL;
    if (core == NULL || at == NULL) {
        snprintf(err, errlen, "hwloc shows no core this process may run on");
        rc = COMM_ERR_SYSTEM;
    } else {
        /* A rank bound inside one PU is there; otherwise the core is where it sits. */
        hwloc_bitmap_copy(at, core->cpuset);
        if (out->bound && hwloc_bitmap_weight(allowed) == 1) {
            hwloc_bitmap_copy(at, allowed);
        }
        for (int l = 0; l < COMM_TOPO_HW_LEVELS; l++) {
            int count = hwloc_get_nbobjs_by_type(topo, hw_levels[l].type);

            out->count[l] = count > 0 ? count : 0;
            if (l == COMM_TOPO_HW_PU) {
                /* The first PU of the place: a PU holds one bit, never a whole core. */
                hwloc_bitmap_only(at, (unsigned)hwloc_bitmap_first(at));
            }
            out->index[l] = out->count[l] > 0 ? hw_holder(topo, hw_levels[l].type, at) : -1;
        }
    }
    hwloc_bitmap_free(at);
    hwloc_bitmap_free(allowed);
    hwloc_topology_destroy(topo);
    return rc;
}

/* The union of the cores of TOPO whose logical index is FROM or more, into SET. */
static void hw_cores_from(hwloc_topology_t topo, long from, hwloc_bitmap_t set)
{
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    hwloc_obj_type_t type = n > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;

    n = hwloc_get_nbobjs_by_type(topo, type);
    hwloc_bitmap_zero(set);
    for (int i = (int)from; i < n; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, type, (unsigned)i);

        if (core != NULL && core->cpuset != NULL) {
            hwloc_bitmap_or(set, set, core->cpuset);
        }
    }
}

int comm_topo_hw_device_cpus(const char *device, long local_size, cpu_set_t *cpus, char *where,
                             size_t len)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t set;
    hwloc_obj_t dev = NULL;
    hwloc_const_cpuset_t all;
    int cores;

    CPU_ZERO(cpus);
    if (hwloc_topology_init(&topo) != 0) {
        snprintf(where, len, "cannot initialize hwloc");
        return COMM_ERR_SYSTEM;
    }
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(topo) != 0 || (set = hwloc_bitmap_alloc()) == NULL) {
        snprintf(where, len, "hwloc cannot read this host's topology");
        hwloc_topology_destroy(topo);
        return COMM_ERR_SYSTEM;
    }
    all = hwloc_topology_get_topology_cpuset(topo);
    while (device != NULL && device[0] != '\0' && (dev = hwloc_get_next_osdev(topo, dev)) != NULL) {
        if (dev->name != NULL && strcmp(dev->name, device) == 0) {
            break;
        }
    }
    if (dev != NULL) {
        hwloc_obj_t near = hwloc_get_non_io_ancestor_obj(topo, dev);

        if (near != NULL && near->cpuset != NULL && !hwloc_bitmap_isequal(near->cpuset, all)) {
            hwloc_bitmap_copy(set, near->cpuset);
            snprintf(where, len, "near %s", device);
        } else {
            dev = NULL; /* anywhere near it: as if hwloc did not know it */
        }
    }
    if (dev == NULL) {
        cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        cores = cores > 0 ? cores : hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        hw_cores_from(topo, local_size, set);
        if (!hwloc_bitmap_iszero(set)) {
            snprintf(where, len, "on the cores the host's %ld rank%s leave%s free", local_size,
                     local_size == 1 ? "" : "s", local_size == 1 ? "s" : "");
        } else {
            hwloc_bitmap_copy(set, all);
            snprintf(where, len, "anywhere: the host's %ld ranks use all its %d cores", local_size,
                     cores);
        }
    }
    hwloc_cpuset_to_glibc_sched_affinity(topo, set, cpus, sizeof(*cpus));
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return COMM_OK;
}
