/*
 * api_compat.c - deprecated and removed (MPI-1) functions that programs still call, as thin
 * wrappers over their replacements, and the small functions with nothing to do: MPI_Pcontrol
 * and MPI_Comm_get_parent.
 *
 * Layer: api.  Must not: hold logic of its own; every wrapper calls the PMPI_ form of
 * its replacement, so argument errors name the replacement (MPI_Address's bad argument is
 * reported by MPI_Get_address).
 */
#include "config.h"

#include "api/api.h"

int PMPI_Address(void *location, MPI_Aint *address)
{
    return PMPI_Get_address(location, address);
}
COMM_API_ALIAS(MPI_Address);

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    MPI_Aint lb;

    return PMPI_Type_get_extent(datatype, &lb, extent);
}
COMM_API_ALIAS(MPI_Type_extent);

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    MPI_Aint extent;

    return PMPI_Type_get_extent(datatype, displacement, &extent);
}
COMM_API_ALIAS(MPI_Type_lb);

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    MPI_Aint lb, extent;
    int err = PMPI_Type_get_extent(datatype, &lb, &extent);

    if (err == MPI_SUCCESS && displacement != NULL) {
        *displacement = lb + extent;
    }
    return err;
}
COMM_API_ALIAS(MPI_Type_ub);

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}
COMM_API_ALIAS(MPI_Type_hvector);

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return PMPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype,
                                     newtype);
}
COMM_API_ALIAS(MPI_Type_hindexed);

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return PMPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements,
                                   array_of_types, newtype);
}
COMM_API_ALIAS(MPI_Type_struct);

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return PMPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}
COMM_API_ALIAS(MPI_Attr_get);

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return PMPI_Comm_set_attr(comm, keyval, attribute_val);
}
COMM_API_ALIAS(MPI_Attr_put);

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return PMPI_Comm_delete_attr(comm, keyval);
}
COMM_API_ALIAS(MPI_Attr_delete);

/* MPI_Copy_function and MPI_Comm_copy_attr_function are the same C type (as are the delete
 * functions), and MPI_DUP_FN is MPI_COMM_DUP_FN: no conversion is needed. */
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
COMM_API_ALIAS(MPI_Keyval_create);

int PMPI_Keyval_free(int *keyval)
{
    return PMPI_Comm_free_keyval(keyval);
}
COMM_API_ALIAS(MPI_Keyval_free);

int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    return PMPI_Comm_create_errhandler(function, errhandler);
}
COMM_API_ALIAS(MPI_Errhandler_create);

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return PMPI_Comm_set_errhandler(comm, errhandler);
}
COMM_API_ALIAS(MPI_Errhandler_set);

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return PMPI_Comm_get_errhandler(comm, errhandler);
}
COMM_API_ALIAS(MPI_Errhandler_get);

/* Profiling control: comm has no profiling of its own to turn on or off, so every level is
 * accepted and ignored; a profiling library that defines MPI_Pcontrol sees the calls. */
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Pcontrol);

/* No process of a comm job was spawned by another (see dynamic.c). */
int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    int err = comm_api_check_running("MPI_Comm_get_parent");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (parent == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Comm_get_parent: parent is NULL");
    }
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_get_parent);
