/*
 * free_pending.c - integration test: objects freed while operations still use them.
 *
 *   free_pending   (any number of ranks >= 2; ranks work in a ring)
 *
 * MPI_Comm_free, MPI_Type_free, MPI_Op_free, MPI_Info_free, MPI_Group_free and
 * MPI_Request_free only mark the object: what is pending on it completes normally.  Checks,
 * each rank receiving from its left neighbour and sending to its right:
 *   - a receive posted on a duplicate that is freed before the message is even sent (eager
 *     and rendezvous sizes), then completes with the right data;
 *   - a send started on a duplicate that is freed at once;
 *   - a persistent receive on a freed duplicate, started twice;
 *   - a message taken by MPI_Improbe on a duplicate freed before MPI_Mrecv;
 *   - MPI_Iallreduce with a user operation and MPI_Ibcast of a derived type, all three
 *     (communicator, op, type) freed before the wait;
 *   - a persistent MPI_Allreduce_init on a duplicate freed before its two starts;
 *   - MPI_Request_free on an active receive and an active rendezvous send: the data lands (a
 *     later message on MPI_COMM_WORLD says so);
 *   - info and group handles freed while a communicator still holds what they described;
 *   - the freed communicator's handle is no longer valid (MPI_ERR_COMM with ERRORS_RETURN).
 * Prints "free_pending R: ok" per rank, or "FAIL: free_pending rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SMALL = 16, LARGE = 1 << 17 }; /* ints: eager, and rendezvous on every transport */

static const char *prog = "free_pending";
static int rank, size;

#include "p2p_check.h"

static int value(int src, int key, int i)
{
    return src * 100003 + key * 1009 + i;
}

static void fill(int *buf, int n, int src, int key)
{
    for (int i = 0; i < n; i++) {
        buf[i] = value(src, key, i);
    }
}

static void check_buf(const int *buf, int n, int src, int key, int line)
{
    for (int i = 0; i < n; i++) {
        if (buf[i] != value(src, key, i)) {
            fail(line, "key %d: element %d is %d, expected %d", key, i, buf[i], value(src, key, i));
        }
    }
}

static bool matches(const int *buf, int n, int src, int key)
{
    for (int i = 0; i < n; i++) {
        if (buf[i] != value(src, key, i)) {
            return false;
        }
    }
    return true;
}

static MPI_Comm dup_world(void)
{
    MPI_Comm c;

    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    return c;
}

/* Ranks in pairs (0-1, 2-3, ...; a last odd rank only keeps step).  ROLE 0: the even rank
 * receives; ROLE 1: the odd one.  The partner, or -1. */
static int partner_of(int role, bool *receiver)
{
    int partner = rank ^ 1;

    *receiver = (rank & 1) == role;
    return partner < size ? partner : -1;
}

/* A receive posted on a duplicate that the receiver frees before the sender (on its own copy
 * of the same communicator) has sent anything. */
static void test_recv_on_freed(int n, int key)
{
    int *buf = malloc((size_t)n * sizeof(int));

    CHECK(buf != NULL);
    for (int role = 0; role < 2; role++) {
        bool receiver;
        int peer = partner_of(role, &receiver), count = -1;
        MPI_Comm c = dup_world();
        MPI_Request req;
        MPI_Status st;

        if (peer < 0) {
            CHECK_MPI(MPI_Comm_free(&c));
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            continue;
        }
        if (receiver) {
            memset(buf, 0, (size_t)n * sizeof(int));
            CHECK_MPI(MPI_Irecv(buf, n, MPI_INT, peer, key, c, &req));
            CHECK_MPI(MPI_Comm_free(&c));
            CHECK(c == MPI_COMM_NULL);
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Wait(&req, &st));
            CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
            CHECK(count == n && st.MPI_SOURCE == peer && st.MPI_TAG == key);
            check_buf(buf, n, peer, key + role, __LINE__);
        } else {
            fill(buf, n, rank, key + role);
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Isend(buf, n, MPI_INT, peer, key, c, &req));
            CHECK_MPI(MPI_Comm_free(&c)); /* the send is still going */
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
    }
    free(buf);
}

/* Both sides free the communicator with a receive and a send pending on it. */
static void test_both_freed(void)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in[SMALL] = {0}, out[SMALL];
    MPI_Comm c = dup_world();
    MPI_Request req[2];

    fill(out, SMALL, rank, 7);
    CHECK_MPI(MPI_Irecv(in, SMALL, MPI_INT, left, 7, c, &req[0]));
    CHECK_MPI(MPI_Isend(out, SMALL, MPI_INT, right, 7, c, &req[1]));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    check_buf(in, SMALL, left, 7, __LINE__);
}

/* A persistent receive on a communicator freed right after MPI_Recv_init, started twice. */
static void test_persistent(void)
{
    bool receiver;
    int peer = partner_of(0, &receiver), buf[SMALL];
    MPI_Comm c = dup_world();
    MPI_Request req = MPI_REQUEST_NULL;

    if (peer >= 0 && receiver) {
        CHECK_MPI(MPI_Recv_init(buf, SMALL, MPI_INT, peer, 3, c, &req));
        CHECK_MPI(MPI_Comm_free(&c));
    }
    for (int round = 0; round < 2; round++) {
        if (peer >= 0 && receiver) {
            memset(buf, 0, sizeof(buf));
            CHECK_MPI(MPI_Start(&req));
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            check_buf(buf, SMALL, peer, 30 + round, __LINE__);
        } else {
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            if (peer >= 0) {
                fill(buf, SMALL, rank, 30 + round);
                CHECK_MPI(MPI_Send(buf, SMALL, MPI_INT, peer, 3, c));
            }
        }
    }
    if (req != MPI_REQUEST_NULL) {
        CHECK_MPI(MPI_Request_free(&req));
        CHECK(req == MPI_REQUEST_NULL);
    } else {
        CHECK_MPI(MPI_Comm_free(&c));
    }
}

static void test_mprobe(void)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in[SMALL] = {0}, out[SMALL], flag = 0;
    MPI_Comm c = dup_world();
    MPI_Message msg;
    MPI_Request req;

    fill(out, SMALL, rank, 5);
    CHECK_MPI(MPI_Isend(out, SMALL, MPI_INT, right, 5, c, &req));
    while (!flag) {
        CHECK_MPI(MPI_Improbe(left, 5, c, &flag, &msg, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Mrecv(in, SMALL, MPI_INT, &msg, MPI_STATUS_IGNORE));
    CHECK(msg == MPI_MESSAGE_NULL);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_buf(in, SMALL, left, 5, __LINE__);
}

static void max_abs(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *a = in;
    int *b = inout;

    (void)dt;
    for (int i = 0; i < *len; i++) {
        int x = abs(a[i]), y = abs(b[i]);

        b[i] = x > y ? x : y;
    }
}

static void test_collectives(void)
{
    enum { N = 1000 };
    int *in = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
    int grid[4][4];
    MPI_Comm c = dup_world();
    MPI_Op op;
    MPI_Datatype column;
    MPI_Request req[2];

    CHECK(in != NULL && out != NULL);
    for (int i = 0; i < N; i++) {
        in[i] = (rank % 2 ? -1 : 1) * (rank * 10 + i);
    }
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k < 4; k++) {
            grid[r][k] = rank == 0 ? r * 4 + k : -1;
        }
    }
    CHECK_MPI(MPI_Op_create(max_abs, 1, &op));
    CHECK_MPI(MPI_Type_vector(4, 1, 4, MPI_INT, &column));
    CHECK_MPI(MPI_Type_commit(&column));
    CHECK_MPI(MPI_Iallreduce(in, out, N, MPI_INT, op, c, &req[0]));
    CHECK_MPI(MPI_Ibcast(&grid[0][1], 1, column, 0, c, &req[1]));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Type_free(&column));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(op == MPI_OP_NULL && column == MPI_DATATYPE_NULL && c == MPI_COMM_NULL);
    CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++) {
        CHECK(out[i] == (size - 1) * 10 + i);
    }
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k < 4; k++) {
            CHECK(grid[r][k] == (k == 1 || rank == 0 ? r * 4 + k : -1));
        }
    }
    free(in);
    free(out);
}

/* Freed active requests.  A freed small receive: the data is there once a later message
 * from the same sender has arrived (messages between a pair do not overtake).  A freed large
 * receive: the data lands while the engine runs (polled, with a limit far above the time it
 * takes).  A freed large send: the receiver gets it all. */
static void test_request_free(void)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int *in = calloc(LARGE, sizeof(int)), *out = malloc(LARGE * sizeof(int));
    int small_in[SMALL] = {0}, small_out[SMALL], done = -1;
    double start;
    MPI_Request req[2];

    CHECK(in != NULL && out != NULL);
    fill(out, LARGE, rank, 9);
    fill(small_out, SMALL, rank, 8);
    CHECK_MPI(MPI_Irecv(in, LARGE, MPI_INT, left, 9, MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Irecv(small_in, SMALL, MPI_INT, left, 8, MPI_COMM_WORLD, &req[1]));
    CHECK_MPI(MPI_Request_free(&req[0]));
    CHECK_MPI(MPI_Request_free(&req[1]));
    CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Isend(out, LARGE, MPI_INT, right, 9, MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Request_free(&req[0]));
    CHECK_MPI(MPI_Send(small_out, SMALL, MPI_INT, right, 8, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, right, 10, &done, 1, MPI_INT, left, 10,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(done == left);
    check_buf(small_in, SMALL, left, 8, __LINE__);
    start = MPI_Wtime();
    while (!matches(in, LARGE, left, 9) && MPI_Wtime() - start < 60) {
        int flag;

        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    }
    check_buf(in, LARGE, left, 9, __LINE__);
    /* Nobody leaves while a freed send's data may still be read from its buffer. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    free(in);
    free(out);
}

/* A persistent collective on a communicator freed right after MPI_Allreduce_init. */
static void test_persistent_coll(void)
{
    MPI_Comm c = dup_world();
    MPI_Request req;
    int in = 0, out = -1;

    CHECK_MPI(MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, c, MPI_INFO_NULL, &req));
    CHECK_MPI(MPI_Comm_free(&c));
    for (int round = 1; round <= 2; round++) {
        in = rank * round;
        CHECK_MPI(MPI_Start(&req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(out == round * size * (size - 1) / 2);
    }
    CHECK_MPI(MPI_Request_free(&req));
}

static void test_info_group(void)
{
    MPI_Comm c = dup_world(), sub;
    MPI_Info info, got;
    MPI_Group world_group, g;
    char v[32];
    int flag = 0, n = -1, r = -1, ranks[1] = {0};

    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Comm_set_info(c, info));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Comm_get_info(c, &got));
    CHECK_MPI(MPI_Info_get(got, "mpi_assert_no_any_tag", sizeof(v) - 1, v, &flag));
    CHECK(flag && strcmp(v, "true") == 0);
    CHECK_MPI(MPI_Info_free(&got));

    CHECK_MPI(MPI_Comm_group(c, &world_group));
    CHECK_MPI(MPI_Group_excl(world_group, 1, ranks, &g));
    CHECK_MPI(MPI_Group_free(&world_group));
    CHECK_MPI(MPI_Comm_create(c, g, &sub));
    CHECK_MPI(MPI_Group_free(&g));
    CHECK(g == MPI_GROUP_NULL);
    if (rank == 0) {
        CHECK(sub == MPI_COMM_NULL);
    } else {
        CHECK_MPI(MPI_Comm_size(sub, &n));
        CHECK_MPI(MPI_Comm_rank(sub, &r));
        CHECK(n == size - 1 && r == rank - 1);
        CHECK_MPI(MPI_Comm_free(&sub));
    }
    CHECK_MPI(MPI_Comm_free(&c));
}

static void test_stale_handle(void)
{
    MPI_Comm c = dup_world(), stale;
    int n = -1;

    stale = c;
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT(MPI_Comm_size(stale, &n), MPI_ERR_COMM);
    EXPECT(MPI_Barrier(stale), MPI_ERR_COMM);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fail(__LINE__, "needs at least 2 ranks");
    }
    test_recv_on_freed(SMALL, 10);
    test_recv_on_freed(LARGE, 20);
    test_both_freed();
    test_persistent();
    test_mprobe();
    test_collectives();
    test_persistent_coll();
    test_request_free();
    test_info_group();
    test_stale_handle();
    printf("%s %d: ok\n", prog, rank);
    MPI_Finalize();
    return 0;
}
