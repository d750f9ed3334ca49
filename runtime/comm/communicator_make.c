/*
 * communicator_make.c - making a communicator from a parent: agreeing on its context with the
 * parent's other members, and the copy of the parent's group on a context.
 *
 * Layer: runtime core.  Agrees through the parent's collective table (comm->coll,
 * runtime/comm/coll_table.h), never through the MPI interface.  Must not: raise MPI errors
 * (the API does, naming the call).
 *
 * A new communicator's context is the largest "next free context" of its members, agreed with
 * an allreduce on the parent, so it is new to every member even when several communicators are
 * made at once in overlapping groups.  It is confirmed free everywhere with more allreduces
 * only when some member's next context may have grown while the first one waited (a
 * nonblocking agreement in flight there, or other threads): a process that makes communicators
 * one at a time pays one allreduce per communicator.
 */
#include "config.h"

#include "runtime/comm/communicator.h"

#include "base/error.h"
#include "runtime/datatype/datatype.h"
#include "runtime/op/op.h"
#include "runtime/runtime.h"

#include <stdlib.h>

/* MPI_Comm_idup calls not yet settled; atomic (threads at MPI_THREAD_MULTIPLE). */
static unsigned communicator_idups_inflight = 0;

void comm_communicator_idup_inflight(int delta)
{
    __atomic_add_fetch(&communicator_idups_inflight, (unsigned)delta, __ATOMIC_RELAXED);
}

void comm_communicator_context_proposal(unsigned *next_out, unsigned *unsettled_out)
{
    *next_out = comm_communicator_next_context();
    *unsettled_out = __atomic_load_n(&communicator_idups_inflight, __ATOMIC_RELAXED) > 0 ||
                     comm_runtime_thread_level() == MPI_THREAD_MULTIPLE;
}

/* The largest of every member's two unsigned values MINE, in AGREED: collective over PARENT. */
static int communicator_max(struct comm_communicator *parent, const unsigned mine[2],
                            unsigned agreed[2])
{
    return parent->coll->allreduce(mine, agreed, 2, comm_datatype_lookup(MPI_UNSIGNED),
                                   comm_op_lookup(MPI_MAX), parent);
}

/*
 * The largest proposal may have been taken here while the exchange waited: progress runs a
 * pending MPI_Comm_idup, which reserves its own candidate.  So, when a member said it might
 * be, every member reserves the candidate, as MPI_Comm_idup does, and says whether it was
 * still free; any "taken" starts another round from the members' new maxima.
 */
int comm_communicator_context_settle(struct comm_communicator *parent, unsigned candidate,
                                     bool unsettled, uint32_t *context_out)
{
    unsigned mine[2], agreed[2];
    int err;

    while (unsettled) {
        mine[0] = comm_communicator_claim_context(candidate, &mine[1]) ? 0 : 1;
        err = communicator_max(parent, mine, agreed);
        if (err != MPI_SUCCESS) {
            return err;
        }
        unsettled = agreed[0] != 0;
        candidate = unsettled ? agreed[1] : candidate;
    }
    *context_out = candidate;
    return MPI_SUCCESS;
}

int comm_communicator_agree_context(struct comm_communicator *parent, uint32_t *context_out)
{
    unsigned mine[2], agreed[2];
    int err;

    comm_communicator_context_proposal(&mine[1], &mine[0]);
    err = communicator_max(parent, mine, agreed);
    if (err != MPI_SUCCESS) {
        return err;
    }
    return comm_communicator_context_settle(parent, agreed[1], agreed[0] != 0, context_out);
}

long *comm_communicator_local_ranks(const struct comm_communicator *c)
{
    long *ranks = malloc((size_t)c->size * sizeof(*ranks));

    for (int r = 0; r < c->size && ranks != NULL; r++) {
        ranks[r] = comm_communicator_world_rank(c, r);
    }
    return ranks;
}

int comm_communicator_make_from(struct comm_communicator *parent, uint32_t context,
                                struct comm_communicator **comm_out)
{
    long *ranks = comm_communicator_local_ranks(parent);
    int rc;

    if (ranks == NULL) {
        return COMM_ERR_NOMEM;
    }
    rc = comm_communicator_create(ranks, parent->size, parent->rank, context, parent->errhandler,
                                  comm_out);
    free(ranks);
    return rc;
}
