/*
 * fort_callbacks.h - the Fortran entry points that take user procedures or attribute values,
 * and the predefined attribute callbacks a Fortran program passes (fortran/fort_callbacks.c).
 *
 * Layer: fortran (above api/).  Must not: be included by runtime/, coll/ or rma/.
 *
 * Every function is what gfortran calls for MPI_Xxx from mpif.h, `use mpi` or `use mpi_f08`:
 * the C symbol mpi_xxx_, every argument by reference, handles as their Fortran index
 * (MPI_Fint), LOGICAL as an int, INTEGER(KIND=MPI_ADDRESS_KIND) as MPI_Aint; IERROR may be
 * NULL (mpi_f08's absent optional argument).  The procedures a program passes are called with
 * the same convention (see the fort_*_fn types).
 */
#ifndef COMM_FORT_CALLBACKS_H
#define COMM_FORT_CALLBACKS_H

#include "include/mpi.h"

/* Exported from libcomm although the library is built with hidden visibility. */
#define COMM_FORT_API __attribute__((visibility("default")))

/* The procedures of a Fortran program, as gfortran passes them. */
typedef void fort_user_fn(void *invec, void *inoutvec, MPI_Fint *len, MPI_Fint *datatype);
typedef void fort_errhandler_fn(MPI_Fint *comm_or_win, MPI_Fint *errcode);
typedef void fort_copy_attr_fn(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra_state,
                               MPI_Aint *attribute_val_in, MPI_Aint *attribute_val_out,
                               MPI_Fint *flag, MPI_Fint *ierror);
typedef void fort_delete_attr_fn(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *attribute_val,
                                 MPI_Aint *extra_state, MPI_Fint *ierror);
/* MPI-1 MPI_KEYVAL_CREATE: INTEGER values and extra state. */
typedef void fort_copy_fn(MPI_Fint *oldcomm, MPI_Fint *keyval, MPI_Fint *extra_state,
                          MPI_Fint *attribute_val_in, MPI_Fint *attribute_val_out, MPI_Fint *flag,
                          MPI_Fint *ierror);
typedef void fort_delete_fn(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
                            MPI_Fint *extra_state, MPI_Fint *ierror);
typedef void fort_grequest_query_fn(MPI_Aint *extra_state, MPI_Fint *status, MPI_Fint *ierror);
typedef void fort_grequest_free_fn(MPI_Aint *extra_state, MPI_Fint *ierror);
typedef void fort_grequest_cancel_fn(MPI_Aint *extra_state, MPI_Fint *complete, MPI_Fint *ierror);

/* Reductions and error handlers. */
COMM_FORT_API void mpi_op_create_(fort_user_fn *user_fn, MPI_Fint *commute, MPI_Fint *op,
                                  MPI_Fint *ierror);
COMM_FORT_API void mpi_comm_create_errhandler_(fort_errhandler_fn *fn, MPI_Fint *errhandler,
                                               MPI_Fint *ierror);
COMM_FORT_API void mpi_win_create_errhandler_(fort_errhandler_fn *fn, MPI_Fint *errhandler,
                                              MPI_Fint *ierror);
COMM_FORT_API void mpi_session_create_errhandler_(fort_errhandler_fn *fn, MPI_Fint *errhandler,
                                                  MPI_Fint *ierror);
COMM_FORT_API void mpi_errhandler_create_(fort_errhandler_fn *fn, MPI_Fint *errhandler,
                                          MPI_Fint *ierror);

/* Keyvals and attributes. */
COMM_FORT_API void mpi_comm_create_keyval_(fort_copy_attr_fn *copy_fn,
                                           fort_delete_attr_fn *delete_fn, MPI_Fint *keyval,
                                           MPI_Aint *extra_state, MPI_Fint *ierror);
COMM_FORT_API void mpi_type_create_keyval_(fort_copy_attr_fn *copy_fn,
                                           fort_delete_attr_fn *delete_fn, MPI_Fint *keyval,
                                           MPI_Aint *extra_state, MPI_Fint *ierror);
COMM_FORT_API void mpi_win_create_keyval_(fort_copy_attr_fn *copy_fn,
                                          fort_delete_attr_fn *delete_fn, MPI_Fint *keyval,
                                          MPI_Aint *extra_state, MPI_Fint *ierror);
COMM_FORT_API void mpi_keyval_create_(fort_copy_fn *copy_fn, fort_delete_fn *delete_fn,
                                      MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *ierror);
COMM_FORT_API void mpi_comm_set_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *attribute_val,
                                      MPI_Fint *ierror);
COMM_FORT_API void mpi_comm_get_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *attribute_val,
                                      MPI_Fint *flag, MPI_Fint *ierror);
COMM_FORT_API void mpi_type_set_attr_(MPI_Fint *datatype, MPI_Fint *keyval, MPI_Aint *attribute_val,
                                      MPI_Fint *ierror);
COMM_FORT_API void mpi_type_get_attr_(MPI_Fint *datatype, MPI_Fint *keyval, MPI_Aint *attribute_val,
                                      MPI_Fint *flag, MPI_Fint *ierror);
COMM_FORT_API void mpi_win_set_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *attribute_val,
                                     MPI_Fint *ierror);
COMM_FORT_API void mpi_win_get_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *attribute_val,
                                     MPI_Fint *flag, MPI_Fint *ierror);
COMM_FORT_API void mpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
                                 MPI_Fint *ierror);
COMM_FORT_API void mpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *attribute_val,
                                 MPI_Fint *flag, MPI_Fint *ierror);

/* Generalized requests. */
COMM_FORT_API void mpi_grequest_start_(fort_grequest_query_fn *query_fn,
                                       fort_grequest_free_fn *free_fn,
                                       fort_grequest_cancel_fn *cancel_fn, MPI_Aint *extra_state,
                                       MPI_Fint *request, MPI_Fint *ierror);

/* The predefined callbacks (MPI_COMM_NULL_COPY_FN ... in Fortran); the keyval entry points
 * recognise them and use the C library's own. */
COMM_FORT_API fort_copy_attr_fn mpi_comm_null_copy_fn_, mpi_comm_dup_fn_;
COMM_FORT_API fort_delete_attr_fn mpi_comm_null_delete_fn_;
COMM_FORT_API fort_copy_attr_fn mpi_type_null_copy_fn_, mpi_type_dup_fn_;
COMM_FORT_API fort_delete_attr_fn mpi_type_null_delete_fn_;
COMM_FORT_API fort_copy_attr_fn mpi_win_null_copy_fn_, mpi_win_dup_fn_;
COMM_FORT_API fort_delete_attr_fn mpi_win_null_delete_fn_;
COMM_FORT_API fort_copy_fn mpi_null_copy_fn_, mpi_dup_fn_;
COMM_FORT_API fort_delete_fn mpi_null_delete_fn_;

#endif
