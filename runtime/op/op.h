/*
 * op.h - MPI reduction operations: the objects, the type rules and the reduction engine.
 *
 * Layer: runtime core.  Used by the collectives (coll/), the one-sided accumulate path and the
 * MPI op API (api/api_op.c).
 * Must not: check MPI arguments or report errors to the user (the API does, and names the
 * argument at fault); know about communicators, requests or transports.
 *
 * Life cycle: the fourteen predefined ops (MPI_MAX .. MPI_NO_OP) are static objects, never
 * freed, whose handles are the constants of mpi.h.  A user op (MPI_Op_create) is allocated;
 * its handle is its address, and a registry of live user ops makes comm_op_lookup refuse a
 * handle that names nothing or that the user already freed.  A user op is reference-counted:
 * the user's handle is one reference (MPI_Op_free drops it), and each pending operation that
 * uses the op holds one more (comm_op_retain/release), so MPI_Op_free during a nonblocking
 * reduction is safe.
 *
 * Reduction: comm_op_reduce computes inout[i] = in[i] op inout[i] over COUNT elements of a
 * datatype, contiguous or not.  Predefined ops work on the basic elements of the type (a
 * derived type qualifies when all its elements are one basic type the op accepts); the typed
 * loops live in op_kernels.c, one function per op and C representation.  User ops are called
 * with the user's datatype handle, in chunks of at most INT_MAX elements.
 *
 * Ownership: the caller owns the buffers; the engine never allocates while reducing.
 * Threads: lookup, retain, release, accepts, reduce and name are safe from any thread;
 * comm_op_create and comm_op_free from one thread at a time per op (the registry has a lock).
 */
#ifndef COMM_OP_H
#define COMM_OP_H

#include <stdbool.h>
#include <stddef.h>

#include "include/mpi.h"

struct comm_datatype;

/*
 * A user function written in another calling convention (a Fortran procedure, whose handles are
 * integers): the op calls INVOKE instead of user_fn, with the op's invoke_data and the
 * arguments a C MPI_User_function would get.  INVOKE converts them and calls the function.
 */
typedef void comm_op_invoke_fn(const void *invoke_data, void *invec, void *inoutvec, int *len,
                               MPI_Datatype *datatype);

/* Index of a predefined op: its handle minus MPI_MAX. */
enum comm_op_index {
    COMM_OP_USER = -1,
    COMM_OP_MAX = 0,
    COMM_OP_MIN,
    COMM_OP_SUM,
    COMM_OP_PROD,
    COMM_OP_LAND,
    COMM_OP_BAND,
    COMM_OP_LOR,
    COMM_OP_BOR,
    COMM_OP_LXOR,
    COMM_OP_BXOR,
    COMM_OP_MAXLOC,
    COMM_OP_MINLOC,
    COMM_OP_REPLACE,
    COMM_OP_NO_OP,
    COMM_OP_NPREDEFINED,
};

/*
 * An op.  Predefined ones are static and read-only; a user op is owned by its references
 * (refcount, changed atomically) and its fields never change after creation, except
 * user_freed and next, guarded by the registry lock of op.c.
 */
struct comm_op {
    MPI_Op handle; /* the predefined constant, or the object's own address */
    bool predefined;
    bool commutative;
    int refcount;               /* user ops only: every reference, the user's handle included */
    MPI_User_function *user_fn; /* user ops only; NULL when invoke is set */
    comm_op_invoke_fn *invoke;  /* user ops of another convention, else NULL */
    void *invoke_data;          /* given to invoke; malloc'ed, freed with the op */
    enum comm_op_index index;   /* COMM_OP_USER for user ops */
    bool user_freed;            /* user ops only: MPI_Op_free was called */
    struct comm_op *next;       /* user ops only: the registry list, under its lock */
};

/* The object behind a handle, or NULL (MPI_OP_NULL, a freed handle, or a handle that names
 * nothing).  Thread-safe; takes no reference. */
struct comm_op *comm_op_lookup(MPI_Op handle);

/* References on user ops; no-ops on predefined ones.  Releasing the last reference frees the
 * op.  Thread-safe. */
void comm_op_retain(struct comm_op *op);
void comm_op_release(struct comm_op *op);

/*
 * MPI_Op_create: a new user op holding one reference (the user's handle).  Returns COMM_OK,
 * or COMM_ERR_NOMEM (logged).  The API has already refused a NULL function.
 */
int comm_op_create(MPI_User_function *user_fn, bool commutative, struct comm_op **op_out);

/*
 * The same for a user function of another calling convention: INVOKE calls it with
 * INVOKE_DATA, which the op owns from then on (even on failure) and frees with free().
 * Returns COMM_OK, or COMM_ERR_NOMEM (logged).
 */
int comm_op_create_invoked(comm_op_invoke_fn *invoke, void *invoke_data, bool commutative,
                           struct comm_op **op_out);

/*
 * MPI_Op_free: the user's handle is gone; the op dies with its last reference.  Returns
 * COMM_OK, or COMM_ERR_BAD_PARAM for a predefined op or one already freed (not logged: the API
 * reports it).
 */
int comm_op_free(struct comm_op *op);

/*
 * Whether OP is defined on DT: a predefined op on a predefined type of the groups the standard
 * lists (plus MPI_CHAR and MPI_WCHAR with the C integers, as Open MPI and MPICH allow), or on a
 * derived type whose basic elements are all one such type.  MPI_REPLACE, MPI_NO_OP and user ops
 * accept every type.  Thread-safe.
 */
bool comm_op_accepts(const struct comm_op *op, const struct comm_datatype *dt);

/*
 * inout[i] = in[i] op inout[i] for COUNT elements of DT laid out from IN and from INOUT (same
 * layout; the buffers must not overlap).  Gaps of a non-contiguous type are left untouched.
 * Reentrant; allocates nothing.  Returns COMM_OK, or COMM_ERR_BAD_PARAM if a predefined op is
 * not defined on DT or COUNT is negative (callers check comm_op_accepts first; not logged).
 */
int comm_op_reduce(const struct comm_op *op, const void *in, void *inout, MPI_Count count,
                   const struct comm_datatype *dt);

/* "MPI_SUM", or "user-defined op" for user ops.  Never NULL. */
const char *comm_op_name(const struct comm_op *op);

/*
 * Engine-private (runtime/op*.c): the typed loops.  A kernel computes inout[i] = in[i] op
 * inout[i] over N units laid out as a C array: a unit is one basic element, or one C struct of
 * a pair type (MPI_DOUBLE_INT is struct { double; int; }, padding included).  IN and INOUT are
 * aligned to ALIGN.
 */
typedef void comm_op_kernel_fn(const void *in, void *inout, size_t n);

struct comm_op_kernel {
    comm_op_kernel_fn *fn;
    size_t unit;  /* bytes of one unit in memory (the C size of the element or struct) */
    size_t align; /* alignment the loop needs */
};

/* The loop of predefined op INDEX (not MPI_REPLACE or MPI_NO_OP) on basic type BASIC (a
 * predefined handle): COMM_OK and *kernel_out, or COMM_ERR_NOT_SUPPORTED. */
int comm_op_kernel_find(enum comm_op_index index, MPI_Datatype basic,
                        struct comm_op_kernel *kernel_out);

#endif
