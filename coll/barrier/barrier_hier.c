/*
 * barrier_hier.c - barrier over the communicator's hierarchy (coll/hier/hier.h): every stage
 * below the top gathers a word from each member at its leader, the top stage runs a barrier,
 * and every stage then releases its members from the top down.  No rank leaves before every
 * rank has entered: a leader reports up only when its whole group has reported to it.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/barrier/barrier.h"
#include "coll/hier/hier.h"
#include "runtime/datatype/datatype.h"

#include <stdlib.h>

/* Stage STAGE's leader hears from every member (UP), or tells every member (down). */
static int barrier_fan(struct comm_communicator *stage, bool up)
{
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int err = MPI_SUCCESS;

    for (int r = 1; r < stage->size && err == MPI_SUCCESS; r++) {
        err = up ? comm_coll_recv(NULL, 0, byte, r, COMM_COLL_TAG_HIER, stage)
                 : comm_coll_send(NULL, 0, byte, r, COMM_COLL_TAG_HIER, stage);
    }
    return err;
}

int comm_coll_barrier_hier(struct comm_communicator *comm)
{
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    int err = MPI_SUCCESS, top;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    top = h->top;
    for (int s = 0; s < top && err == MPI_SUCCESS; s++) {
        err = barrier_fan(h->stage[s], true);
    }
    if (err == MPI_SUCCESS && top == h->nstages - 1) {
        err = comm_coll_hier_barrier(h->stage[top]);
    } else if (err == MPI_SUCCESS) {
        /* Reported up to this stage's leader; wait for its release. */
        err = comm_coll_send(NULL, 0, byte, 0, COMM_COLL_TAG_HIER, h->stage[top]);
        if (err == MPI_SUCCESS) {
            err = comm_coll_recv(NULL, 0, byte, 0, COMM_COLL_TAG_HIER, h->stage[top]);
        }
    }
    for (int s = top - 1; s >= 0 && err == MPI_SUCCESS; s--) {
        err = barrier_fan(h->stage[s], false);
    }
    return err;
}
