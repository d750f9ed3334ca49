/*
 * p2p_progress.c - integration test of progress without MPI calls: whether a large message
 * moves while its sender stays away from MPI.  Rank 1 starts sending BYTES to rank 0
 * (MPI_Isend), then waits outside MPI, up to SECONDS, for rank 0 to say through FLAG (a file
 * it creates once the message is in, every byte checked) that it arrived, and only then
 * completes its send.  Rank 1 prints "p2p_progress 1: arrived while away" or "p2p_progress 1:
 * not arrived while away"; a message over the network is read by its receiver, and moves
 * while its sender is away only when something drives the sender's provider (a progress
 * thread).
 *
 *   p2p_progress BYTES SECONDS FLAG     (2 ranks)
 *
 * Plain portable MPI.  Prints "p2p_progress R: ok" per rank, or "FAIL: p2p_progress rank R:
 * ..." and aborts.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank;

static void fail(const char *what)
{
    printf("FAIL: p2p_progress rank %d: %s\n", rank, what);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    long bytes = 0;
    double seconds = 0;
    unsigned char *buf;
    int size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 4 || (bytes = atol(argv[1])) <= 0 || (seconds = atof(argv[2])) <= 0 || size != 2) {
        fail("usage: p2p_progress BYTES SECONDS FLAG, on 2 ranks");
    }
    buf = malloc((size_t)bytes);
    if (buf == NULL) {
        fail("out of memory");
    }
    if (rank == 0) {
        unlink(argv[3]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Request req;
        double until;
        int arrived = 0;

        for (long i = 0; i < bytes; i++) {
            buf[i] = (unsigned char)(i * 7 + 3);
        }
        MPI_Isend(buf, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req);
        /* Away from MPI: no call until the message is in or the time is up. */
        until = now() + seconds;
        while (!arrived && now() < until) {
            arrived = access(argv[3], F_OK) == 0;
            if (!arrived) {
                usleep(10000);
            }
        }
        printf("p2p_progress 1: %s while away\n", arrived ? "arrived" : "not arrived");
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        FILE *flag;

        MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (long i = 0; i < bytes; i++) {
            if (buf[i] != (unsigned char)(i * 7 + 3)) {
                fail("a byte of the message is wrong");
            }
        }
        flag = fopen(argv[3], "w");
        if (flag == NULL || fclose(flag) != 0) {
            fail("cannot create the flag file");
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        unlink(argv[3]);
    }
    free(buf);
    printf("p2p_progress %d: ok\n", rank);
    MPI_Finalize();
    return 0;
}
