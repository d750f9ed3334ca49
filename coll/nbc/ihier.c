/*
 * ihier.c - the hierarchical schedules of MPI_Ibarrier, MPI_Ibcast and MPI_Iallreduce: the
 * stages of the blocking "hier" algorithms (coll/hier/hier.h), each a binomial tree over the
 * stage's members, as rounds of one schedule on the communicator itself.  A long broadcast or
 * allreduce on a regular communicator goes over the rails as the blocking one does
 * (hier_pipe.c: a scatter or a ring on each rail).
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
#include "runtime/datatype/datatype.h"


/* A stage's members (ranks of the communicator, in rank order) and this rank's place. */
struct ihier_view {
    const int *ranks;
    int n;
    int me;
};

static struct ihier_view ihier_view(const struct comm_coll_hier *h, int st)
{
    return (struct ihier_view){.ranks = h->member[st], .n = h->stage[st]->size,
                               .me = h->stage[st]->rank};
}

/* Binomial broadcast of BUF from member 0 of V (ibcast.c's tree, rooted at 0). */
static int ihier_bcast(struct comm_coll_sched *s, struct ihier_view v, void *buf,
                       MPI_Count count, struct comm_datatype *dt)
{
    int mask = 1, err = MPI_SUCCESS;

    while (mask < v.n) {
        if (v.me & mask) {
            err = comm_coll_sched_recv(s, buf, count, dt, v.ranks[v.me - mask]);
            err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1) {
        if (v.me + mask < v.n) {
            err = comm_coll_sched_send(s, buf, count, dt, v.ranks[v.me + mask]);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

/* Binomial reduce of ACC to member 0 of V: ACC holds this rank's part on entry, and its
 * subtree's after (the whole stage's at member 0).  TMP receives the children's. */
static int ihier_reduce(struct comm_coll_sched *s, struct ihier_view v, void *acc,
                        void *tmp, MPI_Count count, struct comm_datatype *dt, struct comm_op *op)
{
    int err = MPI_SUCCESS;

    for (int mask = 1; mask < v.n && err == MPI_SUCCESS; mask <<= 1) {
        if (v.me & mask) {
            err = comm_coll_sched_send(s, acc, count, dt, v.ranks[v.me - mask]);
            return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
        }
        if (v.me + mask < v.n) {
            err = comm_coll_sched_recv(s, tmp, count, dt, v.ranks[v.me + mask]);
            err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
            /* Commutative: the order of the two operands does not matter. */
            err = err == MPI_SUCCESS ? comm_coll_sched_reduce(s, tmp, acc, count, dt, op) : err;
        }
    }
    return err;
}

/* Fan-in to member 0 of V (UP), or fan-out from it. */
static int ihier_fan(struct comm_coll_sched *s, struct ihier_view v, bool up)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int err = MPI_SUCCESS;

    if (v.me == 0) {
        for (int i = 1; i < v.n && err == MPI_SUCCESS; i++) {
            err = up ? comm_coll_sched_recv(s, NULL, 0, byte, v.ranks[i])
                     : comm_coll_sched_send(s, NULL, 0, byte, v.ranks[i]);
        }
    } else {
        err = up ? comm_coll_sched_send(s, NULL, 0, byte, v.ranks[0])
                 : comm_coll_sched_recv(s, NULL, 0, byte, v.ranks[0]);
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_ibarrier_hier(struct comm_coll_sched *s)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    int err = MPI_SUCCESS;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    /* In at every stage up to this rank's top, out at every stage back down. */
    for (int st = 0; st <= h->top && err == MPI_SUCCESS; st++) {
        err = ihier_fan(s, ihier_view(h, st), true);
    }
    for (int st = h->top; st >= 0 && err == MPI_SUCCESS; st--) {
        err = ihier_fan(s, ihier_view(h, st), false);
    }
    return err;
}

int comm_coll_ibcast_hier(struct comm_coll_sched *s, void *buf, MPI_Count count,
                          struct comm_datatype *dt, int root)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    int last, err = MPI_SUCCESS;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (comm_coll_hier_use_rails(comm, (size_t)count * (size_t)dt->size)) {
        return comm_coll_ibcast_hier_rails(s, buf, count, dt, root, comm_coll_hier_rails_get(comm));
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
        err = ihier_bcast(s, ihier_view(h, st), buf, count, dt);
    }
    return err;
}

int comm_coll_iallreduce_hier(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                              MPI_Count count, struct comm_datatype *dt, struct comm_op *op)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    void *tmp;
    int err;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (comm_coll_hier_use_rails(comm, (size_t)count * (size_t)dt->size)) {
        return comm_coll_iallreduce_hier_rails(s, sbuf, rbuf, count, dt, op,
                                               comm_coll_hier_rails_get(comm));
    }
    tmp = comm_coll_sched_elements(s, count, dt);
    if (tmp == NULL) {
        return MPI_ERR_NO_MEM;
    }
    /* The partial result grows in rbuf: up to the top stage's member 0, then down. */
    err = sbuf == rbuf ? MPI_SUCCESS : comm_coll_sched_copy(s, sbuf, rbuf, count, dt);
    err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    for (int st = 0; st <= h->top && err == MPI_SUCCESS; st++) {
        err = ihier_reduce(s, ihier_view(h, st), rbuf, tmp, count, dt, op);
    }
    for (int st = h->top; st >= 0 && err == MPI_SUCCESS; st--) {
        err = ihier_bcast(s, ihier_view(h, st), rbuf, count, dt);
    }
    return err;
}
