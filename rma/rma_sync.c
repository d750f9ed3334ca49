/*
 * rma_sync.c - synchronization: the barrier of a window's members, fences, post-start-complete-
 * wait, locks, flushes and MPI_Win_sync; each ends the epochs of the operations before it.
 *
 * Layer: rma.  Must not: return from a call that completes operations at their targets (fence,
 * complete, unlock, flush) before the targets have them: direct ones are done when the call
 * that made them returns; cma ones too; messages are counted, and the target says when it has
 * carried them out (an answer to an unlock or flush, the counts of a fence, the complete
 * message of an access epoch, which the target serves after the data before it).
 */
#include "config.h"

#include "rma/rma_int.h"

#include "btl/btl.h"
#include "coll/coll.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "base/log.h"
#include "runtime/op/op.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"
#include "runtime/thread.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* ---- the barrier of a window inside one host --------------------------------------------- */

struct rma_bar_wait {
    const struct comm_rma_ctl *bar;
    uint64_t gen;
};

static bool rma_bar_passed(void *arg)
{
    const struct rma_bar_wait *w = arg;

    return __atomic_load_n(&w->bar->lock, __ATOMIC_ACQUIRE) != w->gen;
}

/* The barrier in the segment: every member runs on this host. */
static void rma_seg_barrier(struct comm_win *win)
{
    /* lock: the generation; acc: members arrived in this one. */
    struct rma_bar_wait w = {win->bar, __atomic_load_n(&win->bar->lock, __ATOMIC_ACQUIRE)};

    if (__atomic_add_fetch(&win->bar->acc, 1, __ATOMIC_ACQ_REL) == (uint32_t)win->nlocal) {
        __atomic_store_n(&win->bar->acc, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&win->bar->lock, w.gen + 1, __ATOMIC_RELEASE);
        return;
    }
    for (int spin = 0; spin < 200; spin++) {
        if (rma_bar_passed(&w)) {
            return;
        }
        __builtin_ia32_pause();
    }
    comm_progress_wait(rma_bar_passed, &w);
}

int comm_rma_barrier(struct comm_win *win)
{
    if (win->seg != NULL && win->nlocal == win->size) {
        rma_seg_barrier(win);
        return MPI_SUCCESS;
    }
    return win->comm->coll->barrier(win->comm);
}

/* The end of a lazily asked lock's epoch: its grant received and let go. */
static void rma_lock_done(struct comm_rma_peer *p)
{
    if (p->lock_req != NULL) {
        comm_progress_wait(comm_progress_flag_done, &p->lock_req->complete);
        comm_request_free(p->lock_req);
        p->lock_req = NULL;
    }
    p->lock_pending = false;
}

/* ---- waiting ---------------------------------------------------------------------------- */

struct rma_wait_peers {
    struct comm_win *win;
    int target; /* COMM_RMA_ALL: all */
};

static bool rma_locally_done(void *arg)
{
    const struct rma_wait_peers *w = arg;

    if (w->target >= 0) {
        return w->win->peers[w->target].outstanding == 0;
    }
    for (int r = 0; r < w->win->size; r++) {
        if (w->win->peers[r].outstanding != 0) {
            return false;
        }
    }
    return true;
}

static void rma_wait_local(struct comm_win *win, int target)
{
    struct rma_wait_peers w = {win, target};

    if (win->any_messages && !rma_locally_done(&w)) {
        comm_progress_wait(rma_locally_done, &w);
    }
}

/* Waits for every request of N. */
static bool rma_all_complete(void *arg)
{
    struct comm_request **reqs = arg;

    for (; *reqs != NULL; reqs++) {
        if (!comm_request_is_complete(*reqs)) {
            return false;
        }
    }
    return true;
}

static void rma_wait_requests(struct comm_request **reqs, int n)
{
    int err = MPI_SUCCESS;

    comm_progress_wait(rma_all_complete, reqs);
    for (int i = 0; i < n; i++) {
        if (reqs[i]->error != MPI_SUCCESS) {
            err = reqs[i]->error;
        }
        comm_request_free(reqs[i]);
    }
    if (err != MPI_SUCCESS) {
        comm_log_error("rma", "a synchronization message failed (error %d)", err);
    }
}

/* Sends control message TYPE to each target of TARGETS (N of them) and, with ACK, waits for
 * their answers. */
static int rma_control(struct comm_win *win, const int *targets, int n, int type, int lock_type,
                       bool ack)
{
    struct comm_request **reqs = calloc((size_t)n + 1, sizeof(*reqs));
    struct rma_hdr h = {.type = (uint8_t)type,
                        .epoch = win->fences_done,
                        .lock = (uint8_t)(lock_type == MPI_LOCK_EXCLUSIVE ? 2 : 1),
                        .flags = ack ? RMA_HDR_ACK : 0};
    int k = 0;

    if (reqs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_core_lock();
    for (int i = 0; i < n; i++) {
        char *msg = malloc(sizeof(h));

        if (msg == NULL) {
            break;
        }
        memcpy(msg, &h, sizeof(h));
        if (ack) {
            reqs[k] =
                comm_rma_recv(win, targets[i], RMA_TAG_ACK, NULL, 0, rma_byte(), true, NULL, NULL);
            if (reqs[k] == NULL) {
                free(msg);
                break;
            }
            k++;
        }
        if (comm_rma_send(win, targets[i], RMA_TAG_OP, msg, sizeof(h), rma_byte(), true, false,
                          NULL, NULL) == NULL) {
            break;
        }
    }
    comm_core_unlock();
    rma_wait_requests(reqs, k);
    free(reqs);
    return k == (ack ? n : 0) ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* ---- fence ------------------------------------------------------------------------------ */

static bool rma_applied_enough(void *arg)
{
    const struct comm_win *win = arg;

    return win->applied >= win->fence_expected;
}

int comm_win_fence(struct comm_win *win, int assert)
{
    bool barrier = true;
    int err = MPI_SUCCESS;

    if (!win->any_messages || (assert &MPI_MODE_NOPRECEDE)) {
        rma_wait_local(win, COMM_RMA_ALL);
    } else {
        /* Per target: how many messages it was sent, ever (it waits until it carried out as
         * many), and whether anyone reached another rank without messages (then a barrier
         * keeps those from landing before a target is done with this epoch's messages; the
         * next epoch's messages wait by themselves, by their epoch number). */
        uint64_t *sent = malloc((size_t)win->size * 2 * sizeof(*sent)), mine[2];
        int *counts = malloc((size_t)win->size * sizeof(int));

        if (sent == NULL || counts == NULL) {
            free(sent);
            free(counts);
            return MPI_ERR_NO_MEM;
        }
        for (int r = 0; r < win->size; r++) {
            sent[2 * r] = win->peers[r].sent;
            sent[2 * r + 1] = win->bypassed;
            counts[r] = 2;
        }
        err = win->comm->coll->reduce_scatter(sent, mine, counts,
                                              comm_datatype_lookup(MPI_UINT64_T),
                                              comm_op_lookup(MPI_SUM), win->comm);
        free(sent);
        free(counts);
        if (err != MPI_SUCCESS) {
            return err;
        }
        win->fence_expected = mine[0];
        comm_progress_wait(rma_applied_enough, win);
        /* This process's gets were answered meanwhile (their targets counted them). */
        rma_wait_local(win, COMM_RMA_ALL);
        for (int r = 0; r < win->size; r++) {
            win->peers[r].unflushed = 0;
        }
        barrier = mine[1] > 0;
    }
    comm_core_lock();
    win->bypassed = false;
    comm_rma_fence_passed(win);
    comm_core_unlock();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (barrier) {
        /* No member starts the next epoch before every member has ended this one. */
        err = comm_rma_barrier(win);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    win->fence_open = !(assert &MPI_MODE_NOSUCCEED);
    return err;
}

/* ---- post, start, complete, wait --------------------------------------------------------- */

static int *rma_copy_ranks(const int *ranks, int n)
{
    int *c = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));

    if (c != NULL && n > 0) {
        memcpy(c, ranks, (size_t)n * sizeof(int));
    }
    return c;
}

int comm_win_post(struct comm_win *win, const int *ranks, int n, int assert)
{
    int *copy = rma_copy_ranks(ranks, n);
    struct comm_request **reqs = calloc((size_t)n + 1, sizeof(*reqs));
    uint64_t *counts = calloc((size_t)n + 1, sizeof(*counts));
    int err = MPI_SUCCESS;

    if (copy == NULL || reqs == NULL || counts == NULL) {
        free(copy);
        free(reqs);
        free(counts);
        return MPI_ERR_NO_MEM;
    }
    free(win->post_ranks);
    free(win->complete_reqs);
    free(win->complete_counts);
    win->post_ranks = copy;
    win->npost = n;
    win->complete_reqs = reqs;
    win->complete_counts = counts;
    win->exposed = true;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    comm_core_lock();
    for (int i = 0; i < n; i++) {
        reqs[i] = comm_rma_recv(win, ranks[i], RMA_TAG_COMPLETE, &counts[i], 1,
                                comm_datatype_lookup(MPI_UINT64_T), true, NULL, NULL);
        if (reqs[i] == NULL) {
            err = MPI_ERR_OTHER;
            break;
        }
        if (!(assert &MPI_MODE_NOCHECK) &&
            comm_rma_send(win, ranks[i], RMA_TAG_POST, NULL, 0, rma_byte(), false, false, NULL,
                          NULL) == NULL) {
            err = MPI_ERR_OTHER;
            break;
        }
    }
    comm_core_unlock();
    return err;
}

int comm_win_start(struct comm_win *win, const int *ranks, int n, int assert)
{
    int *copy = rma_copy_ranks(ranks, n);
    struct comm_request **reqs;
    int k = 0;

    if (copy == NULL) {
        return MPI_ERR_NO_MEM;
    }
    free(win->start_ranks);
    win->start_ranks = copy;
    win->nstart = n;
    win->access = COMM_RMA_PSCW;
    if (assert & MPI_MODE_NOCHECK) {
        return MPI_SUCCESS;
    }
    reqs = calloc((size_t)n + 1, sizeof(*reqs));
    if (reqs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_core_lock();
    for (int i = 0; i < n; i++) {
        reqs[k] = comm_rma_recv(win, ranks[i], RMA_TAG_POST, NULL, 0, rma_byte(), true, NULL, NULL);
        if (reqs[k] != NULL) {
            k++;
        }
    }
    comm_core_unlock();
    rma_wait_requests(reqs, k);
    free(reqs);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return k == n ? MPI_SUCCESS : MPI_ERR_OTHER;
}

int comm_win_complete(struct comm_win *win)
{
    int err = MPI_SUCCESS;

    rma_wait_local(win, COMM_RMA_ALL);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* Each target hears how many data messages it was sent: it waits for them. */
    comm_core_lock();
    for (int i = 0; i < win->nstart; i++) {
        struct comm_rma_peer *p = &win->peers[win->start_ranks[i]];
        uint64_t *count = malloc(sizeof(*count));

        if (count == NULL) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        *count = p->sent;
        p->unflushed = 0;
        if (comm_rma_send(win, win->start_ranks[i], RMA_TAG_COMPLETE, count, 1,
                          comm_datatype_lookup(MPI_UINT64_T), true, false, NULL, NULL) == NULL) {
            err = MPI_ERR_OTHER;
            break;
        }
    }
    comm_core_unlock();
    win->access = COMM_RMA_NONE;
    win->nstart = 0;
    return err;
}

/* Whether every origin of the exposure epoch has completed, and its data was carried out. */
static bool rma_all_completed(void *arg)
{
    const struct comm_win *win = arg;

    for (int i = 0; i < win->npost; i++) {
        if (!comm_request_is_complete(win->complete_reqs[i]) ||
            win->peers[win->post_ranks[i]].got < win->complete_counts[i]) {
            return false;
        }
    }
    return true;
}

static void rma_end_exposure(struct comm_win *win)
{
    comm_core_lock();
    for (int i = 0; i < win->npost; i++) {
        comm_request_free(win->complete_reqs[i]);
        win->complete_reqs[i] = NULL;
    }
    win->exposed = false;
    win->npost = 0;
    comm_core_unlock();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

int comm_win_wait(struct comm_win *win)
{
    comm_progress_wait(rma_all_completed, win);
    rma_end_exposure(win);
    return MPI_SUCCESS;
}

int comm_win_test(struct comm_win *win, bool *flag)
{
    comm_progress();
    comm_core_lock();
    *flag = rma_all_completed(win);
    comm_core_unlock();
    if (*flag) {
        rma_end_exposure(win);
    }
    return MPI_SUCCESS;
}

/* ---- locks ------------------------------------------------------------------------------ */

struct rma_spin {
    struct comm_rma_ctl *ctl;
    int lock_type;
};

static bool rma_try_ctl(void *arg)
{
    const struct rma_spin *s = arg;

    return comm_rma_try_lock(s->ctl, s->lock_type);
}

static int rma_lock_one(struct comm_win *win, int lock_type, int target)
{
    struct comm_rma_peer *p = &win->peers[target];

    p->lock_type = lock_type;
    p->lock_pending = false;
    if (p->ctl != NULL && p->path != COMM_RMA_MESSAGES) {
        struct rma_spin s = {p->ctl, lock_type};

        if (!comm_rma_try_lock(p->ctl, lock_type)) {
            comm_progress_wait(rma_try_ctl, &s);
        }
        p->lock_direct = true;
        return MPI_SUCCESS;
    }
    p->lock_direct = false;
    p->lock_pending = true; /* asked for with the epoch's first operation */
    return MPI_SUCCESS;
}

int comm_win_lock(struct comm_win *win, int lock_type, int target, int assert)
{
    int err = MPI_SUCCESS;

    win->nlocks++;
    win->access = COMM_RMA_LOCKS;
    if (target == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    (void)assert; /* a lock granted by messages is asked for when first used, whatever the
                     assertion: its unlock gives it back */
    rma_lock_one(win, lock_type, target);
    win->peers[target].unflushed = 0;
    return err;
}

/* Ends the lock on TARGET: its operations done there, then the lock let go. */
static int rma_unlock_one(struct comm_win *win, int target)
{
    struct comm_rma_peer *p = &win->peers[target];
    int err = MPI_SUCCESS;

    rma_wait_local(win, target);
    if (p->lock_direct) {
        if (p->unflushed > 0) {
            err = rma_control(win, &target, 1, RMA_AM_FLUSH, 0, true);
        }
        /* Releasing the lock orders this epoch's stores before it. */
        comm_rma_unlock_ctl(p->ctl, p->lock_type);
    } else if (!p->lock_pending) {
        /* Fetches were answered, so done: only puts and accumulates need the target's word. */
        err = rma_control(win, &target, 1, RMA_AM_UNLOCK, p->lock_type, p->unflushed > 0);
        rma_lock_done(p);
    }
    p->lock_pending = false;
    p->unflushed = 0;
    p->lock_type = 0;
    p->lock_direct = false;
    return err;
}

int comm_win_unlock(struct comm_win *win, int target)
{
    int err = MPI_SUCCESS;

    if (target != MPI_PROC_NULL) {
        err = rma_unlock_one(win, target);
    }
    if (--win->nlocks == 0) {
        win->access = COMM_RMA_NONE;
    }
    return err;
}

int comm_win_lock_all(struct comm_win *win, int assert)
{
    int *remote = malloc((size_t)win->size * sizeof(int)), n = 0, err = MPI_SUCCESS;

    if (remote == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < win->size; r++) {
        rma_lock_one(win, MPI_LOCK_SHARED, r);
        win->peers[r].unflushed = 0;
    }
    (void)assert;
    (void)n;
    free(remote);
    win->access = COMM_RMA_LOCK_ALL;
    return err;
}

int comm_win_unlock_all(struct comm_win *win)
{
    int *remote = malloc((size_t)win->size * sizeof(int)), *flush, n = 0, nf = 0, nq = 0;
    int err = MPI_SUCCESS, e;

    flush = malloc((size_t)win->size * sizeof(int));
    if (remote == NULL || flush == NULL) {
        free(remote);
        free(flush);
        return MPI_ERR_NO_MEM;
    }
    rma_wait_local(win, COMM_RMA_ALL);
    for (int r = 0; r < win->size; r++) {
        struct comm_rma_peer *p = &win->peers[r];

        if (p->lock_direct) {
            if (p->unflushed > 0) {
                flush[nf++] = r;
            }
        } else if (!p->lock_pending && p->unflushed > 0) {
            remote[n++] = r;
        } else if (!p->lock_pending) {
            /* Nothing to confirm: let go without waiting (listed from the end). */
            remote[win->size - 1 - nq++] = r;
        }
    }
    if (nf > 0) {
        err = rma_control(win, flush, nf, RMA_AM_FLUSH, 0, true);
    }
    if (n > 0) {
        e = rma_control(win, remote, n, RMA_AM_UNLOCK, MPI_LOCK_SHARED, true);
        err = err != MPI_SUCCESS ? err : e;
    }
    if (nq > 0) {
        e = rma_control(win, remote + win->size - nq, nq, RMA_AM_UNLOCK, MPI_LOCK_SHARED, false);
        err = err != MPI_SUCCESS ? err : e;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int r = 0; r < win->size; r++) {
        struct comm_rma_peer *p = &win->peers[r];

        if (p->lock_direct) {
            comm_rma_unlock_ctl(p->ctl, MPI_LOCK_SHARED);
        } else {
            rma_lock_done(p);
        }
        p->lock_type = 0;
        p->lock_direct = false;
        p->unflushed = 0;
    }
    free(remote);
    free(flush);
    win->access = COMM_RMA_NONE;
    return err;
}

int comm_win_flush(struct comm_win *win, int target, bool local)
{
    int *need, n = 0, err = MPI_SUCCESS;

    if (target == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (!win->any_messages) {
        /* Every operation was done when its call returned. */
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return MPI_SUCCESS;
    }
    /* Serve the others too, even when nothing of ours waits (see comm_win_op). */
    comm_progress();
    rma_wait_local(win, target);
    if (local) {
        return MPI_SUCCESS;
    }
    need = malloc((size_t)win->size * sizeof(int));
    if (need == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (int r = target >= 0 ? target : 0; r < (target >= 0 ? target + 1 : win->size); r++) {
        if (win->peers[r].unflushed > 0 && !win->peers[r].lock_pending) {
            need[n++] = r;
            win->peers[r].unflushed = 0;
        }
    }
    if (n > 0) {
        err = rma_control(win, need, n, RMA_AM_FLUSH, 0, true);
    }
    free(need);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return err;
}

int comm_win_sync(struct comm_win *win)
{
    (void)win;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    comm_progress();
    return MPI_SUCCESS;
}
