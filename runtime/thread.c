/*
 * thread.c - the core lock of MPI_THREAD_MULTIPLE (see thread.h).
 *
 * Layer: runtime core.  Must not: take the lock below MPI_THREAD_MULTIPLE.
 */
#include "config.h"

#include "runtime/thread.h"
#include "include/mpi.h"

#include <stdatomic.h>

/* Guarded by: written once at init, before other threads call. */
bool comm_thread_multiple = false;

static pthread_mutex_t thread_core_mutex = PTHREAD_MUTEX_INITIALIZER;
/* How many times this thread holds the core lock. */
static __thread unsigned thread_core_depth;
/* Threads blocked taking the core lock. */
static atomic_uint thread_core_wanted;

void comm_thread_init(int level)
{
    comm_thread_multiple = level == MPI_THREAD_MULTIPLE;
}

void comm_core_lock_slow(void)
{
    if (thread_core_depth++ > 0) {
        return;
    }
    if (pthread_mutex_trylock(&thread_core_mutex) != 0) {
        atomic_fetch_add_explicit(&thread_core_wanted, 1, memory_order_relaxed);
        pthread_mutex_lock(&thread_core_mutex);
        atomic_fetch_sub_explicit(&thread_core_wanted, 1, memory_order_relaxed);
    }
}

void comm_core_unlock_slow(void)
{
    if (--thread_core_depth == 0) {
        pthread_mutex_unlock(&thread_core_mutex);
    }
}

bool comm_core_is_locked(void)
{
    return !comm_thread_is_multiple() || thread_core_depth > 0;
}

bool comm_core_is_wanted(void)
{
    return atomic_load_explicit(&thread_core_wanted, memory_order_relaxed) > 0;
}

void comm_core_cond_wait(pthread_cond_t *cond)
{
    pthread_cond_wait(cond, &thread_core_mutex);
}
