/*
 * pmpi_app.c - MPI's profiling interface: this program is linked with a tool (pmpi_tool.c)
 * before libcomm, so its MPI_ calls must reach the tool's MPI_ functions, which reach comm's
 * through the PMPI_ names; the messages must still arrive and the counts be exact.  Also for a
 * libcomm whose MPI_ names are strong symbols (link-time optimization): the dynamic linker takes
 * the first definition in load order either way.  Prints "pmpi: ok" on rank 0.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

__attribute__((visibility("default"))) int pmpi_counts(const char *name);

static void expect_count(int rank, const char *name, int want)
{
    int got = pmpi_counts(name);

    if (got != want) {
        fprintf(stderr, "pmpi: rank %d: the tool saw %d calls of %s, expected %d\n", rank, got,
                name, want);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    enum { ROUNDS = 5 };
    int rank, size, sum = 0, sends = 0, recvs = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < ROUNDS; i++) {
        int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
        MPI_Request req;

        /* A ring: a nonblocking send to the right, a blocking receive from the left. */
        MPI_Isend(&rank, 1, MPI_INT, right, i, MPI_COMM_WORLD, &req);
        MPI_Recv(&got, 1, MPI_INT, left, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (got != left) {
            fprintf(stderr, "pmpi: rank %d: round %d received %d, expected %d\n", rank, i, got,
                    left);
            return 1;
        }
        recvs++;
        if (rank == 0) {
            MPI_Send(&i, 1, MPI_INT, size - 1, 100 + i, MPI_COMM_WORLD);
            sends++;
        } else if (rank == size - 1) {
            MPI_Recv(&got, 1, MPI_INT, 0, 100 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            recvs++;
        }
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2) {
        fprintf(stderr, "pmpi: rank %d: allreduce gave %d, expected %d\n", rank, sum,
                size * (size - 1) / 2);
        return 1;
    }
    expect_count(rank, "MPI_Init", 1);
    expect_count(rank, "MPI_Isend", ROUNDS);
    expect_count(rank, "MPI_Wait", ROUNDS);
    expect_count(rank, "MPI_Send", sends);
    expect_count(rank, "MPI_Recv", recvs);
    expect_count(rank, "MPI_Allreduce", 1);
    MPI_Finalize();
    expect_count(rank, "MPI_Finalize", 1);
    if (rank == 0) {
        printf("pmpi: ok\n");
    }
    return 0;
}
