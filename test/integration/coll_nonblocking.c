/*
 * coll_nonblocking.c - integration test of nonblocking collectives: Ibarrier,
 * Ibcast, Ireduce, Iallreduce (int sum in place, a non-commutative user op on a derived type,
 * and about 1 MiB of doubles), Igather, Iscatter, Iallgather (strided vector type) and
 * Ialltoall (doubles), up to 13 outstanding at once on MPI_COMM_WORLD, a duplicate and a
 * reversed split, with two rounds in flight (the next posted before the current completes),
 * completed by Waitall, a Testall loop, or Testsome then Waitany; results checked exactly
 * (a relative 1e-12 for the inexact double sum) against values computed locally.
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_nonblocking R: ok" per rank, or
 * "FAIL: coll_nonblocking rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_nonblocking";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

#include "coll_reductions.h"

enum { NREQ = 16, N = 37, ROUNDS = 6 };

struct round {
    MPI_Request req[NREQ];
    int nreq;
    int bcast[N + 1], bcast2[N + 1];
    int rsum[N + 1], rsum_in[N];
    int mat[4 * N], mat_in[4 * N];
    int dsum[N], dsum_in[N];
    void *big, *big_in;
    int *gath, gath_in[N];
    int *scat, scat_in[N + 1];
    void *ag, *ag_in;
    double *a2a, *a2a_in;
    int *ag_rev, ag_rev_in;
};

static MPI_Comm dup, rev;
static int rev_rank, rev_size;
static long big_n;

/* Posts everything for round k: on world, then its duplicate, then the reversed split, each
 * in the same order on every rank as the standard requires, so that up to 13 operations on
 * three communicators are outstanding at once. */
static void post(struct round *r, int k)
{
    int root = k % size;

    memset(r, 0, sizeof(*r));
    memset(r->bcast, RFILL, sizeof(r->bcast));
    memset(r->bcast2, RFILL, sizeof(r->bcast2));
    memset(r->rsum, RFILL, sizeof(r->rsum));
    for (int i = 0; i < N; i++) {
        if (rank == root) {
            r->bcast[i] = val(root, k, i);
        }
        if (rank == size - 1 - root) {
            r->bcast2[i] = val(root, k + 100, i);
        }
    }
    fill_contrib(R_ISUM, rank, N, r->rsum_in, k);
    fill_contrib(R_USER_MAT, rank, N, r->mat_in, k);
    fill_contrib(R_ISUM, rank, N, r->dsum, k);
    r->big = rbuf_alloc(R_DSUM_INEXACT, big_n);
    r->big_in = rbuf_alloc(R_DSUM_INEXACT, big_n);
    fill_contrib(R_DSUM_INEXACT, rank, big_n, r->big_in, k);
    r->gath = malloc(sizeof(int) * N * (size_t)size);
    r->scat = malloc(sizeof(int) * N * (size_t)size);
    r->ag = tbuf(T_VEC, N * size, RFILL);
    r->ag_in = tbuf(T_VEC, N, SFILL);
    r->a2a = tbuf(T_DOUBLE, N * size, RFILL);
    r->a2a_in = tbuf(T_DOUBLE, N * size, SFILL);
    r->ag_rev = malloc(sizeof(int) * (size_t)rev_size);
    CHECK(r->gath != NULL && r->scat != NULL && r->ag_rev != NULL);
    memset(r->scat_in, RFILL, sizeof(r->scat_in));
    for (int i = 0; i < N; i++) {
        r->gath_in[i] = val(rank, k, i);
        put(r->ag_in, T_VEC, i, val(rank, k, i));
        for (int p = 0; p < size; p++) {
            r->scat[p * N + i] = val(root, p + k, i);
            put(r->a2a_in, T_DOUBLE, p * N + i, val(rank, p + k, i));
        }
    }
    r->ag_rev_in = val(rank, k, 0);

    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &r->req[r->nreq++]));
    CHECK_MPI(MPI_Ibcast(r->bcast, N, MPI_INT, root, MPI_COMM_WORLD, &r->req[r->nreq++]));
    CHECK_MPI(MPI_Ireduce(r->rsum_in, r->rsum, N, MPI_INT, MPI_SUM, size - 1 - root, MPI_COMM_WORLD,
                          &r->req[r->nreq++]));
    CHECK_MPI(MPI_Iallreduce(r->mat_in, r->mat, N, mat_type, rop[R_USER_MAT], MPI_COMM_WORLD,
                             &r->req[r->nreq++]));
    CHECK_MPI(MPI_Igather(r->gath_in, N, MPI_INT, r->gath, N, MPI_INT, root, MPI_COMM_WORLD,
                          &r->req[r->nreq++]));
    CHECK_MPI(MPI_Iscatter(r->scat, N, MPI_INT, r->scat_in, N, MPI_INT, root, MPI_COMM_WORLD,
                           &r->req[r->nreq++]));
    CHECK_MPI(MPI_Iallgather(r->ag_in, N, types[T_VEC], r->ag, N, types[T_VEC], MPI_COMM_WORLD,
                             &r->req[r->nreq++]));
    CHECK_MPI(MPI_Ialltoall(r->a2a_in, N, MPI_DOUBLE, r->a2a, N, MPI_DOUBLE, MPI_COMM_WORLD,
                            &r->req[r->nreq++]));
    /* The same kinds of operation on the duplicate: must not match world's. */
    CHECK_MPI(MPI_Ibcast(r->bcast2, N, MPI_INT, size - 1 - root, dup, &r->req[r->nreq++]));
    CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, r->dsum, N, MPI_INT, MPI_SUM, dup, &r->req[r->nreq++]));
    CHECK_MPI(MPI_Iallreduce(r->big_in, r->big, (int)big_n, MPI_DOUBLE, MPI_SUM, dup,
                             &r->req[r->nreq++]));
    CHECK_MPI(MPI_Ibarrier(dup, &r->req[r->nreq++]));
    CHECK_MPI(
        MPI_Iallgather(&r->ag_rev_in, 1, MPI_INT, r->ag_rev, 1, MPI_INT, rev, &r->req[r->nreq++]));
}

/* Completes round r in one of three ways: Waitall; a Testall loop; Testsome then Waitany. */
static void complete(struct round *r, int how)
{
    int flag = 0, done = 0, idx, outcount, *indices = malloc(sizeof(int) * NREQ);

    CHECK(indices != NULL);
    if (how == 0) {
        CHECK_MPI(MPI_Waitall(r->nreq, r->req, MPI_STATUSES_IGNORE));
    } else if (how == 1) {
        while (!flag) {
            CHECK_MPI(MPI_Testall(r->nreq, r->req, &flag, MPI_STATUSES_IGNORE));
        }
    } else {
        while (done < r->nreq / 2) {
            CHECK_MPI(MPI_Testsome(r->nreq, r->req, &outcount, indices, MPI_STATUSES_IGNORE));
            CHECK(outcount != MPI_UNDEFINED);
            done += outcount;
        }
        while (done < r->nreq) {
            CHECK_MPI(MPI_Waitany(r->nreq, r->req, &idx, MPI_STATUS_IGNORE));
            CHECK(idx != MPI_UNDEFINED);
            done++;
        }
    }
    for (int i = 0; i < r->nreq; i++) {
        CHECK(r->req[i] == MPI_REQUEST_NULL);
    }
    free(indices);
}

static void verify(struct round *r, int k)
{
    int root = k % size;
    void *want;

    for (int i = 0; i < N; i++) {
        CHECK(r->bcast[i] == val(root, k, i));
        CHECK(r->bcast2[i] == val(root, k + 100, i));
    }
    if (rank == size - 1 - root) {
        want = expect_all(R_ISUM, N, k, 0, size - 1);
        check_against(R_ISUM, r->rsum, want, N, k, "ireduce", __LINE__);
        free(want);
    }
    want = expect_all(R_USER_MAT, N, k, 0, size - 1);
    check_against(R_USER_MAT, r->mat, want, N, k, "iallreduce", __LINE__);
    free(want);
    want = expect_all(R_ISUM, N, k, 0, size - 1);
    check_against(R_ISUM, r->dsum, want, N, k, "iallreduce in place", __LINE__);
    free(want);
    want = expect_all(R_DSUM_INEXACT, big_n, k, 0, size - 1);
    check_against(R_DSUM_INEXACT, r->big, want, big_n, k, "iallreduce large", __LINE__);
    free(want);
    for (int i = 0; i < N; i++) {
        for (int p = 0; p < size; p++) {
            if (rank == root) {
                CHECK(r->gath[p * N + i] == val(p, k, i));
            }
            expect_elem(r->ag, T_VEC, p * N + i, val(p, k, i), "iallgather", __LINE__);
            expect_elem(r->a2a, T_DOUBLE, p * N + i, val(p, rank + k, i), "ialltoall", __LINE__);
        }
        CHECK(r->scat_in[i] == val(root, rank + k, i));
    }
    free(r->big);
    free(r->big_in);
    free(r->gath);
    free(r->scat);
    free(r->ag);
    free(r->ag_in);
    free(r->a2a);
    free(r->a2a_in);
}

/* The reversed split's allgather: entry p holds the value of the rank whose rank there is p;
 * ask the communicator's group which world rank that is. */
static void verify_rev(struct round *r, int k)
{
    MPI_Group wg, rg;
    int *ranks = malloc(sizeof(int) * (size_t)rev_size),
        *world = malloc(sizeof(int) * (size_t)rev_size);

    CHECK(ranks != NULL && world != NULL);
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_MPI(MPI_Comm_group(rev, &rg));
    for (int p = 0; p < rev_size; p++) {
        ranks[p] = p;
    }
    CHECK_MPI(MPI_Group_translate_ranks(rg, rev_size, ranks, wg, world));
    for (int p = 0; p < rev_size; p++) {
        CHECK(r->ag_rev[p] == val(world[p], k, 0));
    }
    CHECK_MPI(MPI_Group_free(&wg));
    CHECK_MPI(MPI_Group_free(&rg));
    free(ranks);
    free(world);
    free(r->ag_rev);
}

int main(int argc, char **argv)
{
    struct round rounds[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    types_init();
    red_init();
    big_n = ((1L << 20) / (long)sizeof(double)) | 1;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &rev));
    MPI_Comm_rank(rev, &rev_rank);
    MPI_Comm_size(rev, &rev_size);

    /* Two rounds outstanding at a time: round k + 1 is posted before round k completes. */
    post(&rounds[0], 0);
    for (int k = 0; k < ROUNDS; k++) {
        if (k + 1 < ROUNDS) {
            post(&rounds[(k + 1) % 2], k + 1);
        }
        complete(&rounds[k % 2], k % 3);
        verify(&rounds[k % 2], k);
        verify_rev(&rounds[k % 2], k);
    }

    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Comm_free(&dup));
    red_free();
    types_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
