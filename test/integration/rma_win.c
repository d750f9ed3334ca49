/*
 * rma_win.c - integration test of window objects: MPI_Win_get_group, names (the default is
 * empty), info hints (no_locks, accumulate_ordering, accumulate_ops, same_size,
 * same_disp_unit) and MPI_Win_get_info/set_info, the attributes MPI_WIN_BASE, SIZE, DISP_UNIT,
 * CREATE_FLAVOR and MODEL of every flavor, user keyvals (the delete callback runs at
 * MPI_Win_delete_attr and at MPI_Win_free), error handlers (create, set, get, call,
 * MPI_ERRORS_RETURN), MPI_Win_shared_query (MPI_PROC_NULL too) with alloc_shared_noncontig and
 * a zero-size segment, zero-size windows, and MPI_Win_c2f/f2c.
 *
 *   rma_win     (any number of ranks >= 1)
 *
 * Plain portable MPI-3.1: it checks only what the standard guarantees (an MPI may drop hints,
 * so get_info is checked for validity, not content).  Prints "rma_win R: ok" per rank, or
 * "FAIL: rma_win rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "rma_win";
static int rank, size;

#include "rma_check.h"

static int deleted, delete_value;
static int handled, handled_code;

static int count_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win;
    (void)keyval;
    deleted++;
    delete_value = *(int *)value;
    CHECK(*(int *)extra == 42);
    return MPI_SUCCESS;
}

static void record_error(MPI_Win *win, int *code, ...)
{
    (void)win;
    handled++;
    handled_code = *code;
}

static void check_attrs(MPI_Win win, void *base, MPI_Aint bytes, int unit, int flavor,
                        const char *what)
{
    void *got_base;
    MPI_Aint *got_size;
    int *got_unit, *got_flavor, *got_model, flag;

    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &got_base, &flag));
    if (!flag || got_base != base) {
        fail(__LINE__, "%s: MPI_WIN_BASE %p (flag %d), expected %p", what, got_base, flag, base);
    }
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &got_size, &flag));
    if (!flag || *got_size != bytes) {
        fail(__LINE__, "%s: MPI_WIN_SIZE %ld, expected %ld", what, (long)*got_size, (long)bytes);
    }
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &got_unit, &flag));
    if (!flag || *got_unit != unit) {
        fail(__LINE__, "%s: MPI_WIN_DISP_UNIT %d, expected %d", what, *got_unit, unit);
    }
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &got_flavor, &flag));
    if (!flag || *got_flavor != flavor) {
        fail(__LINE__, "%s: MPI_WIN_CREATE_FLAVOR %d, expected %d", what, *got_flavor, flavor);
    }
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &got_model, &flag));
    if (!flag || (*got_model != MPI_WIN_UNIFIED && *got_model != MPI_WIN_SEPARATE)) {
        fail(__LINE__, "%s: MPI_WIN_MODEL %d is neither unified nor separate", what, *got_model);
    }
    if (flavor == MPI_WIN_FLAVOR_SHARED && *got_model != MPI_WIN_UNIFIED) {
        fail(__LINE__, "%s: MPI_WIN_MODEL %d, expected MPI_WIN_UNIFIED", what, *got_model);
    }
}

static void test_flavors(bool shared)
{
    MPI_Win win;
    void *base;
    int *mem = malloc(64);

    CHECK(mem != NULL);
    CHECK_MPI(MPI_Win_create(mem, 64, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(win, mem, 64, 4, MPI_WIN_FLAVOR_CREATE, "MPI_Win_create");
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL);
    CHECK_MPI(MPI_Win_allocate(128, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    check_attrs(win, base, 128, 8, MPI_WIN_FLAVOR_ALLOCATE, "MPI_Win_allocate");
    CHECK_MPI(MPI_Win_free(&win));
    if (shared) {
        CHECK_MPI(MPI_Win_allocate_shared(96, 2, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
        check_attrs(win, base, 96, 2, MPI_WIN_FLAVOR_SHARED, "MPI_Win_allocate_shared");
        CHECK_MPI(MPI_Win_free(&win));
    }
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, "MPI_Win_create_dynamic");
    CHECK_MPI(MPI_Win_free(&win));

    /* Zero-size windows work, and a zero-count put to one is fine. */
    CHECK_MPI(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(mem, 0, MPI_INT, (rank + 1) % size, 0, 0, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Win_allocate(0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_free(&win));
    free(mem);
}

static void test_group_name_c2f(void)
{
    MPI_Win win;
    MPI_Group group, world;
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1, cmp;
    void *base;
    MPI_Fint f;

    CHECK_MPI(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_get_group(win, &group));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_compare(group, world, &cmp));
    CHECK(cmp == MPI_IDENT);
    CHECK_MPI(MPI_Group_free(&group));
    CHECK_MPI(MPI_Group_free(&world));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    if (len != 0 || name[0] != '\0') {
        fail(__LINE__, "default window name is '%s' (%d), expected empty", name, len);
    }
    CHECK_MPI(MPI_Win_set_name(win, "one-sided window"));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(len == 16 && strcmp(name, "one-sided window") == 0);
    f = MPI_Win_c2f(win);
    CHECK(MPI_Win_f2c(f) == win);
    CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL);
    CHECK_MPI(MPI_Win_free(&win));
}

static void test_info(void)
{
    MPI_Info info, got;
    MPI_Win win;
    void *base;
    int nkeys, flag, value = rank + 100, sum = 0;
    char key[MPI_MAX_INFO_KEY + 1], v[MPI_MAX_INFO_VAL + 1];

    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "no_locks", "true"));
    CHECK_MPI(MPI_Info_set(info, "accumulate_ordering", "none"));
    CHECK_MPI(MPI_Info_set(info, "accumulate_ops", "same_op"));
    CHECK_MPI(MPI_Info_set(info, "same_size", "true"));
    CHECK_MPI(MPI_Info_set(info, "same_disp_unit", "true"));
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Info_free(&info));
    /* The hints hold: fence only (no_locks), one op on a location (same_op). */
    *(int *)base = 0;
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int r = 0; r < size; r++) {
        CHECK_MPI(MPI_Accumulate(&value, 1, MPI_INT, r, 0, 1, MPI_INT, MPI_SUM, win));
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int r = 0; r < size; r++) {
        sum += r + 100;
    }
    CHECK(*(int *)base == sum);
    CHECK_MPI(MPI_Win_get_info(win, &got));
    CHECK_MPI(MPI_Info_get_nkeys(got, &nkeys));
    for (int k = 0; k < nkeys; k++) {
        CHECK_MPI(MPI_Info_get_nthkey(got, k, key));
        CHECK_MPI(MPI_Info_get(got, key, MPI_MAX_INFO_VAL, v, &flag));
        CHECK(flag);
    }
    CHECK_MPI(MPI_Info_free(&got));
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "accumulate_ordering", "rar,raw,war,waw"));
    CHECK_MPI(MPI_Win_set_info(win, info));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Win_get_info(win, &got));
    CHECK(got != MPI_INFO_NULL);
    CHECK_MPI(MPI_Info_free(&got));
    CHECK_MPI(MPI_Win_free(&win));
}

static void test_keyvals(void)
{
    MPI_Win win;
    void *base, *got;
    int keyval, extra = 42, a = 7, b = 8, flag;

    CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &keyval, &extra));
    CHECK_MPI(MPI_Win_get_attr(win, keyval, &got, &flag));
    CHECK(!flag);
    CHECK_MPI(MPI_Win_set_attr(win, keyval, &a));
    CHECK_MPI(MPI_Win_get_attr(win, keyval, &got, &flag));
    CHECK(flag && got == &a);
    /* Replacing a value deletes the old one. */
    CHECK_MPI(MPI_Win_set_attr(win, keyval, &b));
    CHECK(deleted == 1 && delete_value == 7);
    CHECK_MPI(MPI_Win_delete_attr(win, keyval));
    CHECK(deleted == 2 && delete_value == 8);
    CHECK_MPI(MPI_Win_get_attr(win, keyval, &got, &flag));
    CHECK(!flag);
    CHECK_MPI(MPI_Win_set_attr(win, keyval, &a));
    /* A freed keyval stays usable until the window that holds it is freed. */
    CHECK_MPI(MPI_Win_free_keyval(&keyval));
    CHECK(keyval == MPI_KEYVAL_INVALID);
    CHECK(deleted == 2);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(deleted == 3 && delete_value == 7);
}

static void test_errhandlers(void)
{
    MPI_Win win;
    MPI_Errhandler eh, got;
    void *base;
    int rc, cls;

    CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_get_errhandler(win, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL);
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Win_create_errhandler(record_error, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    CHECK_MPI(MPI_Win_get_errhandler(win, &got));
    CHECK(got == eh);
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK(handled == 1 && handled_code == MPI_ERR_OTHER);
    /* An erroneous call goes to the handler too: a put to a rank outside the group. */
    CHECK_MPI(MPI_Win_fence(0, win));
    rc = MPI_Put(&rc, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(rc != MPI_SUCCESS && handled == 2);
    CHECK_MPI(MPI_Error_class(handled_code, &cls));
    CHECK(cls == MPI_ERR_RANK);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_fence(0, win));
    rc = MPI_Put(&rc, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(rc != MPI_SUCCESS && handled == 2);
    CHECK_MPI(MPI_Win_free(&win));
}

/* Rank r has (r + 1) * 8 ints, but rank 0 has none when there are several ranks. */
static void test_shared_query(bool noncontig)
{
    MPI_Info info;
    MPI_Win win;
    int *mine, *theirs, unit;
    MPI_Aint bytes, want = size > 1 && rank == 0 ? 0 : (rank + 1) * 8 * (MPI_Aint)sizeof(int);

    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", noncontig ? "true" : "false"));
    CHECK_MPI(MPI_Win_allocate_shared(want, sizeof(int), info, MPI_COMM_WORLD, &mine, &win));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (MPI_Aint i = 0; i < want / (MPI_Aint)sizeof(int); i++) {
        mine[i] = rank * 1000 + (int)i;
    }
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_sync(win));
    for (int r = 0; r < size; r++) {
        MPI_Aint rb = size > 1 && r == 0 ? 0 : (r + 1) * 8 * (MPI_Aint)sizeof(int);

        CHECK_MPI(MPI_Win_shared_query(win, r, &bytes, &unit, &theirs));
        if (bytes != rb || unit != (int)sizeof(int)) {
            fail(__LINE__, "shared_query of rank %d: %ld bytes, unit %d; expected %ld, %d", r,
                 (long)bytes, unit, (long)rb, (int)sizeof(int));
        }
        for (MPI_Aint i = 0; i < rb / (MPI_Aint)sizeof(int); i++) {
            CHECK(theirs[i] == r * 1000 + (int)i);
        }
    }
    /* MPI_PROC_NULL: the segment of the lowest rank with a non-zero size. */
    CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit, &theirs));
    CHECK(bytes == (size > 1 ? 2 : 1) * 8 * (MPI_Aint)sizeof(int));
    CHECK(theirs[0] == (size > 1 ? 1000 : 0));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    bool shared;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) {
        fail(__LINE__, "takes no arguments, got '%s'", argv[1]);
    }
    shared = rma_all_shared(MPI_COMM_WORLD);
    test_flavors(shared);
    test_group_name_c2f();
    test_info();
    test_keyvals();
    test_errhandlers();
    if (shared) {
        test_shared_query(false);
        test_shared_query(true);
    }
    MPI_Finalize();
    printf("%s %d: ok\n", prog, rank);
    return 0;
}
