/*
 * allreduce_reduce_bcast.c - allreduce as a reduce to rank 0 followed by a broadcast.
 *
 * Wins: rarely on its own; it is the reference the other algorithms are checked against, and
 * it inherits whatever reduce and broadcast algorithms are selected.  Cost: the sum of both.
 * Restrictions: none.
 */
#include "config.h"

#include "coll/allreduce/allreduce.h"
#include "coll/bcast/bcast.h"
#include "coll/reduce/reduce.h"
#include "runtime/datatype/datatype.h"

int comm_coll_allreduce_reduce_bcast(const void *sbuf, void *rbuf, MPI_Count count,
                                     struct comm_datatype *dt, struct comm_op *op,
                                     struct comm_communicator *comm)
{
    size_t bytes = (size_t)(count * dt->size);
    const struct comm_coll_algorithm *reduce = comm_coll_select(
        COMM_COLL_REDUCE,
        &(struct comm_coll_call){.comm = comm, .bytes = bytes, .op = op, .uniform = true});
    const struct comm_coll_algorithm *bcast = comm_coll_select(
        COMM_COLL_BCAST, &(struct comm_coll_call){.comm = comm, .bytes = bytes, .uniform = true});
    int err;

    err = reduce->fn.reduce(sbuf, rbuf, count, dt, op, 0, comm);
    if (err != MPI_SUCCESS) {
        return err;
    }
    return bcast->fn.bcast(rbuf, count, dt, 0, comm);
}
