/*
 * api_datatype.c - the MPI datatype API: constructors, commit and free, inquiry (size, extent,
 * envelope, contents), MPI_Pack/MPI_Unpack/MPI_Pack_size and address arithmetic.
 *
 * Layer: api.  Checks every argument and names the one at fault, then calls the
 * datatype engine (runtime/datatype/datatype.h).  Must not: build descriptions or copy data itself.
 *
 * Errors of datatype calls are not tied to a communicator and go to MPI_COMM_WORLD's handler;
 * those of MPI_Pack, MPI_Unpack and MPI_Pack_size go to their communicator's.
 */
#include "config.h"

#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The datatype named by HANDLE, argument ARG of FUNC; or the MPI_ERR_TYPE raised. */
static int api_type(const char *func, const char *arg, MPI_Datatype handle,
                    struct comm_datatype **dt_out)
{
    struct comm_datatype *dt = comm_datatype_lookup(handle);

    if (dt == NULL && handle == MPI_DATATYPE_NULL) {
        return comm_api_error(NULL, MPI_ERR_TYPE, "%s: %s is MPI_DATATYPE_NULL", func, arg);
    }
    if (dt == NULL) {
        return comm_api_error(NULL, MPI_ERR_TYPE, "%s: invalid %s handle %#lx", func, arg,
                              (unsigned long)(uintptr_t)handle);
    }
    *dt_out = dt;
    return MPI_SUCCESS;
}

/* The start of every constructor: running, a valid OLDTYPE (unless NULL is passed for it) and
 * somewhere to put the new handle. */
static int api_enter_constructor(const char *func, MPI_Datatype oldtype, MPI_Datatype *newtype,
                                 struct comm_datatype **old_out)
{
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (newtype == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: newtype is NULL", func);
    }
    if (old_out == NULL) {
        return MPI_SUCCESS;
    }
    return api_type(func, "oldtype", oldtype, old_out);
}

/* Hands the new type DT to the user, or raises the engine's failure RC. */
static int api_created(const char *func, int rc, struct comm_datatype *dt, MPI_Datatype *newtype)
{
    if (rc == COMM_ERR_BAD_PARAM) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: the new datatype is too large (its size, extent or "
                              "displacements overflow 64 bits)",
                              func);
    }
    if (rc < 0) {
        return comm_api_error(NULL, comm_api_code_of_status(rc), "%s: %s", func, comm_strerror(rc));
    }
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

static int api_check_count(const char *func, int count)
{
    if (count < 0) {
        return comm_api_error(NULL, MPI_ERR_COUNT, "%s: invalid count %d", func, count);
    }
    return MPI_SUCCESS;
}

static int api_check_blocklength(const char *func, int blocklength)
{
    if (blocklength < 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid blocklength %d", func, blocklength);
    }
    return MPI_SUCCESS;
}

/* An array argument of COUNT elements must be there when COUNT > 0. */
static int api_check_array(const char *func, const char *arg, int count, const void *array)
{
    if (count > 0 && array == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func, arg);
    }
    return MPI_SUCCESS;
}

static int api_check_blocklengths(const char *func, int count, const int blocklengths[])
{
    int err = api_check_array(func, "array_of_blocklengths", count, blocklengths);

    for (int i = 0; i < count && err == MPI_SUCCESS; i++) {
        if (blocklengths[i] < 0) {
            err = comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid array_of_blocklengths[%d] %d",
                                 func, i, blocklengths[i]);
        }
    }
    return err;
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_contiguous";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err == MPI_SUCCESS) {
        err = api_check_count(func, count);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_contiguous(count, old, &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_contiguous);

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_vector";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err == MPI_SUCCESS) {
        err = api_check_count(func, count);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_blocklength(func, blocklength);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_vector(count, blocklength, stride, old, &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_vector);

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_hvector";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err == MPI_SUCCESS) {
        err = api_check_count(func, count);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_blocklength(func, blocklength);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_hvector(count, blocklength, stride, old, &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_create_hvector);

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_indexed";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err == MPI_SUCCESS) {
        err = api_check_count(func, count);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_blocklengths(func, count, array_of_blocklengths);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_displacements", count, array_of_displacements);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_indexed(count, array_of_blocklengths, array_of_displacements, old,
                                      &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_indexed);

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_hindexed";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err == MPI_SUCCESS) {
        err = api_check_count(func, count);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_blocklengths(func, count, array_of_blocklengths);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_displacements", count, array_of_displacements);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_hindexed(count, array_of_blocklengths, array_of_displacements, old,
                                       &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_create_hindexed);

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_indexed_block";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err == MPI_SUCCESS) {
        err = api_check_count(func, count);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_blocklength(func, blocklength);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_displacements", count, array_of_displacements);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_indexed_block(count, blocklength, array_of_displacements, old, &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_create_indexed_block);

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_hindexed_block";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err == MPI_SUCCESS) {
        err = api_check_count(func, count);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_blocklength(func, blocklength);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_displacements", count, array_of_displacements);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_hindexed_block(count, blocklength, array_of_displacements, old, &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_create_hindexed_block);

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_struct";
    struct comm_datatype **types = NULL, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, MPI_DATATYPE_NULL, newtype, NULL);
    if (err == MPI_SUCCESS) {
        err = api_check_count(func, count);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_blocklengths(func, count, array_of_blocklengths);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_displacements", count, array_of_displacements);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_types", count, array_of_types);
    }
    if (err == MPI_SUCCESS && count > 0) {
        types = malloc((size_t)count * sizeof(*types));
        if (types == NULL) {
            err = comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: no memory for %d types", func, count);
        }
    }
    for (int i = 0; i < count && err == MPI_SUCCESS; i++) {
        types[i] = comm_datatype_lookup(array_of_types[i]);
        if (types[i] == NULL && array_of_types[i] == MPI_DATATYPE_NULL) {
            err = comm_api_error(NULL, MPI_ERR_TYPE, "%s: array_of_types[%d] is MPI_DATATYPE_NULL",
                                 func, i);
        } else if (types[i] == NULL) {
            err = comm_api_error(NULL, MPI_ERR_TYPE, "%s: invalid array_of_types[%d] handle %#lx",
                                 func, i, (unsigned long)(uintptr_t)array_of_types[i]);
        }
    }
    if (err == MPI_SUCCESS) {
        rc = comm_datatype_create_struct(count, array_of_blocklengths, array_of_displacements,
                                         types, &dt);
        err = api_created(func, rc, dt, newtype);
    }
    free(types);
    return err;
}
COMM_API_ALIAS(MPI_Type_create_struct);

static int api_check_order(const char *func, int order)
{
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: invalid order %d (expected MPI_ORDER_C or MPI_ORDER_FORTRAN)",
                              func, order);
    }
    return MPI_SUCCESS;
}

static int api_check_ndims(const char *func, int ndims)
{
    if (ndims <= 0) {
        return comm_api_error(NULL, MPI_ERR_DIMS, "%s: invalid ndims %d", func, ndims);
    }
    return MPI_SUCCESS;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_subarray";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err == MPI_SUCCESS) {
        err = api_check_ndims(func, ndims);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_order(func, order);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_sizes", ndims, array_of_sizes);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_subsizes", ndims, array_of_subsizes);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_starts", ndims, array_of_starts);
    }
    for (int i = 0; i < ndims && err == MPI_SUCCESS; i++) {
        int size = array_of_sizes[i], subsize = array_of_subsizes[i], start = array_of_starts[i];

        if (size <= 0) {
            err = comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid array_of_sizes[%d] %d", func, i,
                                 size);
        } else if (subsize <= 0 || subsize > size) {
            err = comm_api_error(NULL, MPI_ERR_ARG,
                                 "%s: invalid array_of_subsizes[%d] %d (expected 1 to %d)", func, i,
                                 subsize, size);
        } else if (start < 0 || start > size - subsize) {
            err = comm_api_error(NULL, MPI_ERR_ARG,
                                 "%s: invalid array_of_starts[%d] %d (expected 0 to %d)", func, i,
                                 start, size - subsize);
        }
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                                       order, old, &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_create_subarray);

/* Dimension I of a darray: its distribution, argument and grid size agree. */
static int api_check_darray_dim(const char *func, int i, int gsize, int distrib, int darg,
                                int psize)
{
    if (gsize <= 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid array_of_gsizes[%d] %d", func, i,
                              gsize);
    }
    if (psize <= 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid array_of_psizes[%d] %d", func, i,
                              psize);
    }
    switch (distrib) {
    case MPI_DISTRIBUTE_NONE:
        if (psize != 1) {
            return comm_api_error(NULL, MPI_ERR_ARG,
                                  "%s: array_of_psizes[%d] is %d but MPI_DISTRIBUTE_NONE needs 1",
                                  func, i, psize);
        }
        return MPI_SUCCESS;
    case MPI_DISTRIBUTE_BLOCK:
    case MPI_DISTRIBUTE_CYCLIC:
        if (darg <= 0 && darg != MPI_DISTRIBUTE_DFLT_DARG) {
            return comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid array_of_dargs[%d] %d", func, i,
                                  darg);
        }
        if (distrib == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG &&
            (long long)darg * psize < gsize) {
            return comm_api_error(NULL, MPI_ERR_ARG,
                                  "%s: array_of_dargs[%d] %d times array_of_psizes[%d] %d does "
                                  "not cover array_of_gsizes[%d] %d",
                                  func, i, darg, i, psize, i, gsize);
        }
        return MPI_SUCCESS;
    default:
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: invalid array_of_distribs[%d] %d (expected "
                              "MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE)",
                              func, i, distrib);
    }
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_darray";
    struct comm_datatype *old, *dt = NULL;
    int rc;
    long long nprocs = 1;
    int err = api_enter_constructor(func, oldtype, newtype, &old);

    if (err == MPI_SUCCESS && size <= 0) {
        err = comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid size %d", func, size);
    }
    if (err == MPI_SUCCESS && (rank < 0 || rank >= size)) {
        err = comm_api_error(NULL, MPI_ERR_RANK, "%s: invalid rank %d (size %d)", func, rank, size);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_ndims(func, ndims);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_order(func, order);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_gsizes", ndims, array_of_gsizes);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_distribs", ndims, array_of_distribs);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_dargs", ndims, array_of_dargs);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_array(func, "array_of_psizes", ndims, array_of_psizes);
    }
    for (int i = 0; i < ndims && err == MPI_SUCCESS; i++) {
        err = api_check_darray_dim(func, i, array_of_gsizes[i], array_of_distribs[i],
                                   array_of_dargs[i], array_of_psizes[i]);
        if (nprocs <= size) {
            nprocs *= array_of_psizes[i];
        }
    }
    if (err == MPI_SUCCESS && nprocs != size) {
        err = comm_api_error(NULL, MPI_ERR_ARG,
                             "%s: the process grid array_of_psizes has %s%lld processes, size "
                             "is %d",
                             func, nprocs > size ? "more than " : "", nprocs, size);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_darray(size, rank, ndims, array_of_gsizes, array_of_distribs,
                                     array_of_dargs, array_of_psizes, order, old, &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_create_darray);

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_resized";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_create_resized(old, lb, extent, &dt);
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_create_resized);

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_dup";
    struct comm_datatype *old, *dt = NULL;
    int err, rc;

    err = api_enter_constructor(func, oldtype, newtype, &old);
    if (err != MPI_SUCCESS) {
        return err;
    }
    rc = comm_datatype_dup(old, &dt);
    if (rc == COMM_OK) {
        err = comm_api_type_attr_copy(func, old, dt);
        if (err != MPI_SUCCESS) {
            comm_api_type_attr_delete_all(func, dt);
            comm_datatype_free(dt);
            return err;
        }
    }
    return api_created(func, rc, dt, newtype);
}
COMM_API_ALIAS(MPI_Type_dup);

/* The start of calls on one datatype: running and a valid handle. */
static int api_enter_type(const char *func, MPI_Datatype datatype, struct comm_datatype **dt_out)
{
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return api_type(func, "datatype", datatype, dt_out);
}

int PMPI_Type_commit(MPI_Datatype *datatype)
{
    static const char func[] = "MPI_Type_commit";
    struct comm_datatype *dt;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (datatype == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: datatype is NULL", func);
    }
    err = api_type(func, "datatype", *datatype, &dt);
    if (err != MPI_SUCCESS) {
        return err;
    }
    comm_datatype_commit(dt);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_commit);

int PMPI_Type_free(MPI_Datatype *datatype)
{
    static const char func[] = "MPI_Type_free";
    struct comm_datatype *dt;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (datatype == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: datatype is NULL", func);
    }
    err = api_type(func, "datatype", *datatype, &dt);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (dt->predefined) {
        return comm_api_error(NULL, MPI_ERR_TYPE, "%s: %s is predefined and cannot be freed", func,
                              dt->name);
    }
    if (dt->user_refs == 1) {
        /* The user's last handle: the attributes go with it. */
        err = comm_api_type_attr_delete_all(func, dt);
        if (err != MPI_SUCCESS) {
            return err;
        }
        comm_api_handle_forget(COMM_API_HANDLE_TYPE, dt->handle);
    }
    if (comm_datatype_free(dt) < 0) {
        return comm_api_error(NULL, MPI_ERR_TYPE, "%s: datatype %#lx was already freed", func,
                              (unsigned long)(uintptr_t)*datatype);
    }
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_free);

/* Output pointers of the inquiry calls must be there. */
static int api_check_out(const char *func, const char *arg, const void *ptr)
{
    if (ptr == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func, arg);
    }
    return MPI_SUCCESS;
}

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    static const char func[] = "MPI_Type_size";
    struct comm_datatype *dt;
    int err = api_enter_type(func, datatype, &dt);

    if (err == MPI_SUCCESS) {
        err = api_check_out(func, "size", size);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    *size = dt->size > INT_MAX ? MPI_UNDEFINED : (int)dt->size;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_size);

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    static const char func[] = "MPI_Type_size_x";
    struct comm_datatype *dt;
    int err = api_enter_type(func, datatype, &dt);

    if (err == MPI_SUCCESS) {
        err = api_check_out(func, "size", size);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    *size = dt->size;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_size_x);

/* Inquiry of two values: running, a valid type, both outputs there. */
static int api_enter_pair(const char *func, MPI_Datatype datatype, const char *arg1,
                          const void *out1, const char *arg2, const void *out2,
                          struct comm_datatype **dt_out)
{
    int err = api_enter_type(func, datatype, dt_out);

    if (err == MPI_SUCCESS) {
        err = api_check_out(func, arg1, out1);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_out(func, arg2, out2);
    }
    return err;
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    struct comm_datatype *dt;
    int err = api_enter_pair("MPI_Type_get_extent", datatype, "lb", lb, "extent", extent, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_get_extent);

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    struct comm_datatype *dt;
    int err = api_enter_pair("MPI_Type_get_extent_x", datatype, "lb", lb, "extent", extent, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_get_extent_x);

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    struct comm_datatype *dt;
    int err = api_enter_pair("MPI_Type_get_true_extent", datatype, "true_lb", true_lb,
                             "true_extent", true_extent, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    *true_lb = dt->true_lb;
    *true_extent = dt->true_extent;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_get_true_extent);

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    struct comm_datatype *dt;
    int err = api_enter_pair("MPI_Type_get_true_extent_x", datatype, "true_lb", true_lb,
                             "true_extent", true_extent, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    *true_lb = dt->true_lb;
    *true_extent = dt->true_extent;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_get_true_extent_x);

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    static const char func[] = "MPI_Type_get_envelope";
    struct comm_datatype *dt;
    int err = api_enter_pair(func, datatype, "num_integers", num_integers, "num_addresses",
                             num_addresses, &dt);

    if (err == MPI_SUCCESS) {
        err = api_check_out(func, "num_datatypes", num_datatypes);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_out(func, "combiner", combiner);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    *num_integers = dt->ninteger;
    *num_addresses = dt->naddress;
    *num_datatypes = dt->ntype;
    *combiner = dt->combiner;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_get_envelope);

/* One output array of MPI_Type_get_contents: room for N values, and there when N > 0. */
static int api_check_contents(const char *func, const char *max_arg, int max, const char *arg,
                              const void *array, int n)
{
    if (max < n) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is %d but the datatype has %d", func,
                              max_arg, max, n);
    }
    return api_check_array(func, arg, n, array);
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    static const char func[] = "MPI_Type_get_contents";
    struct comm_datatype *dt;
    int err = api_enter_type(func, datatype, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (dt->predefined) {
        return comm_api_error(NULL, MPI_ERR_TYPE,
                              "%s: %s is predefined (combiner MPI_COMBINER_NAMED) and has no "
                              "contents",
                              func, dt->name);
    }
    err = api_check_contents(func, "max_integers", max_integers, "array_of_integers",
                             array_of_integers, dt->ninteger);
    if (err == MPI_SUCCESS) {
        err = api_check_contents(func, "max_addresses", max_addresses, "array_of_addresses",
                                 array_of_addresses, dt->naddress);
    }
    if (err == MPI_SUCCESS) {
        err = api_check_contents(func, "max_datatypes", max_datatypes, "array_of_datatypes",
                                 array_of_datatypes, dt->ntype);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    for (int i = 0; i < dt->ninteger; i++) {
        array_of_integers[i] = dt->integers[i];
    }
    for (int i = 0; i < dt->naddress; i++) {
        array_of_addresses[i] = dt->addresses[i];
    }
    for (int i = 0; i < dt->ntype; i++) {
        /* a derived type comes back as a new handle, which the user frees */
        comm_datatype_retain_user(comm_dt_object(dt->types[i]));
        array_of_datatypes[i] = dt->types[i];
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_get_contents);

/*
 * The common checks of MPI_Pack and MPI_Unpack: COUNT elements of DATATYPE move between memory
 * and the packed buffer PACKED of SIZE bytes, at *POSITION.  Sets the type and the bytes.
 */
static int api_enter_pack(const char *func, MPI_Comm comm, const char *count_arg, int count,
                          MPI_Datatype datatype, const char *size_arg, int size, const void *packed,
                          const int *position, struct comm_datatype **dt_out, MPI_Count *bytes_out)
{
    struct comm_communicator *c;
    struct comm_datatype *dt;
    MPI_Count bytes;
    int err = comm_api_enter_comm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (count < 0) {
        return comm_api_error(c, MPI_ERR_COUNT, "%s: invalid %s %d", func, count_arg, count);
    }
    if (size < 0) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: invalid %s %d", func, size_arg, size);
    }
    if (position == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: position is NULL", func);
    }
    if (*position < 0 || *position > size) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: invalid position %d (%s is %d)", func, *position,
                              size_arg, size);
    }
    err = comm_api_check_datatype(func, c, datatype, &dt);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (__builtin_mul_overflow((MPI_Count)count, dt->size, &bytes) || bytes > size - *position) {
        return comm_api_error(c, MPI_ERR_TRUNCATE,
                              "%s: %d elements of %lld bytes do not fit in %s %d from position %d",
                              func, count, (long long)dt->size, size_arg, size, *position);
    }
    if (bytes > 0 && packed == NULL) {
        return comm_api_error(c, MPI_ERR_BUFFER, "%s: the packed buffer is NULL", func);
    }
    *dt_out = dt;
    *bytes_out = bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    struct comm_datatype *dt;
    MPI_Count bytes;
    int err = api_enter_pack("MPI_Pack", comm, "incount", incount, datatype, "outsize", outsize,
                             outbuf, position, &dt, &bytes);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (bytes > 0) {
        comm_datatype_pack(dt, inbuf, incount, 0, (char *)outbuf + *position, (size_t)bytes);
    }
    *position += (int)bytes;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Pack);

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    struct comm_datatype *dt;
    MPI_Count bytes;
    int err = api_enter_pack("MPI_Unpack", comm, "outcount", outcount, datatype, "insize", insize,
                             inbuf, position, &dt, &bytes);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (bytes > 0) {
        comm_datatype_unpack(dt, outbuf, outcount, 0, (const char *)inbuf + *position,
                             (size_t)bytes);
    }
    *position += (int)bytes;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Unpack);

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    static const char func[] = "MPI_Pack_size";
    struct comm_communicator *c;
    struct comm_datatype *dt;
    MPI_Count bytes;
    int err = comm_api_enter_comm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (incount < 0) {
        return comm_api_error(c, MPI_ERR_COUNT, "%s: invalid incount %d", func, incount);
    }
    if (size == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: size is NULL", func);
    }
    dt = comm_datatype_lookup(datatype);
    if (dt == NULL) {
        return comm_api_error(c, MPI_ERR_TYPE, "%s: invalid datatype %s%#lx", func,
                              datatype == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL " : "handle ",
                              (unsigned long)(uintptr_t)datatype);
    }
    if (__builtin_mul_overflow((MPI_Count)incount, dt->size, &bytes) || bytes > INT_MAX) {
        return comm_api_error(c, MPI_ERR_ARG,
                              "%s: %d elements of %lld bytes need more than INT_MAX bytes", func,
                              incount, (long long)dt->size);
    }
    *size = (int)bytes;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Pack_size);

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    static const char func[] = "MPI_Get_address";
    int err = comm_api_check_running(func);

    if (err == MPI_SUCCESS) {
        err = api_check_out(func, "address", address);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Get_address);

/* Address arithmetic wraps like the machine's, as MPI intends for absolute addresses. */
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}
COMM_API_ALIAS(MPI_Aint_add);

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
COMM_API_ALIAS(MPI_Aint_diff);

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    static const char func[] = "MPI_Type_set_name";
    struct comm_datatype *dt;
    int err = api_enter_type(func, datatype, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (type_name == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: type_name is NULL", func);
    }
    /* The standard truncates a name longer than MPI_MAX_OBJECT_NAME - 1. */
    snprintf(dt->name, sizeof(dt->name), "%s", type_name);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_set_name);

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    static const char func[] = "MPI_Type_get_name";
    struct comm_datatype *dt;
    int err = api_enter_type(func, datatype, &dt);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (type_name == NULL || resultlen == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                              type_name == NULL ? "type_name" : "resultlen");
    }
    *resultlen = snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", dt->name);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Type_get_name);
