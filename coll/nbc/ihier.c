/*
 * ihier.c - the hierarchical schedules of MPI_Ibarrier, MPI_Ibcast and MPI_Iallreduce: the
 * stages of the blocking "hier" algorithms (coll/hier/hier.h), each a binomial tree over the
 * stage's members, as rounds of one schedule on the communicator itself.
 *
 * A stage's members are named by their ranks in the communicator, so every message travels on
 * the communicator's collective context with the schedule's tag.  Two ranks may meet in more
 * than one stage; both go through the stages in the same order (up from the host, then down),
 * so their messages match in that order.
 *
 * Layer: coll.  Allreduce: commutative operations only (as the blocking algorithm).
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "coll/nbc/nbc.h"
#include "runtime/datatype.h"

#include <stdlib.h>

/* A stage's members (ranks of the communicator, in rank order) and this rank's place. */
struct ihier_view {
    int *ranks;
    int n;
    int me;
};

static int ihier_view(const struct comm_coll_hier *h, int s, struct comm_communicator *comm,
                      struct ihier_view *v)
{
    const struct comm_communicator *stage = h->stage[s];

    v->n = stage->size;
    v->me = stage->rank;
    v->ranks = malloc((size_t)v->n * sizeof(*v->ranks));
    if (v->ranks == NULL) {
        return MPI_ERR_NO_MEM;
    }
    /* Stage members are the communicator's ranks whose world ranks the stage lists, in order. */
    for (int i = 0, r = 0; i < v->n; i++) {
        long world = comm_communicator_world_rank(stage, i);

        while (comm_communicator_world_rank(comm, r) != world) {
            r++;
        }
        v->ranks[i] = r;
    }
    return MPI_SUCCESS;
}

/* Binomial broadcast of BUF from member 0 of V (ibcast.c's tree, rooted at 0). */
static int ihier_bcast(struct comm_coll_sched *s, const struct ihier_view *v, void *buf,
                       MPI_Count count, struct comm_datatype *dt)
{
    int mask = 1, err = MPI_SUCCESS;

    while (mask < v->n) {
        if (v->me & mask) {
            err = comm_coll_sched_recv(s, buf, count, dt, v->ranks[v->me - mask]);
            err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1) {
        if (v->me + mask < v->n) {
            err = comm_coll_sched_send(s, buf, count, dt, v->ranks[v->me + mask]);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

/* Binomial reduce of ACC to member 0 of V: ACC holds this rank's part on entry, and its
 * subtree's after (the whole stage's at member 0).  TMP receives the children's. */
static int ihier_reduce(struct comm_coll_sched *s, const struct ihier_view *v, void *acc,
                        void *tmp, MPI_Count count, struct comm_datatype *dt, struct comm_op *op)
{
    int err = MPI_SUCCESS;

    for (int mask = 1; mask < v->n && err == MPI_SUCCESS; mask <<= 1) {
        if (v->me & mask) {
            err = comm_coll_sched_send(s, acc, count, dt, v->ranks[v->me - mask]);
            return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
        }
        if (v->me + mask < v->n) {
            err = comm_coll_sched_recv(s, tmp, count, dt, v->ranks[v->me + mask]);
            err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
            /* Commutative: the order of the two operands does not matter. */
            err = err == MPI_SUCCESS ? comm_coll_sched_reduce(s, tmp, acc, count, dt, op) : err;
        }
    }
    return err;
}

/* Fan-in to member 0 of V (UP), or fan-out from it. */
static int ihier_fan(struct comm_coll_sched *s, const struct ihier_view *v, bool up)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int err = MPI_SUCCESS;

    if (v->me == 0) {
        for (int i = 1; i < v->n && err == MPI_SUCCESS; i++) {
            err = up ? comm_coll_sched_recv(s, NULL, 0, byte, v->ranks[i])
                     : comm_coll_sched_send(s, NULL, 0, byte, v->ranks[i]);
        }
    } else {
        err = up ? comm_coll_sched_send(s, NULL, 0, byte, v->ranks[0])
                 : comm_coll_sched_recv(s, NULL, 0, byte, v->ranks[0]);
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

/* Every stage this rank takes part in, as views; NULL entries above its top. */
static int ihier_views(const struct comm_coll_hier *h, struct comm_communicator *comm,
                       struct ihier_view *views)
{
    for (int st = 0; st <= h->top; st++) {
        if (ihier_view(h, st, comm, &views[st]) != MPI_SUCCESS) {
            for (int i = 0; i < st; i++) {
                free(views[i].ranks);
            }
            return MPI_ERR_NO_MEM;
        }
    }
    return MPI_SUCCESS;
}

static void ihier_views_free(const struct comm_coll_hier *h, struct ihier_view *views)
{
    for (int st = 0; st <= h->top; st++) {
        free(views[st].ranks);
    }
}

int comm_coll_ibarrier_hier(struct comm_coll_sched *s)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct ihier_view views[COMM_HIER_MAX_STAGES];
    int err;

    if (h == NULL || ihier_views(h, comm, views) != MPI_SUCCESS) {
        return MPI_ERR_NO_MEM;
    }
    /* In at every stage up to this rank's top, out at every stage back down. */
    err = MPI_SUCCESS;
    for (int st = 0; st <= h->top && err == MPI_SUCCESS; st++) {
        err = ihier_fan(s, &views[st], true);
    }
    for (int st = h->top; st >= 0 && err == MPI_SUCCESS; st--) {
        err = ihier_fan(s, &views[st], false);
    }
    ihier_views_free(h, views);
    return err;
}

int comm_coll_ibcast_hier(struct comm_coll_sched *s, void *buf, MPI_Count count,
                          struct comm_datatype *dt, int root)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct ihier_view views[COMM_HIER_MAX_STAGES];
    int last, err = MPI_SUCCESS;

    if (h == NULL || ihier_views(h, comm, views) != MPI_SUCCESS) {
        return MPI_ERR_NO_MEM;
    }
    last = h->nstages - 1;
    /* Up the root's path to the communicator's rank 0, which leads every stage it is in. */
    for (int st = 0; st <= last && err == MPI_SUCCESS; st++) {
        int holder = st == 0 ? root : comm_coll_hier_leader(h, st - 1, comm, root);
        int target = comm_coll_hier_leader(h, st, comm, root);

        if (holder == target || (comm->rank != holder && comm->rank != target)) {
            continue;
        }
        err = comm->rank == holder ? comm_coll_sched_send(s, buf, count, dt, target)
                                   : comm_coll_sched_recv(s, buf, count, dt, holder);
        err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    /* Down from the top: every stage from its leader. */
    for (int st = h->top; st >= 0 && err == MPI_SUCCESS; st--) {
        err = ihier_bcast(s, &views[st], buf, count, dt);
    }
    ihier_views_free(h, views);
    return err;
}

int comm_coll_iallreduce_hier(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                              MPI_Count count, struct comm_datatype *dt, struct comm_op *op)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct ihier_view views[COMM_HIER_MAX_STAGES];
    void *tmp = comm_coll_sched_elements(s, count, dt);
    int err;

    if (h == NULL || tmp == NULL || ihier_views(h, comm, views) != MPI_SUCCESS) {
        return MPI_ERR_NO_MEM;
    }
    /* The partial result grows in rbuf: up to the top stage's member 0, then down. */
    err = sbuf == rbuf ? MPI_SUCCESS : comm_coll_sched_copy(s, sbuf, rbuf, count, dt);
    err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    for (int st = 0; st <= h->top && err == MPI_SUCCESS; st++) {
        err = ihier_reduce(s, &views[st], rbuf, tmp, count, dt, op);
    }
    for (int st = h->top; st >= 0 && err == MPI_SUCCESS; st--) {
        err = ihier_bcast(s, &views[st], rbuf, count, dt);
    }
    ihier_views_free(h, views);
    return err;
}
