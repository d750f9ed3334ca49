/*
 * api_topo.c - what every process topology shares: MPI_Topo_test, the check that a communicator
 * has a topology, and making the communicator of a new one.
 *
 * Layer: api (topologies themselves are runtime/comm/proc_topo.h).
 */
#include "config.h"

#include "api/api_topo.h"
#include "base/error.h"

#include <stdlib.h>

static const char *topo_kind_name(const struct comm_proc_topo *t)
{
    if (t == NULL) {
        return "no topology";
    }
    switch (t->kind) {
    case COMM_PROC_TOPO_CART:
        return "a Cartesian topology";
    case COMM_PROC_TOPO_GRAPH:
        return "a graph topology";
    default:
        return "a distributed graph topology";
    }
}

int comm_api_topo_enter(const char *func, MPI_Comm comm, enum comm_proc_topo_kind kind,
                        struct comm_communicator **comm_out)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm(func, comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (c->proc_topo == NULL || (kind != 0 && c->proc_topo->kind != kind)) {
        return comm_api_error(c, MPI_ERR_TOPOLOGY, "%s: communicator %s has %s", func,
                              c->name[0] != '\0' ? c->name : "(unnamed)",
                              topo_kind_name(c->proc_topo));
    }
    *comm_out = c;
    return MPI_SUCCESS;
}

int comm_api_topo_new_rank(const struct comm_communicator *c, int n, const int *old_of_new)
{
    int me = MPI_UNDEFINED;

    for (int v = 0; v < n; v++) {
        me = old_of_new[v] == c->rank ? v : me;
    }
    return me;
}

int comm_api_topo_comm(const char *func, struct comm_communicator *c, int n, const int *old_of_new,
                       struct comm_communicator **comm_out, int *rank_out)
{
    uint32_t context;
    long *ranks;
    int me = comm_api_topo_new_rank(c, n, old_of_new);
    int err = comm_communicator_agree_context(c, &context);

    *comm_out = NULL;
    *rank_out = MPI_UNDEFINED;
    if (err != MPI_SUCCESS) {
        return comm_api_error(c, err, "%s: cannot agree on a context", func);
    }
    if (me == MPI_UNDEFINED) {
        return MPI_SUCCESS;
    }
    ranks = malloc((size_t)n * sizeof(*ranks));
    if (ranks == NULL) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    for (int v = 0; v < n; v++) {
        ranks[v] = comm_communicator_world_rank(c, old_of_new[v]);
    }
    err = comm_communicator_create(ranks, n, me, context, c->errhandler, comm_out);
    free(ranks);
    if (err < 0) {
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    *rank_out = me;
    return MPI_SUCCESS;
}

int comm_api_topo_finish(const char *func, struct comm_communicator *c, struct comm_communicator *n,
                         int rc, struct comm_proc_topo *topo, MPI_Comm *newcomm)
{
    if (n == NULL) {
        comm_proc_topo_release(topo);
        *newcomm = MPI_COMM_NULL;
        return rc < 0 ? comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func) : MPI_SUCCESS;
    }
    if (rc < 0) {
        comm_communicator_free(n);
        return comm_api_error(c, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    comm_proc_topo_attach(n, topo);
    comm_proc_topo_release(topo); /* the communicator holds it now */
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    struct comm_communicator *c;
    int err = comm_api_enter_comm("MPI_Topo_test", comm, &c);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (status == NULL) {
        return comm_api_error(c, MPI_ERR_ARG, "MPI_Topo_test: status is NULL");
    }
    if (c->proc_topo == NULL) {
        *status = MPI_UNDEFINED;
    } else {
        *status = c->proc_topo->kind == COMM_PROC_TOPO_CART    ? MPI_CART
                  : c->proc_topo->kind == COMM_PROC_TOPO_GRAPH ? MPI_GRAPH
                                                               : MPI_DIST_GRAPH;
    }
    return MPI_SUCCESS;
}
COMM_API_ALIAS(MPI_Topo_test);
