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
    int err = comm->coll->reduce(sbuf, rbuf, count, dt, op, 0, comm);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return comm->coll->bcast(rbuf, count, dt, 0, comm);
}
