/*
 * coll_comm.c - integration test of communicator management: Comm_dup, Comm_idup and
 * Comm_dup_with_info; Comm_split with colors rank % 3, reversed keys and MPI_UNDEFINED for
 * some ranks; Comm_split_type(MPI_COMM_TYPE_SHARED); Comm_create and Comm_create_group from a
 * reversed Group_incl, and from MPI_GROUP_EMPTY; Comm_compare (IDENT, CONGRUENT, SIMILAR,
 * UNEQUAL); Comm_test_inter; Comm_set_name/get_name (defaults, truncation); Comm_set_info and
 * get_info (validity only: unknown hints may be dropped); Allgather, Bcast, Allreduce and
 * Barrier on every new communicator; 200 dup/free and mixed create/free orders; messages with
 * the same source and tag on congruent communicators matching only their own; attribute
 * keyvals with copy and delete callbacks counted through dup, idup, set, delete_attr, free
 * and free_keyval, MPI_COMM_NULL_COPY_FN and MPI_COMM_DUP_FN; the predefined attributes
 * MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE and MPI_APPNUM; and
 * MPI_Alloc_mem/Free_mem buffers used for messages.
 *
 * Plain portable MPI: it must pass on any correct MPI, so it asserts only what the standard
 * guarantees.  Any number of ranks >= 1.  Prints "coll_comm R: ok" per rank, or
 * "FAIL: coll_comm rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "coll_comm";
static int rank, size;

#include "p2p_check.h"

enum { TAG_X = 5, TAG_RING = 6, LOOP = 200 };

/* Members and order of a communicator, checked through an Allgather of world ranks (the
 * collective itself is the point of "collectives on each new communicator"), a Bcast from its
 * last rank and an Allreduce. */
static void check_members(MPI_Comm comm, int n, const int *world, const char *what)
{
    int me, got_n, *all, v, sum = 0, want_sum = 0;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &got_n);
    if (got_n != n || world[me] != rank) {
        fail(__LINE__, "%s: size %d rank %d, expected size %d and world rank %d at %d", what, got_n,
             me, n, rank, world[me]);
    }
    all = malloc(sizeof(int) * (size_t)n);
    CHECK(all != NULL);
    CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, comm));
    for (int i = 0; i < n; i++) {
        if (all[i] != world[i]) {
            fail(__LINE__, "%s: rank %d is world rank %d, expected %d", what, i, all[i], world[i]);
        }
        want_sum += world[i];
    }
    v = me == n - 1 ? 4242 + n : -1;
    CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, n - 1, comm));
    CHECK(v == 4242 + n);
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == want_sum);
    CHECK_MPI(MPI_Barrier(comm));
    free(all);
}

static int *world_order(void)
{
    int *w = malloc(sizeof(int) * (size_t)size);

    CHECK(w != NULL);
    for (int i = 0; i < size; i++) {
        w[i] = i;
    }
    return w;
}

static void test_dup(void)
{
    MPI_Comm d, d2, di, dw;
    MPI_Request req;
    MPI_Info info, used;
    int result, flag, nkeys, *w = world_order();

    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &result));
    CHECK(result == MPI_IDENT);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, d, &result));
    CHECK(result == MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_test_inter(d, &flag));
    CHECK(!flag);
    check_members(d, size, w, "dup");
    CHECK_MPI(MPI_Comm_dup(d, &d2));
    CHECK_MPI(MPI_Comm_compare(d, d2, &result));
    CHECK(result == MPI_CONGRUENT);
    check_members(d2, size, w, "dup of dup");

    CHECK_MPI(MPI_Comm_idup(d, &di, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_compare(d, di, &result));
    CHECK(result == MPI_CONGRUENT);
    check_members(di, size, w, "idup");

    /* Hints the library does not know may be ignored: only the calls' validity is checked. */
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "comm_test_hint", "yes"));
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dw));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dw, &result));
    CHECK(result == MPI_CONGRUENT);
    check_members(dw, size, w, "dup_with_info");
    CHECK_MPI(MPI_Comm_get_info(dw, &used));
    CHECK(used != MPI_INFO_NULL);
    CHECK_MPI(MPI_Info_get_nkeys(used, &nkeys));
    CHECK(nkeys >= 0);
    CHECK_MPI(MPI_Info_free(&used));
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "false"));
    CHECK_MPI(MPI_Comm_set_info(dw, info));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Comm_get_info(dw, &used));
    CHECK(used != MPI_INFO_NULL);
    CHECK_MPI(MPI_Info_free(&used));
    check_members(dw, size, w, "dup_with_info after set_info");

    CHECK_MPI(MPI_Comm_free(&dw));
    CHECK_MPI(MPI_Comm_free(&di));
    CHECK_MPI(MPI_Comm_free(&d2));
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(d == MPI_COMM_NULL && d2 == MPI_COMM_NULL && di == MPI_COMM_NULL);
    free(w);
}

/* Split by rank % 3 with keys reversing the order, ranks with rank % 4 == 3 left out. */
static void test_split(void)
{
    MPI_Comm c, same, halves;
    int color = rank % 4 == 3 ? MPI_UNDEFINED : rank % 3, n = 0, result;
    int *w = malloc(sizeof(int) * (size_t)size);

    CHECK(w != NULL);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, size - rank, &c));
    if (color == MPI_UNDEFINED) {
        CHECK(c == MPI_COMM_NULL);
    } else {
        for (int r = size - 1; r >= 0; r--) {
            if (r % 4 != 3 && r % 3 == color) {
                w[n++] = r;
            }
        }
        check_members(c, n, w, "split rank % 3, reversed");
        CHECK_MPI(MPI_Comm_free(&c));
    }
    /* Equal keys keep the old order; one color for all is the same group, reversed keys
     * make it similar (congruent with one rank). */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 7, 0, &same));
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, same, &result));
    CHECK(result == MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_free(&same));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 7, -rank, &same));
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, same, &result));
    CHECK(result == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT));
    CHECK_MPI(MPI_Comm_free(&same));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, 0, &halves));
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, halves, &result));
    CHECK(result == (size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT));
    CHECK_MPI(MPI_Comm_free(&halves));
    free(w);
}

static void test_split_type(void)
{
    MPI_Comm node, none;
    int n, me, flag, *all, last = -1;

    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    CHECK(node != MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_test_inter(node, &flag));
    CHECK(!flag);
    MPI_Comm_size(node, &n);
    MPI_Comm_rank(node, &me);
    CHECK(n >= 1 && n <= size && me < n);
    /* Equal keys: the ranks keep world's order. */
    all = malloc(sizeof(int) * (size_t)n);
    CHECK(all != NULL);
    CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, node));
    CHECK(all[me] == rank);
    for (int i = 0; i < n; i++) {
        CHECK(all[i] > last);
        last = all[i];
    }
    free(all);
    CHECK_MPI(MPI_Comm_free(&node));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED,
                                  0, MPI_INFO_NULL, &none));
    if (rank % 2) {
        CHECK(none == MPI_COMM_NULL);
    } else {
        CHECK(none != MPI_COMM_NULL);
        CHECK_MPI(MPI_Comm_free(&none));
    }
}

/* Comm_create (collective over world) and Comm_create_group (only the members call it) from
 * the even ranks in reverse order. */
static void test_create(void)
{
    MPI_Group wg, eg, cg;
    MPI_Comm c;
    int n = (size + 1) / 2, *ranks = malloc(sizeof(int) * (size_t)n), result;

    CHECK(ranks != NULL);
    for (int i = 0; i < n; i++) {
        ranks[i] = 2 * (n - 1 - i);
    }
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_MPI(MPI_Group_incl(wg, n, ranks, &eg));
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, eg, &c));
    if (rank % 2) {
        CHECK(c == MPI_COMM_NULL);
    } else {
        check_members(c, n, ranks, "create");
        CHECK_MPI(MPI_Comm_group(c, &cg));
        CHECK_MPI(MPI_Group_compare(cg, eg, &result));
        CHECK(result == MPI_IDENT);
        CHECK_MPI(MPI_Group_free(&cg));
        CHECK_MPI(MPI_Comm_free(&c));
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, eg, 99, &c));
        check_members(c, n, ranks, "create_group");
        CHECK_MPI(MPI_Comm_free(&c));
    }
    /* The empty group gives MPI_COMM_NULL everywhere. */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_COMM_NULL);
    CHECK_MPI(MPI_Group_free(&eg));
    CHECK_MPI(MPI_Group_free(&wg));
    free(ranks);
}

static void test_names(void)
{
    char name[MPI_MAX_OBJECT_NAME], longname[MPI_MAX_OBJECT_NAME + 50];
    int len;
    MPI_Comm d;

    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14);
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    CHECK(strcmp(name, "MPI_COMM_SELF") == 0 && len == 13);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &d));
    CHECK_MPI(MPI_Comm_get_name(d, name, &len));
    CHECK(len == 0 && name[0] == '\0');
    CHECK_MPI(MPI_Comm_set_name(d, "coll comm test"));
    CHECK_MPI(MPI_Comm_get_name(d, name, &len));
    CHECK(strcmp(name, "coll comm test") == 0 && len == 14);
    /* Too long a name is truncated to MPI_MAX_OBJECT_NAME - 1 characters. */
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    CHECK_MPI(MPI_Comm_set_name(d, longname));
    CHECK_MPI(MPI_Comm_get_name(d, name, &len));
    CHECK(len <= MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len && len > 0);
    CHECK(strncmp(name, longname, (size_t)len) == 0);
    CHECK_MPI(MPI_Comm_set_name(d, "renamed"));
    CHECK_MPI(MPI_Comm_get_name(d, name, &len));
    CHECK(strcmp(name, "renamed") == 0);
    CHECK_MPI(MPI_Comm_free(&d));
}

/* Many communicators created and freed in a row: context ids must be reused or plentiful. */
static void test_loop(void)
{
    MPI_Comm c[4];

    for (int i = 0; i < LOOP; i++) {
        int v = rank + i, sum = -1;

        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[0]));
        CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c[0]));
        CHECK(sum == size * (size - 1) / 2 + size * i);
        CHECK_MPI(MPI_Comm_free(&c[0]));
    }
    /* Several alive at once, freed in a different order than created. */
    for (int i = 0; i < LOOP / 4; i++) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[0]));
        CHECK_MPI(MPI_Comm_split(c[0], rank % 2, rank, &c[1]));
        CHECK_MPI(MPI_Comm_dup(c[1], &c[2]));
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &c[3]));
        CHECK_MPI(MPI_Barrier(c[(i + 1) % 4]));
        CHECK_MPI(MPI_Comm_free(&c[1]));
        CHECK_MPI(MPI_Comm_free(&c[3]));
        CHECK_MPI(MPI_Comm_free(&c[0]));
        CHECK_MPI(MPI_Comm_free(&c[2]));
    }
}

/* The same source and tag on three congruent communicators: each receive matches only its own
 * communicator's message, whatever order things are posted in. */
static void test_isolation(void)
{
    enum { NC = 3 };
    MPI_Comm c[NC];
    MPI_Request req[2 * NC];
    MPI_Status st;
    int in[NC], out[NC], flag, next = (rank + 1) % size, prev = (rank - 1 + size) % size;

    c[0] = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[1]));
    CHECK_MPI(MPI_Comm_dup(c[1], &c[2]));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NC; i++) {
            int j = round % 2 ? i : NC - 1 - i;

            CHECK_MPI(MPI_Irecv(&in[j], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c[j], &req[j]));
        }
        for (int i = 0; i < NC; i++) {
            out[i] = 1000 * round + 10 * i + rank;
            CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, next, TAG_X, c[i], &req[NC + i]));
        }
        CHECK_MPI(MPI_Waitall(2 * NC, req, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NC; i++) {
            CHECK(in[i] == 1000 * round + 10 * i + prev);
        }
    }
    /* A message that has arrived on c[1] is invisible to a probe on c[0] and c[2]. */
    out[0] = rank;
    CHECK_MPI(MPI_Isend(&out[0], 1, MPI_INT, next, TAG_X, c[1], &req[0]));
    CHECK_MPI(MPI_Probe(prev, TAG_X, c[1], &st));
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c[0], &flag, MPI_STATUS_IGNORE));
    CHECK(!flag);
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c[2], &flag, MPI_STATUS_IGNORE));
    CHECK(!flag);
    CHECK_MPI(MPI_Recv(&in[0], 1, MPI_INT, prev, TAG_X, c[1], MPI_STATUS_IGNORE));
    CHECK(in[0] == prev);
    CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    /* Collectives on the three interleaved with point-to-point traffic on the others. */
    for (int i = 0; i < NC; i++) {
        int v = rank * (i + 1), sum = -1;

        CHECK_MPI(MPI_Irecv(&in[0], 1, MPI_INT, prev, TAG_RING, c[(i + 1) % NC], &req[0]));
        CHECK_MPI(MPI_Isend(&out[1], 1, MPI_INT, next, TAG_RING, c[(i + 1) % NC], &req[1]));
        CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c[i]));
        CHECK(sum == (i + 1) * size * (size - 1) / 2);
        CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    }
    CHECK_MPI(MPI_Comm_free(&c[2]));
    CHECK_MPI(MPI_Comm_free(&c[1]));
}

/* Attribute callbacks: what they were called with, and how often. */
static int copies, deletes;
static int extra_token = 77;

static int copy_fn(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    (void)old;
    (void)key;
    CHECK(extra == &extra_token);
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm;
    (void)key;
    (void)value;
    CHECK(extra == &extra_token);
    deletes++;
    return MPI_SUCCESS;
}

static void test_attributes(void)
{
    static char base[8];
    int key, key_null, key_dup, flag;
    void *v;
    MPI_Comm a, b, c;
    MPI_Request req;

    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &key, &extra_token));
    CHECK_MPI(
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key_null, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key_dup, NULL));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_get_attr(a, key, &v, &flag));
    CHECK(!flag);
    CHECK_MPI(MPI_Comm_set_attr(a, key, base));
    CHECK_MPI(MPI_Comm_set_attr(a, key_null, base + 1));
    CHECK_MPI(MPI_Comm_set_attr(a, key_dup, base + 2));
    CHECK_MPI(MPI_Comm_get_attr(a, key, &v, &flag));
    CHECK(flag && v == base);
    CHECK(copies == 0 && deletes == 0);
    /* Replacing a value calls the delete callback on the old one. */
    CHECK_MPI(MPI_Comm_set_attr(a, key, base));
    CHECK(deletes == 1);

    CHECK_MPI(MPI_Comm_dup(a, &b));
    CHECK(copies == 1);
    CHECK_MPI(MPI_Comm_get_attr(b, key, &v, &flag));
    CHECK(flag && v == base + 1);
    CHECK_MPI(MPI_Comm_get_attr(b, key_null, &v, &flag));
    CHECK(!flag);
    CHECK_MPI(MPI_Comm_get_attr(b, key_dup, &v, &flag));
    CHECK(flag && v == base + 2);

    CHECK_MPI(MPI_Comm_idup(b, &c, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(copies == 2);
    CHECK_MPI(MPI_Comm_get_attr(c, key, &v, &flag));
    CHECK(flag && v == base + 2);

    CHECK_MPI(MPI_Comm_delete_attr(b, key));
    CHECK(deletes == 2);
    CHECK_MPI(MPI_Comm_get_attr(b, key, &v, &flag));
    CHECK(!flag);
    CHECK_MPI(MPI_Comm_free(&b));
    CHECK(deletes == 2);
    /* Freeing the keyval leaves attached values alone; their deletes still run at free. */
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(deletes == 3);
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK(deletes == 4 && copies == 2);
    CHECK_MPI(MPI_Comm_free_keyval(&key_null));
    CHECK_MPI(MPI_Comm_free_keyval(&key_dup));
}

static void test_predefined(void)
{
    int flag, *p, lo, hi;

    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag));
    CHECK(flag && *p >= 32767);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &p, &flag));
    CHECK(flag && (*p == MPI_PROC_NULL || (*p >= 0 && *p < size)));
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &p, &flag));
    CHECK(flag && (*p == MPI_ANY_SOURCE || *p == MPI_PROC_NULL || (*p >= 0 && *p < size)));
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &p, &flag));
    if (flag) {
        /* A boolean, the same on every rank. */
        CHECK(*p == 0 || *p == 1);
        CHECK_MPI(MPI_Allreduce(p, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Allreduce(p, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        CHECK(lo == hi);
    }
    /* Optional: may be absent. */
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &p, &flag));
    CHECK(!flag || *p >= 1);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &p, &flag));
    CHECK(!flag || *p >= 0);
}

static void test_alloc_mem(void)
{
    enum { BYTES = 1 << 20 };
    int *a, *b, n = BYTES / (int)sizeof(int), next = (rank + 1) % size,
                prev = (rank - 1 + size) % size;
    void *z;

    CHECK_MPI(MPI_Alloc_mem(BYTES, MPI_INFO_NULL, &a));
    CHECK_MPI(MPI_Alloc_mem(BYTES, MPI_INFO_NULL, &b));
    CHECK(a != NULL && b != NULL);
    for (int i = 0; i < n; i++) {
        a[i] = rank * 3 + i;
    }
    CHECK_MPI(MPI_Sendrecv(a, n, MPI_INT, next, TAG_RING, b, n, MPI_INT, prev, TAG_RING,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++) {
        CHECK(b[i] == prev * 3 + i);
    }
    CHECK_MPI(MPI_Free_mem(a));
    CHECK_MPI(MPI_Free_mem(b));
    CHECK_MPI(MPI_Alloc_mem(0, MPI_INFO_NULL, &z));
    CHECK_MPI(MPI_Free_mem(z));
}

/* Two MPI_Comm_idup outstanding at once on overlapping communicators, while a blocking split
 * of world and point-to-point traffic happen before they are waited for (an idup must not wait
 * for the others to arrive): the four communicators must each get a context of their own, so a
 * message sent on each with the same tag arrives only on that one. */
static void test_idup_overlap(void)
{
    MPI_Comm half, dup_world, dup_half, pairs, comms[4];
    MPI_Request reqs[2];
    int token = -1, names[4] = {100, 200, 300, 400};

    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup_world, &reqs[0]));
    CHECK_MPI(MPI_Comm_idup(half, &dup_half, &reqs[1]));
    /* Rank 1 waits for rank 0's message before it even reaches the split. */
    if (size > 1 && rank == 0) {
        token = 77;
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 1, TAG_X, MPI_COMM_WORLD));
    } else if (size > 1 && rank == 1) {
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, TAG_X, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(token == 77);
    }
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &pairs));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    comms[0] = dup_world;
    comms[1] = dup_half;
    comms[2] = pairs;
    comms[3] = half;
    /* On every communicator at once: a ring message with the same tag, naming its communicator. */
    for (int pass = 0; pass < 3; pass++) {
        MPI_Request rr[4], sr[4];
        int got[4], sent[4];

        for (int i = 0; i < 4; i++) {
            int me, n;

            MPI_Comm_rank(comms[i], &me);
            MPI_Comm_size(comms[i], &n);
            sent[i] = names[i] + pass;
            CHECK_MPI(MPI_Irecv(&got[i], 1, MPI_INT, (me + n - 1) % n, TAG_RING, comms[i], &rr[i]));
            CHECK_MPI(MPI_Isend(&sent[i], 1, MPI_INT, (me + 1) % n, TAG_RING, comms[i], &sr[i]));
        }
        CHECK_MPI(MPI_Waitall(4, sr, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Waitall(4, rr, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 4; i++) {
            if (got[i] != names[i] + pass) {
                fail(__LINE__, "communicator %d received %d, expected %d", i, got[i],
                     names[i] + pass);
            }
        }
    }
    for (int i = 0; i < 4; i++) {
        CHECK_MPI(MPI_Barrier(comms[i]));
        CHECK_MPI(MPI_Comm_free(&comms[i]));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    test_dup();
    test_idup_overlap();
    test_split();
    test_split_type();
    test_create();
    test_names();
    test_loop();
    test_isolation();
    test_attributes();
    test_predefined();
    test_alloc_mem();

    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
