/*
 * topo_build.h - between the topology file's parser (topo_file.c) and the model (topo.c): the
 * statements a file holds, as written, which comm_topo_build turns into a checked tree.
 *
 * Layer: topo, internal.
 */
#ifndef COMM_TOPO_BUILD_H
#define COMM_TOPO_BUILD_H

#include "topo/topo.h"

enum comm_topo_statement_kind {
    COMM_TOPO_STATEMENT_SWITCH, /* SwitchName=... */
    COMM_TOPO_STATEMENT_NODE,   /* NodeName=... (comm's format) */
};

/* One statement; the values are the file's text (hostlists not yet expanded). */
struct comm_topo_statement {
    enum comm_topo_statement_kind kind;
    int line;
    char *name; /* the switch's name, or the NodeName= hostlist */
    char *nodes;
    char *switches;
    char *link_speed;
    char *level;
    char *provider;
    char *nics;
};

struct comm_topo_statements {
    struct comm_topo_statement *v;
    size_t n;
    size_t cap;
};

void comm_topo_statements_free(struct comm_topo_statements *sts);

/* Writes "PATH:LINE: " and the message to err; returns COMM_ERR_BAD_PARAM. */
int comm_topo_fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/*
 * Links the statements into a tree and checks it: every name defined once, every reference
 * defined, one leaf switch per host and one parent per switch, no cycle.  PATH names the file
 * in messages ("PATH:LINE: ...").
 */
int comm_topo_build(const char *path, const struct comm_topo_statements *sts,
                    struct comm_topo **topo_out, char *err, size_t errlen);

#endif
