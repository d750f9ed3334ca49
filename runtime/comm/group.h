/*
 * group.h - process groups: ordered sets of world ranks, and the MPI set operations on them.
 *
 * Layer: runtime core.  Must not: check MPI arguments, raise MPI errors or print (api/
 * does); the operations here take ranks that the caller has already checked, and refuse bad
 * ones with COMM_ERR_BAD_PARAM without logging.
 *
 * Ownership: MPI_GROUP_EMPTY is a static, predefined object that lives until the process exits;
 * retain and release do nothing to it.  Every other group is reference-counted: the user's
 * handle holds one reference and each communicator built on the group one more.  A group is
 * immutable once created, so reading it needs no lock; the reference count is not atomic and is
 * changed only by the thread that owns the handle (MPI_THREAD_MULTIPLE callers serialize).
 */
#ifndef COMM_GROUP_H
#define COMM_GROUP_H

#include <stdbool.h>

#include "include/mpi.h"

/*
 * Made only by comm_group_create (or the static MPI_GROUP_EMPTY), which builds the by_world
 * index; never fill one by hand.  Read-only after creation except refcount.
 */
struct comm_group {
    int size;
    int rank;          /* this process's rank in it, or MPI_UNDEFINED */
    long *world_ranks; /* world rank of each rank of the group (size entries; owned) */
    int refcount;
    bool predefined; /* static: never freed */
    int *by_world;   /* the ranks ordered by world rank, for comm_group_rank_of_world */
};

/*
 * The object behind a handle: the static empty group for MPI_GROUP_EMPTY, NULL for
 * MPI_GROUP_NULL and the other small constants.  Thread-safe.
 */
struct comm_group *comm_group_lookup(MPI_Group handle);

/* The handle of an object (MPI_GROUP_EMPTY for the static empty group). */
MPI_Group comm_group_handle(struct comm_group *group);

/*
 * A new group of SIZE ranks whose rank i is world rank WORLD_RANKS[i] (copied; the caller keeps
 * its array).  MY_WORLD_RANK is this process's world rank, which sets the group's rank (-1 when
 * this process is not in it).  SIZE 0 gives the static empty group.  *group_out has one
 * reference.  Returns COMM_OK, COMM_ERR_BAD_PARAM (negative size, negative or repeated world
 * rank) or COMM_ERR_NOMEM.
 */
int comm_group_create(const long *world_ranks, int size, long my_world_rank,
                      struct comm_group **group_out);

/*
 * Takes or drops a reference; the last release frees the group.  Both ignore predefined groups,
 * and release ignores NULL.
 */
void comm_group_retain(struct comm_group *group);
void comm_group_release(struct comm_group *group);

/* World rank of RANK (0 <= RANK < size) in GROUP. */
long comm_group_world_rank(const struct comm_group *group, int rank);

/* Rank in GROUP of WORLD_RANK, or MPI_UNDEFINED if it is not a member.  O(log size). */
int comm_group_rank_of_world(const struct comm_group *group, long world_rank);

/*
 * MPI_IDENT (same members in the same order), MPI_SIMILAR (same members, another order) or
 * MPI_UNEQUAL.
 */
int comm_group_compare(const struct comm_group *group1, const struct comm_group *group2);

/*
 * For each of the N ranks RANKS1 of GROUP1, its rank in GROUP2 or MPI_UNDEFINED; MPI_PROC_NULL
 * stays MPI_PROC_NULL.  RANKS2_OUT has N entries and may alias RANKS1.  Returns COMM_OK or
 * COMM_ERR_BAD_PARAM (a rank out of range; RANKS2_OUT is then untouched).
 */
int comm_group_translate(const struct comm_group *group1, int n, const int *ranks1,
                         const struct comm_group *group2, int *ranks2_out);

/*
 * The set operations of MPI-3.1 section 6.3.2.  Each makes a new group (one reference; the
 * static empty group if the result is empty) and returns COMM_OK or COMM_ERR_NOMEM.
 *   union:        the ranks of GROUP1 in order, then those of GROUP2 not in GROUP1, in order;
 *   intersection: the ranks of GROUP1 that are also in GROUP2, in GROUP1's order;
 *   difference:   the ranks of GROUP1 that are not in GROUP2, in GROUP1's order.
 */
int comm_group_union(const struct comm_group *group1, const struct comm_group *group2,
                     struct comm_group **group_out);
int comm_group_intersection(const struct comm_group *group1, const struct comm_group *group2,
                            struct comm_group **group_out);
int comm_group_difference(const struct comm_group *group1, const struct comm_group *group2,
                          struct comm_group **group_out);

/*
 * The group of the N ranks RANKS of GROUP, in that order (incl), or of the ranks of GROUP not in
 * RANKS, in GROUP's order (excl).  Returns COMM_OK, COMM_ERR_BAD_PARAM (negative N, a rank out of
 * range or repeated) or COMM_ERR_NOMEM.
 */
int comm_group_incl(const struct comm_group *group, int n, const int *ranks,
                    struct comm_group **group_out);
int comm_group_excl(const struct comm_group *group, int n, const int *ranks,
                    struct comm_group **group_out);

#endif
