/*
 * rma.c - window, synchronization and timing shared by the OSU-style one-sided benchmarks in
 * examples/bench/ (see rma.h).  Plain MPI 3.1 for any library: no comm headers.
 * Only rank 0 prints; errors go to stderr, results and help to stdout.
 */
#define _POSIX_C_SOURCE 200112L

#include "rma.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum rma_flavor {
    RMA_FLAVOR_CREATE,
    RMA_FLAVOR_ALLOCATE,
    RMA_FLAVOR_DYNAMIC,
};

enum rma_sync {
    RMA_SYNC_FENCE,
    RMA_SYNC_LOCK,
    RMA_SYNC_FLUSH,
    RMA_SYNC_FLUSH_LOCAL,
    RMA_SYNC_LOCK_ALL,
    RMA_SYNC_PSCW,
};

enum {
    RMA_ORIGIN = 0,
    RMA_TARGET = 1,
    RMA_TAG_ADDRESS = 110, /* the dynamic window's address, clear of bench.h's tags */
    RMA_ATOMIC_BYTES = 8,  /* fetch_and_op and compare_and_swap: one MPI_LONG_LONG */
};

static const char *const rma_flavor_names[] = {
    [RMA_FLAVOR_CREATE] = "create",
    [RMA_FLAVOR_ALLOCATE] = "allocate",
    [RMA_FLAVOR_DYNAMIC] = "dynamic",
};

static const char *const rma_sync_names[] = {
    [RMA_SYNC_FENCE] = "fence",       [RMA_SYNC_LOCK] = "lock",
    [RMA_SYNC_FLUSH] = "flush",       [RMA_SYNC_FLUSH_LOCAL] = "flush_local",
    [RMA_SYNC_LOCK_ALL] = "lock_all", [RMA_SYNC_PSCW] = "pscw",
};

/* One run's state. */
struct rma {
    struct bench b;
    const struct rma_spec *spec;
    enum rma_flavor flavor;
    enum rma_sync sync;
    MPI_Win win;
    void *own;      /* create and dynamic: the window's memory, allocated here */
    void *base;     /* the window's memory on this rank (own, or MPI_Win_allocate's) */
    MPI_Aint disp;  /* the target displacement: 0, or the target's address (dynamic) */
    MPI_Group peer; /* pscw: the group of the other rank */
};

static bool rma_is_atomic(const struct rma_spec *spec)
{
    return spec->op == RMA_OP_FOP || spec->op == RMA_OP_CAS;
}

/* Rank 0 only: "PROGRAM: SUBJECT 'VALUE' WHAT (try -h)" on stderr, as bench.c says it. */
static void rma_error(const struct rma *r, const char *subject, const char *value, const char *what)
{
    if (r->b.rank != 0) {
        return;
    }
    if (value != NULL) {
        fprintf(stderr, "%s: %s '%s' %s (try -h)\n", r->spec->bench->program, subject, value, what);
    } else {
        fprintf(stderr, "%s: %s %s (try -h)\n", r->spec->bench->program, subject, what);
    }
}

/* Finds NAME in NAMES[0..COUNT); returns its index or -1. */
static int rma_lookup(const char *const *names, int count, const char *name)
{
    int i;

    for (i = 0; i < count; i++) {
        if (strcmp(names[i], name) == 0) {
            return i;
        }
    }
    return -1;
}

static void rma_usage(const struct rma_spec *spec)
{
    printf("\nOne-sided options (rank 0 is the origin, rank 1 the target):\n");
    printf("  -w FLAVOR     window: create (MPI_Win_create), allocate (MPI_Win_allocate, the\n"
           "                default) or dynamic (MPI_Win_create_dynamic + MPI_Win_attach)\n");
    printf("  -s SYNC       synchronization per %s: fence, lock, flush (the default:\n"
           "                lock once, flush each time), flush_local, lock_all or pscw\n",
           spec->bench->kind == BENCH_KIND_BANDWIDTH ? "window of -W operations" : "operation");
    if (rma_is_atomic(spec)) {
        printf("One 8-byte MPI_LONG_LONG per operation: -m is refused.\n");
    }
}

/*
 * Takes -w and -s out of ARGV into R, and leaves the rest (bench.h's options) in ARGS_OUT, a
 * NULL-terminated array of *COUNT_OUT entries to free.  For the atomics, "-m 8:8" is added.
 * Returns BENCH_RUN or BENCH_EXIT_USAGE (rank 0 said why).  On -h it stops and passes the rest
 * on, so bench_setup prints the help.
 */
static enum bench_status rma_parse(struct rma *r, int argc, char **argv, char ***args_out,
                                   int *count_out)
{
    static char size_option[] = "-m";
    static char size_value[] = "8:8";
    char **args = malloc(((size_t)argc + 3) * sizeof(*args));
    int count = 0;
    int i;

    if (args == NULL) {
        fprintf(stderr, "%s: rank %d: cannot allocate the argument list\n", r->spec->bench->program,
                r->b.rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return BENCH_EXIT_FAILURE;
    }
    args[count++] = argv[0];
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        int found;

        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            for (; i < argc; i++) {
                args[count++] = argv[i];
            }
            break;
        }
        if (arg[0] != '-' || strchr("mixWws", arg[1]) == NULL || arg[1] == '\0') {
            args[count++] = argv[i]; /* bench_setup refuses it */
            continue;
        }
        if (arg[1] == 'm' && rma_is_atomic(r->spec)) {
            rma_error(r, "option -m", NULL,
                      "does not apply to this benchmark (one 8-byte MPI_LONG_LONG)");
            free(args);
            return BENCH_EXIT_USAGE;
        }
        if (arg[2] != '\0') {
            value = arg + 2;
        } else if (i + 1 < argc) {
            value = argv[i + 1];
        } else {
            args[count++] = argv[i]; /* bench_setup says it needs a value; so do we */
            if (arg[1] == 'w' || arg[1] == 's') {
                char option[16];

                snprintf(option, sizeof(option), "option -%c", arg[1]);
                rma_error(r, option, NULL, "needs a value");
                free(args);
                return BENCH_EXIT_USAGE;
            }
            continue;
        }
        if (arg[1] == 'w') {
            found = rma_lookup(rma_flavor_names, RMA_FLAVOR_DYNAMIC + 1, value);
            if (found < 0) {
                rma_error(r, "option -w", value,
                          "is not a window flavor: want create, allocate or dynamic");
                free(args);
                return BENCH_EXIT_USAGE;
            }
            r->flavor = (enum rma_flavor)found;
        } else if (arg[1] == 's') {
            found = rma_lookup(rma_sync_names, RMA_SYNC_PSCW + 1, value);
            if (found < 0) {
                rma_error(r, "option -s", value,
                          "is not a synchronization: want fence, lock, flush, flush_local, "
                          "lock_all or pscw");
                free(args);
                return BENCH_EXIT_USAGE;
            }
            r->sync = (enum rma_sync)found;
        } else {
            args[count++] = argv[i];
            if (arg[2] == '\0') {
                args[count++] = argv[i + 1];
            }
        }
        if (arg[2] == '\0') {
            i++;
        }
    }
    if (rma_is_atomic(r->spec)) {
        args[count++] = size_option;
        args[count++] = size_value;
    }
    args[count] = NULL;
    *args_out = args;
    *count_out = count;
    return BENCH_RUN;
}

/* Makes the window and, for dynamic, tells the origin where the target's memory is. */
static void rma_window_open(struct rma *r)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t align = page > 0 ? (size_t)page : 4096;
    size_t bytes = r->b.max_size < align ? align : r->b.max_size;
    int rc = 0;

    if (r->flavor != RMA_FLAVOR_ALLOCATE) {
        rc = posix_memalign(&r->own, align, bytes);
        if (rc != 0) {
            fprintf(stderr, "%s: rank %d: cannot allocate a window of %zu bytes: %s\n",
                    r->spec->bench->program, r->b.rank, bytes, strerror(rc));
            MPI_Abort(MPI_COMM_WORLD, 1);
            return;
        }
        r->base = r->own;
    }
    switch (r->flavor) {
    case RMA_FLAVOR_CREATE:
        MPI_Win_create(r->own, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &r->win);
        break;
    case RMA_FLAVOR_ALLOCATE:
        MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &r->base, &r->win);
        break;
    case RMA_FLAVOR_DYNAMIC:
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &r->win);
        if (r->b.rank == RMA_TARGET) {
            MPI_Win_attach(r->win, r->own, (MPI_Aint)bytes);
        }
        break;
    }
    memset(r->base, 'c', bytes);
    if (r->flavor == RMA_FLAVOR_DYNAMIC) {
        if (r->b.rank == RMA_TARGET) {
            MPI_Get_address(r->own, &r->disp);
            MPI_Send(&r->disp, 1, MPI_AINT, RMA_ORIGIN, RMA_TAG_ADDRESS, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&r->disp, 1, MPI_AINT, RMA_TARGET, RMA_TAG_ADDRESS, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
    }
    if (r->sync == RMA_SYNC_PSCW) {
        MPI_Group world;
        int other = 1 - r->b.rank;

        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 1, &other, &r->peer);
        MPI_Group_free(&world);
    }
}

static void rma_window_close(struct rma *r)
{
    bench_barrier(&r->b);
    if (r->flavor == RMA_FLAVOR_DYNAMIC && r->b.rank == RMA_TARGET) {
        MPI_Win_detach(r->win, r->own);
    }
    MPI_Win_free(&r->win);
    if (r->sync == RMA_SYNC_PSCW) {
        MPI_Group_free(&r->peer);
    }
    free(r->own);
    r->own = NULL;
}

/* Rank 0: one operation of SIZE bytes on the target, left for the synchronization to end. */
static void rma_issue(struct rma *r, size_t size)
{
    int count = (int)size;
    char *sbuf = r->b.sbuf;
    char *rbuf = r->b.rbuf;

    switch (r->spec->op) {
    case RMA_OP_PUT:
        MPI_Put(sbuf, count, MPI_CHAR, RMA_TARGET, r->disp, count, MPI_CHAR, r->win);
        break;
    case RMA_OP_GET:
        MPI_Get(rbuf, count, MPI_CHAR, RMA_TARGET, r->disp, count, MPI_CHAR, r->win);
        break;
    case RMA_OP_ACC:
        MPI_Accumulate(sbuf, count, MPI_UNSIGNED_CHAR, RMA_TARGET, r->disp, count,
                       MPI_UNSIGNED_CHAR, MPI_SUM, r->win);
        break;
    case RMA_OP_GET_ACC:
        MPI_Get_accumulate(sbuf, count, MPI_UNSIGNED_CHAR, rbuf, count, MPI_UNSIGNED_CHAR,
                           RMA_TARGET, r->disp, count, MPI_UNSIGNED_CHAR, MPI_SUM, r->win);
        break;
    case RMA_OP_FOP:
        MPI_Fetch_and_op(sbuf, rbuf, MPI_LONG_LONG, RMA_TARGET, r->disp, MPI_SUM, r->win);
        break;
    case RMA_OP_CAS:
        /* The compare value follows the new value in sbuf. */
        MPI_Compare_and_swap(sbuf, sbuf + RMA_ATOMIC_BYTES, rbuf, MPI_LONG_LONG, RMA_TARGET,
                             r->disp, r->win);
        break;
    }
}

/* Opens the passive epoch that -s flush and flush_local keep across all iterations. */
static void rma_epoch_begin(struct rma *r)
{
    if (r->b.rank == RMA_ORIGIN && (r->sync == RMA_SYNC_FLUSH || r->sync == RMA_SYNC_FLUSH_LOCAL)) {
        MPI_Win_lock(MPI_LOCK_SHARED, RMA_TARGET, 0, r->win);
    }
}

static void rma_epoch_end(struct rma *r)
{
    if (r->b.rank == RMA_ORIGIN && (r->sync == RMA_SYNC_FLUSH || r->sync == RMA_SYNC_FLUSH_LOCAL)) {
        MPI_Win_unlock(RMA_TARGET, r->win);
    }
}

/* One iteration on both ranks: OPS operations of SIZE bytes, synchronized as -s says. */
static void rma_iteration(struct rma *r, size_t size, int ops)
{
    bool origin = r->b.rank == RMA_ORIGIN;
    int j;

    /* Open. */
    switch (r->sync) {
    case RMA_SYNC_FENCE:
        MPI_Win_fence(0, r->win);
        break;
    case RMA_SYNC_LOCK:
        if (origin) {
            MPI_Win_lock(MPI_LOCK_SHARED, RMA_TARGET, 0, r->win);
        }
        break;
    case RMA_SYNC_LOCK_ALL:
        if (origin) {
            MPI_Win_lock_all(0, r->win);
        }
        break;
    case RMA_SYNC_PSCW:
        if (origin) {
            MPI_Win_start(r->peer, 0, r->win);
        } else {
            MPI_Win_post(r->peer, 0, r->win);
        }
        break;
    case RMA_SYNC_FLUSH:
    case RMA_SYNC_FLUSH_LOCAL:
        break;
    }
    if (origin) {
        for (j = 0; j < ops; j++) {
            rma_issue(r, size);
        }
    }
    /* Close. */
    switch (r->sync) {
    case RMA_SYNC_FENCE:
        MPI_Win_fence(0, r->win);
        break;
    case RMA_SYNC_LOCK:
        if (origin) {
            MPI_Win_unlock(RMA_TARGET, r->win);
        }
        break;
    case RMA_SYNC_FLUSH:
        if (origin) {
            MPI_Win_flush(RMA_TARGET, r->win);
        }
        break;
    case RMA_SYNC_FLUSH_LOCAL:
        if (origin) {
            MPI_Win_flush_local(RMA_TARGET, r->win);
        }
        break;
    case RMA_SYNC_LOCK_ALL:
        if (origin) {
            MPI_Win_unlock_all(r->win);
        }
        break;
    case RMA_SYNC_PSCW:
        if (origin) {
            MPI_Win_complete(r->win);
        } else {
            MPI_Win_wait(r->win);
        }
        break;
    }
}

/* Whether the target has anything to do in each iteration (active target synchronization). */
static bool rma_target_iterates(const struct rma *r)
{
    return r->sync == RMA_SYNC_FENCE || r->sync == RMA_SYNC_PSCW;
}

/* One size: returns microseconds per operation or MB/s (meaningful on rank 0). */
static double rma_measure(struct rma *r, size_t size)
{
    bool bandwidth = r->spec->bench->kind == BENCH_KIND_BANDWIDTH;
    int iterations = bench_iterations(&r->b, size);
    int warmup = bench_warmup(&r->b, size);
    int ops = bandwidth ? r->b.window : 1;
    double start = 0.0;
    double seconds;
    int i;

    rma_epoch_begin(r);
    bench_barrier(&r->b);
    if (r->b.rank == RMA_ORIGIN || rma_target_iterates(r)) {
        for (i = 0; i < warmup + iterations; i++) {
            if (i == warmup) {
                start = MPI_Wtime();
            }
            rma_iteration(r, size, ops);
        }
    }
    seconds = MPI_Wtime() - start;
    rma_epoch_end(r);
    /* The target waits here, in a receive, while passive-target operations reach it. */
    bench_barrier(&r->b);
    if (bandwidth) {
        return (double)size / 1e6 * iterations * ops / seconds;
    }
    return seconds * 1e6 / iterations;
}

static void rma_print_columns(const struct rma *r)
{
    const char *what[] = {
        [RMA_OP_PUT] = "MPI_Put",
        [RMA_OP_GET] = "MPI_Get",
        [RMA_OP_ACC] = "MPI_Accumulate (MPI_UNSIGNED_CHAR, MPI_SUM)",
        [RMA_OP_GET_ACC] = "MPI_Get_accumulate (MPI_UNSIGNED_CHAR, MPI_SUM)",
        [RMA_OP_FOP] = "MPI_Fetch_and_op (MPI_LONG_LONG, MPI_SUM)",
        [RMA_OP_CAS] = "MPI_Compare_and_swap (MPI_LONG_LONG)",
    };

    printf("# %s, window %s, synchronization %s\n", what[r->spec->op], rma_flavor_names[r->flavor],
           rma_sync_names[r->sync]);
    printf("%-10s%18s\n", "# Size",
           r->spec->bench->kind == BENCH_KIND_BANDWIDTH ? "Bandwidth (MB/s)" : "Latency (us)");
    fflush(stdout);
}

int rma_main(const struct rma_spec *spec, int argc, char **argv)
{
    struct rma r;
    enum bench_status status;
    char **args = NULL;
    int count = 0;
    bool help = false;
    int i;

    memset(&r, 0, sizeof(r));
    r.spec = spec;
    r.flavor = RMA_FLAVOR_ALLOCATE;
    r.sync = RMA_SYNC_FLUSH;
    r.win = MPI_WIN_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &r.b.rank);
    status = rma_parse(&r, argc, argv, &args, &count);
    if (status != BENCH_RUN) {
        return (int)status;
    }
    status = bench_setup(&r.b, spec->bench, count, args);
    for (i = 1; i < count; i++) {
        if (strcmp(args[i], "-h") == 0 || strcmp(args[i], "--help") == 0) {
            help = true;
        }
    }
    if (status == BENCH_EXIT_OK && help && r.b.rank == 0) {
        rma_usage(spec);
    }
    if (status == BENCH_RUN) {
        size_t size;
        long long *atomic = (long long *)(void *)r.b.sbuf;

        atomic[0] = 1; /* fetch_and_op adds 1; compare_and_swap writes 1 where it finds 0 */
        atomic[1] = 0;
        rma_window_open(&r);
        if (r.b.rank == 0) {
            rma_print_columns(&r);
        }
        for (size = r.b.min_size; size <= r.b.max_size; size = bench_next_size(size)) {
            bench_print_row(&r.b, size, rma_measure(&r, size), 0.0);
        }
        rma_window_close(&r);
        status = BENCH_EXIT_OK;
    }
    bench_teardown(&r.b);
    free(args);
    return (int)status;
}
