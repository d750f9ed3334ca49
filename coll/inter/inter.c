/*
 * inter.c - collectives on intercommunicators (see inter.h).
 *
 * Layer: coll.  Cost: the local algorithm's, twice, plus one exchange between the groups'
 * rank 0s.
 */
#include "config.h"

#include "coll/inter/inter.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

static int inter_local_bcast(void *buf, MPI_Count count, struct comm_datatype *dt,
                             struct comm_communicator *local)
{
    return local->size == 1 ? MPI_SUCCESS : local->coll->bcast(buf, count, dt, 0, local);
}

int comm_coll_inter_barrier(struct comm_communicator *comm)
{
    struct comm_communicator *local = comm->local_comm;
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int err = local->coll->barrier(local);

    if (err == MPI_SUCCESS && local->rank == 0) {
        err = comm_coll_sendrecv(NULL, 0, byte, 0, NULL, 0, byte, 0, COMM_COLL_TAG_INTER, comm);
    }
    return err == MPI_SUCCESS ? local->coll->barrier(local) : err;
}

int comm_coll_inter_bcast(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                          struct comm_communicator *comm)
{
    int err = MPI_SUCCESS;

    if (root == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (root == MPI_ROOT) {
        return comm_coll_send(buf, count, dt, 0, COMM_COLL_TAG_INTER, comm);
    }
    if (comm->local_comm->rank == 0) {
        err = comm_coll_recv(buf, count, dt, root, COMM_COLL_TAG_INTER, comm);
    }
    return err == MPI_SUCCESS ? inter_local_bcast(buf, count, dt, comm->local_comm) : err;
}

int comm_coll_inter_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                              struct comm_datatype *dt, struct comm_op *op,
                              struct comm_communicator *comm)
{
    struct comm_communicator *local = comm->local_comm;
    void *block = NULL, *mine = comm_coll_alloc_buffer(count, dt, &block);
    int err;

    if (mine == NULL) {
        return MPI_ERR_NO_MEM;
    }
    /* Our group's reduction at our rank 0, which trades it for the other group's. */
    err = local->size == 1 ? comm_coll_copy(sbuf, mine, count, dt)
                           : local->coll->reduce(sbuf, mine, count, dt, op, 0, local);
    if (err == MPI_SUCCESS && local->rank == 0) {
        err = comm_coll_sendrecv(mine, count, dt, 0, rbuf, count, dt, 0, COMM_COLL_TAG_INTER, comm);
    }
    comm_coll_free_buffer(block);
    return err == MPI_SUCCESS ? inter_local_bcast(rbuf, count, dt, local) : err;
}
