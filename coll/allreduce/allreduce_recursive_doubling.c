/*
 * allreduce_recursive_doubling.c - recursive-doubling allreduce.
 *
 * In round k each rank exchanges its partial result with the rank that differs in bit k and
 * combines the two, lower ranks' data on the left, so non-commutative operations keep rank
 * order.  A non-power-of-two size first folds the first 2r ranks in pairs (r = p - 2^floor(log2
 * p)) and unfolds the result to them at the end.
 * Wins: short messages (latency).  Cost: log2 p rounds, each moving and combining the whole
 * message (plus two for a non-power-of-two size).  Restrictions: none.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/allreduce/allreduce.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/op/op.h"

int comm_coll_allreduce_recursive_doubling(const void *sbuf, void *rbuf, MPI_Count count,
                                           struct comm_datatype *dt, struct comm_op *op,
                                           struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, pof2 = 1, rem, newrank, err;
    void *tmp_block = NULL;
    void *tmp = comm_coll_alloc_buffer(count, dt, &tmp_block);

    if (tmp == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = comm_coll_copy(sbuf, rbuf, count, dt);
    while (pof2 * 2 <= size) {
        pof2 *= 2;
    }
    rem = size - pof2;
    /* Fold: among the first 2*rem ranks, even ones hand their data to the next odd one. */
    if (err == MPI_SUCCESS && rank < 2 * rem) {
        if (rank % 2 == 0) {
            err = comm_coll_send(rbuf, count, dt, rank + 1, COMM_COLL_TAG_ALLREDUCE, comm);
            newrank = -1;
        } else {
            err = comm_coll_recv(tmp, count, dt, rank - 1, COMM_COLL_TAG_ALLREDUCE, comm);
            if (err == MPI_SUCCESS) {
                comm_op_reduce(op, tmp, rbuf, count, dt); /* rbuf = left op rbuf */
            }
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }
    for (int mask = 1; err == MPI_SUCCESS && newrank >= 0 && mask < pof2; mask <<= 1) {
        int newpeer = newrank ^ mask;
        int peer = newpeer < rem ? newpeer * 2 + 1 : newpeer + rem;

        err = comm_coll_sendrecv(rbuf, count, dt, peer, tmp, count, dt, peer,
                                 COMM_COLL_TAG_ALLREDUCE, comm);
        if (err != MPI_SUCCESS) {
            break;
        }
        if (peer < rank) {
            comm_op_reduce(op, tmp, rbuf, count, dt); /* rbuf = peer's op ours */
        } else {
            comm_op_reduce(op, rbuf, tmp, count, dt); /* tmp = ours op peer's */
            err = comm_coll_copy(tmp, rbuf, count, dt);
        }
    }
    /* Unfold: the odd ranks give the result back to their even partners. */
    if (err == MPI_SUCCESS && rank < 2 * rem) {
        if (rank % 2 == 1) {
            err = comm_coll_send(rbuf, count, dt, rank - 1, COMM_COLL_TAG_ALLREDUCE, comm);
        } else {
            err = comm_coll_recv(rbuf, count, dt, rank + 1, COMM_COLL_TAG_ALLREDUCE, comm);
        }
    }
    comm_coll_free_buffer(tmp_block);
    return err;
}
