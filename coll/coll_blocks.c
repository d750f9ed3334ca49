/*
 * coll_blocks.c - the block-wise steps of the reduction algorithms (see coll_blocks.h).
 *
 * Layer: coll.  Must not: be used for the user's messages.
 */
#include "config.h"

#include "coll/coll_blocks.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/op/op.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of one segment of the ring: small enough that a block's first segment moves on while
 * the next one arrives, large enough that the cost of a message stays small beside its data. */
enum { COLL_BLOCKS_SEGMENT_BYTES = 1 << 18 };

/* Element FIRST of BUF. */
static void *coll_blocks_at(void *buf, MPI_Count first, const struct comm_datatype *dt)
{
    return (char *)buf + (MPI_Aint)first * dt->extent;
}

static const void *coll_blocks_at_const(const void *buf, MPI_Count first,
                                        const struct comm_datatype *dt)
{
    return (const char *)buf + (MPI_Aint)first * dt->extent;
}

static int coll_blocks_reduce(struct comm_op *op, const void *in, void *inout, MPI_Count count,
                              struct comm_datatype *dt)
{
    return comm_op_reduce(op, in, inout, count, dt) < 0 ? MPI_ERR_OP : MPI_SUCCESS;
}

void comm_coll_blocks_split(MPI_Count count, int nblocks, MPI_Count *displs_out)
{
    MPI_Count base = count / nblocks, extra = count % nblocks;

    displs_out[0] = 0;
    for (int b = 0; b < nblocks; b++) {
        displs_out[b + 1] = displs_out[b] + base + (b < extra ? 1 : 0);
    }
}

void comm_coll_blocks_prefix(const int *counts, int size, MPI_Count *displs_out)
{
    displs_out[0] = 0;
    for (int r = 0; r < size; r++) {
        displs_out[r + 1] = displs_out[r] + counts[r];
    }
}

void comm_coll_blocks_fold_init(const struct comm_communicator *comm,
                                struct comm_coll_blocks_fold *fold_out)
{
    int pof2 = 1, rank = comm->rank;

    while (pof2 * 2 <= comm->size) {
        pof2 *= 2;
    }
    fold_out->pof2 = pof2;
    fold_out->rem = comm->size - pof2;
    if (rank < 2 * fold_out->rem) {
        fold_out->newrank = rank % 2 == 1 ? rank / 2 : -1;
    } else {
        fold_out->newrank = rank - fold_out->rem;
    }
}

int comm_coll_blocks_fold_rank(const struct comm_coll_blocks_fold *fold, int newrank)
{
    return newrank < fold->rem ? 2 * newrank + 1 : newrank + fold->rem;
}

void comm_coll_blocks_fold_group(const struct comm_coll_blocks_fold *fold, const MPI_Count *displs,
                                 MPI_Count *group_out)
{
    /* New rank i's blocks start at rank 2i (i < rem) or i + rem; new rank pof2 is one past the
     * last rank. */
    for (int i = 0; i <= fold->pof2; i++) {
        group_out[i] = displs[i < fold->rem ? 2 * i : i + fold->rem];
    }
}

int comm_coll_blocks_fold_in(void *buf, MPI_Count total, struct comm_datatype *dt,
                             struct comm_op *op, const struct comm_coll_blocks_fold *fold, int tag,
                             struct comm_communicator *comm)
{
    int rank = comm->rank, err;
    void *tmp, *tmp_block = NULL;

    if (rank >= 2 * fold->rem) {
        return MPI_SUCCESS;
    }
    if (rank % 2 == 0) {
        return comm_coll_send(buf, total, dt, rank + 1, tag, comm);
    }
    tmp = comm_coll_alloc_buffer(total, dt, &tmp_block);
    if (tmp == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = comm_coll_recv(tmp, total, dt, rank - 1, tag, comm);
    if (err == MPI_SUCCESS) {
        err = coll_blocks_reduce(op, tmp, buf, total, dt);
    }
    comm_coll_free_buffer(tmp_block);
    return err;
}

int comm_coll_blocks_fold_out(void *buf, MPI_Count first, MPI_Count count, struct comm_datatype *dt,
                              const struct comm_coll_blocks_fold *fold, int tag,
                              struct comm_communicator *comm)
{
    int rank = comm->rank;
    void *at = coll_blocks_at(buf, first, dt);

    if (rank >= 2 * fold->rem) {
        return MPI_SUCCESS;
    }
    if (rank % 2 == 1) {
        return comm_coll_send(at, count, dt, rank - 1, tag, comm);
    }
    return comm_coll_recv(at, count, dt, rank + 1, tag, comm);
}

int comm_coll_blocks_halve(const void *src, void *buf, const MPI_Count *group,
                           struct comm_datatype *dt, struct comm_op *op,
                           const struct comm_coll_blocks_fold *fold, int tag,
                           struct comm_communicator *comm)
{
    int me = fold->newrank, lo = 0, hi = fold->pof2, half = fold->pof2 / 2, err = MPI_SUCCESS;
    MPI_Count most;
    void *tmp = NULL, *tmp_block = NULL;

    if (me < 0 || fold->pof2 == 1) {
        return MPI_SUCCESS;
    }
    /* What this rank keeps shrinks step by step: the first step's half is the most it receives
     * (from SRC's peer it receives into BUF itself, and two ranks need nothing more). */
    most = me < half ? group[half] - group[0] : group[fold->pof2] - group[half];
    if (src == NULL || half > 1) {
        tmp = comm_coll_alloc_buffer(most, dt, &tmp_block);
        if (tmp == NULL) {
            return MPI_ERR_NO_MEM;
        }
    }
    for (int mask = half; mask > 0 && err == MPI_SUCCESS; mask >>= 1) {
        int peer = comm_coll_blocks_fold_rank(fold, me ^ mask), mid = lo + mask;
        int keep_lo = me & mask ? mid : lo, keep_hi = me & mask ? hi : mid;
        int send_lo = me & mask ? lo : mid, send_hi = me & mask ? mid : hi;
        MPI_Count keep = group[keep_hi] - group[keep_lo];
        void *kept = coll_blocks_at(buf, group[keep_lo], dt);

        if (src != NULL && mask == half) {
            /* The peer's half lands where the sum goes; ours is reduced into it (commutative). */
            err = comm_coll_sendrecv(coll_blocks_at_const(src, group[send_lo], dt),
                                     group[send_hi] - group[send_lo], dt, peer, kept, keep, dt,
                                     peer, tag, comm);
            if (err == MPI_SUCCESS) {
                err = coll_blocks_reduce(op, coll_blocks_at_const(src, group[keep_lo], dt), kept,
                                         keep, dt);
            }
        } else {
            err = comm_coll_sendrecv(coll_blocks_at(buf, group[send_lo], dt),
                                     group[send_hi] - group[send_lo], dt, peer, tmp, keep, dt, peer,
                                     tag, comm);
            if (err == MPI_SUCCESS) {
                err = coll_blocks_reduce(op, tmp, kept, keep, dt);
            }
        }
        lo = keep_lo;
        hi = keep_hi;
    }
    comm_coll_free_buffer(tmp_block);
    return err;
}

int comm_coll_blocks_double(void *buf, const MPI_Count *group, struct comm_datatype *dt,
                            const struct comm_coll_blocks_fold *fold, int tag,
                            struct comm_communicator *comm)
{
    int me = fold->newrank, err = MPI_SUCCESS;

    /* Before the step with MASK, new rank i holds the MASK blocks from i rounded down to a
     * multiple of MASK; its peer i ^ MASK holds the neighbouring MASK blocks. */
    for (int mask = 1; me >= 0 && mask < fold->pof2 && err == MPI_SUCCESS; mask <<= 1) {
        int them = me ^ mask, mine_lo = me & ~(mask - 1), their_lo = them & ~(mask - 1);
        int peer = comm_coll_blocks_fold_rank(fold, them);

        err = comm_coll_sendrecv(coll_blocks_at(buf, group[mine_lo], dt),
                                 group[mine_lo + mask] - group[mine_lo], dt, peer,
                                 coll_blocks_at(buf, group[their_lo], dt),
                                 group[their_lo + mask] - group[their_lo], dt, peer, tag, comm);
    }
    return err;
}

int comm_coll_blocks_gather(void *buf, const MPI_Count *group, struct comm_datatype *dt,
                            int newroot, const struct comm_coll_blocks_fold *fold, int tag,
                            struct comm_communicator *comm)
{
    int me = fold->newrank, err = MPI_SUCCESS;

    /* The doubling's exchanges, but only one way: toward NEWROOT. */
    for (int mask = 1; me >= 0 && mask < fold->pof2 && err == MPI_SUCCESS; mask <<= 1) {
        int them = me ^ mask, mine_lo = me & ~(mask - 1), their_lo = them & ~(mask - 1);
        int peer = comm_coll_blocks_fold_rank(fold, them);

        if ((me ^ newroot) & mask) {
            return comm_coll_send(coll_blocks_at(buf, group[mine_lo], dt),
                                  group[mine_lo + mask] - group[mine_lo], dt, peer, tag, comm);
        }
        err = comm_coll_recv(coll_blocks_at(buf, group[their_lo], dt),
                             group[their_lo + mask] - group[their_lo], dt, peer, tag, comm);
    }
    return err;
}

/* ---- the segmented ring ------------------------------------------------------------- */

/* One segment of a block: COUNT elements from element FIRST of the vector. */
struct coll_blocks_segment {
    MPI_Count first;
    MPI_Count count;
};

/* After a failure: takes back what has not matched yet and waits for the rest, so that no
 * request in flight outlives the memory it names. */
static void coll_blocks_drain(struct comm_request *reqs, const bool *started, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (started[i] && !comm_request_is_complete(&reqs[i]) && !comm_p2p_cancel(&reqs[i])) {
            comm_progress_until(&reqs[i].complete);
        }
    }
}

/* Appends the segments of block B of DISPLS to SEGS (from *N on). */
static void coll_blocks_cut(const MPI_Count *displs, int b, MPI_Count seg,
                            struct coll_blocks_segment *segs, size_t *n)
{
    for (MPI_Count first = displs[b]; first < displs[b + 1]; first += seg) {
        segs[*n].first = first;
        segs[*n].count = displs[b + 1] - first < seg ? displs[b + 1] - first : seg;
        (*n)++;
    }
}

static size_t coll_blocks_nsegments(const MPI_Count *displs, int b, MPI_Count seg)
{
    return (size_t)((displs[b + 1] - displs[b] + seg - 1) / seg);
}

/*
 * One pass around the ring.  In step s (0..size-2) this rank sends block FIRST-s to the right
 * and receives block FIRST-s-1 from the left: with OP it reduces that block into BUF (through
 * a scratch segment), without it the block lands in BUF.  The block received in step s is the
 * one sent in step s+1, so each received segment is sent on as soon as it is in place.
 *
 * No deadlock: a rank waits only for receives (two posted ahead) until its last one, and it has
 * started every send that its receives so far allow; the left neighbour of a rank waiting for
 * segment k has therefore either sent it or waits itself for an earlier one, and around the
 * ring that regress ends at a rank whose first block's segments went out at once.
 */
static int coll_blocks_ring(void *buf, const MPI_Count *displs, struct comm_datatype *dt,
                            struct comm_op *op, int first, int tag, struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, err = MPI_SUCCESS;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    MPI_Count seg = dt->size > 0 ? COLL_BLOCKS_SEGMENT_BYTES / dt->size : displs[size];
    size_t nrecv = 0, nsend = 0, nlast, nfirst, nreqs, sent = 0;
    struct coll_blocks_segment *segs = NULL;
    struct comm_request *reqs = NULL, *rreq;
    bool *started = NULL;
    void *tmp[2] = {NULL, NULL}, *tmp_block[2] = {NULL, NULL};

    if (size == 1) {
        return MPI_SUCCESS;
    }
    if (seg < 1) {
        seg = 1;
    }
    /* The receives in order, then the sends: block FIRST's segments and every received segment
     * but those of the last step. */
    for (int s = 0; s < size - 1; s++) {
        nrecv += coll_blocks_nsegments(displs, (first - s - 1 + 2 * size) % size, seg);
    }
    nfirst = coll_blocks_nsegments(displs, (first + size) % size, seg);
    nlast = coll_blocks_nsegments(displs, (first + 1) % size, seg);
    nsend = nfirst + nrecv - nlast;
    nreqs = nsend + 2;
    segs = malloc((nrecv + nfirst + 1) * sizeof(*segs));
    reqs = malloc(nreqs * sizeof(*reqs));
    started = calloc(nreqs, sizeof(*started));
    if (segs == NULL || reqs == NULL || started == NULL) {
        err = MPI_ERR_NO_MEM;
        goto out_free;
    }
    nrecv = 0;
    for (int s = 0; s < size - 1; s++) {
        coll_blocks_cut(displs, (first - s - 1 + 2 * size) % size, seg, segs, &nrecv);
    }
    nfirst = nrecv;
    coll_blocks_cut(displs, (first + size) % size, seg, segs, &nfirst);
    nfirst -= nrecv;
    if (op != NULL) {
        MPI_Count most = 0;

        for (size_t i = 0; i < nrecv; i++) {
            most = segs[i].count > most ? segs[i].count : most;
        }
        for (int k = 0; k < 2; k++) {
            tmp[k] = comm_coll_alloc_buffer(most, dt, &tmp_block[k]);
            if (tmp[k] == NULL) {
                err = MPI_ERR_NO_MEM;
                goto out_free;
            }
        }
    }
    /* Requests: the sends in order from 0, the two receive slots at nsend and nsend + 1. */
    for (size_t j = 0; j < nfirst && err == MPI_SUCCESS; j++) {
        const struct coll_blocks_segment *sg = &segs[nrecv + j];

        err = comm_coll_isend(&reqs[sent], coll_blocks_at(buf, sg->first, dt), sg->count, dt, right,
                              tag, comm);
        started[sent++] = err == MPI_SUCCESS;
    }
    for (size_t i = 0; i < 2 && i < nrecv && err == MPI_SUCCESS; i++) {
        rreq = &reqs[nsend + i];
        err = comm_coll_irecv(rreq, op != NULL ? tmp[i] : coll_blocks_at(buf, segs[i].first, dt),
                              segs[i].count, dt, left, tag, comm);
        started[nsend + i] = err == MPI_SUCCESS;
    }
    for (size_t i = 0; i < nrecv && err == MPI_SUCCESS; i++) {
        const struct coll_blocks_segment *sg = &segs[i];

        rreq = &reqs[nsend + i % 2];
        err = comm_coll_wait(rreq);
        if (err == MPI_SUCCESS && op != NULL) {
            err = coll_blocks_reduce(op, tmp[i % 2], coll_blocks_at(buf, sg->first, dt), sg->count,
                                     dt);
        }
        if (err == MPI_SUCCESS && i + 2 < nrecv) {
            const struct coll_blocks_segment *next = &segs[i + 2];

            err = comm_coll_irecv(rreq,
                                  op != NULL ? tmp[i % 2] : coll_blocks_at(buf, next->first, dt),
                                  next->count, dt, left, tag, comm);
            started[nsend + i % 2] = err == MPI_SUCCESS;
        }
        if (err == MPI_SUCCESS && i < nrecv - nlast) {
            err = comm_coll_isend(&reqs[sent], coll_blocks_at(buf, sg->first, dt), sg->count, dt,
                                  right, tag, comm);
            started[sent++] = err == MPI_SUCCESS;
        }
    }
    for (size_t j = 0; j < sent && err == MPI_SUCCESS; j++) {
        err = comm_coll_wait(&reqs[j]);
    }
    if (err != MPI_SUCCESS) {
        coll_blocks_drain(reqs, started, nreqs);
    }
out_free:
    comm_coll_free_buffer(tmp_block[0]);
    comm_coll_free_buffer(tmp_block[1]);
    free(started);
    free(reqs);
    free(segs);
    return err;
}

int comm_coll_blocks_ring_reduce_scatter(void *buf, const MPI_Count *displs,
                                         struct comm_datatype *dt, struct comm_op *op, int tag,
                                         struct comm_communicator *comm)
{
    /* Rank r first sends block r-1, so that block r, received last, ends here. */
    return coll_blocks_ring(buf, displs, dt, op, comm->rank - 1, tag, comm);
}

int comm_coll_blocks_ring_allgather(void *buf, const MPI_Count *displs, struct comm_datatype *dt,
                                    int tag, struct comm_communicator *comm)
{
    return coll_blocks_ring(buf, displs, dt, NULL, comm->rank, tag, comm);
}
