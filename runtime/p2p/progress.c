/*
 * progress.c - how a rank waits: running the pollers (point-to-point's polls the transports),
 * spinning, and yielding the core when ranks outnumber cores.
 *
 * At MPI_THREAD_MULTIPLE one waiting thread at a time drives progress: it polls with the core
 * lock held and lets the lock go between rounds, so other threads' calls go on.  The other
 * waiting threads sleep, each on its own condition variable, in a list of waiters; after each
 * round the driver wakes those whose wait is over, and when its own wait is over it hands the
 * role to the first waiter still waiting.  So the transports are polled by one thread, and a
 * thread blocked in a collective holds no lock.
 *
 * Layer: runtime core.  Must not: sleep in the kernel while the process has one thread waiting
 * for a message (waking an idle core costs tens of microseconds here); yielding keeps the core
 * busy for the others.  Waiters beyond the first sleep: they leave the core to the driver.
 */
#include "config.h"

#include "runtime/p2p/progress.h"

#include "base/error.h"
#include "base/log.h"
#include "runtime/thread.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>

static int progress_check_yield(const char *value, char *expected_out, size_t len);

static const struct comm_setting progress_settings[] = {
    {.name = "COMM_WAIT_YIELD",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "give up the core while waiting: auto (when ranks outnumber cores), 1 (always), "
             "0 (never: spin)",
     .audience = COMM_AUDIENCE_TUNER,
     .check = progress_check_yield},
    {.name = "COMM_PROGRESS_THREAD",
     .type = COMM_SETTING_BOOL,
     .default_value = "0",
     .help = "run a thread that progresses communication while the program computes: one-sided "
             "operations reach a passive target through the network, and large messages move, "
             "without the target calling MPI",
     .audience = COMM_AUDIENCE_USER},
};

const struct comm_setting_table comm_progress_settings = {
    .component = "runtime",
    .count = sizeof(progress_settings) / sizeof(progress_settings[0]),
    .settings = progress_settings,
};

/* Guarded by: set at init. */
static bool progress_polite = false;

/* The pollers, in the order they were added (point-to-point's first).  Guarded by the core
 * lock. */
enum { PROGRESS_MAX_HOOKS = 8 };
static int (*progress_hooks[PROGRESS_MAX_HOOKS])(void);
static size_t progress_nhooks;

int comm_progress_add_hook(int (*fn)(void))
{
    int rc = COMM_OK;

    comm_core_lock();
    for (size_t i = 0; i < progress_nhooks; i++) {
        if (progress_hooks[i] == fn) {
            goto out_unlock;
        }
    }
    if (progress_nhooks == PROGRESS_MAX_HOOKS) {
        rc = COMM_ERR_NOMEM;
        goto out_unlock;
    }
    progress_hooks[progress_nhooks++] = fn;
out_unlock:
    comm_core_unlock();
    return rc;
}

int comm_progress_poll(void)
{
    int n = 0;

    for (size_t i = 0; i < progress_nhooks; i++) {
        n += progress_hooks[i]();
    }
    return n;
}

/* The progress thread (COMM_PROGRESS_THREAD). */
static pthread_t progress_thread;
static bool progress_thread_running;
static atomic_bool progress_thread_stop;

bool comm_progress_thread_wanted(void)
{
    bool on = false;

    comm_config_get_bool(&progress_settings[1], &on);
    return on;
}

static void *progress_thread_main(void *arg)
{
    (void)arg;
    while (!atomic_load_explicit(&progress_thread_stop, memory_order_relaxed)) {
        struct timespec pause = {0, 50000};

        comm_core_lock();
        comm_progress_poll();
        comm_core_unlock();
        /* Leave the core and the lock to the program between rounds. */
        nanosleep(&pause, NULL);
    }
    return NULL;
}

int comm_progress_thread_start(void)
{
    if (!comm_progress_thread_wanted()) {
        return COMM_OK;
    }
    atomic_store(&progress_thread_stop, false);
    if (pthread_create(&progress_thread, NULL, progress_thread_main, NULL) != 0) {
        comm_log_error("runtime", "cannot start the progress thread (COMM_PROGRESS_THREAD=1)");
        return COMM_ERR_SYSTEM;
    }
    progress_thread_running = true;
    comm_log_info("runtime", "a progress thread runs beside the program (COMM_PROGRESS_THREAD)");
    return COMM_OK;
}

void comm_progress_thread_stop(void)
{
    if (!progress_thread_running) {
        return;
    }
    atomic_store(&progress_thread_stop, true);
    pthread_join(progress_thread, NULL);
    progress_thread_running = false;
}

static int progress_check_yield(const char *value, char *expected_out, size_t len)
{
    bool b;

    if (strcmp(value, "auto") == 0 || comm_config_parse_bool(value, &b) == COMM_OK) {
        return COMM_OK;
    }
    snprintf(expected_out, len, "auto, 1 or 0");
    return COMM_ERR_BAD_PARAM;
}

int comm_progress_init(long local_size)
{
    const char *value;
    long cores = get_nprocs();
    int rc = comm_config_get_string(&progress_settings[0], &value);

    if (rc < 0) {
        return rc;
    }
    if (strcmp(value, "auto") == 0) {
        progress_polite = local_size > cores;
        if (progress_polite) {
            comm_log_info("runtime", "%ld ranks share %ld cores on this host: waiting ranks "
                          "yield their core", local_size, cores);
        }
    } else {
        comm_config_parse_bool(value, &progress_polite);
    }
    return COMM_OK;
}

bool comm_progress_is_polite(void)
{
    return progress_polite;
}

/* Spinning ranks must still let a same-core thread or process run now and then. */
static void progress_idle(unsigned *idle)
{
    if (progress_polite || (++*idle & 1023) == 0) {
        sched_yield();
    }
}

void comm_progress_until(const bool *flag)
{
    unsigned idle = 0;

    if (comm_thread_is_multiple()) {
        comm_progress_wait(comm_progress_flag_done, (void *)(uintptr_t)flag);
        return;
    }
    while (!*(volatile const bool *)flag) {
        if (comm_progress_poll() > 0) {
            idle = 0;
            continue;
        }
        progress_idle(&idle);
    }
}

bool comm_progress_flag_done(void *flag)
{
    return __atomic_load_n((const bool *)flag, __ATOMIC_ACQUIRE);
}

/* ---- several threads (MPI_THREAD_MULTIPLE) ---------------------------------------------- */

/* A thread asleep in comm_progress_wait. */
struct progress_waiter {
    bool (*done)(void *arg);
    void *arg;
    pthread_cond_t cond;
    bool has_cond;
    bool woken;
    struct progress_waiter *next;
};

/* Guarded by the core lock: the sleeping threads, oldest first, and the driver (the thread
 * that polls for all of them).  progress_driving is also read without the lock, as a hint. */
static struct progress_waiter *progress_waiters;
static struct progress_waiter **progress_waiters_tail = &progress_waiters;
static _Atomic(const void *) progress_driving;
static __thread char progress_self; /* its address names this thread */

/* Wakes the sleepers whose wait is over.  Under the core lock. */
static void progress_wake_done(void)
{
    for (struct progress_waiter *w = progress_waiters; w != NULL; w = w->next) {
        if (!w->woken && w->done(w->arg)) {
            w->woken = true;
            pthread_cond_signal(&w->cond);
        }
    }
}

/* Hands the driver's role to the oldest sleeper still waiting.  Under the core lock. */
static void progress_hand_over(void)
{
    for (struct progress_waiter *w = progress_waiters; w != NULL; w = w->next) {
        if (!w->woken) {
            w->woken = true;
            pthread_cond_signal(&w->cond);
            return;
        }
    }
}

static void progress_sleep(struct progress_waiter *me)
{
    if (!me->has_cond) {
        pthread_cond_init(&me->cond, NULL); /* only for threads that do sleep */
        me->has_cond = true;
    }
    me->woken = false;
    me->next = NULL;
    *progress_waiters_tail = me;
    progress_waiters_tail = &me->next;
    while (!me->woken) {
        comm_core_cond_wait(&me->cond);
    }
    for (struct progress_waiter **link = &progress_waiters; *link != NULL; link = &(*link)->next) {
        if (*link == me) {
            *link = me->next;
            if (progress_waiters_tail == &me->next) {
                progress_waiters_tail = link;
            }
            break;
        }
    }
}

/* Polls for everyone until DONE(ARG); with the core lock, given up between rounds.  The
 * caller hands the role over afterwards. */
static void progress_drive(bool (*done)(void *arg), void *arg)
{
    unsigned idle = 0;

    atomic_store_explicit(&progress_driving, &progress_self, memory_order_relaxed);
    for (;;) {
        int n = comm_progress_poll();

        if (progress_waiters != NULL) {
            progress_wake_done();
        }
        if (done(arg)) {
            break;
        }
        comm_core_unlock();
        if (n > 0) {
            idle = 0;
        } else {
            progress_idle(&idle);
        }
        if (comm_core_is_wanted()) {
            sched_yield(); /* let the blocked thread have the lock */
        }
        comm_core_lock();
    }
    atomic_store_explicit(&progress_driving, NULL, memory_order_relaxed);
}

void comm_progress_wait(bool (*done)(void *arg), void *arg)
{
    struct progress_waiter me = {.done = done, .arg = arg};
    bool nested;

    if (!comm_thread_is_multiple()) {
        unsigned idle = 0;

        while (!done(arg)) {
            if (comm_progress_poll() == 0) {
                progress_idle(&idle);
            } else {
                idle = 0;
            }
        }
        return;
    }
    nested = comm_core_is_locked();
    comm_core_lock();
    if (nested) {
        /* The caller holds the lock: nobody else can poll, so this thread does. */
        while (!done(arg)) {
            comm_progress_poll();
            progress_wake_done();
        }
        comm_core_unlock();
        return;
    }
    while (!done(arg)) {
        if (atomic_load_explicit(&progress_driving, memory_order_relaxed) == NULL) {
            progress_drive(done, arg);
            break;
        }
        progress_sleep(&me);
    }
    /* The role is free (this thread drove, or was woken to take over and found its wait
     * over): the oldest sleeper takes it. */
    if (atomic_load_explicit(&progress_driving, memory_order_relaxed) == NULL) {
        progress_hand_over();
    }
    if (me.has_cond) {
        pthread_cond_destroy(&me.cond);
    }
    comm_core_unlock();
}

int comm_progress(void)
{
    const void *driver;
    int n;

    if (!comm_thread_is_multiple()) {
        return comm_progress_poll();
    }
    /* Another thread polls already: it would only have to wait for the lock. */
    driver = atomic_load_explicit(&progress_driving, memory_order_relaxed);
    if (driver != NULL && driver != &progress_self) {
        return 0;
    }
    comm_core_lock();
    n = comm_progress_poll();
    if (progress_waiters != NULL) {
        progress_wake_done();
    }
    comm_core_unlock();
    return n;
}
