/*
 * thread.h - MPI_THREAD_MULTIPLE: the core lock, and a small mutex for tables kept above the
 * core.
 *
 * Layer: runtime core.  Used by the core, coll/ and api/.  Must not: be taken by a btl
 * (btls are called with the core lock held, see btl/btl.h).
 *
 * Cost: every function here first tests one flag, set once by comm_thread_init (MPI_Init) and
 * never changed; below MPI_THREAD_MULTIPLE no lock is taken, so the single-threaded path pays
 * one predictable branch.
 *
 * The core lock guards the state of the runtime core: the peers and their send queues, the
 * match queues, requests (their protocol state and the free list), the communicator table and
 * context ids, the buffered-send buffer, the progress hooks and every btl (which the core calls
 * only with the lock held).  It is recursive within a thread: a core function may call another.
 * Core entry points take it themselves (comm_p2p_start_send, comm_progress, ...), so the MPI
 * entry points in api/ and the algorithms in coll/ need not.
 *
 * Rules for the holder: never wait for a message (comm_progress_until and comm_progress_wait
 * take the lock themselves, and must be called without it: a waiting thread gives up the lock
 * so other threads' calls go on), and never call a user callback that may do so.
 *
 * A request's completion is published with comm_request_is_complete (request.h): a thread may
 * read it without the lock and, once true, read the request's status and error.
 *
 * Tables above the core (keyvals, error classes, handle tables of api/) that are not
 * reached from progress take a struct comm_mutex of their own:
 *
 *     static struct comm_mutex table_lock = COMM_MUTEX_INITIALIZER;
 *
 *     comm_mutex_lock(&table_lock);
 *     ... read or change the table ...
 *     comm_mutex_unlock(&table_lock);
 *
 * It is not recursive, and is never held across a call to another MPI function or a user
 * callback.
 */
#ifndef COMM_THREAD_H
#define COMM_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/* Set once at init: whether MPI_THREAD_MULTIPLE was granted.  Read through the functions. */
extern bool comm_thread_multiple;

/* Records the level MPI_Init granted; before any other thread can call.  Not thread-safe. */
void comm_thread_init(int level);

/* Whether calls may come from several threads at once (MPI_THREAD_MULTIPLE). */
static inline bool comm_thread_is_multiple(void)
{
    return __builtin_expect(comm_thread_multiple, 0);
}

void comm_core_lock_slow(void);
void comm_core_unlock_slow(void);

/* Takes / gives back the core lock (recursive within a thread); nothing below MULTIPLE. */
static inline void comm_core_lock(void)
{
    if (comm_thread_is_multiple()) {
        comm_core_lock_slow();
    }
}

static inline void comm_core_unlock(void)
{
    if (comm_thread_is_multiple()) {
        comm_core_unlock_slow();
    }
}

/* Whether the calling thread holds the core lock (always true below MULTIPLE). */
bool comm_core_is_locked(void);

/* Whether a thread is blocked taking the core lock: a thread that holds it for long stretches
 * (the progress loop) lets it go and yields then. */
bool comm_core_is_wanted(void);

/* Waits on COND with the core lock, held once by this thread, given up meanwhile. */
void comm_core_cond_wait(pthread_cond_t *cond);

/* A mutex for a table above the core; taken only at MPI_THREAD_MULTIPLE. */
struct comm_mutex {
    pthread_mutex_t mutex;
};

#define COMM_MUTEX_INITIALIZER                                                                     \
    {                                                                                              \
        PTHREAD_MUTEX_INITIALIZER                                                                  \
    }

static inline void comm_mutex_lock(struct comm_mutex *m)
{
    if (comm_thread_is_multiple()) {
        pthread_mutex_lock(&m->mutex);
    }
}

static inline void comm_mutex_unlock(struct comm_mutex *m)
{
    if (comm_thread_is_multiple()) {
        pthread_mutex_unlock(&m->mutex);
    }
}

#endif
