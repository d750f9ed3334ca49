/*
 * fort.h - what the Fortran entry points of libcomm share: the storage of the special
 * addresses (MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ...), their translation to the C
 * constants, and the conversions of strings, logicals and indices.  See docs/fortran.md.
 *
 * Layer: fortran (above the MPI API).  Must not: call anything but the public MPI C functions
 * and comm_api_error; allocate on the paths of the common calls (send, receive, wait,
 * reductions): the conversions there are inline compares.
 *
 * Threads: everything here is thread-safe (no state but the constant special addresses).
 */
#ifndef COMM_FORT_H
#define COMM_FORT_H

#include "include/mpi.h"

#include <ISO_Fortran_binding.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* The Fortran entry points are part of libcomm's exported interface. */
#define COMM_FORT_API __attribute__((visibility("default")))

enum {
    FORT_STACK_HANDLES = 32, /* arrays of handles up to this length convert on the stack */
    FORT_STACK_STRING = 256, /* input strings up to this length convert on the stack */
};

/*
 * The common blocks of mpif.h and module mpi (and the bind(C) variables of mpi_f08) live here:
 * a Fortran program's common block and these globals resolve to one address, which the entry
 * points compare with what they are given.
 */
extern COMM_FORT_API MPI_Fint mpi_fortran_bottom_;
extern COMM_FORT_API MPI_Fint mpi_fortran_in_place_;
extern COMM_FORT_API MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
extern COMM_FORT_API MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
extern COMM_FORT_API MPI_Fint mpi_fortran_errcodes_ignore_;
extern COMM_FORT_API char mpi_fortran_argv_null_[1];
extern COMM_FORT_API char mpi_fortran_argvs_null_[1];
extern COMM_FORT_API MPI_Fint mpi_fortran_unweighted_;
extern COMM_FORT_API MPI_Fint mpi_fortran_weights_empty_;

/* A choice buffer: MPI_BOTTOM and MPI_IN_PLACE become the C constants. */
static inline void *fort_buf(const void *buf)
{
    if (buf == &mpi_fortran_bottom_) {
        return MPI_BOTTOM;
    }
    if (buf == &mpi_fortran_in_place_) {
        return MPI_IN_PLACE;
    }
    return (void *)(uintptr_t)buf;
}

/* A status (8 integers, the C layout) or MPI_STATUS_IGNORE. */
static inline MPI_Status *fort_status(MPI_Fint *status)
{
    return status == mpi_fortran_status_ignore_ ? MPI_STATUS_IGNORE : (MPI_Status *)(void *)status;
}

static inline MPI_Status *fort_statuses(MPI_Fint *statuses)
{
    return statuses == mpi_fortran_statuses_ignore_ ? MPI_STATUSES_IGNORE
                                                    : (MPI_Status *)(void *)statuses;
}

static inline int *fort_errcodes(MPI_Fint *codes)
{
    return codes == &mpi_fortran_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : codes;
}

static inline const int *fort_weights_in(const MPI_Fint *w)
{
    if (w == &mpi_fortran_unweighted_) {
        return MPI_UNWEIGHTED;
    }
    return w == &mpi_fortran_weights_empty_ ? MPI_WEIGHTS_EMPTY : w;
}

static inline int *fort_weights_out(MPI_Fint *w)
{
    if (w == &mpi_fortran_unweighted_) {
        return MPI_UNWEIGHTED;
    }
    return w == &mpi_fortran_weights_empty_ ? MPI_WEIGHTS_EMPTY : w;
}

/*
 * MPI_Comm_idup from Fortran: the C call writes the new communicator when its request
 * completes, so the entry point keeps it aside, keyed by the Fortran request, and the
 * completion calls (MPI_Wait, MPI_Test and their all/any/some forms) hand it to the Fortran
 * variable: fort_idup_done(F, C, N) looks at the N requests whose Fortran indices F were given
 * and whose C handles C are now MPI_REQUEST_NULL.  One relaxed load while no MPI_Comm_idup is
 * pending.  (A request freed with MPI_Request_free never gives its communicator.)
 */
extern atomic_int fort_idups_pending;
void fort_idup_done_slow(const MPI_Fint *f, const MPI_Request *c, int n, bool set);
static inline void fort_idup_done(const MPI_Fint *f, const MPI_Request *c, int n)
{
    if (atomic_load_explicit(&fort_idups_pending, memory_order_relaxed) > 0) {
        fort_idup_done_slow(f, c, n, true);
    }
}

/* MPI_Request_free: the pending MPI_Comm_idup of request F (if any) is forgotten. */
static inline void fort_idup_forget(const MPI_Fint *f)
{
    static const MPI_Request null = MPI_REQUEST_NULL;

    if (atomic_load_explicit(&fort_idups_pending, memory_order_relaxed) > 0) {
        fort_idup_done_slow(f, &null, 1, false);
    }
}

/* LOGICAL results are 1 or 0. */
void fort_logicals_out(MPI_Fint *flags, int n);
/* MPI_Waitsome/Testsome: C indices (from 0) to Fortran ones (from 1). */
void fort_indices_out(MPI_Fint *indices, int n);

/*
 * An input string: LEN characters at F, trailing blanks (and leading ones too if TRIM_LEADING:
 * info keys and values) removed, as a C string: in STACK if it fits in STACK_SIZE, else in
 * memory the caller frees (when *OUT differs from STACK).  Returns MPI_SUCCESS or the error of
 * FUNC's handler for ARG.
 */
int fort_string_in(const char *func, const char *arg, const char *f, size_t len, int trim_leading,
                   char *stack, size_t stack_size, char **out);
/* An output string: C string C into the LEN characters at F, cut or padded with blanks. */
void fort_string_out(const char *c, char *f, size_t len);

/* MPI_Comm_spawn's argv (a blank element ends it; MPI_ARGV_NULL gives NULL). */
int fort_argv_in(const char *func, const char *f, size_t len, char ***out);
void fort_argv_free(char **argv);
/* MPI_Comm_spawn_multiple's commands (COUNT strings) and argvs (COUNT x *, column major). */
int fort_strings_in(const char *func, const char *f, size_t len, int count, char ***out);
int fort_argvs_in(const char *func, const char *f, size_t len, int count, char ****out);
void fort_argvs_free(char ***argvs, int count);

/* The number of elements of the datatype arrays of MPI_Alltoallw (every peer). */
int fort_comm_peers(MPI_Comm comm);
/* ... and of MPI_Neighbor_alltoallw: the out-degree (SEND true) or in-degree. */
int fort_neighbor_count(MPI_Comm comm, bool send);

/* The MPI-1 functions' INTEGER addresses: V into *F, or MPI_ERR_ARG if it does not fit. */
int fort_aint_to_int(const char *func, const char *arg, MPI_Aint v, MPI_Fint *f);

/* Raises MPI_ERR_NO_MEM for FUNC's ARG; returns the code. */
int fort_no_memory(const char *func, const char *arg);

/*
 * mpi_f08 choice buffers of nonblocking calls: the memory must be the user's own, so a
 * non-contiguous section (MPI_SUBARRAYS_SUPPORTED is .false.) is an error, raised here.
 */
bool fort_contiguous_slow(const char *func, const char *arg, const CFI_cdesc_t *d,
                          MPI_Fint *ierror);
static inline bool fort_contiguous(const char *func, const char *arg, const CFI_cdesc_t *d,
                                   MPI_Fint *ierror)
{
    return d->rank == 0 || fort_contiguous_slow(func, arg, d, ierror);
}

#endif
