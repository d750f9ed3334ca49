/*
 * api_dynamic.c - dynamic processes: spawning, ports, name publishing, and MPI_Comm_disconnect.
 *
 * Layer: api.  Must not: pretend to start or connect anything.
 *
 * comm does not support dynamic processes: a job's processes are the ones comm-run (or the
 * PMIx launcher) started.  These functions exist so that programs which mention them link;
 * each checks its communicator (when it has one) and raises the standard's class for the
 * operation (MPI_ERR_SPAWN, MPI_ERR_PORT, MPI_ERR_SERVICE, MPI_ERR_NAME, or
 * MPI_ERR_UNSUPPORTED_OPERATION for MPI_Comm_join) through the error handler, with a message
 * saying so.  MPI_Comm_disconnect works on the ordinary communicators programs call it on.
 */
#include "config.h"

#include "api/api.h"

/* Raises CLASS for FUNC on COMM (NULL: no communicator argument), after checking COMM. */
static int dynamic_unsupported(const char *func, MPI_Comm comm, bool has_comm, int mpi_class)
{
    struct comm_communicator *c = NULL;
    int err = has_comm ? comm_api_enter_comm(func, comm, &c) : comm_api_check_running(func);

    if (err != MPI_SUCCESS) {
        return err;
    }
    return comm_api_error(c, mpi_class,
                          "%s: comm does not support dynamic processes (spawning, ports, "
                          "name publishing); a job's processes are those it started with",
                          func);
}

/* Every process the call should have started failed to start: MPI_ERR_SPAWN in each code. */
static void dynamic_fill_errcodes(int n, int array_of_errcodes[])
{
    if (array_of_errcodes == MPI_ERRCODES_IGNORE) {
        return;
    }
    for (int i = 0; i < n; i++) {
        array_of_errcodes[i] = MPI_ERR_SPAWN;
    }
}

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    (void)command, (void)argv, (void)info, (void)root;
    if (intercomm != NULL) {
        *intercomm = MPI_COMM_NULL;
    }
    dynamic_fill_errcodes(maxprocs, array_of_errcodes);
    return dynamic_unsupported("MPI_Comm_spawn", comm, true, MPI_ERR_SPAWN);
}
COMM_API_ALIAS(MPI_Comm_spawn);

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    int total = 0;

    (void)array_of_commands, (void)array_of_argv, (void)array_of_info, (void)root;
    if (intercomm != NULL) {
        *intercomm = MPI_COMM_NULL;
    }
    for (int i = 0; array_of_maxprocs != NULL && i < count; i++) {
        total += array_of_maxprocs[i] > 0 ? array_of_maxprocs[i] : 0;
    }
    dynamic_fill_errcodes(total, array_of_errcodes);
    return dynamic_unsupported("MPI_Comm_spawn_multiple", comm, true, MPI_ERR_SPAWN);
}
COMM_API_ALIAS(MPI_Comm_spawn_multiple);

int PMPI_Open_port(MPI_Info info, char *port_name)
{
    (void)info, (void)port_name;
    return dynamic_unsupported("MPI_Open_port", MPI_COMM_NULL, false, MPI_ERR_PORT);
}
COMM_API_ALIAS(MPI_Open_port);

int PMPI_Close_port(const char *port_name)
{
    (void)port_name;
    return dynamic_unsupported("MPI_Close_port", MPI_COMM_NULL, false, MPI_ERR_PORT);
}
COMM_API_ALIAS(MPI_Close_port);

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    (void)port_name, (void)info, (void)root;
    if (newcomm != NULL) {
        *newcomm = MPI_COMM_NULL;
    }
    return dynamic_unsupported("MPI_Comm_accept", comm, true, MPI_ERR_PORT);
}
COMM_API_ALIAS(MPI_Comm_accept);

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm)
{
    (void)port_name, (void)info, (void)root;
    if (newcomm != NULL) {
        *newcomm = MPI_COMM_NULL;
    }
    return dynamic_unsupported("MPI_Comm_connect", comm, true, MPI_ERR_PORT);
}
COMM_API_ALIAS(MPI_Comm_connect);

int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    (void)fd;
    if (intercomm != NULL) {
        *intercomm = MPI_COMM_NULL;
    }
    return dynamic_unsupported("MPI_Comm_join", MPI_COMM_NULL, false,
                               MPI_ERR_UNSUPPORTED_OPERATION);
}
COMM_API_ALIAS(MPI_Comm_join);

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    (void)service_name, (void)info, (void)port_name;
    return dynamic_unsupported("MPI_Publish_name", MPI_COMM_NULL, false, MPI_ERR_SERVICE);
}
COMM_API_ALIAS(MPI_Publish_name);

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    (void)service_name, (void)info, (void)port_name;
    return dynamic_unsupported("MPI_Unpublish_name", MPI_COMM_NULL, false, MPI_ERR_SERVICE);
}
COMM_API_ALIAS(MPI_Unpublish_name);

int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    (void)service_name, (void)info, (void)port_name;
    return dynamic_unsupported("MPI_Lookup_name", MPI_COMM_NULL, false, MPI_ERR_NAME);
}
COMM_API_ALIAS(MPI_Lookup_name);

/*
 * Collective over COMM: once every member has called it (a barrier on COMM, so no member is
 * still sending on it from the program's side), the communicator is freed as MPI_Comm_free
 * frees it.  The predefined communicators cannot be disconnected.
 */
int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    struct comm_communicator *c;
    int err;

    if (comm == NULL) {
        return comm_api_error(NULL, MPI_ERR_ARG, "MPI_Comm_disconnect: comm is NULL");
    }
    err = comm_api_enter_comm("MPI_Comm_disconnect", *comm, &c);
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (c->predefined) {
        return comm_api_error(c, MPI_ERR_COMM, "MPI_Comm_disconnect: %s cannot be disconnected",
                              c->name);
    }
    err = PMPI_Barrier(*comm);
    if (err != MPI_SUCCESS) {
        return err;
    }
    return PMPI_Comm_free(comm);
}
COMM_API_ALIAS(MPI_Comm_disconnect);
