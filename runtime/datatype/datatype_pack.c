/*
 * datatype_pack.c - moving data through datatypes: the cursor, pack and unpack, and counting
 * basic elements.
 *
 * Layer: runtime core (datatype engine).  Must not: allocate, log, or build descriptions; it
 * only reads them, so any number of cursors may walk one type at once.
 *
 * A cursor is a stack of frames, one per node on the path from the top entry (COUNT elements
 * of the type) to the run being copied: each frame knows its entry and the instance of that
 * entry it is in.  Starting at a byte offset is a descent that divides by instance sizes and
 * binary-searches each node's packed prefix sums, so a fragment at any offset costs the depth
 * of the type, not its length.  Copies stay in one run as long as possible: the inner loop
 * copies every whole instance of a strided run that fits, with fixed-size copies for runs of
 * 1, 2, 4, 8 and 16 bytes and a memcpy per run otherwise, and whole instances of a node made
 * of runs only (an array of small structs) are copied by looping over the parent's instances,
 * without touching the frames.
 */
#include "config.h"

#include "runtime/datatype/datatype.h"
#include "base/error.h"

#include <string.h>

static inline const struct comm_dt_entry *dt_entry(const struct comm_dt_cursor *c, int level)
{
    const struct comm_dt_node *node = c->stack[level].node;

    return node != NULL ? &node->entries[c->stack[level].entry] : &c->top;
}

/* Address of the current instance of the entry of frame LEVEL. */
static inline char *dt_instance(const struct comm_dt_cursor *c, int level)
{
    const struct comm_dt_entry *e = dt_entry(c, level);

    return c->stack[level].origin + e->disp + c->stack[level].index * e->stride;
}

/* Pushes frames from the current entry down to a run, at the first instance of each node. */
static void dt_descend(struct comm_dt_cursor *c)
{
    for (;;) {
        const struct comm_dt_entry *e = dt_entry(c, c->depth - 1);

        if (e->child == NULL) {
            break;
        }
        c->stack[c->depth].origin = dt_instance(c, c->depth - 1);
        c->stack[c->depth].node = e->child;
        c->stack[c->depth].entry = 0;
        c->stack[c->depth].index = 0;
        c->depth++;
    }
    c->done = 0;
}

/* The run of the deepest frame is finished: moves to the next run, or to the end (depth 0). */
static void dt_advance(struct comm_dt_cursor *c)
{
    for (;;) {
        struct comm_dt_frame *f = &c->stack[c->depth - 1];

        if (f->node != NULL && f->entry + 1 < f->node->nentries) {
            f->entry++;
            f->index = 0;
            break;
        }
        if (--c->depth == 0) {
            return;
        }
        f = &c->stack[c->depth - 1];
        if (++f->index < dt_entry(c, c->depth - 1)->count) {
            break;
        }
    }
    dt_descend(c);
}

void comm_datatype_cursor_init(struct comm_dt_cursor *cursor, const struct comm_datatype *dt,
                               const void *buf, MPI_Count count, size_t offset)
{
    MPI_Count total, off = (MPI_Count)offset;

    cursor->dt = dt;
    cursor->remaining = 0;
    cursor->done = 0;
    cursor->depth = 0;
    if (count <= 0 || dt->size == 0 || __builtin_mul_overflow(count, dt->size, &total) ||
        offset >= (size_t)total) {
        return;
    }
    if (dt->contiguous) {
        cursor->top = (struct comm_dt_entry){.disp = dt->lb, .count = 1, .size = total};
    } else {
        cursor->top = (struct comm_dt_entry){
            .disp = 0, .count = count, .stride = dt->extent, .size = dt->size, .child = dt->desc};
        comm_dt_entry_simplify(&cursor->top);
    }
    cursor->remaining = (size_t)(total - off);
    /* The cursor writes through BUF when it unpacks; the const is the pack side's promise. */
    cursor->stack[0].origin = (char *)(uintptr_t)buf;
    cursor->stack[0].node = NULL;
    cursor->stack[0].entry = 0;
    cursor->depth = 1;
    for (;;) {
        struct comm_dt_frame *f = &cursor->stack[cursor->depth - 1];
        const struct comm_dt_entry *e = dt_entry(cursor, cursor->depth - 1);
        const struct comm_dt_node *node = e->child;
        MPI_Count lo = 0, hi;

        f->index = off / e->size;
        off %= e->size;
        if (node == NULL) {
            break;
        }
        /* the last entry whose packed prefix is at most OFF */
        hi = node->nentries - 1;
        while (lo < hi) {
            MPI_Count mid = lo + (hi - lo + 1) / 2;

            if (node->entries[mid].packed <= off) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        cursor->stack[cursor->depth].origin = dt_instance(cursor, cursor->depth - 1);
        cursor->stack[cursor->depth].node = node;
        cursor->stack[cursor->depth].entry = lo;
        cursor->depth++;
        off -= node->entries[lo].packed;
    }
    cursor->done = off;
}

size_t comm_datatype_cursor_next(struct comm_dt_cursor *cursor, void **ptr_out, size_t max)
{
    char *start = NULL;
    size_t total = 0;

    if (max > cursor->remaining) {
        max = cursor->remaining;
    }
    while (total < max) {
        struct comm_dt_frame *f = &cursor->stack[cursor->depth - 1];
        const struct comm_dt_entry *e = dt_entry(cursor, cursor->depth - 1);
        char *p = dt_instance(cursor, cursor->depth - 1) + cursor->done;
        size_t n = (size_t)(e->size - cursor->done);

        if (total > 0 && p != start + total) {
            break;
        }
        if (total == 0) {
            start = p;
        }
        n = n < max - total ? n : max - total;
        total += n;
        cursor->done += (MPI_Count)n;
        if (cursor->done == e->size) {
            cursor->done = 0;
            if (++f->index == e->count) {
                dt_advance(cursor);
            }
        }
    }
    cursor->remaining -= total;
    if (total > 0) {
        *ptr_out = start;
    }
    return total;
}

/* Copies K runs of SIZE bytes, STRIDE apart from MEM, to or from the packed STREAM. */
static inline void dt_copy_runs(char *mem, MPI_Aint stride, size_t size, MPI_Count k, char *stream,
                                bool unpack)
{
    switch (size) {
    case 1:
        for (MPI_Count i = 0; i < k; i++) {
            if (unpack) {
                mem[i * stride] = stream[i];
            } else {
                stream[i] = mem[i * stride];
            }
        }
        break;
    case 2:
        for (MPI_Count i = 0; i < k; i++) {
            if (unpack) {
                memcpy(mem + i * stride, stream + 2 * i, 2);
            } else {
                memcpy(stream + 2 * i, mem + i * stride, 2);
            }
        }
        break;
    case 4:
        for (MPI_Count i = 0; i < k; i++) {
            if (unpack) {
                memcpy(mem + i * stride, stream + 4 * i, 4);
            } else {
                memcpy(stream + 4 * i, mem + i * stride, 4);
            }
        }
        break;
    case 8:
        for (MPI_Count i = 0; i < k; i++) {
            if (unpack) {
                memcpy(mem + i * stride, stream + 8 * i, 8);
            } else {
                memcpy(stream + 8 * i, mem + i * stride, 8);
            }
        }
        break;
    case 16:
        for (MPI_Count i = 0; i < k; i++) {
            if (unpack) {
                memcpy(mem + i * stride, stream + 16 * i, 16);
            } else {
                memcpy(stream + 16 * i, mem + i * stride, 16);
            }
        }
        break;
    default:
        for (MPI_Count i = 0; i < k; i++) {
            if (unpack) {
                memcpy(mem + i * stride, stream + size * (size_t)i, size);
            } else {
                memcpy(stream + size * (size_t)i, mem + i * stride, size);
            }
        }
        break;
    }
}

static inline void dt_copy(char *mem, char *stream, size_t n, bool unpack)
{
    if (unpack) {
        memcpy(mem, stream, n);
    } else {
        memcpy(stream, mem, n);
    }
}

/*
 * The deepest node is a list of runs and the cursor is at the start of one of its instances:
 * copies as many whole instances as LEN holds, walking the parent's loop directly instead of
 * popping and pushing a frame per instance (arrays of small structs).  Returns the bytes.
 */
static inline __attribute__((always_inline)) size_t
dt_copy_instances(struct comm_dt_cursor *c, char *stream, size_t len, bool unpack)
{
    struct comm_dt_frame *f = &c->stack[c->depth - 1], *parent = &c->stack[c->depth - 2];
    const struct comm_dt_node *node = f->node;
    const struct comm_dt_entry *pe = dt_entry(c, c->depth - 2);
    size_t isize = (size_t)node->size;
    MPI_Count k = pe->count - parent->index;
    char *origin = f->origin;

    if ((size_t)k > len / isize) {
        k = (MPI_Count)(len / isize);
    }
    for (MPI_Count i = 0; i < k; i++, origin += pe->stride) {
        for (MPI_Count j = 0; j < node->nentries; j++) {
            const struct comm_dt_entry *e = &node->entries[j];

            dt_copy_runs(origin + e->disp, e->stride, (size_t)e->size, e->count, stream, unpack);
            stream += e->count * e->size;
        }
    }
    /* stand on the last run of the last instance copied, and step past it */
    parent->index += k - 1;
    f->entry = node->nentries - 1;
    f->index = node->entries[f->entry].count;
    dt_advance(c);
    return (size_t)k * isize;
}

/* Pack (UNPACK false) or unpack up to LEN bytes at the cursor; inlined into each direction so
 * the direction tests fold away. */
static inline __attribute__((always_inline)) size_t
dt_cursor_copy(struct comm_dt_cursor *c, char *stream, size_t len, bool unpack)
{
    size_t total = 0;

    if (len > c->remaining) {
        len = c->remaining;
    }
    while (len > 0) {
        struct comm_dt_frame *f = &c->stack[c->depth - 1];
        const struct comm_dt_entry *e;
        size_t size, n;
        char *p;
        MPI_Count index, k;

        if (c->depth > 1 && c->done == 0 && f->entry == 0 && f->index == 0 && f->node->depth == 1 &&
            len >= (size_t)f->node->size) {
            n = dt_copy_instances(c, stream, len, unpack);
            stream += n;
            len -= n;
            total += n;
            continue;
        }
        e = dt_entry(c, c->depth - 1);
        size = (size_t)e->size;
        p = dt_instance(c, c->depth - 1);
        index = f->index;
        if (c->done > 0 || len < size) {
            n = size - (size_t)c->done;
            n = n < len ? n : len;
            dt_copy(p + c->done, stream, n, unpack);
            stream += n;
            len -= n;
            total += n;
            c->done += (MPI_Count)n;
            if ((size_t)c->done < size) {
                break;
            }
            c->done = 0;
            index++;
            p += e->stride;
        }
        k = e->count - index;
        if ((size_t)k > len / size) {
            k = (MPI_Count)(len / size);
        }
        dt_copy_runs(p, e->stride, size, k, stream, unpack);
        n = (size_t)k * size;
        stream += n;
        len -= n;
        total += n;
        index += k;
        f->index = index;
        if (index == e->count) {
            dt_advance(c);
        }
    }
    c->remaining -= total;
    return total;
}

size_t comm_datatype_cursor_pack(struct comm_dt_cursor *cursor, void *out, size_t len)
{
    return dt_cursor_copy(cursor, out, len, false);
}

size_t comm_datatype_cursor_unpack(struct comm_dt_cursor *cursor, const void *in, size_t len)
{
    /* the stream is only read when unpacking */
    return dt_cursor_copy(cursor, (char *)(uintptr_t)in, len, true);
}

/* A contiguous type's COUNT elements are one block at BUF + lb: the bytes of its packed
 * stream from OFFSET, at most LEN of them, without a cursor (short blocks, such as the 8-byte
 * blocks of a small all-to-all, would spend more on setting one up than on the copy).  Returns
 * their address and sets *N_OUT to their length (0 past the end). */
static char *dt_contig_range(const struct comm_datatype *dt, const void *buf, MPI_Count count,
                             size_t offset, size_t len, size_t *n_out)
{
    MPI_Count total;

    *n_out = 0;
    if (count <= 0 || __builtin_mul_overflow(count, dt->size, &total) || offset >= (size_t)total) {
        return NULL;
    }
    *n_out = (size_t)total - offset < len ? (size_t)total - offset : len;
    return (char *)(uintptr_t)buf + dt->lb + offset;
}

size_t comm_datatype_pack(const struct comm_datatype *dt, const void *buf, MPI_Count count,
                          size_t offset, void *out, size_t len)
{
    struct comm_dt_cursor cursor;

    if (dt->contiguous) {
        size_t n;
        const char *from = dt_contig_range(dt, buf, count, offset, len, &n);

        if (n > 0) {
            memcpy(out, from, n);
        }
        return n;
    }

    comm_datatype_cursor_init(&cursor, dt, buf, count, offset);
    return dt_cursor_copy(&cursor, out, len, false);
}

size_t comm_datatype_unpack(const struct comm_datatype *dt, void *buf, MPI_Count count,
                            size_t offset, const void *in, size_t len)
{
    struct comm_dt_cursor cursor;

    if (dt->contiguous) {
        size_t n;
        char *to = dt_contig_range(dt, buf, count, offset, len, &n);

        if (n > 0) {
            memcpy(to, in, n);
        }
        return n;
    }

    comm_datatype_cursor_init(&cursor, dt, buf, count, offset);
    return dt_cursor_copy(&cursor, (char *)(uintptr_t)in, len, true);
}

/*
 * Basic elements in the first REM bytes (less than one element) of DT's packed data, walking
 * the constructor arguments: only a struct has parts of different types, every other
 * constructor is a sequence of its one old type.
 */
static int dt_partial_elements(const struct comm_datatype *dt, MPI_Count rem,
                               MPI_Count *elements_out)
{
    MPI_Count n = 0;

    while (rem > 0) {
        const struct comm_datatype *type;

        if (dt->predefined) {
            if (rem != dt->pair_first) {
                return COMM_ERR_BAD_PARAM;
            }
            n++;
            break;
        }
        type = comm_dt_object(dt->types[0]);
        if (dt->combiner == MPI_COMBINER_STRUCT) {
            for (int i = 0; i < dt->integers[0]; i++) {
                MPI_Count blocklength = dt->integers[1 + i];

                type = comm_dt_object(dt->types[i]);
                if (rem < blocklength * type->size) {
                    break;
                }
                n += blocklength * type->nelements;
                rem -= blocklength * type->size;
            }
            if (rem == 0) {
                break;
            }
        }
        n += rem / type->size * type->nelements;
        rem %= type->size;
        dt = type;
    }
    *elements_out = n;
    return COMM_OK;
}

int comm_datatype_count_elements(const struct comm_datatype *dt, size_t bytes,
                                 MPI_Count *elements_out)
{
    MPI_Count full, partial;
    int rc;

    if (dt->size == 0) {
        if (bytes > 0) {
            return COMM_ERR_BAD_PARAM;
        }
        *elements_out = 0;
        return COMM_OK;
    }
    full = (MPI_Count)(bytes / (size_t)dt->size);
    rc = dt_partial_elements(dt, (MPI_Count)(bytes % (size_t)dt->size), &partial);
    if (rc < 0) {
        return rc;
    }
    *elements_out = full * dt->nelements + partial;
    return COMM_OK;
}
