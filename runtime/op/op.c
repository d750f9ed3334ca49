/*
 * op.c - reduction op objects (the predefined table, user ops, handle lookup, references) and
 * the dispatch of a reduction over a datatype's layout.
 *
 * Layer: runtime core (reduction engine).  Must not: check MPI arguments or report errors to
 * the user (api/api_op.c does); contain typed loops (op_kernels.c does); allocate while
 * reducing.
 *
 * A reduction feeds the loops of op_kernels.c contiguous arrays: a dense buffer goes to the
 * loop in one call; a non-contiguous type is walked with a datatype cursor over INOUT, and
 * each contiguous piece is reduced with the piece at the same offset in IN (both buffers have
 * the same layout).  Pieces that are not aligned for their C type, and the pair types whose
 * C struct has padding (MPI_DOUBLE_INT) inside a derived type, go through small aligned
 * buffers on the stack, so no loop ever reads a misaligned element.  The last element of a
 * padded pair type is reduced in such a buffer too, and only its data bytes are copied: a
 * buffer may end where that element's data ends (its true extent), before its padding.
 */
#include "config.h"

#include "runtime/op/op.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "base/log.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_HANDLE_FIRST = 0x141,  /* MPI_MAX */
    OP_HANDLE_SMALL = 0x1000, /* below: constants, never the address of a user op */
    OP_BOUNCE_BYTES = 2048,   /* each of the two aligned stack buffers */
};

#define OP_PREDEFINED(name, idx)                                                                   \
    [idx] = {.handle = name, .predefined = true, .commutative = true, .index = idx}

static struct comm_op op_predefined[COMM_OP_NPREDEFINED] = {
    OP_PREDEFINED(MPI_MAX, COMM_OP_MAX),         OP_PREDEFINED(MPI_MIN, COMM_OP_MIN),
    OP_PREDEFINED(MPI_SUM, COMM_OP_SUM),         OP_PREDEFINED(MPI_PROD, COMM_OP_PROD),
    OP_PREDEFINED(MPI_LAND, COMM_OP_LAND),       OP_PREDEFINED(MPI_BAND, COMM_OP_BAND),
    OP_PREDEFINED(MPI_LOR, COMM_OP_LOR),         OP_PREDEFINED(MPI_BOR, COMM_OP_BOR),
    OP_PREDEFINED(MPI_LXOR, COMM_OP_LXOR),       OP_PREDEFINED(MPI_BXOR, COMM_OP_BXOR),
    OP_PREDEFINED(MPI_MAXLOC, COMM_OP_MAXLOC),   OP_PREDEFINED(MPI_MINLOC, COMM_OP_MINLOC),
    OP_PREDEFINED(MPI_REPLACE, COMM_OP_REPLACE), OP_PREDEFINED(MPI_NO_OP, COMM_OP_NO_OP),
};

static const char *const op_names[COMM_OP_NPREDEFINED] = {
    [COMM_OP_MAX] = "MPI_MAX",         [COMM_OP_MIN] = "MPI_MIN",
    [COMM_OP_SUM] = "MPI_SUM",         [COMM_OP_PROD] = "MPI_PROD",
    [COMM_OP_LAND] = "MPI_LAND",       [COMM_OP_BAND] = "MPI_BAND",
    [COMM_OP_LOR] = "MPI_LOR",         [COMM_OP_BOR] = "MPI_BOR",
    [COMM_OP_LXOR] = "MPI_LXOR",       [COMM_OP_BXOR] = "MPI_BXOR",
    [COMM_OP_MAXLOC] = "MPI_MAXLOC",   [COMM_OP_MINLOC] = "MPI_MINLOC",
    [COMM_OP_REPLACE] = "MPI_REPLACE", [COMM_OP_NO_OP] = "MPI_NO_OP",
};

/* Live user ops (not yet freed by the user): a list, as programs create few ops. */
static pthread_mutex_t op_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct comm_op *op_registry;

struct comm_op *comm_op_lookup(MPI_Op handle)
{
    uintptr_t h = (uintptr_t)handle;
    struct comm_op *found = NULL;

    if (h >= OP_HANDLE_FIRST && h < OP_HANDLE_FIRST + COMM_OP_NPREDEFINED) {
        return &op_predefined[h - OP_HANDLE_FIRST];
    }
    if (h < OP_HANDLE_SMALL) {
        return NULL;
    }
    pthread_mutex_lock(&op_registry_lock);
    for (struct comm_op *op = op_registry; op != NULL; op = op->next) {
        if (op == handle) {
            found = op;
            break;
        }
    }
    pthread_mutex_unlock(&op_registry_lock);
    return found;
}

void comm_op_retain(struct comm_op *op)
{
    if (op != NULL && !op->predefined) {
        __atomic_add_fetch(&op->refcount, 1, __ATOMIC_RELAXED);
    }
}

void comm_op_release(struct comm_op *op)
{
    if (op == NULL || op->predefined) {
        return;
    }
    if (__atomic_sub_fetch(&op->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        free(op->invoke_data);
        free(op);
    }
}

/* A user op calling USER_FN, or INVOKE with INVOKE_DATA (owned from here on). */
static int op_create(MPI_User_function *user_fn, comm_op_invoke_fn *invoke, void *invoke_data,
                     bool commutative, struct comm_op **op_out)
{
    struct comm_op *op = calloc(1, sizeof(*op));

    if (op == NULL) {
        comm_log_error("op", "out of memory for a new reduction operation");
        free(invoke_data);
        return COMM_ERR_NOMEM;
    }
    op->handle = op;
    op->commutative = commutative;
    op->refcount = 1;
    op->user_fn = user_fn;
    op->invoke = invoke;
    op->invoke_data = invoke_data;
    op->index = COMM_OP_USER;
    pthread_mutex_lock(&op_registry_lock);
    op->next = op_registry;
    op_registry = op;
    pthread_mutex_unlock(&op_registry_lock);
    *op_out = op;
    return COMM_OK;
}

int comm_op_create(MPI_User_function *user_fn, bool commutative, struct comm_op **op_out)
{
    return op_create(user_fn, NULL, NULL, commutative, op_out);
}

int comm_op_create_invoked(comm_op_invoke_fn *invoke, void *invoke_data, bool commutative,
                           struct comm_op **op_out)
{
    return op_create(NULL, invoke, invoke_data, commutative, op_out);
}

int comm_op_free(struct comm_op *op)
{
    int rc = COMM_ERR_BAD_PARAM;

    if (op->predefined) {
        return COMM_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&op_registry_lock);
    for (struct comm_op **link = &op_registry; *link != NULL; link = &(*link)->next) {
        if (*link == op) {
            *link = op->next;
            op->next = NULL;
            op->user_freed = true;
            rc = COMM_OK;
            break;
        }
    }
    pthread_mutex_unlock(&op_registry_lock);
    if (rc == COMM_OK) {
        comm_op_release(op);
    }
    return rc;
}

const char *comm_op_name(const struct comm_op *op)
{
    if (op->predefined && op->index >= 0 && op->index < COMM_OP_NPREDEFINED) {
        return op_names[op->index];
    }
    return "user-defined op";
}

bool comm_op_accepts(const struct comm_op *op, const struct comm_datatype *dt)
{
    struct comm_op_kernel kernel;

    if (!op->predefined || op->index == COMM_OP_REPLACE || op->index == COMM_OP_NO_OP) {
        return true;
    }
    if (dt->basic == MPI_DATATYPE_NULL) {
        return false;
    }
    return comm_op_kernel_find(op->index, dt->basic, &kernel) == COMM_OK;
}

/* The address OFFSET bytes from BASE (MPI_BOTTOM is NULL: never do arithmetic on a null
 * pointer). */
static inline uintptr_t op_addr(const void *base, MPI_Aint offset)
{
    return (uintptr_t)base + (uintptr_t)offset;
}

/* Runs KERNEL over N units at IN and INOUT, through aligned buffers if either is misaligned. */
static void op_apply(const struct comm_op_kernel *kernel, uintptr_t in, uintptr_t inout, size_t n)
{
    _Alignas(64) unsigned char tmp_in[OP_BOUNCE_BYTES];
    _Alignas(64) unsigned char tmp_io[OP_BOUNCE_BYTES];
    size_t chunk = OP_BOUNCE_BYTES / kernel->unit;

    if (in % kernel->align == 0 && inout % kernel->align == 0) {
        kernel->fn((const void *)in, (void *)inout, n);
        return;
    }
    while (n > 0) {
        size_t k = n < chunk ? n : chunk, bytes = k * kernel->unit;

        memcpy(tmp_in, (const void *)in, bytes);
        memcpy(tmp_io, (void *)inout, bytes);
        kernel->fn(tmp_in, tmp_io, k);
        memcpy((void *)inout, tmp_io, bytes);
        in += bytes;
        inout += bytes;
        n -= k;
    }
}

/*
 * Runs KERNEL on the one padded pair at IN and INOUT whose data ends DATA bytes in (its true
 * extent): the buffers may end there, before the struct's trailing padding, so the pair is
 * reduced in copies on the stack and only its DATA bytes are read and written.
 */
static void op_apply_last_padded(const struct comm_op_kernel *kernel, size_t data, uintptr_t in,
                                 uintptr_t inout)
{
    _Alignas(64) unsigned char tmp_in[64];
    _Alignas(64) unsigned char tmp_io[64];

    if (kernel->unit > sizeof(tmp_in) || data > kernel->unit) {
        /* no pair type is that large: the whole struct, as before */
        op_apply(kernel, in, inout, 1);
        return;
    }
    memcpy(tmp_in, (const void *)in, data);
    memcpy(tmp_io, (void *)inout, data);
    kernel->fn(tmp_in, tmp_io, 1);
    memcpy((void *)inout, tmp_io, data);
}

/*
 * A derived type built on a pair type whose C struct has padding: its packed elements are
 * (value, index) members that the cursor yields one at a time.  Gathers up to a bufferful of
 * pairs into C structs, reduces them, and scatters the results back with a copy of the cursor
 * taken before the gather.
 */
static int op_reduce_padded_pairs(const struct comm_op_kernel *kernel,
                                  const struct comm_datatype *pair, const void *in, void *inout,
                                  MPI_Count count, const struct comm_datatype *dt)
{
    _Alignas(64) unsigned char tmp_in[OP_BOUNCE_BYTES];
    _Alignas(64) unsigned char tmp_io[OP_BOUNCE_BYTES];
    size_t first = (size_t)pair->pair_first, second = (size_t)(pair->size - pair->pair_first);
    /* one run when the padding is only at the end (MPI_DOUBLE_INT), two otherwise */
    size_t second_offset = pair->desc->nentries > 1 ? (size_t)pair->desc->entries[1].disp : first;
    size_t chunk = OP_BOUNCE_BYTES / kernel->unit;
    struct comm_dt_cursor cursor, saved;

    comm_datatype_cursor_init(&cursor, dt, inout, count, 0);
    for (;;) {
        size_t n = 0;

        saved = cursor;
        while (n < chunk) {
            unsigned char *slot_in = tmp_in + n * kernel->unit;
            unsigned char *slot_io = tmp_io + n * kernel->unit;
            void *a, *b;

            if (comm_datatype_cursor_next(&cursor, &a, first) != first) {
                break;
            }
            if (comm_datatype_cursor_next(&cursor, &b, second) != second) {
                comm_log_error("op", "the layout of %s breaks a pair element", dt->name);
                return COMM_ERR_INTERNAL;
            }
            memcpy(slot_io, a, first);
            memcpy(slot_io + second_offset, b, second);
            memcpy(slot_in, (const void *)op_addr(in, (MPI_Aint)((uintptr_t)a - (uintptr_t)inout)),
                   first);
            memcpy(slot_in + second_offset,
                   (const void *)op_addr(in, (MPI_Aint)((uintptr_t)b - (uintptr_t)inout)), second);
            n++;
        }
        if (n == 0) {
            return COMM_OK;
        }
        kernel->fn(tmp_in, tmp_io, n);
        for (size_t i = 0; i < n; i++) {
            void *a, *b;

            comm_datatype_cursor_next(&saved, &a, first);
            comm_datatype_cursor_next(&saved, &b, second);
            memcpy(a, tmp_io + i * kernel->unit, first);
            memcpy(b, tmp_io + i * kernel->unit + second_offset, second);
        }
    }
}

/* MPI_REPLACE: copies the data bytes of IN over INOUT. */
static void op_replace(const void *in, void *inout, MPI_Count count, const struct comm_datatype *dt)
{
    struct comm_dt_cursor cursor;
    void *piece;
    size_t len;

    if (dt->contiguous) {
        memmove((void *)op_addr(inout, dt->lb), (const void *)op_addr(in, dt->lb),
                (size_t)(count * dt->size));
        return;
    }
    comm_datatype_cursor_init(&cursor, dt, inout, count, 0);
    while ((len = comm_datatype_cursor_next(&cursor, &piece, SIZE_MAX)) > 0) {
        uintptr_t offset = (uintptr_t)piece - (uintptr_t)inout;

        memmove(piece, (const void *)((uintptr_t)in + offset), len);
    }
}

/* A user function, called with the user's datatype, at most INT_MAX elements at a time (through
 * its invoke function if it has another calling convention). */
static void op_reduce_user(const struct comm_op *op, const void *in, void *inout, MPI_Count count,
                           const struct comm_datatype *dt)
{
    uintptr_t pin = (uintptr_t)in, pio = (uintptr_t)inout;

    while (count > 0) {
        int chunk = count > INT_MAX ? INT_MAX : (int)count;
        int len = chunk; /* the function may write it */
        MPI_Datatype handle = dt->handle;

        if (op->invoke == NULL) {
            op->user_fn((void *)pin, (void *)pio, &len, &handle);
        } else {
            op->invoke(op->invoke_data, (void *)pin, (void *)pio, &len, &handle);
        }
        pin += (uintptr_t)((MPI_Aint)chunk * dt->extent);
        pio += (uintptr_t)((MPI_Aint)chunk * dt->extent);
        count -= chunk;
    }
}

int comm_op_reduce(const struct comm_op *op, const void *in, void *inout, MPI_Count count,
                   const struct comm_datatype *dt)
{
    struct comm_op_kernel kernel;
    const struct comm_datatype *basic;
    struct comm_dt_cursor cursor;
    MPI_Count bytes;
    void *piece;
    size_t len;

    if (count < 0 || __builtin_mul_overflow(count, dt->size, &bytes)) {
        return COMM_ERR_BAD_PARAM;
    }
    if (count == 0 || dt->size == 0) {
        return COMM_OK;
    }
    if (!op->predefined) {
        op_reduce_user(op, in, inout, count, dt);
        return COMM_OK;
    }
    if (op->index == COMM_OP_NO_OP) {
        return COMM_OK;
    }
    if (op->index == COMM_OP_REPLACE) {
        op_replace(in, inout, count, dt);
        return COMM_OK;
    }
    if (dt->basic == MPI_DATATYPE_NULL ||
        comm_op_kernel_find(op->index, dt->basic, &kernel) != COMM_OK) {
        return COMM_ERR_BAD_PARAM;
    }
    basic = comm_datatype_lookup(dt->basic);
    if (basic == NULL) {
        return COMM_ERR_BAD_PARAM;
    }
    if ((size_t)basic->size == kernel.unit && dt->contiguous) {
        /* dense: the packed stream is the C array */
        op_apply(&kernel, op_addr(in, dt->lb), op_addr(inout, dt->lb), (size_t)bytes / kernel.unit);
        return COMM_OK;
    }
    if (dt == basic) {
        /* a predefined pair with padding: COUNT C structs, the last one cut at its data */
        op_apply(&kernel, (uintptr_t)in, (uintptr_t)inout, (size_t)count - 1);
        op_apply_last_padded(&kernel, (size_t)dt->true_extent,
                             op_addr(in, (MPI_Aint)(count - 1) * dt->extent),
                             op_addr(inout, (MPI_Aint)(count - 1) * dt->extent));
        return COMM_OK;
    }
    if ((size_t)basic->size != kernel.unit) {
        return op_reduce_padded_pairs(&kernel, basic, in, inout, count, dt);
    }
    /* Pieces hold whole units: a basic element (or unpadded pair) is never split in memory. */
    comm_datatype_cursor_init(&cursor, dt, inout, count, 0);
    while ((len = comm_datatype_cursor_next(&cursor, &piece, SIZE_MAX)) > 0) {
        uintptr_t offset = (uintptr_t)piece - (uintptr_t)inout;

        op_apply(&kernel, (uintptr_t)in + offset, (uintptr_t)piece, len / kernel.unit);
    }
    return COMM_OK;
}
