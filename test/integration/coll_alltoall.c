/*
 * coll_alltoall.c - integration test of MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw:
 * counts 0, 1, 37 and about 1 MiB sent by each rank, with int, double and a strided vector
 * type, with and without MPI_IN_PLACE; Alltoallv with per-pair counts (some empty) in reverse
 * peer order with gaps that must stay untouched; Alltoallw mixing ints and the vector type per
 * peer with byte displacements; Alltoall sending one contiguous type of 37 ints per peer and
 * receiving 37 MPI_INT; and many short exchanges back to back, each with its own data, with
 * one rank or another late now and then, so that no exchange can see another's data.
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_alltoall R: ok" per rank, or
 * "FAIL: coll_alltoall rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_alltoall";
static int rank, size;

#include "p2p_check.h"

#include "coll_types.h"

static const long case_counts[] = {0, 1, 37, -1}; /* -1: about 1 MiB sent by each rank */

static void test_alltoall(int t, long c, int in_place)
{
    const char *what = in_place ? "alltoall in place" : "alltoall";
    void *sbuf = tbuf(t, c * size, SFILL), *rbuf = tbuf(t, c * size + 1, RFILL);

    for (int p = 0; p < size; p++) {
        for (long i = 0; i < c; i++) {
            put(in_place ? rbuf : sbuf, t, p * c + i, val(rank, p, i));
        }
    }
    CHECK_MPI(MPI_Alltoall(in_place ? MPI_IN_PLACE : sbuf, (int)c, types[t], rbuf, (int)c, types[t],
                           MPI_COMM_WORLD));
    for (int q = 0; q < size; q++) {
        for (long i = 0; i < c; i++) {
            expect_elem(rbuf, t, q * c + i, val(q, rank, i), what, __LINE__);
        }
    }
    expect_untouched(rbuf, t, c * size, what, __LINE__);
    free(sbuf);
    free(rbuf);
}

/* How many elements rank a sends to rank b in the "v" and "w" cases (some are empty). */
static int pcount(int a, int b, long c)
{
    return c == 0 ? 0 : (int)c + (a + 2 * b) % 3 - 1;
}

/* Blocks stored in reverse peer order with a one-element gap after each. */
static long playout(long c, int *counts, int *displs, int sending)
{
    long at = 0;

    for (int p = size - 1; p >= 0; p--) {
        counts[p] = sending ? pcount(rank, p, c) : pcount(p, rank, c);
        displs[p] = (int)at;
        at += counts[p] + 1;
    }
    return at;
}

static void test_alltoallv(int t, long c, int in_place)
{
    const char *what = in_place ? "alltoallv in place" : "alltoallv";
    int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
    int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
    long stotal, rtotal;
    void *sbuf, *rbuf;

    CHECK(sc != NULL && sd != NULL && rc != NULL && rd != NULL);
    stotal = playout(c, sc, sd, 1);
    rtotal = playout(c, rc, rd, 0);
    sbuf = tbuf(t, stotal, SFILL);
    rbuf = tbuf(t, rtotal, RFILL);
    if (in_place) {
        /* In place, the counts and layout are the receive ones in both directions, so the
         * data must be symmetric: rank a sends b what b sends a in number. */
        for (int p = 0; p < size; p++) {
            rc[p] =
                pcount(rank, p, c) < pcount(p, rank, c) ? pcount(rank, p, c) : pcount(p, rank, c);
        }
        rtotal = 0;
        for (int p = size - 1; p >= 0; p--) {
            rd[p] = (int)rtotal;
            rtotal += rc[p] + 1;
        }
        free(rbuf);
        rbuf = tbuf(t, rtotal, RFILL);
        for (int p = 0; p < size; p++) {
            for (long i = 0; i < rc[p]; i++) {
                put(rbuf, t, rd[p] + i, val(rank, p, i));
            }
        }
    } else {
        for (int p = 0; p < size; p++) {
            for (long i = 0; i < sc[p]; i++) {
                put(sbuf, t, sd[p] + i, val(rank, p, i));
            }
        }
    }
    CHECK_MPI(MPI_Alltoallv(in_place ? MPI_IN_PLACE : sbuf, sc, sd, types[t], rbuf, rc, rd,
                            types[t], MPI_COMM_WORLD));
    for (int q = 0; q < size; q++) {
        for (long i = 0; i < rc[q]; i++) {
            expect_elem(rbuf, t, rd[q] + i, val(q, rank, i), what, __LINE__);
        }
        expect_untouched(rbuf, t, rd[q] + rc[q], what, __LINE__);
    }
    free(sbuf);
    free(rbuf);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
}

/* Alltoallw: the block between a and b is ints when a + b is even and the strided vector type
 * when it is odd, displacements are in bytes, and blocks go in reverse peer order with gaps. */
static int wtype(int a, int b)
{
    return (a + b) % 2 ? T_VEC : T_INT;
}

static void test_alltoallw(long c, int in_place)
{
    const char *what = in_place ? "alltoallw in place" : "alltoallw";
    int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
    int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)size),
                 *rt = malloc(sizeof(MPI_Datatype) * (size_t)size);
    size_t sbytes = 0, rbytes = 0;
    char *sbuf, *rbuf;

    CHECK(sc != NULL && sd != NULL && rc != NULL && rd != NULL && st != NULL && rt != NULL);
    for (int p = size - 1; p >= 0; p--) {
        int t = wtype(rank, p);

        sc[p] = in_place ? (pcount(rank, p, c) < pcount(p, rank, c) ? pcount(rank, p, c)
                                                                    : pcount(p, rank, c))
                         : pcount(rank, p, c);
        rc[p] = in_place ? sc[p] : pcount(p, rank, c);
        st[p] = rt[p] = types[t];
        sd[p] = (int)sbytes;
        rd[p] = (int)rbytes;
        sbytes += text[t] * (size_t)(sc[p] + 1);
        rbytes += text[t] * (size_t)(rc[p] + 1);
    }
    sbuf = malloc(sbytes + 1);
    rbuf = malloc(rbytes + 1);
    CHECK(sbuf != NULL && rbuf != NULL);
    memset(sbuf, SFILL, sbytes + 1);
    memset(rbuf, RFILL, rbytes + 1);
    for (int p = 0; p < size; p++) {
        for (long i = 0; i < sc[p]; i++) {
            put(in_place ? rbuf + rd[p] : sbuf + sd[p], wtype(rank, p), i, val(rank, p, i));
        }
    }
    CHECK_MPI(MPI_Alltoallw(in_place ? MPI_IN_PLACE : sbuf, sc, sd, st, rbuf, rc, rd, rt,
                            MPI_COMM_WORLD));
    for (int q = 0; q < size; q++) {
        for (long i = 0; i < rc[q]; i++) {
            expect_elem(rbuf + rd[q], wtype(q, rank), i, val(q, rank, i), what, __LINE__);
        }
        expect_untouched(rbuf + rd[q], wtype(q, rank), rc[q], what, __LINE__);
    }
    free(sbuf);
    free(rbuf);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
}

/* Each rank sends one contiguous block of 37 ints to each peer and receives 37 MPI_INT from
 * each: the same type signature, so the blocks must land whatever the algorithm packs. */
static void test_mixed_types(void)
{
    enum { N = 37 };
    MPI_Datatype block;
    int *sbuf = malloc(sizeof(int) * N * (size_t)size);
    int *rbuf = malloc(sizeof(int) * (N * (size_t)size + 1));

    CHECK(sbuf != NULL && rbuf != NULL);
    CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &block));
    CHECK_MPI(MPI_Type_commit(&block));
    for (int p = 0; p < size; p++) {
        for (int i = 0; i < N; i++) {
            sbuf[p * N + i] = val(rank, p, i);
        }
    }
    memset(rbuf, RFILL, sizeof(int) * (N * (size_t)size + 1));
    CHECK_MPI(MPI_Alltoall(sbuf, 1, block, rbuf, N, MPI_INT, MPI_COMM_WORLD));
    for (int q = 0; q < size; q++) {
        for (int i = 0; i < N; i++) {
            CHECK(rbuf[q * N + i] == val(q, rank, i));
        }
    }
    CHECK(untouched(rbuf, T_INT, N * (long)size));
    CHECK_MPI(MPI_Type_free(&block));
    free(sbuf);
    free(rbuf);
}

/* ROUNDS exchanges of COUNT ints per peer, back to back; the value names the round, the sender
 * and the receiver.  Every 16th round one rank (a different one each time) arrives late. */
static void test_rounds(int count, int in_place)
{
    enum { ROUNDS = 400 };
    const char *what = in_place ? "back-to-back alltoall in place" : "back-to-back alltoall";
    int *sbuf = malloc(sizeof(int) * (size_t)count * (size_t)size);
    int *rbuf = malloc(sizeof(int) * (size_t)count * (size_t)size);

    CHECK(sbuf != NULL && rbuf != NULL);
    for (int round = 0; round < ROUNDS; round++) {
        int *out = in_place ? rbuf : sbuf;

        for (int p = 0; p < size; p++) {
            for (int i = 0; i < count; i++) {
                out[p * count + i] = (round * size + rank) * size * count + p * count + i;
            }
        }
        if (round % 16 == 0 && rank == (round / 16) % size) {
            double until = MPI_Wtime() + 200e-6;

            while (MPI_Wtime() < until) {
            }
        }
        CHECK_MPI(MPI_Alltoall(in_place ? MPI_IN_PLACE : sbuf, count, MPI_INT, rbuf, count, MPI_INT,
                               MPI_COMM_WORLD));
        for (int q = 0; q < size; q++) {
            for (int i = 0; i < count; i++) {
                int want = (round * size + q) * size * count + rank * count + i;

                if (rbuf[q * count + i] != want) {
                    fail(__LINE__, "%s: round %d, element %d from rank %d is %d, expected %d", what,
                         round, i, q, rbuf[q * count + i], want);
                }
            }
        }
    }
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    types_init();

    for (int t = 0; t < NTYPES; t++) {
        for (size_t k = 0; k < sizeof(case_counts) / sizeof(case_counts[0]); k++) {
            long c = case_counts[k] < 0 ? big_count(t, size) : case_counts[k];

            for (int in_place = 0; in_place < 2; in_place++) {
                test_alltoall(t, c, in_place);
                test_alltoallv(t, c, in_place);
            }
        }
    }
    for (size_t k = 0; k < sizeof(case_counts) / sizeof(case_counts[0]); k++) {
        long c = case_counts[k] < 0 ? big_count(T_VEC, size) : case_counts[k];

        test_alltoallw(c, 0);
        test_alltoallw(c, 1);
    }
    test_mixed_types();
    for (int in_place = 0; in_place < 2; in_place++) {
        test_rounds(1, in_place);
        test_rounds(8, in_place);
    }

    types_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
