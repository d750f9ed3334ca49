/*
 * coll_persist.c - persistent collectives (see coll_persist.h).
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/coll_persist.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/op/op.h"
#include "runtime/p2p/request.h"

#include <stdlib.h>
#include <string.h>

struct coll_persist {
    comm_coll_build_fn build;
    struct comm_coll_args args; /* its arrays are the copies below */
    struct comm_communicator *comm;
    int tag;
    struct comm_coll_sched *last; /* the schedule of the last start */
    int *ints[4];                 /* scounts, sdispls, rcounts, rdispls */
    MPI_Aint *aints[2];           /* sbdispls, rbdispls */
    struct comm_datatype **dts[2];
    int ndts[2];
};

/* A copy of N elements of SIZE bytes at SRC (NULL stays NULL); false when out of memory. */
static bool persist_dup(const void *src, int n, size_t size, void **copy_out)
{
    *copy_out = NULL;
    if (src == NULL) {
        return true;
    }
    *copy_out = malloc((size_t)(n > 0 ? n : 1) * size);
    if (*copy_out == NULL) {
        return false;
    }
    memcpy(*copy_out, src, (size_t)n * size);
    return true;
}

static void persist_release(struct coll_persist *p)
{
    if (p->last != NULL) {
        comm_coll_sched_free(p->last);
    }
    for (int side = 0; side < 2; side++) {
        for (int i = 0; p->dts[side] != NULL && i < p->ndts[side]; i++) {
            comm_datatype_release(p->dts[side][i]);
        }
        free((void *)p->dts[side]);
        free(p->aints[side]);
    }
    for (int i = 0; i < 4; i++) {
        free(p->ints[i]);
    }
    if (p->args.sdt != NULL) {
        comm_datatype_release(p->args.sdt);
    }
    if (p->args.rdt != NULL) {
        comm_datatype_release(p->args.rdt);
    }
    if (p->args.op != NULL) {
        comm_op_release(p->args.op);
    }
    free(p);
}

static void persist_free_request_part(void *coll)
{
    persist_release(coll);
}

int comm_coll_persist_init(struct comm_request *req, struct comm_communicator *comm,
                           comm_coll_build_fn build, const struct comm_coll_args *a)
{
    struct coll_persist *p = calloc(1, sizeof(*p));
    bool ok;

    if (p == NULL) {
        return MPI_ERR_NO_MEM;
    }
    p->build = build;
    p->args = *a;
    p->comm = comm;
    /* Take the references first: persist_release gives back what is set. */
    if (a->sdt != NULL) {
        comm_datatype_retain(a->sdt);
    }
    if (a->rdt != NULL) {
        comm_datatype_retain(a->rdt);
    }
    if (a->op != NULL) {
        comm_op_retain(a->op);
    }
    ok = persist_dup(a->scounts, a->nsend, sizeof(int), (void **)&p->ints[0]) &&
         persist_dup(a->sdispls, a->nsend, sizeof(int), (void **)&p->ints[1]) &&
         persist_dup(a->rcounts, a->nrecv, sizeof(int), (void **)&p->ints[2]) &&
         persist_dup(a->rdispls, a->nrecv, sizeof(int), (void **)&p->ints[3]) &&
         persist_dup(a->sbdispls, a->nsend, sizeof(MPI_Aint), (void **)&p->aints[0]) &&
         persist_dup(a->rbdispls, a->nrecv, sizeof(MPI_Aint), (void **)&p->aints[1]) &&
         persist_dup(a->sdts, a->nsend, sizeof(*a->sdts), (void **)&p->dts[0]) &&
         persist_dup(a->rdts, a->nrecv, sizeof(*a->rdts), (void **)&p->dts[1]);
    for (int side = 0; ok && side < 2; side++) {
        p->ndts[side] = p->dts[side] != NULL ? (side == 0 ? a->nsend : a->nrecv) : 0;
        for (int i = 0; i < p->ndts[side]; i++) {
            comm_datatype_retain(p->dts[side][i]);
        }
    }
    if (!ok) {
        persist_release(p);
        return MPI_ERR_NO_MEM;
    }
    p->args.scounts = p->ints[0];
    p->args.sdispls = p->ints[1];
    p->args.rcounts = p->ints[2];
    p->args.rdispls = p->ints[3];
    p->args.sbdispls = p->aints[0];
    p->args.rbdispls = p->aints[1];
    p->args.sdts = p->dts[0];
    p->args.rdts = p->dts[1];
    p->tag = comm_coll_sched_take_tag(comm);
    req->persistent = true;
    req->state = COMM_REQUEST_INACTIVE;
    req->comm = comm;
    comm_communicator_retain(comm); /* released with the request */
    req->coll = p;
    req->coll_free = persist_free_request_part;
    comm_status_set_empty(&req->status);
    return MPI_SUCCESS;
}

int comm_coll_persist_start(struct comm_request *req)
{
    struct coll_persist *p = req->coll;
    struct comm_coll_sched *s;
    int err;

    if (p->last != NULL) { /* the last start has completed: its schedule is done with */
        comm_coll_sched_free(p->last);
        p->last = NULL;
    }
    s = comm_coll_sched_new_tagged(p->comm, p->tag);
    if (s == NULL) {
        return MPI_ERR_NO_MEM;
    }
    err = p->build(s, &p->args);
    if (err == MPI_SUCCESS) {
        req->error = MPI_SUCCESS;
        err = comm_coll_sched_run(s, req);
    }
    if (err != MPI_SUCCESS) {
        comm_coll_sched_free(s);
        return err;
    }
    p->last = s;
    return MPI_SUCCESS;
}
