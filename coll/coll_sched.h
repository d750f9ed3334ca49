/*
 * coll_sched.h - schedules: how nonblocking collectives (and MPI_Comm_idup) run.
 *
 * Layer: coll.  Must not: block; a schedule only advances from the progress engine.
 *
 * A schedule is a list of rounds.  A round's steps run in the order they were added: local
 * steps (copy, reduce, call) at once, sends and receives started together; the round ends when
 * its sends and receives have completed, and the next begins.  Every message travels on the
 * communicator's collective context with the schedule's own tag, taken from the communicator's
 * count of nonblocking collectives, so that collectives outstanding at once never take each
 * other's messages (every member starts them in the same order).
 *
 * Building: comm_coll_sched_new, then steps and comm_coll_sched_round between rounds, then
 * comm_coll_sched_start, which ties the schedule to a request (the request owns it).  A call
 * step may add rounds at the end while the schedule runs (MPI_Comm_idup does).
 *
 * Ownership: the schedule retains the communicator's datatypes and operations it uses, and
 * frees the temporary buffers it was given, when its request is freed.
 * Threads: schedules are built by the thread that starts them; once started they run under the
 * core lock (runtime/thread.h), from the progress hook or comm_coll_sched_start.
 */
#ifndef COMM_COLL_SCHED_H
#define COMM_COLL_SCHED_H

#include "coll/coll.h"

struct comm_coll_sched;
struct comm_request;

/* A schedule on COMM; NULL when out of memory. */
struct comm_coll_sched *comm_coll_sched_new(struct comm_communicator *comm);

/* The tag of COMM's next schedule, taken: every member takes it at the same call (a
 * persistent collective takes its tag once, when it is made, and keeps it). */
int comm_coll_sched_take_tag(struct comm_communicator *comm);
/* A schedule on COMM with a tag taken before; NULL when out of memory. */
struct comm_coll_sched *comm_coll_sched_new_tagged(struct comm_communicator *comm, int tag);

/* Steps of the current round.  Each returns MPI_SUCCESS or MPI_ERR_NO_MEM (the schedule is
 * then unusable: free it with comm_coll_sched_free). */
int comm_coll_sched_send(struct comm_coll_sched *s, const void *buf, MPI_Count count,
                         struct comm_datatype *dt, int peer);
int comm_coll_sched_recv(struct comm_coll_sched *s, void *buf, MPI_Count count,
                         struct comm_datatype *dt, int peer);
int comm_coll_sched_copy(struct comm_coll_sched *s, const void *src, void *dst, MPI_Count count,
                         struct comm_datatype *dt);
/* COUNT elements of DT at BUF as contiguous bytes at BYTES (pack), or back (unpack). */
int comm_coll_sched_pack(struct comm_coll_sched *s, const void *buf, MPI_Count count,
                         struct comm_datatype *dt, void *bytes);
int comm_coll_sched_unpack(struct comm_coll_sched *s, const void *bytes, void *buf, MPI_Count count,
                           struct comm_datatype *dt);
/* inout = in op inout (op's argument order: IN holds the lower ranks' data). */
int comm_coll_sched_reduce(struct comm_coll_sched *s, const void *in, void *inout, MPI_Count count,
                           struct comm_datatype *dt, struct comm_op *op);
/* FN(S, ARG) runs when the round reaches it; it returns an MPI error code, and may add steps
 * and rounds (after the current one). */
int comm_coll_sched_call(struct comm_coll_sched *s, int (*fn)(struct comm_coll_sched *s, void *arg),
                         void *arg);

/* Schedules that run side by side and wait for each other (the pipelined stages of a long
 * collective, coll/hier/hier_pipe.c): a wait step holds the schedule there until *FLAG is
 * true; a signal step sets *FLAG.  Put a wait first in its round and a signal after a round's
 * end (then what came before it has completed).  The flags belong to the caller, who keeps
 * them until every schedule that names them has completed; they are read and written under
 * the core lock (a caller sets one from comm_progress_wait's DONE). */
int comm_coll_sched_wait(struct comm_coll_sched *s, const bool *flag);
int comm_coll_sched_signal(struct comm_coll_sched *s, bool *flag);

/* Ends the current round: what is added next waits for it. */
int comm_coll_sched_round(struct comm_coll_sched *s);

/* A temporary buffer of LEN bytes (zeroed) that lives as long as the schedule. */
void *comm_coll_sched_buffer(struct comm_coll_sched *s, size_t len);
/* A temporary buffer for COUNT elements of DT (see comm_coll_alloc_buffer). */
void *comm_coll_sched_elements(struct comm_coll_sched *s, MPI_Count count,
                               struct comm_datatype *dt);

/* The communicator the sends and receives added next go to (the schedule's own, unless
 * comm_coll_sched_set_comm changed it). */
struct comm_communicator *comm_coll_sched_comm(const struct comm_coll_sched *s);

/* Sends and receives added from now on name ranks of COMM and travel on its collective
 * context, with the schedule's tag.  An intercommunicator's schedules use it to work in the
 * local group (comm->local_comm, which nothing else gives schedules to), reusing the
 * intracommunicator builders; set it back before adding steps between the groups. */
void comm_coll_sched_set_comm(struct comm_coll_sched *s, struct comm_communicator *comm);

/*
 * Starts S for REQ (a COMM_REQUEST_COLL request, which owns S from now on): REQ completes when
 * the last round has.  MPI_SUCCESS, or an error code (S is then freed).
 */
int comm_coll_sched_start(struct comm_coll_sched *s, struct comm_request *req);

/*
 * Starts S for REQ without giving it to REQ: the caller frees S once REQ has completed (a
 * persistent collective, which makes a new schedule at each start).  MPI_SUCCESS, or an error
 * code (S is not freed).
 */
int comm_coll_sched_run(struct comm_coll_sched *s, struct comm_request *req);

/* Frees a schedule that was not started, or whose request has completed. */
void comm_coll_sched_free(struct comm_coll_sched *s);

#endif
