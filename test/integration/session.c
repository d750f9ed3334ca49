/*
 * session - MPI 4.0 sessions, beside and without the world model.
 *
 * In this order, on every rank:
 *   1. before MPI_Init: a session (MPI_Initialized stays 0); its process sets, listed and
 *      checked (mpi://WORLD, mpi://SELF, one comm://host/NAME per host holding the ranks of that
 *      host, or of a part of it with COMM_TOPO_SPLIT_HOSTS, and the topology's switches, each
 * pset's mpi_size matching its group); a communicator from every pset this rank is in
 * (MPI_Comm_create_from_group), whose members and an allreduce over it are checked; the session's
 * info and error handlers; the error classes of bad arguments (unknown pset, bad index, a group
 * without this rank, ...);
 *   2. MPI_Init beside the open session: MPI_COMM_WORLD and the WORLD pset's communicator are
 *      congruent; a second session; MPI_SESSION_NULL is MPI_ERR_SESSION;
 *   3. MPI_Finalize with the sessions still open: they still work; then they end, and with
 *      them the runtime;
 *   4. twice more: a session starts (the runtime with it), makes a communicator, ends.
 * Rank 0 prints each pset as "pset NAME size N"; every rank ends with "session R: ok".
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "session: rank %d: check failed at line %d: %s\n", my_rank, __LINE__,  \
                    #cond);                                                                        \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static int my_rank = -1;

/* The error class of a call's result. */
static int error_class(int err)
{
    int cls = err;

    if (err != MPI_SUCCESS) {
        MPI_Error_class(err, &cls);
    }
    return cls;
}

/* What the user error handler saw. */
static int handler_calls, handler_code;
static MPI_Session handler_session;

static void count_errors(MPI_Session *session, int *code, ...)
{
    handler_calls++;
    handler_session = *session;
    handler_code = *code;
}

/* A communicator's handler, which must never run. */
static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    handler_calls += 100;
}

/* A communicator of GROUP (which this rank is in) from the pset NAME: checks its size, this
 * rank's place, and an allreduce of the members' world ranks.  Returns it. */
static MPI_Comm check_comm(MPI_Group group, MPI_Group world, const char *name)
{
    int size, rank, gsize, grank, sum = 0, want = 0, *in, *out;
    MPI_Comm comm;

    MPI_Group_size(group, &gsize);
    MPI_Group_rank(group, &grank);
    CHECK(grank != MPI_UNDEFINED);
    CHECK(MPI_Comm_create_from_group(group, name, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm) ==
          MPI_SUCCESS);
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    CHECK(size == gsize && rank == grank);
    in = malloc((size_t)gsize * sizeof(*in));
    out = malloc((size_t)gsize * sizeof(*out));
    CHECK(in != NULL && out != NULL);
    for (int i = 0; i < gsize; i++) {
        in[i] = i;
    }
    MPI_Group_translate_ranks(group, gsize, in, world, out);
    for (int i = 0; i < gsize; i++) {
        want += out[i];
    }
    CHECK(MPI_Allreduce(&my_rank, &sum, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS);
    CHECK(sum == want);
    CHECK(MPI_Barrier(comm) == MPI_SUCCESS);
    free(in);
    free(out);
    return comm;
}

/* The size an info's mpi_size gives. */
static int info_size(MPI_Info info)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;

    MPI_Info_get(info, "mpi_size", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag);
    return atoi(value);
}

/* Part 1: the psets of S, a communicator from each one this rank is in. */
static void check_psets(MPI_Session s, int *world_size_out)
{
    char name[MPI_MAX_PSET_NAME_LEN], host[MPI_MAX_PROCESSOR_NAME], want_host[600];
    int n = 0, len, hosts_total = 0, my_hosts = 0, world_size = -1, hlen;
    MPI_Group world;

    CHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n) == MPI_SUCCESS);
    CHECK(n >= 3);
    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &world) == MPI_SUCCESS);
    MPI_Group_size(world, &world_size);
    MPI_Group_rank(world, &my_rank);
    CHECK(world_size >= 1 && my_rank >= 0);
    MPI_Get_processor_name(host, &hlen);
    snprintf(want_host, sizeof(want_host), "comm://host/%s", host);
    for (int i = 0; i < n; i++) {
        MPI_Group group;
        MPI_Info info;
        int size, rank;

        len = 0;
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL) == MPI_SUCCESS);
        CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN);
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name) == MPI_SUCCESS);
        CHECK((int)strlen(name) + 1 == len);
        CHECK(i != 0 || strcmp(name, "mpi://WORLD") == 0);
        CHECK(i != 1 || strcmp(name, "mpi://SELF") == 0);
        CHECK(i < 2 || strncmp(name, "comm://", 7) == 0);
        CHECK(MPI_Session_get_pset_info(s, name, &info) == MPI_SUCCESS);
        size = info_size(info);
        MPI_Info_free(&info);
        CHECK(MPI_Group_from_session_pset(s, name, &group) == MPI_SUCCESS);
        MPI_Group_size(group, &len);
        MPI_Group_rank(group, &rank);
        CHECK(len == size);
        if (my_rank == 0) {
            printf("pset %s size %d\n", name, size);
        }
        if (strncmp(name, "comm://host/", 12) == 0) {
            hosts_total += size;
            my_hosts += rank != MPI_UNDEFINED;
            /* A host's pset (or a part's, COMM_TOPO_SPLIT_HOSTS) holds the ranks of that host. */
            CHECK(rank == MPI_UNDEFINED || strcmp(name, want_host) == 0 ||
                  (strncmp(name, want_host, strlen(want_host)) == 0 &&
                   name[strlen(want_host)] == ':'));
        }
        CHECK(i != 0 || size == world_size);
        CHECK(i != 1 || (size == 1 && rank == 0));
        if (rank != MPI_UNDEFINED) {
            MPI_Comm comm = check_comm(group, world, name);

            MPI_Comm_free(&comm);
        }
        MPI_Group_free(&group);
    }
    CHECK(hosts_total == world_size && my_hosts == 1);
    /* A short buffer gets the name cut, and the length it needs. */
    len = 5;
    CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, name) == MPI_SUCCESS);
    CHECK(strcmp(name, "mpi:") == 0 && len == (int)strlen("mpi://WORLD") + 1);
    MPI_Group_free(&world);
    *world_size_out = world_size;
}

/* Part 1: bad arguments on session S (MPI_ERRORS_RETURN), and its error handlers. */
static void check_errors(MPI_Session s, int world_size)
{
    MPI_Errhandler eh, got, comm_eh;
    MPI_Group world, others;
    MPI_Comm comm;
    MPI_Info info;
    char value[MPI_MAX_INFO_VAL + 1];
    int n, len = 10, flag = 0;
    MPI_Session bad;

    CHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n) == MPI_SUCCESS);
    CHECK(error_class(MPI_Session_get_pset_info(s, "mpi://NOWHERE", &info)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Group_from_session_pset(s, "comm://host/no-such-host", &world)) ==
          MPI_ERR_ARG);
    CHECK(error_class(MPI_Group_from_session_pset(s, NULL, &world)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, value)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &len, value)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Session_get_num_psets(s, MPI_INFO_NULL, NULL)) == MPI_ERR_ARG);

    /* A communicator from a group without this rank, or with no string tag. */
    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &world) == MPI_SUCCESS);
    MPI_Group_excl(world, 1, &my_rank, &others);
    CHECK(error_class(MPI_Comm_create_from_group(others, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                                 &comm)) == MPI_ERR_GROUP);
    CHECK(error_class(MPI_Comm_create_from_group(world, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                                 &comm)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Comm_create_from_group(MPI_GROUP_NULL, "t", MPI_INFO_NULL,
                                                 MPI_ERRORS_RETURN, &comm)) == MPI_ERR_GROUP);
    MPI_Group_free(&others);
    MPI_Group_free(&world);
    (void)world_size;

    /* The session's info says the thread level it got. */
    CHECK(MPI_Session_get_info(s, &info) == MPI_SUCCESS);
    MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "MPI_THREAD_SINGLE") == 0);
    MPI_Info_free(&info);

    /* A thread level no one knows. */
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_SOMETIMES");
    CHECK(error_class(MPI_Session_init(info, MPI_ERRORS_RETURN, &bad)) == MPI_ERR_ARG);
    MPI_Info_free(&info);

    /* A user handler: called with the session and the code. */
    CHECK(MPI_Session_create_errhandler(count_errors, &eh) == MPI_SUCCESS);
    CHECK(MPI_Session_set_errhandler(s, eh) == MPI_SUCCESS);
    CHECK(MPI_Session_get_errhandler(s, &got) == MPI_SUCCESS);
    CHECK(got == eh);
    MPI_Errhandler_free(&got);
    CHECK(MPI_Session_call_errhandler(s, MPI_ERR_OTHER) == MPI_SUCCESS);
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_session == s);
    CHECK(error_class(MPI_Session_get_pset_info(s, "bogus", &info)) == MPI_ERR_ARG);
    CHECK(handler_calls == 2 && handler_code != MPI_SUCCESS);
    CHECK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    MPI_Errhandler_free(&eh);
    /* A communicator's handler is not a session's, nor the reverse. */
    MPI_Comm_create_errhandler(comm_handler, &comm_eh);
    CHECK(error_class(MPI_Session_set_errhandler(s, comm_eh)) == MPI_ERR_ARG);
    MPI_Errhandler_free(&comm_eh);
    CHECK(error_class(MPI_Session_set_errhandler(s, MPI_ERRHANDLER_NULL)) == MPI_ERR_ARG);
    CHECK(handler_calls == 2);
}

/* A session's communicator of every rank, checked against WORLD_SIZE. */
static void world_round(MPI_Session s, int world_size, const char *tag)
{
    MPI_Group world;
    MPI_Comm comm;
    int size;

    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &world) == MPI_SUCCESS);
    comm = check_comm(world, world, tag);
    MPI_Comm_size(comm, &size);
    CHECK(size == world_size);
    MPI_Comm_free(&comm);
    MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
    MPI_Session s1, s2, s;
    MPI_Fint fs2;
    MPI_Group world;
    MPI_Comm comm;
    int flag = 1, world_size, result, n;

    (void)argc;
    (void)argv;
    MPI_Initialized(&flag);
    CHECK(!flag);
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s1) == MPI_SUCCESS);
    MPI_Initialized(&flag);
    CHECK(!flag);
    check_psets(s1, &world_size);
    check_errors(s1, world_size);

    /* 2: the world model beside the session. */
    CHECK(MPI_Init(&argc, &argv) == MPI_SUCCESS);
    MPI_Initialized(&flag);
    CHECK(flag);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2) == MPI_SUCCESS);
    CHECK(s2 != s1);
    /* Fortran handles: a user session's index names it until it is finalized. */
    CHECK(MPI_Session_c2f(MPI_SESSION_NULL) == 0 && MPI_Session_f2c(0) == MPI_SESSION_NULL);
    CHECK(MPI_Session_f2c(MPI_Session_c2f(s2)) == s2 && MPI_Session_c2f(s1) != MPI_Session_c2f(s2));
    CHECK(MPI_Session_f2c(-5) == MPI_SESSION_NULL && MPI_Session_f2c(100000) == MPI_SESSION_NULL);
    CHECK(MPI_Group_from_session_pset(s2, "mpi://WORLD", &world) == MPI_SUCCESS);
    comm = check_comm(world, world, "with the world model");
    MPI_Comm_compare(comm, MPI_COMM_WORLD, &result);
    CHECK(result == MPI_CONGRUENT);
    MPI_Comm_free(&comm);
    MPI_Group_free(&world);
    CHECK(error_class(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n)) ==
          MPI_ERR_SESSION);
    CHECK(error_class(MPI_Session_finalize(NULL)) == MPI_ERR_ARG);
    s = MPI_SESSION_NULL;
    CHECK(error_class(MPI_Session_finalize(&s)) == MPI_ERR_SESSION);
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);

    /* 3: the sessions outlive the world model. */
    CHECK(MPI_Finalize() == MPI_SUCCESS);
    MPI_Finalized(&flag);
    CHECK(flag);
    world_round(s1, world_size, "after MPI_Finalize");
    fs2 = MPI_Session_c2f(s2);
    CHECK(MPI_Session_finalize(&s2) == MPI_SUCCESS);
    CHECK(s2 == MPI_SESSION_NULL && MPI_Session_f2c(fs2) == MPI_SESSION_NULL);
    CHECK(MPI_Session_finalize(&s1) == MPI_SUCCESS);

    /* 4: the runtime has ended: a new session is refused, with a clear error. */
    CHECK(error_class(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s)) ==
          MPI_ERR_UNSUPPORTED_OPERATION);
    printf("session %d: ok\n", my_rank);
    return 0;
}
