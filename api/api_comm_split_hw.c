/*
 * api_comm_split_hw.c - MPI_Comm_split_type, whose kinds but MPI_COMM_TYPE_SHARED (a split by
 * host) are by hardware: MPI_COMM_TYPE_HW_GUIDED (and MPI 4.1's RESOURCE_GUIDED) with the info
 * key mpi_hw_resource_type, and MPI_COMM_TYPE_HW_UNGUIDED.
 *
 * Layer: api.
 *
 * The resources, from the largest down: the topology's levels above the host (the switch
 * levels, by the names the job's tree gives them: "spine", "pod", "rack", ...), the host
 * ("mpi_shared_memory", or "host"), then inside the host hwloc's Package, NUMANode, L3Cache,
 * L2Cache, L1Cache, Core and PU (any case, "hwloc://" allowed).  A rank gets MPI_COMM_NULL
 * when it uses no single instance of the resource: its host is not in the topology file (or
 * its path skips that level), or its host has no such object.  A name comm does not know, no
 * info, or no key: MPI_COMM_NULL for every rank, as MPI says.
 *
 * Each rank computes the instance it uses at every level (a 64-bit key: switch, host, or host
 * and hwloc index) and the members exchange them in one allgather; the split's color is then
 * the lowest rank using the same instance.  hwloc is read only when a level inside the host
 * is asked for (or for UNGUIDED), never at MPI_Init.
 */
#include "config.h"

#include "api/api.h"
#include "base/error.h"
#include "runtime/info.h"
#include "runtime/job_topo.h"
#include "base/log.h"
#include "runtime/runtime.h"
#include "topo/topo_hw.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
    SPLIT_HW_SHIFT = 24, /* in a key inside a host: host index above, hwloc's index below */
};

static const char split_key[] = "mpi_hw_resource_type";

/* One level a rank may be split by: a level of the job (JOB >= 0), of hwloc (HW >= 0), or
 * (both -1) the memory a host's ranks share: the host itself, as MPI_COMM_TYPE_SHARED sees
 * it, whatever COMM_TOPO_SPLIT_HOSTS makes of the job's host level. */
struct split_level {
    int job;
    int hw;
};

static const char *split_level_name(struct split_level l)
{
    return l.job >= 0 ? comm_job_topo_level_name(l.job)
                      : comm_topo_hw_name((enum comm_topo_hw_level)l.hw);
}

/* The level VALUE names; false when comm knows no such resource. */
static bool split_find_level(const char *value, struct split_level *out)
{
    int hw = comm_topo_hw_find(value);

    if (strcmp(value, "mpi_shared_memory") == 0) {
        *out = (struct split_level){.job = -1, .hw = -1};
        return true;
    }
    if (hw >= 0) {
        *out = (struct split_level){.job = -1, .hw = hw};
        return true;
    }
    for (int l = 0; l < comm_job_topo_nlevels(); l++) {
        if (strcasecmp(value, comm_job_topo_level_name(l)) == 0) {
            *out = (struct split_level){.job = l, .hw = -1};
            return true;
        }
    }
    return false;
}

/* This rank's instance at LEVEL, or -1 when it uses none. */
static int64_t split_my_key(struct split_level level, long world_rank,
                            const struct comm_topo_hw_place *place)
{
    /* The real host: hwloc's objects are the machine's. */
    int64_t host = comm_runtime_job()->node_id;

    if (level.job >= 0) {
        return comm_job_topo_placed(world_rank, level.job)
                   ? comm_job_topo_key(world_rank, level.job)
                   : -1;
    }
    if (level.hw < 0) {
        return host;
    }
    if (place->index[level.hw] < 0) {
        return -1;
    }
    return (host << SPLIT_HW_SHIFT) | place->index[level.hw];
}

/* This rank's place in its host; when hwloc cannot tell, the rank uses no instance of any
 * level inside the host (it gets MPI_COMM_NULL there: the others must not wait for it). */
static void split_place(struct comm_topo_hw_place *place)
{
    char err[256];

    if (comm_topo_hw_place(comm_runtime_job()->local_rank, place, err, sizeof(err)) < 0) {
        comm_log_warn("api", "MPI_Comm_split_type: %s: this rank is in no part of its host",
                      err);
        for (int l = 0; l < COMM_TOPO_HW_LEVELS; l++) {
            place->index[l] = -1;
        }
    }
}

/* Splits C by column COL of KEYS (SIZE rows of NCOL): the color is the first member with the
 * same key; -1 gives MPI_COMM_NULL.  Names the new communicator's resource in its info. */
static int split_by(struct comm_communicator *c, const int64_t *keys, int ncol, int col,
                    const char *name, int key, MPI_Comm *newcomm)
{
    int64_t mine = keys[(size_t)c->rank * (size_t)ncol + (size_t)col];
    int color = MPI_UNDEFINED;
    MPI_Info info;
    int err;

    for (int r = 0; mine >= 0 && r < c->size && color == MPI_UNDEFINED; r++) {
        if (keys[(size_t)r * (size_t)ncol + (size_t)col] == mine) {
            color = r;
        }
    }
    err = PMPI_Comm_split(c->handle, color, key, newcomm);
    if (err != MPI_SUCCESS || *newcomm == MPI_COMM_NULL || name == NULL) {
        return err;
    }
    /* MPI: the new communicator says which resource it stands for. */
    err = PMPI_Info_create(&info);
    if (err == MPI_SUCCESS) {
        err = PMPI_Info_set(info, split_key, name);
        if (err == MPI_SUCCESS) {
            err = PMPI_Comm_set_info(*newcomm, info);
        }
        PMPI_Info_free(&info);
    }
    return err;
}

/* Every rank's keys at the NLEVELS (>= 1) levels, gathered (SIZE rows of NLEVELS). */
static int split_gather(struct comm_communicator *c, const struct split_level *levels,
                        int nlevels, bool need_place, int64_t **keys_out)
{
    struct comm_topo_hw_place place = {{0}};
    long world = comm_communicator_world_rank(c, c->rank);
    int64_t *mine, *keys;
    int err;

    if (need_place) {
        split_place(&place);
    }
    mine = malloc((size_t)nlevels * sizeof(*mine));
    keys = malloc((size_t)c->size * (size_t)nlevels * sizeof(*keys));
    /* Every member joins the allgather (its own failure must not leave the others waiting). */
    for (int l = 0; mine != NULL && l < nlevels; l++) {
        mine[l] = split_my_key(levels[l], world, &place);
    }
    if (mine == NULL || keys == NULL) {
        free(mine);
        free(keys);
        return comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_split_type: out of memory");
    }
    err = PMPI_Allgather(mine, nlevels, MPI_INT64_T, keys, nlevels, MPI_INT64_T, c->handle);
    free(mine);
    if (err != MPI_SUCCESS) {
        free(keys);
        return err;
    }
    *keys_out = keys;
    return MPI_SUCCESS;
}

static int split_guided(struct comm_communicator *c, int key, MPI_Info info, MPI_Comm *newcomm)
{
    char value[MPI_MAX_INFO_VAL + 1] = "";
    struct split_level level;
    int flag = 0, err;
    int64_t *keys;

    if (info != MPI_INFO_NULL) {
        err = PMPI_Info_get(info, split_key, MPI_MAX_INFO_VAL, value, &flag);
        if (err != MPI_SUCCESS) {
            return err;
        }
    }
    if (!flag || !split_find_level(value, &level)) {
        /* MPI: no key, or a resource the implementation does not know: MPI_COMM_NULL. */
        return PMPI_Comm_split(c->handle, MPI_UNDEFINED, key, newcomm);
    }
    err = split_gather(c, &level, 1, level.hw >= 0, &keys);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = split_by(c, keys, 1, 0, value, key, newcomm);
    free(keys);
    return err;
}

/* The next level down: the largest at which every member uses an instance and the members
 * use more than one, so every new communicator is a strict subset of C. */
static int split_unguided(struct comm_communicator *c, int key, MPI_Comm *newcomm)
{
    int njob = comm_job_topo_nlevels();
    int nlevels = 0, chosen = -1, err;
    struct split_level *levels = malloc((size_t)(njob + COMM_TOPO_HW_LEVELS) * sizeof(*levels));
    int64_t *keys;

    if (levels == NULL) {
        /* Out of memory here: the others are (or will be) in the allgather; end the job. */
        return comm_api_error(c, MPI_ERR_NO_MEM, "MPI_Comm_split_type: out of memory");
    }
    for (int l = njob - 1; l >= 0; l--) {
        levels[nlevels++] = (struct split_level){.job = l, .hw = -1};
    }
    for (int h = 0; h < COMM_TOPO_HW_LEVELS; h++) {
        levels[nlevels++] = (struct split_level){.job = -1, .hw = h};
    }
    err = split_gather(c, levels, nlevels, true, &keys);
    if (err != MPI_SUCCESS) {
        free(levels);
        return err;
    }
    for (int l = 0; l < nlevels && chosen < 0; l++) {
        bool known = true, several = false;

        for (int r = 0; r < c->size && known; r++) {
            int64_t k = keys[(size_t)r * (size_t)nlevels + (size_t)l];

            known = k >= 0;
            several = several || k != keys[l];
        }
        if (known && several) {
            chosen = l;
        }
    }
    if (chosen < 0) {
        err = PMPI_Comm_split(c->handle, MPI_UNDEFINED, key, newcomm);
    } else {
        err = split_by(c, keys, nlevels, chosen, split_level_name(levels[chosen]), key, newcomm);
    }
    free(keys);
    free(levels);
    return err;
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    struct comm_communicator *c;
    int err = comm_api_enter_intracomm("MPI_Comm_split_type", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (info != MPI_INFO_NULL && comm_info_lookup(info) == NULL) {
        return comm_api_error(c, MPI_ERR_INFO, "MPI_Comm_split_type: invalid info handle");
    }
    if (newcomm == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Comm_split_type: newcomm is NULL");
    }
    if (split_type == MPI_COMM_TYPE_HW_GUIDED || split_type == MPI_COMM_TYPE_HW_UNGUIDED ||
        split_type == MPI_COMM_TYPE_RESOURCE_GUIDED) {
        return split_type == MPI_COMM_TYPE_HW_UNGUIDED ? split_unguided(c, key, newcomm)
                                                       : split_guided(c, key, info, newcomm);
    }
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED) {
        return comm_api_error(c, MPI_ERR_ARG,
                              "MPI_Comm_split_type: invalid split_type %d (expected "
                              "MPI_COMM_TYPE_SHARED, MPI_COMM_TYPE_HW_GUIDED, "
                              "MPI_COMM_TYPE_HW_UNGUIDED, MPI_COMM_TYPE_RESOURCE_GUIDED or "
                              "MPI_UNDEFINED)",
                              split_type);
    }
    /* Ranks that can share memory are the ranks of one host. */
    return PMPI_Comm_split(
        comm, split_type == MPI_UNDEFINED ? MPI_UNDEFINED : (int)comm_runtime_job()->node_id, key,
        newcomm);
}
COMM_API_ALIAS(MPI_Comm_split_type);
