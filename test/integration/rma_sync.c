/*
 * rma_sync.c - integration test of every one-sided synchronization mode, each checked at the
 * point where the standard says the data must be visible: MPI_Win_fence (with the assertions
 * MPI_MODE_NOPRECEDE, NOSTORE, NOPUT, NOSUCCEED), post/start/complete/wait and MPI_Win_test,
 * MPI_Win_lock shared and exclusive (an exclusive lock makes read-modify-write safe),
 * lock_all/unlock_all with MPI_Win_flush, flush_all, flush_local and flush_local_all, and
 * MPI_Win_sync with load/store on an MPI_Win_allocate_shared window (when every rank shares
 * one node).
 *
 *   rma_sync [ROUNDS]     (default 10: exclusive-lock increments per rank; any ranks >= 1)
 *
 * Plain portable MPI-3.1 on windows from MPI_Win_create and MPI_Win_allocate.  Prints
 * "rma_sync R: ok" per rank, or "FAIL: rma_sync rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "rma_sync";
static int rank, size, right, left;

#include "rma_check.h"

enum { N = 64, WIN_INTS = 4 * N };

static struct rma_win w;
static const char *where;

static int *mem(int slot)
{
    return (int *)w.base + slot * N;
}

static int val(int owner, int round, int i)
{
    return owner * 10000 + round * 100 + i + 1;
}

static void expect_ints(const int *got, int owner, int round, const char *what, int line)
{
    for (int i = 0; i < N; i++) {
        if (got[i] != val(owner, round, i)) {
            fail(line, "%s window, %s: element %d is %d, expected %d", where, what, i, got[i],
                 val(owner, round, i));
        }
    }
}

static void put_buf(int *buf, int round)
{
    for (int i = 0; i < N; i++) {
        buf[i] = val(rank, round, i);
    }
}

static void test_fence(void)
{
    int buf[N], got[N];

    put_buf(mem(1), 0); /* a local store, made public by the first fence */
    put_buf(buf, 1);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win));
    CHECK_MPI(MPI_Put(buf, N, MPI_INT, right, rma_disp(&w, right, 0), N, MPI_INT, w.win));
    CHECK_MPI(MPI_Get(got, N, MPI_INT, right, rma_disp(&w, right, N * 4), N, MPI_INT, w.win));
    /* No local store since the last fence; no put or accumulate reaches us before the next. */
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, w.win));
    expect_ints(mem(0), left, 1, "put, after the fence", __LINE__);
    expect_ints(got, right, 0, "get, after the fence", __LINE__);
    CHECK_MPI(MPI_Get(got, N, MPI_INT, right, rma_disp(&w, right, 0), N, MPI_INT, w.win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE, w.win));
    expect_ints(got, rank, 1, "get of our own put, after the fence", __LINE__);
    /* An epoch of accumulates, then local stores again before a fence. */
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win));
    CHECK_MPI(MPI_Accumulate(buf, N, MPI_INT, right, rma_disp(&w, right, 2 * N * 4), N, MPI_INT,
                             MPI_REPLACE, w.win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
    expect_ints(mem(2), left, 1, "accumulate, after the fence", __LINE__);
}

/* Post/start/complete/wait: first a ring (expose to the left, access the right), then every
 * rank to rank 0, completed with MPI_Win_test. */
static void test_pscw(void)
{
    MPI_Group world, to, from;
    int buf[N], flag = 0;

    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_incl(world, 1, &right, &to));
    CHECK_MPI(MPI_Group_incl(world, 1, &left, &from));
    put_buf(buf, 2);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_post(from, 0, w.win));
    CHECK_MPI(MPI_Win_start(to, 0, w.win));
    CHECK_MPI(MPI_Put(buf, N, MPI_INT, right, rma_disp(&w, right, 0), N, MPI_INT, w.win));
    CHECK_MPI(MPI_Win_complete(w.win));
    CHECK_MPI(MPI_Win_wait(w.win));
    expect_ints(mem(0), left, 2, "put, after MPI_Win_wait", __LINE__);
    CHECK_MPI(MPI_Group_free(&to));
    CHECK_MPI(MPI_Group_free(&from));

    put_buf(buf, 3);
    if (rank == 0) {
        int zero = 0;

        CHECK_MPI(MPI_Group_excl(world, 1, &zero, &from));
        CHECK_MPI(MPI_Win_post(from, 0, w.win));
        CHECK_MPI(MPI_Group_free(&from));
        while (!flag) {
            CHECK_MPI(MPI_Win_test(w.win, &flag));
        }
        for (int r = 1; r < size; r++) {
            if (mem(1)[r] != val(r, 3, r)) {
                fail(__LINE__, "%s window: element %d after MPI_Win_test is %d, expected %d", where,
                     r, mem(1)[r], val(r, 3, r));
            }
        }
    } else {
        int zero = 0;

        CHECK_MPI(MPI_Group_incl(world, 1, &zero, &to));
        CHECK_MPI(MPI_Win_start(to, 0, w.win));
        CHECK_MPI(
            MPI_Put(&buf[rank], 1, MPI_INT, 0, rma_disp(&w, 0, (N + rank) * 4), 1, MPI_INT, w.win));
        CHECK_MPI(MPI_Win_complete(w.win));
        CHECK_MPI(MPI_Group_free(&to));
    }
    CHECK_MPI(MPI_Group_free(&world));
}

/* Exclusive locks: ROUNDS read-modify-write increments of rank 0's counter from every rank,
 * then shared-lock gets of the right neighbour's data. */
static void test_lock(int rounds)
{
    int buf[N], got[N], counter;

    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
    put_buf(mem(0), 4);
    mem(3)[0] = 0;
    CHECK_MPI(MPI_Win_unlock(rank, w.win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int k = 0; k < rounds; k++) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w.win));
        CHECK_MPI(MPI_Get(&counter, 1, MPI_INT, 0, rma_disp(&w, 0, 3 * N * 4), 1, MPI_INT, w.win));
        CHECK_MPI(MPI_Win_flush(0, w.win));
        counter++;
        CHECK_MPI(MPI_Put(&counter, 1, MPI_INT, 0, rma_disp(&w, 0, 3 * N * 4), 1, MPI_INT, w.win));
        CHECK_MPI(MPI_Win_unlock(0, w.win));
    }
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w.win));
    CHECK_MPI(MPI_Get(got, N, MPI_INT, right, rma_disp(&w, right, 0), N, MPI_INT, w.win));
    CHECK_MPI(MPI_Win_unlock(right, w.win));
    /* A get's buffer is ours again once the epoch ends. */
    expect_ints(got, right, 4, "get, after MPI_Win_unlock", __LINE__);
    put_buf(buf, 5);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w.win));
    CHECK_MPI(MPI_Put(buf, N, MPI_INT, right, rma_disp(&w, right, N * 4), N, MPI_INT, w.win));
    CHECK_MPI(MPI_Win_unlock(right, w.win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w.win));
    expect_ints(mem(1), left, 5, "put, after the origin's MPI_Win_unlock", __LINE__);
    if (rank == 0 && mem(3)[0] != size * rounds) {
        fail(__LINE__, "%s window: counter is %d after %d exclusive increments from %d ranks",
             where, mem(3)[0], rounds, size);
    }
    CHECK_MPI(MPI_Win_unlock(rank, w.win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* lock_all: a flushed put is at the target when the target hears of it; flush_local lets the
 * origin reuse its buffer; flush_all and flush_local_all cover every target. */
static void test_flush(void)
{
    int buf[N], got[N], token = 0, heard = -1;

    CHECK_MPI(MPI_Win_lock_all(0, w.win));
    put_buf(buf, 6);
    CHECK_MPI(MPI_Put(buf, N, MPI_INT, right, rma_disp(&w, right, 0), N, MPI_INT, w.win));
    CHECK_MPI(MPI_Win_flush(right, w.win));
    CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, right, 1, &heard, 1, MPI_INT, left, 1,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_sync(w.win));
    expect_ints(mem(0), left, 6, "put, after the origin's MPI_Win_flush", __LINE__);

    put_buf(buf, 7);
    CHECK_MPI(MPI_Put(buf, N, MPI_INT, right, rma_disp(&w, right, N * 4), N, MPI_INT, w.win));
    CHECK_MPI(MPI_Win_flush_local(right, w.win));
    put_buf(buf, 99); /* the put has read its buffer; this must not reach the target */
    /* Our flushed put of round 6 is what a later get of the same place reads. */
    CHECK_MPI(MPI_Get(got, N, MPI_INT, right, rma_disp(&w, right, 0), N, MPI_INT, w.win));
    CHECK_MPI(MPI_Win_flush_local(right, w.win));
    expect_ints(got, rank, 6, "get, after MPI_Win_flush_local", __LINE__);
    CHECK_MPI(MPI_Win_flush(right, w.win));
    CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, right, 2, &heard, 1, MPI_INT, left, 2,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_sync(w.win));
    expect_ints(mem(1), left, 7, "put, after MPI_Win_flush_local then MPI_Win_flush", __LINE__);

    /* Every rank puts its rank into element RANK of slot 2 of every window. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int r = 0; r < size; r++) {
        buf[r % N] = val(rank, 8, rank);
        CHECK_MPI(MPI_Put(&buf[r % N], 1, MPI_INT, r, rma_disp(&w, r, (2 * N + rank % N) * 4), 1,
                          MPI_INT, w.win));
        CHECK_MPI(MPI_Win_flush_local_all(w.win));
    }
    CHECK_MPI(MPI_Win_flush_all(w.win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_sync(w.win));
    for (int r = 0; r < size && r < N; r++) {
        if (mem(2)[r] != val(r, 8, r)) {
            fail(__LINE__, "%s window: element %d after MPI_Win_flush_all is %d, expected %d",
                 where, r, mem(2)[r], val(r, 8, r));
        }
    }
    CHECK_MPI(MPI_Win_unlock_all(w.win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* Load/store on a shared window: a store into the right neighbour's segment is seen by it
 * after MPI_Win_sync, a barrier and MPI_Win_sync (the unified model's pattern). */
static void test_shared_sync(void)
{
    MPI_Win win;
    int *mine, *theirs, unit, model = 0, flag = 0, *attr;
    MPI_Aint bytes;

    CHECK_MPI(MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                      &mine, &win));
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &attr, &flag));
    CHECK(flag);
    model = *attr;
    CHECK(model == MPI_WIN_UNIFIED);
    CHECK_MPI(MPI_Win_shared_query(win, right, &bytes, &unit, &theirs));
    CHECK(bytes == N * (MPI_Aint)sizeof(int) && unit == (int)sizeof(int));
    CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (int round = 10; round < 13; round++) {
        for (int i = 0; i < N; i++) {
            theirs[i] = val(rank, round, i);
        }
        CHECK_MPI(MPI_Win_sync(win));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Win_sync(win));
        expect_ints(mine, left, round, "shared store, after MPI_Win_sync and a barrier", __LINE__);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    long rounds = 10;
    enum rma_flavor flavors[] = {RMA_CREATE, RMA_ALLOCATE, RMA_DYNAMIC};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    if (argc > 1) {
        char *end;

        rounds = strtol(argv[1], &end, 10);
        if (*end != '\0' || rounds < 1 || rounds > 100000) {
            fail(__LINE__, "ROUNDS '%s' is not a number from 1 to 100000", argv[1]);
        }
    }
    for (size_t f = 0; f < sizeof(flavors) / sizeof(flavors[0]); f++) {
        where = rma_flavor_name[flavors[f]];
        rma_win_make(&w, flavors[f], WIN_INTS * sizeof(int), sizeof(int), MPI_COMM_WORLD);
        test_fence();
        test_pscw();
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        test_lock((int)rounds);
        test_flush();
        rma_win_free(&w);
    }
    if (rma_all_shared(MPI_COMM_WORLD)) {
        where = "allocate_shared";
        test_shared_sync();
    }
    MPI_Finalize();
    printf("%s %d: ok\n", prog, rank);
    return 0;
}
