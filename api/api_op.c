/*
 * api_op.c - the MPI reduction-op API: MPI_Op_create, MPI_Op_free, MPI_Op_commutative and
 * MPI_Reduce_local.
 *
 * Layer: api.  Checks the arguments and names the one at fault; the objects and the
 * reduction itself are runtime/op/op.c's.  Must not: reduce data itself.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "runtime/op/op.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The op behind HANDLE, or MPI_ERR_OP naming FUNC and the handle. */
static int api_op(const char *func, MPI_Op handle, struct comm_op **op_out)
{
    struct comm_op *op = comm_op_lookup(handle);

    if (handle == MPI_OP_NULL) {
        return comm_api_error(NULL, MPI_ERR_OP, "%s: invalid operation MPI_OP_NULL", func);
    }
    if (op == NULL) {
        return comm_api_error(NULL, MPI_ERR_OP, "%s: invalid operation handle %#lx", func,
                              (unsigned long)(uintptr_t)handle);
    }
    *op_out = op;
    return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    static const char func[] = "MPI_Op_create";
    struct comm_op *created;
    int rc, err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (user_fn == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: user_fn is NULL", func);
    }
    if (op == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: op is NULL", func);
    }
    rc = comm_op_create(user_fn, commute != 0, &created);
    if (rc < 0) {
        return comm_api_error(NULL, comm_api_code_of_status(rc), "%s: %s", func, comm_strerror(rc));
    }
    *op = created->handle;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Op_create);

int comm_api_op_create_invoked(const char *func, comm_op_invoke_fn *invoke, void *invoke_data,
                               int commute, MPI_Op *op)
{
    struct comm_op *created;
    int rc, err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        free(invoke_data);
        return err;
    }
    if (invoke == NULL || op == NULL) {
        free(invoke_data);
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                              op == NULL ? "op" : "user_fn");
    }
    rc = comm_op_create_invoked(invoke, invoke_data, commute != 0, &created);
    if (rc < 0) {
        return comm_api_error(NULL, comm_api_code_of_status(rc), "%s: %s", func, comm_strerror(rc));
    }
    *op = created->handle;
    return MPI_SUCCESS;
}

int PMPI_Op_free(MPI_Op *op)
{
    static const char func[] = "MPI_Op_free";
    struct comm_op *obj;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (op == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: op is NULL", func);
    }
    err = api_op(func, *op, &obj);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (obj->predefined) {
        return comm_api_error(NULL, MPI_ERR_OP, "%s: %s is predefined and cannot be freed", func,
                              comm_op_name(obj));
    }
    if (comm_op_free(obj) < 0) {
        return comm_api_error(NULL, MPI_ERR_OP, "%s: operation %#lx was already freed", func,
                              (unsigned long)(uintptr_t)*op);
    }
    comm_api_handle_forget(COMM_API_HANDLE_OP, *op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Op_free);

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    static const char func[] = "MPI_Op_commutative";
    struct comm_op *obj;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (commute == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: commute is NULL", func);
    }
    err = api_op(func, op, &obj);
    if (err != MPI_SUCCESS) {
        return err;
    }
    *commute = obj->commutative ? 1 : 0;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Op_commutative);

/* The name of DT for messages: its own, or that of the one basic type of a derived type. */
static const char *api_type_name(const struct comm_datatype *dt, char *buf, size_t len)
{
    const struct comm_datatype *basic;

    if (dt->predefined || dt->name[0] != '\0') {
        return dt->name;
    }
    basic = dt->basic != MPI_DATATYPE_NULL ? comm_datatype_lookup(dt->basic) : NULL;
    if (basic == NULL) {
        return "a derived datatype of mixed basic types";
    }
    snprintf(buf, len, "a derived datatype of %s", basic->name);
    return buf;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op)
{
    static const char func[] = "MPI_Reduce_local";
    struct comm_datatype *dt;
    struct comm_op *obj;
    char name[MPI_MAX_OBJECT_NAME + 32];
    int rc, err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (count < 0) {
        return comm_api_error(NULL, MPI_ERR_COUNT, "%s: invalid count %d", func, count);
    }
    err = comm_api_check_datatype(func, NULL, datatype, &dt);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = api_op(func, op, &obj);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE) {
        return comm_api_error(NULL, MPI_ERR_BUFFER,
                              "%s: %s is MPI_IN_PLACE, which this call does "
                              "not accept",
                              func, inbuf == MPI_IN_PLACE ? "inbuf" : "inoutbuf");
    }
    /* MPI_BOTTOM is NULL too: only a buffer whose data would start at address 0 is wrong. */
    if ((inbuf == NULL || inoutbuf == NULL) && count > 0 && dt->size > 0 && dt->true_lb == 0) {
        return comm_api_error(NULL, MPI_ERR_BUFFER, "%s: %s is NULL with count %d", func,
                              inbuf == NULL ? "inbuf" : "inoutbuf", count);
    }
    if (!comm_op_accepts(obj, dt)) {
        return comm_api_error(NULL, MPI_ERR_OP, "%s: %s is not defined on %s", func,
                              comm_op_name(obj), api_type_name(dt, name, sizeof(name)));
    }
    rc = comm_op_reduce(obj, inbuf, inoutbuf, count, dt);
    if (rc < 0) {
        return comm_api_error(NULL, comm_api_code_of_status(rc), "%s: %s", func, comm_strerror(rc));
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Reduce_local);
