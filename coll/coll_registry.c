/*
 * coll_registry.c - every collective family and its algorithms: the tables of coll/<op>/<op>.c
 * and their own choice, by family.
 *
 * Layer: coll.  Must not: read settings or choose between forced and auto (coll_select.c
 * does); call an algorithm.
 */
#include "config.h"

#include "coll/allgather/allgather.h"
#include "coll/allreduce/allreduce.h"
#include "coll/alltoall/alltoall.h"
#include "coll/barrier/barrier.h"
#include "coll/bcast/bcast.h"
#include "coll/coll.h"
#include "coll/gather/gather.h"
#include "coll/reduce/reduce.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/scan/scan.h"
#include "coll/scatter/scatter.h"

#include <stdio.h>

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

const struct comm_coll_algorithm *comm_coll_choose(enum comm_coll_family family,
                                                   const struct comm_coll_call *call)
{
    const struct coll_family *f = &coll_families[family];

    return &f->algorithms[f->choose(call)];
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
