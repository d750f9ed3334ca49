/*
 * rma.h - the harness shared by comm's OSU-style one-sided (MPI RMA) benchmarks
 * (examples/bench/): the window, the synchronization and the timing loop, on top of bench.h's
 * options and buffers.
 *
 * Two ranks: rank 0 is the origin, rank 1 the target; only rank 0 issues operations.  The
 * window is made once, at the largest size, in one of three flavors (-w): MPI_Win_create over a
 * buffer of our own, MPI_Win_allocate, or MPI_Win_create_dynamic with the target's buffer
 * attached (its address travels to the origin by MPI_Send).  The synchronization (-s) decides
 * what completes each operation (latency) or each window of -W operations (bandwidth):
 *
 *   fence        MPI_Win_fence; ops; MPI_Win_fence, on both ranks
 *   lock         MPI_Win_lock(shared, 1); ops; MPI_Win_unlock(1)
 *   flush        MPI_Win_lock(shared, 1) once; ops; MPI_Win_flush(1) (the default)
 *   flush_local  MPI_Win_lock(shared, 1) once; ops; MPI_Win_flush_local(1)
 *   lock_all     MPI_Win_lock_all; ops; MPI_Win_unlock_all
 *   pscw         target MPI_Win_post/MPI_Win_wait, origin MPI_Win_start; ops; MPI_Win_complete
 *
 * The target of every operation is displacement 0 of rank 1's window: as in bw.c only time
 * matters, so a window of -W operations reuses one target area and one origin buffer.  Put
 * and accumulate read sbuf; get and the fetched values of get_accumulate, fetch_and_op and
 * compare_and_swap land in rbuf.  Accumulate operations use MPI_UNSIGNED_CHAR (one element a
 * byte) with MPI_SUM; fetch_and_op (MPI_SUM) and compare_and_swap use one MPI_LONG_LONG.
 *
 * Output is bench.h's: the header with an extra line naming flavor and synchronization, one
 * row per size; latency is the time per operation and its synchronization in microseconds,
 * bandwidth MB/s (MB = 1e6 bytes) of the operations' bytes.
 *
 * Uses MPI 3.1 one-sided calls and point-to-point only (window creation and fence are the
 * collectives it needs).  Single-threaded; struct rma is owned by rma_main.
 */
#ifndef RMA_H
#define RMA_H

#include "bench.h"

/* The one-sided operation a program measures. */
enum rma_op {
    RMA_OP_PUT,     /* MPI_Put of SIZE bytes */
    RMA_OP_GET,     /* MPI_Get of SIZE bytes */
    RMA_OP_ACC,     /* MPI_Accumulate of SIZE bytes */
    RMA_OP_GET_ACC, /* MPI_Get_accumulate of SIZE bytes */
    RMA_OP_FOP,     /* MPI_Fetch_and_op of one 8-byte MPI_LONG_LONG: no -m */
    RMA_OP_CAS,     /* MPI_Compare_and_swap of one 8-byte MPI_LONG_LONG: no -m */
};

/* What one one-sided benchmark is; a constant in each program. */
struct rma_spec {
    const struct bench_spec *bench; /* kind BENCH_KIND_LATENCY or _BANDWIDTH, ranks _TWO,
                                       column NULL (the harness prints its own) */
    enum rma_op op;
};

/*
 * The whole program between MPI_Init and MPI_Finalize, which main calls around it: options
 * (bench.h's, with -w and -s), the window, the sweep over sizes and the output.  Returns main's
 * exit status (enum bench_status): 0, or 2 after rank 0 printed why the command line or the
 * number of ranks is refused.  Every rank returns the same status, without a hang.
 */
int rma_main(const struct rma_spec *spec, int argc, char **argv);

#endif
