/*
 * behave.c - an MPI program that behaves as told, for the launcher's integration tests.
 *
 *   behave ACTION [ARGS...]
 *
 *   hello                    print rank, size and host
 *   exit RANK CODE           RANK exits with CODE after MPI_Init; the others wait
 *   signal RANK SIG          RANK raises SIG after MPI_Init; the others wait
 *   nofinalize RANK          RANK exits 0 without MPI_Finalize; the others wait
 *   abort RANK CODE          RANK calls MPI_Abort(MPI_COMM_WORLD, CODE); the others wait
 *   sleep SEC                every rank prints "ready R" and sleeps SEC seconds
 *   late RANK SEC            rank 0 receives a message from RANK (tag 7), which sleeps SEC
 *                            seconds outside MPI before it sends; then all meet in a barrier
 *   busy SEC                 every rank sleeps SEC seconds outside MPI, then all meet in a
 *                            barrier and print "busy R done"
 *   loop SEC [KIB]           rounds of an allreduce, an alltoall and a ring of KIB KiB messages
 *                            (default 64) for SEC seconds of rank 0's clock, every element
 *                            checked; prints "loop R: N rounds ok"
 *   ignoreterm RANK          every rank ignores SIGTERM; RANK exits 3; the others wait
 *   orphan RANK              every rank forks a child that sleeps; RANK exits 4
 *   env                      check COMM_WORLD_* against MPI and print them
 *   stdin                    rank 0 counts the lines and bytes of its stdin
 *   lines N                  each rank writes N lines, each in several write() calls
 *   errors                   MPI error classes and strings with MPI_ERRORS_RETURN
 *   fatal                    an invalid communicator under MPI_ERRORS_ARE_FATAL
 *   thread                   MPI_Init_thread levels, Query_thread, Is_thread_main
 *   inquiry                  versions, Wtime/Wtick, Initialized/Finalized
 *   calls-after-finalize     MPI_Comm_rank after MPI_Finalize
 *   shm-leak                 every rank creates /dev/shm/<job>.test.<rank>; rank 0 is killed
 *   comm-extras              MPI_Comm_split_type, MPI_Comm_dup_with_info and _get_info,
 *                            MPI_Alloc_mem and MPI_Free_mem
 *   nodump                   ranks forbid being read (PR_SET_DUMPABLE 0) before MPI_Init, then
 *                            ranks 0 and 1 swap 1 MiB messages and check them
 *   libs                     after an allreduce, each rank prints whether libfabric is among
 *                            the files mapped into it ("libs R: libfabric yes|no")
 *
 * "The others wait" means they sleep for a minute: the test passes only if comm-run stops
 * them long before that.  Prints "FAIL: ..." and exits 1 when a check fails.
 */
#include <mpi.h>

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            printf("FAIL: rank %d: %s:%d: %s\n", rank, __FILE__, __LINE__, #cond);           \
            fflush(stdout);                                                                   \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

static void wait_to_be_stopped(void)
{
    for (int i = 0; i < 60; i++) {
        sleep(1);
    }
    printf("FAIL: rank %d was not stopped\n", rank);
    exit(1);
}

static int arg_int(int argc, char **argv, int i)
{
    if (i >= argc) {
        fprintf(stderr, "behave: missing argument %d\n", i);
        exit(2);
    }
    return atoi(argv[i]);
}

static void start(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
}

static void check_env(void)
{
    const char *r = getenv("COMM_WORLD_RANK"), *s = getenv("COMM_WORLD_SIZE");
    const char *lr = getenv("COMM_WORLD_LOCAL_RANK"), *ls = getenv("COMM_WORLD_LOCAL_SIZE");

    CHECK(r != NULL && s != NULL && lr != NULL && ls != NULL);
    CHECK(atoi(r) == rank && atoi(s) == size);
    CHECK(atoi(lr) == rank && atoi(ls) == size);
    printf("env %d: COMM_WORLD_RANK=%s COMM_WORLD_SIZE=%s COMM_WORLD_LOCAL_RANK=%s "
           "COMM_WORLD_LOCAL_SIZE=%s\n", rank, r, s, lr, ls);
}

static void check_stdin(void)
{
    char buf[4096];
    long lines = 0, bytes = 0;
    ssize_t n;

    if (rank != 0) {
        CHECK(read(STDIN_FILENO, buf, sizeof(buf)) == 0); /* /dev/null */
        return;
    }
    while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0) {
        bytes += n;
        for (ssize_t i = 0; i < n; i++) {
            lines += buf[i] == '\n';
        }
    }
    printf("stdin: %ld lines, %ld bytes\n", lines, bytes);
}

static void write_lines(int n)
{
    char line[256];

    for (int i = 0; i < n; i++) {
        int len = snprintf(line, sizeof(line), "rank %d line %d %0*d\n", rank, i, 40 + rank,
                           0);
        /* Three writes per line, with yields between them, invite interleaving. */
        CHECK(write(STDOUT_FILENO, line, 5) == 5);
        usleep(50);
        CHECK(write(STDOUT_FILENO, line + 5, 10) == 10);
        usleep(50);
        CHECK(write(STDOUT_FILENO, line + 15, (size_t)len - 15) == len - 15);
    }
}

static void check_errors(void)
{
    char text[MPI_MAX_ERROR_STRING];
    int len, cls, r, eh_ok;
    MPI_Errhandler eh;

    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS);
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS);
    CHECK(eh == MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_rank(MPI_COMM_NULL, &r) == MPI_ERR_COMM);
    CHECK(MPI_Comm_size((MPI_Comm)0x7777, &r) == MPI_ERR_COMM);
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, NULL) == MPI_ERR_ARG);
    eh_ok = MPI_Comm_set_errhandler(MPI_COMM_WORLD, (MPI_Errhandler)0x999);
    CHECK(eh_ok == MPI_ERR_ARG);
    for (int c = MPI_SUCCESS; c <= MPI_ERR_RMA_FLAVOR; c++) {
        CHECK(MPI_Error_class(c, &cls) == MPI_SUCCESS && cls == c);
        CHECK(MPI_Error_string(c, text, &len) == MPI_SUCCESS);
        CHECK(len > 0 && (size_t)len == strlen(text));
    }
    CHECK(MPI_Error_string(MPI_ERR_RANK, text, &len) == MPI_SUCCESS);
    CHECK(strcmp(text, "invalid rank") == 0);
    CHECK(MPI_Error_class(-5, &cls) == MPI_ERR_ARG);
    CHECK(MPI_Error_class(MPI_ERR_LASTCODE + 1, &cls) == MPI_ERR_ARG);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL) == MPI_SUCCESS);
    printf("errors %d: ok\n", rank);
}

static void check_thread(int argc, char **argv)
{
    int provided = -1, flag = -1, q = -1;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
    CHECK(MPI_Query_thread(&q) == MPI_SUCCESS && q == provided);
    CHECK(MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 1);
    printf("thread %d: provided %d\n", rank, provided);
}

/* One round of "loop": an allreduce (whose last element carries rank 0's word to go on), an
 * alltoall and a ring of RING ints, each element checked.  Returns whether to go on. */
static bool loop_round(int round, bool go_on, int *r_out, int *r_in, int ring)
{
    enum { N = 4096, A = 256 };
    static int in[N + 1], out[N + 1], a_in[A * 64], a_out[A * 64];
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    CHECK(size <= 64);
    for (int i = 0; i < N; i++) {
        in[i] = rank * 7 + i + round;
    }
    in[N] = rank == 0 && go_on;
    MPI_Allreduce(in, out, N + 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) {
        CHECK(out[i] == 7 * size * (size - 1) / 2 + size * (i + round));
    }
    for (int p = 0; p < size; p++) {
        for (int i = 0; i < A; i++) {
            a_out[p * A + i] = rank * 1000003 + p * 1009 + i + round;
        }
    }
    MPI_Alltoall(a_out, A, MPI_INT, a_in, A, MPI_INT, MPI_COMM_WORLD);
    for (int p = 0; p < size; p++) {
        for (int i = 0; i < A; i++) {
            CHECK(a_in[p * A + i] == p * 1000003 + rank * 1009 + i + round);
        }
    }
    for (int i = 0; i < ring; i++) {
        r_out[i] = rank * 31 + i * 3 + round;
    }
    MPI_Sendrecv(r_out, ring, MPI_INT, next, 9, r_in, ring, MPI_INT, prev, 9, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < ring; i++) {
        CHECK(r_in[i] == prev * 31 + i * 3 + round);
    }
    return out[N] != 0;
}

static void check_inquiry(int argc, char **argv)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], host[MPI_MAX_PROCESSOR_NAME];
    int v, sv, len, flag;
    double t0, t1;

    CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Get_version(&v, &sv) == MPI_SUCCESS && v == MPI_VERSION && sv == MPI_SUBVERSION);
    CHECK(MPI_Get_library_version(lib, &len) == MPI_SUCCESS && len == (int)strlen(lib));
    CHECK(strncmp(lib, "comm ", 5) == 0);
    start(argc, argv);
    CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 1);
    CHECK(MPI_Get_processor_name(host, &len) == MPI_SUCCESS && len == (int)strlen(host));
    CHECK(len > 0);
    t0 = MPI_Wtime();
    usleep(20000);
    t1 = MPI_Wtime();
    CHECK(t1 - t0 >= 0.019 && t1 - t0 < 10.0);
    CHECK(MPI_Wtick() > 0.0 && MPI_Wtick() <= 0.001);
    MPI_Finalize();
    CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 1);
    CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 1);
    printf("inquiry %d: %s\n", rank, lib);
}

int main(int argc, char **argv)
{
    const char *action = argc > 1 ? argv[1] : "hello";

    if (strcmp(action, "thread") == 0) {
        check_thread(argc, argv);
        MPI_Finalize();
        return 0;
    }
    if (strcmp(action, "inquiry") == 0) {
        check_inquiry(argc, argv);
        return 0;
    }
    if (strcmp(action, "nodump") == 0) {
        prctl(PR_SET_DUMPABLE, 0);
    }
    start(argc, argv);
    if (strcmp(action, "hello") == 0) {
        char host[MPI_MAX_PROCESSOR_NAME];
        int len;
        MPI_Get_processor_name(host, &len);
        printf("Hello from rank %d of %d on %s\n", rank, size, host);
    } else if (strcmp(action, "exit") == 0) {
        if (rank == arg_int(argc, argv, 2)) {
            exit(arg_int(argc, argv, 3));
        }
        wait_to_be_stopped();
    } else if (strcmp(action, "signal") == 0) {
        if (rank == arg_int(argc, argv, 2)) {
            raise(arg_int(argc, argv, 3));
        }
        wait_to_be_stopped();
    } else if (strcmp(action, "nofinalize") == 0) {
        if (rank == arg_int(argc, argv, 2)) {
            exit(0);
        }
        wait_to_be_stopped();
    } else if (strcmp(action, "abort") == 0) {
        if (rank == arg_int(argc, argv, 2)) {
            MPI_Abort(MPI_COMM_WORLD, arg_int(argc, argv, 3));
        }
        wait_to_be_stopped();
    } else if (strcmp(action, "sleep") == 0) {
        printf("ready %d\n", rank);
        fflush(stdout);
        sleep((unsigned)arg_int(argc, argv, 2));
    } else if (strcmp(action, "late") == 0) {
        int from = arg_int(argc, argv, 2), value = 0;

        if (rank == from) {
            sleep((unsigned)arg_int(argc, argv, 3));
            value = 42;
            MPI_Send(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        } else if (rank == 0) {
            MPI_Recv(&value, 1, MPI_INT, from, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("late: rank 0 got %d\n", value);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(action, "busy") == 0) {
        sleep((unsigned)arg_int(argc, argv, 2));
        MPI_Barrier(MPI_COMM_WORLD);
        printf("busy %d done\n", rank);
    } else if (strcmp(action, "loop") == 0) {
        double until = MPI_Wtime() + arg_int(argc, argv, 2);
        int ring = (argc > 3 ? arg_int(argc, argv, 3) : 64) * 256, rounds = 0;
        int *r_out = malloc((size_t)ring * sizeof(int)), *r_in = malloc((size_t)ring * sizeof(int));

        CHECK(ring > 0 && r_out != NULL && r_in != NULL);
        while (loop_round(rounds, MPI_Wtime() < until, r_out, r_in, ring)) {
            rounds++;
        }
        free(r_out);
        free(r_in);
        printf("loop %d: %d rounds ok\n", rank, rounds + 1);
    } else if (strcmp(action, "ignoreterm") == 0) {
        signal(SIGTERM, SIG_IGN);
        MPI_Barrier(MPI_COMM_WORLD); /* every rank ignores SIGTERM before one exits */
        if (rank == arg_int(argc, argv, 2)) {
            exit(3);
        }
        wait_to_be_stopped();
    } else if (strcmp(action, "orphan") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            signal(SIGTERM, SIG_IGN);
            for (int i = 0; i < 60; i++) {
                sleep(1);
            }
            _exit(0);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* every rank has its child before one exits */
        if (rank == arg_int(argc, argv, 2)) {
            exit(4);
        }
        wait_to_be_stopped();
    } else if (strcmp(action, "env") == 0) {
        check_env();
    } else if (strcmp(action, "stdin") == 0) {
        check_stdin();
    } else if (strcmp(action, "lines") == 0) {
        write_lines(arg_int(argc, argv, 2));
    } else if (strcmp(action, "errors") == 0) {
        check_errors();
    } else if (strcmp(action, "fatal") == 0) {
        int r;
        if (rank == size - 1) {
            MPI_Comm_rank(MPI_COMM_NULL, &r);
            printf("FAIL: rank %d survived a fatal error\n", rank);
            return 1;
        }
        wait_to_be_stopped();
    } else if (strcmp(action, "calls-after-finalize") == 0) {
        int r;
        MPI_Finalize();
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
        printf("FAIL: rank %d survived a call after MPI_Finalize\n", rank);
        return 1;
    } else if (strcmp(action, "comm-extras") == 0) {
        MPI_Comm shared, dup, none;
        MPI_Info info, got;
        char value[64];
        int n, me, flag, cmp, sum = 0;
        void *mem;

        /* One host: the shared-memory split is the whole job, ordered by the keys. */
        CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, size - rank,
                                  MPI_INFO_NULL, &shared) == MPI_SUCCESS);
        MPI_Comm_size(shared, &n);
        MPI_Comm_rank(shared, &me);
        CHECK(n == size && me == size - 1 - rank);
        CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none) ==
              MPI_SUCCESS);
        CHECK(none == MPI_COMM_NULL);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, shared);
        CHECK(sum == size * (size - 1) / 2);
        MPI_Info_create(&info);
        MPI_Info_set(info, "comm_hint", "yes");
        CHECK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup) == MPI_SUCCESS);
        MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp);
        CHECK(cmp == MPI_CONGRUENT);
        CHECK(MPI_Comm_get_info(dup, &got) == MPI_SUCCESS);
        MPI_Info_get(got, "comm_hint", (int)sizeof(value) - 1, value, &flag);
        CHECK(flag && strcmp(value, "yes") == 0);
        MPI_Info_free(&got);
        MPI_Info_free(&info);
        CHECK(MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &mem) == MPI_SUCCESS);
        memset(mem, 1, 1 << 20);
        CHECK(MPI_Free_mem(mem) == MPI_SUCCESS);
        MPI_Comm_free(&dup);
        MPI_Comm_free(&shared);
        printf("comm-extras %d: ok\n", rank);
    } else if (strcmp(action, "libs") == 0) {
        char line[4096];
        int sum = 0, mapped = 0;
        FILE *maps;

        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(sum == size * (size - 1) / 2);
        maps = fopen("/proc/self/maps", "r");
        CHECK(maps != NULL);
        while (fgets(line, sizeof(line), maps) != NULL) {
            mapped |= strstr(line, "/libfabric") != NULL;
        }
        fclose(maps);
        printf("libs %d: libfabric %s\n", rank, mapped ? "yes" : "no");
    } else if (strcmp(action, "nodump") == 0) {
        enum { N = 1 << 20 };
        static unsigned char out[N], in[N];
        int peer = rank ^ 1;

        for (int i = 0; i < N; i++) {
            out[i] = (unsigned char)(i * 31 + rank);
        }
        if (peer < size) {
            MPI_Sendrecv(out, N, MPI_BYTE, peer, 7, in, N, MPI_BYTE, peer, 7, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            for (int i = 0; i < N; i++) {
                CHECK(in[i] == (unsigned char)(i * 31 + peer));
            }
        }
        printf("nodump %d: ok\n", rank);
    } else if (strcmp(action, "shm-leak") == 0) {
        const char *job = getenv("PMIX_NAMESPACE");
        char path[512];
        int fd;

        CHECK(job != NULL);
        snprintf(path, sizeof(path), "/dev/shm/%s.test.%d", job, rank);
        fd = open(path, O_CREAT | O_RDWR, 0600);
        CHECK(fd >= 0);
        close(fd);
        printf("created %d\n", rank);
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD); /* every rank has made its file before rank 0 dies */
        if (rank == 0) {
            raise(SIGKILL);
        }
        wait_to_be_stopped();
    } else {
        fprintf(stderr, "behave: unknown action '%s'\n", action);
        return 2;
    }
    MPI_Finalize();
    return 0;
}
