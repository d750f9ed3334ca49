/*
 * ibarrier.c - MPI_Ibarrier: dissemination, one round per power of two below the size.
 *
 * Layer: coll.  Reference: Hensgen, Finkel and Manber, "Two algorithms for barrier
 * synchronization" (1988).
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "coll/nbc/nbc.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_ibarrier(struct comm_coll_sched *s)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int size = comm->size, rank = comm->rank, err = MPI_SUCCESS;

    if (comm_coll_hier_chosen(COMM_COLL_BARRIER, &(struct comm_coll_call){.comm = comm})) {
        return comm_coll_ibarrier_hier(s);
    }
    for (int dist = 1; dist < size && err == MPI_SUCCESS; dist <<= 1) {
        err = comm_coll_sched_send(s, NULL, 0, byte, (rank + dist) % size);
        if (err == MPI_SUCCESS) {
            err = comm_coll_sched_recv(s, NULL, 0, byte, (rank - dist + size) % size);
        }
        if (err == MPI_SUCCESS) {
            err = comm_coll_sched_round(s);
        }
    }
    return err;
}
