/*
 * progress.h - the progress engine: how a rank waits (spinning, yielding the core when ranks
 * outnumber cores, one driving thread at MPI_THREAD_MULTIPLE, an optional progress thread),
 * and the pollers it runs on every round.
 *
 * Layer: runtime core, below point-to-point: it knows no transport and no message; what moves
 * data registers a poller (comm_progress_add_hook).
 */
#ifndef COMM_PROGRESS_H
#define COMM_PROGRESS_H

#include <stdbool.h>

#include "base/config_table.h"

/* Runs every poller (point-to-point's first: the transports and what waits to go out); returns
 * the number of events.  At MPI_THREAD_MULTIPLE it returns 0 at once while another thread
 * drives progress (comm_progress_wait), which polls for all. */
int comm_progress(void);

/* One round of comm_progress, with the core lock held by the caller. */
int comm_progress_poll(void);

/* Adds FN (returning its number of events) to what comm_progress runs, once, after the
 * pollers added before it: point-to-point (at comm_p2p_init), the collective engine's
 * schedules and the one-sided targets progress this way.  COMM_ERR_NOMEM when the few slots
 * are taken. */
int comm_progress_add_hook(int (*fn)(void));

/* Progresses until *FLAG is true (a request's complete field, or a flag the progress engine
 * sets under the core lock).  Called without the core lock (see comm_progress_wait). */
void comm_progress_until(const bool *flag);

/*
 * Progresses until DONE(ARG) is true; DONE runs with the core lock held, possibly in another
 * thread (the driver's), and must not wait.  At MPI_THREAD_MULTIPLE one waiting thread polls
 * the transports for all; the others sleep until their DONE is true or the polling role is
 * free (progress.c).  Call it without the core lock: a waiting thread must leave the lock to
 * the others (with it held, the thread polls by itself, keeping every other thread out).
 */
void comm_progress_wait(bool (*done)(void *arg), void *arg);

/* DONE for comm_progress_wait: whether the bool at FLAG is true (read with acquire order). */
bool comm_progress_flag_done(void *flag);

/* Decides how to wait: yield the core when the host runs more ranks than it has cores
 * (LOCAL_SIZE ranks here), or as COMM_WAIT_YIELD says. */
int comm_progress_init(long local_size);

/* COMM_PROGRESS_THREAD: whether a thread progresses beside the program (the core lock is then
 * taken whatever the thread level), and starting and stopping it (after init, before the
 * transports close). */
bool comm_progress_thread_wanted(void);
int comm_progress_thread_start(void);
void comm_progress_thread_stop(void);

/* COMM_TIMEOUT_MS: the last MPI call FUNC the calling thread entered, named in a report of a
 * stuck wait (the api layer's entry checks note it); and the function that says, in warnings,
 * what the rank waits for from whom after the line WHY, and ends the job when END
 * (COMM_TIMEOUT_ACTION=abort; the runtime's). */
void comm_progress_note_call(const char *func);
void comm_progress_set_reporter(void (*fn)(const char *why, bool end));

/* The exit status of a job that a rank ended for a stuck wait (COMM_TIMEOUT_ACTION=abort). */
enum { COMM_PROGRESS_STUCK_STATUS = 111 };

/* Whether this process waits by yielding the core. */
bool comm_progress_is_polite(void);

/* Settings of the progress engine. */
extern const struct comm_setting_table comm_progress_settings;

#endif
