/*
 * coll_errors.c - integration test of argument errors in collective, communicator,
 * intercommunicator and attribute calls: with MPI_ERRORS_RETURN on the communicators used,
 * each invalid argument gives an error code of the right class with a non-empty error string,
 * nothing hangs, and the communicators keep working afterwards.
 *
 *   coll_errors      (any number of ranks >= 1; the intercommunicator part needs 2)
 *
 * Every erroneous call is made by every rank with the same arguments (an error found before
 * any message moves), so an MPI that misses an error fails the check instead of hanging.
 * These are erroneous programs, whose behaviour the standard leaves open: the test states what
 * comm promises (Open MPI passes it but for one error class; MPICH checks less).
 * Limits of comm itself (calls it does not serve on intercommunicators) are checked only when
 * built against comm's mpi.h.  Prints "coll_errors R: ok" per rank, or
 * "FAIL: coll_errors rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_errors";
static int rank, size;

#include "p2p_check.h"

static void test_collective_arguments(void)
{
    int buf[8] = {0}, out[8] = {0}, *all = malloc(sizeof(int) * (size_t)size * 8);
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    MPI_Request req;

    CHECK(all != NULL && counts != NULL && displs != NULL);
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    EXPECT(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Reduce(buf, out, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT(MPI_Reduce(buf, out, 1, MPI_INT, MPI_MAXLOC, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT(MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, size + 1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    if (rank != 0) { /* MPI_IN_PLACE is only for the root (rank 0 would wait: it skips) */
        EXPECT(MPI_Reduce(MPI_IN_PLACE, out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD),
               MPI_ERR_BUFFER); /* Open MPI says MPI_ERR_ARG */
    }
    EXPECT(MPI_Allreduce(buf, out, -3, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT(MPI_Gather(buf, 1, MPI_INT, all, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Scatter(all, 1, MPI_INT, buf, 1, MPI_INT, -2, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Allgather(buf, -1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Allgatherv(buf, 1, MPI_INT, all, NULL, displs, MPI_INT, MPI_COMM_WORLD),
           MPI_ERR_ARG);
    EXPECT(MPI_Alltoall(buf, 1, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Alltoallv(buf, counts, displs, MPI_INT, all, NULL, displs, MPI_INT, MPI_COMM_WORLD),
           MPI_ERR_ARG);
    counts[size - 1] = -1;
    EXPECT(MPI_Reduce_scatter(all, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);
    counts[size - 1] = 1;
    EXPECT(MPI_Scan(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);

    /* Nonblocking: the same checks, and a request pointer that must exist. */
    EXPECT(MPI_Ibarrier(MPI_COMM_NULL, &req), MPI_ERR_COMM);
    EXPECT(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Ibcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD, &req), MPI_ERR_ROOT);
    EXPECT(MPI_Ireduce(buf, out, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD, &req), MPI_ERR_OP);
    EXPECT(MPI_Iallreduce(buf, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    EXPECT(MPI_Igather(buf, 1, MPI_INT, all, 1, MPI_INT, -1, MPI_COMM_WORLD, &req), MPI_ERR_ROOT);
    EXPECT(MPI_Iscatter(all, 1, MPI_INT, buf, 1, MPI_INT, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Iallgather(buf, 1, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD, &req),
           MPI_ERR_TYPE);
    EXPECT(MPI_Ialltoall(buf, -1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    /* A nonblocking collective cannot be cancelled; it still completes. */
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req));
    EXPECT(MPI_Cancel(&req), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL);
    free(all);
    free(counts);
    free(displs);
}

static void test_communicator_arguments(void)
{
    MPI_Comm c;
    MPI_Group world_group, others;
    MPI_Request req;
    int excl = rank, n;

    EXPECT(MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Comm_idup(MPI_COMM_WORLD, &c, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Comm_split(MPI_COMM_WORLD, -7, 0, &c), MPI_ERR_ARG);
    EXPECT(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
    EXPECT(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &c), MPI_ERR_GROUP);
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    EXPECT(MPI_Comm_create_group(MPI_COMM_WORLD, world_group, -1, &c), MPI_ERR_TAG);
    /* A group the caller is not in cannot be made by MPI_Comm_create_group. */
    CHECK_MPI(MPI_Group_excl(world_group, 1, &excl, &others));
    EXPECT(MPI_Comm_create_group(MPI_COMM_WORLD, others, 3, &c), MPI_ERR_GROUP);
    CHECK_MPI(MPI_Group_free(&others));
    CHECK_MPI(MPI_Group_free(&world_group));
    EXPECT(MPI_Comm_free(&(MPI_Comm){MPI_COMM_WORLD}), MPI_ERR_COMM);
    EXPECT(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM);
    EXPECT(MPI_Comm_remote_group(MPI_COMM_SELF, &others), MPI_ERR_COMM);
    EXPECT(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c), MPI_ERR_COMM);
    EXPECT(MPI_Intercomm_create(MPI_COMM_WORLD, size, MPI_COMM_WORLD, 0, 1, &c), MPI_ERR_RANK);
    /* Still usable. */
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_size(c, &n));
    CHECK(n == size);
    CHECK_MPI(MPI_Comm_free(&c));
}

static int delete_calls;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    delete_calls++;
    return MPI_SUCCESS;
}

static void test_attribute_arguments(void)
{
    int key = MPI_KEYVAL_INVALID, flag = -1, value = 5, tag_ub = MPI_TAG_UB;
    void *got;

    EXPECT(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Comm_set_attr(MPI_COMM_WORLD, 123456, &value), MPI_ERR_KEYVAL);
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, 123456, &got, &flag), MPI_ERR_KEYVAL);
    EXPECT(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value), MPI_ERR_KEYVAL);
    EXPECT(MPI_Comm_free_keyval(&tag_ub), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &key, NULL));
    EXPECT(MPI_Comm_delete_attr(MPI_COMM_WORLD, key), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &value));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &value)); /* replaces: one delete */
    CHECK(delete_calls == 1);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag));
    CHECK(flag && got == &value);
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, key));
    CHECK(delete_calls == 2);
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID);
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag), MPI_ERR_KEYVAL);
}

static void test_intercomm_arguments(void)
{
    MPI_Comm half, inter;
    int buf[4] = {1, 2, 3, 4}, out[4], all[64], low = rank < size / 2, rsize;

    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half));
    CHECK_MPI(MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 9, &inter));
    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    CHECK(rsize == (low ? size - size / 2 : size / 2));
    EXPECT(MPI_Send(buf, 1, MPI_INT, rsize, 0, inter), MPI_ERR_RANK);
    EXPECT(MPI_Bcast(buf, 1, MPI_INT, rsize, inter), MPI_ERR_ROOT);
    EXPECT(MPI_Allreduce(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_BUFFER);
    /* Rooted calls take MPI_ROOT, MPI_PROC_NULL or a remote rank; scans are not defined on
     * intercommunicators, and no intercommunicator collective takes MPI_IN_PLACE. */
    EXPECT(MPI_Gather(buf, 1, MPI_INT, all, 1, MPI_INT, rsize, inter), MPI_ERR_ROOT);
    EXPECT(MPI_Ireduce(buf, out, 1, MPI_INT, MPI_SUM, -7, inter, &(MPI_Request){0}), MPI_ERR_ROOT);
    EXPECT(MPI_Scan(buf, out, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
    EXPECT(MPI_Iexscan(buf, out, 1, MPI_INT, MPI_SUM, inter, &(MPI_Request){0}), MPI_ERR_COMM);
    EXPECT(MPI_Iallgather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, inter, &(MPI_Request){0}),
           MPI_ERR_BUFFER);
#ifdef COMM_MPI_API
    EXPECT(MPI_Comm_split(inter, 0, 0, &(MPI_Comm){0}), MPI_ERR_COMM);
#endif
    /* Still usable. */
    CHECK_MPI(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, inter));
    CHECK(out[0] == rsize);
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
}

int main(int argc, char **argv)
{
    int one = 1, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    test_collective_arguments();
    test_communicator_arguments();
    test_attribute_arguments();
    if (size > 1) {
        test_intercomm_arguments();
    }
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size);

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
