/*
 * bench.c - options, buffers, barrier and output shared by the OSU-style benchmarks in
 * examples/bench/.  Plain MPI for any library: no comm headers, no collectives (see bench.h).
 * Only rank 0 prints; errors go to stderr, results and help to stdout.
 */
#define _POSIX_C_SOURCE 200112L

#include "bench.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    BENCH_DEFAULT_MAX_SIZE = 4194304,
    BENCH_COLL_DEFAULT_MIN_SIZE = 1, /* OSU's collective defaults */
    BENCH_COLL_DEFAULT_MAX_SIZE = 1048576,
    BENCH_DEFAULT_WINDOW = 64,
    /* Bounds that keep iterations + warm-up and 2 * window inside an int. */
    BENCH_MAX_COUNT = INT_MAX / 2,
    BENCH_MAX_WINDOW = 1 << 20,
    BENCH_LABEL_WIDTH = 10,
    BENCH_VALUE_WIDTH = 18,
};

static bool bench_kind_is_collective(enum bench_kind kind)
{
    return kind == BENCH_KIND_COLLECTIVE || kind == BENCH_KIND_BARRIER;
}

static void bench_usage(const struct bench_spec *spec)
{
    const char *small = "100";
    const char *large = "20";
    const char *skip_small = "10";
    const char *skip_large = "2";

    if (spec->kind == BENCH_KIND_LATENCY) {
        small = "10000";
        large = "1000";
        skip_small = "100";
        skip_large = "10";
    } else if (bench_kind_is_collective(spec->kind)) {
        small = "1000";
        large = "100";
        skip_small = "100";
        skip_large = "10";
    }
    printf("Usage: %s [options]\n", spec->program);
    printf("OSU-style MPI %s Test: %s\n\n", spec->title, spec->summary);
    if (spec->kind == BENCH_KIND_COLLECTIVE) {
        printf("  -m [MIN:]MAX  message sizes in bytes: MIN, then doubling up to MAX; a MIN of 0\n"
               "                gives 0, 1, 2, 4, ... (default %d:%d; \"MIN:\" keeps MAX)\n",
               BENCH_COLL_DEFAULT_MIN_SIZE, BENCH_COLL_DEFAULT_MAX_SIZE);
    } else if (spec->kind != BENCH_KIND_BARRIER) {
        printf("  -m [MIN:]MAX  message sizes in bytes: MIN, then doubling up to MAX; a MIN of 0\n"
               "                gives 0, 1, 2, 4, ... (default 0:%d; \"MIN:\" keeps MAX)\n",
               BENCH_DEFAULT_MAX_SIZE);
    }
    if (spec->kind == BENCH_KIND_BARRIER) {
        printf("  -i ITER       timed iterations (default %s)\n", small);
        printf("  -x WARMUP     untimed warm-up iterations (default %s)\n", skip_small);
    } else {
        printf("  -i ITER       timed iterations per size (default %s up to %d bytes, %s above)\n",
               small, BENCH_LARGE_THRESHOLD, large);
        printf("  -x WARMUP     untimed warm-up iterations per size (default %s, %s above %d)\n",
               skip_small, skip_large, BENCH_LARGE_THRESHOLD);
    }
    if (spec->kind == BENCH_KIND_BANDWIDTH) {
        printf("  -W WINDOW     messages in flight per iteration (default %d)\n",
               BENCH_DEFAULT_WINDOW);
    }
    if (bench_kind_is_collective(spec->kind)) {
        printf("  -f            full: also the minimum and maximum over ranks of each rank's\n"
               "                average, and the iteration count\n");
    }
    if (spec->nonblocking) {
        printf("  -c            compute: also post, compute as long as the call takes, then wait,\n"
               "                and print the overlap of communication and computation\n");
    }
    printf("  -h            print this help and exit\n\n");
    if (spec->ranks == BENCH_RANKS_TWO) {
        printf("Runs on exactly 2 ranks.");
    } else if (spec->ranks == BENCH_RANKS_ANY) {
        printf("Runs on 2 ranks or more.");
    } else {
        printf("Runs on an even number of ranks: rank r < n/2 sends to rank r + n/2.");
    }
    printf("  Exit status: 0, or 2 for a bad command line or number of ranks.\n");
}

/*
 * Parses TEXT, all of it, as a decimal number in [MIN, MAX].  Leading signs and spaces are
 * refused.  Returns 0 and sets *value_out, or -1.
 */
static int bench_parse_number(const char *text, long min, long max, long *value_out)
{
    char *end;
    long value;

    if (text[0] < '0' || text[0] > '9') {
        return -1;
    }
    errno = 0;
    value = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < min || value > max) {
        return -1;
    }
    *value_out = value;
    return 0;
}

/* -m [MIN:]MAX or MIN: ; returns 0 and sets the sizes in B, or -1. */
static int bench_parse_sizes(const char *text, struct bench *b)
{
    const char *colon = strchr(text, ':');
    long min = (long)b->min_size; /* the defaults, kept when not given */
    long max = (long)b->max_size;
    char min_text[32];

    if (colon == NULL) {
        if (bench_parse_number(text, 0, INT_MAX, &max) < 0) {
            return -1;
        }
        if (max < min) {
            min = max; /* "-m 0" under a default MIN of 1 (collectives): size 0 alone */
        }
    } else {
        size_t len = (size_t)(colon - text);

        if (len == 0 || len >= sizeof(min_text)) {
            return -1;
        }
        memcpy(min_text, text, len);
        min_text[len] = '\0';
        if (bench_parse_number(min_text, 0, INT_MAX, &min) < 0) {
            return -1;
        }
        if (colon[1] != '\0' && bench_parse_number(colon + 1, 0, INT_MAX, &max) < 0) {
            return -1;
        }
    }
    if (min > max) {
        return -1;
    }
    b->min_size = (size_t)min;
    b->max_size = (size_t)max;
    return 0;
}

/* Rank 0 only: "PROGRAM: SUBJECT 'VALUE' WHAT (try -h)" on stderr; VALUE may be NULL. */
static void bench_error(const struct bench *b, const char *subject, const char *value,
                        const char *what)
{
    if (b->rank != 0) {
        return;
    }
    if (value != NULL) {
        fprintf(stderr, "%s: %s '%s' %s (try -h)\n", b->spec->program, subject, value, what);
    } else {
        fprintf(stderr, "%s: %s %s (try -h)\n", b->spec->program, subject, what);
    }
}

/* Reads the command line into B; returns BENCH_RUN or the exit status. */
static enum bench_status bench_parse(struct bench *b, int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        const char *letters;
        char option[16];
        long number;

        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            if (b->rank == 0) {
                bench_usage(b->spec);
            }
            return BENCH_EXIT_OK;
        }
        /* -f and -c exist for collectives only: elsewhere they stay unknown options. */
        letters = bench_kind_is_collective(b->spec->kind) ? "mixWfc" : "mixW";
        if (arg[0] != '-' || arg[1] == '\0' || strchr(letters, arg[1]) == NULL) {
            if (arg[0] == '-') {
                bench_error(b, "option", arg, "is unknown");
            } else {
                bench_error(b, "unexpected argument", arg, "(this program takes only options)");
            }
            return BENCH_EXIT_USAGE;
        }
        snprintf(option, sizeof(option), "option -%c", arg[1]);
        if (arg[1] == 'W' && b->spec->kind != BENCH_KIND_BANDWIDTH) {
            bench_error(b, "option -W", NULL, "does not apply to this benchmark");
            return BENCH_EXIT_USAGE;
        }
        if (arg[1] == 'm' && b->spec->kind == BENCH_KIND_BARRIER) {
            bench_error(b, "option -m", NULL, "does not apply to this benchmark (no sizes)");
            return BENCH_EXIT_USAGE;
        }
        if (arg[1] == 'f' || arg[1] == 'c') {
            bool applies =
                arg[1] == 'f' ? bench_kind_is_collective(b->spec->kind) : b->spec->nonblocking;

            if (!applies) {
                bench_error(b, option, NULL, "does not apply to this benchmark");
                return BENCH_EXIT_USAGE;
            }
            if (arg[2] != '\0') {
                bench_error(b, option, NULL, "takes no value");
                return BENCH_EXIT_USAGE;
            }
            if (arg[1] == 'f') {
                b->full = true;
            } else {
                b->overlap = true;
            }
            continue;
        }
        /* The value is glued (-i100) or the next argument (-i 100). */
        if (arg[2] != '\0') {
            value = arg + 2;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            bench_error(b, option, NULL, "needs a value");
            return BENCH_EXIT_USAGE;
        }
        switch (arg[1]) {
        case 'm':
            if (bench_parse_sizes(value, b) < 0) {
                bench_error(b, option, value,
                            "is not a size range: want [MIN:]MAX in bytes, MIN <= MAX <= "
                            "2147483647");
                return BENCH_EXIT_USAGE;
            }
            break;
        case 'i':
            if (bench_parse_number(value, 1, BENCH_MAX_COUNT, &number) < 0) {
                bench_error(b, option, value,
                            "is not an iteration count: want an integer from 1 to 1073741823");
                return BENCH_EXIT_USAGE;
            }
            b->iterations = (int)number;
            break;
        case 'x':
            if (bench_parse_number(value, 0, BENCH_MAX_COUNT, &number) < 0) {
                bench_error(b, option, value,
                            "is not a warm-up count: want an integer from 0 to 1073741823");
                return BENCH_EXIT_USAGE;
            }
            b->warmup = (int)number;
            break;
        default:
            if (bench_parse_number(value, 1, BENCH_MAX_WINDOW, &number) < 0) {
                bench_error(b, option, value,
                            "is not a window size: want an integer from 1 to 1048576");
                return BENCH_EXIT_USAGE;
            }
            b->window = (int)number;
            break;
        }
    }
    return BENCH_RUN;
}

static enum bench_status bench_check_ranks(const struct bench *b)
{
    if (b->spec->ranks == BENCH_RANKS_TWO && b->nranks != 2) {
        if (b->rank == 0) {
            fprintf(stderr, "%s: needs exactly 2 ranks, not %d\n", b->spec->program, b->nranks);
        }
        return BENCH_EXIT_USAGE;
    }
    if (b->spec->ranks == BENCH_RANKS_EVEN && (b->nranks < 2 || b->nranks % 2 != 0)) {
        if (b->rank == 0) {
            fprintf(stderr, "%s: needs an even number of ranks (2 or more), not %d\n",
                    b->spec->program, b->nranks);
        }
        return BENCH_EXIT_USAGE;
    }
    if (b->spec->ranks == BENCH_RANKS_ANY && b->nranks < 2) {
        if (b->rank == 0) {
            fprintf(stderr, "%s: needs 2 ranks or more, not %d\n", b->spec->program, b->nranks);
        }
        return BENCH_EXIT_USAGE;
    }
    return BENCH_RUN;
}

/*
 * Buffers are allocated once at the largest size and written, so no page fault is timed.
 * Returns 0, or -1 if MPI_Abort returned.
 */
static int bench_allocate(struct bench *b)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t align = page > 0 ? (size_t)page : 4096;
    size_t one = b->max_size < align ? align : b->max_size;
    size_t sbytes = b->spec->send_per_rank ? one * (size_t)b->nranks : one;
    size_t rbytes = b->spec->recv_per_rank ? one * (size_t)b->nranks : one;
    size_t bytes = sbytes > rbytes ? sbytes : rbytes;
    void *sbuf = NULL;
    void *rbuf = NULL;
    int rc;

    rc = posix_memalign(&sbuf, align, sbytes);
    if (rc == 0) {
        rc = posix_memalign(&rbuf, align, rbytes);
    }
    b->requests = malloc(2 * (size_t)b->window * sizeof(*b->requests));
    b->statuses = malloc(2 * (size_t)b->window * sizeof(*b->statuses));
    if (rc != 0 || b->requests == NULL || b->statuses == NULL) {
        if (sbytes == rbytes) {
            fprintf(stderr, "%s: rank %d: cannot allocate two buffers of %zu bytes: %s\n",
                    b->spec->program, b->rank, bytes, strerror(rc ? rc : ENOMEM));
        } else {
            fprintf(stderr, "%s: rank %d: cannot allocate buffers of %zu and %zu bytes: %s\n",
                    b->spec->program, b->rank, sbytes, rbytes, strerror(rc ? rc : ENOMEM));
        }
        free(sbuf);
        free(rbuf);
        free(b->requests);
        free(b->statuses);
        b->requests = NULL;
        b->statuses = NULL;
        MPI_Abort(MPI_COMM_WORLD, 1);
        return -1;
    }
    b->sbuf = sbuf;
    b->rbuf = rbuf;
    memset(b->sbuf, 'a', sbytes);
    memset(b->rbuf, 'b', rbytes);
    return 0;
}

/* The first line of MPI_Get_library_version, with runs of blanks made one space. */
static void bench_library_name(char *name, size_t size)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    size_t in;
    size_t out = 0;

    MPI_Get_library_version(version, &len);
    if (len < 0 || len >= MPI_MAX_LIBRARY_VERSION_STRING) {
        len = MPI_MAX_LIBRARY_VERSION_STRING - 1;
    }
    version[len] = '\0';
    for (in = 0; version[in] != '\0' && version[in] != '\n' && out + 1 < size; in++) {
        char c = version[in] == '\t' || version[in] == '\r' ? ' ' : version[in];

        if (c == ' ' && (out == 0 || name[out - 1] == ' ')) {
            continue;
        }
        name[out++] = c;
    }
    while (out > 0 && name[out - 1] == ' ') {
        out--;
    }
    name[out] = '\0';
}

static void bench_print_header(const struct bench *b)
{
    char library[256];
    const struct bench_spec *spec = b->spec;

    bench_library_name(library, sizeof(library));
    printf("# OSU-style MPI %s Test - %s\n", spec->title, library[0] ? library : "unknown MPI");
    if (spec->kind == BENCH_KIND_BARRIER) {
        printf("# %d ranks", b->nranks);
    } else {
        printf("# %d ranks, sizes %zu to %zu bytes", b->nranks, b->min_size, b->max_size);
    }
    if (spec->kind == BENCH_KIND_BANDWIDTH) {
        printf(", window %d", b->window);
    }
    if (b->iterations > 0 || spec->kind == BENCH_KIND_BARRIER) {
        printf(", iterations %d", bench_iterations(b, 0));
    } else {
        printf(", iterations %d/%d (up to/above %d bytes)", bench_iterations(b, 0),
               bench_iterations(b, BENCH_LARGE_THRESHOLD + 1), BENCH_LARGE_THRESHOLD);
    }
    if (b->warmup >= 0 || spec->kind == BENCH_KIND_BARRIER) {
        printf(", warm-up %d\n", bench_warmup(b, 0));
    } else {
        printf(", warm-up %d/%d\n", bench_warmup(b, 0), bench_warmup(b, BENCH_LARGE_THRESHOLD + 1));
    }
    if (spec->column == NULL) {
        /* The program prints its own column line. */
    } else if (spec->column2 != NULL) {
        printf("%-*s%*s%*s\n", BENCH_LABEL_WIDTH, "# Size", BENCH_VALUE_WIDTH, spec->column,
               BENCH_VALUE_WIDTH, spec->column2);
    } else {
        printf("%-*s%*s\n", BENCH_LABEL_WIDTH, "# Size", BENCH_VALUE_WIDTH, spec->column);
    }
    fflush(stdout);
}

enum bench_status bench_setup(struct bench *b, const struct bench_spec *spec, int argc, char **argv)
{
    enum bench_status status;

    memset(b, 0, sizeof(*b));
    b->spec = spec;
    b->min_size = 0;
    b->max_size = BENCH_DEFAULT_MAX_SIZE;
    if (spec->kind == BENCH_KIND_COLLECTIVE) {
        b->min_size = BENCH_COLL_DEFAULT_MIN_SIZE;
        b->max_size = BENCH_COLL_DEFAULT_MAX_SIZE;
    } else if (spec->kind == BENCH_KIND_BARRIER) {
        b->max_size = 0; /* no data: buffers of one page */
    }
    b->iterations = 0;
    b->warmup = -1;
    b->window = BENCH_DEFAULT_WINDOW;
    MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b->nranks);

    status = bench_parse(b, argc, argv);
    if (status != BENCH_RUN) {
        return status;
    }
    status = bench_check_ranks(b);
    if (status != BENCH_RUN) {
        return status;
    }
    if (bench_allocate(b) < 0) {
        return BENCH_EXIT_FAILURE;
    }
    if (b->rank == 0) {
        bench_print_header(b);
    }
    return BENCH_RUN;
}

void bench_teardown(struct bench *b)
{
    free(b->sbuf);
    free(b->rbuf);
    free(b->requests);
    free(b->statuses);
    b->sbuf = NULL;
    b->rbuf = NULL;
    b->requests = NULL;
    b->statuses = NULL;
}

size_t bench_next_size(size_t size)
{
    return size == 0 ? 1 : 2 * size;
}

int bench_iterations(const struct bench *b, size_t size)
{
    bool large = size > BENCH_LARGE_THRESHOLD;

    if (b->iterations > 0) {
        return b->iterations;
    }
    if (b->spec->kind == BENCH_KIND_LATENCY) {
        return large ? 1000 : 10000;
    }
    if (bench_kind_is_collective(b->spec->kind)) {
        return large ? 100 : 1000;
    }
    return large ? 20 : 100;
}

int bench_warmup(const struct bench *b, size_t size)
{
    bool large = size > BENCH_LARGE_THRESHOLD;

    if (b->warmup >= 0) {
        return b->warmup;
    }
    if (b->spec->kind == BENCH_KIND_LATENCY || bench_kind_is_collective(b->spec->kind)) {
        return large ? 10 : 100;
    }
    return large ? 2 : 10;
}

void bench_barrier(const struct bench *b)
{
    int step;

    /* Round k: send to rank + 2^k, hear from rank - 2^k; log2(n) rounds reach everyone. */
    for (step = 1; step < b->nranks; step *= 2) {
        int to = (b->rank + step) % b->nranks;
        int from = (b->rank - step + b->nranks) % b->nranks;

        MPI_Sendrecv(NULL, 0, MPI_CHAR, to, BENCH_TAG_BARRIER, NULL, 0, MPI_CHAR, from,
                     BENCH_TAG_BARRIER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

void bench_print_row(const struct bench *b, size_t size, double value, double value2)
{
    if (b->rank != 0) {
        return;
    }
    if (b->spec->column2 != NULL) {
        printf("%*zu%*.2f%*.2f\n", BENCH_LABEL_WIDTH, size, BENCH_VALUE_WIDTH, value,
               BENCH_VALUE_WIDTH, value2);
    } else {
        printf("%*zu%*.2f\n", BENCH_LABEL_WIDTH, size, BENCH_VALUE_WIDTH, value);
    }
    fflush(stdout);
}
