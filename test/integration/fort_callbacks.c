/*
 * fort_callbacks.c - integration test of the Fortran entry points that take procedures or
 * attribute values (fortran/fort_callbacks.c), called exactly as gfortran calls them: every
 * argument by reference, handles as Fortran integers, procedures written in C with the Fortran
 * convention.  A user op gets the Fortran index of its datatype; an error handler the Fortran
 * communicator, window or session and the code; attribute copy/delete procedures run through
 * MPI_Comm_dup/MPI_Comm_free, MPI_Type_dup/MPI_Type_free and MPI_Win_free with address-sized
 * values and LOGICAL flags (INTEGER values for MPI_KEYVAL_CREATE); the predefined Fortran
 * callbacks are recognised; a Fortran get of MPI_TAG_UB or of a window's attributes returns the
 * value; generalized-request procedures get the Fortran extra state and status; an absent
 * IERROR (NULL) is accepted.
 *
 *   fort_callbacks     (any number of ranks)
 *
 * Prints "fort_callbacks R: ok" per rank, or "FAIL: fort_callbacks rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdint.h>
#include <stdlib.h>

static const char *prog = "fort_callbacks";
static int rank;

#include "p2p_check.h"

/* ---- the entry points, as a Fortran program sees them ------------------------------------- */

typedef void user_fn(void *, void *, MPI_Fint *, MPI_Fint *);
typedef void eh_fn(MPI_Fint *, MPI_Fint *);
typedef void copy_fn(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *,
                     MPI_Fint *);
typedef void delete_fn(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
typedef void copy1_fn(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                      MPI_Fint *);
typedef void delete1_fn(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void query_fn(MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void gfree_fn(MPI_Aint *, MPI_Fint *);
typedef void cancel_fn(MPI_Aint *, MPI_Fint *, MPI_Fint *);

void mpi_op_create_(user_fn *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void mpi_comm_create_errhandler_(eh_fn *, MPI_Fint *, MPI_Fint *);
void mpi_errhandler_create_(eh_fn *, MPI_Fint *, MPI_Fint *);
void mpi_win_create_errhandler_(eh_fn *, MPI_Fint *, MPI_Fint *);
void mpi_session_create_errhandler_(eh_fn *, MPI_Fint *, MPI_Fint *);
void mpi_comm_create_keyval_(copy_fn *, delete_fn *, MPI_Fint *, MPI_Aint *, MPI_Fint *);
void mpi_type_create_keyval_(copy_fn *, delete_fn *, MPI_Fint *, MPI_Aint *, MPI_Fint *);
void mpi_win_create_keyval_(copy_fn *, delete_fn *, MPI_Fint *, MPI_Aint *, MPI_Fint *);
void mpi_keyval_create_(copy1_fn *, delete1_fn *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void mpi_comm_set_attr_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Fint *);
void mpi_comm_get_attr_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
void mpi_type_set_attr_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Fint *);
void mpi_type_get_attr_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
void mpi_win_set_attr_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Fint *);
void mpi_win_get_attr_(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
void mpi_attr_put_(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void mpi_attr_get_(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
void mpi_grequest_start_(query_fn *, gfree_fn *, cancel_fn *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
extern copy_fn mpi_comm_null_copy_fn_, mpi_comm_dup_fn_, mpi_type_dup_fn_;
extern copy_fn mpi_win_null_copy_fn_;
extern delete_fn mpi_comm_null_delete_fn_, mpi_type_null_delete_fn_;
extern copy1_fn mpi_null_copy_fn_, mpi_dup_fn_;
extern delete1_fn mpi_null_delete_fn_;

/* ---- procedures with the Fortran convention ------------------------------------------------ */

static MPI_Fint seen_type = -1;
static int op_calls;

/* SUM on INTEGER, recording the datatype index it got. */
static void f_sum(void *invec, void *inoutvec, MPI_Fint *len, MPI_Fint *datatype)
{
    const MPI_Fint *in = invec;
    MPI_Fint *io = inoutvec;

    seen_type = *datatype;
    op_calls++;
    for (MPI_Fint i = 0; i < *len; i++) {
        io[i] += in[i];
    }
}

static MPI_Fint eh_handle = -1, eh_code = -1;
static int eh_calls;

static void f_errhandler(MPI_Fint *comm_or_win, MPI_Fint *errcode)
{
    eh_handle = *comm_or_win;
    eh_code = *errcode;
    eh_calls++;
}

/* The last call of the attribute procedures. */
static struct {
    int copies, deletes;
    MPI_Fint obj, keyval;
    MPI_Aint extra, value;
} seen;

/* Copies value + 1, or refuses (flag .false.) a value of 1000. */
static void f_copy(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Aint *in,
                   MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    seen.copies++;
    seen.obj = *oldobj;
    seen.keyval = *keyval;
    seen.extra = *extra_state;
    seen.value = *in;
    *out = *in + 1;
    *flag = *in != 1000;
    *ierror = MPI_SUCCESS;
}

static void f_delete(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *value, MPI_Aint *extra_state,
                     MPI_Fint *ierror)
{
    seen.deletes++;
    seen.obj = *obj;
    seen.keyval = *keyval;
    seen.extra = *extra_state;
    seen.value = *value;
    *ierror = MPI_SUCCESS;
}

static void f_copy1(MPI_Fint *oldcomm, MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *in,
                    MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    seen.copies++;
    seen.obj = *oldcomm;
    seen.keyval = *keyval;
    seen.extra = *extra_state;
    seen.value = *in;
    *out = *in * 2;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}

static void f_delete1(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *value, MPI_Fint *extra_state,
                      MPI_Fint *ierror)
{
    seen.deletes++;
    seen.obj = *comm;
    seen.keyval = *keyval;
    seen.extra = *extra_state;
    seen.value = *value;
    *ierror = MPI_SUCCESS;
}

static struct {
    int queries, frees, cancels;
    MPI_Aint extra;
    MPI_Fint complete;
} greq;

static void f_query(MPI_Aint *extra_state, MPI_Fint *status, MPI_Fint *ierror)
{
    greq.queries++;
    greq.extra = *extra_state;
    status[0] = 5;  /* MPI_SOURCE */
    status[1] = 99; /* MPI_TAG */
    status[2] = MPI_SUCCESS;
    *ierror = MPI_SUCCESS;
}

static void f_free(MPI_Aint *extra_state, MPI_Fint *ierror)
{
    greq.frees++;
    greq.extra = *extra_state;
    *ierror = MPI_SUCCESS;
}

static void f_cancel(MPI_Aint *extra_state, MPI_Fint *complete, MPI_Fint *ierror)
{
    greq.cancels++;
    greq.extra = *extra_state;
    greq.complete = *complete;
    *ierror = MPI_SUCCESS;
}

/* ---- the checks ------------------------------------------------------------------------------ */

static void check_op(int nprocs)
{
    MPI_Fint fop = -1, commute = 1, ierr = -1;
    MPI_Fint in[3] = {rank, 1, -rank}, out[3] = {0};
    MPI_Datatype pair;
    MPI_Op op;

    mpi_op_create_(f_sum, &commute, &fop, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    op = MPI_Op_f2c(fop);
    CHECK(op != MPI_OP_NULL);
    CHECK_MPI(MPI_Allreduce(in, out, 3, MPI_INTEGER, op, MPI_COMM_WORLD));
    CHECK(out[0] == nprocs * (nprocs - 1) / 2 && out[1] == nprocs && out[2] == -out[0]);
    /* Which ranks reduce depends on the algorithm: MPI_Reduce_local calls it here. */
    op_calls = 0;
    CHECK_MPI(MPI_Reduce_local(in, out, 3, MPI_INTEGER, op));
    CHECK(op_calls == 1 && seen_type == MPI_Type_c2f(MPI_INTEGER) && seen_type != 0);
    CHECK(out[0] == nprocs * (nprocs - 1) / 2 + rank && out[1] == nprocs + 1);
    /* A derived type: the procedure gets its Fortran index. */
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INTEGER, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    op_calls = 0;
    CHECK_MPI(MPI_Reduce_local(in, out, 1, pair, op));
    CHECK(op_calls == 1 && seen_type == MPI_Type_c2f(pair) && seen_type != 0);
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Op_free(&op));
    /* No IERROR (mpi_f08's absent optional argument). */
    mpi_op_create_(f_sum, &commute, &fop, NULL);
    op = MPI_Op_f2c(fop);
    CHECK(op != MPI_OP_NULL);
    CHECK_MPI(MPI_Op_free(&op));
}

static void check_errhandlers(void)
{
    MPI_Fint feh = -1, ierr = -1;
    MPI_Errhandler eh;
    MPI_Win win;
    int buf[4], rc;

    mpi_comm_create_errhandler_(f_errhandler, &feh, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    eh = MPI_Errhandler_f2c(feh);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
    CHECK(eh_calls == 1 && eh_handle == MPI_Comm_c2f(MPI_COMM_WORLD) && eh_code == MPI_ERR_OTHER);
    /* An error of the library itself. */
    rc = MPI_Send(buf, 1, MPI_INT, 1 << 20, 0, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS && eh_calls == 2 && eh_code == rc);
    CHECK(eh_handle == MPI_Comm_c2f(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* MPI-1 MPI_ERRHANDLER_CREATE, no IERROR. */
    mpi_errhandler_create_(f_errhandler, &feh, NULL);
    eh = MPI_Errhandler_f2c(feh);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_TAG));
    CHECK(eh_calls == 3 && eh_handle == MPI_Comm_c2f(MPI_COMM_SELF) && eh_code == MPI_ERR_TAG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* A window's: gets the window's Fortran index; refused on a communicator. */
    mpi_win_create_errhandler_(f_errhandler, &feh, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    eh = MPI_Errhandler_f2c(feh);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh), MPI_ERR_ARG);
    CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_WIN));
    CHECK(eh_calls == 4 && eh_handle == MPI_Win_c2f(win) && eh_code == MPI_ERR_WIN);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    {
        MPI_Fint fwin = MPI_Win_c2f(win), flag = -1, key, kv = -1;
        MPI_Aint value = 0, extra = 31;

        key = MPI_WIN_BASE;
        mpi_win_get_attr_(&fwin, &key, &value, &flag, &ierr);
        CHECK(ierr == MPI_SUCCESS && flag == 1 && value == (MPI_Aint)(intptr_t)buf);
        key = MPI_WIN_SIZE;
        mpi_win_get_attr_(&fwin, &key, &value, &flag, &ierr);
        CHECK(ierr == MPI_SUCCESS && flag == 1 && value == (MPI_Aint)sizeof(buf));
        key = MPI_WIN_DISP_UNIT;
        mpi_win_get_attr_(&fwin, &key, &value, &flag, NULL);
        CHECK(flag == 1 && value == (MPI_Aint)sizeof(int));
        /* A window keyval: its delete procedure runs at MPI_Win_free. */
        mpi_win_create_keyval_(mpi_win_null_copy_fn_, f_delete, &kv, &extra, &ierr);
        CHECK(ierr == MPI_SUCCESS);
        value = 64;
        mpi_win_set_attr_(&fwin, &kv, &value, &ierr);
        CHECK(ierr == MPI_SUCCESS);
        mpi_win_get_attr_(&fwin, &kv, &value, &flag, &ierr);
        CHECK(ierr == MPI_SUCCESS && flag == 1 && value == 64);
        seen.deletes = 0;
        CHECK_MPI(MPI_Win_free(&win));
        CHECK(seen.deletes == 1 && seen.obj == fwin && seen.keyval == kv && seen.extra == 31);
        CHECK(seen.value == 64);
    }

    /* A session's: gets the session's Fortran index. */
    {
        MPI_Session session;

        mpi_session_create_errhandler_(f_errhandler, &feh, &ierr);
        CHECK(ierr == MPI_SUCCESS);
        eh = MPI_Errhandler_f2c(feh);
        EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh), MPI_ERR_ARG);
        CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, eh, &session));
        CHECK_MPI(MPI_Session_call_errhandler(session, MPI_ERR_SESSION));
        CHECK(eh_calls == 5 && eh_handle == MPI_Session_c2f(session) && eh_code == MPI_ERR_SESSION);
        CHECK(eh_handle != 0);
        CHECK_MPI(MPI_Session_finalize(&session));
        CHECK_MPI(MPI_Errhandler_free(&eh));
    }
}

static void check_comm_attrs(void)
{
    MPI_Fint world = MPI_Comm_c2f(MPI_COMM_WORLD), kv = -1, kv_dup, kv_null, kv1, ierr = -1;
    MPI_Fint flag = -1, fdup, key, ivalue;
    MPI_Aint extra = 1234, value = 42, got = 0;
    MPI_Comm dup;
    void *cvalue;
    int cflag, *tag_ub;

    /* MPI_TAG_UB from the Fortran side: the value, not the address. */
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &cflag));
    CHECK(cflag);
    key = MPI_TAG_UB;
    mpi_comm_get_attr_(&world, &key, &got, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 1 && got == *tag_ub && got >= 32767);
    mpi_attr_get_(&world, &key, &ivalue, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 1 && ivalue == *tag_ub);

    /* The program's procedures through MPI_Comm_dup and MPI_Comm_free. */
    mpi_comm_create_keyval_(f_copy, f_delete, &kv, &extra, &ierr);
    CHECK(ierr == MPI_SUCCESS && kv != MPI_KEYVAL_INVALID);
    mpi_comm_set_attr_(&world, &kv, &value, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &cvalue, &cflag));
    CHECK(cflag && cvalue == (void *)(intptr_t)42); /* a Fortran set stores the value */
    /* The predefined procedures: copied as is, and not copied. */
    mpi_comm_create_keyval_(mpi_comm_dup_fn_, mpi_comm_null_delete_fn_, &kv_dup, &extra, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    mpi_comm_create_keyval_(mpi_comm_null_copy_fn_, mpi_comm_null_delete_fn_, &kv_null, &extra,
                            NULL);
    value = -7;
    mpi_comm_set_attr_(&world, &kv_dup, &value, &ierr);
    mpi_comm_set_attr_(&world, &kv_null, &value, NULL);
    /* MPI-1: INTEGER values, negative ones too. */
    ivalue = 77;
    mpi_keyval_create_(f_copy1, f_delete1, &kv1, &ivalue, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    ivalue = -5;
    mpi_attr_put_(&world, &kv1, &ivalue, &ierr);
    CHECK(ierr == MPI_SUCCESS);

    seen.copies = 0;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(seen.copies == 2); /* f_copy then f_copy1, in the order of setting */
    CHECK(seen.obj == world && seen.keyval == kv1 && seen.extra == 77 && seen.value == -5);
    fdup = MPI_Comm_c2f(dup);
    mpi_comm_get_attr_(&fdup, &kv, &got, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 1 && got == 43);
    mpi_comm_get_attr_(&fdup, &kv_dup, &got, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 1 && got == -7);
    mpi_comm_get_attr_(&fdup, &kv_null, &got, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 0);
    mpi_attr_get_(&fdup, &kv1, &ivalue, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 1 && ivalue == -10);

    seen.deletes = 0;
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(seen.deletes == 2);
    /* Deleted last set first: f_delete1 ran, then f_delete. */
    CHECK(seen.obj == fdup && seen.keyval == kv && seen.extra == 1234 && seen.value == 43);

    /* A copy procedure that answers .false.: the attribute is not copied. */
    value = 1000;
    mpi_comm_set_attr_(&world, &kv, &value, &ierr); /* f_delete runs for the old value */
    CHECK(ierr == MPI_SUCCESS && seen.deletes == 3 && seen.value == 42 && seen.obj == world);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    fdup = MPI_Comm_c2f(dup);
    mpi_comm_get_attr_(&fdup, &kv, &got, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 0);
    CHECK_MPI(MPI_Comm_free(&dup));

    /* An error: a keyval that names nothing, returned in IERROR. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    key = 0x7fff0000;
    mpi_comm_get_attr_(&world, &key, &got, &flag, &ierr);
    EXPECT(ierr, MPI_ERR_KEYVAL);

    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv1));
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv_dup));
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv_null));
}

static void check_type_attrs(void)
{
    MPI_Fint kv = -1, ierr = -1, flag = -1, ftype, fdup;
    MPI_Aint extra = 5, value = 11, got = 0;
    MPI_Datatype type, dup;

    CHECK_MPI(MPI_Type_contiguous(2, MPI_INTEGER, &type));
    ftype = MPI_Type_c2f(type);
    mpi_type_create_keyval_(f_copy, f_delete, &kv, &extra, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    mpi_type_set_attr_(&ftype, &kv, &value, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    seen.copies = 0;
    CHECK_MPI(MPI_Type_dup(type, &dup));
    CHECK(seen.copies == 1 && seen.obj == ftype && seen.extra == 5 && seen.value == 11);
    fdup = MPI_Type_c2f(dup);
    mpi_type_get_attr_(&fdup, &kv, &got, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 1 && got == 12);
    seen.deletes = 0;
    CHECK_MPI(MPI_Type_free(&dup));
    CHECK(seen.deletes == 1 && seen.obj == fdup && seen.value == 12);
    CHECK_MPI(MPI_Type_free(&type));
    CHECK(seen.deletes == 2 && seen.obj == ftype && seen.value == 11);
    /* MPI_TYPE_DUP_FN from Fortran: the value itself. */
    mpi_type_create_keyval_(mpi_type_dup_fn_, mpi_type_null_delete_fn_, &kv, &extra, &ierr);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INTEGER, &type));
    ftype = MPI_Type_c2f(type);
    mpi_type_set_attr_(&ftype, &kv, &value, &ierr);
    CHECK_MPI(MPI_Type_dup(type, &dup));
    fdup = MPI_Type_c2f(dup);
    mpi_type_get_attr_(&fdup, &kv, &got, &flag, &ierr);
    CHECK(ierr == MPI_SUCCESS && flag == 1 && got == 11);
    CHECK_MPI(MPI_Type_free(&dup));
    CHECK_MPI(MPI_Type_free(&type));
}

static void check_predefined_procedures(void)
{
    MPI_Fint obj = 0, kv = 0, flag = -1, ierr = -1, i_in = -3, i_out = 0, i_extra = 0;
    MPI_Aint extra = 0, in = 9, out = 0;

    mpi_comm_dup_fn_(&obj, &kv, &extra, &in, &out, &flag, &ierr);
    CHECK(out == 9 && flag == 1 && ierr == MPI_SUCCESS);
    ierr = -1;
    mpi_comm_null_copy_fn_(&obj, &kv, &extra, &in, &out, &flag, &ierr);
    CHECK(flag == 0 && ierr == MPI_SUCCESS);
    mpi_dup_fn_(&obj, &kv, &i_extra, &i_in, &i_out, &flag, &ierr);
    CHECK(i_out == -3 && flag == 1);
    mpi_null_copy_fn_(&obj, &kv, &i_extra, &i_in, &i_out, &flag, &ierr);
    CHECK(flag == 0);
    ierr = -1;
    mpi_null_delete_fn_(&obj, &kv, &i_in, &i_extra, &ierr);
    CHECK(ierr == MPI_SUCCESS);
}

static void check_grequests(void)
{
    MPI_Fint freq = -1, ierr = -1;
    MPI_Aint extra = 77;
    MPI_Request req;
    MPI_Status status;
    int cancelled = -1;

    mpi_grequest_start_(f_query, f_free, f_cancel, &extra, &freq, &ierr);
    CHECK(ierr == MPI_SUCCESS);
    req = MPI_Request_f2c(freq);
    CHECK(req != MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Grequest_complete(req));
    CHECK_MPI(MPI_Wait(&req, &status));
    CHECK(greq.queries == 1 && greq.frees == 1 && greq.extra == 77);
    CHECK(status.MPI_SOURCE == 5 && status.MPI_TAG == 99 && req == MPI_REQUEST_NULL);

    /* Cancel before completion: .false. for "complete". */
    extra = 78;
    mpi_grequest_start_(f_query, f_free, f_cancel, &extra, &freq, NULL);
    req = MPI_Request_f2c(freq);
    CHECK_MPI(MPI_Cancel(&req));
    CHECK(greq.cancels == 1 && greq.complete == 0 && greq.extra == 78);
    CHECK_MPI(MPI_Grequest_complete(req));
    CHECK_MPI(MPI_Wait(&req, &status));
    CHECK(greq.queries == 2 && greq.frees == 2);
    CHECK_MPI(MPI_Test_cancelled(&status, &cancelled));
    CHECK(cancelled == 0); /* f_query did not say so */
}

int main(int argc, char **argv)
{
    int nprocs;

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));
    check_op(nprocs);
    check_errhandlers();
    check_comm_attrs();
    check_type_attrs();
    check_predefined_procedures();
    check_grequests();
    CHECK_MPI(MPI_Finalize());
    printf("%s %d: ok\n", prog, rank);
    return 0;
}
