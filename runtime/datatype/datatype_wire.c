/*
 * datatype_wire.c - a datatype as bytes, for a peer that must lay data out by a type it has
 * never seen: the target of a one-sided operation, which places data by the origin's
 * description of the target type.
 *
 * Layer: runtime core (datatype).  Must not: trust what it reads (a peer sent it: every count,
 * size and child index is checked before use).
 *
 * Form: a head (the type's sizes and bounds), then its description's nodes, children before
 * the nodes that use them, each as its counts and its entries; an entry names its child by
 * the child's position in the list (-1: none).  A node shared by several entries is written
 * once per use; descriptions are shallow, so this stays small.  Both ends run the same build
 * on the same kind of machine (the job's hosts share a byte order and type sizes).
 */
#include "config.h"

#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "base/log.h"

#include <stdlib.h>
#include <string.h>

enum { WIRE_MAGIC = 0x64747770, WIRE_MAX_NODES = 4096 };

struct wire_head {
    uint32_t magic;
    uint32_t nnodes;
    int64_t size, lb, extent, true_lb, true_extent, nelements, pair_first;
    uint64_t basic;
    uint8_t contiguous, has_bounds, pad[6];
};

struct wire_node {
    int64_t nentries, size, lo, hi;
    int32_t depth, pad;
};

struct wire_entry {
    int64_t disp, count, stride, size, packed;
    int32_t child, pad;
};

/* Bytes of NODE's subtree; the number of nodes in *NODES. */
static size_t wire_node_bytes(const struct comm_dt_node *node, uint32_t *nodes)
{
    size_t n = sizeof(struct wire_node) + (size_t)node->nentries * sizeof(struct wire_entry);

    (*nodes)++;
    for (MPI_Count i = 0; i < node->nentries; i++) {
        if (node->entries[i].child != NULL) {
            n += wire_node_bytes(node->entries[i].child, nodes);
        }
    }
    return n;
}

size_t comm_datatype_wire_size(const struct comm_datatype *dt)
{
    uint32_t nodes = 0;

    return sizeof(struct wire_head) + (dt->desc != NULL ? wire_node_bytes(dt->desc, &nodes) : 0);
}

/* Writes NODE's subtree at *POS (children first); returns its index. */
static int32_t wire_write_node(const struct comm_dt_node *node, char *out, size_t *pos,
                               int32_t *next)
{
    int32_t *child = malloc((size_t)node->nentries * sizeof(*child));
    struct wire_node wn = {.nentries = node->nentries,
                           .size = node->size,
                           .lo = node->lo,
                           .hi = node->hi,
                           .depth = node->depth};
    int32_t me;

    if (child == NULL) {
        return -2;
    }
    for (MPI_Count i = 0; i < node->nentries; i++) {
        child[i] = -1;
        if (node->entries[i].child != NULL) {
            child[i] = wire_write_node(node->entries[i].child, out, pos, next);
            if (child[i] < -1) {
                free(child);
                return -2;
            }
        }
    }
    me = (*next)++;
    memcpy(out + *pos, &wn, sizeof(wn));
    *pos += sizeof(wn);
    for (MPI_Count i = 0; i < node->nentries; i++) {
        const struct comm_dt_entry *e = &node->entries[i];
        struct wire_entry we = {.disp = e->disp,
                                .count = e->count,
                                .stride = e->stride,
                                .size = e->size,
                                .packed = e->packed,
                                .child = child[i]};

        memcpy(out + *pos, &we, sizeof(we));
        *pos += sizeof(we);
    }
    free(child);
    return me;
}

int comm_datatype_wire_write(const struct comm_datatype *dt, void *out, size_t len)
{
    struct wire_head h = {.magic = WIRE_MAGIC,
                          .size = dt->size,
                          .lb = dt->lb,
                          .extent = dt->extent,
                          .true_lb = dt->true_lb,
                          .true_extent = dt->true_extent,
                          .nelements = dt->nelements,
                          .pair_first = dt->pair_first,
                          .basic = (uint64_t)(uintptr_t)dt->basic,
                          .contiguous = dt->contiguous,
                          .has_bounds = dt->has_bounds};
    size_t pos = sizeof(h);
    int32_t next = 0;

    if (len < comm_datatype_wire_size(dt)) {
        return COMM_ERR_BAD_PARAM;
    }
    if (dt->desc != NULL) {
        (void)wire_node_bytes(dt->desc, &h.nnodes);
        if (wire_write_node(dt->desc, out, &pos, &next) < 0) {
            return COMM_ERR_NOMEM;
        }
    }
    memcpy(out, &h, sizeof(h));
    return COMM_OK;
}

static int wire_bad(const char *what)
{
    comm_log_error("datatype", "a peer's datatype description is malformed (%s)", what);
    return COMM_ERR_BAD_PARAM;
}

/* Reads the nodes at IN + *POS into NODES (children before parents). */
static int wire_read_nodes(const char *in, size_t len, size_t *pos, uint32_t nnodes,
                           struct comm_dt_node **nodes)
{
    for (uint32_t k = 0; k < nnodes; k++) {
        struct wire_node wn;
        struct comm_dt_node *node;

        if (len - *pos < sizeof(wn)) {
            return wire_bad("truncated node");
        }
        memcpy(&wn, in + *pos, sizeof(wn));
        *pos += sizeof(wn);
        if (wn.nentries <= 0 || (uint64_t)wn.nentries > (len - *pos) / sizeof(struct wire_entry)) {
            return wire_bad("entry count");
        }
        node = calloc(1, sizeof(*node));
        if (node != NULL) {
            node->entries = calloc((size_t)wn.nentries, sizeof(*node->entries));
        }
        if (node == NULL || node->entries == NULL) {
            free(node);
            return COMM_ERR_NOMEM;
        }
        node->refcount = 1;
        node->depth = wn.depth;
        node->size = wn.size;
        node->lo = wn.lo;
        node->hi = wn.hi;
        node->nentries = wn.nentries;
        nodes[k] = node;
        for (MPI_Count i = 0; i < wn.nentries; i++) {
            struct wire_entry we;
            struct comm_dt_entry *e = &node->entries[i];

            memcpy(&we, in + *pos, sizeof(we));
            *pos += sizeof(we);
            if (we.child >= (int32_t)k || we.child < -1 || we.count < 1 || we.size < 1) {
                return wire_bad("entry");
            }
            *e = (struct comm_dt_entry){.disp = we.disp,
                                        .count = we.count,
                                        .stride = we.stride,
                                        .size = we.size,
                                        .packed = we.packed,
                                        .child = we.child >= 0 ? nodes[we.child] : NULL};
            if (e->child != NULL) {
                comm_dt_node_retain(e->child);
            }
        }
    }
    return COMM_OK;
}

int comm_datatype_wire_read(const void *in, size_t len, struct comm_datatype **dt_out)
{
    struct comm_dt_node **nodes = NULL;
    struct comm_datatype *dt;
    struct wire_head h;
    size_t pos = sizeof(h);
    int rc;

    if (len < sizeof(h)) {
        return wire_bad("truncated head");
    }
    memcpy(&h, in, sizeof(h));
    if (h.magic != WIRE_MAGIC || h.nnodes > WIRE_MAX_NODES || h.size < 0 ||
        (h.size > 0) != (h.nnodes > 0)) {
        return wire_bad("head");
    }
    if (h.nnodes > 0) {
        nodes = calloc(h.nnodes, sizeof(*nodes));
        if (nodes == NULL) {
            return COMM_ERR_NOMEM;
        }
        rc = wire_read_nodes(in, len, &pos, h.nnodes, nodes);
        if (rc == COMM_OK && nodes[h.nnodes - 1]->size != h.size) {
            rc = wire_bad("size");
        }
        if (rc != COMM_OK) {
            for (uint32_t k = 0; k < h.nnodes; k++) {
                comm_dt_node_release(nodes[k]);
            }
            free(nodes);
            return rc;
        }
    }
    rc = comm_dt_alloc(MPI_COMBINER_CONTIGUOUS, 0, 0, 0, &dt);
    if (rc != COMM_OK) {
        for (uint32_t k = 0; k < h.nnodes; k++) {
            comm_dt_node_release(nodes[k]);
        }
        free(nodes);
        return rc;
    }
    dt->size = h.size;
    dt->lb = h.lb;
    dt->extent = h.extent;
    dt->true_lb = h.true_lb;
    dt->true_extent = h.true_extent;
    dt->nelements = h.nelements;
    dt->pair_first = h.pair_first;
    dt->basic = (MPI_Datatype)(uintptr_t)h.basic;
    dt->contiguous = h.contiguous != 0;
    dt->has_bounds = h.has_bounds != 0;
    dt->committed = true;
    if (h.nnodes > 0) {
        /* The top node keeps the others through its entries: drop the list's references. */
        dt->desc = nodes[h.nnodes - 1];
        for (uint32_t k = 0; k + 1 < h.nnodes; k++) {
            comm_dt_node_release(nodes[k]);
        }
    }
    free(nodes);
    *dt_out = dt;
    return COMM_OK;
}
