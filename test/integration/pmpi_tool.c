/*
 * pmpi_tool.c - a profiling tool as MPI's profiling interface allows one: a shared library,
 * linked before libcomm, that defines MPI_ functions of its own, counts the calls and forwards
 * them to the PMPI_ names.  pmpi_counts() tells the program what it saw (pmpi_app.c).
 */
#include <mpi.h>

#include <string.h>

__attribute__((visibility("default"))) int pmpi_counts(const char *name);

static int count_init, count_send, count_recv, count_isend, count_wait, count_allreduce,
    count_finalize;

int MPI_Init(int *argc, char ***argv)
{
    count_init++;
    return PMPI_Init(argc, argv);
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    count_send++;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    count_recv++;
    return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    count_isend++;
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    count_wait++;
    return PMPI_Wait(request, status);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    count_allreduce++;
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Finalize(void)
{
    count_finalize++;
    return PMPI_Finalize();
}

int pmpi_counts(const char *name)
{
    static const struct {
        const char *name;
        const int *count;
    } table[] = {{"MPI_Init", &count_init},        {"MPI_Send", &count_send},
                 {"MPI_Recv", &count_recv},        {"MPI_Isend", &count_isend},
                 {"MPI_Wait", &count_wait},        {"MPI_Allreduce", &count_allreduce},
                 {"MPI_Finalize", &count_finalize}};

    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (strcmp(table[i].name, name) == 0) {
            return *table[i].count;
        }
    }
    return -1;
}
