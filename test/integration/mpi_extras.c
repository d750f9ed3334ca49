/*
 * mpi_extras.c - integration test of the smaller chapters of MPI 3.1: the tools interface
 * before MPI_Init, datatype names and attributes, user error classes and codes through every
 * kind of error handler, Fortran handles and statuses, generalized requests under Wait, Test,
 * Waitall, Request_free and Cancel, external32 packing, MPI_Type_match_size and the f90 types,
 * the deprecated MPI-1 functions, logical and bitwise reductions on MPI_AINT, MPI_OFFSET and
 * MPI_COUNT, MPI_Comm_disconnect, and the error classes of the dynamic-process functions.
 *
 *   mpi_extras          (any number of ranks)
 *   mpi_extras loud     sets COMM_LOG_LEVEL to info through MPI_T before MPI_Init, then only
 *                       starts and ends: the log shows the setting took effect
 *   mpi_extras fatal    raises an error code of its own through MPI_ERRORS_ARE_FATAL on rank 0:
 *                       the job ends with the code as its status and the code's string
 *
 * Prints "mpi_extras R: ok" per rank, or "FAIL: mpi_extras rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "mpi_extras";
static int rank;

#include "p2p_check.h"

static int nprocs;

/* ---- the tools interface, before MPI_Init ------------------------------------------------ */

static void check_tools(void)
{
    int provided, n, index, count, verbosity, binding, scope, name_len, desc_len, ncat;
    int ncvars, npvars, nsub, value, stamp;
    char name[256], desc[512], buf[2048];
    MPI_Datatype type;
    MPI_T_enum en;
    MPI_T_cvar_handle h;
    MPI_T_pvar_session session;
    MPI_T_pvar_handle ph = MPI_T_PVAR_HANDLE_NULL;

    CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_MPI(MPI_T_cvar_get_num(&n));
    CHECK(n > 10);

    /* COMM_LOG_LEVEL: a string, read-only, with its current value (the default here). */
    CHECK_MPI(MPI_T_cvar_get_index("COMM_LOG_LEVEL", &index));
    name_len = sizeof(name);
    desc_len = sizeof(desc);
    CHECK_MPI(MPI_T_cvar_get_info(index, name, &name_len, &verbosity, &type, &en, desc, &desc_len,
                                  &binding, &scope));
    CHECK(strcmp(name, "COMM_LOG_LEVEL") == 0 && name_len == (int)strlen(name) + 1);
    CHECK(desc_len > 1 && type == MPI_CHAR && binding == MPI_T_BIND_NO_OBJECT);
    CHECK(scope == MPI_T_SCOPE_LOCAL && en == MPI_T_ENUM_NULL);
    CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
    CHECK(count >= 1024 && count <= (int)sizeof(buf));
    CHECK_MPI(MPI_T_cvar_read(h, buf));
    CHECK(strlen(buf) < (size_t)count);
    /* Written before MPI_Init, the value takes the environment's place (checked after init). */
    CHECK(MPI_T_cvar_write(h, "loud") == MPI_T_ERR_INVALID);
    CHECK_MPI(MPI_T_cvar_write(h, "error"));
    CHECK_MPI(MPI_T_cvar_read(h, buf));
    CHECK(strcmp(buf, "error") == 0);
    CHECK_MPI(MPI_T_cvar_handle_free(&h));
    CHECK(h == MPI_T_CVAR_HANDLE_NULL);
    CHECK(MPI_T_cvar_read(h, buf) == MPI_T_ERR_INVALID_HANDLE);

    /* An integer: COMM_WORLD_SIZE is set by comm-run (absent in a singleton: its default). */
    CHECK_MPI(MPI_T_cvar_get_index("COMM_WORLD_SIZE", &index));
    CHECK_MPI(MPI_T_cvar_get_info(index, NULL, NULL, NULL, &type, NULL, NULL, NULL, NULL, NULL));
    CHECK(type == MPI_INT);
    CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
    CHECK(count == 1);
    CHECK_MPI(MPI_T_cvar_read(h, &value));
    CHECK(value == 0 || value >= 1);
    CHECK(MPI_T_cvar_write(h, &value) == MPI_T_ERR_CVAR_SET_NEVER); /* comm-run's to set */
    CHECK_MPI(MPI_T_cvar_handle_free(&h));
    CHECK_MPI(MPI_T_cvar_get_index("COMM_SHM_EAGER_LIMIT", &index));
    CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
    value = -5;
    CHECK(MPI_T_cvar_write(h, &value) == MPI_T_ERR_INVALID);
    CHECK_MPI(MPI_T_cvar_handle_free(&h));

    CHECK(MPI_T_cvar_get_index("COMM_NO_SUCH_SETTING", &index) == MPI_T_ERR_INVALID_NAME);
    CHECK(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
          MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_cvar_handle_alloc(-1, NULL, &h, &count) == MPI_T_ERR_INVALID_INDEX);

    /* Categories: one per component, their variables adding up to all of them. */
    CHECK_MPI(MPI_T_category_get_num(&ncat));
    CHECK(ncat > 3);
    count = 0;
    int seen[256] = {0};
    CHECK(n <= 256);
    for (int c = 0; c < ncat; c++) {
        int idx[64], back;

        name_len = sizeof(name);
        CHECK_MPI(MPI_T_category_get_info(c, name, &name_len, NULL, NULL, &ncvars, &npvars, &nsub));
        CHECK(npvars == 0 && nsub == 0 && ncvars >= 0 && ncvars <= 64);
        CHECK_MPI(MPI_T_category_get_index(name, &back));
        CHECK(back == c);
        CHECK_MPI(MPI_T_category_get_cvars(c, ncvars, idx));
        for (int i = 0; i < ncvars; i++) {
            CHECK(idx[i] >= 0 && idx[i] < n && seen[idx[i]]++ == 0);
        }
        count += ncvars;
    }
    CHECK(count == n);
    CHECK(MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
          MPI_T_ERR_INVALID_INDEX);
    CHECK_MPI(MPI_T_category_changed(&stamp));

    /* No performance variables. */
    CHECK_MPI(MPI_T_pvar_get_num(&n));
    CHECK(n == 0);
    CHECK(MPI_T_pvar_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                              NULL) == MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_pvar_get_index("x", MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_T_ERR_INVALID_NAME);
    CHECK_MPI(MPI_T_pvar_session_create(&session));
    CHECK(MPI_T_pvar_handle_alloc(session, 0, NULL, &ph, &count) == MPI_T_ERR_INVALID_INDEX);
    CHECK(MPI_T_pvar_read(session, ph, buf) == MPI_T_ERR_INVALID_HANDLE);
    CHECK_MPI(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES));
    CHECK(MPI_T_pvar_start(MPI_T_PVAR_SESSION_NULL, ph) == MPI_T_ERR_INVALID_SESSION);
    CHECK_MPI(MPI_T_pvar_session_free(&session));
    CHECK(session == MPI_T_PVAR_SESSION_NULL);
    CHECK(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE);
    CHECK_MPI(MPI_T_finalize());
    CHECK(MPI_T_pvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
}

/* After MPI_Init the settings were read: the value written before stays, and no more writes. */
static void check_tools_after_init(void)
{
    int provided, index, count;
    char buf[2048];
    MPI_T_cvar_handle h;

    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_MPI(MPI_T_cvar_get_index("COMM_LOG_LEVEL", &index));
    CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
    CHECK(count <= (int)sizeof(buf));
    CHECK_MPI(MPI_T_cvar_read(h, buf));
    CHECK(strcmp(buf, "error") == 0);
    CHECK(MPI_T_cvar_write(h, "warn") == MPI_T_ERR_CVAR_SET_NEVER);
    CHECK_MPI(MPI_T_cvar_handle_free(&h));
    CHECK_MPI(MPI_T_finalize());
}

/* ---- datatype names and attributes ------------------------------------------------------- */

static int copies, deletes;

static int copy_attr(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)type, (void)keyval;
    CHECK(extra == &copies);
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_attr(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type, (void)keyval, (void)value, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static int failing_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type, (void)keyval, (void)value, (void)extra;
    return MPI_ERR_OTHER;
}

static void check_type_names_and_attrs(void)
{
    char name[MPI_MAX_OBJECT_NAME], base[8];
    int len, key, key2, flag, comm_key;
    void *value;
    MPI_Datatype vec, dup;

    CHECK_MPI(MPI_Type_get_name(MPI_INT, name, &len));
    CHECK(strcmp(name, "MPI_INT") == 0 && len == 7);
    CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE_INT, name, &len));
    CHECK(strcmp(name, "MPI_DOUBLE_INT") == 0);
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_get_name(vec, name, &len));
    CHECK(len == 0 && name[0] == '\0');
    CHECK_MPI(MPI_Type_set_name(vec, "two ints apart"));
    CHECK_MPI(MPI_Type_get_name(vec, name, &len));
    CHECK(strcmp(name, "two ints apart") == 0 && len == 14);

    CHECK_MPI(MPI_Type_create_keyval(copy_attr, delete_attr, &key, &copies));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key2, NULL));
    CHECK_MPI(MPI_Type_get_attr(vec, key, &value, &flag));
    CHECK(flag == 0);
    CHECK_MPI(MPI_Type_set_attr(vec, key, &base[0]));
    CHECK_MPI(MPI_Type_set_attr(vec, key2, &base[5]));
    CHECK_MPI(MPI_Type_set_attr(vec, key, &base[2])); /* replaces: the old value is deleted */
    CHECK(deletes == 1);
    CHECK_MPI(MPI_Type_get_attr(vec, key, &value, &flag));
    CHECK(flag == 1 && value == &base[2]);

    CHECK_MPI(MPI_Type_dup(vec, &dup)); /* key is copied (+1), key2 is not */
    CHECK(copies == 1);
    CHECK_MPI(MPI_Type_get_attr(dup, key, &value, &flag));
    CHECK(flag == 1 && value == &base[3]);
    CHECK_MPI(MPI_Type_get_attr(dup, key2, &value, &flag));
    CHECK(flag == 0);
    CHECK_MPI(MPI_Type_delete_attr(dup, key));
    CHECK(deletes == 2);
    CHECK_MPI(MPI_Type_free(&vec)); /* key's attribute goes with the type */
    CHECK(deletes == 3);
    /* Attributes on predefined types work too. */
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, key2, &base[1]));
    CHECK_MPI(MPI_Type_get_attr(MPI_INT, key2, &value, &flag));
    CHECK(flag == 1 && value == &base[1]);
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, key2));

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT(MPI_Type_delete_attr(dup, key), MPI_ERR_KEYVAL); /* nothing set */
    CHECK_MPI(
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_key, NULL));
    EXPECT(MPI_Type_set_attr(dup, comm_key, base), MPI_ERR_KEYVAL); /* a communicator's keyval */
    EXPECT(MPI_Comm_set_attr(MPI_COMM_WORLD, key, base), MPI_ERR_KEYVAL);
    EXPECT(MPI_Type_set_name(MPI_DATATYPE_NULL, "x"), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_attr(dup, key, NULL, &flag), MPI_ERR_ARG);
    CHECK_MPI(MPI_Type_set_attr(dup, key2, base));
    CHECK_MPI(MPI_Type_free_keyval(&key2));
    CHECK(key2 == MPI_KEYVAL_INVALID);
    CHECK_MPI(MPI_Type_free(&dup));

    /* A delete callback that fails keeps the type alive and reports its error. */
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, failing_delete, &key2, NULL));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_set_attr(vec, key2, base));
    CHECK_MPI(MPI_Type_dup(vec, &dup));
    CHECK_MPI(MPI_Type_get_attr(dup, key2, &value, &flag));
    CHECK(flag == 1 && value == base); /* MPI_TYPE_DUP_FN copies the value */
    EXPECT(MPI_Type_free(&vec), MPI_ERR_OTHER);
    CHECK(vec != MPI_DATATYPE_NULL);
    CHECK_MPI(MPI_Type_free_keyval(&key));
    CHECK_MPI(MPI_Comm_free_keyval(&comm_key));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* ---- user error classes, codes and strings ----------------------------------------------- */

static int handler_calls, handler_code;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

static void check_errors(void)
{
    int cls, cls2, code, last, *lastp, flag, got, len;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Errhandler eh;

    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp, &flag));
    CHECK(flag == 1 && *lastp >= MPI_ERR_LASTCODE);
    last = *lastp;
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK(cls > last);
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK(code > cls);
    CHECK_MPI(MPI_Add_error_class(&cls2));
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp, &flag));
    CHECK(*lastp == cls2 && cls2 > code);
    CHECK_MPI(MPI_Error_class(code, &got));
    CHECK(got == cls);
    CHECK_MPI(MPI_Error_class(cls2, &got));
    CHECK(got == cls2);
    CHECK_MPI(MPI_Error_string(code, text, &len));
    CHECK(len == 0 && text[0] == '\0');
    CHECK_MPI(MPI_Add_error_string(code, "the widget is out of sprockets"));
    CHECK_MPI(MPI_Add_error_string(cls, "widget trouble"));
    CHECK_MPI(MPI_Error_string(code, text, &len));
    CHECK(strcmp(text, "the widget is out of sprockets") == 0 && len == 30);
    CHECK_MPI(MPI_Error_string(cls, text, &len));
    CHECK(strcmp(text, "widget trouble") == 0);
    /* A predefined class is also a class new codes may join. */
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &code));
    CHECK_MPI(MPI_Error_class(code, &got));
    CHECK(got == MPI_ERR_ARG);

    /* Through MPI_ERRORS_RETURN and a user handler. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, cls2) == MPI_SUCCESS);
    EXPECT(MPI_Add_error_code(cls2 + 1000, &code), MPI_ERR_ARG);
    EXPECT(MPI_Add_error_string(MPI_ERR_TYPE, "no"), MPI_ERR_ARG);
    EXPECT(MPI_Add_error_class(NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_create_errhandler(count_errors, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, cls2));
    CHECK(handler_calls == 1 && handler_code == cls2);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    /* The deprecated forms of the handler calls. */
    CHECK_MPI(MPI_Errhandler_create(count_errors, &eh));
    CHECK_MPI(MPI_Errhandler_set(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Errhandler_get(MPI_COMM_WORLD, &eh));
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS);
    CHECK(handler_calls == 2);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* ---- Fortran handles ------------------------------------------------------------------- */

static void no_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

static void check_handles(void)
{
    MPI_Comm dup;
    MPI_Group group;
    MPI_Datatype vec;
    MPI_Op op;
    MPI_Info info;
    MPI_Request req;
    MPI_Status st, back;
    MPI_Fint f, f2, fst[MPI_F_STATUS_SIZE];

    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL);
    CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE);
    CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM);
    CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY);
    CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN);
    CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC);
    CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);
    CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL);
    CHECK(MPI_Comm_f2c(-7) == MPI_COMM_NULL && MPI_Comm_f2c(123456789) == MPI_COMM_NULL);
    CHECK(MPI_Type_f2c(99999) == MPI_DATATYPE_NULL);

    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    f = MPI_Comm_c2f(dup);
    CHECK(f != MPI_Comm_c2f(MPI_COMM_WORLD) && f == MPI_Comm_c2f(dup));
    CHECK(MPI_Comm_f2c(f) == dup);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(MPI_Comm_f2c(f) == MPI_COMM_NULL); /* released with the object */

    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &group));
    CHECK(MPI_Group_f2c(MPI_Group_c2f(group)) == group);
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
    f = MPI_Type_c2f(vec);
    CHECK(MPI_Type_f2c(f) == vec);
    CHECK_MPI(MPI_Op_create(no_op, 1, &op));
    f2 = MPI_Op_c2f(op);
    CHECK(MPI_Op_f2c(f2) == op);
    CHECK_MPI(MPI_Info_create(&info));
    CHECK(MPI_Info_f2c(MPI_Info_c2f(info)) == info);
    CHECK_MPI(MPI_Irecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
    CHECK(MPI_Request_f2c(MPI_Request_c2f(req)) == req);
    f2 = MPI_Request_c2f(req);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(MPI_Request_f2c(f2) == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK(MPI_Type_f2c(f) == MPI_DATATYPE_NULL);
    CHECK_MPI(MPI_Group_free(&group));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Info_free(&info));

    st.MPI_SOURCE = 3;
    st.MPI_TAG = 17;
    st.MPI_ERROR = MPI_ERR_TRUNCATE;
    CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 5));
    CHECK_MPI(MPI_Status_c2f(&st, fst));
    CHECK_MPI(MPI_Status_f2c(fst, &back));
    CHECK(back.MPI_SOURCE == 3 && back.MPI_TAG == 17 && back.MPI_ERROR == MPI_ERR_TRUNCATE);
    {
        int n;

        CHECK_MPI(MPI_Get_count(&back, MPI_INT, &n));
        CHECK(n == 5);
    }
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT(MPI_Status_c2f(MPI_STATUS_IGNORE, fst), MPI_ERR_ARG);

    /* MPI_INFO_ENV: there, empty in comm, predefined. */
    {
        MPI_Info env = MPI_INFO_ENV, copy;
        int nkeys = -1;

        CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_ENV)) == MPI_INFO_ENV);
        CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys));
        CHECK(nkeys == 0);
        CHECK_MPI(MPI_Info_dup(MPI_INFO_ENV, &copy));
        CHECK_MPI(MPI_Info_free(&copy));
        EXPECT(MPI_Info_free(&env), MPI_ERR_INFO);
        CHECK(env == MPI_INFO_ENV);
    }
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* ---- generalized requests ---------------------------------------------------------------- */

struct greq {
    int queries, frees, cancels, cancel_complete;
    int query_rc;
};

static int greq_query(void *extra, MPI_Status *status)
{
    struct greq *g = extra;

    g->queries++;
    status->MPI_SOURCE = 42;
    status->MPI_TAG = 7;
    MPI_Status_set_elements(status, MPI_BYTE, 12);
    MPI_Status_set_cancelled(status, g->cancels > 0);
    return g->query_rc;
}

static int greq_free(void *extra)
{
    ((struct greq *)extra)->frees++;
    return MPI_SUCCESS;
}

static int greq_cancel(void *extra, int complete)
{
    struct greq *g = extra;

    g->cancels++;
    g->cancel_complete = complete;
    return MPI_SUCCESS;
}

static void check_grequests(void)
{
    struct greq g = {0}, g2 = {0}, g3 = {0};
    MPI_Request req, reqs[2];
    MPI_Status st, sts[2];
    int flag, n, peer_value = -1, value = rank;

    CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g, &req));
    CHECK_MPI(MPI_Test(&req, &flag, &st));
    CHECK(flag == 0 && g.queries == 0 && req != MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Grequest_complete(req));
    CHECK_MPI(MPI_Request_get_status(req, &flag, &st));
    CHECK(flag == 1 && g.queries == 1 && g.frees == 0 && st.MPI_SOURCE == 42);
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL && g.queries == 2 && g.frees == 1);
    CHECK(st.MPI_SOURCE == 42 && st.MPI_TAG == 7);
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    CHECK(n == 12);

    /* Cancel, then complete: the cancel function learns it was not complete yet. */
    CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g2, &req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK(g2.cancels == 1 && g2.cancel_complete == 0);
    CHECK_MPI(MPI_Grequest_complete(req));
    CHECK_MPI(MPI_Test(&req, &flag, &st));
    CHECK(flag == 1 && g2.frees == 1);
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 1);

    /* Beside a real receive in Waitall; the exchange runs around a ring. */
    CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g3, &reqs[0]));
    CHECK_MPI(MPI_Irecv(&peer_value, 1, MPI_INT, (rank + nprocs - 1) % nprocs, 5, MPI_COMM_WORLD,
                        &reqs[1]));
    CHECK_MPI(MPI_Grequest_complete(reqs[0]));
    CHECK_MPI(MPI_Send(&value, 1, MPI_INT, (rank + 1) % nprocs, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(2, reqs, sts));
    CHECK(peer_value == (rank + nprocs - 1) % nprocs && sts[0].MPI_SOURCE == 42);
    CHECK(g3.queries == 1 && g3.frees == 1);

    /* Waitany and Testsome pick the completed one and leave the other. */
    {
        struct greq ga = {0}, gb = {0};
        int index = -1, outcount = -1, indices[2];

        CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &ga, &reqs[0]));
        CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &gb, &reqs[1]));
        CHECK_MPI(MPI_Grequest_complete(reqs[1]));
        CHECK_MPI(MPI_Waitany(2, reqs, &index, &st));
        CHECK(index == 1 && reqs[1] == MPI_REQUEST_NULL && gb.queries == 1 && gb.frees == 1);
        CHECK(ga.queries == 0 && reqs[0] != MPI_REQUEST_NULL);
        CHECK_MPI(MPI_Testsome(2, reqs, &outcount, indices, sts));
        CHECK(outcount == 0);
        CHECK_MPI(MPI_Grequest_complete(reqs[0]));
        CHECK_MPI(MPI_Testsome(2, reqs, &outcount, indices, sts));
        CHECK(outcount == 1 && indices[0] == 0 && sts[0].MPI_TAG == 7 && ga.frees == 1);
    }

    /* Freed before completion: free_fn runs at MPI_Grequest_complete, the query never. */
    g3 = (struct greq){0};
    CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g3, &req));
    {
        MPI_Request keep = req;

        CHECK_MPI(MPI_Request_free(&req));
        CHECK(g3.frees == 0);
        CHECK_MPI(MPI_Grequest_complete(keep));
    }
    CHECK(g3.frees == 1 && g3.queries == 0);

    /* The query's error is the operation's. */
    g3 = (struct greq){.query_rc = MPI_ERR_OTHER};
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g3, &req));
    CHECK_MPI(MPI_Grequest_complete(req));
    EXPECT(MPI_Wait(&req, &st), MPI_ERR_OTHER);
    CHECK(g3.frees == 1 && req == MPI_REQUEST_NULL);
    EXPECT(MPI_Grequest_start(NULL, greq_free, greq_cancel, &g3, &req), MPI_ERR_ARG);
    CHECK_MPI(MPI_Irecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
    EXPECT(MPI_Grequest_complete(req), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* ---- external32, match_size, f90 --------------------------------------------------------- */

struct mixed {
    short s;
    long l;
    double d;
    int i[2];
};

static void check_external32(void)
{
    static const unsigned char want[] = {
        0x12, 0x34,                                     /* short 0x1234 */
        0xff, 0xff, 0xff, 0xfe,                         /* long -2 in 4 bytes */
        0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18, /* 3.141592653589793 */
        0x00, 0x00, 0x00, 0x01, 0x80, 0x00, 0x00, 0x00, /* 1, INT32_MIN */
    };
    struct mixed in = {0x1234, -2, 3.141592653589793, {1, INT32_MIN}}, out;
    int blocklens[] = {1, 1, 1, 2};
    MPI_Aint disps[] = {offsetof(struct mixed, s), offsetof(struct mixed, l),
                        offsetof(struct mixed, d), offsetof(struct mixed, i)};
    MPI_Datatype types[] = {MPI_SHORT, MPI_LONG, MPI_DOUBLE, MPI_INT}, st, t;
    unsigned char buf[64];
    MPI_Aint size, pos = 0;
    long double ld[2] = {1.5L, -0.0L}, ld_back[2];
    const unsigned char ld_want[4] = {0x3f, 0xff, 0x80, 0x00}; /* 1.5 in binary128 */

    CHECK_MPI(MPI_Type_create_struct(4, blocklens, disps, types, &st));
    CHECK_MPI(MPI_Type_commit(&st));
    CHECK_MPI(MPI_Pack_external_size("external32", 1, st, &size));
    CHECK(size == (MPI_Aint)sizeof(want));
    CHECK_MPI(MPI_Pack_external("external32", &in, 1, st, buf, sizeof(buf), &pos));
    CHECK(pos == (MPI_Aint)sizeof(want) && memcmp(buf, want, sizeof(want)) == 0);
    memset(&out, 0, sizeof(out));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, sizeof(buf), &pos, &out, 1, st));
    CHECK(pos == (MPI_Aint)sizeof(want) && out.s == in.s && out.l == in.l && out.d == in.d);
    CHECK(out.i[0] == 1 && out.i[1] == INT32_MIN);

    pos = 0;
    CHECK_MPI(MPI_Pack_external_size("external32", 2, MPI_LONG_DOUBLE, &size));
    CHECK(size == 32);
    CHECK_MPI(MPI_Pack_external("external32", ld, 2, MPI_LONG_DOUBLE, buf, sizeof(buf), &pos));
    CHECK(pos == 32 && memcmp(buf, ld_want, 4) == 0 && buf[16] == 0x80);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 32, &pos, ld_back, 2, MPI_LONG_DOUBLE));
    CHECK(ld_back[0] == 1.5L && ld_back[1] == 0.0L);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    pos = 0;
    EXPECT(MPI_Pack_external("native", &in, 1, st, buf, sizeof(buf), &pos),
           MPI_ERR_UNSUPPORTED_DATAREP);
    EXPECT(MPI_Pack_external("external32", &in, 1, st, buf, 10, &pos), MPI_ERR_TRUNCATE);
    in.l = (long)1 << 40;
    EXPECT(MPI_Pack_external("external32", &in, 1, st, buf, sizeof(buf), &pos), MPI_ERR_CONVERSION);
    EXPECT(MPI_Pack_external_size("external32", -1, st, &size), MPI_ERR_COUNT);

    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t));
    CHECK(t == MPI_REAL8);
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t));
    CHECK(t == MPI_INTEGER4);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_match_size(99, 4, &t), MPI_ERR_ARG);
    CHECK_MPI(MPI_Type_create_f90_integer(9, &t));
    CHECK(t == MPI_INTEGER4);
    CHECK_MPI(MPI_Type_create_f90_integer(10, &t));
    CHECK(t == MPI_INTEGER8);
    CHECK_MPI(MPI_Type_create_f90_real(10, MPI_UNDEFINED, &t));
    CHECK(t == MPI_REAL8);
    CHECK_MPI(MPI_Type_create_f90_complex(6, 30, &t));
    CHECK(t == MPI_COMPLEX8);
    EXPECT(MPI_Type_create_f90_real(40, 5000, &t), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Type_free(&st));
}

/* ---- deprecated functions, small ones, reductions, dynamic processes ---------------------- */

static int dup_count;

static int count_dup(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)keyval, (void)extra;
    dup_count++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static void check_deprecated_and_small(void)
{
    int blocklens[2] = {1, 2}, key, flag, version_len, x[4];
    MPI_Aint disps[2] = {0, 8}, a, b, lb, ub, extent;
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
    MPI_Comm parent, dup;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    void *value;

    CHECK_MPI(MPI_Address(&x[2], &a));
    CHECK_MPI(MPI_Get_address(&x[0], &b));
    CHECK(a - b == 2 * (MPI_Aint)sizeof(int));
    CHECK_MPI(MPI_Type_struct(2, blocklens, disps, types, &t));
    CHECK_MPI(MPI_Type_extent(t, &extent));
    CHECK_MPI(MPI_Type_lb(t, &lb));
    CHECK_MPI(MPI_Type_ub(t, &ub));
    CHECK(lb == 0 && ub == 24 && extent == 24);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_hvector(2, 1, 16, MPI_INT, &t));
    CHECK_MPI(MPI_Type_extent(t, &extent));
    CHECK(extent == 16 + (MPI_Aint)sizeof(int));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_hindexed(2, blocklens, disps, MPI_INT, &t));
    CHECK_MPI(MPI_Type_ub(t, &ub));
    CHECK(ub == 8 + 2 * (MPI_Aint)sizeof(int));
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Keyval_create(count_dup, MPI_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, key, &x[1]));
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, key, &value, &flag));
    CHECK(flag == 1 && value == &x[1]);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(dup_count == 1);
    CHECK_MPI(MPI_Attr_get(dup, key, &value, &flag));
    CHECK(flag == 1 && value == &x[1]);
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, key));
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, key, &value, &flag));
    CHECK(flag == 0);
    CHECK_MPI(MPI_Keyval_free(&key));

    /* MPI_Comm_disconnect on an intracommunicator with a message in flight on it. */
    {
        int in = -1, out = rank;
        MPI_Request r;

        CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, (rank + nprocs - 1) % nprocs, 1, dup, &r));
        CHECK_MPI(MPI_Send(&out, 1, MPI_INT, (rank + 1) % nprocs, 1, dup));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(in == (rank + nprocs - 1) % nprocs);
        CHECK_MPI(MPI_Comm_disconnect(&dup));
        CHECK(dup == MPI_COMM_NULL);
    }

    CHECK_MPI(MPI_Get_library_version(version, &version_len));
    CHECK(version_len == (int)strlen(version) && strncmp(version, "comm ", 5) == 0);
    CHECK_MPI(MPI_Pcontrol(0));
    CHECK_MPI(MPI_Pcontrol(2, "anything"));
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL);

    /* Logical and bitwise reductions on address-sized integers. */
    {
        MPI_Aint av = rank == 0 ? 6 : 3, ar;
        MPI_Offset ov = (MPI_Offset)1 << (rank % 40), or_;
        MPI_Count cv = rank + 1, cr;

        CHECK_MPI(MPI_Allreduce(&av, &ar, 1, MPI_AINT, MPI_LAND, MPI_COMM_WORLD));
        CHECK(ar == (nprocs == 1 ? av : 1)); /* one value is its own reduction */
        CHECK_MPI(MPI_Allreduce(&av, &ar, 1, MPI_AINT, MPI_BAND, MPI_COMM_WORLD));
        CHECK(ar == (nprocs == 1 ? 6 : 2));
        CHECK_MPI(MPI_Allreduce(&ov, &or_, 1, MPI_OFFSET, MPI_BOR, MPI_COMM_WORLD));
        CHECK(or_ == ((MPI_Offset)1 << nprocs) - 1);
        CHECK_MPI(MPI_Allreduce(&cv, &cr, 1, MPI_COUNT, MPI_LXOR, MPI_COMM_WORLD));
        CHECK(cr == (MPI_Count)(nprocs % 2));
        CHECK_MPI(MPI_Allreduce(&cv, &cr, 1, MPI_COUNT, MPI_BXOR, MPI_COMM_WORLD));
        {
            MPI_Count want = 0;

            for (int r = 0; r < nprocs; r++) {
                want ^= r + 1;
            }
            CHECK(cr == want);
        }
    }

    /* Dynamic processes: present, and each says it is not supported with its class. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    {
        char port[MPI_MAX_PORT_NAME] = "nowhere";
        int codes[2] = {0, 0};
        MPI_Comm inter = MPI_COMM_WORLD;

        EXPECT(MPI_Comm_spawn("true", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                              codes),
               MPI_ERR_SPAWN);
        CHECK(inter == MPI_COMM_NULL && codes[0] == MPI_ERR_SPAWN && codes[1] == MPI_ERR_SPAWN);
        EXPECT(MPI_Open_port(MPI_INFO_NULL, port), MPI_ERR_PORT);
        EXPECT(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter), MPI_ERR_PORT);
        EXPECT(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter), MPI_ERR_PORT);
        EXPECT(MPI_Close_port(port), MPI_ERR_PORT);
        EXPECT(MPI_Publish_name("svc", MPI_INFO_NULL, port), MPI_ERR_SERVICE);
        EXPECT(MPI_Unpublish_name("svc", MPI_INFO_NULL, port), MPI_ERR_SERVICE);
        EXPECT(MPI_Lookup_name("svc", MPI_INFO_NULL, port), MPI_ERR_NAME);
        EXPECT(MPI_Comm_join(0, &inter), MPI_ERR_UNSUPPORTED_OPERATION);
        EXPECT(MPI_Comm_disconnect(&inter), MPI_ERR_COMM);
    }
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* A user's error code through the fatal handler ends the job (status: the code, 129). */
static void raise_fatal_user_code(void)
{
    int cls, code;

    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK(code == MPI_ERR_LASTCODE + 2);
    CHECK_MPI(MPI_Add_error_string(code, "the widget is out of sprockets"));
    if (rank == 0) {
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
        fail(__LINE__, "MPI_ERRORS_ARE_FATAL returned");
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the others wait to be stopped */
}

/* Sets COMM_LOG_LEVEL to "info" through the tools interface. */
static void set_log_level_info(void)
{
    int provided, index, count;
    MPI_T_cvar_handle h;

    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_MPI(MPI_T_cvar_get_index("COMM_LOG_LEVEL", &index));
    CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
    CHECK_MPI(MPI_T_cvar_write(h, "info"));
    CHECK_MPI(MPI_T_cvar_handle_free(&h));
    CHECK_MPI(MPI_T_finalize());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        check_tools(); /* before MPI_Init, as tools do */
    } else if (strcmp(argv[1], "loud") == 0) {
        set_log_level_info();
    }
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));
    if (argc < 2) {
        check_tools_after_init();
    }
    if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
        raise_fatal_user_code();
    }
    if (argc > 1) {
        CHECK_MPI(MPI_Finalize());
        printf("%s %d: ok\n", prog, rank);
        return 0;
    }
    check_type_names_and_attrs();
    check_errors();
    check_handles();
    check_grequests();
    check_external32();
    check_deprecated_and_small();
    CHECK_MPI(MPI_Finalize());
    printf("%s %d: ok\n", prog, rank);
    return 0;
}
