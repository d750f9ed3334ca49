/*
 * datatype_desc.c - the compact description of datatypes: building nodes, merging loops,
 * bounding the depth.
 *
 * Layer: runtime core (datatype engine).  Must not: know about handles, contents or the MPI
 * API; allocate anything but nodes; log anything but what stops a description from being built.
 *
 * Every rule here rewrites a piece of description into an equivalent one (the same bytes in the
 * same order), so the constructors can feed entries naively and still get merged loops:
 * - a loop of one instance has no stride; a loop of touching runs is one run;
 * - a loop over a node of one loop becomes one loop when the strides line up;
 * - a node placed once is inlined into its parent when it is small;
 * - consecutive entries merge when they touch (runs) or continue a regular pattern (vectors).
 * A description deeper than a cursor can follow is flattened into one level of runs.
 */
#include "config.h"

#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "base/log.h"

#include <stdlib.h>
#include <string.h>

/* Nodes of up to this many entries placed once are copied into their parent. */
enum { DT_INLINE_MAX = 256 };
/* Deepest description a cursor follows: one frame goes to the top entry. */
enum { DT_MAX_DEPTH = COMM_DT_CURSOR_DEPTH - 1 };
/* Most entries a flattened description may have. */
enum { DT_FLATTEN_MAX = 1 << 22 };

void comm_dt_node_retain(struct comm_dt_node *node)
{
    if (node != NULL && node->refcount >= 0) {
        __atomic_add_fetch(&node->refcount, 1, __ATOMIC_RELAXED);
    }
}

void comm_dt_node_release(struct comm_dt_node *node)
{
    if (node == NULL || node->refcount < 0) {
        return;
    }
    if (__atomic_sub_fetch(&node->refcount, 1, __ATOMIC_ACQ_REL) != 0) {
        return;
    }
    for (MPI_Count i = 0; i < node->nentries; i++) {
        comm_dt_node_release(node->entries[i].child);
    }
    free(node->entries);
    free(node);
}

void comm_dt_entry_simplify(struct comm_dt_entry *e)
{
    for (;;) {
        const struct comm_dt_entry *ce;
        MPI_Aint disp, step;
        MPI_Count count;

        if (e->count == 1) {
            e->stride = 0;
        }
        if (e->child == NULL) {
            if (e->count > 1 && e->stride == e->size &&
                !__builtin_mul_overflow(e->size, e->count, &count)) {
                e->size = count;
                e->count = 1;
                e->stride = 0;
            }
            return;
        }
        if (e->child->nentries != 1) {
            return;
        }
        ce = &e->child->entries[0];
        if (__builtin_add_overflow(e->disp, ce->disp, &disp)) {
            return;
        }
        if (e->count == 1) {
            e->count = ce->count;
            e->stride = ce->stride;
        } else if (ce->count == 1) {
            /* count and stride stay: each instance is the one loop, shifted */
        } else if (!__builtin_mul_overflow(ce->count, ce->stride, &step) && step == e->stride &&
                   !__builtin_mul_overflow(e->count, ce->count, &count)) {
            e->count = count;
            e->stride = ce->stride;
        } else {
            return;
        }
        e->disp = disp;
        e->size = ce->size;
        e->child = ce->child;
    }
}

void comm_dt_builder_init(struct comm_dt_builder *b)
{
    b->entries = NULL;
    b->n = 0;
    b->cap = 0;
    b->status = COMM_OK;
}

/* Merges NEXT into PREV when together they are one entry; false when they are not. */
static bool dt_entry_merge(struct comm_dt_entry *prev, const struct comm_dt_entry *next)
{
    MPI_Aint end, step;
    MPI_Count sum;

    if (prev->child != next->child) {
        return false;
    }
    if (prev->child == NULL && prev->count == 1 && next->count == 1 &&
        !__builtin_add_overflow(prev->disp, prev->size, &end) && end == next->disp &&
        !__builtin_add_overflow(prev->size, next->size, &sum)) {
        prev->size = sum; /* touching runs */
        return true;
    }
    if (prev->size != next->size) {
        return false;
    }
    if (prev->count == 1 && next->count == 1) {
        if (__builtin_sub_overflow(next->disp, prev->disp, &step)) {
            return false;
        }
        prev->count = 2;
        prev->stride = step;
        return true;
    }
    if (prev->count == 1) {
        /* a single instance just before a loop of the same stride */
        if (__builtin_sub_overflow(next->disp, next->stride, &step) || step != prev->disp ||
            __builtin_add_overflow(next->count, 1, &sum)) {
            return false;
        }
        prev->count = sum;
        prev->stride = next->stride;
        return true;
    }
    if ((next->count > 1 && next->stride != prev->stride) ||
        __builtin_mul_overflow(prev->count, prev->stride, &step) ||
        __builtin_add_overflow(prev->disp, step, &end) || end != next->disp ||
        __builtin_add_overflow(prev->count, next->count, &sum)) {
        return false;
    }
    prev->count = sum;
    return true;
}

static void dt_builder_append(struct comm_dt_builder *b, const struct comm_dt_entry *e)
{
    if (b->n == b->cap) {
        MPI_Count cap = b->cap == 0 ? 4 : 2 * b->cap;
        struct comm_dt_entry *entries = realloc(b->entries, (size_t)cap * sizeof(*entries));

        if (entries == NULL) {
            comm_log_error("datatype", "out of memory for a description of %lld entries",
                           (long long)cap);
            b->status = COMM_ERR_NOMEM;
            return;
        }
        b->entries = entries;
        b->cap = cap;
    }
    b->entries[b->n] = *e;
    b->entries[b->n].packed = 0;
    comm_dt_node_retain(e->child);
    b->n++;
}

void comm_dt_builder_add(struct comm_dt_builder *b, MPI_Aint disp, MPI_Count count, MPI_Aint stride,
                         MPI_Count size, struct comm_dt_node *child)
{
    struct comm_dt_entry e = {
        .disp = disp, .count = count, .stride = stride, .size = size, .child = child};

    if (b->status < 0 || count <= 0 || size <= 0) {
        return;
    }
    comm_dt_entry_simplify(&e);
    if (e.child != NULL && e.count == 1 && e.child->nentries <= DT_INLINE_MAX) {
        const struct comm_dt_node *c = e.child;

        for (MPI_Count i = 0; i < c->nentries && b->status >= 0; i++) {
            const struct comm_dt_entry *ce = &c->entries[i];
            MPI_Aint d;

            if (__builtin_add_overflow(e.disp, ce->disp, &d)) {
                b->status = COMM_ERR_BAD_PARAM;
                return;
            }
            comm_dt_builder_add(b, d, ce->count, ce->stride, ce->size, ce->child);
        }
        return;
    }
    if (b->n > 0 && dt_entry_merge(&b->entries[b->n - 1], &e)) {
        comm_dt_entry_simplify(&b->entries[b->n - 1]);
        /* the grown entry may now continue the one before it */
        while (b->n > 1 && dt_entry_merge(&b->entries[b->n - 2], &b->entries[b->n - 1])) {
            comm_dt_node_release(b->entries[b->n - 1].child);
            b->n--;
            comm_dt_entry_simplify(&b->entries[b->n - 1]);
        }
        return;
    }
    dt_builder_append(b, &e);
}

static void dt_builder_discard(struct comm_dt_builder *b)
{
    for (MPI_Count i = 0; i < b->n; i++) {
        comm_dt_node_release(b->entries[i].child);
    }
    free(b->entries);
    comm_dt_builder_init(b);
}

/* Adds every run of one instance of NODE at BASE to B, expanding the loops over nodes. */
static void dt_flatten_into(struct comm_dt_builder *b, const struct comm_dt_node *node,
                            MPI_Aint base)
{
    for (MPI_Count i = 0; i < node->nentries && b->status >= 0; i++) {
        const struct comm_dt_entry *e = &node->entries[i];
        MPI_Aint d = base + e->disp; /* within the node's checked bounds */

        if (e->child == NULL) {
            comm_dt_builder_add(b, d, e->count, e->stride, e->size, NULL);
            continue;
        }
        for (MPI_Count j = 0; j < e->count && b->status >= 0; j++) {
            if (b->n > DT_FLATTEN_MAX) {
                comm_log_error("datatype",
                               "a datatype nested deeper than %d loops needs more "
                               "than %d runs once flattened",
                               DT_MAX_DEPTH, DT_FLATTEN_MAX);
                b->status = COMM_ERR_NOT_SUPPORTED;
                return;
            }
            dt_flatten_into(b, e->child, d + j * e->stride);
        }
    }
}

/* Fills the derived fields of a node from its entries; COMM_ERR_BAD_PARAM on overflow. */
static int dt_node_summarize(struct comm_dt_node *node)
{
    MPI_Count packed = 0;
    MPI_Aint lo = 0, hi = 0;
    int depth = 0;

    for (MPI_Count i = 0; i < node->nentries; i++) {
        struct comm_dt_entry *e = &node->entries[i];
        MPI_Aint elo = 0, ehi = e->size, span;
        MPI_Count bytes;

        if (e->child != NULL) {
            elo = e->child->lo;
            ehi = e->child->hi;
            depth = e->child->depth > depth ? e->child->depth : depth;
        }
        e->packed = packed;
        if (__builtin_mul_overflow(e->count, e->size, &bytes) ||
            __builtin_add_overflow(packed, bytes, &packed) ||
            __builtin_mul_overflow(e->count - 1, e->stride, &span) ||
            __builtin_add_overflow(elo, e->disp, &elo) ||
            __builtin_add_overflow(ehi, e->disp, &ehi) ||
            __builtin_add_overflow(elo, span < 0 ? span : 0, &elo) ||
            __builtin_add_overflow(ehi, span > 0 ? span : 0, &ehi)) {
            return COMM_ERR_BAD_PARAM;
        }
        lo = (i == 0 || elo < lo) ? elo : lo;
        hi = (i == 0 || ehi > hi) ? ehi : hi;
    }
    node->size = packed;
    node->lo = lo;
    node->hi = hi;
    node->depth = depth + 1;
    return COMM_OK;
}

int comm_dt_builder_finish(struct comm_dt_builder *b, struct comm_dt_node **node_out)
{
    struct comm_dt_node *node = NULL;
    struct comm_dt_entry *entries;
    int rc = b->status;

    if (rc < 0 || b->n == 0) {
        goto out_discard;
    }
    node = malloc(sizeof(*node));
    if (node == NULL) {
        comm_log_error("datatype", "out of memory for a description node");
        rc = COMM_ERR_NOMEM;
        goto out_discard;
    }
    /* the node takes the builder's entries, trimmed to size */
    entries = realloc(b->entries, (size_t)b->n * sizeof(*entries));
    node->refcount = 1;
    node->entries = entries != NULL ? entries : b->entries;
    node->nentries = b->n;
    comm_dt_builder_init(b);
    rc = dt_node_summarize(node);
    if (rc == COMM_OK && node->depth > DT_MAX_DEPTH) {
        struct comm_dt_builder flat;

        comm_dt_builder_init(&flat);
        dt_flatten_into(&flat, node, 0);
        comm_dt_node_release(node);
        node = NULL;
        rc = comm_dt_builder_finish(&flat, &node);
    }
    if (rc < 0) {
        comm_dt_node_release(node);
        return rc;
    }
    *node_out = node;
    return COMM_OK;

out_discard:
    dt_builder_discard(b);
    if (rc == COMM_OK) {
        *node_out = NULL; /* no data */
    }
    return rc;
}
