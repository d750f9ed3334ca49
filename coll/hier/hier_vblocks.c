/*
 * hier_vblocks.c - the blocks of a rooted MPI_Gatherv or MPI_Scatterv over the hierarchy
 * (hier.h), each rank's of its own size.
 *
 * Layer: coll.
 *
 * In the v forms only the root knows every rank's block size, so the sizes travel with the
 * blocks: whatever crosses a stage is two messages, the sizes of the ranks it carries (one
 * int64 each, in rank order) and then their bytes.  A stage's leader thus learns its members'
 * sizes before their data, and the root's path carries the sizes of all before all the bytes.
 * Where a stage's ranks interleave (round-robin placement) the leader reorders the blocks
 * between rank order and its members' runs (comm_coll_hier_runs) by the sizes.
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void comm_coll_hier_vheld_free(struct comm_coll_hier_vheld *x)
{
    free(x->size);
    free(x->data);
    x->size = NULL;
    x->data = NULL;
    x->n = 0;
    x->bytes = 0;
}

/* Makes X hold N ranks' sizes (SIZE, taken) with room for their bytes. */
static int vheld_take(struct comm_coll_hier_vheld *x, int n, int64_t *size)
{
    size_t bytes = 0;

    for (int i = 0; i < n; i++) {
        bytes += (size_t)size[i];
    }
    comm_coll_hier_vheld_free(x);
    x->n = n;
    x->size = size;
    x->bytes = bytes;
    x->data = malloc(bytes > 0 ? bytes : 1);
    return x->data == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int comm_coll_hier_vheld_init(struct comm_coll_hier_vheld *x, size_t bytes)
{
    int64_t *size = malloc(sizeof(*size));

    *x = (struct comm_coll_hier_vheld){0};
    if (size == NULL) {
        return MPI_ERR_NO_MEM;
    }
    size[0] = (int64_t)bytes;
    return vheld_take(x, 1, size);
}

int comm_coll_hier_vheld_set(struct comm_coll_hier_vheld *x, int n, const int64_t *size)
{
    int64_t *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof(*copy));

    if (copy == NULL) {
        return MPI_ERR_NO_MEM;
    }
    memcpy(copy, size, (size_t)n * sizeof(*copy));
    return vheld_take(x, n, copy);
}

int comm_coll_hier_vsend(const struct comm_coll_hier_vheld *x, int to,
                         struct comm_communicator *stage)
{
    int err = comm_coll_send(x->size, x->n, comm_datatype_lookup(MPI_INT64_T), to,
                             COMM_COLL_TAG_HIER, stage);

    return err == MPI_SUCCESS ? comm_coll_send(x->data, (MPI_Count)x->bytes,
                                               comm_datatype_lookup(MPI_BYTE), to,
                                               COMM_COLL_TAG_HIER, stage)
                              : err;
}

int comm_coll_hier_vrecv(struct comm_coll_hier_vheld *x, int n, int from,
                         struct comm_communicator *stage)
{
    int64_t *size = malloc((size_t)(n > 0 ? n : 1) * sizeof(*size));
    int err;

    if (size == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = comm_coll_recv(size, n, comm_datatype_lookup(MPI_INT64_T), from, COMM_COLL_TAG_HIER,
                         stage);
    if (err != MPI_SUCCESS) {
        free(size);
        return err;
    }
    err = vheld_take(x, n, size);
    return err == MPI_SUCCESS ? comm_coll_recv(x->data, (MPI_Count)x->bytes,
                                               comm_datatype_lookup(MPI_BYTE), from,
                                               COMM_COLL_TAG_HIER, stage)
                              : err;
}

/* Stage S's runs for N ranks: RSIZE (by place in the runs) from SIZE (by rank order) or back,
 * and the runs' byte offsets ROFF (n + 1). */
static void vblocks_runs(const int *run, int n, int64_t *size, int64_t *rsize, size_t *roff,
                         bool to_runs)
{
    for (int u = 0; u < n; u++) {
        if (to_runs) {
            rsize[run[u]] = size[u];
        } else {
            size[u] = rsize[run[u]];
        }
    }
    roff[0] = 0;
    for (int i = 0; i < n; i++) {
        roff[i + 1] = roff[i] + (size_t)rsize[i];
    }
}

/* The arrays one stage's layout needs (comm_coll_hier_runs's, and the sizes by run). */
struct vblocks_layout {
    int *counts, *offs, *run;
    int64_t *rsize;
    size_t *roff;
    char *runs;
    int n;
};

static void vblocks_layout_free(struct vblocks_layout *l)
{
    free(l->counts);
    free(l->rsize);
    free(l->roff);
    free(l->runs);
}

static int vblocks_layout(struct vblocks_layout *l, const struct comm_coll_hier *h, int s,
                          const struct comm_communicator *comm)
{
    size_t p = (size_t)comm->size;

    *l = (struct vblocks_layout){0};
    l->counts = malloc(3 * p * sizeof(*l->counts));
    l->rsize = malloc(p * sizeof(*l->rsize));
    l->roff = malloc((p + 1) * sizeof(*l->roff));
    if (l->counts == NULL || l->rsize == NULL || l->roff == NULL) {
        vblocks_layout_free(l);
        return MPI_ERR_NO_MEM;
    }
    l->offs = l->counts + p;
    l->run = l->offs + p;
    l->n = comm_coll_hier_runs(h, s, comm, l->counts, l->offs, l->run);
    return MPI_SUCCESS;
}

int comm_coll_hier_vcollect(struct comm_coll_hier_vheld *x, const struct comm_coll_hier *h,
                            int s, const struct comm_communicator *comm)
{
    struct comm_communicator *stage = h->stage[s];
    struct comm_datatype *i64 = comm_datatype_lookup(MPI_INT64_T);
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    struct vblocks_layout l;
    int64_t *size = NULL;
    int me = stage->rank, err = vblocks_layout(&l, h, s, comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    /* The sizes first, member by member into their runs, then the bytes to their places. */
    memcpy(l.rsize + l.offs[me], x->size, (size_t)x->n * sizeof(*x->size));
    for (int i = 0; i < stage->size && err == MPI_SUCCESS; i++) {
        if (i != me) {
            err = comm_coll_recv(l.rsize + l.offs[i], l.counts[i], i64, i, COMM_COLL_TAG_HIER,
                                 stage);
        }
    }
    size = malloc((size_t)l.n * sizeof(*size));
    if (err == MPI_SUCCESS && size == NULL) {
        err = MPI_ERR_NO_MEM;
    }
    if (err == MPI_SUCCESS) {
        vblocks_runs(l.run, l.n, size, l.rsize, l.roff, false);
        l.runs = malloc(l.roff[l.n] > 0 ? l.roff[l.n] : 1);
        err = l.runs == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    }
    if (err == MPI_SUCCESS) {
        memcpy(l.runs + l.roff[l.offs[me]], x->data, x->bytes);
    }
    for (int i = 0; i < stage->size && err == MPI_SUCCESS; i++) {
        if (i != me) {
            size_t at = l.roff[l.offs[i]], end = l.roff[l.offs[i] + l.counts[i]];

            err = comm_coll_recv(l.runs + at, (MPI_Count)(end - at), byte, i, COMM_COLL_TAG_HIER,
                                 stage);
        }
    }
    if (err == MPI_SUCCESS) {
        err = vheld_take(x, l.n, size);
        size = NULL;
    }
    for (size_t u = 0, at = 0; err == MPI_SUCCESS && u < (size_t)l.n; u++) {
        memcpy(x->data + at, l.runs + l.roff[l.run[u]], (size_t)x->size[u]);
        at += (size_t)x->size[u];
    }
    free(size);
    vblocks_layout_free(&l);
    return err;
}

int comm_coll_hier_vhand(struct comm_coll_hier_vheld *x, const struct comm_coll_hier *h, int s,
                         const struct comm_communicator *comm)
{
    struct comm_communicator *stage = h->stage[s];
    struct comm_datatype *i64 = comm_datatype_lookup(MPI_INT64_T);
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    struct vblocks_layout l;
    int me = stage->rank, err = vblocks_layout(&l, h, s, comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    /* X holds the stage's whole subtree in rank order: lay it out member by member. */
    vblocks_runs(l.run, l.n, x->size, l.rsize, l.roff, true);
    l.runs = malloc(l.roff[l.n] > 0 ? l.roff[l.n] : 1);
    err = l.runs == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    for (size_t u = 0, at = 0; err == MPI_SUCCESS && u < (size_t)l.n; u++) {
        memcpy(l.runs + l.roff[l.run[u]], x->data + at, (size_t)x->size[u]);
        at += (size_t)x->size[u];
    }
    for (int i = 0; i < stage->size && err == MPI_SUCCESS; i++) {
        if (i != me) {
            size_t at = l.roff[l.offs[i]], end = l.roff[l.offs[i] + l.counts[i]];

            err = comm_coll_send(l.rsize + l.offs[i], l.counts[i], i64, i, COMM_COLL_TAG_HIER,
                                 stage);
            err = err == MPI_SUCCESS ? comm_coll_send(l.runs + at, (MPI_Count)(end - at), byte, i,
                                                      COMM_COLL_TAG_HIER, stage)
                                     : err;
        }
    }
    /* Mine stay. */
    if (err == MPI_SUCCESS) {
        err = comm_coll_hier_vheld_set(x, l.counts[me], l.rsize + l.offs[me]);
    }
    if (err == MPI_SUCCESS) {
        memcpy(x->data, l.runs + l.roff[l.offs[me]], x->bytes);
    }
    vblocks_layout_free(&l);
    return err;
}

int comm_coll_hier_vpath(struct comm_coll_hier_vheld *x, const struct comm_coll_hier *h, int root,
                         struct comm_communicator *comm, bool up)
{
    int (*path)(const struct comm_coll_hier *, void *, MPI_Count, struct comm_datatype *, int,
                struct comm_communicator *) = up ? comm_coll_hier_up_path
                                                 : comm_coll_hier_down_path;
    int64_t *size;
    int err;

    if (!comm_coll_hier_on_path(h, comm, root, comm->rank)) {
        return MPI_SUCCESS;
    }
    /* Every rank's size, then every rank's bytes: a rank on the path that receives learns how
     * many from the sizes. */
    size = malloc((size_t)comm->size * sizeof(*size));
    if (size == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (x->n == comm->size) {
        memcpy(size, x->size, (size_t)comm->size * sizeof(*size));
    }
    err = path(h, size, comm->size, comm_datatype_lookup(MPI_INT64_T), root, comm);
    if (err == MPI_SUCCESS && x->n != comm->size) {
        err = vheld_take(x, comm->size, size); /* a receiver's: the bytes follow */
        size = NULL;
    }
    free(size);
    return err == MPI_SUCCESS ? path(h, x->data, (MPI_Count)x->bytes,
                                     comm_datatype_lookup(MPI_BYTE), root, comm)
                              : err;
}
