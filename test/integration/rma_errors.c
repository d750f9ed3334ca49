/*
 * rma_errors.c - integration test of argument errors in one-sided calls: with
 * MPI_ERRORS_RETURN on the window (and on MPI_COMM_WORLD for window creation), each invalid
 * argument gives an error code of the right class with a non-empty error string, and the window
 * keeps working afterwards.
 *
 *   rma_errors     (any number of ranks >= 1)
 *
 * Every erroneous call is made by every rank with the same arguments.  A target address that
 * no memory attached to a dynamic window covers is out of range too.  The classes are those
 * MPI-3.1 names: MPI_ERR_RANK, MPI_ERR_RMA_RANGE, MPI_ERR_RMA_SYNC, MPI_ERR_COUNT,
 * MPI_ERR_TYPE, MPI_ERR_OP, MPI_ERR_WIN, MPI_ERR_SIZE, MPI_ERR_DISP.  Prints "rma_errors R: ok"
 * per rank, or "FAIL: rma_errors rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "rma_errors";
static int rank, size;

#include "rma_check.h"

enum { N = 16 };

int main(int argc, char **argv)
{
    MPI_Win win, dyn, bad = MPI_WIN_NULL;
    MPI_Aint addr;
    int *base, buf[N] = {0}, got[N], mem[N];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) {
        fail(__LINE__, "takes no arguments, got '%s'", argv[1]);
    }
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT(MPI_Win_create(mem, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &bad), MPI_ERR_SIZE);
    EXPECT(MPI_Win_create(mem, sizeof(mem), 0, MPI_INFO_NULL, MPI_COMM_WORLD, &bad), MPI_ERR_DISP);
    EXPECT(MPI_Win_create(mem, sizeof(mem), -4, MPI_INFO_NULL, MPI_COMM_WORLD, &bad), MPI_ERR_DISP);
    EXPECT(MPI_Win_allocate(-8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &bad), MPI_ERR_SIZE);
    EXPECT(MPI_Win_allocate(64, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &bad), MPI_ERR_DISP);
    CHECK(bad == MPI_WIN_NULL);
    EXPECT(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    EXPECT(MPI_Put(buf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN);
    EXPECT(MPI_Win_free(&bad), MPI_ERR_WIN);

    CHECK_MPI(
        MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    /* Outside any epoch. */
    EXPECT(MPI_Put(buf, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_flush(0, win), MPI_ERR_RMA_SYNC);

    CHECK_MPI(MPI_Win_lock_all(0, win));
    EXPECT(MPI_Put(buf, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT(MPI_Get(got, 1, MPI_INT, -5, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT(MPI_Put(buf, -1, MPI_INT, 0, 0, -1, MPI_INT, win), MPI_ERR_COUNT);
    EXPECT(MPI_Get(got, -1, MPI_INT, 0, 0, -1, MPI_INT, win), MPI_ERR_COUNT);
    EXPECT(MPI_Put(buf, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    EXPECT(MPI_Accumulate(buf, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP);
    /* An op not defined on the type is refused, unless there is nothing to combine. */
    EXPECT(MPI_Accumulate(buf, 1, MPI_BYTE, 0, 0, 1, MPI_BYTE, MPI_SUM, win), MPI_ERR_OP);
    CHECK_MPI(MPI_Accumulate(buf, 0, MPI_BYTE, 0, 0, 0, MPI_BYTE, MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate(buf, 0, MPI_BYTE, got, 0, MPI_BYTE, 0, 0, 0, MPI_BYTE, MPI_SUM,
                                 win));
    /* Beyond the window's end: the MPI knows its size (MPI_Win_allocate). */
    EXPECT(MPI_Put(buf, N, MPI_INT, 0, 1, N, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Get(got, 1, MPI_INT, 0, N, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Win_unlock_all(win));

    /* A dynamic window with nothing attached: no address is part of it. */
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
    CHECK_MPI(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Get_address(mem, &addr));
    CHECK_MPI(MPI_Win_lock_all(0, dyn));
    EXPECT(MPI_Put(buf, 1, MPI_INT, (rank + 1) % size, addr, 1, MPI_INT, dyn), MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Win_unlock_all(dyn));
    CHECK_MPI(MPI_Win_free(&dyn));

    /* The window still works. */
    for (int i = 0; i < N; i++) {
        buf[i] = rank * 100 + i;
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(buf, N, MPI_INT, (rank + 1) % size, 0, N, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++) {
        CHECK(base[i] == (rank + size - 1) % size * 100 + i);
    }
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    printf("%s %d: ok\n", prog, rank);
    return 0;
}
