/*
 * btl_ofi_thread.c - progress threads (COMM_PROGRESS_THREADS=1): one per rail, which drives its
 * provider while the program is away from MPI, so a peer's read of this rank's memory, and
 * what the provider has queued, go on meanwhile.
 *
 * Layer: btl/ofi.  Must not: take a completion (the rank's own progress call reads them, so
 * the module's structures stay the rank's, but for the backlogs of sends the provider
 * refused, which it posts under the module's send lock), or spin: a host runs more ranks than
 * cores here, and a thread that never sleeps takes a core from them.
 *
 * How: each thread asks its rail's completion queue for no completion (fi_cq_read with a count
 * of 0), which makes libfabric's software providers run their progress and return nothing,
 * posts the backlogs (a first message to a peer waits there while the provider makes the
 * connection), then sleeps BTL_OFI_THREAD_NAP_NS.  The domains are opened FI_THREAD_SAFE when threads are
 * on.  A thread is bound near its rail's device (hwloc's locality), else to the cores this
 * host's ranks leave free, else anywhere (topo_hw.h, comm_topo_hw_device_cpus); local rank 0
 * says where at info.
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "topo/topo_hw.h"
#include "base/error.h"
#include "base/log.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Between two calls of a thread.  A provider's progress call moves what the sockets take
 * (megabytes), so a peer's read waits little; a 8-byte ping-pong between two ranks of a 2-core
 * host took 6.0-7.8 us with threads napping 50 us against 4.2-4.4 without, and 5.0-7.9 with 200
 * (the tie is in the noise, the fewer wake-ups are not), so 200 us. */
static const long BTL_OFI_THREAD_NAP_NS = 200000;

static void *ofi_thread_main(void *arg)
{
    struct btl_ofi_rail *r = arg;
    const struct timespec nap = {0, BTL_OFI_THREAD_NAP_NS};

    while (!atomic_load_explicit(&r->thread_stop, memory_order_acquire)) {
        (void)fi_cq_read(r->cq, NULL, 0); /* progress only: a count of 0 takes nothing */
        /* What the provider refused (a connection being made, a full queue) goes out now. */
        comm_btl_ofi_push_backlog(r->module);
        nanosleep(&nap, NULL);
    }
    return NULL;
}

int comm_btl_ofi_threads_start(struct btl_ofi_module *m, long local_rank, long local_size)
{
    for (unsigned k = 0; k < m->nrails; k++) {
        struct btl_ofi_rail *r = &m->rails[k];
        const char *device = r->name[0] != '\0' ? r->name : m->info->domain_attr->name;
        char where[160];
        cpu_set_t cpus;
        int ret;

        atomic_store(&r->thread_stop, false);
        r->module = m;
        if (comm_topo_hw_device_cpus(device, local_size, &cpus, where, sizeof(where)) < 0) {
            comm_log_warn("btl_ofi", "host %s: progress thread of rail %s left unbound: %s",
                          m->host, device, where);
            CPU_ZERO(&cpus);
        }
        ret = pthread_create(&r->thread, NULL, ofi_thread_main, r);
        if (ret != 0) {
            comm_log_error("btl_ofi", "cannot start the progress thread of rail %s: %s", device,
                           strerror(ret));
            comm_btl_ofi_threads_stop(m);
            return COMM_ERR_SYSTEM;
        }
        r->thread_started = true;
        if (CPU_COUNT(&cpus) > 0 && (ret = pthread_setaffinity_np(r->thread, sizeof(cpus), &cpus)) != 0) {
            comm_log_warn("btl_ofi", "host %s: cannot bind the progress thread of rail %s: %s",
                          m->host, device, strerror(ret));
        }
        if (local_rank == 0) {
            char list[128];
            size_t used = 0;

            list[0] = '\0';
            for (int c = 0; c < CPU_SETSIZE && used < sizeof(list); c++) {
                if (CPU_ISSET(c, &cpus)) {
                    used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%d",
                                             used ? "," : "", c);
                }
            }
            comm_log_info("btl_ofi", "host %s: a progress thread per rank for rail %s, %s (PUs %s)",
                          m->host, device, where, list[0] ? list : "any");
        }
    }
    return COMM_OK;
}

void comm_btl_ofi_threads_stop(struct btl_ofi_module *m)
{
    for (unsigned k = 0; k < BTL_OFI_RAILS_MAX; k++) {
        struct btl_ofi_rail *r = &m->rails[k];

        if (!r->thread_started) {
            continue;
        }
        atomic_store_explicit(&r->thread_stop, true, memory_order_release);
        pthread_join(r->thread, NULL);
        r->thread_started = false;
    }
}
