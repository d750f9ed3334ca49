/*
 * bcast_chain.c - pipelined chain broadcast.
 *
 * The ranks form a chain from the root (root, root+1, ..., root-1) and the message, as a
 * stream of packed bytes, is cut into segments of COMM_COLL_BCAST_CHAIN_SEGMENT bytes: each
 * rank forwards segment k to the next rank while it receives segment k+1 from the previous one.
 * Wins: very large messages: once the pipeline is full every link carries data at the same
 * time and every rank receives the message exactly once.  Cost: (p - 2 + n / s) steps of one
 * segment each (s the segment size): p-1 latencies more than sending the message once, so it
 * loses to the trees on short messages.  Restrictions: none; a non-contiguous datatype goes
 * through a packed copy.
 * Reference: Pjesivac-Grbovic, Angskun, Bosilca, Fagg, Gabriel and Dongarra, "Performance
 * analysis of MPI collective operations" (2007), pipelined chain broadcast.
 */
#include "config.h"

#include "coll/bcast/bcast.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdbool.h>
#include <stdlib.h>

/* Bytes per segment.  Measured on shared memory (3 ranks, 16 MiB): 32 KiB segments and
 * below are several times slower (the per-segment handshakes dominate), 64 KiB somewhat, and
 * 128 KiB to 1 MiB do about equally well; the smallest of those fills the pipeline soonest. */
enum { COMM_COLL_BCAST_CHAIN_SEGMENT = 128 * 1024 };

static int chain_run(char *bytes, size_t n, struct comm_datatype *byte, int root,
                     struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, vrank = (rank - root + size) % size;
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size, err = MPI_SUCCESS;
    size_t seg = COMM_COLL_BCAST_CHAIN_SEGMENT, nseg = (n + seg - 1) / seg;
    bool forwards = vrank < size - 1;

    if (vrank > 0) {
        err = comm_coll_recv(bytes, (MPI_Count)(n < seg ? n : seg), byte, prev, COMM_COLL_TAG_BCAST,
                             comm);
    }
    for (size_t k = 0; k < nseg && err == MPI_SUCCESS; k++) {
        size_t at = k * seg, len = n - at < seg ? n - at : seg;
        size_t next_at = at + len, next_len = n - next_at < seg ? n - next_at : seg;
        bool receives = vrank > 0 && k + 1 < nseg;

        if (forwards && receives) {
            err = comm_coll_sendrecv(bytes + at, (MPI_Count)len, byte, next, bytes + next_at,
                                     (MPI_Count)next_len, byte, prev, COMM_COLL_TAG_BCAST, comm);
        } else if (forwards) {
            err = comm_coll_send(bytes + at, (MPI_Count)len, byte, next, COMM_COLL_TAG_BCAST, comm);
        } else if (receives) {
            err = comm_coll_recv(bytes + next_at, (MPI_Count)next_len, byte, prev,
                                 COMM_COLL_TAG_BCAST, comm);
        }
    }
    return err;
}

int comm_coll_bcast_chain(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                          struct comm_communicator *comm)
{
    size_t n = (size_t)count * (size_t)dt->size;
    char *packed = NULL;
    int err;

    if (n == 0 || comm->size == 1) {
        return MPI_SUCCESS;
    }
    if (dt->contiguous) {
        return chain_run((char *)buf + dt->true_lb, n, comm_datatype_lookup(MPI_BYTE), root, comm);
    }
    packed = malloc(n);
    if (packed == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (comm->rank == root) {
        comm_datatype_pack(dt, buf, count, 0, packed, n);
    }
    err = chain_run(packed, n, comm_datatype_lookup(MPI_BYTE), root, comm);
    if (err == MPI_SUCCESS && comm->rank != root) {
        comm_datatype_unpack(dt, buf, count, 0, packed, n);
    }
    free(packed);
    return err;
}
