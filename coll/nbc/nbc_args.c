/*
 * nbc_args.c - a collective call's arguments (struct comm_coll_args, nbc.h) block by block: the
 * count, the datatype and the address of each rank's send or receive block, whatever form the
 * call took (plain, v, w).
 *
 * Layer: coll.  Read by the schedules of every operation; must not build a schedule.
 */
#include "config.h"

#include "coll/nbc/nbc.h"
#include "runtime/datatype/datatype.h"

MPI_Count comm_coll_args_scount(const struct comm_coll_args *a, int r)
{
    return a->scounts != NULL ? a->scounts[r] : a->scount;
}

struct comm_datatype *comm_coll_args_sdt(const struct comm_coll_args *a, int r)
{
    return a->sdts != NULL ? a->sdts[r] : a->sdt;
}

const void *comm_coll_args_sblock(const struct comm_coll_args *a, int r)
{
    if (a->sbdispls != NULL) {
        return (const char *)a->sbuf + a->sbdispls[r];
    }
    if (a->sdispls != NULL) {
        return comm_coll_block(a->sbuf, 1, a->sdispls[r], a->sdt->extent);
    }
    return comm_coll_block(a->sbuf, r, a->scount, a->sdt->extent);
}

MPI_Count comm_coll_args_rcount(const struct comm_coll_args *a, int r)
{
    return a->rcounts != NULL ? a->rcounts[r] : a->rcount;
}

struct comm_datatype *comm_coll_args_rdt(const struct comm_coll_args *a, int r)
{
    return a->rdts != NULL ? a->rdts[r] : a->rdt;
}

void *comm_coll_args_rblock(const struct comm_coll_args *a, int r)
{
    if (a->rbdispls != NULL) {
        return (char *)a->rbuf + a->rbdispls[r];
    }
    if (a->rdispls != NULL) {
        return comm_coll_block(a->rbuf, 1, a->rdispls[r], a->rdt->extent);
    }
    return comm_coll_block(a->rbuf, r, a->rcount, a->rdt->extent);
}
