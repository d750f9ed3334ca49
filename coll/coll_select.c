/*
 * coll_select.c - choosing a collective algorithm, and the COMM_COLL_<OP> settings that force
 * one.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/allgather/allgather.h"
#include "coll/allreduce/allreduce.h"
#include "coll/alltoall/alltoall.h"
#include "coll/barrier/barrier.h"
#include "coll/bcast/bcast.h"
#include "coll/coll.h"
#include "coll/gather/gather.h"
#include "coll/hier/hier.h"
#include "coll/reduce/reduce.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/scan/scan.h"
#include "coll/scatter/scatter.h"
#include "coll/shm/coll_shm.h"
#include "runtime/comm/communicator.h"
#include "base/error.h"
#include "base/log.h"
#include "runtime/op/op.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct coll_family {
    const char *op; /* "allreduce" */
    const struct comm_coll_algorithm *algorithms;
    const size_t *nalgorithms;
    size_t (*choose)(const struct comm_coll_call *call);
};

static const struct coll_family coll_families[] = {
    {"barrier", comm_coll_barrier_algorithms, &comm_coll_barrier_nalgorithms,
     comm_coll_barrier_choose},
    {"bcast", comm_coll_bcast_algorithms, &comm_coll_bcast_nalgorithms, comm_coll_bcast_choose},
    {"reduce", comm_coll_reduce_algorithms, &comm_coll_reduce_nalgorithms, comm_coll_reduce_choose},
    {"allreduce", comm_coll_allreduce_algorithms, &comm_coll_allreduce_nalgorithms,
     comm_coll_allreduce_choose},
    {"gather", comm_coll_gather_algorithms, &comm_coll_gather_nalgorithms, comm_coll_gather_choose},
    {"scatter", comm_coll_scatter_algorithms, &comm_coll_scatter_nalgorithms,
     comm_coll_scatter_choose},
    {"allgather", comm_coll_allgather_algorithms, &comm_coll_allgather_nalgorithms,
     comm_coll_allgather_choose},
    {"alltoall", comm_coll_alltoall_algorithms, &comm_coll_alltoall_nalgorithms,
     comm_coll_alltoall_choose},
    {"reduce_scatter", comm_coll_reduce_scatter_algorithms, &comm_coll_reduce_scatter_nalgorithms,
     comm_coll_reduce_scatter_choose},
    {"scan", comm_coll_scan_algorithms, &comm_coll_scan_nalgorithms, comm_coll_scan_choose},
};

static int coll_check_barrier(const char *value, char *expected_out, size_t len);
static int coll_check_bcast(const char *value, char *expected_out, size_t len);
static int coll_check_reduce(const char *value, char *expected_out, size_t len);
static int coll_check_allreduce(const char *value, char *expected_out, size_t len);
static int coll_check_gather(const char *value, char *expected_out, size_t len);
static int coll_check_scatter(const char *value, char *expected_out, size_t len);
static int coll_check_allgather(const char *value, char *expected_out, size_t len);
static int coll_check_alltoall(const char *value, char *expected_out, size_t len);
static int coll_check_reduce_scatter(const char *value, char *expected_out, size_t len);
static int coll_check_scan(const char *value, char *expected_out, size_t len);

static const struct comm_setting coll_settings[] = {
    {.name = "COMM_COLL_BARRIER",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "barrier algorithm: auto, dissemination, shm or hier",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_barrier},
    {.name = "COMM_COLL_BCAST",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "broadcast algorithm: auto, binomial, scatter_allgather, chain, shm or hier",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_bcast},
    {.name = "COMM_COLL_REDUCE",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "reduce algorithm: auto, binomial, reduce_scatter_gather, shm or hier",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_reduce},
    {.name = "COMM_COLL_ALLREDUCE",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "allreduce algorithm: auto, recursive_doubling, reduce_bcast, rabenseifner, ring, "
             "shm or hier",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_allreduce},
    {.name = "COMM_COLL_GATHER",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "gather algorithm (MPI_Gather, MPI_Gatherv): auto, linear, binomial or hier",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_gather},
    {.name = "COMM_COLL_SCATTER",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "scatter algorithm (MPI_Scatter, MPI_Scatterv): auto, linear, binomial or hier",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_scatter},
    {.name = "COMM_COLL_ALLGATHER",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "allgather algorithm (MPI_Allgather, MPI_Allgatherv): auto, ring, "
             "recursive_doubling, bruck or hier",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_allgather},
    {.name = "COMM_COLL_ALLTOALL",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "all-to-all algorithm (MPI_Alltoall, v and w): auto, pairwise or bruck",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_alltoall},
    {.name = "COMM_COLL_REDUCE_SCATTER",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "reduce-scatter algorithm (and _block): auto, reduce_scatterv, recursive_halving, "
             "ring or hier",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_reduce_scatter},
    {.name = "COMM_COLL_SCAN",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "prefix reduction algorithm (MPI_Scan, MPI_Exscan): auto or recursive_doubling",
     .audience = COMM_AUDIENCE_TUNER,
     .check = coll_check_scan},
    /* The hierarchy's floors (coll/hier/hier.h), in the order of enum comm_coll_hier_floor. */
    {.name = "COMM_COLL_HIER_ALLREDUCE_MIN",
     .type = COMM_SETTING_INT,
     .default_value = "1024",
     .min = 0,
     .max = 1L << 40,
     .help = "bytes from which auto runs allreduce over the hierarchy when a topology file "
             "spans racks",
     .audience = COMM_AUDIENCE_TUNER},
    {.name = "COMM_COLL_HIER_BCAST_MIN",
     .type = COMM_SETTING_INT,
     .default_value = "65536",
     .min = 0,
     .max = 1L << 40,
     .help = "bytes from which auto runs bcast over the hierarchy when a topology file spans "
             "racks",
     .audience = COMM_AUDIENCE_TUNER},
    {.name = "COMM_COLL_HIER_REDUCE_MIN",
     .type = COMM_SETTING_INT,
     .default_value = "65536",
     .min = 0,
     .max = 1L << 40,
     .help = "bytes from which auto runs reduce over the hierarchy when a topology file spans "
             "racks",
     .audience = COMM_AUDIENCE_TUNER},
    {.name = "COMM_COLL_HIER_RAILS_MIN",
     .type = COMM_SETTING_INT,
     .default_value = "1048576",
     .min = 0,
     .max = 1L << 40,
     .help = "bytes (for allgather, of the result) from which hier allreduce, bcast, reduce and "
             "allgather send every rank's slice across the levels (the rails) instead of the "
             "leaders' whole vector, when every host holds as many ranks",
     .audience = COMM_AUDIENCE_TUNER},
    {.name = "COMM_COLL_HIER_ALLGATHER_MIN",
     .type = COMM_SETTING_INT,
     .default_value = "1024",
     .min = 0,
     .max = 1L << 40,
     .help = "bytes a rank contributes from which auto runs allgather over the hierarchy when a "
             "topology file spans racks",
     .audience = COMM_AUDIENCE_TUNER},
    {.name = "COMM_COLL_HIER_REDUCE_SCATTER_MIN",
     .type = COMM_SETTING_INT,
     .default_value = "65536",
     .min = 0,
     .max = 1L << 40,
     .help = "bytes of the whole vector from which auto runs reduce-scatter over the hierarchy "
             "when a topology file spans racks",
     .audience = COMM_AUDIENCE_TUNER},
    /* After the floors: coll/shm's (comm_coll_shm_lazy). */
    {.name = "COMM_COLL_SHM_LAZY",
     .type = COMM_SETTING_INT,
     .default_value = "64",
     .min = 0,
     .max = 1L << 30,
     .help = "small collectives (barriers, and broadcasts and reductions of up to 112 bytes) a "
             "communicator on one host runs with messages before it sets up its shared-memory "
             "segment; 0 sets it up at the first collective",
     .audience = COMM_AUDIENCE_TUNER},
};

const struct comm_setting_table comm_coll_settings = {
    .component = "coll",
    .count = sizeof(coll_settings) / sizeof(coll_settings[0]),
    .settings = coll_settings,
};

static int coll_check(int family, const char *value, char *expected_out, size_t len)
{
    const struct coll_family *f = &coll_families[family];
    size_t used;

    if (strcmp(value, "auto") == 0) {
        return COMM_OK;
    }
    for (size_t i = 0; i < *f->nalgorithms; i++) {
        if (strcmp(value, f->algorithms[i].name) == 0) {
            return COMM_OK;
        }
    }
    used = (size_t)snprintf(expected_out, len, "auto");
    for (size_t i = 0; i < *f->nalgorithms && used < len; i++) {
        used += (size_t)snprintf(expected_out + used, len - used, "%s%s",
                                 i + 1 == *f->nalgorithms ? " or " : ", ", f->algorithms[i].name);
    }
    return COMM_ERR_BAD_PARAM;
}

static int coll_check_barrier(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_BARRIER, value, expected_out, len);
}

static int coll_check_bcast(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_BCAST, value, expected_out, len);
}

static int coll_check_reduce(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_REDUCE, value, expected_out, len);
}

static int coll_check_allreduce(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_ALLREDUCE, value, expected_out, len);
}

static int coll_check_gather(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_GATHER, value, expected_out, len);
}

static int coll_check_scatter(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_SCATTER, value, expected_out, len);
}

static int coll_check_allgather(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_ALLGATHER, value, expected_out, len);
}

static int coll_check_alltoall(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_ALLTOALL, value, expected_out, len);
}

static int coll_check_reduce_scatter(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_REDUCE_SCATTER, value, expected_out, len);
}

static int coll_check_scan(const char *value, char *expected_out, size_t len)
{
    return coll_check(COMM_COLL_SCAN, value, expected_out, len);
}

/* Why algorithm A cannot serve CALL, or NULL when it can. */
static const char *coll_refusal(const struct comm_coll_algorithm *a,
                                const struct comm_coll_call *call)
{
    int size = call->comm->size;

    if ((a->restrictions & COMM_COLL_UNIFORM_ONLY) && !call->uniform) {
        return "it serves only the plain (non-v) form";
    }
    if ((a->restrictions & COMM_COLL_COMMUTATIVE_ONLY) && call->op != NULL &&
        !call->op->commutative) {
        return "it needs a commutative operation";
    }
    if ((a->restrictions & COMM_COLL_POW2_ONLY) && (size & (size - 1)) != 0) {
        return "it needs a power-of-two communicator size";
    }
    if ((a->restrictions & COMM_COLL_HOST_LOCAL_ONLY) && !call->comm->host_local) {
        return "it needs every member on this host";
    }
    if ((a->restrictions & COMM_COLL_HOST_LOCAL_ONLY) && !comm_coll_shm_allowed(call->comm)) {
        return "shared memory is off (COMM_SHM=0)";
    }
    if ((a->restrictions & COMM_COLL_MULTI_HOST_ONLY) && !comm_coll_hier_applies(call->comm)) {
        return call->comm->hier_stage ? "it runs the stages of a hierarchy itself"
                                      : "it needs members on more than one host";
    }
    return NULL;
}

/* What COMM_COLL_<OP> forces, per family, read at the family's first call (the environment
 * is a job's fixed input, and a lookup per call costs a scan of it): 0 not read yet, 1 auto,
 * else the algorithm's index + 2.  Read without a lock: two threads that both read the
 * setting store the same value. */
enum { COLL_FORCED_UNREAD, COLL_FORCED_AUTO, COLL_FORCED_FIRST };
static _Atomic int coll_forced[COMM_COLL_NFAMILIES];

static int coll_forced_read(enum comm_coll_family family)
{
    const struct coll_family *f = &coll_families[family];
    const char *value = comm_config_value(&coll_settings[family]);
    int forced = COLL_FORCED_AUTO;

    for (size_t i = 0; i < *f->nalgorithms; i++) {
        if (strcmp(value, f->algorithms[i].name) == 0) {
            forced = COLL_FORCED_FIRST + (int)i;
            break;
        }
    }
    atomic_store_explicit(&coll_forced[family], forced, memory_order_relaxed);
    return forced;
}

static const struct comm_coll_algorithm *coll_select(enum comm_coll_family family,
                                                     const struct comm_coll_call *call)
{
    const struct coll_family *f = &coll_families[family];
    const struct comm_coll_algorithm *chosen = &f->algorithms[f->choose(call)];
    const struct comm_coll_algorithm *forced;
    int index = atomic_load_explicit(&coll_forced[family], memory_order_relaxed);
    const char *why;

    if (index == COLL_FORCED_UNREAD) {
        index = coll_forced_read(family);
    }
    if (index == COLL_FORCED_AUTO) {
        return chosen;
    }
    forced = &f->algorithms[index - COLL_FORCED_FIRST];
    why = coll_refusal(forced, call);
    if (why == NULL) {
        return forced;
    }
    comm_log_debug("coll", "%s=%s cannot serve this call (%s): %s serves it",
                   coll_settings[family].name, forced->name, why, chosen->name);
    return chosen;
}

const struct comm_coll_algorithm *comm_coll_select(enum comm_coll_family family,
                                                   const struct comm_coll_call *call)
{
    const struct comm_coll_algorithm *a = coll_select(family, call);

    /* The communicator's first call of each family says what it runs (at info). */
    if ((call->comm->coll_logged & (1u << family)) == 0) {
        comm_coll_hier_log_choice((struct comm_communicator *)(uintptr_t)call->comm, family,
                                  a->name);
    }
    return a;
}

/* The floors, read at their first use (the environment is fixed); -1: not read yet. */
static _Atomic long coll_hier_floors[COMM_COLL_HIER_NFLOORS] = {-1, -1, -1, -1, -1, -1};

/* The integer setting coll_settings[INDEX], read at its first use into *CACHE (-1 until then:
 * the environment is fixed). */
static long coll_int_setting(_Atomic long *cache, size_t index)
{
    long v = atomic_load_explicit(cache, memory_order_relaxed);

    if (v < 0) {
        /* Checked at MPI_Init with every setting: a malformed value never gets here. */
        if (comm_config_get_int(&coll_settings[index], &v) < 0) {
            v = 0;
        }
        atomic_store_explicit(cache, v, memory_order_relaxed);
    }
    return v;
}

size_t comm_coll_hier_floor(enum comm_coll_hier_floor which)
{
    return (size_t)coll_int_setting(&coll_hier_floors[which], COMM_COLL_NFAMILIES + which);
}

/* -1: not read yet. */
static _Atomic long coll_shm_lazy = -1;

unsigned comm_coll_shm_lazy(void)
{
    return (unsigned)coll_int_setting(&coll_shm_lazy, COMM_COLL_NFAMILIES + COMM_COLL_HIER_NFLOORS);
}

bool comm_coll_is_forced(enum comm_coll_family family)
{
    int index = atomic_load_explicit(&coll_forced[family], memory_order_relaxed);

    if (index == COLL_FORCED_UNREAD) {
        index = coll_forced_read(family);
    }
    return index != COLL_FORCED_AUTO;
}

const char *comm_coll_family_name(enum comm_coll_family family)
{
    return coll_families[family].op;
}

const struct comm_coll_algorithm *comm_coll_algorithm_at(enum comm_coll_family family, size_t index)
{
    const struct coll_family *f = &coll_families[family];

    return index < *f->nalgorithms ? &f->algorithms[index] : NULL;
}

const char *comm_coll_restrictions_text(unsigned restrictions, char *buf, size_t len)
{
    static const struct {
        unsigned flag;
        const char *text;
    } words[] = {
        {COMM_COLL_COMMUTATIVE_ONLY, "commutative operations"},
        {COMM_COLL_POW2_ONLY, "power-of-two sizes"},
        {COMM_COLL_UNIFORM_ONLY, "plain (non-v) calls"},
        {COMM_COLL_HOST_LOCAL_ONLY, "communicators within one host"},
        {COMM_COLL_MULTI_HOST_ONLY, "communicators across hosts"},
    };
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]) && used < len; i++) {
        if (restrictions & words[i].flag) {
            used +=
                (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", words[i].text);
        }
    }
    return buf;
}
