/*
 * topo.h - the cluster tree: hosts under switches, switches under switches, read from a
 * topology file (Slurm's topology.conf, or comm's own format, which adds keys).
 *
 * Layer: topo, above the base (log, errors) and below everything else.  A pure model:
 * it sends no messages and knows no MPI, PMIx or libfabric.  Callers load a file (or parse a
 * text), then ask questions: where is a host, which switch is its ancestor at a level, what
 * are the levels called.
 *
 * Levels.  Level 0 is the host.  A switch's level is its height: 1 for a leaf switch (one that
 * lists hosts), one more than its highest child otherwise, so every host has at most one
 * ancestor per level (an unbalanced tree simply skips levels on some paths).  A level takes
 * the name the file gives (Level=, comm's format); else level 1 is "rack", and a higher level
 * the name its switches share once trailing digits are dropped ("pod0", "pod1": "pod"; two
 * letters at least), else "spine" for the top level and "levelN" below it.
 *
 * Files.  One statement a line ('\' at the end continues it), '#' starts a comment, keys are
 * case-insensitive, values are hostlists (tux[0-3,7], n[001-128]).  Slurm's keys: SwitchName=,
 * Switches=, Nodes=, LinkSpeed=.  comm's format adds, per switch, Level= (the level's name),
 * Provider= (the fabric joining the hosts below: a libfabric provider, or comm's shm) and
 * Nics= (its interfaces or domains), and NodeName= lines giving a host's rails (Nics=).  A file
 * using any of those is in comm's format.  Unknown keys are warned once (with file:line) and
 * ignored.  Every fault (a switch defined twice, a switch or host referenced but never
 * defined, a host under two leaf switches, a switch under two parents, a cycle, a malformed
 * hostlist, a bad number, an unknown provider) is an error naming file:line; nothing is
 * accepted half-way.
 *
 * Ownership: a struct comm_topo and everything in it belong to it; comm_topo_free releases
 * them.  Thread safety: a loaded model is read-only and may be read from any thread.
 */
#ifndef COMM_TOPO_H
#define COMM_TOPO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum comm_topo_format {
    COMM_TOPO_FORMAT_SLURM, /* only Slurm's keys */
    COMM_TOPO_FORMAT_COMM,  /* comm's keys too */
};

enum {
    COMM_TOPO_MAX_NAMES = 1 << 20, /* names one hostlist, or one file, may hold */
    COMM_TOPO_ERROR_LEN = 512,     /* room for an error message */
};

/* A list of names (a hostlist, expanded). */
struct comm_topo_names {
    char **v;
    size_t n;
    size_t cap;
};

struct comm_topo_switch {
    char *name;
    int line;           /* where it is defined */
    int parent;         /* index of its parent switch; -1 for a top switch */
    int level;          /* its height: 1 for a leaf switch */
    long link_speed;    /* LinkSpeed=, 0 when not given */
    char *level_name;   /* Level=, or NULL */
    char *provider;     /* Provider=, or NULL */
    char *nics;         /* Nics=, or NULL */
    int *children;      /* switches below it */
    size_t nchildren;
    int *hosts;         /* hosts below it (a leaf switch) */
    size_t nhosts;
};

struct comm_topo_host {
    char *name;
    int leaf;  /* index of its leaf switch */
    int line;  /* the line that put it under that switch */
    char *nics; /* NodeName= ... Nics=, or NULL */
};

struct comm_topo {
    char *path;
    enum comm_topo_format format;
    struct comm_topo_switch *switches; /* in the order the file defines them */
    size_t nswitches;
    struct comm_topo_host *hosts; /* in the order the file lists them */
    size_t nhosts;
    int *host_order; /* host indexes sorted by name, for comm_topo_host_find */
    char **level_names; /* [0] "host", [1] "rack", ... */
    int nlevels;        /* levels including the host's */
    uint64_t digest;    /* of the tree's canonical text (comm_topo_write), not of the file */
};

/*
 * Expands a hostlist ("tux[0-3,7],login", "n[001-128]", "r[1-2]n[1-4]") into names_out, in
 * order.  Returns COMM_ERR_BAD_PARAM with the fault in err, or COMM_ERR_NOMEM.
 */
int comm_topo_hostlist(const char *text, struct comm_topo_names *names_out, char *err,
                       size_t errlen);
void comm_topo_names_free(struct comm_topo_names *names);

/*
 * Writes NAMES (n of them, in that order) as a short hostlist ("tux[0-3,7],login") into a
 * string the caller frees; NULL when out of memory.
 */
char *comm_topo_hostlist_string(char *const *names, size_t n);

/*
 * Parses TEXT, the contents of the file PATH (used in messages only).  On success *topo_out
 * holds the model.  A fault gives COMM_ERR_BAD_PARAM and "PATH:LINE: what" in err; an
 * allocation failure COMM_ERR_NOMEM.  Unknown keys are logged as warnings, once per key.
 */
int comm_topo_parse(const char *path, const char *text, struct comm_topo **topo_out, char *err,
                    size_t errlen);

/* Reads and parses the file PATH; a file that cannot be read is COMM_ERR_NOT_FOUND (in err). */
int comm_topo_load(const char *path, struct comm_topo **topo_out, char *err, size_t errlen);

void comm_topo_free(struct comm_topo *topo);

/* The index of host NAME, or -1 when the file does not list it. */
int comm_topo_host_find(const struct comm_topo *topo, const char *name);

/* The switch above host HOST at LEVEL (>= 1), or -1 when its path skips that level. */
int comm_topo_ancestor(const struct comm_topo *topo, int host, int level);

/* The tree in comm's format, which comm_topo_parse reads back to the same tree. */
int comm_topo_write(const struct comm_topo *topo, FILE *out);

/* The tree drawn as indented text: levels, switches with their link speeds and fabrics, hosts. */
void comm_topo_draw(const struct comm_topo *topo, FILE *out);

/*
 * Ranks grouped at one level.  Members (a communicator's ranks, 0..n-1) with the same key
 * share a group; groups are numbered in the order of their first member, and each group's
 * leader is its first (lowest) member.
 */
struct comm_topo_groups {
    int ngroups;
    int *group;  /* per member: its group, 0..ngroups-1 */
    int *leader; /* per group: its first member */
    int *size;   /* per group: its members */
};

/*
 * Groups N members by KEYS[i], each in 0..BOUND-1 (a key outside is COMM_ERR_BAD_PARAM).
 * O(n) time, and a scratch table of BOUND entries.  comm_topo_groups_free releases OUT.
 */
int comm_topo_group(const long *keys, int n, long bound, struct comm_topo_groups *out);
void comm_topo_groups_free(struct comm_topo_groups *groups);

#endif
