/*
 * p2p_errors.c - integration test of argument errors in point-to-point calls: with
 * MPI_ERRORS_RETURN on MPI_COMM_WORLD, each invalid argument gives an error code of the right
 * class with a non-empty error string, and the calls the standard allows (null requests,
 * MPI_PROC_NULL) succeed; a user error handler made with Comm_create_errhandler is called with
 * the communicator and the error, also through Comm_call_errhandler, and keeps working after
 * Errhandler_free until it is replaced; communication works afterwards.
 *
 *   p2p_errors      (any number of ranks >= 2)
 *
 * Invalid sends go to the sender itself and invalid receives are nonblocking where possible,
 * so an MPI that misses an error fails the check instead of hanging.  Plain portable MPI; no
 * collectives.  Prints "p2p_errors R: ok" per rank, or "FAIL: p2p_errors rank R: ..." and
 * aborts.
 */
#include <mpi.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TAG = 7,
    BAD_RANK = -12345, /* below every special rank value */
};

static const char *prog = "p2p_errors";
static int rank, size;
static int handler_calls, handler_code;
static MPI_Comm handler_comm;

#include "p2p_check.h"

static void check_empty(const MPI_Status *st, int line)
{
    int count = -1;

    MPI_Get_count(st, MPI_INT, &count);
    if (st->MPI_SOURCE != MPI_ANY_SOURCE || st->MPI_TAG != MPI_ANY_TAG || count != 0) {
        fail(line, "status source %d tag %d count %d is not empty", st->MPI_SOURCE, st->MPI_TAG,
             count);
    }
}

static void record_error(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

static void test_arguments(int tag_ub)
{
    int buf[16] = {0}, flag = -1, blens[2] = {1, 1}, displs[2] = {0, 2};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Datatype uncommitted;
    MPI_Status st;

    /* Ranks. */
    EXPECT(MPI_Send(buf, 1, MPI_INT, size, TAG, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Send(buf, 1, MPI_INT, BAD_RANK, TAG, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Send(buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Send(buf, 1, MPI_INT, MPI_ROOT, TAG, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Isend(buf, 1, MPI_INT, size + 3, TAG, MPI_COMM_WORLD, &req), MPI_ERR_RANK);
    EXPECT(MPI_Ssend(buf, 1, MPI_INT, size, TAG, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Recv(buf, 1, MPI_INT, size, TAG, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    EXPECT(MPI_Irecv(buf, 1, MPI_INT, BAD_RANK, TAG, MPI_COMM_WORLD, &req), MPI_ERR_RANK);
    EXPECT(MPI_Iprobe(size, TAG, MPI_COMM_WORLD, &flag, &st), MPI_ERR_RANK);
    EXPECT(MPI_Sendrecv(buf, 1, MPI_INT, size, TAG, buf + 1, 1, MPI_INT, rank, TAG, MPI_COMM_WORLD,
                        &st),
           MPI_ERR_RANK);

    /* Tags. */
    EXPECT(MPI_Send(buf, 1, MPI_INT, rank, -5, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Send(buf, 1, MPI_INT, rank, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Isend(buf, 1, MPI_INT, rank, -5, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    EXPECT(MPI_Irecv(buf, 1, MPI_INT, rank, -5, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    EXPECT(MPI_Recv(buf, 1, MPI_INT, rank, -5, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
    if (tag_ub < INT_MAX) {
        EXPECT(MPI_Send(buf, 1, MPI_INT, rank, tag_ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG);
        EXPECT(MPI_Irecv(buf, 1, MPI_INT, rank, tag_ub + 1, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    }

    /* Counts. */
    EXPECT(MPI_Send(buf, -1, MPI_INT, rank, TAG, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Isend(buf, -1, MPI_INT, rank, TAG, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    EXPECT(MPI_Irecv(buf, -1, MPI_INT, rank, TAG, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);

    /* Datatypes: null, and derived but not committed. */
    EXPECT(MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, TAG, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, rank, TAG, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_indexed(2, blens, displs, MPI_INT, &uncommitted));
    EXPECT(MPI_Send(buf, 1, uncommitted, rank, TAG, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Irecv(buf, 1, uncommitted, rank, TAG, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&uncommitted));

    /* Communicators. */
    EXPECT(MPI_Send(buf, 1, MPI_INT, 0, TAG, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Irecv(buf, 1, MPI_INT, 0, TAG, MPI_COMM_NULL, &req), MPI_ERR_COMM);
    EXPECT(MPI_Iprobe(0, TAG, MPI_COMM_NULL, &flag, &st), MPI_ERR_COMM);

    /* A null buffer with a non-zero count. */
    EXPECT(MPI_Send(NULL, 4, MPI_INT, rank, TAG, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT(MPI_Irecv(NULL, 4, MPI_INT, rank, TAG, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER);

    /* None of the failed sends to this rank may have sent anything. */
    CHECK_MPI(MPI_Iprobe(rank, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag == 0);
}

/* What the standard allows: null requests, MPI_PROC_NULL, zero counts. */
static void test_allowed(void)
{
    MPI_Request reqs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st;
    int flag = -1, buf[2];

    CHECK_MPI(MPI_Wait(&reqs[0], &st));
    check_empty(&st, __LINE__);
    CHECK(reqs[0] == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Test(&reqs[0], &flag, &st));
    CHECK(flag == 1);
    check_empty(&st, __LINE__);
    CHECK_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
    CHECK(flag == 1);
    CHECK_MPI(MPI_Send(buf, 2, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(buf, 2, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
    CHECK_MPI(
        MPI_Sendrecv(buf, 0, MPI_INT, rank, TAG, buf, 0, MPI_INT, rank, TAG, MPI_COMM_WORLD, &st));
}

static void test_user_handler(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    int buf[2] = {0}, rc, cls = -1;

    CHECK_MPI(MPI_Comm_create_errhandler(record_error, &eh));
    CHECK(eh != MPI_ERRHANDLER_NULL);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got != MPI_ERRHANDLER_NULL && got != MPI_ERRORS_RETURN && got != MPI_ERRORS_ARE_FATAL);
    CHECK_MPI(MPI_Errhandler_free(&got));

    handler_calls = 0;
    handler_comm = MPI_COMM_NULL;
    rc = MPI_Send(buf, 1, MPI_INT, size, TAG, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS);
    if (handler_calls != 1) {
        fail(__LINE__, "the user error handler was called %d times, expected once", handler_calls);
    }
    CHECK_MPI(MPI_Error_class(handler_code, &cls));
    if (cls != MPI_ERR_RANK || handler_comm != MPI_COMM_WORLD) {
        fail(
            __LINE__,
            "the user error handler got class %d, expected MPI_ERR_RANK, or the wrong communicator",
            cls);
    }
    /* The handler gets the code the call returns. */
    CHECK(rc == handler_code);

    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_TAG && handler_comm == MPI_COMM_WORLD);

    /* Freed, the handler stays in use while MPI_COMM_WORLD refers to it. */
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL);
    rc = MPI_Send(buf, -1, MPI_INT, rank, TAG, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS);
    CHECK(handler_calls == 3 && rc == handler_code);
    CHECK_MPI(MPI_Error_class(handler_code, &cls));
    CHECK(cls == MPI_ERR_COUNT);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT(MPI_Send(buf, 1, MPI_INT, size, TAG, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK(handler_calls == 3);
}

/* After all that, a ring exchange still works. */
static void test_still_works(void)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size, s[3], r[3];
    MPI_Status st;

    s[0] = rank;
    s[1] = next;
    s[2] = 42;
    CHECK_MPI(
        MPI_Sendrecv(s, 3, MPI_INT, next, TAG, r, 3, MPI_INT, prev, TAG, MPI_COMM_WORLD, &st));
    CHECK(r[0] == prev && r[1] == rank && r[2] == 42);
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == TAG);
}

int main(int argc, char **argv)
{
    int *tag_ub, flag = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fail(__LINE__, "needs at least 2 ranks");
    }
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag == 1);
    /* An error with no valid communicator is raised on MPI_COMM_WORLD in MPI 3.1 and on
     * MPI_COMM_SELF in MPI 4. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    test_arguments(*tag_ub);
    test_allowed();
    test_user_handler();
    test_still_works();

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
