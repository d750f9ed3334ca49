/*
 * topo_hw.h - the inside of a host, from hwloc: which package, NUMA node, caches and core a
 * rank sits on.
 *
 * Layer: topo, like topo.h: a model that sends no messages.  hwloc reads this host, or
 * the XML file HWLOC_XMLFILE names (so tests can describe hosts they do not have).
 *
 * A rank's place.  Its core is taken from its binding when the binding lies inside one core;
 * otherwise (not bound, bound to more than a core, or an XML host, where binding means
 * nothing) it is the core the launcher would bind it to: the (LOCAL_RANK mod N)th of the N
 * cores its binding allows (all of them when it is not bound).  At every level the place is
 * the instance (hwloc's logical index) that holds that core.
 *
 * Cost: one hwloc load (milliseconds), so callers ask only when they need it, never at
 * MPI_Init.  Thread safety: none needed; nothing is kept between calls.
 */
#ifndef COMM_TOPO_HW_H
#define COMM_TOPO_HW_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/* The levels inside a host, from the largest to the smallest. */
enum comm_topo_hw_level {
    COMM_TOPO_HW_PACKAGE,
    COMM_TOPO_HW_NUMANODE,
    COMM_TOPO_HW_L3CACHE,
    COMM_TOPO_HW_L2CACHE,
    COMM_TOPO_HW_L1CACHE,
    COMM_TOPO_HW_CORE,
    COMM_TOPO_HW_PU,
    COMM_TOPO_HW_LEVELS
};

struct comm_topo_hw_place {
    int index[COMM_TOPO_HW_LEVELS]; /* the instance holding this rank; -1: the host has none */
    int count[COMM_TOPO_HW_LEVELS]; /* instances of the level on this host */
    bool bound;                     /* the core came from the rank's binding */
    bool from_xml;                  /* hwloc read HWLOC_XMLFILE, not this host */
};

/* hwloc's name of LEVEL ("Package", "NUMANode", "L3Cache", ..., "Core", "PU"). */
const char *comm_topo_hw_name(enum comm_topo_hw_level level);

/* The level named NAME (hwloc's names, any case, with or without "hwloc://"), or -1. */
int comm_topo_hw_find(const char *name);

/*
 * This rank's place on its host.  COMM_ERR_SYSTEM (with why in err) when hwloc cannot read
 * the host or the XML file.
 */
int comm_topo_hw_place(long local_rank, struct comm_topo_hw_place *out, char *err,
                       size_t errlen);

/*
 * The PUs for a thread that serves the network device DEVICE (an interface or a libfabric
 * domain name) on a host with LOCAL_SIZE ranks, into CPUS: those near the device (the cores
 * of the object that holds its PCI device, from hwloc's I/O discovery); when hwloc places
 * the device nowhere (virtual devices, or none that name), the cores the host's ranks leave
 * free, the launcher binding local rank i to the i-th core; when they leave none, every PU.
 * WHERE says which, for messages ("near eth1", "on the cores the host's 2 ranks leave free",
 * "anywhere: the host's 4 ranks use all its 2 cores").  COMM_ERR_SYSTEM (why in WHERE) when
 * hwloc cannot read the host.  Cost: one hwloc load with I/O devices.
 */
int comm_topo_hw_device_cpus(const char *device, long local_size, cpu_set_t *cpus, char *where,
                             size_t len);

#endif
