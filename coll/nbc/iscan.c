/*
 * iscan.c - MPI_Iscan and MPI_Iexscan: recursive doubling.  At the step of bit MASK each rank
 * trades the reduction of its block of 2*MASK ranks so far (PARTIAL) with the rank MASK away;
 * what comes from below is folded into both PARTIAL and the result on the left, what comes
 * from above into PARTIAL on the right, so every operation, commutative or not, is applied in
 * rank order.
 *
 * Layer: coll.  Cost: ceil(log2(size)) rounds of one message each way.  Reference: MPICH's
 * scan (recursive doubling).
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

int comm_coll_iscan(struct comm_coll_sched *s, const void *sbuf, void *rbuf, MPI_Count count,
                    struct comm_datatype *dt, struct comm_op *op, bool exclusive)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    int rank = comm->rank, size = comm->size, err;
    void *partial = comm_coll_sched_elements(s, count, dt);
    void *tmp = comm_coll_sched_elements(s, count, dt);
    bool have = !exclusive; /* whether rbuf holds part of the result yet */

    if (partial == NULL || tmp == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = comm_coll_sched_copy(s, sbuf, partial, count, dt);
    if (err == MPI_SUCCESS && !exclusive && sbuf != rbuf) {
        err = comm_coll_sched_copy(s, sbuf, rbuf, count, dt);
    }
    err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    for (int mask = 1; mask < size && err == MPI_SUCCESS; mask <<= 1) {
        int peer = rank ^ mask;

        if (peer >= size) {
            continue;
        }
        err = comm_coll_sched_send(s, partial, count, dt, peer);
        err = err == MPI_SUCCESS ? comm_coll_sched_recv(s, tmp, count, dt, peer) : err;
        err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
        if (err == MPI_SUCCESS && peer < rank) {
            err = comm_coll_sched_reduce(s, tmp, partial, count, dt, op);
            if (err == MPI_SUCCESS) {
                err = have ? comm_coll_sched_reduce(s, tmp, rbuf, count, dt, op)
                           : comm_coll_sched_copy(s, tmp, rbuf, count, dt);
            }
            have = true;
        } else if (err == MPI_SUCCESS) {
            /* partial = partial op tmp, through tmp (received anew each step). */
            err = comm_coll_sched_reduce(s, partial, tmp, count, dt, op);
            err = err == MPI_SUCCESS ? comm_coll_sched_copy(s, tmp, partial, count, dt) : err;
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}
