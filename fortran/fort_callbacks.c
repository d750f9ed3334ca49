/*
 * fort_callbacks.c - the Fortran entry points that take a user procedure (MPI_Op_create, the
 * error handler, keyval and generalized-request constructors) or move attribute values between
 * the languages, and the predefined attribute callbacks of Fortran.
 *
 * Layer: fortran (above api/).  Calls the public MPI_ functions, and for user ops and
 * error handlers the hooks of api/ (comm_api_op_create_invoked,
 * comm_api_errhandler_create_invoked).  Must not: touch the runtime's objects directly.
 *
 * A Fortran procedure takes integer handles by reference, so libcomm cannot call it as a C
 * callback.  Each one is reached through a small C function here that converts the arguments:
 * - user ops and error handlers: the object keeps an "invoke" function and its data (the
 *   Fortran procedure), and calls it instead of a C function; the data dies with the object;
 * - attribute copy/delete callbacks and generalized-request callbacks: the C library gets C
 *   callbacks of its own types, with a record holding the Fortran procedures and the Fortran
 *   extra state as its extra_state.  A keyval's record lives as long as the program (keyvals
 *   are never reclaimed: attributes may still use a freed one); a generalized request's is
 *   freed after its free callback runs.
 * A keyval made with the Fortran predefined callbacks (MPI_COMM_DUP_FN, ...) gets the C
 * library's own, and needs no record when both are predefined.
 *
 * Attribute values (MPI-3.1 section 17.2.7): a Fortran set stores the INTEGER(KIND=
 * MPI_ADDRESS_KIND) value itself as the void *; a Fortran get returns the void * as an integer,
 * except for the predefined attributes, whose C value is the address of the value: there it
 * returns the value (MPI_WIN_BASE, the address of the window, as an integer).  The MPI-1 forms
 * (MPI_ATTR_PUT/GET, MPI_KEYVAL_CREATE) do the same with INTEGER values (sign-extended when
 * stored, cut to INTEGER when read).
 *
 * Threads: as the C functions they call; nothing here keeps state besides the records.
 */
#include "config.h"

#include "fortran/fort_callbacks.h"
#include "api/api.h"

#include <stdint.h>
#include <stdlib.h>

/* Sets the Fortran IERROR when the program passed one (mpi_f08 may not). */
static void fort_ierror(MPI_Fint *ierror, int rc)
{
    if (ierror != NULL) {
        *ierror = rc;
    }
}

/* ---- user reduction ops --------------------------------------------------------------------- */

struct fort_op {
    fort_user_fn *fn;
};

static void fort_op_invoke(const void *invoke_data, void *invec, void *inoutvec, int *len,
                           MPI_Datatype *datatype)
{
    const struct fort_op *f = invoke_data;
    MPI_Fint flen = *len, ftype = MPI_Type_c2f(*datatype);

    f->fn(invec, inoutvec, &flen, &ftype);
}

void mpi_op_create_(fort_user_fn *user_fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierror)
{
    static const char func[] = "MPI_Op_create";
    struct fort_op *f = malloc(sizeof(*f));
    MPI_Op made;
    int rc;

    if (f == NULL) {
        fort_ierror(ierror, comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func));
        return;
    }
    f->fn = user_fn;
    rc = comm_api_op_create_invoked(func, user_fn != NULL ? fort_op_invoke : NULL, f,
                                    commute != NULL && *commute != 0, op != NULL ? &made : NULL);
    if (rc == MPI_SUCCESS) {
        *op = MPI_Op_c2f(made);
    }
    fort_ierror(ierror, rc);
}

/* ---- error handlers ------------------------------------------------------------------------- */

struct fort_errhandler {
    fort_errhandler_fn *fn;
};

static void fort_errhandler_invoke(const void *invoke_data, enum comm_errhandler_object object,
                                   void *handle, int *code)
{
    const struct fort_errhandler *f = invoke_data;
    MPI_Fint fhandle, fcode = *code;

    switch (object) {
    case COMM_ERRHANDLER_FOR_WIN:
        fhandle = MPI_Win_c2f(*(MPI_Win *)handle);
        break;
    case COMM_ERRHANDLER_FOR_SESSION:
        fhandle = MPI_Session_c2f(*(MPI_Session *)handle);
        break;
    case COMM_ERRHANDLER_FOR_COMM:
    default:
        fhandle = MPI_Comm_c2f(*(MPI_Comm *)handle);
        break;
    }
    f->fn(&fhandle, &fcode);
}

static void fort_errhandler_create(const char *func, enum comm_errhandler_object object,
                                   fort_errhandler_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    struct fort_errhandler *f = malloc(sizeof(*f));
    MPI_Errhandler made;
    int rc;

    if (f == NULL) {
        fort_ierror(ierror, comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func));
        return;
    }
    f->fn = fn;
    rc =
        comm_api_errhandler_create_invoked(func, object, fn != NULL ? fort_errhandler_invoke : NULL,
                                           f, errhandler != NULL ? &made : NULL);
    if (rc == MPI_SUCCESS) {
        *errhandler = MPI_Errhandler_c2f(made);
    }
    fort_ierror(ierror, rc);
}

void mpi_comm_create_errhandler_(fort_errhandler_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    fort_errhandler_create("MPI_Comm_create_errhandler", COMM_ERRHANDLER_FOR_COMM, fn, errhandler,
                           ierror);
}

void mpi_errhandler_create_(fort_errhandler_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    fort_errhandler_create("MPI_Errhandler_create", COMM_ERRHANDLER_FOR_COMM, fn, errhandler,
                           ierror);
}

void mpi_win_create_errhandler_(fort_errhandler_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    fort_errhandler_create("MPI_Win_create_errhandler", COMM_ERRHANDLER_FOR_WIN, fn, errhandler,
                           ierror);
}

void mpi_session_create_errhandler_(fort_errhandler_fn *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    fort_errhandler_create("MPI_Session_create_errhandler", COMM_ERRHANDLER_FOR_SESSION, fn,
                           errhandler, ierror);
}

/* ---- keyvals -------------------------------------------------------------------------------- */

/* The extra_state of a keyval with a Fortran copy or delete procedure.  Exactly one pair of
 * the procedures is used: copy/del (MPI-2 forms, address-sized values) or copy1/del1
 * (MPI_KEYVAL_CREATE, INTEGER values); a NULL one is predefined and never called through here. */
struct fort_keyval {
    fort_copy_attr_fn *copy;
    fort_delete_attr_fn *del;
    fort_copy_fn *copy1;
    fort_delete_fn *del1;
    MPI_Aint extra_state;
};

/* The value of a C attribute pointer as a Fortran integer, and back. */
static MPI_Aint fort_value_of(const void *p)
{
    return (MPI_Aint)(intptr_t)p;
}

static void *fort_pointer_of(MPI_Aint v)
{
    return (void *)(intptr_t)v;
}

/* Calls the Fortran copy procedure of K for the object of Fortran handle FOLD. */
static int fort_keyval_copy(const struct fort_keyval *k, MPI_Fint fold, int keyval, void *in,
                            void *out, int *flag)
{
    MPI_Fint fkeyval = keyval, fflag = 0, ierr = MPI_SUCCESS;

    if (k->copy1 != NULL) {
        MPI_Fint extra = (MPI_Fint)k->extra_state, vin = (MPI_Fint)fort_value_of(in), vout = 0;

        k->copy1(&fold, &fkeyval, &extra, &vin, &vout, &fflag, &ierr);
        if (ierr == MPI_SUCCESS && fflag != 0) {
            *(void **)out = fort_pointer_of(vout);
        }
    } else {
        MPI_Aint extra = k->extra_state, vin = fort_value_of(in), vout = 0;

        k->copy(&fold, &fkeyval, &extra, &vin, &vout, &fflag, &ierr);
        if (ierr == MPI_SUCCESS && fflag != 0) {
            *(void **)out = fort_pointer_of(vout);
        }
    }
    *flag = ierr == MPI_SUCCESS && fflag != 0;
    return ierr;
}

/* Calls the Fortran delete procedure of K for the object of Fortran handle FOBJ. */
static int fort_keyval_delete(const struct fort_keyval *k, MPI_Fint fobj, int keyval, void *value)
{
    MPI_Fint fkeyval = keyval, ierr = MPI_SUCCESS;

    if (k->del1 != NULL) {
        MPI_Fint extra = (MPI_Fint)k->extra_state, v = (MPI_Fint)fort_value_of(value);

        k->del1(&fobj, &fkeyval, &v, &extra, &ierr);
    } else {
        MPI_Aint extra = k->extra_state, v = fort_value_of(value);

        k->del(&fobj, &fkeyval, &v, &extra, &ierr);
    }
    return ierr;
}

static int fort_comm_copy(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                          void *attribute_val_out, int *flag)
{
    return fort_keyval_copy(extra_state, MPI_Comm_c2f(oldcomm), keyval, attribute_val_in,
                            attribute_val_out, flag);
}

static int fort_comm_delete(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    return fort_keyval_delete(extra_state, MPI_Comm_c2f(comm), keyval, attribute_val);
}

static int fort_type_copy(MPI_Datatype oldtype, int keyval, void *extra_state,
                          void *attribute_val_in, void *attribute_val_out, int *flag)
{
    return fort_keyval_copy(extra_state, MPI_Type_c2f(oldtype), keyval, attribute_val_in,
                            attribute_val_out, flag);
}

static int fort_type_delete(MPI_Datatype type, int keyval, void *attribute_val, void *extra_state)
{
    return fort_keyval_delete(extra_state, MPI_Type_c2f(type), keyval, attribute_val);
}

static int fort_win_copy(MPI_Win oldwin, int keyval, void *extra_state, void *attribute_val_in,
                         void *attribute_val_out, int *flag)
{
    return fort_keyval_copy(extra_state, MPI_Win_c2f(oldwin), keyval, attribute_val_in,
                            attribute_val_out, flag);
}

static int fort_win_delete(MPI_Win win, int keyval, void *attribute_val, void *extra_state)
{
    return fort_keyval_delete(extra_state, MPI_Win_c2f(win), keyval, attribute_val);
}

/* How a keyval constructor treats the procedures it was given. */
enum fort_given {
    FORT_GIVEN_NULL, /* the predefined null copy or delete */
    FORT_GIVEN_DUP,  /* the predefined dup copy */
    FORT_GIVEN_USER, /* the program's own */
};

static enum fort_given fort_copy_given(fort_copy_attr_fn *fn, fort_copy_attr_fn *null_fn,
                                       fort_copy_attr_fn *dup_fn)
{
    return fn == null_fn ? FORT_GIVEN_NULL : fn == dup_fn ? FORT_GIVEN_DUP : FORT_GIVEN_USER;
}

/*
 * A copy of K for the extra_state of a keyval whose procedures are not both predefined (NEEDED),
 * else NULL (the C constructor then gets the Fortran extra state itself).  *RC_OUT is
 * MPI_SUCCESS, or the error raised when out of memory (and NULL returned).
 */
static struct fort_keyval *fort_keyval_record(const char *func, const struct fort_keyval *k,
                                              bool needed, int *rc_out)
{
    struct fort_keyval *made;

    *rc_out = MPI_SUCCESS;
    if (!needed) {
        return NULL;
    }
    made = malloc(sizeof(*made));
    if (made == NULL) {
        *rc_out = comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
        return NULL;
    }
    *made = *k;
    return made;
}

/*
 * What the three *_create_keyval entry points share: the argument check, which copy procedure
 * was given (the datatype's and window's predefined procedures are the communicator's), and the
 * record the C trampolines read.  False when ierror holds an error.
 */
struct fort_keyval_plan {
    enum fort_given copy;
    bool user_delete;
    struct fort_keyval *rec; /* NULL: both procedures predefined */
    void *extra_state;       /* what the C constructor gets */
};

static bool fort_keyval_prepare(const char *func, const char *kind, fort_copy_attr_fn *copy_fn,
                                fort_delete_attr_fn *delete_fn, const MPI_Aint *extra_state,
                                MPI_Fint *ierror, struct fort_keyval_plan *plan)
{
    MPI_Aint extra = extra_state != NULL ? *extra_state : 0;
    struct fort_keyval k;
    int rc;

    if (copy_fn == NULL || delete_fn == NULL) {
        fort_ierror(ierror, comm_api_error(NULL, MPI_ERR_ARG, "%s: %s_%s_attr_fn is NULL", func,
                                           kind, copy_fn == NULL ? "copy" : "delete"));
        return false;
    }
    plan->copy = fort_copy_given(copy_fn, mpi_comm_null_copy_fn_, mpi_comm_dup_fn_);
    plan->user_delete = delete_fn != mpi_comm_null_delete_fn_;
    k = (struct fort_keyval){.copy = plan->copy == FORT_GIVEN_USER ? copy_fn : NULL,
                             .del = plan->user_delete ? delete_fn : NULL,
                             .extra_state = extra};
    plan->rec =
        fort_keyval_record(func, &k, plan->copy == FORT_GIVEN_USER || plan->user_delete, &rc);
    if (rc != MPI_SUCCESS) {
        fort_ierror(ierror, rc);
        return false;
    }
    plan->extra_state = plan->rec != NULL ? (void *)plan->rec : fort_pointer_of(extra);
    return true;
}

/* Hands the keyval MADE back (or frees the record when the C constructor failed with RC). */
static void fort_keyval_finish(const struct fort_keyval_plan *plan, int rc, int made,
                               MPI_Fint *keyval, MPI_Fint *ierror)
{
    if (rc == MPI_SUCCESS) {
        *keyval = made;
    } else {
        free(plan->rec);
    }
    fort_ierror(ierror, rc);
}

void mpi_comm_create_keyval_(fort_copy_attr_fn *copy_fn, fort_delete_attr_fn *delete_fn,
                             MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Fint *ierror)
{
    struct fort_keyval_plan plan;
    int made = 0, rc;

    if (!fort_keyval_prepare("MPI_Comm_create_keyval", "comm", copy_fn, delete_fn, extra_state,
                             ierror, &plan)) {
        return;
    }
    rc = MPI_Comm_create_keyval(plan.copy == FORT_GIVEN_USER  ? fort_comm_copy
                                : plan.copy == FORT_GIVEN_DUP ? MPI_COMM_DUP_FN
                                                              : MPI_COMM_NULL_COPY_FN,
                                plan.user_delete ? fort_comm_delete : MPI_COMM_NULL_DELETE_FN,
                                keyval != NULL ? &made : NULL, plan.extra_state);
    fort_keyval_finish(&plan, rc, made, keyval, ierror);
}

void mpi_type_create_keyval_(fort_copy_attr_fn *copy_fn, fort_delete_attr_fn *delete_fn,
                             MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Fint *ierror)
{
    struct fort_keyval_plan plan;
    int made = 0, rc;

    if (!fort_keyval_prepare("MPI_Type_create_keyval", "type", copy_fn, delete_fn, extra_state,
                             ierror, &plan)) {
        return;
    }
    rc = MPI_Type_create_keyval(plan.copy == FORT_GIVEN_USER  ? fort_type_copy
                                : plan.copy == FORT_GIVEN_DUP ? MPI_TYPE_DUP_FN
                                                              : MPI_TYPE_NULL_COPY_FN,
                                plan.user_delete ? fort_type_delete : MPI_TYPE_NULL_DELETE_FN,
                                keyval != NULL ? &made : NULL, plan.extra_state);
    fort_keyval_finish(&plan, rc, made, keyval, ierror);
}

void mpi_win_create_keyval_(fort_copy_attr_fn *copy_fn, fort_delete_attr_fn *delete_fn,
                            MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Fint *ierror)
{
    struct fort_keyval_plan plan;
    int made = 0, rc;

    if (!fort_keyval_prepare("MPI_Win_create_keyval", "win", copy_fn, delete_fn, extra_state,
                             ierror, &plan)) {
        return;
    }
    rc = MPI_Win_create_keyval(plan.copy == FORT_GIVEN_USER  ? fort_win_copy
                               : plan.copy == FORT_GIVEN_DUP ? MPI_WIN_DUP_FN
                                                             : MPI_WIN_NULL_COPY_FN,
                               plan.user_delete ? fort_win_delete : MPI_WIN_NULL_DELETE_FN,
                               keyval != NULL ? &made : NULL, plan.extra_state);
    fort_keyval_finish(&plan, rc, made, keyval, ierror);
}

void mpi_keyval_create_(fort_copy_fn *copy_fn, fort_delete_fn *delete_fn, MPI_Fint *keyval,
                        MPI_Fint *extra_state, MPI_Fint *ierror)
{
    static const char func[] = "MPI_Keyval_create";
    enum fort_given copy = copy_fn == mpi_null_copy_fn_ ? FORT_GIVEN_NULL
                           : copy_fn == mpi_dup_fn_     ? FORT_GIVEN_DUP
                                                        : FORT_GIVEN_USER;
    bool user_delete = delete_fn != mpi_null_delete_fn_;
    MPI_Aint extra = extra_state != NULL ? *extra_state : 0;
    struct fort_keyval k = {.copy1 = copy == FORT_GIVEN_USER ? copy_fn : NULL,
                            .del1 = user_delete ? delete_fn : NULL,
                            .extra_state = extra};
    struct fort_keyval *rec;
    int made, rc;

    if (copy_fn == NULL || delete_fn == NULL) {
        fort_ierror(ierror, comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                                           copy_fn == NULL ? "copy_fn" : "delete_fn"));
        return;
    }
    rec = fort_keyval_record(func, &k, copy == FORT_GIVEN_USER || user_delete, &rc);
    if (rc != MPI_SUCCESS) {
        fort_ierror(ierror, rc);
        return;
    }
    /* MPI_Keyval_create is MPI_Comm_create_keyval with the C types of MPI-1, which are the
     * same; the communicator trampolines serve both forms. */
    rc = MPI_Comm_create_keyval(copy == FORT_GIVEN_USER  ? fort_comm_copy
                                : copy == FORT_GIVEN_DUP ? MPI_COMM_DUP_FN
                                                         : MPI_COMM_NULL_COPY_FN,
                                user_delete ? fort_comm_delete : MPI_COMM_NULL_DELETE_FN,
                                keyval != NULL ? &made : NULL,
                                rec != NULL ? (void *)rec : fort_pointer_of(extra));
    if (rc == MPI_SUCCESS) {
        *keyval = made;
    } else {
        free(rec);
    }
    fort_ierror(ierror, rc);
}

/* ---- attribute values ----------------------------------------------------------------------- */

/* Whether KEYVAL is a predefined communicator attribute (its C value points at an int). */
static bool fort_is_predefined_comm_keyval(MPI_Fint keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_APPNUM:
    case MPI_LASTUSEDCODE:
        return true;
    default:
        return false;
    }
}

/* The Fortran value of a communicator attribute whose C value is P. */
static MPI_Aint fort_comm_value(MPI_Fint keyval, void *p)
{
    return fort_is_predefined_comm_keyval(keyval) ? *(const int *)p : fort_value_of(p);
}

void mpi_comm_set_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *attribute_val, MPI_Fint *ierror)
{
    fort_ierror(ierror,
                MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval,
                                  fort_pointer_of(attribute_val != NULL ? *attribute_val : 0)));
}

void mpi_comm_get_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *attribute_val, MPI_Fint *flag,
                        MPI_Fint *ierror)
{
    void *p = NULL;
    int found = 0;
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, flag != NULL ? &found : NULL);

    if (rc == MPI_SUCCESS) {
        *flag = found != 0;
        if (found && attribute_val != NULL) {
            *attribute_val = fort_comm_value(*keyval, p);
        }
    }
    fort_ierror(ierror, rc);
}

void mpi_type_set_attr_(MPI_Fint *datatype, MPI_Fint *keyval, MPI_Aint *attribute_val,
                        MPI_Fint *ierror)
{
    fort_ierror(ierror,
                MPI_Type_set_attr(MPI_Type_f2c(*datatype), *keyval,
                                  fort_pointer_of(attribute_val != NULL ? *attribute_val : 0)));
}

void mpi_type_get_attr_(MPI_Fint *datatype, MPI_Fint *keyval, MPI_Aint *attribute_val,
                        MPI_Fint *flag, MPI_Fint *ierror)
{
    void *p = NULL;
    int found = 0;
    int rc = MPI_Type_get_attr(MPI_Type_f2c(*datatype), *keyval, &p, flag != NULL ? &found : NULL);

    if (rc == MPI_SUCCESS) {
        *flag = found != 0;
        if (found && attribute_val != NULL) {
            *attribute_val = fort_value_of(p);
        }
    }
    fort_ierror(ierror, rc);
}

void mpi_win_set_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *attribute_val, MPI_Fint *ierror)
{
    fort_ierror(ierror,
                MPI_Win_set_attr(MPI_Win_f2c(*win), *keyval,
                                 fort_pointer_of(attribute_val != NULL ? *attribute_val : 0)));
}

void mpi_win_get_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *attribute_val, MPI_Fint *flag,
                       MPI_Fint *ierror)
{
    void *p = NULL;
    int found = 0;
    int rc = MPI_Win_get_attr(MPI_Win_f2c(*win), *keyval, &p, flag != NULL ? &found : NULL);

    if (rc == MPI_SUCCESS) {
        *flag = found != 0;
        if (found && attribute_val != NULL) {
            switch (*keyval) {
            case MPI_WIN_SIZE:
                *attribute_val = *(const MPI_Aint *)p;
                break;
            case MPI_WIN_DISP_UNIT:
            case MPI_WIN_CREATE_FLAVOR:
            case MPI_WIN_MODEL:
                *attribute_val = *(const int *)p;
                break;
            default: /* MPI_WIN_BASE (the address) and the program's own */
                *attribute_val = fort_value_of(p);
                break;
            }
        }
    }
    fort_ierror(ierror, rc);
}

void mpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val, MPI_Fint *ierror)
{
    fort_ierror(ierror,
                MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval,
                                  fort_pointer_of(attribute_val != NULL ? *attribute_val : 0)));
}

void mpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val, MPI_Fint *flag,
                   MPI_Fint *ierror)
{
    void *p = NULL;
    int found = 0;
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, flag != NULL ? &found : NULL);

    if (rc == MPI_SUCCESS) {
        *flag = found != 0;
        if (found && attribute_val != NULL) {
            *attribute_val = (MPI_Fint)fort_comm_value(*keyval, p);
        }
    }
    fort_ierror(ierror, rc);
}

/* ---- generalized requests ------------------------------------------------------------------- */

struct fort_grequest {
    fort_grequest_query_fn *query;
    fort_grequest_free_fn *free_fn;
    fort_grequest_cancel_fn *cancel;
    MPI_Aint extra_state;
};

static int fort_grequest_query(void *extra_state, MPI_Status *status)
{
    struct fort_grequest *g = extra_state;
    MPI_Fint fstatus[8], ierr = MPI_SUCCESS;

    _Static_assert(sizeof(MPI_Status) == sizeof(fstatus), "MPI_STATUS_SIZE is 8 INTEGERs");
    MPI_Status_c2f(status, fstatus);
    g->query(&g->extra_state, fstatus, &ierr);
    MPI_Status_f2c(fstatus, status);
    return ierr;
}

/* Runs once, when the request is freed: the record goes with it. */
static int fort_grequest_free(void *extra_state)
{
    struct fort_grequest *g = extra_state;
    MPI_Fint ierr = MPI_SUCCESS;

    g->free_fn(&g->extra_state, &ierr);
    free(g);
    return ierr;
}

static int fort_grequest_cancel(void *extra_state, int complete)
{
    struct fort_grequest *g = extra_state;
    MPI_Fint fcomplete = complete != 0, ierr = MPI_SUCCESS;

    g->cancel(&g->extra_state, &fcomplete, &ierr);
    return ierr;
}

void mpi_grequest_start_(fort_grequest_query_fn *query_fn, fort_grequest_free_fn *free_fn,
                         fort_grequest_cancel_fn *cancel_fn, MPI_Aint *extra_state,
                         MPI_Fint *request, MPI_Fint *ierror)
{
    static const char func[] = "MPI_Grequest_start";
    struct fort_grequest *g;
    MPI_Request made;
    int rc;

    if (query_fn == NULL || free_fn == NULL || cancel_fn == NULL) {
        fort_ierror(ierror, comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                                           query_fn == NULL  ? "query_fn"
                                           : free_fn == NULL ? "free_fn"
                                                             : "cancel_fn"));
        return;
    }
    g = malloc(sizeof(*g));
    if (g == NULL) {
        fort_ierror(ierror, comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func));
        return;
    }
    *g = (struct fort_grequest){.query = query_fn,
                                .free_fn = free_fn,
                                .cancel = cancel_fn,
                                .extra_state = extra_state != NULL ? *extra_state : 0};
    rc = MPI_Grequest_start(fort_grequest_query, fort_grequest_free, fort_grequest_cancel, g,
                            request != NULL ? &made : NULL);
    if (rc == MPI_SUCCESS) {
        *request = MPI_Request_c2f(made);
    } else {
        free(g);
    }
    fort_ierror(ierror, rc);
}

/* ---- the predefined attribute callbacks ----------------------------------------------------- */

/* Null copy: the new object does not get the attribute. */
static void fort_null_copy(MPI_Fint *flag, MPI_Fint *ierror)
{
    *flag = 0;
    *ierror = MPI_SUCCESS;
}

/* Dup: the new object gets the same value. */
static void fort_dup(const MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    *out = *in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}

void mpi_comm_null_copy_fn_(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra_state,
                            MPI_Aint *attribute_val_in, MPI_Aint *attribute_val_out, MPI_Fint *flag,
                            MPI_Fint *ierror)
{
    fort_null_copy(flag, ierror);
}

void mpi_comm_dup_fn_(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra_state,
                      MPI_Aint *attribute_val_in, MPI_Aint *attribute_val_out, MPI_Fint *flag,
                      MPI_Fint *ierror)
{
    fort_dup(attribute_val_in, attribute_val_out, flag, ierror);
}

void mpi_comm_null_delete_fn_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *attribute_val,
                              MPI_Aint *extra_state, MPI_Fint *ierror)
{
    *ierror = MPI_SUCCESS;
}

/* The datatype's and the window's predefined callbacks do what the communicator's do. */
void mpi_type_null_copy_fn_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *,
                            MPI_Fint *) __attribute__((alias("mpi_comm_null_copy_fn_")));
void mpi_type_dup_fn_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *,
                      MPI_Fint *) __attribute__((alias("mpi_comm_dup_fn_")));
void mpi_type_null_delete_fn_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *)
    __attribute__((alias("mpi_comm_null_delete_fn_")));
void mpi_win_null_copy_fn_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *,
                           MPI_Fint *) __attribute__((alias("mpi_comm_null_copy_fn_")));
void mpi_win_dup_fn_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *,
                     MPI_Fint *) __attribute__((alias("mpi_comm_dup_fn_")));
void mpi_win_null_delete_fn_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *)
    __attribute__((alias("mpi_comm_null_delete_fn_")));

void mpi_null_copy_fn_(MPI_Fint *oldcomm, MPI_Fint *keyval, MPI_Fint *extra_state,
                       MPI_Fint *attribute_val_in, MPI_Fint *attribute_val_out, MPI_Fint *flag,
                       MPI_Fint *ierror)
{
    fort_null_copy(flag, ierror);
}

void mpi_dup_fn_(MPI_Fint *oldcomm, MPI_Fint *keyval, MPI_Fint *extra_state,
                 MPI_Fint *attribute_val_in, MPI_Fint *attribute_val_out, MPI_Fint *flag,
                 MPI_Fint *ierror)
{
    *attribute_val_out = *attribute_val_in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}

void mpi_null_delete_fn_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
                         MPI_Fint *extra_state, MPI_Fint *ierror)
{
    *ierror = MPI_SUCCESS;
}
