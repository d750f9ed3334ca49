/*
 * rma_ops.c - integration test of every one-sided operation on every window flavor: MPI_Put,
 * MPI_Get, MPI_Accumulate with every predefined operation that applies to its type (and
 * MPI_REPLACE), MPI_Get_accumulate (and MPI_NO_OP), MPI_Fetch_and_op, MPI_Compare_and_swap,
 * and the request forms MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate; with derived
 * datatypes on either side (vector, indexed, struct, resized), MPI_2INT and MPI_DOUBLE_INT with
 * MAXLOC/MINLOC from every origin, transfers of LARGE-BYTES, zero counts and MPI_PROC_NULL
 * targets.  Windows come from MPI_Win_create, MPI_Win_allocate, MPI_Win_allocate_shared (only
 * when every rank shares one node) and MPI_Win_create_dynamic with attached memory.
 *
 *   rma_ops [LARGE-BYTES]     (default 1048580; any number of ranks >= 1)
 *
 * Each rank works on its right neighbour's window (the ring), and some on rank 0's; every
 * value is checked exactly.  Plain portable MPI-3.1.  Prints "rma_ops R: ok" per rank, or
 * "FAIL: rma_ops rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "rma_ops";
static int rank, size, right, left;

#include "rma_check.h"

enum {
    SLOT = 16,     /* elements per operation slot */
    SMALL = 32768, /* bytes of window before the large area */
    UNIT = 4,      /* disp_unit of the windows that have one */
};

static struct rma_win w;
static long large_ints;

static const char *where;
static void (*fill_hook)(void); /* what a test stores over fill()'s ints */

#define CHECK_EQ(got, want, what, i)                                                               \
    do {                                                                                           \
        if ((got) != (want)) {                                                                     \
            fail(__LINE__, "%s window: %s element %d is %g, expected %g", where, (what), (int)(i), \
                 (double)(got), (double)(want));                                                   \
        }                                                                                          \
    } while (0)

static int *ints(MPI_Aint byte)
{
    return (int *)(w.base + byte);
}

static MPI_Aint disp(int target, MPI_Aint byte)
{
    return rma_disp(&w, target, byte);
}

static int ival(int owner, int i)
{
    return owner * 100000 + i * 7 + 1;
}

/* Every rank's window is filled with ival(rank, i), as ints. */
static void fill(void)
{
    for (MPI_Aint i = 0; i < w.size / (MPI_Aint)sizeof(int); i++) {
        ints(0)[i] = ival(rank, (int)i);
    }
    if (fill_hook != NULL) {
        fill_hook();
    }
}

/* A fence phase: filled, then one access epoch between two fences. */
static void fence_begin(void)
{
    fill();
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win));
}

static void fence_end(void)
{
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
}

/* A passive phase: filled under a lock of our own, then every rank in lock_all. */
static void passive_begin(void)
{
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
    fill();
    CHECK_MPI(MPI_Win_unlock(rank, w.win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, w.win));
}

/* The origins are done; our own memory is read under a lock of our own (which makes the public
 * copy visible to loads in the separate model), and released before anyone refills. */
static void passive_end(void)
{
    CHECK_MPI(MPI_Win_unlock_all(w.win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w.win));
}

static void passive_done(void)
{
    CHECK_MPI(MPI_Win_unlock(rank, w.win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---- Put and Get, contiguous, small and large, zero count, MPI_PROC_NULL. */

static void test_put_get(void)
{
    int put[SLOT], get[SLOT], nul[SLOT];
    int *big = malloc(sizeof(int) * (size_t)large_ints);
    int *bigget = malloc(sizeof(int) * (size_t)large_ints);

    CHECK(big != NULL && bigget != NULL);
    for (int i = 0; i < SLOT; i++) {
        put[i] = -ival(rank, i);
        get[i] = nul[i] = -7;
    }
    for (long i = 0; i < large_ints; i++) {
        big[i] = (int)(i * 3 + rank);
        bigget[i] = -1;
    }
    fence_begin();
    CHECK_MPI(MPI_Put(put, SLOT, MPI_INT, right, disp(right, 0), SLOT, MPI_INT, w.win));
    CHECK_MPI(MPI_Get(get, SLOT, MPI_INT, right, disp(right, 256), SLOT, MPI_INT, w.win));
    CHECK_MPI(MPI_Put(big, (int)large_ints, MPI_INT, right, disp(right, SMALL), (int)large_ints,
                      MPI_INT, w.win));
    /* The large get reads the left neighbour's area after the large one, never written. */
    CHECK_MPI(MPI_Get(bigget, (int)large_ints, MPI_INT, left,
                      disp(left, SMALL + large_ints * (MPI_Aint)sizeof(int)), (int)large_ints,
                      MPI_INT, w.win));
    /* Zero counts touch nothing; MPI_PROC_NULL targets are no-ops. */
    CHECK_MPI(MPI_Put(put, 0, MPI_INT, right, disp(right, 512), 0, MPI_INT, w.win));
    CHECK_MPI(MPI_Get(nul, 0, MPI_INT, right, disp(right, 512), 0, MPI_INT, w.win));
    CHECK_MPI(MPI_Put(put, SLOT, MPI_INT, MPI_PROC_NULL, 0, SLOT, MPI_INT, w.win));
    CHECK_MPI(MPI_Get(nul, SLOT, MPI_INT, MPI_PROC_NULL, 0, SLOT, MPI_INT, w.win));
    fence_end();
    for (int i = 0; i < SLOT; i++) {
        CHECK_EQ(ints(0)[i], -ival(left, i), "put", i);
        CHECK_EQ(get[i], ival(right, 64 + i), "get", i);
        CHECK_EQ(nul[i], -7, "zero-count or MPI_PROC_NULL get", i);
        CHECK_EQ(ints(512)[i], ival(rank, 128 + i), "zero-count put target", i);
    }
    for (long i = 0; i < large_ints; i++) {
        CHECK_EQ(ints(SMALL)[i], (int)(i * 3 + left), "large put", i);
        CHECK_EQ(bigget[i], ival(left, (int)(SMALL / 4 + large_ints + i)), "large get", i);
    }
    free(big);
    free(bigget);
}

/* ---- Accumulate, Get_accumulate, Fetch_and_op: every op on the types it applies to. */

enum kind { K_INT, K_UNSIGNED, K_LONG_LONG, K_FLOAT, K_DOUBLE };

struct op_case {
    MPI_Op op;
    const char *name;
    unsigned kinds; /* bit per enum kind */
};

#define KB(k) (1u << (k))
#define K_ARITH (KB(K_INT) | KB(K_UNSIGNED) | KB(K_LONG_LONG) | KB(K_FLOAT) | KB(K_DOUBLE))
#define K_INTEGER (KB(K_INT) | KB(K_UNSIGNED) | KB(K_LONG_LONG))

static const struct op_case op_cases[] = {
    {MPI_SUM, "MPI_SUM", K_ARITH},         {MPI_PROD, "MPI_PROD", K_ARITH},
    {MPI_MAX, "MPI_MAX", K_ARITH},         {MPI_MIN, "MPI_MIN", K_ARITH},
    {MPI_BAND, "MPI_BAND", K_INTEGER},     {MPI_BOR, "MPI_BOR", K_INTEGER},
    {MPI_BXOR, "MPI_BXOR", K_INTEGER},     {MPI_LAND, "MPI_LAND", K_INTEGER},
    {MPI_LOR, "MPI_LOR", K_INTEGER},       {MPI_LXOR, "MPI_LXOR", K_INTEGER},
    {MPI_REPLACE, "MPI_REPLACE", K_ARITH}, {MPI_NO_OP, "MPI_NO_OP", K_ARITH},
};
enum { NOPS = sizeof(op_cases) / sizeof(op_cases[0]), NKINDS = 5 };

static MPI_Datatype kind_type(enum kind k)
{
    MPI_Datatype types[NKINDS] = {MPI_INT, MPI_UNSIGNED, MPI_LONG_LONG, MPI_FLOAT, MPI_DOUBLE};

    return types[k];
}

/* Values small enough that every product is exact; some zeros for the logical ops. */
static double tval(int owner, int i)
{
    return (double)((owner + i) % 5);
}

static double oval(int origin, int i, enum kind k)
{
    double v = (double)((origin * 3 + i) % 4);

    return k == K_FLOAT || k == K_DOUBLE ? v + 0.5 : v;
}

static double model(MPI_Op op, double a, double b)
{
    long long x = (long long)a, y = (long long)b;

    if (op == MPI_SUM) {
        return a + b;
    } else if (op == MPI_PROD) {
        return a * b;
    } else if (op == MPI_MAX) {
        return a > b ? a : b;
    } else if (op == MPI_MIN) {
        return a < b ? a : b;
    } else if (op == MPI_BAND) {
        return (double)(x & y);
    } else if (op == MPI_BOR) {
        return (double)(x | y);
    } else if (op == MPI_BXOR) {
        return (double)(x ^ y);
    } else if (op == MPI_LAND) {
        return (double)(x && y);
    } else if (op == MPI_LOR) {
        return (double)(x || y);
    } else if (op == MPI_LXOR) {
        return (double)(!x != !y);
    } else if (op == MPI_REPLACE) {
        return b;
    }
    return a; /* MPI_NO_OP */
}

static void store(void *buf, enum kind k, int i, double v)
{
    switch (k) {
    case K_INT:
        ((int *)buf)[i] = (int)v;
        break;
    case K_UNSIGNED:
        ((unsigned *)buf)[i] = (unsigned)(long long)v;
        break;
    case K_LONG_LONG:
        ((long long *)buf)[i] = (long long)v;
        break;
    case K_FLOAT:
        ((float *)buf)[i] = (float)v;
        break;
    case K_DOUBLE:
        ((double *)buf)[i] = v;
        break;
    }
}

static double load(const void *buf, enum kind k, int i)
{
    switch (k) {
    case K_INT:
        return ((const int *)buf)[i];
    case K_UNSIGNED:
        return ((const unsigned *)buf)[i];
    case K_LONG_LONG:
        return (double)((const long long *)buf)[i];
    case K_FLOAT:
        return ((const float *)buf)[i];
    case K_DOUBLE:
        return ((const double *)buf)[i];
    }
    return 0;
}

/* Slot of (op, kind): SLOT elements of 8 bytes each at most. */
static MPI_Aint slot_byte(int op, int k)
{
    return (MPI_Aint)(op * NKINDS + k) * SLOT * 8;
}

enum acc_form { ACC_PLAIN, ACC_GET, ACC_REQUEST, ACC_RGET };

static void fill_slots(void)
{
    for (int o = 0; o < NOPS; o++) {
        for (int k = 0; k < NKINDS; k++) {
            for (int i = 0; i < SLOT; i++) {
                store(w.base + slot_byte(o, k), (enum kind)k, i, tval(rank, i));
            }
        }
    }
}

static void test_accumulate(enum acc_form form)
{
    static char obuf[NOPS][NKINDS][SLOT * 8], rbuf[NOPS][NKINDS][SLOT * 8];
    int nulbuf[SLOT];
    MPI_Request reqs[NOPS * NKINDS + 2];
    int nreq = 0;
    bool passive = form == ACC_REQUEST || form == ACC_RGET;
    bool fetch = form == ACC_GET || form == ACC_RGET;
    const char *fname[] = {"MPI_Accumulate", "MPI_Get_accumulate", "MPI_Raccumulate",
                           "MPI_Rget_accumulate"};
    char what[96];

    CHECK((MPI_Aint)NOPS * NKINDS * SLOT * 8 <= SMALL);
    for (int o = 0; o < NOPS; o++) {
        for (int k = 0; k < NKINDS; k++) {
            for (int i = 0; i < SLOT; i++) {
                store(obuf[o][k], (enum kind)k, i, oval(rank, i, (enum kind)k));
                store(rbuf[o][k], (enum kind)k, i, -1);
            }
        }
    }
    for (int i = 0; i < SLOT; i++) {
        nulbuf[i] = -1;
    }
    fill_hook = fill_slots;
    if (passive) {
        passive_begin();
    } else {
        fence_begin();
    }
    fill_hook = NULL;
    for (int o = 0; o < NOPS; o++) {
        for (int k = 0; k < NKINDS; k++) {
            MPI_Datatype t = kind_type((enum kind)k);
            MPI_Aint d = disp(right, slot_byte(o, k));
            MPI_Op op = op_cases[o].op;

            if (!(op_cases[o].kinds & KB(k)) || (op == MPI_NO_OP && !fetch)) {
                continue;
            }
            switch (form) {
            case ACC_PLAIN:
                CHECK_MPI(MPI_Accumulate(obuf[o][k], SLOT, t, right, d, SLOT, t, op, w.win));
                break;
            case ACC_GET:
                CHECK_MPI(MPI_Get_accumulate(obuf[o][k], SLOT, t, rbuf[o][k], SLOT, t, right, d,
                                             SLOT, t, op, w.win));
                break;
            case ACC_REQUEST:
                CHECK_MPI(MPI_Raccumulate(obuf[o][k], SLOT, t, right, d, SLOT, t, op, w.win,
                                          &reqs[nreq++]));
                break;
            case ACC_RGET:
                CHECK_MPI(MPI_Rget_accumulate(obuf[o][k], SLOT, t, rbuf[o][k], SLOT, t, right, d,
                                              SLOT, t, op, w.win, &reqs[nreq++]));
                break;
            }
        }
    }
    /* Zero counts and MPI_PROC_NULL: nothing happens, the requests complete. */
    if (passive) {
        CHECK_MPI(MPI_Raccumulate(obuf[0][0], 0, MPI_INT, right, disp(right, SMALL), 0, MPI_INT,
                                  MPI_SUM, w.win, &reqs[nreq++]));
        CHECK_MPI(MPI_Rget_accumulate(obuf[0][0], SLOT, MPI_INT, nulbuf, SLOT, MPI_INT,
                                      MPI_PROC_NULL, 0, SLOT, MPI_INT, MPI_SUM, w.win,
                                      &reqs[nreq++]));
        CHECK_MPI(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
        passive_end();
    } else {
        CHECK_MPI(MPI_Accumulate(obuf[0][0], 0, MPI_INT, right, disp(right, SMALL), 0, MPI_INT,
                                 MPI_SUM, w.win));
        CHECK_MPI(MPI_Accumulate(obuf[0][0], SLOT, MPI_INT, MPI_PROC_NULL, 0, SLOT, MPI_INT,
                                 MPI_SUM, w.win));
        CHECK_MPI(MPI_Get_accumulate(obuf[0][0], SLOT, MPI_INT, nulbuf, SLOT, MPI_INT,
                                     MPI_PROC_NULL, 0, SLOT, MPI_INT, MPI_SUM, w.win));
        fence_end();
    }
    for (int o = 0; o < NOPS; o++) {
        for (int k = 0; k < NKINDS; k++) {
            bool used = (op_cases[o].kinds & KB(k)) && !(op_cases[o].op == MPI_NO_OP && !fetch);

            snprintf(what, sizeof(what), "%s %s type %d", fname[form], op_cases[o].name, k);
            for (int i = 0; i < SLOT; i++) {
                double want =
                    used ? model(op_cases[o].op, tval(rank, i), oval(left, i, (enum kind)k))
                         : tval(rank, i);
                double fetched = fetch && used ? tval(right, i) : -1;

                if (k == K_UNSIGNED && fetched < 0) {
                    fetched = 4294967295.0;
                }
                CHECK_EQ(load(w.base + slot_byte(o, k), (enum kind)k, i), want, what, i);
                CHECK_EQ(load(rbuf[o][k], (enum kind)k, i), fetched, what, i);
            }
        }
    }
    for (int i = 0; i < SLOT; i++) {
        CHECK_EQ(nulbuf[i], -1, "MPI_PROC_NULL get-accumulate result", i);
    }
    CHECK_EQ(ints(SMALL)[0], ival(rank, SMALL / 4), "zero-count accumulate target", 0);
    if (passive) {
        passive_done();
    }
}

/* ---- Fetch_and_op and Compare_and_swap, single elements. */

static double cas_double(int owner)
{
    return 1.5 + owner;
}

static long long cas_long(int owner)
{
    return ((long long)owner << 33) + 7;
}

static void fill_cas(void)
{
    memcpy(w.base + 64, &(double){cas_double(rank)}, sizeof(double));
    memcpy(w.base + 72, &(long long){cas_long(rank)}, sizeof(long long));
}

static void test_fetch_cas(void)
{
    int one = rank + 1, got[8], cmp, val;
    double dv = 0.25 * rank, dgot = -1;
    long long llv = -cas_long(rank), llgot = -1, llcmp = cas_long(right);
    double dtarget;

    fill_hook = fill_cas;
    fence_begin();
    fill_hook = NULL;
    /* Slots (ints) 0: SUM, 1: NO_OP, 2: REPLACE, 3: MAX, 4: BXOR, 5: CAS hit, 6: CAS miss;
     * doubles at byte 64: SUM; long long at byte 72: CAS hit. */
    CHECK_MPI(MPI_Fetch_and_op(&one, &got[0], MPI_INT, right, disp(right, 0), MPI_SUM, w.win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &got[1], MPI_INT, right, disp(right, 4), MPI_NO_OP, w.win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &got[2], MPI_INT, right, disp(right, 8), MPI_REPLACE, w.win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &got[3], MPI_INT, right, disp(right, 12), MPI_MAX, w.win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &got[4], MPI_INT, right, disp(right, 16), MPI_BXOR, w.win));
    cmp = ival(right, 5);
    val = -rank;
    CHECK_MPI(MPI_Compare_and_swap(&val, &cmp, &got[5], MPI_INT, right, disp(right, 20), w.win));
    cmp = ival(right, 6) + 1;
    CHECK_MPI(MPI_Compare_and_swap(&val, &cmp, &got[6], MPI_INT, right, disp(right, 24), w.win));
    CHECK_MPI(MPI_Fetch_and_op(&dv, &dgot, MPI_DOUBLE, right, disp(right, 64), MPI_SUM, w.win));
    CHECK_MPI(
        MPI_Compare_and_swap(&llv, &llcmp, &llgot, MPI_LONG_LONG, right, disp(right, 72), w.win));
    got[7] = -5;
    CHECK_MPI(MPI_Fetch_and_op(&one, &got[7], MPI_INT, MPI_PROC_NULL, 0, MPI_SUM, w.win));
    CHECK_MPI(MPI_Compare_and_swap(&val, &cmp, &got[7], MPI_INT, MPI_PROC_NULL, 0, w.win));
    fence_end();
    for (int i = 0; i < 7; i++) {
        CHECK_EQ(got[i], ival(right, i), "fetched value", i);
    }
    CHECK_EQ(got[7], -5, "MPI_PROC_NULL fetch result", 7);
    CHECK_EQ(ints(0)[0], ival(rank, 0) + left + 1, "Fetch_and_op MPI_SUM", 0);
    CHECK_EQ(ints(0)[1], ival(rank, 1), "Fetch_and_op MPI_NO_OP", 1);
    CHECK_EQ(ints(0)[2], left + 1, "Fetch_and_op MPI_REPLACE", 2);
    CHECK_EQ(ints(0)[3], ival(rank, 3), "Fetch_and_op MPI_MAX", 3);
    CHECK_EQ(ints(0)[4], ival(rank, 4) ^ (left + 1), "Fetch_and_op MPI_BXOR", 4);
    CHECK_EQ(ints(0)[5], -left, "Compare_and_swap that matched", 5);
    CHECK_EQ(ints(0)[6], ival(rank, 6), "Compare_and_swap that did not match", 6);
    memcpy(&dtarget, w.base + 64, sizeof(dtarget));
    CHECK_EQ(dgot, cas_double(right), "double Fetch_and_op result", 16);
    CHECK_EQ(dtarget, cas_double(rank) + 0.25 * left, "double Fetch_and_op MPI_SUM", 16);
    CHECK_EQ(llgot, cas_long(right), "long long Compare_and_swap result", 18);
    memcpy(&llgot, w.base + 72, sizeof(llgot));
    CHECK_EQ(llgot, -cas_long(left), "long long Compare_and_swap", 18);
}

/* ---- Derived datatypes on either side: every pair of layouts, Put, Get, Accumulate. */

struct layout {
    const char *name;
    MPI_Datatype type;
    int count;
    int n;       /* ints the count covers */
    int idx[64]; /* their offsets, in ints */
};

static struct layout layouts[5];
enum { NLAYOUTS = 5, LAYOUT_INTS = 80 };

static void layout_expand(struct layout *l, const int *base, int nbase, int count)
{
    MPI_Aint lb, extent;

    CHECK_MPI(MPI_Type_commit(&l->type));
    CHECK_MPI(MPI_Type_get_extent(l->type, &lb, &extent));
    l->count = count;
    l->n = 0;
    for (int c = 0; c < count; c++) {
        for (int j = 0; j < nbase; j++) {
            l->idx[l->n++] = (int)(c * extent / 4) + base[j];
        }
    }
    CHECK(l->n == 16);
    for (int j = 0; j < l->n; j++) {
        CHECK(l->idx[j] < LAYOUT_INTS);
    }
}

static void make_layouts(void)
{
    int vec[16], ind[8] = {0, 1, 2, 5, 9, 10, 11, 12}, str[8] = {1, 2, 6, 7, 8, 13, 14, 15};
    int blens[3] = {3, 1, 4}, bdis[3] = {0, 5, 9};
    int slens[3] = {2, 3, 3};
    MPI_Aint sdis[3] = {4, 24, 52};
    MPI_Datatype stypes[3] = {MPI_INT, MPI_INT, MPI_INT}, tmp;
    int res[1] = {0};

    for (int i = 0; i < 16; i++) {
        vec[i] = (i / 2) * 4 + i % 2;
    }
    layouts[0].name = "contiguous";
    layouts[0].type = MPI_INT;
    layouts[0].count = 16;
    layouts[0].n = 16;
    for (int i = 0; i < 16; i++) {
        layouts[0].idx[i] = i;
    }
    layouts[1].name = "vector";
    CHECK_MPI(MPI_Type_vector(8, 2, 4, MPI_INT, &layouts[1].type));
    layout_expand(&layouts[1], vec, 16, 1);
    layouts[2].name = "indexed";
    CHECK_MPI(MPI_Type_indexed(3, blens, bdis, MPI_INT, &layouts[2].type));
    layout_expand(&layouts[2], ind, 8, 2);
    layouts[3].name = "struct";
    CHECK_MPI(MPI_Type_create_struct(3, slens, sdis, stypes, &layouts[3].type));
    layout_expand(&layouts[3], str, 8, 2);
    layouts[4].name = "resized";
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 5 * sizeof(int), &tmp));
    layouts[4].type = tmp;
    layout_expand(&layouts[4], res, 1, 16);
}

static void free_layouts(void)
{
    for (int l = 1; l < NLAYOUTS; l++) {
        CHECK_MPI(MPI_Type_free(&layouts[l].type));
    }
}

static void test_datatypes(void)
{
    static int obuf[NLAYOUTS][NLAYOUTS][LAYOUT_INTS], gbuf[NLAYOUTS][NLAYOUTS][LAYOUT_INTS];
    /* Per pair: a put area, an accumulate area, a get area; LAYOUT_INTS ints each. */
    const MPI_Aint area = LAYOUT_INTS * 4, pair = 3 * area;
    char what[96];

    CHECK(NLAYOUTS * NLAYOUTS * pair <= SMALL);
    fence_begin();
    for (int a = 0; a < NLAYOUTS; a++) {
        for (int b = 0; b < NLAYOUTS; b++) {
            const struct layout *o = &layouts[a], *t = &layouts[b];
            MPI_Aint base = (a * NLAYOUTS + b) * pair;

            for (int i = 0; i < LAYOUT_INTS; i++) {
                obuf[a][b][i] = -ival(rank, i);
                gbuf[a][b][i] = -1;
            }
            CHECK_MPI(MPI_Put(obuf[a][b], o->count, o->type, right, disp(right, base), t->count,
                              t->type, w.win));
            CHECK_MPI(MPI_Accumulate(obuf[a][b], o->count, o->type, right, disp(right, base + area),
                                     t->count, t->type, MPI_SUM, w.win));
            CHECK_MPI(MPI_Get(gbuf[a][b], o->count, o->type, right, disp(right, base + 2 * area),
                              t->count, t->type, w.win));
        }
    }
    fence_end();
    for (int a = 0; a < NLAYOUTS; a++) {
        for (int b = 0; b < NLAYOUTS; b++) {
            const struct layout *o = &layouts[a], *t = &layouts[b];
            int base = (a * NLAYOUTS + b) * 3 * LAYOUT_INTS;
            int put[LAYOUT_INTS], acc[LAYOUT_INTS], get[LAYOUT_INTS];

            for (int i = 0; i < LAYOUT_INTS; i++) {
                put[i] = acc[i] = ival(rank, base + i);
                acc[i] = ival(rank, base + LAYOUT_INTS + i);
                get[i] = -1;
            }
            for (int j = 0; j < 16; j++) {
                put[t->idx[j]] = -ival(left, o->idx[j]);
                acc[t->idx[j]] += -ival(left, o->idx[j]);
                get[o->idx[j]] = ival(right, base + 2 * LAYOUT_INTS + t->idx[j]);
            }
            for (int i = 0; i < LAYOUT_INTS; i++) {
                snprintf(what, sizeof(what), "%s to %s put", o->name, t->name);
                CHECK_EQ(ints(0)[base + i], put[i], what, i);
                snprintf(what, sizeof(what), "%s to %s accumulate", o->name, t->name);
                CHECK_EQ(ints(0)[base + LAYOUT_INTS + i], acc[i], what, i);
                snprintf(what, sizeof(what), "%s from %s get", o->name, t->name);
                CHECK_EQ(gbuf[a][b][i], get[i], what, i);
            }
        }
    }
}

/* ---- MPI_2INT and MPI_DOUBLE_INT with MAXLOC and MINLOC from every origin to rank 0. */

struct double_int {
    double v;
    int i;
};

static int pair_value(int r, int i)
{
    return (r * 5 + i) % 3; /* ties between ranks: the lowest rank must win */
}

static void fill_pairs(void)
{
    int *t2 = ints(0);
    struct double_int *tdi = (struct double_int *)(w.base + 256);

    /* Bytes: 0 2INT MAXLOC, 128 2INT MINLOC, 256 DOUBLE_INT MAXLOC, 512 DOUBLE_INT MINLOC;
     * any origin beats the first value for MAXLOC, none for MINLOC. */
    for (int i = 0; i < SLOT; i++) {
        t2[2 * i] = -1;
        t2[2 * i + 1] = size;
        t2[32 + 2 * i] = 3;
        t2[32 + 2 * i + 1] = size;
        tdi[i].v = -1;
        tdi[i].i = size;
        tdi[16 + i].v = 3;
        tdi[16 + i].i = size;
    }
}

static void test_pairs(void)
{
    int two[SLOT][2];
    struct double_int di[SLOT];
    MPI_Aint lb, extent;
    int *t2 = ints(0);
    struct double_int *tdi = (struct double_int *)(w.base + 256);

    CHECK_MPI(MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &extent));
    CHECK(extent == sizeof(struct double_int));
    for (int i = 0; i < SLOT; i++) {
        two[i][0] = pair_value(rank, i);
        two[i][1] = rank;
        di[i].v = pair_value(rank, i) + 0.5;
        di[i].i = rank;
    }
    fill_hook = fill_pairs;
    fence_begin();
    fill_hook = NULL;
    CHECK_MPI(
        MPI_Accumulate(two, SLOT, MPI_2INT, 0, disp(0, 0), SLOT, MPI_2INT, MPI_MAXLOC, w.win));
    CHECK_MPI(
        MPI_Accumulate(two, SLOT, MPI_2INT, 0, disp(0, 128), SLOT, MPI_2INT, MPI_MINLOC, w.win));
    CHECK_MPI(MPI_Accumulate(di, SLOT, MPI_DOUBLE_INT, 0, disp(0, 256), SLOT, MPI_DOUBLE_INT,
                             MPI_MAXLOC, w.win));
    CHECK_MPI(MPI_Accumulate(di, SLOT, MPI_DOUBLE_INT, 0, disp(0, 512), SLOT, MPI_DOUBLE_INT,
                             MPI_MINLOC, w.win));
    fence_end();
    if (rank != 0) {
        return;
    }
    for (int i = 0; i < SLOT; i++) {
        int max = -1, maxr = size, min = 3, minr = size;

        for (int r = 0; r < size; r++) {
            int v = pair_value(r, i);

            if (v > max) {
                max = v;
                maxr = r;
            }
            if (v < min) {
                min = v;
                minr = r;
            }
        }
        CHECK_EQ(t2[2 * i], max, "MPI_2INT MPI_MAXLOC value", i);
        CHECK_EQ(t2[2 * i + 1], maxr, "MPI_2INT MPI_MAXLOC index", i);
        CHECK_EQ(t2[32 + 2 * i], min, "MPI_2INT MPI_MINLOC value", i);
        CHECK_EQ(t2[32 + 2 * i + 1], minr, "MPI_2INT MPI_MINLOC index", i);
        CHECK_EQ(tdi[i].v, max + 0.5, "MPI_DOUBLE_INT MPI_MAXLOC value", i);
        CHECK_EQ(tdi[i].i, maxr, "MPI_DOUBLE_INT MPI_MAXLOC index", i);
        CHECK_EQ(tdi[16 + i].v, min + 0.5, "MPI_DOUBLE_INT MPI_MINLOC value", i);
        CHECK_EQ(tdi[16 + i].i, minr, "MPI_DOUBLE_INT MPI_MINLOC index", i);
    }
}

/* ---- Request-based Put and Get, and a large accumulate, in a passive epoch. */

static void test_requests(void)
{
    int put[SLOT], get[SLOT], nul[SLOT];
    int *big = malloc(sizeof(int) * (size_t)large_ints);
    MPI_Request reqs[6];

    CHECK(big != NULL);
    for (int i = 0; i < SLOT; i++) {
        put[i] = -ival(rank, 1000 + i);
        get[i] = nul[i] = -3;
    }
    for (long i = 0; i < large_ints; i++) {
        big[i] = (int)(i % 1000) - rank;
    }
    passive_begin();
    CHECK_MPI(MPI_Rput(put, SLOT, MPI_INT, right, disp(right, 0), SLOT, MPI_INT, w.win, &reqs[0]));
    CHECK_MPI(
        MPI_Rget(get, SLOT, MPI_INT, right, disp(right, 256), SLOT, MPI_INT, w.win, &reqs[1]));
    CHECK_MPI(MPI_Raccumulate(big, (int)large_ints, MPI_INT, right, disp(right, SMALL),
                              (int)large_ints, MPI_INT, MPI_SUM, w.win, &reqs[2]));
    CHECK_MPI(MPI_Rput(put, SLOT, MPI_INT, MPI_PROC_NULL, 0, SLOT, MPI_INT, w.win, &reqs[3]));
    CHECK_MPI(MPI_Rget(nul, SLOT, MPI_INT, MPI_PROC_NULL, 0, SLOT, MPI_INT, w.win, &reqs[4]));
    CHECK_MPI(MPI_Rget(nul, 0, MPI_INT, right, disp(right, 0), 0, MPI_INT, w.win, &reqs[5]));
    CHECK_MPI(MPI_Waitall(6, reqs, MPI_STATUSES_IGNORE));
    /* An Rget's data is there once it completes, before the epoch ends. */
    for (int i = 0; i < SLOT; i++) {
        CHECK_EQ(get[i], ival(right, 64 + i), "MPI_Rget", i);
        CHECK_EQ(nul[i], -3, "MPI_PROC_NULL or zero-count MPI_Rget", i);
    }
    passive_end();
    for (int i = 0; i < SLOT; i++) {
        CHECK_EQ(ints(0)[i], -ival(left, 1000 + i), "MPI_Rput", i);
    }
    for (long i = 0; i < large_ints; i++) {
        CHECK_EQ(ints(SMALL)[i], ival(rank, (int)(SMALL / 4 + i)) + (int)(i % 1000) - left,
                 "large MPI_Raccumulate", i);
    }
    passive_done();
    free(big);
}

int main(int argc, char **argv)
{
    long large = 1048580;
    bool shared;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    if (argc > 1) {
        char *end;

        large = strtol(argv[1], &end, 10);
        if (*end != '\0' || large < 4 || large > (1L << 28)) {
            fail(__LINE__, "LARGE-BYTES '%s' is not a number of bytes from 4 to 2^28", argv[1]);
        }
    }
    large_ints = large / 8 * 2; /* doubles after the large area stay aligned */
    shared = rma_all_shared(MPI_COMM_WORLD);
    make_layouts();
    for (int f = 0; f < RMA_NFLAVORS; f++) {
        if (f == RMA_SHARED && !shared) {
            continue;
        }
        where = rma_flavor_name[f];
        /* The large area holds the large put and, after it, what the large get reads. */
        rma_win_make(&w, (enum rma_flavor)f, SMALL + 2 * large_ints * (MPI_Aint)sizeof(int), UNIT,
                     MPI_COMM_WORLD);
        test_put_get();
        test_accumulate(ACC_PLAIN);
        test_accumulate(ACC_GET);
        test_accumulate(ACC_REQUEST);
        test_accumulate(ACC_RGET);
        test_fetch_cas();
        test_datatypes();
        test_pairs();
        test_requests();
        rma_win_free(&w);
    }
    free_layouts();
    MPI_Finalize();
    printf("%s %d: ok\n", prog, rank);
    return 0;
}
