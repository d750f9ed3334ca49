/*
 * scan_recursive_doubling.c - recursive-doubling prefix reduction.
 *
 * In round k each rank sends the reduction of its window (the 2^k ranks ending at itself) to
 * rank + 2^k and combines what rank - 2^k sends it on the left, so every combination keeps
 * rank order and non-commutative operations are exact.  The exclusive form keeps the part
 * that came from lower ranks only.
 * Wins: any size (latency-bound).  Cost: ceil(log2 p) rounds, each moving and combining the
 * whole vector.  Restrictions: none.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/scan/scan.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/op/op.h"

int comm_coll_scan_recursive_doubling(const void *sbuf, void *rbuf, MPI_Count count,
                                      struct comm_datatype *dt, struct comm_op *op, bool exclusive,
                                      struct comm_communicator *comm)
{
    void *window_block = NULL, *tmp_block = NULL;
    void *window = comm_coll_alloc_buffer(count, dt, &window_block);
    void *tmp = comm_coll_alloc_buffer(count, dt, &tmp_block);
    bool have_lower = false;
    int err;

    if (window == NULL || tmp == NULL) {
        err = MPI_ERR_NO_MEM;
        goto out_free;
    }
    /* window: reduction of the ranks this rank stands for; rbuf: of the ranks below it (and
     * itself, inclusive).  Copy sbuf first: with MPI_IN_PLACE it is rbuf. */
    err = comm_coll_copy(sbuf, window, count, dt);
    if (err == MPI_SUCCESS && !exclusive) {
        err = comm_coll_copy(window, rbuf, count, dt);
    }
    for (int mask = 1; err == MPI_SUCCESS && mask < comm->size; mask <<= 1) {
        int up = comm->rank + mask, down = comm->rank - mask;

        if (up < comm->size && down >= 0) {
            err = comm_coll_sendrecv(window, count, dt, up, tmp, count, dt, down,
                                     COMM_COLL_TAG_SCAN, comm);
        } else if (up < comm->size) {
            err = comm_coll_send(window, count, dt, up, COMM_COLL_TAG_SCAN, comm);
            continue;
        } else if (down >= 0) {
            err = comm_coll_recv(tmp, count, dt, down, COMM_COLL_TAG_SCAN, comm);
        } else {
            continue;
        }
        if (err != MPI_SUCCESS) {
            break;
        }
        /* What came from below goes on the left. */
        if (exclusive && !have_lower) {
            err = comm_coll_copy(tmp, rbuf, count, dt);
        } else {
            comm_op_reduce(op, tmp, rbuf, count, dt);
        }
        have_lower = true;
        comm_op_reduce(op, tmp, window, count, dt);
    }
out_free:
    comm_coll_free_buffer(window_block);
    comm_coll_free_buffer(tmp_block);
    return err;
}
