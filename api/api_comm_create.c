/*
 * api_comm_create.c - communicators from groups (MPI_Comm_create, MPI_Comm_create_group) and the
 * nonblocking duplicate (MPI_Comm_idup).
 *
 * Layer: api (uses coll/ for the agreement messages and schedules).
 *
 * MPI_Comm_create agrees on the context over the whole parent, like MPI_Comm_split.
 * MPI_Comm_create_group is called by the group's members only: they agree among themselves,
 * through the group's first member, on the parent's collective context with a tag made from
 * the user's, so that creations with different tags may run at once.
 *
 * MPI_Comm_idup cannot hold its context while it waits: other communicators may be made in
 * the meantime.  So it agrees in rounds: the members first take the largest of their "next
 * free context"s as the candidate; each then checks that the candidate is still free for it
 * and reserves it, and a second reduction tells whether everyone could.  If one could not, the
 * largest next context seen in that round is the new candidate, and the check repeats.
 */
#include "config.h"

#include "coll/coll.h"
#include "coll/nbc/nbc.h"
#include "api/api.h"
#include "runtime/comm/proc_topo.h"
#include "runtime/datatype/datatype.h"
#include "runtime/comm/group.h"
#include "runtime/op/op.h"
#include "runtime/p2p/request.h"

#include <stdlib.h>

enum { CREATE_TAG_GROUP = 1 << 25, CREATE_TAG_SPAN = 1 << 24 };

/* Checks GROUP for a communicator made from C: every member must be in C. */
static int create_check_group(const char *func, struct comm_communicator *c, MPI_Group group,
                              struct comm_group **group_out)
{
    struct comm_group *g = comm_group_lookup(group);

    if (g == NULL) {
        return comm_api_error(c, MPI_ERR_GROUP, "%s: invalid group", func);
    }
    for (int r = 0; r < g->size; r++) {
        bool found = false;

        for (int p = 0; p < c->size && !found; p++) {
            found = comm_communicator_world_rank(c, p) == g->world_ranks[r];
        }
        if (!found) {
            return comm_api_error(c, MPI_ERR_GROUP,
                                  "%s: rank %d of the group is not in the communicator", func, r);
        }
    }
    *group_out = g;
    return MPI_SUCCESS;
}

/* Makes the communicator of G (which this process is in) on CONTEXT. */
static int create_from_group(const char *func, struct comm_communicator *c, struct comm_group *g,
                             uint32_t context, MPI_Comm *newcomm)
{
    struct comm_communicator *n;

    if (comm_communicator_create(g->world_ranks, g->size, g->rank, context, c->errhandler, &n) <
        0) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    struct comm_communicator *c;
    struct comm_group *g;
    uint32_t context;
    int err = comm_api_enter_intracomm("MPI_Comm_create", comm, &c);

    if (err == MPI_SUCCESS && newcomm == NULL) {
        err = comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_create: newcomm is NULL");
    }
    if (err == MPI_SUCCESS) {
        err = create_check_group("MPI_Comm_create", c, group, &g);
    }
    if (err == MPI_SUCCESS) {
        err = comm_communicator_agree_context(c, &context);
        if (err != MPI_SUCCESS) {
            err = comm_api_error(c, err, "MPI_Comm_create: cannot agree on a context");
        }
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (g->rank == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    /* Members that passed disjoint groups may share the context: no process is in two. */
    return create_from_group("MPI_Comm_create", c, g, context, newcomm);
}
COMM_API_ALIAS(MPI_Comm_create);

/* C's rank of world rank W (a member of C). */
static int create_parent_rank(const struct comm_communicator *c, long w)
{
    for (int p = 0; p < c->size; p++) {
        if (comm_communicator_world_rank(c, p) == w) {
            return p;
        }
    }
    return MPI_UNDEFINED;
}

/*
 * One round of the group's agreement on a context: the first member takes the largest of
 * every member's MINE[1] and whether any says MINE[0] (taken), and hands both back in AGREED.
 */
static int create_group_round(struct comm_communicator *c, const struct comm_group *g, int t,
                              const unsigned mine[2], unsigned agreed[2])
{
    struct comm_datatype *type = comm_datatype_lookup(MPI_UNSIGNED);
    int first = create_parent_rank(c, g->world_ranks[0]), err = MPI_SUCCESS;

    if (g->rank != 0) {
        err = comm_coll_send(mine, 2, type, first, t, c);
        return err == MPI_SUCCESS ? comm_coll_recv(agreed, 2, type, first, t, c) : err;
    }
    agreed[0] = mine[0];
    agreed[1] = mine[1];
    for (int r = 1; r < g->size && err == MPI_SUCCESS; r++) {
        unsigned theirs[2];

        err = comm_coll_recv(theirs, 2, type, create_parent_rank(c, g->world_ranks[r]), t, c);
        agreed[0] |= theirs[0];
        agreed[1] = theirs[1] > agreed[1] ? theirs[1] : agreed[1];
    }
    for (int r = 1; r < g->size && err == MPI_SUCCESS; r++) {
        err = comm_coll_send(agreed, 2, type, create_parent_rank(c, g->world_ranks[r]), t, c);
    }
    return err;
}

int comm_api_group_agree_context(struct comm_communicator *c, const struct comm_group *g, int tag,
                                 uint32_t *context_out)
{
    unsigned mine[2], agreed[2], candidate;
    int err;

    comm_communicator_context_proposal(&mine[1], &mine[0]);
    err = create_group_round(c, g, tag, mine, agreed);
    candidate = agreed[1];
    /* A member said the largest proposal might be taken meanwhile (another thread, or an
     * MPI_Comm_idup, makes a communicator): every member claims it, until none finds it
     * taken. */
    while (err == MPI_SUCCESS && agreed[0] != 0) {
        mine[0] = comm_communicator_claim_context(candidate, &mine[1]) ? 0 : 1;
        err = create_group_round(c, g, tag, mine, agreed);
        candidate = agreed[0] != 0 ? agreed[1] : candidate;
    }
    if (err == MPI_SUCCESS) {
        *context_out = candidate;
    }
    return err;
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    const char *func = "MPI_Comm_create_group";
    struct comm_communicator *c;
    struct comm_group *g;
    uint32_t context;
    int err = comm_api_enter_intracomm(func, comm, &c);

    if (err == MPI_SUCCESS && newcomm == NULL) {
        err = comm_api_error(c, MPI_ERR_ARG, "%s: newcomm is NULL", func);
    }
    if (err == MPI_SUCCESS && (tag < 0 || tag > COMM_API_TAG_UB)) {
        err = comm_api_error(c, MPI_ERR_TAG, "%s: invalid tag %d", func, tag);
    }
    if (err == MPI_SUCCESS) {
        err = create_check_group(func, c, group, &g);
    }
    if (err == MPI_SUCCESS && g->rank == MPI_UNDEFINED) {
        err = comm_api_error(c, MPI_ERR_GROUP, "%s: the calling process is not in the group", func);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_api_group_agree_context(c, g, CREATE_TAG_GROUP + tag % CREATE_TAG_SPAN, &context);
    if (err != MPI_SUCCESS) {
        return comm_api_error(c, err, "%s: cannot agree on a context", func);
    }
    return create_from_group(func, c, g, context, newcomm);
}
COMM_API_ALIAS(MPI_Comm_create_group);

/* ---- MPI_Comm_idup ---------------------------------------------------------------------- */

struct idup_state {
    struct comm_communicator *parent;
    MPI_Comm *newcomm;
    unsigned mine[2];   /* [0]: 1 if the candidate is taken here; [1]: our next context */
    unsigned agreed[2]; /* their maxima over the members */
    unsigned candidate;
    bool checking; /* agreed[0] answers a check (not the first proposal) */
};

static int idup_step(struct comm_coll_sched *s, void *arg);

/* Checks and reserves the candidate here, and asks the others how it went. */
static int idup_check(struct comm_coll_sched *s, struct idup_state *st)
{
    struct comm_datatype *type = comm_datatype_lookup(MPI_UNSIGNED);
    int err;

    st->mine[0] = comm_communicator_claim_context(st->candidate, &st->mine[1]) ? 0 : 1;
    st->checking = true;
    err = comm_coll_iallreduce(s, st->mine, st->agreed, 2, type, comm_op_lookup(MPI_MAX));
    return err == MPI_SUCCESS ? comm_coll_sched_call(s, idup_step, st) : err;
}

static int idup_step(struct comm_coll_sched *s, void *arg)
{
    struct idup_state *st = arg;
    struct comm_communicator *n;
    int err;

    if (!st->checking || st->agreed[0] != 0) {
        st->candidate = st->agreed[1];
        return idup_check(s, st);
    }
    /* The candidate was reserved at the check: nothing here takes contexts any more. */
    comm_communicator_idup_inflight(-1);
    if (comm_communicator_make_from(st->parent, st->candidate, &n) < 0) {
        return comm_api_error(st->parent, MPI_ERR_NO_MEM, "MPI_Comm_idup: out of memory");
    }
    comm_proc_topo_attach(n, st->parent->proc_topo); /* a duplicate keeps the topology */
    err = comm_api_attr_copy("MPI_Comm_idup", st->parent, n);
    if (err != MPI_SUCCESS) {
        comm_api_attr_delete_all("MPI_Comm_idup", n);
        comm_communicator_free(n);
        return err;
    }
    *st->newcomm = n->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    struct comm_datatype *type = comm_datatype_lookup(MPI_UNSIGNED);
    struct comm_communicator *c;
    struct comm_coll_sched *s;
    struct idup_state *st;
    int err = comm_api_enter_intracomm("MPI_Comm_idup", comm, &c);

    if (err == MPI_SUCCESS && newcomm == NULL) {
        err = comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_idup: newcomm is NULL");
    }
    if (err == MPI_SUCCESS) {
        err = comm_api_check_request_out("MPI_Comm_idup", c, request);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    s = comm_coll_sched_new(c);
    st = s ? comm_coll_sched_buffer(s, sizeof(*st)) : NULL;
    if (st != NULL) {
        *st = (struct idup_state){.parent = c, .newcomm = newcomm};
        st->mine[1] = comm_communicator_next_context();
        err = comm_coll_iallreduce(s, st->mine, st->agreed, 2, type, comm_op_lookup(MPI_MAX));
        if (err == MPI_SUCCESS) {
            err = comm_coll_sched_call(s, idup_step, st);
        }
        if (err == MPI_SUCCESS) {
            comm_communicator_idup_inflight(1);
        }
    } else {
        err = MPI_ERR_NO_MEM;
    }
    *newcomm = MPI_COMM_NULL;
    return comm_api_start_schedule("MPI_Comm_idup", c, s, err, request);
}
COMM_API_ALIAS(MPI_Comm_idup);
