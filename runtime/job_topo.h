/*
 * job_topo.h - the topology a job runs on: which file each rank loads at MPI_Init, the check
 * that every host loaded the same tree, and the tree the rest of the runtime reads.
 *
 * Layer: runtime core.  Uses topo/ (the model) and pmix-glue (the exchange).
 *
 * Which file: COMM_TOPO_FILE names it; "none" turns topology off; unset (or empty), a job under
 * Slurm (SLURM_JOB_ID in the environment) uses the topology.conf beside Slurm's configuration
 * ($SLURM_CONF's folder, else /etc/slurm) when there is one, and any other job has none.
 * Every outcome is logged: the file and its levels (info), no file (info, "fallback to
 * default"), this host missing from the file (a warning, once per host).  A file that cannot be
 * read or is malformed stops MPI_Init with its file:line error.
 *
 * One view per job: each rank publishes the digest of what it loaded with the addresses that
 * MPI_Init exchanges anyway (no extra fence), and compares it with rank 0's: a difference is
 * an error naming both hosts and what each loaded.
 *
 * Thread safety: load/check/finalize on the init thread; the tree is read-only in between.
 */
#ifndef COMM_JOB_TOPO_H
#define COMM_JOB_TOPO_H

#include "base/config_table.h"
#include "btl/btl.h"
#include "topo/topo.h"

#include <stdbool.h>

/* COMM_TOPO_FILE, COMM_TOPO_DUMP_FILE, COMM_TOPO_SPLIT_HOSTS. */
extern const struct comm_setting_table comm_topo_settings;

/*
 * Chooses and loads this rank's file, logs the outcome and publishes its digest (before the
 * fence of MPI_Init).  HOST is this rank's host as the job map names it; RANK and LOCAL_RANK
 * say who logs what once.
 */
int comm_job_topo_load(const char *host, long rank, long local_rank);

/* After the fence: every rank compares its digest with rank 0's. */
int comm_job_topo_check(long rank, const char *host);

/*
 * After the check: learns every rank's host (SIZE ranks) and places it in the tree; local rank 0
 * logs its host's path up the tree (info).  From then on the job has levels: 0 is the host, then the tree's levels above it (none without a tree).
 */
int comm_job_topo_map(long size, long rank, long local_rank);

/* The job's levels (1 without a tree, 0 before comm_job_topo_map) and their names ("host",
 * "rack", ...). */
int comm_job_topo_nlevels(void);
const char *comm_job_topo_level_name(int level);

/*
 * WORLD_RANK's group key at LEVEL, in 0..comm_job_topo_key_bound(LEVEL)-1: ranks with one key
 * share the level.  At the host level, the host (or its part, with COMM_TOPO_SPLIT_HOSTS).  Above it, the rank's switch at that level; a
 * path that skips the level keeps its switch from the level below, and a host the file does
 * not list is a group of its own at every level (the fallback to hosts only).
 */
long comm_job_topo_key(long world_rank, int level);
long comm_job_topo_key_bound(int level);

/* Whether the file puts WORLD_RANK's host under a switch of LEVEL (>= 1). */
bool comm_job_topo_placed(long world_rank, int level);

/* WORLD_RANK's host name, as the job map has it. */
const char *comm_job_topo_host(long world_rank);

/* The tree in use, or NULL when the job has none. */
const struct comm_topo *comm_job_topo(void);
/* The network devices the topology gives HOST (NodeName= ... Nics=); NULL when the file gives
 * none (or there is no file).  After load. */
const char *comm_job_topo_nics(const char *host);

/*
 * The fabrics on HOST's path up the tree, lowest level first: every switch that gives
 * Provider= or Nics= (its devices are its Nics=, else the host's).  Into OUT (at most MAX);
 * returns how many.  They point into the tree, which lives until comm_job_topo_finalize.
 */
size_t comm_job_topo_fabrics(const char *host, struct comm_btl_fabric *out, size_t max);

/* The lowest level world ranks A and B share: 0 one host, else the level of the lowest switch
 * above both; COMM_BTL_LEVEL_NONE when they share none.  After map. */
int comm_job_topo_shared_level(long a, long b);

void comm_job_topo_finalize(void);

#endif
