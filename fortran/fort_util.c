/*
 * fort_util.c - the storage of the Fortran special addresses, the conversions the generated
 * entry points (fort_entry.c) share, and the Fortran-only routines: MPI_PCONTROL,
 * MPI_F_SYNC_REG and MPI_SIZEOF.
 *
 * Layer: fortran (above the MPI API).  Must not: be reached from the C interface; allocate
 * except for what the conversion of a long string or array needs (the caller frees it).
 */
#include "config.h"

#include "fortran/fort.h"
#include "api/api.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

MPI_Fint mpi_fortran_bottom_;
MPI_Fint mpi_fortran_in_place_;
MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
MPI_Fint mpi_fortran_errcodes_ignore_;
char mpi_fortran_argv_null_[1];
char mpi_fortran_argvs_null_[1];
MPI_Fint mpi_fortran_unweighted_;
MPI_Fint mpi_fortran_weights_empty_;

void fort_logicals_out(MPI_Fint *flags, int n)
{
    for (int i = 0; i < n; i++) {
        flags[i] = flags[i] != 0;
    }
}

void fort_indices_out(MPI_Fint *indices, int n)
{
    if (n == MPI_UNDEFINED) {
        return;
    }
    for (int i = 0; i < n; i++) {
        indices[i] += 1;
    }
}

int fort_no_memory(const char *func, const char *arg)
{
    return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory converting %s from Fortran",
                          func, arg);
}

int fort_aint_to_int(const char *func, const char *arg, MPI_Aint v, MPI_Fint *f)
{
    if ((MPI_Aint)(MPI_Fint)v != v) {
        return comm_api_error(NULL, MPI_ERR_ARG,
                              "%s: %s %ld does not fit a Fortran INTEGER; use MPI_GET_ADDRESS and "
                              "the MPI_TYPE_CREATE_* functions (INTEGER(KIND=MPI_ADDRESS_KIND))",
                              func, arg, (long)v);
    }
    *f = (MPI_Fint)v;
    return MPI_SUCCESS;
}

/* The characters of F[0..LEN) without trailing (and, if asked, leading) blanks. */
static const char *fort_trim(const char *f, size_t *len, int trim_leading)
{
    size_t n = *len;

    while (n > 0 && f[n - 1] == ' ') {
        n--;
    }
    while (trim_leading && n > 0 && f[0] == ' ') {
        f++;
        n--;
    }
    *len = n;
    return f;
}

/* A malloc'd C copy of a trimmed Fortran string, or NULL. */
static char *fort_strdup(const char *f, size_t len)
{
    const char *s = fort_trim(f, &len, 0);
    char *c = malloc(len + 1);

    if (c != NULL) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

int fort_string_in(const char *func, const char *arg, const char *f, size_t len, int trim_leading,
                   char *stack, size_t stack_size, char **out)
{
    const char *s = fort_trim(f, &len, trim_leading);
    char *c = stack;

    if (len + 1 > stack_size) {
        c = malloc(len + 1);
        if (c == NULL) {
            *out = stack;
            return fort_no_memory(func, arg);
        }
    }
    memcpy(c, s, len);
    c[len] = '\0';
    *out = c;
    return MPI_SUCCESS;
}

void fort_string_out(const char *c, char *f, size_t len)
{
    size_t n = strnlen(c, len);

    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

static bool fort_is_blank(const char *f, size_t len)
{
    fort_trim(f, &len, 0);
    return len == 0;
}

/* NULL-terminated copies of the strings at F (LEN each), up to a blank one or MAX of them. */
static char **fort_string_list(const char *f, size_t len, size_t stride, size_t max)
{
    size_t n = 0;
    char **v;

    while (n < max && !fort_is_blank(f + n * stride, len)) {
        n++;
    }
    v = calloc(n + 1, sizeof(*v));
    if (v == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        v[i] = fort_strdup(f + i * stride, len);
        if (v[i] == NULL) {
            fort_argv_free(v);
            return NULL;
        }
    }
    return v;
}

int fort_argv_in(const char *func, const char *f, size_t len, char ***out)
{
    *out = NULL;
    if (f == mpi_fortran_argv_null_) {
        return MPI_SUCCESS;
    }
    *out = fort_string_list(f, len, len, SIZE_MAX);
    return *out == NULL ? fort_no_memory(func, "argv") : MPI_SUCCESS;
}

void fort_argv_free(char **argv)
{
    if (argv == NULL) {
        return;
    }
    for (size_t i = 0; argv[i] != NULL; i++) {
        free(argv[i]);
    }
    free(argv);
}

int fort_strings_in(const char *func, const char *f, size_t len, int count, char ***out)
{
    char **v;

    *out = NULL;
    if (count < 0) {
        return MPI_SUCCESS; /* the C function reports the count */
    }
    /* Every command is given (no blank one ends the list). */
    v = calloc((size_t)count + 1, sizeof(*v));
    for (int i = 0; v != NULL && i < count; i++) {
        v[i] = fort_strdup(f + (size_t)i * len, len);
        if (v[i] == NULL) {
            fort_argv_free(v);
            v = NULL;
        }
    }
    if (v == NULL) {
        return fort_no_memory(func, "array_of_commands");
    }
    *out = v;
    return MPI_SUCCESS;
}

int fort_argvs_in(const char *func, const char *f, size_t len, int count, char ****out)
{
    char ***v;

    *out = NULL;
    if (f == mpi_fortran_argvs_null_ || count <= 0) {
        return MPI_SUCCESS;
    }
    v = calloc((size_t)count, sizeof(*v));
    if (v == NULL) {
        return fort_no_memory(func, "array_of_argv");
    }
    for (int i = 0; i < count; i++) {
        /* array_of_argv(i, j): column major, COUNT rows. */
        v[i] = fort_string_list(f + (size_t)i * len, len, (size_t)count * len, SIZE_MAX);
        if (v[i] == NULL) {
            fort_argvs_free(v, count);
            return fort_no_memory(func, "array_of_argv");
        }
    }
    *out = v;
    return MPI_SUCCESS;
}

void fort_argvs_free(char ***argvs, int count)
{
    if (argvs == NULL) {
        return;
    }
    for (int i = 0; i < count; i++) {
        fort_argv_free(argvs[i]);
    }
    free(argvs);
}

int fort_comm_peers(MPI_Comm comm)
{
    int inter = 0, n = 0;

    if (comm == MPI_COMM_NULL || MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) {
        return 0; /* the collective itself reports the communicator */
    }
    if ((inter ? MPI_Comm_remote_size(comm, &n) : MPI_Comm_size(comm, &n)) != MPI_SUCCESS) {
        return 0;
    }
    return n;
}

int fort_neighbor_count(MPI_Comm comm, bool send)
{
    int topo = MPI_UNDEFINED, n = 0, in = 0, out = 0, weighted, rank;

    if (comm == MPI_COMM_NULL || MPI_Topo_test(comm, &topo) != MPI_SUCCESS) {
        return 0;
    }
    switch (topo) {
    case MPI_CART:
        return MPI_Cartdim_get(comm, &n) == MPI_SUCCESS ? 2 * n : 0;
    case MPI_GRAPH:
        if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
            MPI_Graph_neighbors_count(comm, rank, &n) != MPI_SUCCESS) {
            return 0;
        }
        return n;
    case MPI_DIST_GRAPH:
        if (MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted) != MPI_SUCCESS) {
            return 0;
        }
        return send ? out : in;
    default:
        return 0; /* no topology: the collective reports it */
    }
}

bool fort_contiguous_slow(const char *func, const char *arg, const CFI_cdesc_t *d, MPI_Fint *ierror)
{
    size_t expect = d->elem_len;
    int rc;

    /* CFI_is_contiguous is libgfortran's: libcomm does not link it. */
    for (int i = 0; i < d->rank; i++) {
        if (d->dim[i].extent == 0) {
            return true;
        }
    }
    for (int i = 0; i < d->rank; i++) {
        if (d->dim[i].extent > 1 && (size_t)d->dim[i].sm != expect) {
            break;
        }
        expect *= (size_t)d->dim[i].extent;
        if (i == d->rank - 1) {
            return true;
        }
    }
    rc = comm_api_error(NULL, MPI_ERR_BUFFER,
                        "%s: %s is a non-contiguous array section; nonblocking and one-sided "
                        "calls need contiguous memory (MPI_SUBARRAYS_SUPPORTED is .false.)",
                        func, arg);
    if (ierror != NULL) {
        *ierror = rc;
    }
    return false;
}

/* MPI_PCONTROL(LEVEL): no IERROR. */
COMM_FORT_API void mpi_pcontrol_(const MPI_Fint *level);
void mpi_pcontrol_(const MPI_Fint *level)
{
    MPI_Pcontrol(*level);
}

/* MPI_F_SYNC_REG(buf): an opaque call, so the compiler cannot keep BUF in registers across it. */
COMM_FORT_API void mpi_f_sync_reg_(void *buf);
void mpi_f_sync_reg_(void *buf)
{
    (void)buf;
}

/* MPI_SIZEOF(x, size, ierror), generic in modules mpi and mpi_f08: the size of one element. */
COMM_FORT_API void mpi_sizeof_f08_(const CFI_cdesc_t *x, MPI_Fint *size, MPI_Fint *ierror);
void mpi_sizeof_f08_(const CFI_cdesc_t *x, MPI_Fint *size, MPI_Fint *ierror)
{
    *size = (MPI_Fint)x->elem_len;
    if (ierror != NULL) {
        *ierror = MPI_SUCCESS;
    }
}

/* ---- MPI_Comm_idup ------------------------------------------------------------------------ */

struct fort_idup {
    MPI_Fint request;  /* the Fortran index of the idup's request (the key) */
    MPI_Fint *newcomm; /* the Fortran variable to set */
    MPI_Comm comm;     /* where MPI_Comm_idup writes the communicator */
    struct fort_idup *next;
};

atomic_int fort_idups_pending;
static pthread_mutex_t fort_idups_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fort_idup *fort_idups; /* guarded by fort_idups_lock */

void fort_idup_done_slow(const MPI_Fint *f, const MPI_Request *c, int n, bool set)
{
    pthread_mutex_lock(&fort_idups_lock);
    for (int i = 0; i < n; i++) {
        if (c[i] != MPI_REQUEST_NULL || f[i] == MPI_Request_c2f(MPI_REQUEST_NULL)) {
            continue;
        }
        for (struct fort_idup **p = &fort_idups; *p != NULL; p = &(*p)->next) {
            struct fort_idup *d = *p;

            if (d->request == f[i]) {
                if (set) {
                    *d->newcomm = MPI_Comm_c2f(d->comm);
                }
                *p = d->next;
                free(d);
                atomic_fetch_sub_explicit(&fort_idups_pending, 1, memory_order_relaxed);
                break;
            }
        }
    }
    pthread_mutex_unlock(&fort_idups_lock);
}

/* MPI_COMM_IDUP(COMM, NEWCOMM, REQUEST, IERROR): NEWCOMM is set when REQUEST completes. */
COMM_FORT_API void mpi_comm_idup_(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request,
                                  MPI_Fint *ierror);
void mpi_comm_idup_(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request, MPI_Fint *ierror)
{
    struct fort_idup *d = malloc(sizeof(*d));
    MPI_Request r;
    int rc;

    if (d == NULL) {
        rc = fort_no_memory("MPI_Comm_idup", "newcomm");
        goto out;
    }
    d->comm = MPI_COMM_NULL;
    d->newcomm = newcomm;
    rc = MPI_Comm_idup(MPI_Comm_f2c(*comm), &d->comm, &r);
    if (rc != MPI_SUCCESS) {
        free(d);
        goto out;
    }
    *newcomm = MPI_Comm_c2f(MPI_COMM_NULL);
    d->request = MPI_Request_c2f(r);
    *request = d->request;
    pthread_mutex_lock(&fort_idups_lock);
    d->next = fort_idups;
    fort_idups = d;
    atomic_fetch_add_explicit(&fort_idups_pending, 1, memory_order_relaxed);
    pthread_mutex_unlock(&fort_idups_lock);
out:
    if (ierror != NULL) {
        *ierror = rc;
    }
}
