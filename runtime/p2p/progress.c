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
 * Stuck waits (COMM_TIMEOUT_MS): the rounds count the events they handle (a fragment, a
 * transfer's completion, a schedule's step), and a waiting rank looks at the count and the
 * clock every 256 idle rounds, from the start of each idle stretch of a wait (time spent
 * outside MPI does not count).  A rank that waits with nothing handled for COMM_TIMEOUT_MS
 * says where it waits (the last MPI call it entered, and what it waits for from
 * whom: the reporter that point-to-point registers), again each period while nothing moves, and
 * once more when something does; or ends the job (COMM_TIMEOUT_ACTION=abort, status
 * COMM_PROGRESS_STUCK_STATUS).  A peer that moves data, however slowly, makes events.
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
static int progress_check_action(const char *value, char *expected_out, size_t len);

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
    {.name = "COMM_TIMEOUT_MS",
     .type = COMM_SETTING_INT,
     .default_value = "300000",
     .help = "milliseconds a rank waits in MPI with nothing moving (no byte, no peer's event) "
             "before it says where it waits and for whom; 0: never",
     .audience = COMM_AUDIENCE_USER,
     .min = 0,
     .max = 604800000},
    {.name = "COMM_TIMEOUT_ACTION",
     .type = COMM_SETTING_STRING,
     .default_value = "warn",
     .help = "after COMM_TIMEOUT_MS with nothing moving: warn (say so, again each period, and "
             "when it moves again) or abort (end the job, status 111)",
     .audience = COMM_AUDIENCE_USER,
     .check = progress_check_action},
};

const struct comm_setting_table comm_progress_settings = {
    .component = "runtime",
    .count = sizeof(progress_settings) / sizeof(progress_settings[0]),
    .settings = progress_settings,
};

/* Guarded by: set at init. */
static bool progress_polite = false;
static uint64_t progress_timeout_ns; /* COMM_TIMEOUT_MS; 0: off */
static bool progress_timeout_abort;  /* COMM_TIMEOUT_ACTION=abort */
static void (*progress_reporter)(const char *why, bool end);

/* Events handled so far (a count, so that the rounds that handle some read no clock; a race
 * between threads may lose some, never all); when a waiting rank last saw it change; and the
 * last report (0: none since then). */
static _Atomic uint64_t progress_events;
static _Atomic uint64_t progress_events_seen;
static _Atomic uint64_t progress_moved_ns;
static _Atomic uint64_t progress_reported_ns;
static __thread const char *progress_call = "MPI_Init"; /* the last MPI call entered */
static const char *progress_reported_call; /* the call named in the last report */

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

static uint64_t progress_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void comm_progress_note_call(const char *func)
{
    progress_call = func;
}

void comm_progress_set_reporter(void (*fn)(const char *why, bool end))
{
    progress_reporter = fn;
}

/* Something moved after a report: say so, once. */
static void progress_moved_again(void)
{
    uint64_t now = progress_now_ns();

    if (atomic_exchange_explicit(&progress_reported_ns, 0, memory_order_relaxed) != 0) {
        comm_log_warn("runtime", "%s moves again, after %.1f s with nothing moving",
                      progress_reported_call,
                      (double)(now - atomic_load_explicit(&progress_moved_ns,
                                                          memory_order_relaxed)) /
                          1e9);
    }
}

int comm_progress_poll(void)
{
    int n = 0;

    for (size_t i = 0; i < progress_nhooks; i++) {
        n += progress_hooks[i]();
    }
    if (n > 0 && progress_timeout_ns != 0) {
        atomic_store_explicit(&progress_events,
                              atomic_load_explicit(&progress_events, memory_order_relaxed) +
                                  (uint64_t)n,
                              memory_order_relaxed);
        if (atomic_load_explicit(&progress_reported_ns, memory_order_relaxed) != 0) {
            progress_moved_again();
        }
    }
    return n;
}

/* A waiting rank with nothing moving for COMM_TIMEOUT_MS: says where it waits, once a period,
 * or ends the job.  Called from the wait loops when a round handled nothing, IDLE being the
 * rounds in a row that did (the clock is read every 256th, the first starting the stretch). */
static void progress_watch(unsigned idle)
{
    uint64_t now, moved, reported, events;
    char text[256];

    if (progress_timeout_ns == 0 || (idle & 255) != 0) {
        return;
    }
    now = progress_now_ns();
    events = atomic_load_explicit(&progress_events, memory_order_relaxed);
    moved = atomic_load_explicit(&progress_moved_ns, memory_order_relaxed);
    reported = atomic_load_explicit(&progress_reported_ns, memory_order_relaxed);
    if (idle == 256 || events != atomic_load_explicit(&progress_events_seen, memory_order_relaxed)) {
        /* A stretch with nothing handled begins, or events since the last look: moving (to
         * within a look's period, a few milliseconds). */
        atomic_store_explicit(&progress_events_seen, events, memory_order_relaxed);
        atomic_store_explicit(&progress_moved_ns, now, memory_order_relaxed);
        return;
    }
    if (now - moved < progress_timeout_ns ||
        (reported != 0 && now - reported < progress_timeout_ns)) {
        return;
    }
    progress_reported_call = progress_call; /* the progress thread may see it move */
    atomic_store_explicit(&progress_reported_ns, now, memory_order_relaxed);
    snprintf(text, sizeof(text), "nothing has moved for %.1f s (COMM_TIMEOUT_MS) while waiting in %s",
             (double)(now - moved) / 1e9, progress_call);
    comm_log_warn("runtime", "%s; it waits for:", text);
    if (progress_reporter != NULL) {
        progress_reporter(text, progress_timeout_abort); /* ends the job when told to */
    }
    if (reported == 0) {
        comm_log_warn("runtime",
                      "said again every %.1f s while nothing moves, and when something does "
                      "(COMM_TIMEOUT_ACTION=warn)",
                      (double)progress_timeout_ns / 1e9);
    }
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

static int progress_check_action(const char *value, char *expected_out, size_t len)
{
    if (strcmp(value, "warn") == 0 || strcmp(value, "abort") == 0) {
        return COMM_OK;
    }
    snprintf(expected_out, len, "warn or abort");
    return COMM_ERR_BAD_PARAM;
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
    const char *value, *action;
    long cores = get_nprocs(), timeout_ms;
    int rc = comm_config_get_string(&progress_settings[0], &value);

    if (rc == COMM_OK) {
        rc = comm_config_get_int(&progress_settings[2], &timeout_ms);
    }
    if (rc == COMM_OK) {
        rc = comm_config_get_string(&progress_settings[3], &action);
    }
    if (rc < 0) {
        return rc;
    }
    progress_timeout_ns = (uint64_t)timeout_ms * 1000000u;
    progress_timeout_abort = strcmp(action, "abort") == 0;
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
    if ((++*idle & 1023) == 0 || progress_polite) {
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
        progress_watch(idle);
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
        if (n == 0) {
            progress_watch(idle + 1); /* under the lock: a report walks the queues */
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
                progress_watch(idle);
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
