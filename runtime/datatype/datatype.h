/*
 * datatype.h - MPI datatypes: the objects, their compact description, and packing.
 *
 * Layer: runtime core.  Used by the point-to-point engine (to move a message's bytes), the
 * reduction ops and the MPI datatype API (api/api_datatype.c).
 * Must not: know about communicators, requests or transports; check MPI arguments (the API
 * does, and names the argument at fault).
 *
 * A datatype is described once, at creation, by a compact tree of loops; the constructors
 * build it already merged and flattened (a contiguous of contiguous is one run, a vector whose
 * blocks touch is one run, an indexed type with regular blocks is a vector), so committing
 * only marks the type usable.  Moving data never costs a call per element: a cursor walks the
 * description and yields the largest contiguous pieces it can, and the pack loops copy whole
 * runs, with fixed-size copies for strided runs of 1, 2, 4, 8 or 16 bytes.
 *
 * Ownership: predefined datatypes are static and never freed.  A derived datatype is
 * reference-counted: each handle the user holds is one reference (user_refs counts them, and
 * MPI_Type_free drops one), and each datatype built on it and each pending operation that
 * uses it holds one more (comm_datatype_retain/release), so MPI_Type_free on a type still in
 * use is safe.  Descriptions are shared between types and reference-counted on their own.
 *
 * Threads: creation, commit and free from one thread at a time (MPI_THREAD_SERIALIZED);
 * retain/release and lookup are safe from any thread; packing through cursors is reentrant (a
 * cursor belongs to its caller).
 */
#ifndef COMM_DATATYPE_H
#define COMM_DATATYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/mpi.h"

struct comm_dt_node;

/*
 * One loop of a description: COUNT instances, STRIDE bytes apart, the first DISP bytes from
 * the origin of the node instance that holds the entry.  An instance is SIZE bytes of packed
 * data: a contiguous run of SIZE bytes when CHILD is NULL, one instance of CHILD otherwise.
 * Entries are read-only once their node is built.
 */
struct comm_dt_entry {
    MPI_Aint disp;
    MPI_Count count;  /* >= 1 */
    MPI_Aint stride;  /* 0 when count is 1 */
    MPI_Count size;   /* > 0 */
    MPI_Count packed; /* packed bytes of the entries before this one in its node */
    struct comm_dt_node *child;
};

/*
 * A node of the description (engine-private: only runtime/datatype*.c read it): a list of
 * entries packed one after the other, in typemap order.  Immutable once built; shared between
 * datatypes by reference count.
 */
struct comm_dt_node {
    int refcount;    /* -1: static (predefined types) */
    int depth;       /* levels of nodes below and including this one */
    MPI_Count size;  /* packed bytes of one instance */
    MPI_Aint lo, hi; /* bytes touched by one instance: [lo, hi) from its origin */
    MPI_Count nentries;
    struct comm_dt_entry *entries;
};

struct comm_datatype {
    MPI_Datatype handle; /* the predefined constant, or the object's own address */
    int refcount;        /* derived only: every reference, the user's included */
    int user_refs;       /* derived only: handles the user holds (MPI_Type_free drops one);
                            guarded by the registry lock of datatype.c */
    bool predefined;
    bool committed;
    int combiner;     /* MPI_COMBINER_* */
    MPI_Count size;   /* bytes of data in one element */
    MPI_Aint lb;      /* lower bound, after resizing */
    MPI_Aint extent;  /* ub - lb */
    MPI_Aint true_lb; /* of the bytes actually touched */
    MPI_Aint true_extent;
    bool has_bounds; /* false for an empty typemap, which adds no bounds to a type built on it */
    bool contiguous; /* one element is size bytes at [true_lb, true_lb+size), true_lb == lb and
                        extent == size: COUNT elements are one dense block at buf + lb */
    MPI_Count nelements;           /* basic elements in one element (MPI_Get_elements) */
    MPI_Datatype basic;            /* the one basic type of all elements, or MPI_DATATYPE_NULL */
    MPI_Count pair_first;          /* predefined pair types: packed bytes of the first member */
    struct comm_dt_node *desc;     /* compact description; NULL when size is 0 */
    int ninteger, naddress, ntype; /* get_envelope / get_contents */
    int *integers;
    MPI_Aint *addresses;
    MPI_Datatype *types; /* each derived one holds a reference */
    char name[MPI_MAX_OBJECT_NAME];
    void *attrs; /* the user's attributes (api/api_attr.c owns them) */
};

/* The object behind a handle, or NULL (MPI_DATATYPE_NULL, a freed handle, or a handle that
 * names nothing).  Thread-safe. */
struct comm_datatype *comm_datatype_lookup(MPI_Datatype handle);

/* References for derived types; no-ops on predefined ones.  Releasing the last reference
 * frees the type.  Thread-safe. */
void comm_datatype_retain(struct comm_datatype *dt);
void comm_datatype_release(struct comm_datatype *dt);

/* One more handle for the user (MPI_Type_get_contents returns one): a reference that
 * comm_datatype_free drops.  No-op on predefined types. */
void comm_datatype_retain_user(struct comm_datatype *dt);

/*
 * MPI_Type_free: drops one of the user's handles, and the reference it holds.  Returns COMM_OK,
 * or COMM_ERR_BAD_PARAM for a predefined type or a type the user holds no handle of.
 */
int comm_datatype_free(struct comm_datatype *dt);

/*
 * Walks COUNT elements of DT laid out from BUF, starting OFFSET bytes into the packed stream,
 * and yields contiguous pieces of memory (comm_datatype_cursor_next) or copies to and from a
 * packed buffer (comm_datatype_cursor_pack/unpack).  The state is the caller's, fixed in size
 * (descriptions never nest deeper than the stack), and may be copied.  BUF, COUNT and DT must
 * stay valid while the cursor is used; the cursor holds no reference.
 */
enum { COMM_DT_CURSOR_DEPTH = 16 };

/* One level of a cursor: where it is in one node. */
struct comm_dt_frame {
    const struct comm_dt_node *node; /* NULL: the cursor's top entry */
    MPI_Count entry;                 /* current entry of the node */
    MPI_Count index;                 /* current instance of that entry */
    char *origin;                    /* start address of this node's instance */
};

struct comm_dt_cursor {
    const struct comm_datatype *dt;
    struct comm_dt_entry top; /* the COUNT elements as one entry */
    size_t remaining;         /* bytes of the packed stream still to yield */
    MPI_Count done;           /* bytes already handled of the current run instance */
    int depth;                /* frames in use; 0 at the end */
    struct comm_dt_frame stack[COMM_DT_CURSOR_DEPTH];
};

/* Positions a cursor; OFFSET is in bytes of packed data (0 for the start; past the end gives
 * an empty cursor). */
void comm_datatype_cursor_init(struct comm_dt_cursor *cursor, const struct comm_datatype *dt,
                               const void *buf, MPI_Count count, size_t offset);

/* The next contiguous piece, at most MAX bytes: its address in *ptr_out and its length
 * returned; 0 at the end (or MAX 0), and *ptr_out untouched. */
size_t comm_datatype_cursor_next(struct comm_dt_cursor *cursor, void **ptr_out, size_t max);

/* Copies up to LEN bytes from the cursor's position into OUT (pack) or from IN into memory
 * (unpack) and advances it; returns the bytes copied, less than LEN only at the end. */
size_t comm_datatype_cursor_pack(struct comm_dt_cursor *cursor, void *out, size_t len);
size_t comm_datatype_cursor_unpack(struct comm_dt_cursor *cursor, const void *in, size_t len);

/*
 * Packs up to LEN bytes of COUNT elements of DT at BUF, starting OFFSET bytes into the packed
 * stream, into OUT; returns the number of bytes written (less than LEN only at the end).
 */
size_t comm_datatype_pack(const struct comm_datatype *dt, const void *buf, MPI_Count count,
                          size_t offset, void *out, size_t len);

/* The reverse: unpacks LEN bytes of packed data IN into COUNT elements of DT at BUF, starting
 * OFFSET bytes into the packed stream; returns the bytes consumed. */
size_t comm_datatype_unpack(const struct comm_datatype *dt, void *buf, MPI_Count count,
                            size_t offset, const void *in, size_t len);

/* Basic elements contained in the first BYTES bytes of packed data of DT (MPI_Get_elements);
 * COMM_ERR_BAD_PARAM (and no output) if BYTES does not end on a basic element.  A predefined
 * pair type (MPI_DOUBLE_INT) is two basic elements. */
int comm_datatype_count_elements(const struct comm_datatype *dt, size_t bytes,
                                 MPI_Count *elements_out);

/*
 * Derived-type constructors, one per MPI constructor, with MPI's arguments (displacements of
 * the non-h forms in extents of OLD).  They return COMM_OK and an uncommitted type (committed
 * for a dup of a committed type) holding one reference, which is the user's handle; they take
 * their own references on the types they are built from.  Failures: COMM_ERR_NOMEM, or
 * COMM_ERR_BAD_PARAM when a size or displacement overflows 64 bits, or for arguments the API
 * should have refused (it checks them and names the one at fault), such as a contiguous COUNT
 * above INT_MAX (MPI_Type_get_contents returns ints).  Not thread-safe.
 */
int comm_datatype_create_contiguous(MPI_Count count, struct comm_datatype *old,
                                    struct comm_datatype **dt_out);
int comm_datatype_create_vector(int count, int blocklength, int stride, struct comm_datatype *old,
                                struct comm_datatype **dt_out);
int comm_datatype_create_hvector(int count, int blocklength, MPI_Aint stride,
                                 struct comm_datatype *old, struct comm_datatype **dt_out);
int comm_datatype_create_indexed(int count, const int blocklengths[], const int displacements[],
                                 struct comm_datatype *old, struct comm_datatype **dt_out);
int comm_datatype_create_hindexed(int count, const int blocklengths[],
                                  const MPI_Aint displacements[], struct comm_datatype *old,
                                  struct comm_datatype **dt_out);
int comm_datatype_create_indexed_block(int count, int blocklength, const int displacements[],
                                       struct comm_datatype *old, struct comm_datatype **dt_out);
int comm_datatype_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                                        struct comm_datatype *old, struct comm_datatype **dt_out);
int comm_datatype_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                                struct comm_datatype *const types[], struct comm_datatype **dt_out);
/* ORDER is MPI_ORDER_C or MPI_ORDER_FORTRAN; 1 <= subsizes[i] <= sizes[i],
 * 0 <= starts[i] <= sizes[i] - subsizes[i]. */
int comm_datatype_create_subarray(int ndims, const int sizes[], const int subsizes[],
                                  const int starts[], int order, struct comm_datatype *old,
                                  struct comm_datatype **dt_out);
/* Processes are laid out row-major in the grid PSIZES whatever ORDER; a block distribution
 * needs darg * psize >= gsize, MPI_DISTRIBUTE_NONE a psize of 1. */
int comm_datatype_create_darray(int size, int rank, int ndims, const int gsizes[],
                                const int distribs[], const int dargs[], const int psizes[],
                                int order, struct comm_datatype *old,
                                struct comm_datatype **dt_out);
int comm_datatype_create_resized(struct comm_datatype *old, MPI_Aint lb, MPI_Aint extent,
                                 struct comm_datatype **dt_out);
int comm_datatype_dup(struct comm_datatype *old, struct comm_datatype **dt_out);

/* Commits: marks the type usable for communication (its description is already optimized).
 * Idempotent; always COMM_OK. */
int comm_datatype_commit(struct comm_datatype *dt);

/*
 * Engine-private (runtime/datatype*.c): building descriptions.  A builder collects the entries
 * of one node and merges them as they come; comm_dt_builder_add() borrows CHILD (taking its
 * own reference when it keeps it), comm_dt_builder_finish() returns the node with one
 * reference (NULL when it holds no data) and always empties the builder.
 */
struct comm_dt_builder {
    struct comm_dt_entry *entries;
    MPI_Count n, cap;
    int status; /* first failure of an add, reported by finish */
};

void comm_dt_builder_init(struct comm_dt_builder *b);
void comm_dt_builder_add(struct comm_dt_builder *b, MPI_Aint disp, MPI_Count count, MPI_Aint stride,
                         MPI_Count size, struct comm_dt_node *child);
int comm_dt_builder_finish(struct comm_dt_builder *b, struct comm_dt_node **node_out);

/* Rewrites an entry into its simplest equivalent form (no allocation). */
void comm_dt_entry_simplify(struct comm_dt_entry *e);

void comm_dt_node_retain(struct comm_dt_node *node);
void comm_dt_node_release(struct comm_dt_node *node);

/* The object of a handle known to be valid (a predefined constant or a derived type). */
struct comm_datatype *comm_dt_object(MPI_Datatype handle);

/* A new derived datatype with one user reference, registered, everything else zero. */
int comm_dt_alloc(int combiner, int ninteger, int naddress, int ntype,
                  struct comm_datatype **dt_out);

/*
 * A datatype as bytes (datatype_wire.c), for a peer that lays data out by it: the size of the
 * form, the form itself (COMM_ERR_BAD_PARAM when LEN is too small), and a committed type made
 * from one, with one reference the caller drops with comm_datatype_free (COMM_ERR_BAD_PARAM,
 * logged, when the bytes are malformed).
 */
size_t comm_datatype_wire_size(const struct comm_datatype *dt);
int comm_datatype_wire_write(const struct comm_datatype *dt, void *out, size_t len);
int comm_datatype_wire_read(const void *in, size_t len, struct comm_datatype **dt_out);

#endif
