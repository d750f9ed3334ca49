/*
 * api.h - shared by the MPI entry points: symbol aliases, state checks, error dispatch.
 *
 * Layer: api (the top of libcomm).  Must not: be included below api/.
 *
 * Every entry point is defined as PMPI_x and exported; MPI_x is a weak alias of it, so a
 * profiling library can define MPI_x and call PMPI_x.
 */
#ifndef COMM_API_H
#define COMM_API_H

#include <stdbool.h>
#include <stddef.h>

#include "include/mpi.h"
#include "runtime/comm/communicator.h"
#include "runtime/errhandler.h"
#include "runtime/op/op.h"
#include "base/config_table.h"

#define COMM_API_ALIAS(fn) extern __typeof__(P##fn) fn __attribute__((weak, alias("P" #fn)))

/* Every settings table of libcomm, for init and comm-info. */
extern const struct comm_setting_table *const comm_settings_tables[];
extern const size_t comm_settings_ntables;
/* The settings comm-run reads that the ranks see too (COMM_HEARTBEAT_*). */
extern const struct comm_setting_table comm_launcher_settings;

/* First error code that carries a comm status (code = base + -status). */
enum { COMM_API_STATUS_CODE_BASE = 100 };

/*
 * Raises an MPI error on COMM (NULL: the error is not tied to a communicator, and
 * MPI_COMM_WORLD's handler decides, or "fatal" outside init..finalize).  The message names the
 * function and the argument at fault.  With MPI_ERRORS_ARE_FATAL it ends the job; otherwise it
 * returns CODE.
 */
int comm_api_error(struct comm_communicator *comm, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The MPI error code for a failed comm status. */
int comm_api_code_of_status(int status);

/*
 * Returns MPI_SUCCESS when the library is between init and finalize; otherwise raises a fatal
 * error naming FUNC ("MPI_Comm_rank: called before MPI_Init").
 */
int comm_api_check_running(const char *func);

/*
 * The start of every call that takes a communicator: checks that the library is running and
 * that COMM names a communicator.  Returns MPI_SUCCESS and sets *comm_out, or the error code
 * raised (MPI_ERR_COMM for a bad handle; fatal by default).
 */
int comm_api_enter_comm(const char *func, MPI_Comm comm, struct comm_communicator **comm_out);

/* The same for calls only intracommunicators serve: an intercommunicator is MPI_ERR_COMM. */
int comm_api_enter_intracomm(const char *func, MPI_Comm comm,
                             struct comm_communicator **comm_out);

/*
 * The runtime under the world model and the sessions (init.c): hold starts it when nothing
 * holds it yet (at thread level REQUIRED, capped at what comm provides) and sets *PROVIDED_OUT
 * to the level this holder gets; release ends it when its last holder lets go (a fence with
 * every rank of the job).  Return a comm status (the cause logged where it was found).
 */
int comm_api_runtime_hold(int required, int *provided_out);
int comm_api_runtime_release(void);

/* A context new to every member of G (this process among them), agreed through its first
 * member with point-to-point on C's collective context with TAG (C holds every member): as
 * comm_communicator_agree_context, with rounds of claims when a member may be making another
 * communicator meanwhile.  MPI_SUCCESS or the error of the exchange (not raised). */
int comm_api_group_agree_context(struct comm_communicator *c, const struct comm_group *g, int tag,
                                 uint32_t *context_out);

/* MPI_Comm_dup of intercommunicator C (collective over both groups). */
int comm_api_inter_dup(const char *func, struct comm_communicator *c,
                       struct comm_communicator **comm_out);

/* Gives NEW_COMM the attributes of OLD that their copy callbacks keep (MPI_Comm_dup). */
int comm_api_attr_copy(const char *func, struct comm_communicator *old,
                       struct comm_communicator *new_comm);

/* Deletes COMM's attributes through their delete callbacks, last set first (MPI_Comm_free,
 * and MPI_COMM_SELF's at MPI_Finalize).  Stops at a callback that fails: its error, raised. */
int comm_api_attr_delete_all(const char *func, struct comm_communicator *comm);

struct comm_datatype;

/* Datatype attributes (attr.c): MPI_Type_dup's copy callbacks, and MPI_Type_free's delete
 * callbacks (last set first; stops at the first that fails, raising its error). */
int comm_api_type_attr_copy(const char *func, struct comm_datatype *old,
                            struct comm_datatype *new_type);
int comm_api_type_attr_delete_all(const char *func, struct comm_datatype *dt);

/* The largest error code in use (MPI_LASTUSEDCODE): MPI_ERR_LASTCODE until the user adds
 * classes or codes (errors.c). */
int comm_api_last_used_code(void);

/*
 * Fortran handles (handles.c): forgets the Fortran index of a user object the user no longer
 * holds (freed), so that MPI_*_f2c of it gives the null handle.  Cheap when no index was ever
 * given out for that kind.  Thread-safe.
 */
enum comm_api_handle_kind {
    COMM_API_HANDLE_COMM,
    COMM_API_HANDLE_TYPE,
    COMM_API_HANDLE_GROUP,
    COMM_API_HANDLE_REQUEST,
    COMM_API_HANDLE_OP,
    COMM_API_HANDLE_INFO,
    COMM_API_HANDLE_ERRHANDLER,
    COMM_API_HANDLE_MESSAGE,
    COMM_API_HANDLE_SESSION,
    COMM_API_HANDLE_WIN,
    COMM_API_HANDLE_NKINDS,
};
void comm_api_handle_forget(enum comm_api_handle_kind kind, const void *handle);

/* Checks that REQUEST, where a nonblocking call returns its request, is not NULL. */
int comm_api_check_request_out(const char *func, struct comm_communicator *comm,
                               MPI_Request *request);

/*
 * Starts schedule S (made on COMM; NULL when it could not be allocated) whose building
 * returned BUILD_ERR, as the request returned in *REQUEST.  Raises errors on COMM.
 */
struct comm_coll_sched;
int comm_api_start_schedule(const char *func, struct comm_communicator *comm,
                            struct comm_coll_sched *s, int build_err, MPI_Request *request);

struct comm_datatype;
struct comm_request;

/* The largest tag (MPI_TAG_UB). */
enum { COMM_API_TAG_UB = 2147483647 };

/*
 * Argument checks of point-to-point calls, in the order the standard lists the arguments.
 * Each raises the error on COMM (naming FUNC, the argument and its value) and returns its
 * code, or returns MPI_SUCCESS.  RANK may be MPI_PROC_NULL; with IS_RECV also MPI_ANY_SOURCE,
 * and TAG may be MPI_ANY_TAG.  On success *dt_out is the datatype (not retained).
 */
int comm_api_check_p2p(const char *func, struct comm_communicator *comm, const void *buf,
                       int count, MPI_Datatype datatype, int rank, int tag, bool is_recv,
                       struct comm_datatype **dt_out);

/* Checks COUNT elements of DATATYPE at BUF: a count of at least 0, a valid committed type,
 * and a buffer that is not NULL where data would start at address 0. */
int comm_api_check_data(const char *func, struct comm_communicator *comm, const void *buf,
                        int count, MPI_Datatype datatype, struct comm_datatype **dt_out);

/* Checks a datatype argument: valid and committed. */
int comm_api_check_datatype(const char *func, struct comm_communicator *comm,
                            MPI_Datatype datatype, struct comm_datatype **dt_out);

/* Raises the error a completed request carries, on its communicator; MPI_SUCCESS if none. */
int comm_api_request_error(const char *func, struct comm_request *req);

/* Generalized requests (grequest.c), for the completion calls: QUERY fills req->status and
 * req->error through the user's query_fn and returns its code; RELEASE runs free_fn (once) and
 * returns its code; CANCEL runs cancel_fn and returns its code. */
int comm_api_grequest_query(struct comm_request *req);
int comm_api_grequest_release(struct comm_request *req);
int comm_api_grequest_cancel(struct comm_request *req);

/* One-sided communication (win.c): the start of every call that takes a window (running, and
 * a valid window: MPI_ERR_WIN otherwise, raised on MPI_COMM_WORLD), and MPI_Win_free's delete
 * callbacks (attr.c).  Errors on a window are raised on its own communicator, whose error
 * handler is the window's. */
struct comm_win;
int comm_api_enter_win(const char *func, MPI_Win win, struct comm_win **win_out);
int comm_api_win_attr_delete_all(const char *func, struct comm_win *win);

/*
 * Objects whose callback has another calling convention (the Fortran entry points, fortran/):
 * each checks its arguments and raises errors as the C MPI_ function does, naming FUNC, but the
 * object calls INVOKE with INVOKE_DATA instead of a C function.  INVOKE_DATA is malloc'ed by
 * the caller and owned by the object from the call on, even when it fails.  Thread-safe as
 * the C functions.
 */
int comm_api_op_create_invoked(const char *func, comm_op_invoke_fn *invoke, void *invoke_data,
                               int commute, MPI_Op *op);
int comm_api_errhandler_create_invoked(const char *func, enum comm_errhandler_object object,
                                       comm_errhandler_invoke_fn *invoke, void *invoke_data,
                                       MPI_Errhandler *errhandler);

#endif
