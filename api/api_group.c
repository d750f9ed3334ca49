/*
 * api_group.c - the MPI group calls: size, rank, translation, comparison, set operations, free.
 *
 * Layer: api.  Checks every argument and raises the error naming it; the group engine
 * (runtime/comm/group.c) does the work on checked arguments.  Groups are local objects, so no call
 * here communicates.
 */
#include "config.h"

#include "api/api.h"
#include "base/error.h"
#include "runtime/comm/group.h"

#include <stdint.h>
#include <stdlib.h>

/* Checks that the argument ARG of FUNC names a group; sets *group_out. */
static int group_check(const char *func, const char *arg, MPI_Group handle,
                       struct comm_group **group_out)
{
    struct comm_group *group = comm_group_lookup(handle);

    if (group == NULL && handle == MPI_GROUP_NULL) {
        return comm_api_error(NULL, MPI_ERR_GROUP, "%s: invalid %s MPI_GROUP_NULL", func, arg);
    }
    if (group == NULL) {
        return comm_api_error(NULL, MPI_ERR_GROUP, "%s: invalid %s handle %#lx", func, arg,
                              (unsigned long)(uintptr_t)handle);
    }
    *group_out = group;
    return MPI_SUCCESS;
}

/* The start of the calls on one group: running, GROUP valid, OUT not NULL. */
static int group_enter(const char *func, MPI_Group handle, const void *out,
                       struct comm_group **group_out)
{
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = group_check(func, "group", handle, group_out);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (out == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: the output argument is NULL", func);
    }
    return MPI_SUCCESS;
}

/* The start of the calls on two groups that make a third. */
static int group_enter2(const char *func, MPI_Group handle1, MPI_Group handle2,
                        const MPI_Group *newgroup, struct comm_group **group1_out,
                        struct comm_group **group2_out)
{
    int err = group_enter(func, handle1, newgroup, group1_out);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return group_check(func, "group2", handle2, group2_out);
}

/* Hands the new GROUP to the user, or raises the error RC of the engine call that made it. */
static int group_return(const char *func, int rc, struct comm_group *group, MPI_Group *newgroup)
{
    if (rc == COMM_ERR_NOMEM) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    if (rc < 0) {
        return comm_api_error(NULL, comm_api_code_of_status(rc), "%s: %s", func, comm_strerror(rc));
    }
    *newgroup = comm_group_handle(group);
    return MPI_SUCCESS;
}

int PMPI_Group_size(MPI_Group group, int *size)
{
    struct comm_group *g;
    int err = group_enter("MPI_Group_size", group, size, &g);

    if (err != MPI_SUCCESS) {
        return err;
    }
    *size = g->size;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Group_size);

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    struct comm_group *g;
    int err = group_enter("MPI_Group_rank", group, rank, &g);

    if (err != MPI_SUCCESS) {
        return err;
    }
    *rank = g->rank;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Group_rank);

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    static const char func[] = "MPI_Group_translate_ranks";
    struct comm_group *g1, *g2;
    int err = comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = group_check(func, "group1", group1, &g1);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = group_check(func, "group2", group2, &g2);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (n < 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid count n %d", func, n);
    }
    if (n > 0 && (ranks1 == NULL || ranks2 == NULL)) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: %s is NULL", func,
                              ranks1 == NULL ? "ranks1" : "ranks2");
    }
    for (int i = 0; i < n; i++) {
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= g1->size)) {
            return comm_api_error(NULL, MPI_ERR_RANK,
                                  "%s: invalid rank %d at ranks1[%d] in group1 of size %d", func,
                                  ranks1[i], i, g1->size);
        }
    }
    err = comm_group_translate(g1, n, ranks1, g2, ranks2);
    if (err < 0) {
        return comm_api_error(NULL, MPI_ERR_INTERN, "%s: %s", func, comm_strerror(err));
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Group_translate_ranks);

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    struct comm_group *g1, *g2;
    int err = group_enter("MPI_Group_compare", group1, result, &g1);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = group_check("MPI_Group_compare", "group2", group2, &g2);
    if (err != MPI_SUCCESS) {
        return err;
    }
    *result = comm_group_compare(g1, g2);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Group_compare);

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    struct comm_group *g1, *g2, *g = NULL;
    int err = group_enter2("MPI_Group_union", group1, group2, newgroup, &g1, &g2);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_group_union(g1, g2, &g);
    return group_return("MPI_Group_union", err, g, newgroup);
}
COMM_API_ALIAS(MPI_Group_union);

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    struct comm_group *g1, *g2, *g = NULL;
    int err = group_enter2("MPI_Group_intersection", group1, group2, newgroup, &g1, &g2);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_group_intersection(g1, g2, &g);
    return group_return("MPI_Group_intersection", err, g, newgroup);
}
COMM_API_ALIAS(MPI_Group_intersection);

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    struct comm_group *g1, *g2, *g = NULL;
    int err = group_enter2("MPI_Group_difference", group1, group2, newgroup, &g1, &g2);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_group_difference(g1, g2, &g);
    return group_return("MPI_Group_difference", err, g, newgroup);
}
COMM_API_ALIAS(MPI_Group_difference);

/*
 * Checks the N ranks of MPI_Group_incl/excl: each a rank of GROUP, none twice.  Uses a table of
 * where each rank was seen, so the message can name both places.
 */
static int group_check_ranks(const char *func, const struct comm_group *group, int n,
                             const int ranks[])
{
    int *seen, err = MPI_SUCCESS;

    if (n < 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid count n %d", func, n);
    }
    if (n > 0 && ranks == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: ranks is NULL", func);
    }
    seen = malloc((size_t)(group->size > 0 ? group->size : 1) * sizeof(*seen));
    if (seen == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    for (int r = 0; r < group->size; r++) {
        seen[r] = -1;
    }
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= group->size) {
            err = comm_api_error(NULL, MPI_ERR_RANK,
                                 "%s: invalid rank %d at ranks[%d] in a group of size %d", func,
                                 ranks[i], i, group->size);
            break;
        }
        if (seen[ranks[i]] >= 0) {
            err = comm_api_error(NULL, MPI_ERR_RANK,
                                 "%s: rank %d is listed twice, at ranks[%d] and ranks[%d]", func,
                                 ranks[i], seen[ranks[i]], i);
            break;
        }
        seen[ranks[i]] = i;
    }
    free(seen);
    return err;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    struct comm_group *g, *ng = NULL;
    int err = group_enter("MPI_Group_incl", group, newgroup, &g);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = group_check_ranks("MPI_Group_incl", g, n, ranks);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_group_incl(g, n, ranks, &ng);
    return group_return("MPI_Group_incl", err, ng, newgroup);
}
COMM_API_ALIAS(MPI_Group_incl);

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    struct comm_group *g, *ng = NULL;
    int err = group_enter("MPI_Group_excl", group, newgroup, &g);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = group_check_ranks("MPI_Group_excl", g, n, ranks);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_group_excl(g, n, ranks, &ng);
    return group_return("MPI_Group_excl", err, ng, newgroup);
}
COMM_API_ALIAS(MPI_Group_excl);

/*
 * Expands the N triplets (first, last, stride) of MPI_Group_range_incl/excl into a list of
 * ranks of GROUP (*ranks_out, malloc'ed, owned by the caller), checking each triplet: first and
 * last must be ranks of GROUP, stride must not be 0 and must lead from first towards last
 * (MPI-3.1 section 6.3.2 allows first > last with a negative stride), and no rank may come
 * twice.  The list never holds more than group->size ranks.
 */
static int group_expand_ranges(const char *func, const struct comm_group *group, int n,
                               int ranges[][3], int **ranks_out, int *count_out)
{
    int *ranks, *seen, count = 0, err = MPI_SUCCESS;
    size_t room = (size_t)(group->size > 0 ? group->size : 1);

    if (n < 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid count n %d", func, n);
    }
    if (n > 0 && ranges == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "%s: ranges is NULL", func);
    }
    ranks = malloc(room * sizeof(*ranks));
    seen = malloc(room * sizeof(*seen));
    if (ranks == NULL || seen == NULL) {
        err = comm_api_error(NULL, MPI_ERR_NO_MEM, "%s: out of memory", func);
        goto out_free;
    }
    for (int r = 0; r < group->size; r++) {
        seen[r] = -1;
    }
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];

        if (first < 0 || first >= group->size || last < 0 || last >= group->size) {
            err = comm_api_error(NULL, MPI_ERR_RANK,
                                 "%s: invalid %s %d in ranges[%d] for a group of size %d", func,
                                 first < 0 || first >= group->size ? "first rank" : "last rank",
                                 first < 0 || first >= group->size ? first : last, i, group->size);
            break;
        }
        if (stride == 0) {
            err = comm_api_error(NULL, MPI_ERR_ARG, "%s: invalid stride 0 in ranges[%d]", func, i);
            break;
        }
        if ((stride > 0 && first > last) || (stride < 0 && first < last)) {
            err = comm_api_error(NULL, MPI_ERR_ARG,
                                 "%s: invalid stride %d in ranges[%d]: it leads away from last "
                                 "rank %d to first rank %d",
                                 func, stride, i, last, first);
            break;
        }
        for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (seen[r] >= 0) {
                err = comm_api_error(NULL, MPI_ERR_RANK,
                                     "%s: rank %ld is listed twice, by ranges[%d] and "
                                     "ranges[%d]",
                                     func, r, seen[r], i);
                break;
            }
            seen[r] = i;
            ranks[count++] = (int)r;
        }
    }
    if (err == MPI_SUCCESS) {
        *ranks_out = ranks;
        *count_out = count;
        ranks = NULL;
    }
out_free:
    free(seen);
    free(ranks);
    return err;
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    struct comm_group *g, *ng = NULL;
    int *ranks, count;
    int err = group_enter("MPI_Group_range_incl", group, newgroup, &g);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = group_expand_ranges("MPI_Group_range_incl", g, n, ranges, &ranks, &count);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_group_incl(g, count, ranks, &ng);
    err = group_return("MPI_Group_range_incl", err, ng, newgroup);
    free(ranks);
    return err;
}
COMM_API_ALIAS(MPI_Group_range_incl);

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    struct comm_group *g, *ng = NULL;
    int *ranks, count;
    int err = group_enter("MPI_Group_range_excl", group, newgroup, &g);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = group_expand_ranges("MPI_Group_range_excl", g, n, ranges, &ranks, &count);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_group_excl(g, count, ranks, &ng);
    err = group_return("MPI_Group_range_excl", err, ng, newgroup);
    free(ranks);
    return err;
}
COMM_API_ALIAS(MPI_Group_range_excl);

/*
 * Freeing MPI_GROUP_EMPTY is allowed, as in Open MPI and MPICH: a group constructor may return
 * it, and portable programs free whatever a constructor returned.  The static object stays.
 */
int PMPI_Group_free(MPI_Group *group)
{
    struct comm_group *g;
    int err = comm_api_check_running("MPI_Group_free");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (group == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Group_free: group is NULL");
    }
    err = group_check("MPI_Group_free", "group", *group, &g);
    if (err != MPI_SUCCESS) {
        return err;
    }
    comm_api_handle_forget(COMM_API_HANDLE_GROUP, *group);
    comm_group_release(g);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Group_free);
