/*
 * bench.h - the part shared by comm's OSU-style benchmarks (examples/bench/): options,
 * buffers, a point-to-point barrier and OSU-format output.
 *
 * These are plain MPI programs, not part of the library: they must build unchanged with any
 * MPI's compiler wrapper (commcc, mpicc.openmpi, mpicc.mpich), so they use nothing but the
 * standard mpi.h.  The harness itself uses point-to-point calls only, never collectives: the
 * point-to-point benchmarks then depend on the point-to-point engine alone, and each collective
 * benchmark (coll.h) calls the one collective it measures and no other, so it runs on a library
 * that has that collective and no other yet.
 *
 * Life cycle, on every rank: MPI_Init, bench_setup, then (if it returned BENCH_RUN) one loop
 * over the sizes that prints a row per size on rank 0, then bench_teardown, MPI_Finalize, and
 * return bench_setup's status from main.  bench_setup decides alike on every rank from the
 * command line and the number of ranks, so a rejected command line ends every rank through
 * MPI_Finalize without any message exchanged and without a hang.
 *
 * Single-threaded; struct bench is owned by main and filled by bench_setup.
 */
#ifndef BENCH_H
#define BENCH_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* Which OSU defaults apply, and whether -W means anything. */
enum bench_kind {
    BENCH_KIND_LATENCY,    /* ping-pong: 10000 iterations (100 warm-up), 1000 (10) above 8 KiB */
    BENCH_KIND_BANDWIDTH,  /* windows of messages: 100 iterations (10), 20 (2) above 8 KiB */
    BENCH_KIND_COLLECTIVE, /* one collective call: 1000 iterations (100), 100 (10) above 8 KiB;
                              sizes 1:1048576 by default; -f */
    BENCH_KIND_BARRIER,    /* a collective without sizes (-m refused): 1000 iterations (100); -f */
};

/* How many ranks a benchmark accepts. */
enum bench_ranks {
    BENCH_RANKS_TWO,  /* exactly 2 */
    BENCH_RANKS_EVEN, /* an even number, at least 2: the first half sends to the second */
    BENCH_RANKS_ANY,  /* 2 or more */
};

/* What main does after bench_setup: every value but BENCH_RUN is main's exit status. */
enum bench_status {
    BENCH_RUN = -1,         /* run the benchmark, then return BENCH_EXIT_OK */
    BENCH_EXIT_OK = 0,      /* -h: help printed, nothing to run */
    BENCH_EXIT_FAILURE = 1, /* MPI_Abort returned (it should not) */
    BENCH_EXIT_USAGE = 2,   /* bad option, value or number of ranks: rank 0 said why */
};

/* Tags, so that barrier and result messages never match benchmark traffic. */
enum bench_tag {
    BENCH_TAG_DATA = 100,
    BENCH_TAG_ACK = 101,
    BENCH_TAG_BARRIER = 102,
    BENCH_TAG_RESULT = 103,
};

/* The sizes up to which OSU counts a message as small (for the default iteration counts). */
enum { BENCH_LARGE_THRESHOLD = 8192 };

/* What one benchmark program is; a constant in each program. */
struct bench_spec {
    const char *program; /* "latency": in errors and usage */
    const char *title;   /* "Latency": the header reads "# OSU-style MPI Latency Test" */
    const char *summary; /* what is measured, one line for -h */
    enum bench_kind kind;
    enum bench_ranks ranks;
    const char *column;  /* "Latency (us)": the value column's header; NULL: the program
                            prints its own column line after bench_setup (collectives) */
    const char *column2; /* a second value column's header, or NULL */
    bool send_per_rank;  /* sbuf holds max_size bytes for each rank, not once (alltoall) */
    bool recv_per_rank;  /* rbuf holds max_size bytes for each rank (allgather, gather) */
    bool nonblocking;    /* a nonblocking collective: -c (overlap) applies */
};

/* One run's settings and buffers, filled by bench_setup. */
struct bench {
    const struct bench_spec *spec;
    int rank;
    int nranks;
    size_t min_size; /* -m MIN:MAX, bytes */
    size_t max_size;
    int iterations; /* -i; 0 when not given (OSU's default by size) */
    int warmup;     /* -x; -1 when not given */
    int window;     /* -W; 64 by default, bandwidth kinds only */
    bool full;      /* -f: collective kinds print min, max and iterations too */
    bool overlap;   /* -c: nonblocking collectives measure overlap with computation too */
    char *sbuf;     /* page-aligned, max_size bytes (one page at least), touched; times the
                       number of ranks when the spec says per rank */
    char *rbuf;
    MPI_Request *requests; /* 2 * window requests */
    MPI_Status *statuses;  /* 2 * window statuses: MPICH's MPI_STATUSES_IGNORE upsets gcc 12 */
};

/*
 * Reads the command line, checks the number of ranks, allocates and touches the buffers and,
 * on rank 0, prints the header lines.  Returns BENCH_RUN, or the status main must return after
 * bench_teardown and MPI_Finalize (help printed, or an error printed by rank 0 to stderr).
 * A rank that cannot allocate its buffers calls MPI_Abort, since the others would wait for it.
 */
enum bench_status bench_setup(struct bench *b, const struct bench_spec *spec, int argc,
                              char **argv);

/* Frees what bench_setup allocated; safe whatever bench_setup returned. */
void bench_teardown(struct bench *b);

/* The size after SIZE in the sweep from min_size: 0, 1, 2, 4, ... (OSU's doubling). */
size_t bench_next_size(size_t size);

/* Timed iterations and warm-up iterations for SIZE: -i / -x, or OSU's defaults. */
int bench_iterations(const struct bench *b, size_t size);
int bench_warmup(const struct bench *b, size_t size);

/* Waits until every rank has called it (dissemination barrier over MPI_Sendrecv). */
void bench_barrier(const struct bench *b);

/*
 * Rank 0 only: prints one data row, the size right-aligned then each value with 2 decimals
 * (value2 only when the spec has a second column), and flushes stdout.
 */
void bench_print_row(const struct bench *b, size_t size, double value, double value2);

#endif
