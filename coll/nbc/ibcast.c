/*
 * ibcast.c - MPI_Ibcast: binomial tree.  A rank receives from its parent in one round, then
 * sends to all its children at once in the next.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/hier/hier.h"
#include "coll/nbc/nbc.h"
#include "runtime/datatype/datatype.h"
#include "runtime/comm/communicator.h"

int comm_coll_ibcast(struct comm_coll_sched *s, void *buf, MPI_Count count,
                     struct comm_datatype *dt, int root)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int size = comm->size, vrank = (comm->rank - root + size) % size, mask = 1, err;
    const struct comm_coll_call call = {
        .comm = comm, .bytes = (size_t)count * (size_t)dt->size, .uniform = true};

    if (comm_coll_hier_chosen(COMM_COLL_BCAST, &call)) {
        return comm_coll_ibcast_hier(s, buf, count, dt, root);
    }
    while (mask < size) {
        if (vrank & mask) {
            err = comm_coll_sched_recv(s, buf, count, dt, (vrank - mask + root) % size);
            if (err == MPI_SUCCESS) {
                err = comm_coll_sched_round(s);
            }
            if (err != MPI_SUCCESS) {
                return err;
            }
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vrank + mask < size) {
            err = comm_coll_sched_send(s, buf, count, dt, (vrank + mask + root) % size);
            if (err != MPI_SUCCESS) {
                return err;
            }
        }
    }
    return comm_coll_sched_round(s);
}
