/*
 * coll_select.c - choosing the algorithm of one collective call: the forced one when
 * COMM_COLL_<OP> names one and it can serve the call, else the family's own choice; and
 * saying, once per communicator and family, what it runs.
 *
 * Layer: coll.  Must not: run an algorithm (coll_table.c's entries do); read the environment
 * (coll_settings.c does).
 */
#include "config.h"

#include "coll/coll.h"
#include "coll/hier/hier.h"
#include "coll/shm/coll_shm.h"
#include "base/log.h"
#include "runtime/job_topo.h"
#include "runtime/op/op.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Why algorithm A cannot serve CALL, or NULL when it can. */
static const char *coll_refusal(const struct comm_coll_algorithm *a,
                                const struct comm_coll_call *call)
{
    int size = call->comm->size;

    if ((a->restrictions & COMM_COLL_UNIFORM_ONLY) && !call->uniform) {
        return "it serves only the plain (non-v) form";
    }
    if ((a->restrictions & COMM_COLL_COMMUTATIVE_ONLY) && call->op != NULL &&
        !call->op->commutative) {
        return "it needs a commutative operation";
    }
    if ((a->restrictions & COMM_COLL_POW2_ONLY) && (size & (size - 1)) != 0) {
        return "it needs a power-of-two communicator size";
    }
    if ((a->restrictions & COMM_COLL_HOST_LOCAL_ONLY) && !call->comm->host_local) {
        return "it needs every member on this host";
    }
    if ((a->restrictions & COMM_COLL_HOST_LOCAL_ONLY) && !comm_coll_shm_allowed(call->comm)) {
        return "shared memory is off (COMM_SHM=0)";
    }
    if ((a->restrictions & COMM_COLL_MULTI_HOST_ONLY) && !comm_coll_hier_applies(call->comm)) {
        return call->comm->hier_stage ? "it runs the stages of a hierarchy itself"
                                      : "it needs members on more than one host";
    }
    return NULL;
}

static const struct comm_coll_algorithm *coll_select(enum comm_coll_family family,
                                                     const struct comm_coll_call *call)
{
    const struct comm_coll_algorithm *chosen = comm_coll_choose(family, call);
    const struct comm_coll_algorithm *forced = comm_coll_forced(family);
    const char *why;

    if (forced == NULL) {
        return chosen;
    }
    why = coll_refusal(forced, call);
    if (why == NULL) {
        return forced;
    }
    comm_log_debug("coll", "%s=%s cannot serve this call (%s): %s serves it",
                   comm_coll_setting_name(family), forced->name, why, chosen->name);
    return chosen;
}

/* Says once per communicator and family, at info, which algorithm COMM's collective FAMILY
 * uses, and for "hier" which levels. */
static void coll_log_choice(struct comm_communicator *comm, enum comm_coll_family family,
                            const char *algorithm)
{
    char levels[256] = "";
    size_t used = 0;
    const struct comm_coll_hier *h;

    if ((comm->coll_logged & (1u << family)) != 0 || comm->hier_stage) {
        return;
    }
    comm->coll_logged |= 1u << family;
    if (!comm_log_is_enabled(COMM_LOG_INFO, "coll")) {
        return;
    }
    h = strcmp(algorithm, "hier") == 0 ? comm_coll_hier_get(comm) : NULL;
    /* The levels whose groups it combines, from the host up, then the whole communicator. */
    for (int s = 0; h != NULL && s + 1 < h->nstages && used < sizeof(levels); s++) {
        const struct comm_topo_groups *g = &comm->levels[h->level[s]];

        used += (size_t)snprintf(levels + used, sizeof(levels) - used, "%s%s (%d groups)",
                                 s == 0 ? " by " : ", ", comm_job_topo_level_name(h->level[s]),
                                 g->ngroups);
    }
    comm_log_info("coll", "%s on %s (%d ranks): %s%s", comm_coll_family_name(family),
                  comm->name[0] != '\0' ? comm->name : "a communicator", comm->size, algorithm,
                  levels);
}

const struct comm_coll_algorithm *comm_coll_select(enum comm_coll_family family,
                                                   const struct comm_coll_call *call)
{
    const struct comm_coll_algorithm *a = coll_select(family, call);

    /* The communicator's first call of each family says what it runs (at info). */
    if ((call->comm->coll_logged & (1u << family)) == 0) {
        coll_log_choice((struct comm_communicator *)(uintptr_t)call->comm, family, a->name);
    }
    return a;
}

bool comm_coll_hier_chosen(enum comm_coll_family family, const struct comm_coll_call *call)
{
    return comm_coll_hier_applies(call->comm) &&
           strcmp(comm_coll_select(family, call)->name, "hier") == 0;
}
