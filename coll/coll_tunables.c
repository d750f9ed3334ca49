/*
 * coll_tunables.c - the collective layer's numeric settings: the floors from which "auto" runs
 * the hierarchy (coll/hier/hier.h) and the segments of its pipeline, and how lazily a host's shared-memory segment is set up
 * (coll/shm/coll_shm.h).
 *
 * Layer: coll, below the algorithms that read these.  Must not: name an algorithm.
 */
#include "config.h"

#include "coll/coll.h"
#include "coll/hier/hier.h"

#include <stdatomic.h>

static const struct comm_setting coll_tunables[] = {
    /* The hierarchy's floors, in the order of enum comm_coll_hier_floor. */
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
    /* Then the hierarchy's pipeline (comm_coll_hier_segment). */
    {.name = "COMM_COLL_HIER_SEGMENT",
     .type = COMM_SETTING_INT,
     .default_value = "262144",
     .min = 0,
     .max = 1L << 40,
     .help = "bytes of a segment of the piece each rank carries above its host in a long hier "
             "allreduce over the rails: the levels work on consecutive segments at once; 0 runs "
             "the levels one after another",
     .audience = COMM_AUDIENCE_TUNER},
};

/* Listed right after comm_coll_settings: the component's settings read as one list. */
const struct comm_setting_table comm_coll_tunable_settings = {
    .component = "coll",
    .count = sizeof(coll_tunables) / sizeof(coll_tunables[0]),
    .settings = coll_tunables,
};

/* The integer setting coll_tunables[INDEX], read at its first use into *CACHE (-1 until then:
 * the environment is fixed). */
static long coll_int_setting(_Atomic long *cache, size_t index)
{
    long v = atomic_load_explicit(cache, memory_order_relaxed);

    if (v < 0) {
        /* Checked at MPI_Init with every setting: a malformed value never gets here. */
        if (comm_config_get_int(&coll_tunables[index], &v) < 0) {
            v = 0;
        }
        atomic_store_explicit(cache, v, memory_order_relaxed);
    }
    return v;
}

/* The floors, read at their first use (the environment is fixed); -1: not read yet. */
static _Atomic long coll_hier_floors[COMM_COLL_HIER_NFLOORS] = {-1, -1, -1, -1, -1, -1};

size_t comm_coll_hier_floor(enum comm_coll_hier_floor which)
{
    return (size_t)coll_int_setting(&coll_hier_floors[which], which);
}

/* -1: not read yet. */
static _Atomic long coll_shm_lazy = -1;

unsigned comm_coll_shm_lazy(void)
{
    return (unsigned)coll_int_setting(&coll_shm_lazy, COMM_COLL_HIER_NFLOORS);
}

/* -1: not read yet. */
static _Atomic long coll_hier_segment = -1;

size_t comm_coll_hier_segment(void)
{
    return (size_t)coll_int_setting(&coll_hier_segment, COMM_COLL_HIER_NFLOORS + 1);
}
