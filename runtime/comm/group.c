/*
 * group.c - process groups: creation, lookup by world rank, and the MPI set operations.
 *
 * Layer: runtime core.  Must not: check MPI arguments, raise MPI errors or print.
 *
 * Each group keeps, besides its world ranks in group order, its ranks sorted by world rank, so
 * that finding a process in a group is a binary search; every set operation is then
 * O(n log n) even for groups of a million ranks.
 */
#include "config.h"

#include "runtime/comm/group.h"
#include "base/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct comm_group group_empty = {
    .size = 0,
    .rank = MPI_UNDEFINED,
    .world_ranks = NULL,
    .refcount = 1,
    .predefined = true,
    .by_world = NULL,
};

struct comm_group *comm_group_lookup(MPI_Group handle)
{
    if (handle == MPI_GROUP_EMPTY) {
        return &group_empty;
    }
    if ((uintptr_t)handle < 0x1000) {
        return NULL; /* MPI_GROUP_NULL and the other small constants */
    }
    return (struct comm_group *)handle;
}

MPI_Group comm_group_handle(struct comm_group *group)
{
    if (group == &group_empty) {
        return MPI_GROUP_EMPTY;
    }
    return (MPI_Group)group;
}

struct group_pair {
    long world;
    int rank;
};

static int group_pair_cmp(const void *a, const void *b)
{
    const struct group_pair *pa = a, *pb = b;

    return (pa->world > pb->world) - (pa->world < pb->world);
}

int comm_group_create(const long *world_ranks, int size, long my_world_rank,
                      struct comm_group **group_out)
{
    struct comm_group *group;
    struct group_pair *pairs;
    int rc = COMM_ERR_NOMEM;

    if (size < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    if (size == 0) {
        *group_out = &group_empty;
        return COMM_OK;
    }
    pairs = malloc((size_t)size * sizeof(*pairs));
    if (pairs == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (int i = 0; i < size; i++) {
        if (world_ranks[i] < 0) {
            rc = COMM_ERR_BAD_PARAM;
            goto out_free_pairs;
        }
        pairs[i].world = world_ranks[i];
        pairs[i].rank = i;
    }
    qsort(pairs, (size_t)size, sizeof(*pairs), group_pair_cmp);
    for (int i = 1; i < size; i++) {
        if (pairs[i].world == pairs[i - 1].world) {
            rc = COMM_ERR_BAD_PARAM;
            goto out_free_pairs;
        }
    }
    group = calloc(1, sizeof(*group));
    if (group == NULL) {
        goto out_free_pairs;
    }
    group->world_ranks = malloc((size_t)size * sizeof(*group->world_ranks));
    if (group->world_ranks == NULL) {
        goto out_free_group;
    }
    group->by_world = malloc((size_t)size * sizeof(*group->by_world));
    if (group->by_world == NULL) {
        goto out_free_world_ranks;
    }
    memcpy(group->world_ranks, world_ranks, (size_t)size * sizeof(*group->world_ranks));
    for (int i = 0; i < size; i++) {
        group->by_world[i] = pairs[i].rank;
    }
    group->size = size;
    group->refcount = 1;
    group->predefined = false;
    group->rank = comm_group_rank_of_world(group, my_world_rank);
    free(pairs);
    *group_out = group;
    return COMM_OK;

out_free_world_ranks:
    free(group->world_ranks);
out_free_group:
    free(group);
out_free_pairs:
    free(pairs);
    return rc;
}

void comm_group_retain(struct comm_group *group)
{
    if (!group->predefined) {
        __atomic_add_fetch(&group->refcount, 1, __ATOMIC_RELAXED);
    }
}

void comm_group_release(struct comm_group *group)
{
    if (group == NULL || group->predefined ||
        __atomic_sub_fetch(&group->refcount, 1, __ATOMIC_ACQ_REL) > 0) {
        return;
    }
    free(group->by_world);
    free(group->world_ranks);
    free(group);
}

long comm_group_world_rank(const struct comm_group *group, int rank)
{
    return group->world_ranks[rank];
}

int comm_group_rank_of_world(const struct comm_group *group, long world_rank)
{
    int lo = 0, hi = group->size - 1;

    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        long w = group->world_ranks[group->by_world[mid]];

        if (w == world_rank) {
            return group->by_world[mid];
        }
        if (w < world_rank) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return MPI_UNDEFINED;
}

int comm_group_compare(const struct comm_group *group1, const struct comm_group *group2)
{
    bool same_order = true;

    if (group1 == group2) {
        return MPI_IDENT;
    }
    if (group1->size != group2->size) {
        return MPI_UNEQUAL;
    }
    /* Same size and distinct members: equal sorted lists mean equal sets. */
    for (int i = 0; i < group1->size; i++) {
        if (group1->world_ranks[group1->by_world[i]] != group2->world_ranks[group2->by_world[i]]) {
            return MPI_UNEQUAL;
        }
        if (group1->world_ranks[i] != group2->world_ranks[i]) {
            same_order = false;
        }
    }
    return same_order ? MPI_IDENT : MPI_SIMILAR;
}

int comm_group_translate(const struct comm_group *group1, int n, const int *ranks1,
                         const struct comm_group *group2, int *ranks2_out)
{
    if (n < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    for (int i = 0; i < n; i++) {
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= group1->size)) {
            return COMM_ERR_BAD_PARAM;
        }
    }
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2_out[i] = MPI_PROC_NULL;
        } else {
            ranks2_out[i] = comm_group_rank_of_world(group2, group1->world_ranks[ranks1[i]]);
        }
    }
    return COMM_OK;
}

/*
 * This process's world rank if either group holds it, else -1: the result of a set operation
 * holds this process only if one of its operands does.
 */
static long group_my_world_rank(const struct comm_group *group1, const struct comm_group *group2)
{
    if (group1->rank != MPI_UNDEFINED) {
        return group1->world_ranks[group1->rank];
    }
    if (group2 != NULL && group2->rank != MPI_UNDEFINED) {
        return group2->world_ranks[group2->rank];
    }
    return -1;
}

/* Allocates room for N world ranks (at least one, so that malloc(0) never means failure). */
static long *group_alloc_ranks(int n)
{
    long *ranks = malloc((size_t)(n > 0 ? n : 1) * sizeof(*ranks));

    return ranks;
}

int comm_group_union(const struct comm_group *group1, const struct comm_group *group2,
                     struct comm_group **group_out)
{
    long *ranks = group_alloc_ranks(group1->size + group2->size);
    int n = group1->size, rc;

    if (ranks == NULL) {
        return COMM_ERR_NOMEM;
    }
    if (group1->size > 0) {
        memcpy(ranks, group1->world_ranks, (size_t)group1->size * sizeof(*ranks));
    }
    for (int i = 0; i < group2->size; i++) {
        if (comm_group_rank_of_world(group1, group2->world_ranks[i]) == MPI_UNDEFINED) {
            ranks[n++] = group2->world_ranks[i];
        }
    }
    rc = comm_group_create(ranks, n, group_my_world_rank(group1, group2), group_out);
    free(ranks);
    return rc;
}

/* The ranks of GROUP1 that are (KEEP_MEMBERS) or are not in GROUP2, in GROUP1's order. */
static int group_filter(const struct comm_group *group1, const struct comm_group *group2,
                        bool keep_members, struct comm_group **group_out)
{
    long *ranks = group_alloc_ranks(group1->size);
    int n = 0, rc;

    if (ranks == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (int i = 0; i < group1->size; i++) {
        bool member = comm_group_rank_of_world(group2, group1->world_ranks[i]) != MPI_UNDEFINED;

        if (member == keep_members) {
            ranks[n++] = group1->world_ranks[i];
        }
    }
    rc = comm_group_create(ranks, n, group_my_world_rank(group1, NULL), group_out);
    free(ranks);
    return rc;
}

int comm_group_intersection(const struct comm_group *group1, const struct comm_group *group2,
                            struct comm_group **group_out)
{
    return group_filter(group1, group2, true, group_out);
}

int comm_group_difference(const struct comm_group *group1, const struct comm_group *group2,
                          struct comm_group **group_out)
{
    return group_filter(group1, group2, false, group_out);
}

/*
 * Marks the N ranks RANKS of GROUP in a new array of group->size flags (*marks_out, owned by the
 * caller).  Returns COMM_OK, COMM_ERR_BAD_PARAM (a rank out of range or repeated) or
 * COMM_ERR_NOMEM.
 */
static int group_mark(const struct comm_group *group, int n, const int *ranks, bool **marks_out)
{
    bool *marks;

    if (n < 0) {
        return COMM_ERR_BAD_PARAM;
    }
    marks = calloc((size_t)(group->size > 0 ? group->size : 1), sizeof(*marks));
    if (marks == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= group->size || marks[ranks[i]]) {
            free(marks);
            return COMM_ERR_BAD_PARAM;
        }
        marks[ranks[i]] = true;
    }
    *marks_out = marks;
    return COMM_OK;
}

int comm_group_incl(const struct comm_group *group, int n, const int *ranks,
                    struct comm_group **group_out)
{
    bool *marks;
    long *world;
    int rc = group_mark(group, n, ranks, &marks);

    if (rc < 0) {
        return rc;
    }
    world = group_alloc_ranks(n);
    if (world == NULL) {
        rc = COMM_ERR_NOMEM;
        goto out_free_marks;
    }
    for (int i = 0; i < n; i++) {
        world[i] = group->world_ranks[ranks[i]];
    }
    rc = comm_group_create(world, n, group_my_world_rank(group, NULL), group_out);
    free(world);
out_free_marks:
    free(marks);
    return rc;
}

int comm_group_excl(const struct comm_group *group, int n, const int *ranks,
                    struct comm_group **group_out)
{
    bool *marks;
    long *world;
    int rc = group_mark(group, n, ranks, &marks), count = 0;

    if (rc < 0) {
        return rc;
    }
    world = group_alloc_ranks(group->size - n);
    if (world == NULL) {
        rc = COMM_ERR_NOMEM;
        goto out_free_marks;
    }
    for (int i = 0; i < group->size; i++) {
        if (!marks[i]) {
            world[count++] = group->world_ranks[i];
        }
    }
    rc = comm_group_create(world, count, group_my_world_rank(group, NULL), group_out);
    free(world);
out_free_marks:
    free(marks);
    return rc;
}
