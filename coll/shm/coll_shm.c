/*
 * coll_shm.c - the shared-memory segment of a host-local communicator's collectives: making it
 * (with agreement, so a failure anywhere sends every member back to the message-based
 * algorithms), waiting on the members' step counters, and the chunked reduction that the shm
 * reduce and allreduce share.
 *
 * Layer: coll.  Must not: send messages once the segment is made; sleep in the kernel while
 * waiting (yield instead, see runtime/p2p/progress.c).
 */
#include "config.h"

#include "coll/shm/coll_shm.h"
#include "coll/allreduce/allreduce.h"
#include "coll/bcast/bcast.h"
#include "btl/btl.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "base/log.h"
#include "runtime/op/op.h"
#include "runtime/p2p/p2p.h"
#include "runtime/runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { COLL_SHM_PAGE = 4096 };

/* The state of a communicator that cannot have a segment because memory ran out before it
 * could record why: shared, never freed. */
static struct comm_coll_shm coll_shm_unusable = {.usable = false, .fd = -1};

/* A failing /dev/shm is reported once per process (a race between threads at most repeats
 * it). */
static bool coll_shm_warned = false;

/* "cannot WHAT shared memory /dev/shmNAME: error", once per process (later failures are the
 * same condition on other communicators). */
static void coll_shm_warn(const char *what, const char *name, int err)
{
    if (!coll_shm_warned) {
        comm_log_warn("coll",
                      "cannot %s shared memory /dev/shm%s: %s; this communicator's collectives "
                      "use messages",
                      what, name, strerror(err));
        coll_shm_warned = true;
    }
}

static void coll_shm_free(struct comm_communicator *comm)
{
    struct comm_coll_shm *shm = comm->coll_state;

    if (shm == NULL || shm == &coll_shm_unusable) {
        return;
    }
    if (shm->base != NULL) {
        munmap(shm->base, shm->len);
    }
    if (shm->fd >= 0) {
        close(shm->fd);
    }
    free(shm->free_at);
    free(shm);
}

_Static_assert(sizeof(struct comm_coll_shm_line) == 128, "a control line is one line pair");

static size_t coll_shm_lines_len(int size)
{
    size_t len = (size_t)size * sizeof(struct comm_coll_shm_line) +
                 2 * (size_t)size * sizeof(struct comm_coll_shm_mail);

    return (len + COLL_SHM_PAGE - 1) & ~(size_t)(COLL_SHM_PAGE - 1);
}

size_t comm_coll_shm_slot_size(int size)
{
    size_t slot = (size_t)COMM_COLL_SHM_DATA / (2 * (size_t)size) & ~(size_t)(COLL_SHM_PAGE - 1);

    if (slot > COMM_COLL_SHM_SLOT_MAX) {
        return COMM_COLL_SHM_SLOT_MAX;
    }
    return slot < COMM_COLL_SHM_SLOT_MIN ? COMM_COLL_SHM_SLOT_MIN : slot;
}

static void coll_shm_name(char *out, size_t len, const struct comm_communicator *comm)
{
    const struct comm_pmix_job *job = comm_runtime_job();

    /* Two communicators made from one split share a context: rank 0's world rank tells them
     * apart, and a process is rank 0 of one communicator per context at a time. */
    snprintf(out, len, "/%s.coll.%u.%ld", job->nspace, (unsigned)comm->context_id,
             comm_communicator_world_rank(comm, 0));
    for (size_t i = 1; out[i] != '\0'; i++) {
        if (out[i] == '/') {
            out[i] = '_';
        }
    }
}

/* Rank 0: creates, sizes and maps the segment, with the memory of its first RESERVE bytes (the
 * control lines) reserved, so that a full /dev/shm fails here and not with SIGBUS later; the
 * rest is reserved at the first use of the slots (comm_coll_shm_slots_ready), through *FD_OUT.
 * Returns the mapping or NULL (logged). */
static void *coll_shm_create(const char *name, size_t len, size_t reserve, int *fd_out)
{
    void *base;
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
    int err;

    if (fd < 0) {
        coll_shm_warn("create", name, errno);
        return NULL;
    }
    if (ftruncate(fd, (off_t)len) != 0) {
        err = errno;
        coll_shm_warn("size", name, err);
        goto out_unlink;
    }
    err = posix_fallocate(fd, 0, (off_t)reserve);
    if (err != 0) {
        coll_shm_warn("reserve", name, err);
        goto out_unlink;
    }
    base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        coll_shm_warn("map", name, errno);
        goto out_unlink;
    }
    *fd_out = fd;
    return base;
out_unlink:
    close(fd);
    shm_unlink(name);
    return NULL;
}

/* The other ranks: maps the segment rank 0 made.  Returns the mapping or NULL (logged). */
static void *coll_shm_attach(const char *name, size_t len)
{
    struct stat st;
    void *base;
    int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0), err;

    if (fd < 0) {
        coll_shm_warn("open", name, errno);
        return NULL;
    }
    if (fstat(fd, &st) != 0) {
        coll_shm_warn("inspect", name, errno);
        close(fd);
        return NULL;
    }
    if ((size_t)st.st_size != len) {
        /* Not the segment this communicator's rank 0 made for us. */
        coll_shm_warn("use (wrong size)", name, EINVAL);
        close(fd);
        return NULL;
    }
    base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    err = errno;
    close(fd);
    if (base == MAP_FAILED) {
        coll_shm_warn("map", name, err);
        return NULL;
    }
    return base;
}

/*
 * Makes the segment with every member: rank 0 creates it and says whether it could (a
 * binomial broadcast), the others map it, and everyone agrees on whether all could (an
 * allreduce, which is also the barrier after which rank 0 may unlink the name).
 */
static int coll_shm_make(struct comm_communicator *comm, struct comm_coll_shm *shm)
{
    struct comm_datatype *int_type = comm_datatype_lookup(MPI_INT);
    struct comm_op *min = comm_op_lookup(MPI_MIN);
    char name[COMM_PMIX_NAME_MAX + 64];
    size_t len = coll_shm_lines_len(comm->size) +
                 2 * (size_t)comm->size * comm_coll_shm_slot_size(comm->size);
    void *base = NULL;
    int ok, err;

    coll_shm_name(name, sizeof(name), comm);
    ok = shm->free_at != NULL;
    if (comm->rank == 0 && ok) {
        base = coll_shm_create(name, len, coll_shm_lines_len(comm->size), &shm->fd);
        ok = base != NULL;
    }
    err = comm_coll_bcast_binomial(&ok, 1, int_type, 0, comm);
    if (err == MPI_SUCCESS && ok) {
        if (comm->rank != 0 && shm->free_at != NULL) {
            base = coll_shm_attach(name, len);
        }
        ok = base != NULL;
        err = comm_coll_allreduce_recursive_doubling(&ok, &ok, 1, int_type, min, comm);
    }
    if (comm->rank == 0 && base != NULL) {
        shm_unlink(name);
    }
    if (err != MPI_SUCCESS || !ok) {
        if (base != NULL) {
            munmap(base, len);
        }
        if (shm->fd >= 0) {
            close(shm->fd);
            shm->fd = -1;
        }
        return err;
    }
    shm->base = base;
    shm->len = len;
    shm->lines = base;
    shm->mail = (struct comm_coll_shm_mail *)(shm->lines + comm->size);
    shm->slots = (char *)base + coll_shm_lines_len(comm->size);
    shm->slot_size = comm_coll_shm_slot_size(comm->size);
    shm->usable = true;
    return MPI_SUCCESS;
}

bool comm_coll_shm_allowed(const struct comm_communicator *comm)
{
    return comm->host_local && comm_btl_shm_is_enabled();
}

int comm_coll_shm_get(struct comm_communicator *comm, bool now, struct comm_coll_shm **shm_out)
{
    struct comm_coll_shm *shm;
    int err;

    *shm_out = NULL;
    if (!comm_coll_shm_allowed(comm) || comm->size < 2) {
        return MPI_SUCCESS;
    }
    if (comm->coll_state_free == coll_shm_free) {
        shm = comm->coll_state;
        *shm_out = shm->usable ? shm : NULL;
        return MPI_SUCCESS;
    }
    if (comm->coll_state != NULL || comm->coll_state_free != NULL) {
        /* Another part of the collective layer keeps its state here (the same on every
         * member, as it is made collectively too). */
        return MPI_SUCCESS;
    }
    /* Making a segment costs file calls and two message rounds: a short-lived communicator's
     * few barriers are cheaper with messages alone. */
    if (!now && comm->coll_shm_deferred < comm_coll_shm_lazy()) {
        comm->coll_shm_deferred++;
        return MPI_SUCCESS;
    }
    shm = calloc(1, sizeof(*shm));
    if (shm == NULL) {
        /* Still take part in the agreement, so the others learn it. */
        shm = &coll_shm_unusable;
    } else {
        shm->fd = -1;
        shm->rank = comm->rank;
        shm->size = comm->size;
        shm->nslots = 2 * (unsigned)comm->size;
        shm->free_at = calloc(shm->nslots, sizeof(*shm->free_at));
    }
    /* free_at NULL (out of memory, or the shared unusable state) makes this rank refuse. */
    err = coll_shm_make(comm, shm);
    comm->coll_state = shm;
    comm->coll_state_free = coll_shm_free;
    *shm_out = shm->usable ? shm : NULL;
    return err;
}

/* One round of waiting: moves point-to-point along, and lets other ranks have the core when
 * they outnumber the cores (or now and then, in case a thread shares ours). */
static void coll_shm_pause(unsigned *idle)
{
    if (comm_progress() > 0) {
        *idle = 0;
        return;
    }
    if (comm_progress_is_polite() || (++*idle & 1023) == 0) {
        sched_yield();
    }
}

bool comm_coll_shm_slots_ready(struct comm_coll_shm *shm)
{
    _Atomic uint32_t *state = &shm->lines[0].slots;
    unsigned idle = 0;
    uint32_t s;

    if (shm->slots_state != COMM_COLL_SHM_SLOTS_UNKNOWN) {
        return shm->slots_state == COMM_COLL_SHM_SLOTS_READY;
    }
    if (shm->rank == 0) {
        size_t lines = coll_shm_lines_len(shm->size);
        int err = posix_fallocate(shm->fd, (off_t)lines, (off_t)(shm->len - lines));

        if (err != 0 && !coll_shm_warned) {
            comm_log_warn("coll",
                          "cannot reserve %zu bytes of shared memory for collectives: %s; "
                          "this communicator's broadcasts and reductions use messages",
                          shm->len - lines, strerror(err));
            coll_shm_warned = true;
        }
        close(shm->fd);
        shm->fd = -1;
        atomic_store_explicit(state,
                              err == 0 ? COMM_COLL_SHM_SLOTS_READY : COMM_COLL_SHM_SLOTS_REFUSED,
                              memory_order_release);
    }
    while ((s = atomic_load_explicit(state, memory_order_acquire)) == COMM_COLL_SHM_SLOTS_UNKNOWN) {
        coll_shm_pause(&idle);
    }
    shm->slots_state = (int)s;
    return s == COMM_COLL_SHM_SLOTS_READY;
}

void comm_coll_shm_post(struct comm_coll_shm *shm, uint64_t step)
{
    atomic_store_explicit(&shm->lines[shm->rank].step, step, memory_order_release);
}

/* Looks at a line this many times between passes of the progress engine when ranks have a
 * core each: a line usually changes within a cache-line handoff (0.15 us here), sooner than a
 * pass of the engine returns. */
enum { COLL_SHM_QUICK_LOOKS = 64 };

/* Tells the core this is a spin-wait (eases the sibling thread and the memory bus). */
static inline void coll_shm_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* Waits until the counter STEP_AT shows STEP or a later one. */
static void coll_shm_wait_step(const _Atomic uint64_t *step_at, uint64_t step, unsigned *idle)
{
    bool quick = !comm_progress_is_polite();

    while (atomic_load_explicit(step_at, memory_order_acquire) < step) {
        for (int i = 0; quick && i < COLL_SHM_QUICK_LOOKS; i++) {
            coll_shm_relax();
            if (atomic_load_explicit(step_at, memory_order_acquire) >= step) {
                return;
            }
        }
        coll_shm_pause(idle);
    }
}

void comm_coll_shm_wait(const struct comm_coll_shm *shm, int rank, uint64_t step)
{
    unsigned idle = 0;

    coll_shm_wait_step(&shm->lines[rank].step, step, &idle);
}

void comm_coll_shm_wait_all(const struct comm_coll_shm *shm, uint64_t step)
{
    unsigned idle = 0;

    for (int r = 0; r < shm->size; r++) {
        coll_shm_wait_step(&shm->lines[r].step, step, &idle);
    }
}

static struct comm_coll_shm_mail *coll_shm_mailbox(const struct comm_coll_shm *shm, int rank,
                                                   uint64_t step)
{
    return &shm->mail[(size_t)(step & 1) * (size_t)shm->size + (size_t)rank];
}

char *comm_coll_shm_mail_begin(struct comm_coll_shm *shm)
{
    return coll_shm_mailbox(shm, shm->rank, shm->mail_step + 1)->data;
}

void comm_coll_shm_mail_post(struct comm_coll_shm *shm)
{
    shm->mail_step++;
    atomic_store_explicit(&coll_shm_mailbox(shm, shm->rank, shm->mail_step)->step, shm->mail_step,
                          memory_order_release);
}

const char *comm_coll_shm_mail_read(const struct comm_coll_shm *shm, int rank)
{
    struct comm_coll_shm_mail *box = coll_shm_mailbox(shm, rank, shm->mail_step);
    unsigned idle = 0;

    coll_shm_wait_step(&box->step, shm->mail_step, &idle);
    return box->data;
}

void comm_coll_shm_copy(const void *src, void *dst, MPI_Count count, const struct comm_datatype *dt)
{
    struct comm_dt_cursor from, to;
    void *piece;
    size_t len;

    if (dt->contiguous) {
        memcpy((char *)dst + dt->true_lb, (const char *)src + dt->true_lb,
               (size_t)(count * dt->size));
        return;
    }
    /* Walk the source's contiguous pieces and unpack each into the destination: one copy,
     * and the gaps of neither side are touched. */
    comm_datatype_cursor_init(&from, dt, src, count, 0);
    comm_datatype_cursor_init(&to, dt, dst, count, 0);
    while ((len = comm_datatype_cursor_next(&from, &piece, SIZE_MAX)) > 0) {
        comm_datatype_cursor_unpack(&to, piece, len);
    }
}

bool comm_coll_shm_reduce_fits(const struct comm_datatype *dt)
{
    return dt->size > 0 && dt->extent > 0 && dt->true_extent > 0 &&
           dt->true_extent <= (MPI_Aint)COMM_COLL_SHM_SLOT_MIN;
}

unsigned comm_coll_shm_claim_half(struct comm_coll_shm *shm)
{
    unsigned p = (unsigned)shm->size, half = shm->next_half * p;
    uint64_t reusable = 0;

    shm->next_half ^= 1;
    for (unsigned r = 0; r < p; r++) {
        reusable = shm->free_at[half + r] > reusable ? shm->free_at[half + r] : reusable;
    }
    comm_coll_shm_wait_all(shm, reusable);
    return half;
}

void comm_coll_shm_release_half(struct comm_coll_shm *shm, unsigned half, uint64_t step)
{
    for (unsigned r = 0; r < (unsigned)shm->size; r++) {
        shm->free_at[half + r] = step;
    }
}

/*
 * A short vector (one slot): every rank puts its vector in its slot, and the ranks that want
 * the result fold all the slots themselves, the others leave at once.  One wait for all
 * instead of two: the redundant combining costs less than a handoff while (p-1)n is small.
 */
static int coll_shm_reduce_fold(struct comm_coll_shm *shm, const void *sbuf, void *rbuf,
                                MPI_Count count, struct comm_datatype *dt, struct comm_op *op,
                                bool result_here)
{
    unsigned half = comm_coll_shm_claim_half(shm), p = (unsigned)shm->size;
    uint64_t step = shm->step;
    int err = MPI_SUCCESS;

    comm_coll_shm_copy(sbuf, comm_coll_shm_slot(shm, half + (unsigned)shm->rank) - dt->true_lb,
                       count, dt);
    comm_coll_shm_post(shm, step + 1);
    if (result_here) {
        comm_coll_shm_wait_all(shm, step + 1);
        /* rbuf = s(p-1), then rbuf = s(r) op rbuf down to rank 0 (sbuf is in the slot). */
        comm_coll_shm_copy(comm_coll_shm_slot(shm, half + p - 1) - dt->true_lb, rbuf, count, dt);
        for (unsigned r = p - 1; r-- > 0;) {
            if (comm_op_reduce(op, comm_coll_shm_slot(shm, half + r) - dt->true_lb, rbuf, count,
                               dt) < 0) {
                err = MPI_ERR_OP;
            }
        }
    }
    comm_coll_shm_post(shm, step + 2);
    shm->step = step + 2;
    comm_coll_shm_release_half(shm, half, step + 2);
    return err;
}

int comm_coll_shm_reduce(struct comm_coll_shm *shm, const void *sbuf, void *rbuf, MPI_Count count,
                         struct comm_datatype *dt, struct comm_op *op, int root)
{
    MPI_Aint extent = dt->extent;
    MPI_Count per_slot = ((MPI_Aint)shm->slot_size - dt->true_extent) / extent + 1;
    int p = shm->size, me = shm->rank, err = MPI_SUCCESS;
    bool result_here = root == COMM_COLL_SHM_ALL || root == me;

    if (count <= per_slot &&
        (size_t)(count * extent) * (size_t)(p - 1) <= (size_t)COMM_COLL_SHM_FOLD_BYTES) {
        return coll_shm_reduce_fold(shm, sbuf, rbuf, count, dt, op, result_here);
    }
    for (MPI_Count first = 0; first < count; first += per_slot) {
        MPI_Count k = count - first < per_slot ? count - first : per_slot;
        /* This rank combines elements [lo, hi) of the piece. */
        MPI_Count lo = k * me / p, hi = k * (me + 1) / p;
        MPI_Aint offset = (MPI_Aint)first * extent;
        unsigned half = comm_coll_shm_claim_half(shm);
        uint64_t step = shm->step;
        char *acc = comm_coll_shm_slot(shm, half + (unsigned)p - 1) - dt->true_lb;

        comm_coll_shm_copy((const char *)sbuf + offset,
                           comm_coll_shm_slot(shm, half + (unsigned)me) - dt->true_lb, k, dt);
        comm_coll_shm_post(shm, step + 1);
        comm_coll_shm_wait_all(shm, step + 1);
        /* inout = in op inout, from the last rank's piece down to rank 0's: s0 op (s1 op ...). */
        for (int r = p - 2; r >= 0 && hi > lo; r--) {
            const char *in = comm_coll_shm_slot(shm, half + (unsigned)r) - dt->true_lb;

            if (comm_op_reduce(op, in + lo * extent, acc + lo * extent, hi - lo, dt) < 0) {
                err = MPI_ERR_OP;
            }
        }
        if (result_here) {
            comm_coll_shm_post(shm, step + 2);
            comm_coll_shm_wait_all(shm, step + 2);
            comm_coll_shm_copy(acc, (char *)rbuf + offset, k, dt);
        }
        comm_coll_shm_post(shm, step + 3);
        shm->step = step + 3;
        comm_coll_shm_release_half(shm, half, step + 3);
    }
    return err;
}
