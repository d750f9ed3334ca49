/*
 * api_intercomm.c - intercommunicators: MPI_Intercomm_create, MPI_Intercomm_merge,
 * MPI_Comm_remote_size, MPI_Comm_remote_group, and MPI_Comm_dup of an intercommunicator.
 *
 * Layer: api (uses coll/ for the messages between the groups).
 *
 * An intercommunicator lives on a context new to every member of both groups (the largest of
 * their "next free context"s); its local intracommunicator, which its collectives use, takes
 * the context after it.  The groups' leaders agree on what concerns both groups and tell their
 * own group by a broadcast.
 */
#include "config.h"

#include "coll/coll.h"
#include "coll/inter/inter.h"
#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "runtime/comm/group.h"
#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>

/* MPI_Intercomm_create's messages between the leaders, on the peer communicator's
 * collective context: far from every collective tag, one per user tag. */
enum { INTER_TAG_CREATE = 1 << 24, INTER_TAG_SPAN = 1 << 24 };

static struct comm_datatype *inter_type(MPI_Datatype handle)
{
    return comm_datatype_lookup(handle);
}

/* The largest "next free context" of LOCAL's members (allreduce). */
static int inter_local_next(const char *func, struct comm_communicator *local, unsigned *out)
{
    unsigned next = comm_communicator_next_context();
    int err = PMPI_Allreduce(&next, out, 1, MPI_UNSIGNED, MPI_MAX, local->handle);

    return err == MPI_SUCCESS ? MPI_SUCCESS
                              : comm_api_error(local, err, "%s: cannot agree on a context", func);
}

/* Broadcasts N longs from LEADER over LOCAL. */
static int inter_share(const char *func, struct comm_communicator *local, long *values, int n,
                       int leader)
{
    int err = PMPI_Bcast(values, n, MPI_LONG, leader, local->handle);

    return err == MPI_SUCCESS ? MPI_SUCCESS
                              : comm_api_error(local, err, "%s: cannot share the agreement", func);
}

/* How the leaders of the two groups trade two longs (OURS for THEIRS) and tell their groups;
 * ARG is the caller's. */
typedef int (*inter_trade_fn)(void *arg, long *ours, long *theirs);

/*
 * Makes sure CANDIDATE is new to every member of both groups, as
 * comm_communicator_agree_context does for one: every member of LOCAL claims it, the group
 * takes the largest of (taken, next context) of its members, the leaders trade theirs with
 * TRADE, and while any member found it taken the largest next context is tried.  So threads
 * of one process may make communicators at once.  *CONTEXT_OUT: the context agreed.
 */
static int inter_claim(const char *func, struct comm_communicator *local, uint32_t candidate,
                       inter_trade_fn trade, void *arg, uint32_t *context_out)
{
    for (;;) {
        unsigned mine[2], group[2];
        long ours[2], theirs[2] = {0, 0};
        int err;

        mine[0] = comm_communicator_claim_context(candidate, &mine[1]) ? 0 : 1;
        err = PMPI_Allreduce(mine, group, 2, MPI_UNSIGNED, MPI_MAX, local->handle);
        if (err != MPI_SUCCESS) {
            return comm_api_error(local, err, "%s: cannot agree on a context", func);
        }
        ours[0] = group[0];
        ours[1] = group[1];
        err = trade(arg, ours, theirs);
        if (err != MPI_SUCCESS) {
            return err;
        }
        if (ours[0] == 0 && theirs[0] == 0) {
            *context_out = candidate;
            return MPI_SUCCESS;
        }
        candidate = (uint32_t)(theirs[1] > ours[1] ? theirs[1] : ours[1]);
    }
}

/* MPI_Intercomm_create's leaders, which trade through the peer communicator. */
struct inter_create_leaders {
    const char *func;
    struct comm_communicator *local;
    struct comm_communicator *peer; /* at the local leader only */
    int local_leader;
    int remote_leader;
    int tag;
};

static int inter_create_trade(void *arg, long *ours, long *theirs)
{
    struct inter_create_leaders *l = arg;
    int err;

    if (l->local->rank == l->local_leader &&
        comm_coll_sendrecv(ours, 2, inter_type(MPI_LONG), l->remote_leader, theirs, 2,
                           inter_type(MPI_LONG), l->remote_leader, l->tag,
                           l->peer) != MPI_SUCCESS) {
        theirs[0] = -1; /* tells the group to give up */
    }
    err = inter_share(l->func, l->local, theirs, 2, l->local_leader);
    if (err == MPI_SUCCESS && theirs[0] < 0) {
        err = comm_api_error(l->local, MPI_ERR_OTHER, "%s: the leaders could not agree", l->func);
    }
    return err;
}

/*
 * Makes the intercommunicator of LOCAL's group (in LOCAL's order) and REMOTE_RANKS on CONTEXT,
 * with its local intracommunicator on CONTEXT + 2.
 */
static int inter_make(const char *func, struct comm_communicator *local, const long *remote_ranks,
                      int remote_size, uint32_t context, struct comm_communicator **comm_out)
{
    struct comm_communicator *inter, *local_copy;

    if (comm_communicator_make_from(local, context, &inter) < 0) {
        return comm_api_error(local, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    if (comm_communicator_make_from(local, context + 2, &local_copy) < 0) {
        comm_communicator_free(inter);
        return comm_api_error(local, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    snprintf(local_copy->name, sizeof(local_copy->name), "local group of an intercommunicator");
    if (comm_communicator_make_inter(inter, remote_ranks, remote_size, local_copy) < 0) {
        comm_communicator_free(local_copy);
        comm_communicator_free(inter);
        return comm_api_error(local, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *comm_out = inter;
    return MPI_SUCCESS;
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    const char *func = "MPI_Intercomm_create";
    struct comm_communicator *local, *peer = NULL, *n;
    long head[2] = {0, 0}, *remote = NULL, *mine = NULL;
    unsigned next;
    int err = comm_api_enter_intracomm(func, local_comm, &local);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (newintercomm == NULL) {
        return comm_api_error(local, MPI_ERR_ARG, "%s: newintercomm is NULL", func);
    }
    if (local_leader < 0 || local_leader >= local->size) {
        return comm_api_error(local, MPI_ERR_RANK,
                              "%s: invalid local_leader %d in a communicator of size %d", func,
                              local_leader, local->size);
    }
    if (tag < 0 || tag > COMM_API_TAG_UB) {
        return comm_api_error(local, MPI_ERR_TAG, "%s: invalid tag %d", func, tag);
    }
    if (local->rank == local_leader) {
        err = comm_api_enter_intracomm(func, peer_comm, &peer);
        if (err != MPI_SUCCESS) {
            return err;
        }
        if (remote_leader < 0 || remote_leader >= peer->size || remote_leader == peer->rank) {
            return comm_api_error(local, MPI_ERR_RANK,
                                  "%s: invalid remote_leader %d in a peer communicator of size "
                                  "%d (it must be another process)",
                                  func, remote_leader, peer->size);
        }
    }
    err = inter_local_next(func, local, &next);
    mine = comm_communicator_local_ranks(local);
    if (err == MPI_SUCCESS && mine == NULL) {
        err = comm_api_error(local, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    if (err == MPI_SUCCESS && local->rank == local_leader) {
        /* Leaders trade (group size, next context), then the groups' world ranks. */
        long ours[2] = {local->size, (long)next}, theirs[2];
        int t = INTER_TAG_CREATE + tag % INTER_TAG_SPAN;

        err = comm_coll_sendrecv(ours, 2, inter_type(MPI_LONG), remote_leader, theirs, 2,
                                 inter_type(MPI_LONG), remote_leader, t, peer);
        if (err == MPI_SUCCESS && (theirs[0] < 1 || theirs[0] > comm_runtime_job()->size)) {
            err = MPI_ERR_OTHER;
        }
        if (err == MPI_SUCCESS) {
            remote = malloc((size_t)theirs[0] * sizeof(*remote));
            err = remote == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
        }
        if (err == MPI_SUCCESS) {
            err = comm_coll_sendrecv(mine, local->size, inter_type(MPI_LONG), remote_leader, remote,
                                     theirs[0], inter_type(MPI_LONG), remote_leader, t, peer);
        }
        head[0] = theirs[0];
        head[1] = theirs[1] > (long)next ? theirs[1] : (long)next;
        if (err != MPI_SUCCESS) {
            head[0] = -1; /* tells the group to give up */
            err = comm_api_error(local, err, "%s: the leaders could not agree", func);
        }
    }
    if (err == MPI_SUCCESS || local->rank == local_leader) {
        int shared = inter_share(func, local, head, 2, local_leader);

        err = err != MPI_SUCCESS ? err : shared;
    }
    if (err == MPI_SUCCESS && head[0] < 0) {
        err = comm_api_error(local, MPI_ERR_OTHER, "%s: the leaders could not agree", func);
    }
    if (err == MPI_SUCCESS && remote == NULL) {
        remote = malloc((size_t)head[0] * sizeof(*remote));
        if (remote == NULL) {
            err = comm_api_error(local, MPI_ERR_NO_MEM, "%s: out of memory", func);
        }
    }
    if (err == MPI_SUCCESS) {
        err = inter_share(func, local, remote, (int)head[0], local_leader);
    }
    if (err == MPI_SUCCESS) {
        struct inter_create_leaders l = {.func = func,
                                         .local = local,
                                         .peer = peer,
                                         .local_leader = local_leader,
                                         .remote_leader = remote_leader,
                                         .tag = INTER_TAG_CREATE + tag % INTER_TAG_SPAN};
        uint32_t context;

        err = inter_claim(func, local, (uint32_t)head[1], inter_create_trade, &l, &context);
        if (err == MPI_SUCCESS) {
            err = inter_make(func, local, remote, (int)head[0], context, &n);
        }
    }
    if (err == MPI_SUCCESS) {
        *newintercomm = n->handle;
    }
    free(remote);
    free(mine);
    return err;
}
COMM_API_ALIAS(MPI_Intercomm_create);

/*
 * The leaders (local rank 0) of intercommunicator C trade N longs (OURS for THEIRS), then tell
 * their groups.  Collective over both groups.
 */
static int inter_trade(const char *func, struct comm_communicator *c, long *ours, long *theirs,
                       int n)
{
    int err = MPI_SUCCESS;

    if (c->local_comm->rank == 0) {
        err = comm_coll_sendrecv(ours, n, inter_type(MPI_LONG), 0, theirs, n, inter_type(MPI_LONG),
                                 0, COMM_COLL_TAG_INTER, c);
        if (err != MPI_SUCCESS) {
            return comm_api_error(c, err, "%s: the leaders could not agree", func);
        }
    }
    return inter_share(func, c->local_comm, theirs, n, 0);
}

/* The leaders of an intercommunicator, which trade through it. */
struct inter_agree_leaders {
    const char *func;
    struct comm_communicator *c;
};

static int inter_agree_trade(void *arg, long *ours, long *theirs)
{
    struct inter_agree_leaders *l = arg;

    return inter_trade(l->func, l->c, ours, theirs, 2);
}

/* A context new to every member of both groups of C, and each group's HIGH flag. */
static int inter_agree(const char *func, struct comm_communicator *c, long high, uint32_t *context,
                       long *remote_high)
{
    struct inter_agree_leaders l = {.func = func, .c = c};
    unsigned next;
    long ours[2], theirs[2] = {0, 0};
    int err = inter_local_next(func, c->local_comm, &next);

    if (err != MPI_SUCCESS) {
        return err;
    }
    ours[0] = (long)next;
    ours[1] = high;
    err = inter_trade(func, c, ours, theirs, 2);
    if (err != MPI_SUCCESS) {
        return err;
    }
    *remote_high = theirs[1];
    return inter_claim(func, c->local_comm,
                       (uint32_t)(theirs[0] > (long)next ? theirs[0] : (long)next),
                       inter_agree_trade, &l, context);
}

int comm_api_inter_dup(const char *func, struct comm_communicator *c,
                       struct comm_communicator **comm_out)
{
    uint32_t context = 0; /* set by the agreement on success */
    long unused;
    int err = inter_agree(func, c, 0, &context, &unused);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return inter_make(func, c->local_comm, c->remote_world_ranks, c->remote_size, context,
                      comm_out);
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    const char *func = "MPI_Intercomm_merge";
    struct comm_communicator *c, *n;
    uint32_t context;
    long remote_high, *ranks;
    bool we_first;
    int err = comm_api_enter_comm(func, intercomm, &c), size, me;

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (!c->inter) {
        return comm_api_error(c, MPI_ERR_COMM, "%s: not an intercommunicator", func);
    }
    if (newintracomm == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "%s: newintracomm is NULL", func);
    }
    err = inter_agree(func, c, high ? 1 : 0, &context, &remote_high);
    if (err != MPI_SUCCESS) {
        return err;
    }
    /* The low group first; when both say the same, the group of the lower leader. */
    if ((high != 0) != (remote_high != 0)) {
        we_first = high == 0;
    } else {
        we_first = comm_communicator_world_rank(c, 0) < c->remote_world_ranks[0];
    }
    size = c->size + c->remote_size;
    ranks = malloc((size_t)size * sizeof(*ranks));
    if (ranks == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    for (int r = 0; r < c->size; r++) {
        ranks[(we_first ? 0 : c->remote_size) + r] = comm_communicator_world_rank(c, r);
    }
    for (int r = 0; r < c->remote_size; r++) {
        ranks[(we_first ? c->size : 0) + r] = c->remote_world_ranks[r];
    }
    me = (we_first ? 0 : c->remote_size) + c->rank;
    err = comm_communicator_create(ranks, size, me, context, c->errhandler, &n);
    free(ranks);
    if (err < 0) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *newintracomm = n->handle;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Intercomm_merge);

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Comm_remote_size", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (!c->inter) {
        return comm_api_error(c, MPI_ERR_COMM, "MPI_Comm_remote_size: not an intercommunicator");
    }
    if (size == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_remote_size: size is NULL");
    }
    *size = c->remote_size;
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_remote_size);

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    struct comm_communicator *c;
    struct comm_group *g;
    int err = comm_api_enter_comm("MPI_Comm_remote_group", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (!c->inter) {
        return comm_api_error(c, MPI_ERR_COMM, "MPI_Comm_remote_group: not an intercommunicator");
    }
    if (group == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_remote_group: group is NULL");
    }
    err = comm_group_create(c->remote_world_ranks, c->remote_size, comm_runtime_job()->rank, &g);
    if (err < 0) {
        return comm_api_error(c, comm_api_code_of_status(err),
                              "MPI_Comm_remote_group: cannot build the group");
    }
    *group = comm_group_handle(g);
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Comm_remote_group);
