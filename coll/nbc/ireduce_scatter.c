/*
 * ireduce_scatter.c - MPI_Ireduce_scatter and MPI_Ireduce_scatter_block on an
 * intracommunicator: a binomial reduce of the whole vector to rank 0 (ireduce.c, in rank order
 * for non-commutative operations), then a scatterv of the result from rank 0.
 *
 * Layer: coll.  Cost: log2(size) rounds of the whole vector, then one round in which rank 0
 * sends every block; simple and exact in order, for the small vectors nonblocking
 * reduce-scatters are used at (the blocking call has the bandwidth-optimal algorithms).
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

/* The number of elements of the whole vector: the sum of the blocks of the communicator's
 * (local group's) ranks. */
static MPI_Count reduce_scatter_total(const struct comm_coll_args *a, int size)
{
    MPI_Count total = 0;

    for (int r = 0; r < size; r++) {
        total += comm_coll_args_rcount(a, r);
    }
    return total;
}

int comm_coll_ireduce_scatter_spread(struct comm_coll_sched *s, const void *from,
                                     const struct comm_coll_args *a)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int *displs = comm_coll_sched_buffer(s, (size_t)comm->size * sizeof(*displs));
    struct comm_coll_args sc = {.sbuf = from,
                                .scount = a->rcount,
                                .scounts = a->rcounts,
                                .sdispls = a->rcounts != NULL ? displs : NULL,
                                .sdt = a->rdt,
                                .rbuf = a->rbuf,
                                .rcount = comm_coll_args_rcount(a, comm->rank),
                                .rdt = a->rdt,
                                .root = 0};
    int at = 0;

    if (displs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < comm->size; r++) {
        displs[r] = at;
        at += (int)comm_coll_args_rcount(a, r);
    }
    return comm_coll_iscatterv(s, &sc);
}

int comm_coll_ireduce_scatter(struct comm_coll_sched *s, const struct comm_coll_args *a)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    MPI_Count total = reduce_scatter_total(a, comm->size);
    void *whole = comm->rank == 0 ? comm_coll_sched_elements(s, total, a->rdt) : NULL;
    int err;

    if (comm->rank == 0 && whole == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = comm_coll_ireduce(s, a->sbuf, whole, total, a->rdt, a->op, 0);
    return err == MPI_SUCCESS ? comm_coll_ireduce_scatter_spread(s, whole, a) : err;
}
