/*
 * coll_settings.c - COMM_COLL_<OP>: the settings that force a collective algorithm, checked
 * against the registry's names, and what each forces.
 *
 * Layer: coll.  Must not: choose an algorithm for a call (coll_select.c does).
 */
#include "config.h"

#include "coll/coll.h"
#include "base/error.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

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

/* In the order of enum comm_coll_family. */
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
};

const struct comm_setting_table comm_coll_settings = {
    .component = "coll",
    .count = sizeof(coll_settings) / sizeof(coll_settings[0]),
    .settings = coll_settings,
};

static int coll_check(enum comm_coll_family family, const char *value, char *expected_out,
                      size_t len)
{
    const struct comm_coll_algorithm *a;
    size_t used;

    if (strcmp(value, "auto") == 0) {
        return COMM_OK;
    }
    for (size_t i = 0; (a = comm_coll_algorithm_at(family, i)) != NULL; i++) {
        if (strcmp(value, a->name) == 0) {
            return COMM_OK;
        }
    }
    used = (size_t)snprintf(expected_out, len, "auto");
    for (size_t i = 0; (a = comm_coll_algorithm_at(family, i)) != NULL && used < len; i++) {
        used += (size_t)snprintf(expected_out + used, len - used, "%s%s",
                                 comm_coll_algorithm_at(family, i + 1) == NULL ? " or " : ", ",
                                 a->name);
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

/* What COMM_COLL_<OP> forces, per family, read at the family's first call (the environment
 * is a job's fixed input, and a lookup per call costs a scan of it): 0 not read yet, 1 auto,
 * else the algorithm's index + 2.  Read without a lock: two threads that both read the
 * setting store the same value. */
enum { COLL_FORCED_UNREAD, COLL_FORCED_AUTO, COLL_FORCED_FIRST };
static _Atomic int coll_forced[COMM_COLL_NFAMILIES];

static int coll_forced_read(enum comm_coll_family family)
{
    const char *value = comm_config_value(&coll_settings[family]);
    const struct comm_coll_algorithm *a;
    int forced = COLL_FORCED_AUTO;

    for (size_t i = 0; (a = comm_coll_algorithm_at(family, i)) != NULL; i++) {
        if (strcmp(value, a->name) == 0) {
            forced = COLL_FORCED_FIRST + (int)i;
            break;
        }
    }
    atomic_store_explicit(&coll_forced[family], forced, memory_order_relaxed);
    return forced;
}

const struct comm_coll_algorithm *comm_coll_forced(enum comm_coll_family family)
{
    int index = atomic_load_explicit(&coll_forced[family], memory_order_relaxed);

    if (index == COLL_FORCED_UNREAD) {
        index = coll_forced_read(family);
    }
    return index == COLL_FORCED_AUTO
               ? NULL
               : comm_coll_algorithm_at(family, (size_t)(index - COLL_FORCED_FIRST));
}

const char *comm_coll_setting_name(enum comm_coll_family family)
{
    return coll_settings[family].name;
}
