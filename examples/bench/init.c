/*
 * init - how long MPI_Init takes: every rank times its own call (CLOCK_MONOTONIC), and rank 0
 * prints the slowest and the mean, in milliseconds:
 *
 *   init: 16 ranks, MPI_Init max 101.4 ms, mean 87.2 ms
 *
 * The slowest rank is the job's start-up: it includes waiting for the last rank to arrive.
 * Run it many times and compare medians (examples/bench/init-compare does, with and without a
 * topology file).  Plain MPI: builds with any MPI's compiler wrapper.
 */
#include <mpi.h>

#include <stdio.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    double start = now_ms(), took, max = 0.0, sum = 0.0;
    int rank, size;

    MPI_Init(&argc, &argv);
    took = now_ms() - start;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Reduce(&took, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&took, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("init: %d ranks, MPI_Init max %.1f ms, mean %.1f ms\n", size, max, sum / size);
    }
    MPI_Finalize();
    return 0;
}
