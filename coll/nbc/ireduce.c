/*
 * ireduce.c - MPI_Ireduce and MPI_Iallreduce: binomial-tree reduce (then a binomial bcast for
 * allreduce).
 *
 * Each rank accumulates its subtree in a buffer of its own: at the step of bit MASK a rank
 * whose bit is clear receives its child's subtree (the next MASK ranks above it) and folds it
 * in on the right; a rank whose bit is set sends its subtree to its parent.  Commutative
 * operations use a tree rooted at the root; the others a tree rooted at rank 0, whose subtrees
 * are runs of consecutive ranks, so the result is in rank order, and rank 0 sends it to the
 * root.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "coll/nbc/nbc.h"
#include "runtime/datatype/datatype.h"
#include "runtime/comm/communicator.h"
#include "runtime/op/op.h"

int comm_coll_ireduce(struct comm_coll_sched *s, const void *sbuf, void *rbuf, MPI_Count count,
                      struct comm_datatype *dt, struct comm_op *op, int root)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int size = comm->size, tree_root = op->commutative ? root : 0;
    int vrank = (comm->rank - tree_root + size) % size, err;
    void *acc = comm_coll_sched_elements(s, count, dt);
    void *tmp = comm_coll_sched_elements(s, count, dt);

    if (acc == NULL || tmp == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = comm_coll_sched_copy(s, sbuf, acc, count, dt);
    for (int mask = 1; mask < size && err == MPI_SUCCESS; mask <<= 1) {
        if (vrank & mask) {
            err = comm_coll_sched_send(s, acc, count, dt, (vrank - mask + tree_root) % size);
            if (err == MPI_SUCCESS) {
                err = comm_coll_sched_round(s);
            }
            break;
        }
        if (vrank + mask < size) {
            /* acc holds the lower ranks: tmp = acc op tmp, then keep it in acc. */
            err = comm_coll_sched_recv(s, tmp, count, dt, (vrank + mask + tree_root) % size);
            if (err == MPI_SUCCESS) {
                err = comm_coll_sched_round(s);
            }
            if (err == MPI_SUCCESS) {
                err = comm_coll_sched_reduce(s, acc, tmp, count, dt, op);
            }
            if (err == MPI_SUCCESS) {
                err = comm_coll_sched_copy(s, tmp, acc, count, dt);
            }
        }
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (vrank == 0 && comm->rank == root) {
        err = comm_coll_sched_copy(s, acc, rbuf, count, dt);
    } else if (vrank == 0) {
        err = comm_coll_sched_send(s, acc, count, dt, root);
    } else if (comm->rank == root) {
        err = comm_coll_sched_recv(s, rbuf, count, dt, tree_root);
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_iallreduce(struct comm_coll_sched *s, const void *sbuf, void *rbuf, MPI_Count count,
                         struct comm_datatype *dt, struct comm_op *op)
{
    const struct comm_coll_call call = {.comm = comm_coll_sched_comm(s),
                                        .bytes = (size_t)count * (size_t)dt->size,
                                        .op = op,
                                        .uniform = true};
    int err;

    if (op->commutative && comm_coll_hier_chosen(COMM_COLL_ALLREDUCE, &call)) {
        return comm_coll_iallreduce_hier(s, sbuf, rbuf, count, dt, op);
    }
    err = comm_coll_ireduce(s, sbuf, rbuf, count, dt, op, 0);

    return err == MPI_SUCCESS ? comm_coll_ibcast(s, rbuf, count, dt, 0) : err;
}
