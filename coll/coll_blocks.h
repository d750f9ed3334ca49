/*
 * coll_blocks.h - the steps that the block-wise reduction algorithms share: a vector cut into
 * blocks, the fold that leaves a power of two of ranks, recursive halving (a reduce-scatter),
 * recursive doubling (an allgather), a binomial gather of the blocks, and the segmented,
 * pipelined ring (a reduce-scatter or an allgather).
 *
 * Layer: coll, private to the reduce, allreduce and reduce_scatter algorithms.
 * Must not: choose algorithms or be reached from outside coll/.
 *
 * Layout: a vector of N elements of a datatype, laid out by the datatype from BUF (element i at
 * BUF + i * extent), is cut into NBLOCKS consecutive blocks described by NBLOCKS + 1 prefix
 * sums: block b is elements displs[b] .. displs[b+1]-1, displs[0] = 0 and displs[NBLOCKS] = N.
 * Blocks may be empty.
 *
 * Fold: with p ranks, pof2 the largest power of two <= p and rem = p - pof2, ranks 0..2*rem-1
 * pair up (2i, 2i+1) and the odd one of each pair stands for both; the pof2 ranks that remain
 * are numbered 0..pof2-1 (their "new rank"): odd rank 2i+1 below 2*rem is i, rank r >= 2*rem is
 * r - rem.  The halving, doubling and gather steps run among those pof2 ranks only, on blocks
 * indexed by new rank (pof2 + 1 prefix sums).
 *
 * The reducing steps combine partial results in whatever order their exchanges give, so they
 * serve commutative operations only.
 *
 * Returns: MPI_SUCCESS or an MPI error code.  Buffers belong to the caller; the steps allocate
 * their own scratch space.  Threads: as coll.h.
 */
#ifndef COMM_COLL_BLOCKS_H
#define COMM_COLL_BLOCKS_H

#include "coll/coll.h"

/* The fold of a communicator (see above), the same on every rank but for newrank. */
struct comm_coll_blocks_fold {
    int pof2;    /* the largest power of two <= size */
    int rem;     /* size - pof2 */
    int newrank; /* this rank among the pof2 that remain, or -1 for a folded-out even rank */
};

/* DISPLS_OUT (NBLOCKS + 1 entries) for COUNT elements cut into NBLOCKS blocks as even as can
 * be: the first count % nblocks blocks hold one element more. */
void comm_coll_blocks_split(MPI_Count count, int nblocks, MPI_Count *displs_out);

/* DISPLS_OUT (SIZE + 1 entries): the prefix sums of COUNTS. */
void comm_coll_blocks_prefix(const int *counts, int size, MPI_Count *displs_out);

/* The fold of COMM as seen from this rank. */
void comm_coll_blocks_fold_init(const struct comm_communicator *comm,
                                struct comm_coll_blocks_fold *fold_out);

/* The rank in the communicator of new rank NEWRANK. */
int comm_coll_blocks_fold_rank(const struct comm_coll_blocks_fold *fold, int newrank);

/* GROUP_OUT (pof2 + 1 entries): the blocks of the remaining ranks when rank r's block is
 * DISPLS block r (SIZE + 1 entries): new rank i below rem holds the blocks of ranks 2i and
 * 2i+1, new rank i >= rem the block of rank i + rem. */
void comm_coll_blocks_fold_group(const struct comm_coll_blocks_fold *fold, const MPI_Count *displs,
                                 MPI_Count *group_out);

/* Fold in: each even rank below 2*rem sends its TOTAL elements of BUF to the next odd rank,
 * which reduces them into its BUF.  Nothing happens on the other ranks. */
int comm_coll_blocks_fold_in(void *buf, MPI_Count total, struct comm_datatype *dt,
                             struct comm_op *op, const struct comm_coll_blocks_fold *fold, int tag,
                             struct comm_communicator *comm);

/* Fold out: each odd rank below 2*rem sends elements FIRST .. FIRST+COUNT-1 of BUF to the even
 * rank before it, which receives them at the same place of its BUF. */
int comm_coll_blocks_fold_out(void *buf, MPI_Count first, MPI_Count count, struct comm_datatype *dt,
                              const struct comm_coll_blocks_fold *fold, int tag,
                              struct comm_communicator *comm);

/*
 * Reduce-scatter by recursive halving among the remaining ranks (a folded-out rank returns at
 * once): in each of log2 pof2 steps a rank keeps half of the blocks it still handles, sends the
 * other half to the rank at distance pof2/2, pof2/4, ... 1 and reduces what it receives from it
 * into the half it kept.  On return new rank i holds, in GROUP block i of BUF, the reduction of
 * that block over every rank that took part.  Cost: log2 pof2 steps; each rank sends and
 * receives (pof2-1)/pof2 of the vector and reduces as much.
 * SRC, when not NULL, is this rank's vector and BUF holds nothing yet (no rank was folded:
 * pof2 is the communicator's size; OP is commutative): the first step sends from SRC, receives
 * the peer's half straight into BUF and reduces SRC's half into it, so the vector is never
 * copied into BUF whole.
 */
int comm_coll_blocks_halve(const void *src, void *buf, const MPI_Count *group,
                           struct comm_datatype *dt, struct comm_op *op,
                           const struct comm_coll_blocks_fold *fold, int tag,
                           struct comm_communicator *comm);

/* Allgather by recursive doubling among the remaining ranks, the reverse of the halving: new
 * rank i starts with GROUP block i of BUF and ends with every block. */
int comm_coll_blocks_double(void *buf, const MPI_Count *group, struct comm_datatype *dt,
                            const struct comm_coll_blocks_fold *fold, int tag,
                            struct comm_communicator *comm);

/* Binomial gather among the remaining ranks, the reverse of the halving: new rank i starts with
 * GROUP block i of BUF and new rank NEWROOT ends with every block. */
int comm_coll_blocks_gather(void *buf, const MPI_Count *group, struct comm_datatype *dt,
                            int newroot, const struct comm_coll_blocks_fold *fold, int tag,
                            struct comm_communicator *comm);

/*
 * Ring reduce-scatter over SIZE blocks (DISPLS: SIZE + 1 entries) on every rank of COMM: in
 * step s (0..size-2) rank r sends block r-s-1 to rank r+1 and reduces block r-s-2, received
 * from rank r-1, into BUF; on return rank r's block r of BUF is the reduction over all ranks.
 * Blocks travel in segments, each forwarded as soon as it is reduced, so sending, receiving and
 * reducing overlap.  Cost: size-1 steps; each rank sends, receives and reduces (p-1)/p of the
 * vector.
 */
int comm_coll_blocks_ring_reduce_scatter(void *buf, const MPI_Count *displs,
                                         struct comm_datatype *dt, struct comm_op *op, int tag,
                                         struct comm_communicator *comm);

/* Ring allgather over SIZE blocks, segmented and pipelined as above: rank r starts with block r
 * of BUF and ends with every block. */
int comm_coll_blocks_ring_allgather(void *buf, const MPI_Count *displs, struct comm_datatype *dt,
                                    int tag, struct comm_communicator *comm);

#endif
