/*
 * coll_bcast.c - integration test of MPI_Bcast: every root, counts 0, 1, 37 and about
 * 1 MiB (1 MiB from the first, middle and last root), with int, double and a strided vector
 * type (receives must not touch its gaps), on MPI_COMM_WORLD, a split communicator with
 * reversed ranks and MPI_COMM_SELF; the root sending one contiguous type while the others
 * receive the same signature as ints; back-to-back broadcasts from changing roots, and 400
 * short ones from one root with a late rank now and then; 16 MiB of
 * ints (plus a few, so that no segmentation divides it evenly) from the first and last root,
 * and 4 MiB of the vector type (16 MiB span) from the middle root;
 * broadcasts interleaved on three communicators; 150 communicators made, used and freed, after
 * which the process must not hold more mappings (where /proc says).
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_bcast R: ok" per rank, or
 * "FAIL: coll_bcast rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_bcast";
static int rank, size;

#include "p2p_check.h"
#include "coll_remake.h"

#include "coll_types.h"

static const long case_counts[] = {0, 1, 37, -1}; /* -1: about 1 MiB */

static void test_bcast(MPI_Comm comm, const char *what)
{
    int me, n;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    for (int t = 0; t < NTYPES; t++) {
        for (size_t c = 0; c < sizeof(case_counts) / sizeof(case_counts[0]); c++) {
            long cnt = case_counts[c] < 0 ? big_count(t, 1) : case_counts[c];

            for (int root = 0; root < n; root++) {
                if (case_counts[c] < 0 && !big_root(root, n)) {
                    continue;
                }
                void *buf = tbuf(t, cnt + 1, me == root ? SFILL : RFILL);

                if (me == root) {
                    for (long i = 0; i < cnt; i++) {
                        put(buf, t, i, val(root, c, i));
                    }
                }
                CHECK_MPI(MPI_Bcast(buf, (int)cnt, types[t], root, comm));
                if (me != root) {
                    for (long i = 0; i < cnt; i++) {
                        expect_elem(buf, t, i, val(root, c, i), what, __LINE__);
                    }
                    expect_untouched(buf, t, cnt, what, __LINE__);
                }
                free(buf);
            }
        }
    }
}

/* The root sends one contiguous element of 37 ints, the others receive 37 MPI_INT: the same
 * type signature, so it must work however the library splits the message. */
static void test_mixed_types(void)
{
    enum { N = 37 };
    MPI_Datatype block;
    int buf[N + 1];

    CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &block));
    CHECK_MPI(MPI_Type_commit(&block));
    for (int root = 0; root < size; root++) {
        for (int i = 0; i <= N; i++) {
            buf[i] = rank == root ? val(root, 9, i) : -1;
        }
        if (rank == root) {
            CHECK_MPI(MPI_Bcast(buf, 1, block, root, MPI_COMM_WORLD));
        } else {
            CHECK_MPI(MPI_Bcast(buf, N, MPI_INT, root, MPI_COMM_WORLD));
            for (int i = 0; i < N; i++) {
                CHECK(buf[i] == val(root, 9, i));
            }
            CHECK(buf[N] == -1);
        }
    }
    CHECK_MPI(MPI_Type_free(&block));
}

/* Messages large enough for pipelined and scattered broadcasts to cut them in many pieces. */
static void test_large(void)
{
    const long n_int = (16L << 20) / (long)sizeof(int) + 3, n_vec = (1L << 20) + 5;
    const int roots[3] = {0, size - 1, size / 2};

    for (int k = 0; k < 3; k++) {
        int t = k < 2 ? T_INT : T_VEC, root = roots[k];
        long cnt = k < 2 ? n_int : n_vec;
        void *buf = tbuf(t, cnt + 1, rank == root ? SFILL : RFILL);

        for (long i = 0; rank == root && i < cnt; i++) {
            put(buf, t, i, val(root, 50 + k, i));
        }
        CHECK_MPI(MPI_Bcast(buf, (int)cnt, types[t], root, MPI_COMM_WORLD));
        if (rank != root) {
            for (long i = 0; i < cnt; i++) {
                expect_elem(buf, t, i, val(root, 50 + k, i), "bcast large", __LINE__);
            }
            expect_untouched(buf, t, cnt, "bcast large", __LINE__);
        }
        free(buf);
    }
}

/* Broadcasts back to back from every root in turn must not mix up. */
static void test_back_to_back(void)
{
    enum { ROUNDS = 50 };
    int v;

    for (int k = 0; k < ROUNDS; k++) {
        int root = k % size;

        v = rank == root ? val(root, k, 0) : -1;
        CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, root, MPI_COMM_WORLD));
        CHECK(v == val(root, k, 0));
    }
}

/* Short broadcasts back to back from one root, whom nothing holds back: every 16th round one
 * rank (a different one each time) arrives late, and must still get that round's values, not
 * a later round's. */
static void test_one_root(int root)
{
    enum { ROUNDS = 400, COUNT = 5 };
    int v[COUNT];

    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < COUNT; i++) {
            v[i] = rank == root ? val(root, k, i) : -1;
        }
        if (k % 16 == 0 && rank == (k / 16) % size) {
            double until = MPI_Wtime() + 200e-6;

            while (MPI_Wtime() < until) {
            }
        }
        CHECK_MPI(MPI_Bcast(v, COUNT, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < COUNT; i++) {
            if (v[i] != val(root, k, i)) {
                fail(__LINE__, "bcast from root %d, round %d: element %d is %d, not %d", root, k, i,
                     v[i], val(root, k, i));
            }
        }
    }
}

/* A message of one piece and a bit on three communicators, interleaved. */
static void test_interleaved(void)
{
    long m = 70001;
    int *buf = malloc(sizeof(int) * (size_t)m);
    MPI_Comm comms[3];

    CHECK(buf != NULL);
    comms[0] = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &comms[2]));
    for (int round = 0; round < 4; round++) {
        for (int j = 0; j < 3; j++) {
            int me, np, root;

            MPI_Comm_rank(comms[j], &me);
            MPI_Comm_size(comms[j], &np);
            root = (round + j) % np;
            for (long i = 0; i < m; i++) {
                buf[i] = me == root ? val(root, round * 3 + j, i) : -1;
            }
            CHECK_MPI(MPI_Bcast(buf, (int)m, MPI_INT, root, comms[j]));
            for (long i = 0; i < m; i++) {
                if (buf[i] != val(root, round * 3 + j, i)) {
                    fail(__LINE__, "bcast interleaved: communicator %d element %ld wrong", j, i);
                }
            }
        }
    }
    CHECK_MPI(MPI_Comm_free(&comms[2]));
    CHECK_MPI(MPI_Comm_free(&comms[1]));
    free(buf);
}

/* Communicators made, used and freed many times: nothing may pile up. */
static void remake_use(MPI_Comm c, int i)
{
    int me, v;

    MPI_Comm_rank(c, &me);
    v = me == 0 ? i : -1;
    CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, c));
    CHECK(v == i);
}

int main(int argc, char **argv)
{
    MPI_Comm odd;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    types_init();

    test_bcast(MPI_COMM_WORLD, "bcast world");
    /* A communicator whose ranks are world's reversed and split in two. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &odd));
    test_bcast(odd, "bcast split");
    CHECK_MPI(MPI_Comm_free(&odd));
    test_bcast(MPI_COMM_SELF, "bcast self");
    test_mixed_types();
    test_back_to_back();
    test_one_root(0);
    test_one_root(size - 1);
    test_large();
    test_interleaved();
    remake_check(remake_use);

    types_free();
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
