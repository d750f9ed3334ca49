/*
 * rma_win.c - windows: making and freeing them (the exchange of where each member's window is,
 * the host's segment, the registration with the network, the path to each target), shared
 * windows' queries and dynamic windows' memory.
 *
 * Layer: rma.  Must not: carry out operations (rma_target.c does) or synchronize epochs
 * (rma_sync.c does).
 */
#include "config.h"

#include "rma/rma_int.h"

#include "btl/btl.h"
#include "coll/coll.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "runtime/info.h"
#include "base/log.h"
#include "runtime/op/op.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"
#include "runtime/runtime.h"
#include "runtime/thread.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct comm_setting rma_settings[] = {
    {.name = "COMM_RMA_RDMA_MIN",
     .type = COMM_SETTING_INT,
     .default_value = "8192",
     .help = "puts and gets of at least this many bytes to a window on another host are RDMA "
             "writes and reads; smaller ones travel as messages, with the epoch's lock request",
     .audience = COMM_AUDIENCE_TUNER,
     .min = 0,
     .max = 1L << 40},
    {.name = "COMM_RMA_SHM",
     .type = COMM_SETTING_BOOL,
     .default_value = "1",
     .help = "reach windows of ranks on the same host directly (shared memory, CMA) rather than "
             "with messages",
     .audience = COMM_AUDIENCE_TUNER},
};

const struct comm_setting_table comm_rma_settings = {
    .component = "rma",
    .count = sizeof(rma_settings) / sizeof(rma_settings[0]),
    .settings = rma_settings,
};

const char *comm_rma_path_name(enum comm_rma_path path)
{
    switch (path) {
    case COMM_RMA_DIRECT:
        return "direct";
    case COMM_RMA_CMA:
        return "cma";
    case COMM_RMA_NET:
        return "net";
    case COMM_RMA_MESSAGES:
    case COMM_RMA_NPATHS:
        return "messages";
    }
    return "?";
}

struct comm_win *comm_win_lookup(MPI_Win handle)
{
    struct comm_win *w = (struct comm_win *)handle;

    if (handle == MPI_WIN_NULL || (uintptr_t)handle < 0x1000 || w->magic != COMM_WIN_MAGIC) {
        return NULL;
    }
    return w;
}

/* ---- making windows --------------------------------------------------------------------- */

/* What each member tells the others when the window is made. */
struct rma_wire_peer {
    uint64_t base;
    uint64_t size;
    int64_t disp_unit;
    struct comm_btl_key key; /* its registration with the network btl (second exchange) */
};

static int rma_allgather(const void *mine, void *all, size_t bytes, struct comm_communicator *c)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int *counts = malloc((size_t)c->size * sizeof(int)), *displs;
    int err;

    displs = malloc((size_t)c->size * sizeof(int));
    if (counts == NULL || displs == NULL) {
        free(counts);
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < c->size; i++) {
        counts[i] = (int)bytes;
        displs[i] = (int)bytes * i;
    }
    err = c->coll->allgather(mine, (MPI_Count)bytes, byte, all, counts, displs, byte, c);
    free(counts);
    free(displs);
    return err;
}

static int rma_allreduce_int(int *value, MPI_Op op, struct comm_communicator *c)
{
    struct comm_datatype *dt = comm_datatype_lookup(MPI_INT);
    struct comm_op *o = comm_op_lookup(op);
    int in = *value;

    return c->coll->allreduce(&in, value, 1, dt, o, c);
}

static void rma_seg_name(char *out, size_t len, const struct comm_win *win, long leader)
{
    snprintf(out, len, "/%s.win.%u.%ld", comm_runtime_job()->nspace,
             (unsigned)win->comm->context_id, leader);
    for (size_t i = 1; out[i] != '\0'; i++) {
        if (out[i] == '/') {
            out[i] = '_';
        }
    }
}

static size_t rma_align(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/*
 * Makes the host's segment: control lines for the members of this host, then (allocate
 * flavors) their windows, each after the previous one (adjacent for MPI_Win_allocate_shared,
 * a cache line apart otherwise).  The lowest rank of the host creates it; all agree whether
 * every host's worked.  Returns MPI_SUCCESS with win->seg set, or MPI_SUCCESS with no segment
 * (not wanted, or it failed and the window can do without), or an error.
 */
static int rma_make_segment(struct comm_win *win, const struct rma_wire_peer *all, bool want,
                            uint64_t *offsets)
{
    bool alloc = win->flavor == MPI_WIN_FLAVOR_ALLOCATE || win->flavor == MPI_WIN_FLAVOR_SHARED;
    char name[COMM_PMIX_NAME_MAX + 64];
    int nlocal = 0, leader = -1, ok = 1, err, fd = -1;
    size_t lines, len, off;
    void *seg = NULL;

    for (int r = 0; r < win->size; r++) {
        if (comm_communicator_is_local(win->peers[r].world)) {
            if (leader < 0) {
                leader = r;
            }
            nlocal++;
        }
    }
    /* A control line per member of this host, and one for the barrier of fences. */
    lines = rma_align((size_t)(nlocal + 1) * sizeof(struct comm_rma_ctl), 4096);
    off = lines;
    for (int r = 0; r < win->size; r++) {
        if (!comm_communicator_is_local(win->peers[r].world)) {
            continue;
        }
        offsets[r] = off;
        if (alloc) {
            off += win->flavor == MPI_WIN_FLAVOR_SHARED ? (size_t)all[r].size
                                                        : rma_align((size_t)all[r].size, 64);
        }
    }
    len = rma_align(off > 0 ? off : 1, 4096);
    if (want) {
        rma_seg_name(name, sizeof(name), win, win->peers[leader].world);
        if (leader == win->rank) {
            fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
            if (fd < 0 || ftruncate(fd, (off_t)len) != 0 ||
                posix_fallocate(fd, 0, (off_t)len) != 0) {
                comm_log_warn("rma", "cannot make the window segment %s of %zu bytes: %s", name,
                              len, strerror(errno));
                ok = 0;
            }
        }
    }
    err = comm_rma_barrier(win); /* no segment yet: the communicator's */
    if (err != MPI_SUCCESS) {
        goto out;
    }
    if (want && ok) {
        if (fd < 0) {
            fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
        }
        seg = fd >= 0 ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
        if (seg == MAP_FAILED) {
            comm_log_warn("rma", "cannot map the window segment %s: %s", name, strerror(errno));
            seg = NULL;
            ok = 0;
        }
    }
    if (!want) {
        ok = 0;
    }
    /* Also the barrier after which the name may go. */
    err = rma_allreduce_int(&ok, MPI_MIN, win->comm);
    if (want && leader == win->rank && fd >= 0) {
        shm_unlink(name);
    }
    if (fd >= 0) {
        close(fd);
    }
    if (err != MPI_SUCCESS || !ok) {
        if (seg != NULL) {
            munmap(seg, len);
        }
        return err;
    }
    win->seg = seg;
    win->seg_len = len;
    win->bar = (struct comm_rma_ctl *)((char *)seg + (size_t)nlocal * sizeof(struct comm_rma_ctl));
    win->nlocal = nlocal;
    int li = 0;
    for (int r = 0; r < win->size; r++) {
        if (comm_communicator_is_local(win->peers[r].world)) {
            win->peers[r].ctl =
                (struct comm_rma_ctl *)((char *)seg + (size_t)li * sizeof(struct comm_rma_ctl));
            li++;
        }
    }
    return MPI_SUCCESS;
out:
    if (fd >= 0) {
        close(fd);
        if (leader == win->rank) {
            shm_unlink(name);
        }
    }
    return err;
}

static bool rma_cma_works(struct comm_rma_peer *p)
{
    struct comm_proc *proc = comm_p2p_proc(p->world);
    struct comm_btl_endpoint *ep = proc != NULL ? proc->ep : NULL;

    if (ep == NULL || strcmp(ep->module->ops->name, "shm") != 0) {
        return false;
    }
    if (ep->module->ops->put(ep, NULL, 0, 0, 0, 0) != COMM_OK) {
        return false;
    }
    p->ep = ep;
    return true;
}

/* Whether PEER's window can be written and read through its network btl (net). */
static bool rma_net_works(struct comm_win *win, struct comm_rma_peer *p)
{
    struct comm_proc *proc = comm_p2p_proc(p->world);
    struct comm_btl_endpoint *ep = proc != NULL ? proc->ep : NULL;

    if (ep == NULL || comm_btl_key_none(&p->key) || win->reg_module == NULL ||
        ep->module != win->reg_module || strcmp(ep->module->ops->name, "ofi") != 0) {
        return false;
    }
    if (ep->module->ops->write_start(ep, NULL, 0, 0, &p->key, 0, NULL, NULL) != COMM_OK) {
        return false;
    }
    p->ep = ep;
    return true;
}

/* Registers the window's memory with the network btl that reaches some member, so that those
 * members can write and read it (net).  Nothing when no member is reached that way. */
static void rma_register(struct comm_win *win)
{
    struct comm_btl_module *m = NULL;
    struct comm_btl_key key = {{0}};

    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC || win->wsize == 0 || win->base == NULL) {
        return;
    }
    for (int r = 0; r < win->size && m == NULL; r++) {
        struct comm_proc *proc = comm_p2p_proc(win->peers[r].world);

        if (r != win->rank && proc != NULL && proc->ep != NULL &&
            strcmp(proc->ep->module->ops->name, "ofi") == 0) {
            m = proc->ep->module;
        }
    }
    if (m == NULL || m->ops->register_mem(m, win->base, (size_t)win->wsize, &key) != COMM_OK) {
        return;
    }
    win->reg_module = m;
    win->reg_key = key;
}

static bool rma_shm_allowed(void)
{
    bool on = true;

    comm_config_get_bool(&rma_settings[1], &on);
    return on && comm_btl_shm_is_enabled();
}

/* Decides how this process reaches each member (see rma.h). */
static void rma_choose_paths(struct comm_win *win, const uint64_t *offsets)
{
    bool alloc = win->flavor == MPI_WIN_FLAVOR_ALLOCATE || win->flavor == MPI_WIN_FLAVOR_SHARED;

    for (int r = 0; r < win->size; r++) {
        struct comm_rma_peer *p = &win->peers[r];

        p->path = COMM_RMA_MESSAGES;
        if (r == win->rank) {
            p->path = COMM_RMA_DIRECT;
            p->direct = win->flavor == MPI_WIN_FLAVOR_DYNAMIC ? NULL : win->base;
        } else if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC && p->ctl != NULL && alloc) {
            p->path = COMM_RMA_DIRECT;
            p->direct = (char *)win->seg + offsets[r];
        } else if (win->flavor == MPI_WIN_FLAVOR_CREATE && p->ctl != NULL && rma_cma_works(p)) {
            p->path = COMM_RMA_CMA;
        } else if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC && rma_net_works(win, p)) {
            p->path = COMM_RMA_NET;
        }
    }
}

static void rma_log_paths(const struct comm_win *win)
{
    int n[COMM_RMA_NPATHS] = {0};

    for (int r = 0; r < win->size; r++) {
        n[win->peers[r].path]++;
    }
    comm_log_info("rma",
                  "window of %d ranks (%s): %d targets direct, %d through CMA, %d through "
                  "RDMA, %d through messages%s; accumulates %s",
                  win->size,
                  win->flavor == MPI_WIN_FLAVOR_CREATE     ? "create"
                  : win->flavor == MPI_WIN_FLAVOR_ALLOCATE ? "allocate"
                  : win->flavor == MPI_WIN_FLAVOR_SHARED   ? "allocate_shared"
                                                           : "dynamic",
                  n[COMM_RMA_DIRECT], n[COMM_RMA_CMA], n[COMM_RMA_NET], n[COMM_RMA_MESSAGES],
                  n[COMM_RMA_MESSAGES] > 0 ? " (carried out by the target's progress)" : "",
                  n[COMM_RMA_MESSAGES] + n[COMM_RMA_CMA] + n[COMM_RMA_NET] > 0
                      ? "to other targets are carried out by the target (comm uses no network "
                        "atomics, so that they stay atomic with those done in shared memory)"
                      : "are done in shared memory under the target's lock");
}

int comm_win_create(struct comm_communicator *comm, int flavor, void *base, MPI_Aint size,
                    int disp_unit, void **base_out, struct comm_win **win_out)
{
    struct comm_win *win = calloc(1, sizeof(*win));
    struct rma_wire_peer mine, *all = NULL;
    uint64_t *offsets = NULL;
    bool want_seg;
    int err = MPI_ERR_NO_MEM, msgs;

    if (win == NULL) {
        return MPI_ERR_NO_MEM;
    }
    win->handle = (MPI_Win)win;
    win->comm = comm;
    win->rank = comm->rank;
    win->size = comm->size;
    win->flavor = flavor;
    win->base = flavor == MPI_WIN_FLAVOR_CREATE ? base : NULL;
    win->wsize = flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0 : size;
    win->disp_unit = disp_unit;
    win->model = MPI_WIN_UNIFIED;
    {
        long min = 8192;

        comm_config_get_int(&rma_settings[0], &min);
        win->rdma_min = (size_t)min;
    }
    win->my_ctl = &win->own_ctl;
    win->peers = calloc((size_t)comm->size, sizeof(*win->peers));
    all = calloc((size_t)comm->size, sizeof(*all));
    offsets = calloc((size_t)comm->size, sizeof(*offsets));
    if (win->peers == NULL || all == NULL || offsets == NULL) {
        goto fail;
    }
    for (int r = 0; r < comm->size; r++) {
        win->peers[r].world = comm_communicator_world_rank(comm, r);
    }
    mine = (struct rma_wire_peer){.base = (uint64_t)(uintptr_t)win->base,
                                  .size = (uint64_t)win->wsize,
                                  .disp_unit = disp_unit};
    err = rma_allgather(&mine, all, sizeof(mine), comm);
    if (err != MPI_SUCCESS) {
        goto fail;
    }
    if (flavor == MPI_WIN_FLAVOR_SHARED && !comm->host_local) {
        err = MPI_ERR_RMA_SHARED;
        goto fail;
    }
    /* A segment when ranks of this host can use one (every host decides alike). */
    want_seg = flavor == MPI_WIN_FLAVOR_SHARED;
    if (!want_seg && rma_shm_allowed()) {
        int nlocal = 0;

        for (int r = 0; r < comm->size; r++) {
            nlocal += comm_communicator_is_local(win->peers[r].world);
        }
        want_seg = nlocal > 1;
    }
    err = rma_make_segment(win, all, want_seg, offsets);
    if (err != MPI_SUCCESS) {
        goto fail;
    }
    if (flavor == MPI_WIN_FLAVOR_SHARED && win->seg == NULL) {
        err = MPI_ERR_NO_MEM;
        goto fail;
    }
    if (win->seg != NULL) {
        win->my_ctl = win->peers[win->rank].ctl;
    } else {
        win->peers[win->rank].ctl = &win->own_ctl;
    }
    if (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED) {
        if (win->seg != NULL) {
            win->base = (char *)win->seg + offsets[win->rank];
        } else {
            win->owned = malloc(size > 0 ? (size_t)size : 1);
            if (win->owned == NULL) {
                err = MPI_ERR_NO_MEM;
            }
            win->base = win->owned;
        }
        msgs = err == MPI_SUCCESS;
        err = rma_allreduce_int(&msgs, MPI_MIN, comm);
        if (err == MPI_SUCCESS && !msgs) {
            err = MPI_ERR_NO_MEM;
        }
        if (err != MPI_SUCCESS) {
            goto fail;
        }
        if (size == 0 && flavor == MPI_WIN_FLAVOR_ALLOCATE) {
            win->base = NULL;
        }
    }
    for (int r = 0; r < comm->size; r++) {
        win->peers[r].size = all[r].size;
        win->peers[r].disp_unit = (int)all[r].disp_unit;
    }
    /* Where each window is, and its registration, now that the memory is settled. */
    rma_register(win);
    mine = (struct rma_wire_peer){.base = (uint64_t)(uintptr_t)win->base, .key = win->reg_key};
    err = rma_allgather(&mine, all, sizeof(mine), comm);
    if (err != MPI_SUCCESS) {
        goto fail;
    }
    for (int r = 0; r < comm->size; r++) {
        win->peers[r].base = all[r].base;
        win->peers[r].key = all[r].key;
    }
    rma_choose_paths(win, offsets);
    msgs = 0;
    for (int r = 0; r < comm->size; r++) {
        msgs |= win->peers[r].path == COMM_RMA_MESSAGES;
        /* Accumulates to cma and net targets are messages too. */
        msgs |= win->peers[r].path == COMM_RMA_CMA || win->peers[r].path == COMM_RMA_NET;
    }
    err = rma_allreduce_int(&msgs, MPI_MAX, comm);
    if (err != MPI_SUCCESS) {
        goto fail;
    }
    win->any_messages = msgs != 0;
    if (win->any_messages && comm_rma_target_open(win) != MPI_SUCCESS) {
        err = MPI_ERR_NO_MEM;
        goto fail; /* collective from here on would hang: every rank allocates alike */
    }
    if (win->rank == 0) {
        rma_log_paths(win);
    }
    win->magic = COMM_WIN_MAGIC;
    if (base_out != NULL) {
        *base_out = win->base;
    }
    free(all);
    free(offsets);
    *win_out = win;
    return MPI_SUCCESS;

fail:
    for (unsigned i = 0; i < COMM_RMA_SLOTS; i++) {
        free(win->slot_buf[i]);
    }
    if (win->reg_module != NULL) {
        win->reg_module->ops->deregister_mem(win->reg_module, &win->reg_key);
    }
    if (win->seg != NULL) {
        munmap(win->seg, win->seg_len);
    }
    free(win->owned);
    free(win->peers);
    free(all);
    free(offsets);
    free(win);
    return err;
}

int comm_win_free(struct comm_win *win)
{
    int err = comm_rma_barrier(win);

    if (win->any_messages) {
        comm_rma_target_close(win);
    }
    while (win->waiters != NULL) {
        struct rma_waiter *w = win->waiters;

        win->waiters = w->next;
        free(w);
    }
    while (win->regions != NULL) {
        struct rma_region *r = win->regions;

        win->regions = r->next;
        free(r);
    }
    if (win->reg_module != NULL) {
        win->reg_module->ops->deregister_mem(win->reg_module, &win->reg_key);
    }
    if (win->seg != NULL) {
        munmap(win->seg, win->seg_len);
    }
    free(win->owned);
    for (int r = 0; r < win->size; r++) {
        free(win->peers[r].regions);
        while (win->peers[r].held_head != NULL) {
            struct rma_held *m = win->peers[r].held_head;

            win->peers[r].held_head = m->next;
            free(m);
        }
    }
    free(win->peers);
    free(win->start_ranks);
    free(win->post_ranks);
    free(win->complete_reqs);
    free(win->complete_counts);
    win->magic = 0;
    comm_communicator_free(win->comm);
    free(win);
    return err;
}

int comm_win_shared_query(struct comm_win *win, int rank, MPI_Aint *size, int *disp_unit,
                          void *baseptr)
{
    if (rank == MPI_PROC_NULL) {
        for (int r = 0; r < win->size; r++) {
            if (win->peers[r].size > 0) {
                rank = r;
                break;
            }
        }
    }
    if (rank == MPI_PROC_NULL || win->peers[rank].direct == NULL) {
        *size = 0;
        *disp_unit = rank == MPI_PROC_NULL ? 1 : win->peers[rank].disp_unit;
        *(void **)baseptr = NULL;
        return rank == MPI_PROC_NULL ? MPI_SUCCESS
               : win->flavor == MPI_WIN_FLAVOR_SHARED || win->peers[rank].size == 0
                   ? MPI_SUCCESS
                   : MPI_ERR_RMA_FLAVOR;
    }
    *size = (MPI_Aint)win->peers[rank].size;
    *disp_unit = win->peers[rank].disp_unit;
    *(void **)baseptr = win->peers[rank].direct;
    return MPI_SUCCESS;
}

static bool rma_regions_cover(const uint64_t *regions, int n, uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < n; i++) {
        if (lo >= regions[2 * i] && hi <= regions[2 * i] + regions[2 * i + 1]) {
            return true;
        }
    }
    return false;
}

bool comm_win_dynamic_covers(struct comm_win *win, int target, MPI_Aint disp, MPI_Count count,
                             const struct comm_datatype *dt)
{
    struct comm_rma_peer *p = &win->peers[target];
    struct rma_hdr h = {.type = RMA_AM_REGIONS, .epoch = win->fences_done};
    struct comm_request *req;
    uintptr_t lo, hi;
    uint64_t *list;
    char *msg;
    bool ok;

    if (count == 0 || dt->size == 0) {
        return true;
    }
    lo = (uintptr_t)disp + (uintptr_t)dt->true_lb;
    hi = (uintptr_t)disp + (uintptr_t)((count - 1) * dt->extent + dt->true_lb + dt->true_extent);
    comm_core_lock();
    if (target == win->rank) {
        ok = false;
        for (struct rma_region *r = win->regions; r != NULL && !ok; r = r->next) {
            ok = lo >= r->base && hi <= r->base + r->len;
        }
        comm_core_unlock();
        return ok;
    }
    if (rma_regions_cover(p->regions, p->nregions, lo, hi)) {
        comm_core_unlock();
        return true;
    }
    /* Ask the target what it has attached now. */
    list = malloc(2 * RMA_MAX_REGIONS * sizeof(*list));
    msg = malloc(sizeof(h));
    if (list == NULL || msg == NULL) {
        free(list);
        free(msg);
        comm_core_unlock();
        return false;
    }
    memcpy(msg, &h, sizeof(h));
    req = comm_rma_recv(win, target, RMA_TAG_REGIONS, list, 2 * RMA_MAX_REGIONS,
                        comm_datatype_lookup(MPI_UINT64_T), true, NULL, NULL);
    if (req == NULL ||
        comm_rma_send(win, target, RMA_TAG_OP, msg, sizeof(h), comm_datatype_lookup(MPI_BYTE), true,
                      false, NULL, NULL) == NULL) {
        free(list);
        comm_core_unlock();
        return false;
    }
    comm_core_unlock();
    comm_progress_wait(comm_progress_flag_done, &req->complete);
    comm_core_lock();
    free(p->regions);
    p->regions = list;
    p->nregions = req->error == MPI_SUCCESS
                      ? (int)(comm_status_bytes(&req->status) / (2 * sizeof(uint64_t)))
                      : 0;
    comm_request_free(req);
    ok = rma_regions_cover(p->regions, p->nregions, lo, hi);
    comm_core_unlock();
    return ok;
}

int comm_win_attach(struct comm_win *win, void *base, MPI_Aint size)
{
    struct rma_region *r = malloc(sizeof(*r));

    if (r == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (struct rma_region *o = win->regions; o != NULL; o = o->next) {
        if ((uintptr_t)base < o->base + o->len && o->base < (uintptr_t)base + (size_t)size) {
            free(r);
            return MPI_ERR_RMA_ATTACH;
        }
    }
    *r = (struct rma_region){.base = (uintptr_t)base, .len = (size_t)size};
    comm_core_lock();
    r->next = win->regions;
    win->regions = r;
    comm_core_unlock();
    return MPI_SUCCESS;
}

int comm_win_detach(struct comm_win *win, const void *base)
{
    comm_core_lock();
    for (struct rma_region **link = &win->regions; *link != NULL; link = &(*link)->next) {
        if ((*link)->base == (uintptr_t)base) {
            struct rma_region *r = *link;

            *link = r->next;
            comm_core_unlock();
            free(r);
            return MPI_SUCCESS;
        }
    }
    comm_core_unlock();
    return MPI_ERR_RMA_ATTACH;
}
