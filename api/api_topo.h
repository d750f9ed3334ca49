/*
 * api_topo.h - shared by the process-topology entry points (api_topo*.c) and the neighbourhood
 * collectives (api_coll_neighbor.c).
 *
 * Layer: api.  Must not: be included below api/.
 */
#ifndef COMM_API_TOPO_API_H
#define COMM_API_TOPO_API_H

#include "api/api.h"
#include "runtime/comm/proc_topo.h"

/*
 * The start of a call that needs COMM to carry a topology of KIND (0: any): the checks of
 * comm_api_enter_comm, then MPI_ERR_TOPOLOGY when COMM has no such topology.  Sets *comm_out.
 */
int comm_api_topo_enter(const char *func, MPI_Comm comm, enum comm_proc_topo_kind kind,
                        struct comm_communicator **comm_out);

/*
 * The communicator of a new topology of N ranks on C (collective over C): agrees on its
 * context, and makes it where this process is one of the N (OLD_OF_NEW[v]: C's rank that
 * becomes rank v).  *comm_out is NULL and *rank_out MPI_UNDEFINED in the others.  Raises errors
 * on C.
 */
int comm_api_topo_comm(const char *func, struct comm_communicator *c, int n, const int *old_of_new,
                       struct comm_communicator **comm_out, int *rank_out);

/* The new rank of C's process in placement OLD_OF_NEW (N ranks), or MPI_UNDEFINED. */
int comm_api_topo_new_rank(const struct comm_communicator *c, int n, const int *old_of_new);

/*
 * Ends a topology constructor: attaches TOPO (made with status RC, a comm status) to N (NULL:
 * this process is not in the new communicator) and returns its handle in *newcomm, or frees
 * N and raises the error on C.
 */
int comm_api_topo_finish(const char *func, struct comm_communicator *c, struct comm_communicator *n,
                         int rc, struct comm_proc_topo *topo, MPI_Comm *newcomm);

#endif
