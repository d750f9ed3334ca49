/*
 * api_comm_manage.c - making and unmaking communicators: MPI_Comm_dup, MPI_Comm_split,
 * MPI_Comm_free, and comparing and naming them.
 *
 * Layer: api.  The contexts of new communicators are agreed, and duplicates made, by the
 * core (runtime/comm/communicator_make.c).
 */
#include "config.h"

#include "api/api.h"
#include "runtime/comm/proc_topo.h"
#include "base/error.h"
#include "runtime/info.h"
#include "runtime/runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    struct comm_communicator *c, *n;
    uint32_t context = 0; /* set by comm_communicator_agree_context on success */
    int err = comm_api_enter_comm("MPI_Comm_dup", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (newcomm == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_dup: newcomm is NULL");
    }
    if (c->inter) {
        err = comm_api_inter_dup("MPI_Comm_dup", c, &n);
    } else {
        err = comm_communicator_agree_context(c, &context);
        if (err != MPI_SUCCESS) {
            err = comm_api_error(c, err, "MPI_Comm_dup: cannot agree on a context");
        } else if (comm_communicator_make_from(c, context, &n) < 0) {
            err = comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_dup: out of memory");
        }
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    comm_proc_topo_attach(n, c->proc_topo); /* a duplicate keeps the topology */
    err = comm_api_attr_copy("MPI_Comm_dup", c, n);
    if (err != MPI_SUCCESS) {
        comm_api_attr_delete_all("MPI_Comm_dup", n);
        comm_communicator_free(n);
        return err;
    }
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

COMM_API_ALIAS(MPI_Comm_dup);

/* Orders the members of a split: by key, then by rank in the parent. */
static int manage_by_key(const void *a, const void *b)
{
    const int *x = a, *y = b;

    if (x[0] != y[0]) {
        return x[0] < y[0] ? -1 : 1;
    }
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* What each member of a split says in its one exchange: its color and key, and its context
 * proposal (comm_communicator_context_proposal). */
enum { SPLIT_COLOR, SPLIT_KEY, SPLIT_NEXT, SPLIT_UNSETTLED, SPLIT_FIELDS };

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    struct comm_communicator *c, *n;
    uint32_t context;
    long long *said = NULL;
    unsigned next, unsettled, candidate = 0;
    bool any_unsettled = false;
    int *members = NULL, nmembers = 0, me = -1;
    long *ranks = NULL;
    int err = comm_api_enter_intracomm("MPI_Comm_split", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (newcomm == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_split: newcomm is NULL");
    }
    if (color < 0 && color != MPI_UNDEFINED) {
        return comm_api_error(c, MPI_ERR_ARG,
                              "MPI_Comm_split: invalid color %d (colors are "
                              "non-negative, or MPI_UNDEFINED)",
                              color);
    }
    /* Everyone learns what every member said in one exchange: each rank fills its slot, a sum
     * fills the rest. */
    said = calloc((size_t)c->size * SPLIT_FIELDS, sizeof(*said));
    members = malloc((size_t)c->size * 2 * sizeof(*members));
    ranks = malloc((size_t)c->size * sizeof(*ranks));
    if (said == NULL || members == NULL || ranks == NULL) {
        err = comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory");
        goto out_free;
    }
    comm_communicator_context_proposal(&next, &unsettled);
    said[SPLIT_FIELDS * c->rank + SPLIT_COLOR] = color;
    said[SPLIT_FIELDS * c->rank + SPLIT_KEY] = key;
    said[SPLIT_FIELDS * c->rank + SPLIT_NEXT] = next;
    said[SPLIT_FIELDS * c->rank + SPLIT_UNSETTLED] = unsettled;
    err = PMPI_Allreduce(MPI_IN_PLACE, said, c->size * SPLIT_FIELDS, MPI_LONG_LONG, MPI_SUM, comm);
    if (err != MPI_SUCCESS) {
        goto out_free;
    }
    for (int r = 0; r < c->size; r++) {
        const long long *theirs = &said[SPLIT_FIELDS * r];

        candidate =
            (unsigned)theirs[SPLIT_NEXT] > candidate ? (unsigned)theirs[SPLIT_NEXT] : candidate;
        any_unsettled = any_unsettled || theirs[SPLIT_UNSETTLED] != 0;
    }
    err = comm_communicator_context_settle(c, candidate, any_unsettled, &context);
    if (err != MPI_SUCCESS) {
        err = comm_api_error(c, err, "MPI_Comm_split: cannot agree on a context");
        goto out_free;
    }
    if (color == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        goto out_free;
    }
    for (int r = 0; r < c->size; r++) {
        if (said[SPLIT_FIELDS * r + SPLIT_COLOR] == color) {
            members[2 * nmembers] = (int)said[SPLIT_FIELDS * r + SPLIT_KEY];
            members[2 * nmembers + 1] = r;
            nmembers++;
        }
    }
    qsort(members, (size_t)nmembers, 2 * sizeof(*members), manage_by_key);
    for (int i = 0; i < nmembers; i++) {
        ranks[i] = comm_communicator_world_rank(c, members[2 * i + 1]);
        if (members[2 * i + 1] == c->rank) {
            me = i;
        }
    }
    /* Disjoint colors may share the context: no process is in two of them. */
    if (comm_communicator_create(ranks, nmembers, me, context, c->errhandler, &n) < 0) {
        err = comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory");
        goto out_free;
    }
    *newcomm = n->handle;
out_free:
    free(ranks);
    free(members);
    free(said);
    return err;
}
COMM_API_ALIAS(MPI_Comm_split);

int PMPI_Comm_free(MPI_Comm *comm)
{
    struct comm_communicator *c;
    int err;

    if (comm == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Comm_free: comm is NULL");
    }
    err = comm_api_enter_comm("MPI_Comm_free", *comm, &c);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (c->predefined) {
        return comm_api_error(c, MPI_ERR_COMM, "MPI_Comm_free: %s cannot be freed", c->name);
    }
    err = comm_api_attr_delete_all("MPI_Comm_free", c);
    if (err != MPI_SUCCESS) {
        return err;
    }
    comm_api_handle_forget(COMM_API_HANDLE_COMM, *comm);
    comm_communicator_free(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_free);

/* MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL for two lists of world ranks. */
static int manage_compare_ranks(const long *a, int na, const long *b, int nb)
{
    bool same_order = true;

    if (na != nb) {
        return MPI_UNEQUAL;
    }
    for (int r = 0; r < na; r++) {
        same_order = same_order && a[r] == b[r];
    }
    if (same_order) {
        return MPI_CONGRUENT;
    }
    for (int r = 0; r < na; r++) {
        bool found = false;

        for (int s = 0; s < nb && !found; s++) {
            found = a[r] == b[s];
        }
        if (!found) {
            return MPI_UNEQUAL;
        }
    }
    return MPI_SIMILAR;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    struct comm_communicator *a, *b;
    long *ra, *rb;
    int err = comm_api_enter_comm("MPI_Comm_compare", comm1, &a);

    if (err == MPI_SUCCESS) {
        err = comm_api_enter_comm("MPI_Comm_compare", comm2, &b);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (result == NULL) {
        return comm_api_error(a, MPI_ERR_ARG, "MPI_Comm_compare: result is NULL");
    }
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (a->inter != b->inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    ra = comm_communicator_local_ranks(a);
    rb = comm_communicator_local_ranks(b);
    if (ra == NULL || rb == NULL) {
        free(ra);
        free(rb);
        return comm_api_error(a, MPI_ERR_NO_MEM, "MPI_Comm_compare: out of memory");
    }
    *result = manage_compare_ranks(ra, a->size, rb, b->size);
    if (a->inter) {
        /* Both groups count: the weaker of the two answers. */
        int remote = manage_compare_ranks(a->remote_world_ranks, a->remote_size,
                                          b->remote_world_ranks, b->remote_size);

        *result = remote > *result ? remote : *result;
    }
    free(ra);
    free(rb);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_compare);

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Comm_set_name", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (comm_name == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_set_name: comm_name is NULL");
    }
    snprintf(c->name, sizeof(c->name), "%s", comm_name);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_set_name);

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Comm_get_name", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (comm_name == NULL || resultlen == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_get_name: %s is NULL",
                              comm_name == NULL ? "comm_name" : "resultlen");
    }
    *resultlen = snprintf(comm_name, MPI_MAX_OBJECT_NAME, "%s", c->name);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_get_name);

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Comm_test_inter", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (flag == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_test_inter: flag is NULL");
    }
    *flag = c->inter;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_test_inter);

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    struct comm_communicator *c;
    struct comm_info *given, *copy;
    int err = comm_api_enter_comm("MPI_Comm_set_info", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    given = comm_info_lookup(info);
    if (given == NULL) {
        return comm_api_error(c, MPI_ERR_INFO, "MPI_Comm_set_info: invalid info handle");
    }
    if (comm_info_dup(given, &copy) < 0) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_set_info: out of memory");
    }
    if (c->info != NULL) {
        comm_info_release(c->info);
    }
    c->info = copy;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_set_info);

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    struct comm_communicator *c;
    struct comm_info *copy;
    int err = comm_api_enter_comm("MPI_Comm_get_info", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (info_used == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_get_info: info_used is NULL");
    }
    err = c->info != NULL ? comm_info_dup(c->info, &copy) : comm_info_create(&copy);
    if (err < 0) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_get_info: out of memory");
    }
    *info_used = comm_info_handle(copy);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_get_info);

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    int err = PMPI_Comm_dup(comm, newcomm);

    if (err != MPI_SUCCESS || info == MPI_INFO_NULL) {
        return err;
    }
    return PMPI_Comm_set_info(*newcomm, info);
}
COMM_API_ALIAS(MPI_Comm_dup_with_info);

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    void *p;
    int err = comm_api_check_running("MPI_Alloc_mem");

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (size < 0) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Alloc_mem: invalid size %ld", (long)size);
    }
    if (baseptr == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Alloc_mem: baseptr is NULL");
    }
    if (info != MPI_INFO_NULL && comm_info_lookup(info) == NULL) {
        return comm_api_error(NULL, MPI_ERR_INFO, "MPI_Alloc_mem: invalid info handle");
    }
    p = malloc(size > 0 ? (size_t)size : 1);
    if (p == NULL) {
        return comm_api_error(NULL, MPI_ERR_NO_MEM, "MPI_Alloc_mem: cannot allocate %ld bytes",
                              (long)size);
    }
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Alloc_mem);

int PMPI_Free_mem(void *base)
{
    int err = comm_api_check_running("MPI_Free_mem");

    if (err == MPI_SUCCESS) {
        free(base);
    }
    return err;
}
COMM_API_ALIAS(MPI_Free_mem);
