/*
 * communicator.c - the predefined communicators, handle lookup, context ids.
 *
 * Layer: runtime core.  Must not: check MPI arguments or print.
 */
#include "config.h"

#include "runtime/comm/communicator.h"

#include "base/error.h"
#include "runtime/job_topo.h"
#include "runtime/comm/proc_topo.h"
#include "runtime/thread.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    COMMUNICATOR_WORLD_CONTEXT = 0,
    COMMUNICATOR_SELF_CONTEXT = 2,
    COMMUNICATOR_WORLD_HIER = 4, /* MPI_COMM_WORLD's hierarchy, 4 to 4 + 2 * (slots - 1) */
    COMMUNICATOR_FIRST_FREE = COMMUNICATOR_WORLD_HIER + 2 * COMM_HIER_CONTEXTS,
    /* Derived communicators' handles are this plus their context: a handle is checked against
     * the table without touching memory it might not point to. */
    COMMUNICATOR_HANDLE_BASE = 0x10000,
};

static struct comm_communicator communicator_world;
static struct comm_communicator communicator_self;
static long communicator_self_world_rank;

/* Derived communicators by context / 2; contexts are never reused.  Guarded by the core
 * lock. */
static struct comm_communicator **communicator_by_ctx;
static size_t communicator_nctx;
static uint32_t communicator_next = COMMUNICATOR_FIRST_FREE;
/* Which world ranks run on this host. */
static bool *communicator_local;
static long communicator_world_size;
/* Messages for contexts not made here yet, in arrival order. */
static struct comm_match_queues communicator_parked;
/* What gives each communicator its collectives (the collective layer's, through
 * comm_runtime_init). */
static comm_coll_attach_fn communicator_coll_attach;

static void communicator_free_levels(struct comm_communicator *c)
{
    for (int l = 0; l < c->nlevels; l++) {
        comm_topo_groups_free(&c->levels[l]);
    }
    free(c->levels);
    c->levels = NULL;
    c->nlevels = 0;
}

/* C's groups and leaders at each of the job's levels, from its members' world ranks. */
static int communicator_make_levels(struct comm_communicator *c)
{
    int nlevels = comm_job_topo_nlevels();
    long *keys;
    int rc = COMM_OK;

    if (nlevels == 0) {
        return COMM_OK;
    }
    keys = malloc((size_t)c->size * sizeof(*keys));
    c->levels = calloc((size_t)nlevels, sizeof(*c->levels));
    if (keys == NULL || c->levels == NULL) {
        free(keys);
        free(c->levels);
        c->levels = NULL;
        return COMM_ERR_NOMEM;
    }
    for (int l = 0; l < nlevels && rc == COMM_OK; l++) {
        for (int r = 0; r < c->size; r++) {
            keys[r] = comm_job_topo_key(comm_communicator_world_rank(c, r), l);
        }
        rc = comm_topo_group(keys, c->size, comm_job_topo_key_bound(l), &c->levels[l]);
        c->nlevels = l + 1;
    }
    free(keys);
    if (rc < 0) {
        communicator_free_levels(c);
    }
    return rc;
}

int comm_communicator_shared_level(const struct comm_communicator *comm, int a, int b)
{
    int l = 0;

    while (l < comm->nlevels && comm->levels[l].group[a] != comm->levels[l].group[b]) {
        l++;
    }
    return l;
}

int comm_communicator_init_predefined(int rank, int size, const long *local_peers, size_t nlocal,
                                      comm_coll_attach_fn coll_attach)
{
    int rc;

    communicator_coll_attach = coll_attach;
    communicator_local = calloc((size_t)size, sizeof(*communicator_local));
    if (communicator_local == NULL) {
        return COMM_ERR_NOMEM;
    }
    communicator_world_size = size;
    for (size_t i = 0; i < nlocal; i++) {
        if (local_peers[i] >= 0 && local_peers[i] < size) {
            communicator_local[local_peers[i]] = true;
        }
    }
    communicator_world = (struct comm_communicator){
        .handle = MPI_COMM_WORLD,
        .rank = rank,
        .size = size,
        .context_id = COMMUNICATOR_WORLD_CONTEXT,
        .errhandler = comm_errhandler_lookup(MPI_ERRORS_ARE_FATAL),
        .magic = COMM_COMMUNICATOR_MAGIC,
        .predefined = true,
        .host_local = nlocal == (size_t)size,
    };
    snprintf(communicator_world.name, sizeof(communicator_world.name), "MPI_COMM_WORLD");
    communicator_self_world_rank = rank;
    communicator_self = (struct comm_communicator){
        .handle = MPI_COMM_SELF,
        .rank = 0,
        .size = 1,
        .context_id = COMMUNICATOR_SELF_CONTEXT,
        .world_ranks = &communicator_self_world_rank,
        .errhandler = comm_errhandler_lookup(MPI_ERRORS_ARE_FATAL),
        .magic = COMM_COMMUNICATOR_MAGIC,
        .predefined = true,
        .host_local = true,
    };
    snprintf(communicator_self.name, sizeof(communicator_self.name), "MPI_COMM_SELF");
    rc = communicator_make_levels(&communicator_world);
    if (rc == COMM_OK) {
        rc = communicator_make_levels(&communicator_self);
    }
    if (rc == COMM_OK) {
        rc = coll_attach(&communicator_world);
    }
    if (rc == COMM_OK) {
        rc = coll_attach(&communicator_self);
    }
    return rc;
}

bool comm_communicator_is_local(long world_rank)
{
    return world_rank >= 0 && world_rank < communicator_world_size &&
           communicator_local[world_rank];
}

/* Communicators whose last reference went inside the engine, waiting to be destroyed. */
static struct comm_communicator *communicator_zombies;
static void communicator_bury_zombies(void);

static void communicator_free_coll_state(struct comm_communicator *c)
{
    if (c->coll_state_free != NULL) {
        c->coll_state_free(c);
    }
    c->coll_state = NULL;
    c->coll_state_free = NULL;
    c->coll_shm_deferred = 0;
    if (c->hier_free != NULL) {
        c->hier_free(c);
    }
    c->hier = NULL;
    c->hier_free = NULL;
}

uint32_t comm_communicator_hier_context(const struct comm_communicator *comm, int slot)
{
    uint32_t base = comm->context_id == COMMUNICATOR_WORLD_CONTEXT ? COMMUNICATOR_WORLD_HIER
                                                                   : comm->context_id + 2;

    return base + 2 * (uint32_t)slot;
}

void comm_communicator_finalize_predefined(void)
{
    communicator_bury_zombies();
    communicator_free_coll_state(&communicator_world);
    communicator_free_coll_state(&communicator_self);
    comm_match_drain(&communicator_world.match);
    comm_match_drain(&communicator_self.match);
    comm_match_drain(&communicator_world.coll_match);
    comm_match_drain(&communicator_self.coll_match);
    comm_match_drain(&communicator_parked);
    comm_errhandler_release(communicator_world.errhandler);
    comm_errhandler_release(communicator_self.errhandler);
    communicator_free_levels(&communicator_world);
    communicator_free_levels(&communicator_self);
    free(communicator_local);
    communicator_local = NULL;
    communicator_world_size = 0;
}

struct comm_communicator *comm_communicator_lookup(MPI_Comm handle)
{
    struct comm_communicator *c;
    uintptr_t slot;

    if (handle == MPI_COMM_WORLD) {
        return &communicator_world;
    }
    if (handle == MPI_COMM_SELF) {
        return &communicator_self;
    }
    slot = ((uintptr_t)handle - COMMUNICATOR_HANDLE_BASE) / 2;
    if ((uintptr_t)handle < COMMUNICATOR_HANDLE_BASE || ((uintptr_t)handle & 1) != 0) {
        return NULL;
    }
    comm_core_lock();
    c = slot < communicator_nctx ? communicator_by_ctx[slot] : NULL;
    if (c != NULL && c->magic != COMM_COMMUNICATOR_MAGIC) {
        c = NULL;
    }
    comm_core_unlock();
    return c;
}

uint32_t comm_communicator_next_context(void)
{
    uint32_t next;

    comm_core_lock();
    next = communicator_next;
    comm_core_unlock();
    return next;
}

void comm_communicator_reserve_context(uint32_t context)
{
    comm_core_lock();
    if (context + COMM_CONTEXT_SPAN > communicator_next) {
        communicator_next = context + COMM_CONTEXT_SPAN;
    }
    comm_core_unlock();
}

bool comm_communicator_claim_context(uint32_t context, uint32_t *next_out)
{
    bool free_here;

    comm_core_lock();
    free_here = context >= communicator_next;
    comm_communicator_reserve_context(context);
    *next_out = communicator_next;
    comm_core_unlock();
    return free_here;
}

/* comm_communicator_create and _create_stage: STAGE marks a hierarchy's stage. */
static int communicator_create(const long *world_ranks, int size, int my_rank, uint32_t context,
                               struct comm_errhandler *errhandler, bool stage,
                               struct comm_communicator **comm_out)
{
    struct comm_communicator *c;
    long *ranks;
    size_t slot = context / 2;
    int rc;

    communicator_bury_zombies();
    c = calloc(1, sizeof(*c));
    ranks = malloc((size_t)size * sizeof(*ranks));

    if (c == NULL || ranks == NULL) {
        free(c);
        free(ranks);
        return COMM_ERR_NOMEM;
    }
    comm_core_lock();
    if (slot >= communicator_nctx) {
        size_t n = communicator_nctx ? communicator_nctx : 64;
        struct comm_communicator **grown;

        while (n <= slot) {
            n *= 2;
        }
        grown = realloc(communicator_by_ctx, n * sizeof(*grown));
        if (grown == NULL) {
            comm_core_unlock();
            free(c);
            free(ranks);
            return COMM_ERR_NOMEM;
        }
        memset(grown + communicator_nctx, 0, (n - communicator_nctx) * sizeof(*grown));
        communicator_by_ctx = grown;
        communicator_nctx = n;
    }
    memcpy(ranks, world_ranks, (size_t)size * sizeof(*ranks));
    c->size = size;
    c->world_ranks = ranks;
    if (communicator_make_levels(c) < 0) {
        comm_core_unlock();
        free(c);
        free(ranks);
        return COMM_ERR_NOMEM;
    }
    /* Messages that came before the communicator, in their order. */
    for (struct comm_unexpected *u = communicator_parked.unexpected_head, *next; u != NULL;
         u = next) {
        next = u->next;
        if ((u->key_context & ~1u) == context) {
            comm_match_remove_unexpected(&communicator_parked, u);
            comm_match_add_unexpected((u->key_context & 1u) ? &c->coll_match : &c->match, u);
        }
    }
    c->handle = (MPI_Comm)(uintptr_t)(COMMUNICATOR_HANDLE_BASE + context);
    c->magic = COMM_COMMUNICATOR_MAGIC;
    c->rank = my_rank;
    c->size = size;
    c->context_id = context;
    c->world_ranks = ranks;
    c->host_local = true;
    for (int r = 0; r < size; r++) {
        c->host_local = c->host_local && comm_communicator_is_local(ranks[r]);
    }
    c->errhandler = errhandler;
    comm_errhandler_retain(errhandler);
    c->refs = 1;
    c->hier_stage = stage;
    communicator_by_ctx[slot] = c;
    comm_communicator_reserve_context(context);
    comm_core_unlock();
    rc = communicator_coll_attach(c);
    if (rc < 0) {
        comm_communicator_free(c);
        return rc;
    }
    *comm_out = c;
    return COMM_OK;
}

int comm_communicator_create(const long *world_ranks, int size, int my_rank, uint32_t context,
                             struct comm_errhandler *errhandler,
                             struct comm_communicator **comm_out)
{
    return communicator_create(world_ranks, size, my_rank, context, errhandler, false, comm_out);
}

int comm_communicator_create_stage(const long *world_ranks, int size, int my_rank,
                                   uint32_t context, struct comm_errhandler *errhandler,
                                   struct comm_communicator **comm_out)
{
    return communicator_create(world_ranks, size, my_rank, context, errhandler, true, comm_out);
}

int comm_communicator_make_inter(struct comm_communicator *comm, const long *remote_world_ranks,
                                 int remote_size, struct comm_communicator *local_comm)
{
    long *ranks = malloc((size_t)(remote_size > 0 ? remote_size : 1) * sizeof(*ranks));

    if (ranks == NULL) {
        return COMM_ERR_NOMEM;
    }
    memcpy(ranks, remote_world_ranks, (size_t)remote_size * sizeof(*ranks));
    comm->inter = true;
    comm->remote_size = remote_size;
    comm->remote_world_ranks = ranks;
    comm->local_comm = local_comm;
    for (int r = 0; r < remote_size; r++) {
        comm->host_local = comm->host_local && comm_communicator_is_local(ranks[r]);
    }
    return communicator_coll_attach(comm);
}

void comm_communicator_park(uint32_t context, struct comm_unexpected *msg)
{
    comm_core_lock();
    msg->key_context = context;
    comm_match_add_unexpected(&communicator_parked, msg);
    comm_core_unlock();
}

static void communicator_destroy(struct comm_communicator *c)
{
    communicator_free_coll_state(c);
    comm_core_lock();
    communicator_by_ctx[c->context_id / 2] = NULL;
    comm_match_drain(&c->match);
    comm_match_drain(&c->coll_match);
    comm_core_unlock();
    comm_errhandler_release(c->errhandler);
    if (c->info != NULL) {
        comm_info_release(c->info);
    }
    c->magic = 0;
    if (c->local_comm != NULL) {
        comm_communicator_free(c->local_comm);
    }
    communicator_free_levels(c);
    comm_proc_topo_attach(c, NULL);
    free((void *)(uintptr_t)c->remote_world_ranks);
    free((void *)(uintptr_t)c->world_ranks);
    free(c);
}

/* Destroys the communicators released inside the engine (outside it now). */
static void communicator_bury_zombies(void)
{
    struct comm_communicator *zombies;

    comm_core_lock();
    zombies = communicator_zombies;
    communicator_zombies = NULL;
    comm_core_unlock();
    while (zombies != NULL) {
        struct comm_communicator *c = zombies;

        zombies = c->zombie_next;
        communicator_destroy(c);
    }
}

void comm_communicator_retain(struct comm_communicator *c)
{
    if (!c->predefined) {
        comm_core_lock();
        c->refs++;
        comm_core_unlock();
    }
}

void comm_communicator_release(struct comm_communicator *c)
{
    if (c->predefined) {
        return;
    }
    comm_core_lock();
    if (--c->refs == 0) {
        c->zombie_next = communicator_zombies;
        communicator_zombies = c;
    }
    comm_core_unlock();
}

void comm_communicator_free(struct comm_communicator *c)
{
    bool last;

    communicator_bury_zombies();
    comm_core_lock();
    c->magic = COMM_COMMUNICATOR_FREED; /* the handle names nothing from now on */
    last = --c->refs == 0;
    comm_core_unlock();
    if (last) {
        communicator_destroy(c);
    }
}

void comm_communicator_each(void (*fn)(struct comm_communicator *c, void *arg), void *arg)
{
    fn(&communicator_world, arg);
    fn(&communicator_self, arg);
    for (size_t i = 0; i < communicator_nctx; i++) {
        if (communicator_by_ctx[i] != NULL) {
            fn(communicator_by_ctx[i], arg);
        }
    }
}

struct comm_communicator *comm_communicator_by_context(uint32_t context_id)
{
    switch (context_id) {
    case COMMUNICATOR_WORLD_CONTEXT:
        return &communicator_world;
    case COMMUNICATOR_SELF_CONTEXT:
        return &communicator_self;
    default:
        return context_id / 2 < communicator_nctx ? communicator_by_ctx[context_id / 2] : NULL;
    }
}
