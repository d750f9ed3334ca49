/*
 * hier_rails.c - a communicator's rails (hier.h): which ranks carry the same piece of a long
 * vector at each stage, made without messages, and the steps the rail compositions take on
 * one rail.
 *
 * Layer: coll.
 *
 * Every rank computes every rank's place, from the levels every rank knows alike: its rank in
 * its host (rail 0), then in each rail above.  A rail is named by its scope group and the
 * places below it; the communicator is regular when, at every stage, every such name holds
 * as many ranks.
 */
#include "config.h"

#include "coll/coll_blocks.h"
#include "coll/hier/hier.h"

#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "base/error.h"
#include "base/log.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The group of stage S's scope that RANK is in (0 for the last stage: the communicator). */
static int rails_scope_group(const struct comm_coll_hier *h, int s,
                             const struct comm_communicator *comm, int rank)
{
    return h->level[s] < 0 ? 0 : comm->levels[h->level[s]].group[rank];
}

static int rails_scope_groups(const struct comm_coll_hier *h, int s,
                              const struct comm_communicator *comm)
{
    return h->level[s] < 0 ? 1 : comm->levels[h->level[s]].ngroups;
}

bool comm_coll_hier_in_my_scope(const struct comm_coll_hier *h, int s,
                                const struct comm_communicator *comm, int rank)
{
    return rails_scope_group(h, s, comm, rank) == rails_scope_group(h, s, comm, comm->rank);
}

/*
 * Places every rank on the rails: KEY[r] names rank r's rail at the stage being placed (its
 * scope group, then its places below), PLACE[r] its rank there.  Returns false when some
 * stage's rails differ in size.
 */
static bool rails_place(const struct comm_coll_hier *h, const struct comm_communicator *comm,
                        struct comm_coll_hier_rails *rails, long *below, long *key, int *place)
{
    int p = comm->size;
    long *count = calloc((size_t)p, sizeof(*count));
    long combos = 1; /* how many places-below there are: the product of the parts below */
    bool regular = count != NULL;

    for (int r = 0; r < p; r++) {
        below[r] = 0;
    }
    for (int s = 0; s < h->nstages && regular; s++) {
        long nkeys = (long)rails_scope_groups(h, s, comm) * combos;

        if (nkeys > p) {
            regular = false;
            break;
        }
        for (long k = 0; k < nkeys; k++) {
            count[k] = 0;
        }
        for (int r = 0; r < p; r++) {
            key[(size_t)s * (size_t)p + (size_t)r] =
                (long)rails_scope_group(h, s, comm, r) * combos + below[r];
            place[(size_t)s * (size_t)p + (size_t)r] =
                (int)count[key[(size_t)s * (size_t)p + (size_t)r]]++;
        }
        rails->parts[s] = (int)count[0];
        for (long k = 1; k < nkeys && regular; k++) {
            regular = count[k] == count[0];
        }
        for (int r = 0; r < p; r++) {
            below[r] = below[r] * rails->parts[s] + place[(size_t)s * (size_t)p + (size_t)r];
        }
        combos *= rails->parts[s];
    }
    free(count);
    return regular;
}

/* Makes rail S (>= 1): the ranks that share my KEY at stage S. */
static int rails_make(int s, struct comm_communicator *comm, struct comm_coll_hier_rails *rails,
                      const long *key)
{
    int p = comm->size, n = 0;
    const long *k = key + (size_t)s * (size_t)p;

    rails->member[s] = malloc((size_t)rails->parts[s] * sizeof(*rails->member[s]));
    if (rails->member[s] == NULL) {
        return COMM_ERR_NOMEM;
    }
    for (int r = 0; r < p; r++) {
        if (k[r] == k[comm->rank]) {
            rails->member[s][n++] = r;
        }
    }
    return comm_coll_hier_make_comm(comm, rails->member[s], n, COMM_HIER_MAX_STAGES + s, "rail", s,
                                    &rails->rail[s]);
}

/* Says at info, once per communicator (its rank 0), which rails long vectors take (RAILS) or that
 * the leaders carry them (NULL). */
static void rails_log(const struct comm_communicator *comm,
                      const struct comm_coll_hier_rails *rails)
{
    char parts[128] = "";
    size_t used = 0;
    const char *name = comm->name[0] != '\0' ? comm->name : "a communicator";

    if (comm->rank != 0 || !comm_log_is_enabled(COMM_LOG_INFO, "coll")) {
        return;
    }
    if (rails == NULL) {
        comm_log_info("coll",
                      "%s (%d ranks): hosts or groups of unequal size, long vectors go "
                      "through the leaders (no rails)",
                      name, comm->size);
        return;
    }
    for (int s = 0; s < rails->nrails && used < sizeof(parts); s++) {
        used += (size_t)snprintf(parts + used, sizeof(parts) - used, "%s%d", s == 0 ? "" : " x ",
                                 rails->parts[s]);
    }
    comm_log_info("coll", "%s (%d ranks): long vectors over the rails, pieces cut %s", name,
                  comm->size, parts);
}

const struct comm_coll_hier_rails *comm_coll_hier_rails_get(struct comm_communicator *comm)
{
    struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct comm_coll_hier_rails *rails;
    size_t p;
    long *below, *key;
    int *place;
    bool regular;

    if (h == NULL || h->rails_checked) {
        return h == NULL ? NULL : h->rails;
    }
    h->rails_checked = true;
    p = (size_t)comm->size;
    rails = calloc(1, sizeof(*rails));
    below = malloc(p * sizeof(*below));
    key = malloc(p * (size_t)h->nstages * sizeof(*key));
    place = malloc(p * (size_t)h->nstages * sizeof(*place));
    regular = rails != NULL && below != NULL && key != NULL && place != NULL &&
              rails_place(h, comm, rails, below, key, place);
    if (regular) {
        rails->nrails = h->nstages;
        rails->rail[0] = h->stage[0];
        rails->member[0] = h->member[0];
        rails->order = malloc(p * sizeof(*rails->order));
        regular = rails->order != NULL;
        for (size_t r = 0; r < p && regular; r++) {
            long at = 0;

            for (int s = 0; s < h->nstages; s++) {
                at = at * rails->parts[s] + place[(size_t)s * p + r];
            }
            rails->order[r] = (int)at;
        }
        for (int s = 1; s < h->nstages && regular; s++) {
            regular = rails_make(s, comm, rails, key) == COMM_OK;
        }
    }
    rails_log(comm, regular ? rails : NULL);
    if (regular) {
        h->rails = rails;
    } else if (rails != NULL) {
        rails->nrails = h->nstages;
        comm_coll_hier_rails_free(rails);
    }
    free(below);
    free(key);
    free(place);
    return h->rails;
}

bool comm_coll_hier_use_rails(struct comm_communicator *comm, size_t bytes)
{
    return bytes >= comm_coll_hier_floor(COMM_COLL_HIER_RAILS_FLOOR) &&
           comm_coll_hier_rails_get(comm) != NULL;
}

int comm_coll_hier_rail_holder(const struct comm_coll_hier *h,
                               const struct comm_coll_hier_rails *rails, int s,
                               const struct comm_communicator *comm, int rank)
{
    if (s == 0) {
        return comm_coll_hier_stage_rank(h, 0, rank);
    }
    int want = rails_scope_group(h, s - 1, comm, rank);

    /* My rail holds one member of each group of stage s - 1's scope in my group of stage s's
     * scope. */
    for (int i = 0; i < rails->parts[s]; i++) {
        if (rails_scope_group(h, s - 1, comm, rails->member[s][i]) == want) {
            return i;
        }
    }
    return -1;
}

void comm_coll_hier_rail_block(MPI_Count count, int parts, int index, MPI_Count *first,
                               MPI_Count *n)
{
    MPI_Count q = count / parts, rem = count % parts;

    /* coll_blocks_split's cut: the first rem blocks hold one element more. */
    *first = q * index + (index < rem ? index : rem);
    *n = q + (index < rem ? 1 : 0);
}

static void *rails_at(void *buf, MPI_Count first, const struct comm_datatype *dt)
{
    return (char *)buf + first * dt->extent;
}

/* ---- the steps on one rail --------------------------------------------------------------- */

int comm_coll_hier_rail_reduce_scatter(const void *src, void *buf, MPI_Count count,
                                       struct comm_datatype *dt, struct comm_op *op,
                                       struct comm_communicator *rail, bool in_host)
{
    int parts = rail->size, err = MPI_SUCCESS;
    MPI_Count *displs;

    if (src == NULL) {
        src = buf;
    }
    if (in_host) {
        /* In a host: one shared-memory reduce per block, to its member; a reduce writes only
         * its root's buffer, so SRC may be BUF. */
        for (int b = 0; b < parts && err == MPI_SUCCESS; b++) {
            MPI_Count first, n;

            comm_coll_hier_rail_block(count, parts, b, &first, &n);
            err = comm_coll_hier_reduce(rails_at((void *)(uintptr_t)src, first, dt),
                                        rails_at(buf, first, dt), n, dt, op, b, rail);
        }
        return err;
    }
    displs = malloc((size_t)(parts + 1) * sizeof(*displs));
    if (displs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_coll_blocks_split(count, parts, displs);
    if (src != buf) {
        err = comm_coll_copy(src, buf, count, dt);
    }
    if (err == MPI_SUCCESS) {
        err = comm_coll_blocks_ring_reduce_scatter(buf, displs, dt, op, COMM_COLL_TAG_HIER, rail);
    }
    free(displs);
    return err;
}

int comm_coll_hier_rail_allgather(void *buf, MPI_Count count, struct comm_datatype *dt,
                                  struct comm_communicator *rail, bool in_host)
{
    int parts = rail->size, err = MPI_SUCCESS;
    MPI_Count *displs;

    if (in_host) {
        /* In a host: one shared-memory broadcast per block, from its member. */
        for (int b = 0; b < parts && err == MPI_SUCCESS; b++) {
            MPI_Count first, n;

            comm_coll_hier_rail_block(count, parts, b, &first, &n);
            err = comm_coll_hier_bcast(rails_at(buf, first, dt), n, dt, b, rail);
        }
        return err;
    }
    displs = malloc((size_t)(parts + 1) * sizeof(*displs));
    if (displs == NULL) {
        return MPI_ERR_NO_MEM;
    }
    comm_coll_blocks_split(count, parts, displs);
    err = comm_coll_blocks_ring_allgather(buf, displs, dt, COMM_COLL_TAG_HIER, rail);
    free(displs);
    return err;
}

/* Member ROOT sends (SEND) or gathers (!SEND) every other member's block. */
static int rails_fan(void *buf, MPI_Count count, struct comm_datatype *dt, int root, bool send,
                     struct comm_communicator *rail)
{
    int parts = rail->size, err = MPI_SUCCESS;
    MPI_Count first, n;

    if (rail->rank != root) {
        comm_coll_hier_rail_block(count, parts, rail->rank, &first, &n);
        return send
                   ? comm_coll_recv(rails_at(buf, first, dt), n, dt, root, COMM_COLL_TAG_HIER, rail)
                   : comm_coll_send(rails_at(buf, first, dt), n, dt, root, COMM_COLL_TAG_HIER,
                                    rail);
    }
    for (int b = 0; b < parts && err == MPI_SUCCESS; b++) {
        if (b == root) {
            continue;
        }
        comm_coll_hier_rail_block(count, parts, b, &first, &n);
        err = send ? comm_coll_send(rails_at(buf, first, dt), n, dt, b, COMM_COLL_TAG_HIER, rail)
                   : comm_coll_recv(rails_at(buf, first, dt), n, dt, b, COMM_COLL_TAG_HIER, rail);
    }
    return err;
}

int comm_coll_hier_rail_scatter(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                                struct comm_communicator *rail)
{
    return rails_fan(buf, count, dt, root, true, rail);
}

int comm_coll_hier_rail_gather(void *buf, MPI_Count count, struct comm_datatype *dt, int root,
                               struct comm_communicator *rail)
{
    return rails_fan(buf, count, dt, root, false, rail);
}

/* ---- a vector's way through the rails ---------------------------------------------------- */

void comm_coll_hier_walk_init(struct comm_coll_hier_walk *w, MPI_Count count)
{
    w->at = 0;
    w->len = count;
}

void comm_coll_hier_walk_step(struct comm_coll_hier_walk *w,
                              const struct comm_coll_hier_rails *rails, int s)
{
    MPI_Count off, k;

    w->first[s] = w->at;
    w->n[s] = w->len;
    comm_coll_hier_rail_block(w->len, rails->parts[s], rails->rail[s]->rank, &off, &k);
    w->at += off;
    w->len = k;
}

int comm_coll_hier_rails_reduce_scatter(const void *sbuf, void *buf, MPI_Count count,
                                        struct comm_datatype *dt, struct comm_op *op,
                                        const struct comm_coll_hier_rails *rails,
                                        struct comm_coll_hier_walk *w)
{
    int err = MPI_SUCCESS;

    comm_coll_hier_walk_init(w, count);
    for (int s = 0; s < rails->nrails - 1 && err == MPI_SUCCESS; s++) {
        /* My input is whole only at the host: after that, BUF holds my pieces. */
        err = comm_coll_hier_rail_reduce_scatter(s == 0 ? sbuf : NULL, rails_at(buf, w->at, dt),
                                                 w->len, dt, op, rails->rail[s], s == 0);
        comm_coll_hier_walk_step(w, rails, s);
    }
    return err;
}

int comm_coll_hier_rails_allgather(void *buf, struct comm_datatype *dt,
                                   const struct comm_coll_hier_rails *rails,
                                   const struct comm_coll_hier_walk *w)
{
    int err = MPI_SUCCESS;

    for (int s = rails->nrails - 2; s >= 0 && err == MPI_SUCCESS; s--) {
        err = comm_coll_hier_rail_allgather(rails_at(buf, w->first[s], dt), w->n[s], dt,
                                            rails->rail[s], s == 0);
    }
    return err;
}
