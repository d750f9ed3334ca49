/*
 * reduce_binomial.c - binomial-tree reduce.
 *
 * Each rank combines the partial results of the subtrees below it and passes the result up.
 * With a non-commutative operation the tree is rooted at rank 0, so every combination keeps
 * rank order (lower ranks' data on the left), and the result then goes to the root.
 * Wins: short messages.  Cost: ceil(log2 p) rounds, each moving and combining the whole
 * message.  Restrictions: none.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/reduce/reduce.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/op/op.h"

int comm_coll_reduce_binomial(const void *sbuf, void *rbuf, MPI_Count count,
                              struct comm_datatype *dt, struct comm_op *op, int root,
                              struct comm_communicator *comm)
{
    int size = comm->size, tree_root = op->commutative ? root : 0;
    int vrank = (comm->rank - tree_root + size) % size, err = MPI_SUCCESS;
    void *acc_block = NULL, *tmp_block = NULL;
    void *acc = comm_coll_alloc_buffer(count, dt, &acc_block);
    void *tmp = comm_coll_alloc_buffer(count, dt, &tmp_block);

    if (acc == NULL || tmp == NULL) {
        err = MPI_ERR_NO_MEM;
        goto out_free;
    }
    err = comm_coll_copy(sbuf, acc, count, dt);
    for (int mask = 1; err == MPI_SUCCESS && mask < size; mask <<= 1) {
        if (vrank & mask) {
            err = comm_coll_send(acc, count, dt, (vrank - mask + tree_root) % size,
                                 COMM_COLL_TAG_REDUCE, comm);
            break;
        }
        if (vrank + mask < size) {
            void *swap;

            err = comm_coll_recv(tmp, count, dt, (vrank + mask + tree_root) % size,
                                 COMM_COLL_TAG_REDUCE, comm);
            if (err != MPI_SUCCESS) {
                break;
            }
            /* tmp = acc op tmp: our lower ranks' data on the left. */
            comm_op_reduce(op, acc, tmp, count, dt);
            swap = acc;
            acc = tmp;
            tmp = swap;
            swap = acc_block;
            acc_block = tmp_block;
            tmp_block = swap;
        }
    }
    if (err == MPI_SUCCESS && vrank == 0) {
        /* The tree's root holds the result. */
        if (comm->rank == root) {
            err = comm_coll_copy(acc, rbuf, count, dt);
        } else {
            err = comm_coll_send(acc, count, dt, root, COMM_COLL_TAG_REDUCE, comm);
        }
    } else if (err == MPI_SUCCESS && comm->rank == root && tree_root != root) {
        err = comm_coll_recv(rbuf, count, dt, tree_root, COMM_COLL_TAG_REDUCE, comm);
    }
out_free:
    comm_coll_free_buffer(acc_block);
    comm_coll_free_buffer(tmp_block);
    return err;
}
