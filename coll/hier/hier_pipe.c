/*
 * hier_pipe.c - the rails' stages (hier.h) as schedules: the blocking allreduce of a long
 * vector with its stages overlapped, and the nonblocking allreduce and broadcast over the
 * rails.
 *
 * Layer: coll.  Reductions: commutative operations only (as every rails composition).
 *
 * Stages one after another leave links idle: on three tiers the top stage (the pods' pieces
 * across the spine) keeps the rack uplinks half busy while the pod uplinks carry their share,
 * and the stages below wait for it.  Cut into segments, the piece a rank carries above its host
 * goes through the stages as through a pipeline: one schedule per segment, each stage of
 * segment j waiting for the same stage of segment j - 1 (a wait step on the flag that stage
 * signals when it ends), so that while segment j crosses the spine, segment j + 1 is reduced
 * across the racks and segment j - 1 gathered back.  Every link of every level is busy at once,
 * and each still carries the bytes of the stages run in turn (the least, hier.h).
 *
 * The host's stages stay the shared-memory collectives, on the whole vector, before and after
 * the pipeline; the schedules send between communicator ranks (a rail's members,
 * rails->member), with each schedule's own tag on the communicator's collective context.
 *
 * One stage on a rail of p members is a ring: reduce-scatter in p - 1 rounds (member i ends
 * with block i of comm_coll_hier_rail_block, reduced over the rail), allgather in p - 1 more.
 * The top rail runs both (an allreduce of its piece); the rails below run the first on the way
 * up and the second on the way down.
 */
#include "config.h"

#include "coll/coll_blocks.h"
#include "coll/coll_sched.h"
#include "coll/hier/hier.h"
#include "runtime/comm/communicator.h"
#include "runtime/datatype/datatype.h"
#include "runtime/p2p/progress.h"
#include "runtime/p2p/request.h"
#include "base/log.h"

#include <stdlib.h>

/* The most segments a call is cut into (the flags and schedules are per segment). */
enum { PIPE_MAX_SEGMENTS = 64 };

/* One rail as the schedules see it: its members as communicator ranks, and mine among them. */
struct pipe_rail {
    const int *ranks;
    int n, me;
};

static struct pipe_rail pipe_rail(const struct comm_coll_hier_rails *rails, int s)
{
    return (struct pipe_rail){.ranks = rails->member[s], .n = rails->parts[s],
                              .me = rails->rail[s]->rank};
}

static void *pipe_at(void *buf, MPI_Count first, const struct comm_datatype *dt)
{
    return (char *)buf + first * dt->extent;
}

/* What rank 0 says at info, the first time on a communicator (comm_coll_hier's said). */
enum pipe_said { PIPE_SAID_ALLREDUCE = 1, PIPE_SAID_IALLREDUCE = 2, PIPE_SAID_IBCAST = 4 };

/* Rank 0 says at info, the first time on COMM, that an allreduce pipelined its levels above
 * the host (in K segments), or that a nonblocking call went over the rails. */
static void pipe_say(struct comm_communicator *comm, enum pipe_said what, int k)
{
    struct comm_coll_hier *h = comm_coll_hier_get(comm);
    const char *name = comm->name[0] != '\0' ? comm->name : "a communicator";

    if (h == NULL || (h->said & what) || comm->rank != 0) {
        return;
    }
    h->said |= what;
    if (what == PIPE_SAID_ALLREDUCE) {
        comm_log_info("coll", "allreduce on %s: the levels above the host pipelined, %d segments",
                      name, k);
    } else {
        comm_log_info("coll", "%s on %s: over the rails",
                      what == PIPE_SAID_IBCAST ? "ibcast" : "iallreduce", name);
    }
}

/* The stages' order, and the flags of the pipeline. */
struct pipe_marks {
    const bool *prev; /* the segment before's flags (NULL for the first, or without a pipeline) */
    bool *mine;       /* this segment's (NULL without a pipeline) */
    int t;            /* the next stage */
};

static int pipe_stage_begin(struct comm_coll_sched *s, const struct pipe_marks *m)
{
    return m->prev != NULL ? comm_coll_sched_wait(s, &m->prev[m->t]) : MPI_SUCCESS;
}

static int pipe_stage_end(struct comm_coll_sched *s, struct pipe_marks *m)
{
    int err = m->mine != NULL ? comm_coll_sched_signal(s, &m->mine[m->t]) : MPI_SUCCESS;

    m->t++;
    return err;
}

/* Ring reduce-scatter on rail R of the N elements of BUF at FIRST; TMP holds a block. */
static int pipe_reduce_scatter(struct comm_coll_sched *s, struct pipe_rail r, void *buf,
                               MPI_Count first, MPI_Count n, struct comm_datatype *dt,
                               struct comm_op *op, void *tmp)
{
    int p = r.n, right = r.ranks[(r.me + 1) % p], left = r.ranks[(r.me + p - 1) % p];
    int err = MPI_SUCCESS;

    for (int i = 0; i < p - 1 && err == MPI_SUCCESS; i++) {
        int sb = (r.me + 2 * p - i - 1) % p, rb = (r.me + 2 * p - i - 2) % p;
        MPI_Count sf, sn, rf, rn;

        /* Block sb is the one reduced at the step before (or my own input, first). */
        comm_coll_hier_rail_block(n, p, sb, &sf, &sn);
        comm_coll_hier_rail_block(n, p, rb, &rf, &rn);
        err = comm_coll_sched_send(s, pipe_at(buf, first + sf, dt), sn, dt, right);
        err = err == MPI_SUCCESS ? comm_coll_sched_recv(s, tmp, rn, dt, left) : err;
        err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
        err = err == MPI_SUCCESS
                  ? comm_coll_sched_reduce(s, tmp, pipe_at(buf, first + rf, dt), rn, dt, op)
                  : err;
    }
    return err;
}

/* Ring allgather on rail R of the N elements of BUF at FIRST: member i holds block i. */
static int pipe_allgather(struct comm_coll_sched *s, struct pipe_rail r, void *buf,
                          MPI_Count first, MPI_Count n, struct comm_datatype *dt)
{
    int p = r.n, right = r.ranks[(r.me + 1) % p], left = r.ranks[(r.me + p - 1) % p];
    int err = MPI_SUCCESS;

    for (int i = 0; i < p - 1 && err == MPI_SUCCESS; i++) {
        int sb = (r.me + p - i) % p, rb = (r.me + 2 * p - i - 1) % p;
        MPI_Count sf, sn, rf, rn;

        comm_coll_hier_rail_block(n, p, sb, &sf, &sn);
        comm_coll_hier_rail_block(n, p, rb, &rf, &rn);
        err = comm_coll_sched_send(s, pipe_at(buf, first + sf, dt), sn, dt, right);
        err = err == MPI_SUCCESS ? comm_coll_sched_recv(s, pipe_at(buf, first + rf, dt), rn, dt,
                                                        left)
                                 : err;
        err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
    }
    return err;
}

/*
 * Adds to S an allreduce over rails FROM to the top of the N elements of BUF at FIRST (the
 * piece every member of my rail FROM holds): reduce-scatters up to the rail below the top, an
 * allreduce on the top rail, allgathers back down.  TMP holds N elements.  Stage t waits for
 * M->prev[t] and signals M->mine[t] (when given).
 */
static int pipe_build(struct comm_coll_sched *s, const struct comm_coll_hier_rails *rails,
                      int from, void *buf, MPI_Count first, MPI_Count n,
                      struct comm_datatype *dt, struct comm_op *op, void *tmp,
                      struct pipe_marks *m)
{
    MPI_Count at[COMM_HIER_MAX_STAGES], len[COMM_HIER_MAX_STAGES];
    int top = rails->nrails - 1, err = MPI_SUCCESS;

    for (int r = from; r <= top && err == MPI_SUCCESS; r++) {
        struct pipe_rail rail = pipe_rail(rails, r);
        MPI_Count off, k;

        at[r] = first;
        len[r] = n;
        err = pipe_stage_begin(s, m);
        err = err == MPI_SUCCESS ? pipe_reduce_scatter(s, rail, buf, first, n, dt, op, tmp) : err;
        err = err == MPI_SUCCESS ? pipe_stage_end(s, m) : err;
        comm_coll_hier_rail_block(n, rail.n, rail.me, &off, &k);
        first += off;
        n = k;
    }
    for (int r = top; r >= from && err == MPI_SUCCESS; r--) {
        err = pipe_stage_begin(s, m);
        err = err == MPI_SUCCESS ? pipe_allgather(s, pipe_rail(rails, r), buf, at[r], len[r], dt)
                                 : err;
        err = err == MPI_SUCCESS ? pipe_stage_end(s, m) : err;
    }
    return err;
}

/* ---- the blocking allreduce, pipelined ------------------------------------------------ */

int comm_coll_hier_pipe_segments(const struct comm_coll_hier_rails *rails, size_t bytes)
{
    size_t seg = comm_coll_hier_segment();
    size_t piece = bytes / (size_t)rails->parts[0]; /* what a rank carries above its host */
    size_t k;

    if (seg == 0 || rails->nrails < 2) {
        return 1;
    }
    k = (piece + seg - 1) / seg;
    return k < 1 ? 1 : k > PIPE_MAX_SEGMENTS ? PIPE_MAX_SEGMENTS : (int)k;
}

/* The pipeline as the progress engine's DONE sees it. */
struct pipe_run {
    int k, stages;
    struct comm_request **req;
    bool *flags; /* segment j's stage t at [j * stages + t] */
};

/* Whether every segment's schedule has completed.  One that ended on an error never signals
 * its stages: they are signalled here, so that the segments after it end too. */
static bool pipe_done(void *arg)
{
    struct pipe_run *run = arg;
    int done = 0;

    for (int j = 0; j < run->k; j++) {
        if (!comm_request_is_complete(run->req[j])) {
            continue;
        }
        done++;
        if (run->req[j]->error != MPI_SUCCESS) {
            for (int t = 0; t < run->stages; t++) {
                run->flags[j * run->stages + t] = true;
            }
        }
    }
    return done == run->k;
}

/* Builds and starts the K segments' schedules of my piece (N elements of BUF at FIRST) over
 * rails 1 to the top, and waits for them. */
static int pipe_run_segments(struct comm_communicator *comm,
                             const struct comm_coll_hier_rails *rails, void *buf, MPI_Count first,
                             MPI_Count n, struct comm_datatype *dt, struct comm_op *op, int k)
{
    struct pipe_run run = {.k = k, .stages = 2 * (rails->nrails - 1)};
    struct comm_coll_sched *sched[PIPE_MAX_SEGMENTS] = {NULL};
    struct comm_request *req[PIPE_MAX_SEGMENTS] = {NULL};
    MPI_Count *cut = malloc((size_t)(k + 1) * sizeof(*cut));
    int err = MPI_SUCCESS, started = 0;

    run.req = req;
    run.flags = calloc((size_t)k * (size_t)run.stages, sizeof(*run.flags));
    if (cut == NULL || run.flags == NULL) {
        free(cut);
        free(run.flags);
        return MPI_ERR_NO_MEM;
    }
    comm_coll_blocks_split(n, k, cut);
    pipe_say(comm, PIPE_SAID_ALLREDUCE, k);
    /* Every rank makes its K schedules (taking K tags of the communicator) before any starts. */
    for (int j = 0; j < k; j++) {
        struct pipe_marks m = {.prev = j > 0 ? &run.flags[(j - 1) * run.stages] : NULL,
                               .mine = &run.flags[j * run.stages]};
        MPI_Count len = cut[j + 1] - cut[j];
        void *tmp;

        sched[j] = comm_coll_sched_new(comm);
        req[j] = comm_request_alloc(COMM_REQUEST_COLL);
        if (sched[j] == NULL || req[j] == NULL) {
            err = MPI_ERR_NO_MEM;
            continue;
        }
        tmp = comm_coll_sched_elements(sched[j], len, dt);
        err = err != MPI_SUCCESS ? err
              : tmp == NULL      ? MPI_ERR_NO_MEM
                                 : pipe_build(sched[j], rails, 1, buf, first + cut[j], len, dt,
                                              op, tmp, &m);
    }
    for (int j = 0; j < k && err == MPI_SUCCESS; j++) {
        err = comm_coll_sched_start(sched[j], req[j]); /* frees it on failure */
        sched[j] = NULL;                               /* the request owns it */
        started = err == MPI_SUCCESS ? j + 1 : started;
    }
    if (started > 0) {
        run.k = started;
        comm_progress_wait(pipe_done, &run);
    }
    for (int j = 0; j < k; j++) {
        if (j < started && err == MPI_SUCCESS && req[j]->error != MPI_SUCCESS) {
            err = req[j]->error;
        }
        if (sched[j] != NULL) {
            comm_coll_sched_free(sched[j]);
        }
        if (req[j] != NULL) {
            comm_request_free(req[j]);
        }
    }
    free(cut);
    free(run.flags);
    return err;
}

int comm_coll_hier_pipe_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                                  struct comm_datatype *dt, struct comm_op *op,
                                  struct comm_communicator *comm,
                                  const struct comm_coll_hier_rails *rails, int k)
{
    struct comm_coll_hier_walk w;
    int err;

    /* The host: my block of the vector, reduced over my host's ranks in shared memory. */
    comm_coll_hier_walk_init(&w, count);
    err = comm_coll_hier_rail_reduce_scatter(sbuf, rbuf, count, dt, op, rails->rail[0], true);
    comm_coll_hier_walk_step(&w, rails, 0);
    if (err == MPI_SUCCESS) {
        err = pipe_run_segments(comm, rails, rbuf, w.at, w.len, dt, op, k);
    }
    return err == MPI_SUCCESS ? comm_coll_hier_rail_allgather(rbuf, count, dt, rails->rail[0], true)
                              : err;
}

/* ---- the nonblocking allreduce over the rails ----------------------------------------- */

int comm_coll_iallreduce_hier_rails(struct comm_coll_sched *s, const void *sbuf, void *rbuf,
                                    MPI_Count count, struct comm_datatype *dt, struct comm_op *op,
                                    const struct comm_coll_hier_rails *rails)
{
    struct pipe_marks m = {0};
    void *tmp = comm_coll_sched_elements(s, count, dt);
    int err;

    if (tmp == NULL) {
        return MPI_ERR_NO_MEM;
    }
    pipe_say(comm_coll_sched_comm(s), PIPE_SAID_IALLREDUCE, 0);
    err = sbuf == rbuf ? MPI_SUCCESS : comm_coll_sched_copy(s, sbuf, rbuf, count, dt);
    /* Every rail from the host's, with messages (shared memory's collectives block). */
    return err == MPI_SUCCESS ? pipe_build(s, rails, 0, rbuf, 0, count, dt, op, tmp, &m) : err;
}

/* ---- the nonblocking broadcast over the rails ------------------------------------------ */

/* Member ROOT of rail R hands each member its block of the N bytes of BUF at FIRST. */
static int pipe_scatter(struct comm_coll_sched *s, struct pipe_rail r, int root, char *buf,
                        MPI_Count first, MPI_Count n, struct comm_datatype *byte)
{
    int err = MPI_SUCCESS;
    MPI_Count f, k;

    if (r.me != root) {
        comm_coll_hier_rail_block(n, r.n, r.me, &f, &k);
        err = comm_coll_sched_recv(s, buf + first + f, k, byte, r.ranks[root]);
    }
    for (int b = 0; b < r.n && r.me == root && err == MPI_SUCCESS; b++) {
        if (b != root) {
            comm_coll_hier_rail_block(n, r.n, b, &f, &k);
            err = comm_coll_sched_send(s, buf + first + f, k, byte, r.ranks[b]);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

/* Binomial broadcast on rail R from member ROOT of the N bytes of BUF at FIRST. */
static int pipe_bcast(struct comm_coll_sched *s, struct pipe_rail r, int root, char *buf,
                      MPI_Count first, MPI_Count n, struct comm_datatype *byte)
{
    int vr = (r.me - root + r.n) % r.n, mask = 1, err = MPI_SUCCESS;

    while (mask < r.n) {
        if (vr & mask) {
            err = comm_coll_sched_recv(s, buf + first, n, byte, r.ranks[(vr - mask + root) % r.n]);
            err = err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1) {
        if (vr + mask < r.n) {
            err = comm_coll_sched_send(s, buf + first, n, byte, r.ranks[(vr + mask + root) % r.n]);
        }
    }
    return err == MPI_SUCCESS ? comm_coll_sched_round(s) : err;
}

int comm_coll_ibcast_hier_rails(struct comm_coll_sched *s, void *buf, MPI_Count count,
                                struct comm_datatype *dt, int root,
                                const struct comm_coll_hier_rails *rails)
{
    struct comm_communicator *comm = comm_coll_sched_comm(s);
    const struct comm_coll_hier *h = comm_coll_hier_get(comm);
    struct comm_datatype *byte = comm_datatype_lookup(MPI_BYTE);
    MPI_Count n = count * (MPI_Count)dt->size;
    int last = rails->nrails - 1, err = MPI_SUCCESS;
    struct comm_coll_hier_walk w;
    char *bytes;

    if (h == NULL) {
        return MPI_ERR_NO_MEM;
    }
    /* The rails cut packed bytes (the ranks' type maps may differ, the bytes do not): a
     * contiguous buffer is cut where it lies, any other goes through a packed copy. */
    bytes = dt->contiguous ? (char *)buf + dt->true_lb : comm_coll_sched_buffer(s, (size_t)n);
    if (bytes == NULL) {
        return MPI_ERR_NO_MEM;
    }
    if (!dt->contiguous && comm->rank == root) {
        err = comm_coll_sched_pack(s, buf, count, dt, bytes);
    }
    comm_coll_hier_walk_init(&w, n);
    for (int r = 0; r < last && err == MPI_SUCCESS; r++) {
        /* In the root's group of this rail's scope, the root's side cuts its piece up. */
        if (comm_coll_hier_in_my_scope(h, r, comm, root)) {
            err = pipe_scatter(s, pipe_rail(rails, r),
                               comm_coll_hier_rail_holder(h, rails, r, comm, root), bytes, w.at,
                               w.len, byte);
        }
        comm_coll_hier_walk_step(&w, rails, r);
    }
    if (err == MPI_SUCCESS) {
        err = pipe_bcast(s, pipe_rail(rails, last),
                         comm_coll_hier_rail_holder(h, rails, last, comm, root), bytes, w.at,
                         w.len, byte);
    }
    for (int r = last - 1; r >= 0 && err == MPI_SUCCESS; r--) {
        err = pipe_allgather(s, pipe_rail(rails, r), bytes, w.first[r], w.n[r], byte);
    }
    if (err == MPI_SUCCESS && !dt->contiguous && comm->rank != root) {
        err = comm_coll_sched_unpack(s, bytes, buf, count, dt);
    }
    pipe_say(comm, PIPE_SAID_IBCAST, 0);
    return err;
}
