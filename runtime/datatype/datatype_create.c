/*
 * datatype_create.c - the derived-datatype constructors: contiguous, vector, indexed, struct,
 * subarray, darray, resized, dup.
 *
 * Layer: runtime core (datatype engine).  Must not: check MPI arguments for the user (the API
 * does; what reaches here is refused only as COMM_ERR_BAD_PARAM); pack data.
 *
 * Each constructor computes three things from the types it is built on: the description (fed
 * entry by entry to a builder, which merges as it goes), the bounds of the typemap (lb and ub
 * by the MPI-3.1 typemap rules, resized types being the only markers, and no alignment padding
 * of struct extents: users resize, as the standard advises) and the count of basic elements; then
 * it records its arguments for MPI_Type_get_contents.  Everything is 64-bit and every product and
 * sum is checked, so types of 2 GiB and far more are exact and a type whose size or displacements
 * would not fit is refused.
 */
#include "config.h"

#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "base/log.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The bounds of a typemap being built: [lb, ub), once some block has set them. */
struct dt_bounds {
    bool set;
    MPI_Aint lb, ub;
};

/* What a constructor computes before it becomes a datatype. */
struct dt_layout {
    struct comm_dt_node *desc; /* owned */
    struct dt_bounds bounds;
    MPI_Count nelements;
    MPI_Datatype basic; /* NULL: not decided yet */
};

/* Adds COUNT copies of the bounds [LB, UB) to B, the first at DISP, STRIDE apart. */
static int dt_bounds_add(struct dt_bounds *b, MPI_Aint disp, MPI_Count count, MPI_Aint stride,
                         MPI_Aint lb, MPI_Aint ub)
{
    MPI_Aint span, lo, hi;

    if (count <= 0) {
        return COMM_OK;
    }
    if (__builtin_mul_overflow(count - 1, stride, &span) || __builtin_add_overflow(disp, lb, &lo) ||
        __builtin_add_overflow(disp, ub, &hi) ||
        __builtin_add_overflow(lo, span < 0 ? span : 0, &lo) ||
        __builtin_add_overflow(hi, span > 0 ? span : 0, &hi)) {
        return COMM_ERR_BAD_PARAM;
    }
    if (!b->set || lo < b->lb) {
        b->lb = lo;
    }
    if (!b->set || hi > b->ub) {
        b->ub = hi;
    }
    b->set = true;
    return COMM_OK;
}

/* Adds COUNT copies of TYPE's bounds (if it has any) to B. */
static int dt_bounds_add_type(struct dt_bounds *b, MPI_Aint disp, MPI_Count count, MPI_Aint stride,
                              const struct comm_datatype *type)
{
    if (!type->has_bounds) {
        return COMM_OK;
    }
    return dt_bounds_add(b, disp, count, stride, type->lb, type->lb + type->extent);
}

static void dt_layout_init(struct dt_layout *l)
{
    memset(l, 0, sizeof(*l));
}

/* Whether COUNT elements of DT are one dense block (see the field in datatype.h). */
static bool dt_is_contiguous(const struct comm_datatype *dt)
{
    const struct comm_dt_entry *e;

    if (dt->size == 0) {
        return dt->extent == 0;
    }
    e = &dt->desc->entries[0];
    return dt->desc->nentries == 1 && e->child == NULL && e->count == 1 && e->disp == dt->lb &&
           dt->extent == dt->size;
}

/* Counts COUNT elements of TYPE into the layout: basic elements and the common basic type. */
static int dt_layout_count(struct dt_layout *l, MPI_Count count, const struct comm_datatype *type)
{
    MPI_Count n;

    if (count <= 0) {
        return COMM_OK;
    }
    if (__builtin_mul_overflow(count, type->nelements, &n) ||
        __builtin_add_overflow(l->nelements, n, &l->nelements)) {
        return COMM_ERR_BAD_PARAM;
    }
    if (type->size > 0) {
        if (l->basic == NULL) {
            l->basic = type->basic;
        } else if (l->basic != type->basic) {
            l->basic = MPI_DATATYPE_NULL;
        }
    }
    return COMM_OK;
}

/*
 * Turns a layout into a new datatype with room for its contents; takes the layout's
 * description (released on failure).  Without bounds the type is empty: lb 0, extent 0.
 */
static int dt_make(int combiner, MPI_Count ninteger, MPI_Count naddress, int ntype,
                   struct dt_layout *l, struct comm_datatype **dt_out)
{
    struct comm_datatype *dt;
    MPI_Aint extent = 0;
    int rc;

    if (ninteger > INT_MAX || naddress > INT_MAX ||
        (l->bounds.set && __builtin_sub_overflow(l->bounds.ub, l->bounds.lb, &extent))) {
        comm_dt_node_release(l->desc);
        return COMM_ERR_BAD_PARAM;
    }
    rc = comm_dt_alloc(combiner, (int)ninteger, (int)naddress, ntype, &dt);
    if (rc < 0) {
        comm_dt_node_release(l->desc);
        return rc;
    }
    dt->desc = l->desc;
    dt->size = l->desc != NULL ? l->desc->size : 0;
    dt->true_lb = l->desc != NULL ? l->desc->lo : 0;
    dt->true_extent = l->desc != NULL ? l->desc->hi - l->desc->lo : 0;
    dt->has_bounds = l->bounds.set;
    dt->lb = l->bounds.set ? l->bounds.lb : 0;
    dt->extent = extent;
    dt->nelements = l->nelements;
    dt->basic = l->basic != NULL ? l->basic : MPI_DATATYPE_NULL;
    dt->contiguous = dt_is_contiguous(dt);
    *dt_out = dt;
    return COMM_OK;
}

/* Records a type of the contents, taking a reference on it. */
static void dt_set_type(struct comm_datatype *dt, int i, struct comm_datatype *type)
{
    comm_datatype_retain(type);
    dt->types[i] = type->handle;
}

/* Finishes the description and the bounds of BLOCKLENGTH x OLD: one block of a vector. */
static int dt_block_of(MPI_Count blocklength, struct comm_datatype *old,
                       struct comm_dt_node **node_out, struct dt_bounds *bounds_out)
{
    struct comm_dt_builder b;
    struct dt_bounds bounds = {0};
    int rc;

    comm_dt_builder_init(&b);
    comm_dt_builder_add(&b, 0, blocklength, old->extent, old->size, old->desc);
    rc = dt_bounds_add_type(&bounds, 0, blocklength, old->extent, old);
    if (rc < 0) {
        b.status = rc;
    }
    rc = comm_dt_builder_finish(&b, node_out);
    if (rc == COMM_OK) {
        *bounds_out = bounds;
    }
    return rc;
}

/* COUNT blocks of BLOCKLENGTH x OLD, STRIDE bytes apart: vector, hvector and contiguous. */
static int dt_layout_vector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                            struct comm_datatype *old, struct dt_layout *layout_out)
{
    struct comm_dt_builder b;
    struct comm_dt_node *block = NULL;
    struct dt_bounds block_bounds = {0};
    struct dt_layout l;
    MPI_Count n;
    int rc = COMM_ERR_BAD_PARAM;

    dt_layout_init(&l);
    l.basic = old->basic;
    if (!__builtin_mul_overflow(count, blocklength, &n)) {
        rc = dt_layout_count(&l, n, old);
    }
    if (rc == COMM_OK) {
        rc = dt_block_of(blocklength, old, &block, &block_bounds);
    }
    if (rc < 0) {
        return rc;
    }
    comm_dt_builder_init(&b);
    if (block != NULL) {
        comm_dt_builder_add(&b, 0, count, stride, block->size, block);
    }
    if (block_bounds.set) {
        rc = dt_bounds_add(&l.bounds, 0, count, stride, block_bounds.lb, block_bounds.ub);
        b.status = rc < 0 ? rc : b.status;
    }
    rc = comm_dt_builder_finish(&b, &l.desc);
    comm_dt_node_release(block);
    if (rc == COMM_OK) {
        *layout_out = l;
    }
    return rc;
}

int comm_datatype_create_contiguous(MPI_Count count, struct comm_datatype *old,
                                    struct comm_datatype **dt_out)
{
    struct dt_layout l;
    struct comm_datatype *dt;
    int rc;

    if (count < 0 || count > INT_MAX) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_layout_vector(1, count, 0, old, &l);
    if (rc == COMM_OK) {
        rc = dt_make(MPI_COMBINER_CONTIGUOUS, 1, 0, 1, &l, &dt);
    }
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = (int)count;
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

/* Vector and hvector: STRIDE_BYTES is the stride of the blocks in bytes. */
static int dt_create_vector(int combiner, int count, int blocklength, MPI_Aint stride_bytes,
                            struct comm_datatype *old, struct comm_datatype **dt_out)
{
    struct dt_layout l;
    int rc;

    if (count < 0 || blocklength < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_layout_vector(count, blocklength, stride_bytes, old, &l);
    if (rc < 0) {
        return rc;
    }
    if (combiner == MPI_COMBINER_VECTOR) {
        return dt_make(combiner, 3, 0, 1, &l, dt_out);
    }
    return dt_make(combiner, 2, 1, 1, &l, dt_out);
}

int comm_datatype_create_vector(int count, int blocklength, int stride, struct comm_datatype *old,
                                struct comm_datatype **dt_out)
{
    struct comm_datatype *dt;
    MPI_Aint bytes;
    int rc;

    if (__builtin_mul_overflow((MPI_Aint)stride, old->extent, &bytes)) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_create_vector(MPI_COMBINER_VECTOR, count, blocklength, bytes, old, &dt);
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = count;
    dt->integers[1] = blocklength;
    dt->integers[2] = stride;
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

int comm_datatype_create_hvector(int count, int blocklength, MPI_Aint stride,
                                 struct comm_datatype *old, struct comm_datatype **dt_out)
{
    struct comm_datatype *dt;
    int rc = dt_create_vector(MPI_COMBINER_HVECTOR, count, blocklength, stride, old, &dt);

    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = count;
    dt->integers[1] = blocklength;
    dt->addresses[0] = stride;
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

/*
 * The arguments of the indexed and struct forms: COUNT blocks, each of BLOCKLENGTHS[i] (or
 * BLOCKLENGTH for all) instances of TYPES[i] (or OLD for all), one extent apart, from
 * IDISPLS[i] extents of OLD or ADISPLS[i] bytes.
 */
struct dt_blocks {
    int count;
    const int *blocklengths;
    int blocklength;
    const int *idispls;
    const MPI_Aint *adispls;
    struct comm_datatype *const *types;
    struct comm_datatype *old;
};

static int dt_layout_blocks(const struct dt_blocks *s, struct dt_layout *layout_out)
{
    struct comm_dt_builder b;
    struct dt_layout l;
    int rc = COMM_OK;

    dt_layout_init(&l);
    if (s->old != NULL) {
        l.basic = s->old->basic; /* one old type: its basic type even when empty */
    }
    comm_dt_builder_init(&b);
    for (int i = 0; i < s->count && rc == COMM_OK; i++) {
        struct comm_datatype *type = s->types != NULL ? s->types[i] : s->old;
        int n = s->blocklengths != NULL ? s->blocklengths[i] : s->blocklength;
        MPI_Aint disp = 0;

        if (n < 0) {
            rc = COMM_ERR_BAD_PARAM;
        } else if (s->adispls != NULL) {
            disp = s->adispls[i];
        } else if (__builtin_mul_overflow((MPI_Aint)s->idispls[i], type->extent, &disp)) {
            rc = COMM_ERR_BAD_PARAM;
        }
        if (rc == COMM_OK && n > 0) {
            comm_dt_builder_add(&b, disp, n, type->extent, type->size, type->desc);
            rc = dt_bounds_add_type(&l.bounds, disp, n, type->extent, type);
        }
        if (rc == COMM_OK) {
            rc = dt_layout_count(&l, n, type);
        }
    }
    if (rc < 0) {
        b.status = rc;
    }
    rc = comm_dt_builder_finish(&b, &l.desc);
    if (rc == COMM_OK) {
        *layout_out = l;
    }
    return rc;
}

int comm_datatype_create_indexed(int count, const int blocklengths[], const int displacements[],
                                 struct comm_datatype *old, struct comm_datatype **dt_out)
{
    struct dt_blocks s = {
        .count = count, .blocklengths = blocklengths, .idispls = displacements, .old = old};
    struct dt_layout l;
    struct comm_datatype *dt;
    int rc;

    if (count < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_layout_blocks(&s, &l);
    if (rc == COMM_OK) {
        rc = dt_make(MPI_COMBINER_INDEXED, 2 * (MPI_Count)count + 1, 0, 1, &l, &dt);
    }
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = count;
    for (int i = 0; i < count; i++) {
        dt->integers[1 + i] = blocklengths[i];
        dt->integers[1 + count + i] = displacements[i];
    }
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

int comm_datatype_create_hindexed(int count, const int blocklengths[],
                                  const MPI_Aint displacements[], struct comm_datatype *old,
                                  struct comm_datatype **dt_out)
{
    struct dt_blocks s = {
        .count = count, .blocklengths = blocklengths, .adispls = displacements, .old = old};
    struct dt_layout l;
    struct comm_datatype *dt;
    int rc;

    if (count < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_layout_blocks(&s, &l);
    if (rc == COMM_OK) {
        rc = dt_make(MPI_COMBINER_HINDEXED, (MPI_Count)count + 1, count, 1, &l, &dt);
    }
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = count;
    for (int i = 0; i < count; i++) {
        dt->integers[1 + i] = blocklengths[i];
        dt->addresses[i] = displacements[i];
    }
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

int comm_datatype_create_indexed_block(int count, int blocklength, const int displacements[],
                                       struct comm_datatype *old, struct comm_datatype **dt_out)
{
    struct dt_blocks s = {
        .count = count, .blocklength = blocklength, .idispls = displacements, .old = old};
    struct dt_layout l;
    struct comm_datatype *dt;
    int rc;

    if (count < 0 || blocklength < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_layout_blocks(&s, &l);
    if (rc == COMM_OK) {
        rc = dt_make(MPI_COMBINER_INDEXED_BLOCK, (MPI_Count)count + 2, 0, 1, &l, &dt);
    }
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = count;
    dt->integers[1] = blocklength;
    for (int i = 0; i < count; i++) {
        dt->integers[2 + i] = displacements[i];
    }
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

int comm_datatype_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                                        struct comm_datatype *old, struct comm_datatype **dt_out)
{
    struct dt_blocks s = {
        .count = count, .blocklength = blocklength, .adispls = displacements, .old = old};
    struct dt_layout l;
    struct comm_datatype *dt;
    int rc;

    if (count < 0 || blocklength < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_layout_blocks(&s, &l);
    if (rc == COMM_OK) {
        rc = dt_make(MPI_COMBINER_HINDEXED_BLOCK, 2, count, 1, &l, &dt);
    }
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = count;
    dt->integers[1] = blocklength;
    memcpy(dt->addresses, displacements, (size_t)count * sizeof(*displacements));
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

int comm_datatype_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                                struct comm_datatype *const types[], struct comm_datatype **dt_out)
{
    struct dt_blocks s = {
        .count = count, .blocklengths = blocklengths, .adispls = displacements, .types = types};
    struct dt_layout l;
    struct comm_datatype *dt;
    int rc;

    if (count < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_layout_blocks(&s, &l);
    if (rc == COMM_OK) {
        rc = dt_make(MPI_COMBINER_STRUCT, (MPI_Count)count + 1, count, count, &l, &dt);
    }
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = count;
    for (int i = 0; i < count; i++) {
        dt->integers[1 + i] = blocklengths[i];
        dt->addresses[i] = displacements[i];
        dt_set_type(dt, i, types[i]);
    }
    *dt_out = dt;
    return COMM_OK;
}

/*
 * Fills STRIDES (the caller's, NDIMS long) with the strides in bytes of the dimensions of an
 * array of DIMS elements of EXTENT bytes (row-major for MPI_ORDER_C, column-major for
 * MPI_ORDER_FORTRAN); returns the extent of the whole array.
 */
static int dt_array_strides(int ndims, const int dims[], int order, MPI_Aint extent,
                            MPI_Aint strides[], MPI_Aint *total_out)
{
    MPI_Aint s = extent;

    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;

        strides[d] = s;
        if (__builtin_mul_overflow(s, (MPI_Aint)dims[d], &s)) {
            return COMM_ERR_BAD_PARAM;
        }
    }
    *total_out = s;
    return COMM_OK;
}

/*
 * One dimension of a subarray or darray: the indices FIRST + k * PERIOD + i (i < BLOCK, below
 * EXTENT) of a dimension whose indices are STRIDE bytes apart, each one instance of INNER
 * (COUNT instances of the old type so far).  Returns the node of the dimension (NULL when it
 * holds no data) and the instances of the old type it holds.
 */
static int dt_dimension(MPI_Count first, MPI_Count block, MPI_Count period, MPI_Count extent,
                        MPI_Aint stride, struct comm_dt_node *inner, MPI_Count count,
                        struct comm_dt_node **node_out, MPI_Count *count_out)
{
    struct comm_dt_builder b;
    struct comm_dt_node *blocks = NULL;
    MPI_Count nblocks = 0, nfull = 0, taken = 0, last_len = 0, last;
    MPI_Aint disp, step, last_disp;
    int rc = COMM_OK;

    if (first < extent) {
        nblocks = (extent - first + period - 1) / period;
        nfull = extent - first >= block ? (extent - first - block) / period + 1 : 0;
        last_len = nblocks > nfull ? extent - (first + (nblocks - 1) * period) : 0;
        taken = nfull * block + last_len;
    }
    if (taken == 0 || inner == NULL) {
        *node_out = NULL;
        *count_out = 0;
        return COMM_OK;
    }
    last = first + (nblocks - 1) * period;
    if (__builtin_mul_overflow(first, stride, &disp) ||
        __builtin_mul_overflow(period, stride, &step) ||
        __builtin_mul_overflow(last, stride, &last_disp) ||
        __builtin_mul_overflow(count, taken, &count)) {
        return COMM_ERR_BAD_PARAM;
    }
    if (nfull > 0) {
        comm_dt_builder_init(&b);
        comm_dt_builder_add(&b, 0, block, stride, inner->size, inner);
        rc = comm_dt_builder_finish(&b, &blocks);
    }
    comm_dt_builder_init(&b);
    b.status = rc;
    if (blocks != NULL) {
        comm_dt_builder_add(&b, disp, nfull, step, blocks->size, blocks);
    }
    if (last_len > 0) {
        comm_dt_builder_add(&b, last_disp, last_len, stride, inner->size, inner);
    }
    rc = comm_dt_builder_finish(&b, node_out);
    comm_dt_node_release(blocks);
    if (rc == COMM_OK) {
        *count_out = count;
    }
    return rc;
}

/* The array forms: per dimension, FIRST/BLOCK/PERIOD as for dt_dimension; lb 0 and the extent
 * of the whole array (MPI-3.1, sections 4.1.3 and 4.1.4). */
static int dt_layout_array(int ndims, const int dims[], const MPI_Count first[],
                           const MPI_Count block[], const MPI_Count period[], int order,
                           struct comm_datatype *old, struct dt_layout *layout_out)
{
    MPI_Aint *strides = malloc((size_t)ndims * sizeof(*strides)), total = 0;
    struct dt_layout l;
    MPI_Count count = 1;
    int rc;

    if (strides == NULL) {
        comm_log_error("datatype", "out of memory for an array type of %d dimensions", ndims);
        return COMM_ERR_NOMEM;
    }
    dt_layout_init(&l);
    l.basic = old->basic;
    rc = dt_array_strides(ndims, dims, order, old->extent, strides, &total);
    /* lb 0 and ub the end of the array, even for an old type of negative extent */
    l.bounds = (struct dt_bounds){.set = true, .lb = 0, .ub = total};
    l.desc = old->desc;
    comm_dt_node_retain(l.desc);
    for (int k = 0; k < ndims && rc == COMM_OK; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        struct comm_dt_node *node;

        rc = dt_dimension(first[d], block[d], period[d], dims[d], strides[d], l.desc, count, &node,
                          &count);
        if (rc == COMM_OK) {
            comm_dt_node_release(l.desc);
            l.desc = node;
        }
    }
    if (rc == COMM_OK) {
        rc = dt_layout_count(&l, count, old);
    }
    if (rc == COMM_OK) {
        *layout_out = l;
    } else {
        comm_dt_node_release(l.desc);
    }
    free(strides);
    return rc;
}

/* Room for the per-dimension arguments of dt_layout_array. */
static int dt_alloc_dims(int ndims, MPI_Count **dims_out)
{
    MPI_Count *dims = malloc(3 * (size_t)ndims * sizeof(*dims));

    if (dims == NULL) {
        comm_log_error("datatype", "out of memory for an array type of %d dimensions", ndims);
        return COMM_ERR_NOMEM;
    }
    *dims_out = dims;
    return COMM_OK;
}

int comm_datatype_create_subarray(int ndims, const int sizes[], const int subsizes[],
                                  const int starts[], int order, struct comm_datatype *old,
                                  struct comm_datatype **dt_out)
{
    struct dt_layout l;
    struct comm_datatype *dt;
    MPI_Count *first, *block, *period;
    int rc;

    if (ndims <= 0 || (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_alloc_dims(ndims, &first);
    if (rc < 0) {
        return rc;
    }
    block = first + ndims;
    period = block + ndims;
    for (int d = 0; d < ndims && rc == COMM_OK; d++) {
        if (sizes[d] <= 0 || subsizes[d] <= 0 || subsizes[d] > sizes[d] || starts[d] < 0 ||
            starts[d] > sizes[d] - subsizes[d]) {
            rc = COMM_ERR_BAD_PARAM;
        }
        first[d] = starts[d];
        block[d] = subsizes[d];
        period[d] = sizes[d];
    }
    if (rc == COMM_OK) {
        rc = dt_layout_array(ndims, sizes, first, block, period, order, old, &l);
    }
    free(first);
    if (rc == COMM_OK) {
        rc = dt_make(MPI_COMBINER_SUBARRAY, 3 * (MPI_Count)ndims + 2, 0, 1, &l, &dt);
    }
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        dt->integers[1 + d] = sizes[d];
        dt->integers[1 + ndims + d] = subsizes[d];
        dt->integers[1 + 2 * ndims + d] = starts[d];
    }
    dt->integers[1 + 3 * ndims] = order;
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

/*
 * Which indices of each dimension of a darray RANK owns, as dt_dimension wants them: from
 * FIRST, BLOCK indices every PERIOD.  Processes are numbered row-major in the grid PSIZES.
 */
static int dt_darray_dims(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                          const int dargs[], const int psizes[], MPI_Count first[],
                          MPI_Count block[], MPI_Count period[])
{
    MPI_Count nprocs = 1, r = rank;

    for (int d = ndims - 1; d >= 0; d--) {
        MPI_Count g = gsizes[d], p = psizes[d], b = dargs[d], coord;

        if (g <= 0 || p <= 0 || nprocs > size) {
            return COMM_ERR_BAD_PARAM;
        }
        if (distribs[d] != MPI_DISTRIBUTE_NONE && b <= 0 && b != MPI_DISTRIBUTE_DFLT_DARG) {
            return COMM_ERR_BAD_PARAM;
        }
        nprocs *= p;
        coord = r % p;
        r /= p;
        switch (distribs[d]) {
        case MPI_DISTRIBUTE_NONE:
            if (p != 1) {
                return COMM_ERR_BAD_PARAM;
            }
            b = g;
            break;
        case MPI_DISTRIBUTE_BLOCK:
            b = b == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : b;
            if (b * p < g) {
                return COMM_ERR_BAD_PARAM;
            }
            break;
        case MPI_DISTRIBUTE_CYCLIC:
            b = b == MPI_DISTRIBUTE_DFLT_DARG ? 1 : b;
            break;
        default:
            return COMM_ERR_BAD_PARAM;
        }
        first[d] = coord * b;
        block[d] = b;
        period[d] = p * b;
    }
    return nprocs == size ? COMM_OK : COMM_ERR_BAD_PARAM;
}

int comm_datatype_create_darray(int size, int rank, int ndims, const int gsizes[],
                                const int distribs[], const int dargs[], const int psizes[],
                                int order, struct comm_datatype *old, struct comm_datatype **dt_out)
{
    struct dt_layout l;
    struct comm_datatype *dt;
    MPI_Count *first, *block, *period;
    int rc;

    if (ndims <= 0 || size <= 0 || rank < 0 || rank >= size ||
        (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)) {
        return COMM_ERR_BAD_PARAM;
    }
    rc = dt_alloc_dims(ndims, &first);
    if (rc < 0) {
        return rc;
    }
    block = first + ndims;
    period = block + ndims;
    rc = dt_darray_dims(size, rank, ndims, gsizes, distribs, dargs, psizes, first, block, period);
    if (rc == COMM_OK) {
        rc = dt_layout_array(ndims, gsizes, first, block, period, order, old, &l);
    }
    free(first);
    if (rc == COMM_OK) {
        rc = dt_make(MPI_COMBINER_DARRAY, 4 * (MPI_Count)ndims + 4, 0, 1, &l, &dt);
    }
    if (rc < 0) {
        return rc;
    }
    dt->integers[0] = size;
    dt->integers[1] = rank;
    dt->integers[2] = ndims;
    for (int d = 0; d < ndims; d++) {
        dt->integers[3 + d] = gsizes[d];
        dt->integers[3 + ndims + d] = distribs[d];
        dt->integers[3 + 2 * ndims + d] = dargs[d];
        dt->integers[3 + 3 * ndims + d] = psizes[d];
    }
    dt->integers[3 + 4 * ndims] = order;
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

int comm_datatype_create_resized(struct comm_datatype *old, MPI_Aint lb, MPI_Aint extent,
                                 struct comm_datatype **dt_out)
{
    struct dt_layout l;
    struct comm_datatype *dt;
    MPI_Aint ub;
    int rc;

    if (__builtin_add_overflow(lb, extent, &ub)) {
        return COMM_ERR_BAD_PARAM;
    }
    dt_layout_init(&l);
    l.desc = old->desc;
    comm_dt_node_retain(l.desc);
    l.nelements = old->nelements;
    l.basic = old->basic;
    rc = dt_make(MPI_COMBINER_RESIZED, 0, 2, 1, &l, &dt);
    if (rc < 0) {
        return rc;
    }
    /* MPI allows a negative extent: ub below lb */
    dt->has_bounds = true;
    dt->lb = lb;
    dt->extent = extent;
    dt->contiguous = dt_is_contiguous(dt);
    dt->addresses[0] = lb;
    dt->addresses[1] = extent;
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}

int comm_datatype_dup(struct comm_datatype *old, struct comm_datatype **dt_out)
{
    struct dt_layout l;
    struct comm_datatype *dt;
    int rc;

    dt_layout_init(&l);
    l.desc = old->desc;
    comm_dt_node_retain(l.desc);
    rc = dt_make(MPI_COMBINER_DUP, 0, 0, 1, &l, &dt);
    if (rc < 0) {
        return rc;
    }
    dt->committed = old->committed;
    dt->lb = old->lb;
    dt->extent = old->extent;
    dt->has_bounds = old->has_bounds;
    dt->contiguous = old->contiguous;
    dt->nelements = old->nelements;
    dt->basic = old->basic;
    dt->pair_first = old->pair_first;
    dt_set_type(dt, 0, old);
    *dt_out = dt;
    return COMM_OK;
}
