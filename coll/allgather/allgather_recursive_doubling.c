/*
 * allgather_recursive_doubling.c - recursive-doubling allgather.
 *
 * In round k each rank exchanges everything it has with the rank that differs in bit k, so
 * the data held doubles every round.  A non-power-of-two size first folds the first 2r ranks
 * in pairs (r = p - 2^floor(log2 p)): each even one hands its block to the next odd one, which
 * then stands for both; at the end the odd ones hand the whole result back.  A group of ranks
 * always holds the blocks of consecutive ranks, so every exchange is one run of the result
 * laid out in rank order, which is the receive buffer itself when the receive type is
 * contiguous and the blocks lie one after another, and a packed copy otherwise.
 * Wins: short messages (latency).  Cost: log2 p rounds (two more for a non-power-of-two size),
 * n (p-1)/p bytes received per rank (plus n for the folded ranks).  Restrictions: none; uneven
 * blocks (MPI_Allgatherv) are served.
 * Reference: Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication
 * Operations in MPICH" (2005).
 */
#include "config.h"

#include "coll/allgather/allgather.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"

#include <stdbool.h>
#include <stdlib.h>

/* The first rank that new rank I (of the power-of-two group) stands for. */
static int rd_first(int i, int rem)
{
    return i < rem ? 2 * i : i + rem;
}

/* Every rank's blocks: BYTES laid out in rank order, rank r's at OFF[r] (OFF[size]: total). */
static int rd_exchange(char *bytes, const size_t *off, struct comm_datatype *byte,
                       struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, pof2 = 1, rem, newrank, err = MPI_SUCCESS;

    while (pof2 * 2 <= size) {
        pof2 *= 2;
    }
    rem = size - pof2;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            err = comm_coll_send(bytes + off[rank], (MPI_Count)(off[rank + 1] - off[rank]), byte,
                                 rank + 1, COMM_COLL_TAG_ALLGATHER, comm);
            newrank = -1;
        } else {
            err = comm_coll_recv(bytes + off[rank - 1], (MPI_Count)(off[rank] - off[rank - 1]),
                                 byte, rank - 1, COMM_COLL_TAG_ALLGATHER, comm);
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }
    for (int mask = 1; err == MPI_SUCCESS && newrank >= 0 && mask < pof2; mask <<= 1) {
        int newpeer = newrank ^ mask, peer = newpeer < rem ? newpeer * 2 + 1 : newpeer + rem;
        int mine = newrank & ~(mask - 1), theirs = newpeer & ~(mask - 1);
        size_t slo = off[rd_first(mine, rem)], shi = off[rd_first(mine + mask, rem)];
        size_t rlo = off[rd_first(theirs, rem)], rhi = off[rd_first(theirs + mask, rem)];

        err = comm_coll_sendrecv(bytes + slo, (MPI_Count)(shi - slo), byte, peer, bytes + rlo,
                                 (MPI_Count)(rhi - rlo), byte, peer, COMM_COLL_TAG_ALLGATHER, comm);
    }
    if (err == MPI_SUCCESS && rank < 2 * rem) {
        if (rank % 2 == 1) {
            err = comm_coll_send(bytes, (MPI_Count)off[size], byte, rank - 1,
                                 COMM_COLL_TAG_ALLGATHER, comm);
        } else {
            err = comm_coll_recv(bytes, (MPI_Count)off[size], byte, rank + 1,
                                 COMM_COLL_TAG_ALLGATHER, comm);
        }
    }
    return err;
}

int comm_coll_allgather_recursive_doubling(const void *sbuf, MPI_Count scount,
                                           struct comm_datatype *sdt, void *rbuf,
                                           const int *rcounts, const int *displs,
                                           struct comm_datatype *rdt,
                                           struct comm_communicator *comm)
{
    int size = comm->size, rank = comm->rank, err = MPI_SUCCESS;
    size_t *off = malloc(((size_t)size + 1) * sizeof(*off));
    bool direct = rdt->contiguous;
    char *bytes, *packed = NULL;

    if (off == NULL) {
        return MPI_ERR_NO_MEM;
    }
    off[0] = 0;
    for (int r = 0; r < size; r++) {
        off[r + 1] = off[r] + (size_t)rcounts[r] * (size_t)rdt->size;
        if (rcounts[r] > 0 && (MPI_Aint)displs[r] * rdt->extent != (MPI_Aint)off[r]) {
            direct = false;
        }
    }
    if (off[size] == 0) {
        goto out_free_off;
    }
    if (direct) {
        bytes = (char *)rbuf + rdt->true_lb;
    } else {
        packed = malloc(off[size]);
        if (packed == NULL) {
            err = MPI_ERR_NO_MEM;
            goto out_free_off;
        }
        bytes = packed;
    }
    if (sbuf != NULL) {
        comm_datatype_pack(sdt, sbuf, scount, 0, bytes + off[rank], off[rank + 1] - off[rank]);
    } else if (!direct) {
        comm_datatype_pack(rdt, (char *)rbuf + (MPI_Aint)displs[rank] * rdt->extent, rcounts[rank],
                           0, bytes + off[rank], off[rank + 1] - off[rank]);
    }
    err = rd_exchange(bytes, off, comm_datatype_lookup(MPI_BYTE), comm);
    for (int r = 0; err == MPI_SUCCESS && !direct && r < size; r++) {
        if (r != rank || sbuf != NULL) {
            comm_datatype_unpack(rdt, (char *)rbuf + (MPI_Aint)displs[r] * rdt->extent, rcounts[r],
                                 0, bytes + off[r], off[r + 1] - off[r]);
        }
    }
    free(packed);
out_free_off:
    free(off);
    return err;
}
