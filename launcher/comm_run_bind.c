/*
 * comm_run_bind.c - where each rank runs: a core per rank when they fit, none otherwise.
 *
 * Layer: launcher.  Must not: bind anything itself; it computes cpu sets that the child
 * applies with sched_setaffinity() between fork and exec (hwloc is not fork-safe there).
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "base/error.h"
#include "base/log.h"

#include <hwloc.h>

#include <stdio.h>
#include <string.h>

static long bind_cores_of(hwloc_topology_t topo)
{
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);

    if (n <= 0) {
        n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    }
    return n > 0 ? n : 1;
}

static int bind_load(hwloc_topology_t *topo_out)
{
    hwloc_topology_t topo;

    if (hwloc_topology_init(&topo) != 0) {
        comm_log_error("launcher", "cannot initialize hwloc");
        return COMM_ERR_SYSTEM;
    }
    if (hwloc_topology_load(topo) != 0) {
        comm_log_error("launcher", "hwloc cannot read this host's topology");
        hwloc_topology_destroy(topo);
        return COMM_ERR_SYSTEM;
    }
    *topo_out = topo;
    return COMM_OK;
}

long comm_run_bind_ncores(void)
{
    hwloc_topology_t topo;
    long n;

    if (bind_load(&topo) < 0) {
        return 1;
    }
    n = bind_cores_of(topo);
    hwloc_topology_destroy(topo);
    return n;
}

int comm_run_bind_plan(struct comm_run_job *job, enum comm_run_bind mode, bool report)
{
    hwloc_topology_t topo;
    hwloc_obj_type_t type;
    long ncores;
    int rc = bind_load(&topo);

    if (rc < 0) {
        return rc;
    }
    type = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    ncores = bind_cores_of(topo);
    if (!hwloc_topology_is_thissystem(topo)) {
        /* HWLOC_XMLFILE describes another host: its cores are not this one's to bind to. */
        if (mode == COMM_RUN_BIND_CORE) {
            comm_log_warn("launcher", "--bind-to core: hwloc describes HWLOC_XMLFILE, not this "
                                      "host; ranks are not bound");
        }
        mode = COMM_RUN_BIND_NONE;
    }
    if (mode == COMM_RUN_BIND_DEFAULT) {
        mode = job->local_np <= ncores ? COMM_RUN_BIND_CORE : COMM_RUN_BIND_NONE;
    } else if (mode == COMM_RUN_BIND_CORE && job->local_np > ncores) {
        comm_log_warn("launcher", "--bind-to core with %ld ranks on %ld cores: cores are shared, "
                      "%ld ranks or more on each", job->local_np, ncores, job->local_np / ncores);
    }
    for (long i = 0; i < job->np; i++) {
        struct comm_run_rank *r = &job->ranks[i];
        long slot = r->local_rank;

        if (!r->local) {
            continue;
        }
        hwloc_obj_t core;
        int cpu;
        char cpus[128] = "";
        size_t used = 0;

        r->bound = false;
        CPU_ZERO(&r->cpus);
        if (mode == COMM_RUN_BIND_CORE) {
            core = hwloc_get_obj_by_type(topo, type, (unsigned)(slot % ncores));
            if (core == NULL || core->cpuset == NULL) {
                comm_log_error("launcher", "hwloc has no core %ld to bind rank %ld to",
                               slot % ncores, i);
                hwloc_topology_destroy(topo);
                return COMM_ERR_SYSTEM;
            }
            hwloc_bitmap_foreach_begin(cpu, core->cpuset)
            {
                if (cpu < CPU_SETSIZE) {
                    CPU_SET(cpu, &r->cpus);
                    int w = snprintf(cpus + used, sizeof(cpus) - used, "%s%d", used ? "," : "",
                                     cpu);
                    if (w > 0 && (size_t)w < sizeof(cpus) - used) {
                        used += (size_t)w;
                    }
                }
            }
            hwloc_bitmap_foreach_end();
            r->bound = true;
            r->core = (int)(slot % ncores);
        }
        if (report) {
            if (r->bound) {
                comm_log_notice("launcher", "rank %ld on host %s bound to core %d (cpu %s)", i, comm_run_rank_host(job, r),
                              r->core, cpus);
            } else {
                comm_log_notice("launcher", "rank %ld on host %s not bound", i,
                            comm_run_rank_host(job, r));
            }
        }
    }
    hwloc_topology_destroy(topo);
    return COMM_OK;
}
