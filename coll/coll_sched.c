/*
 * coll_sched.c - the engine that runs schedules (see coll_sched.h) from the progress engine.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/coll_sched.h"
#include "runtime/comm/communicator.h"
#include "base/error.h"
#include "runtime/datatype/datatype.h"
#include "runtime/op/op.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"
#include "runtime/thread.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Nonblocking collectives' tags: above every blocking algorithm's. */
enum { SCHED_TAG_BASE = 1 << 20, SCHED_TAG_SPAN = 1 << 20 };

enum sched_kind {
    STEP_SEND,
    STEP_RECV,
    STEP_COPY,
    STEP_REDUCE,
    STEP_CALL,
    STEP_ROUND,
    STEP_WAIT,   /* until *flag */
    STEP_SIGNAL, /* *flag = true */
    STEP_PACK,   /* count elements of dt at src, as bytes at dst */
    STEP_UNPACK  /* the bytes at src into count elements of dt at dst */
};

struct sched_step {
    enum sched_kind kind;
    const void *src;
    void *dst;
    MPI_Count count;
    struct comm_datatype *dt;
    struct comm_op *op;
    int peer;
    struct comm_communicator *comm; /* send, recv: the communicator the peer is a rank of */
    int (*fn)(struct comm_coll_sched *s, void *arg);
    void *arg;
    bool *flag;              /* wait, signal */
    struct comm_request req; /* send, recv */
};

struct comm_coll_sched {
    struct comm_communicator *comm;
    struct comm_communicator *step_comm; /* where the sends and receives added next go */
    int tag;
    struct sched_step **steps; /* steps never move: calls may add steps while others run */
    size_t nsteps, cap;
    size_t next;        /* the first step not started */
    size_t round_first; /* the first step of the running round */
    void **buffers;
    size_t nbuffers;
    struct comm_request *req; /* the request the schedule completes */
    int error;
    struct comm_coll_sched *active_next;
};

/* Schedules that have started and not finished, in start order. */
static struct comm_coll_sched *sched_active;
static struct comm_coll_sched **sched_active_tail = &sched_active;

int comm_coll_sched_take_tag(struct comm_communicator *comm)
{
    return SCHED_TAG_BASE + (int)(comm->coll_seq++ % SCHED_TAG_SPAN);
}

struct comm_coll_sched *comm_coll_sched_new_tagged(struct comm_communicator *comm, int tag)
{
    struct comm_coll_sched *s = calloc(1, sizeof(*s));

    if (s == NULL) {
        return NULL;
    }
    s->comm = comm;
    s->step_comm = comm;
    s->tag = tag;
    return s;
}

struct comm_coll_sched *comm_coll_sched_new(struct comm_communicator *comm)
{
    return comm_coll_sched_new_tagged(comm, comm_coll_sched_take_tag(comm));
}

struct comm_communicator *comm_coll_sched_comm(const struct comm_coll_sched *s)
{
    return s->step_comm;
}

void comm_coll_sched_set_comm(struct comm_coll_sched *s, struct comm_communicator *comm)
{
    s->step_comm = comm;
}

static struct sched_step *sched_add(struct comm_coll_sched *s, enum sched_kind kind)
{
    struct sched_step *step;

    if (s->nsteps == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        struct sched_step **grown = realloc(s->steps, cap * sizeof(*grown));

        if (grown == NULL) {
            return NULL;
        }
        s->steps = grown;
        s->cap = cap;
    }
    step = calloc(1, sizeof(*step));
    if (step == NULL) {
        return NULL;
    }
    step->kind = kind;
    s->steps[s->nsteps++] = step;
    return step;
}

static int sched_add_data(struct comm_coll_sched *s, enum sched_kind kind, const void *src,
                          void *dst, MPI_Count count, struct comm_datatype *dt, struct comm_op *op,
                          int peer)
{
    struct sched_step *step = sched_add(s, kind);

    if (step == NULL) {
        return MPI_ERR_NO_MEM;
    }
    step->src = src;
    step->dst = dst;
    step->count = count;
    step->dt = dt;
    step->op = op;
    step->peer = peer;
    step->comm = s->step_comm;
    if (dt != NULL) {
        comm_datatype_retain(dt);
    }
    if (op != NULL) {
        comm_op_retain(op);
    }
    return MPI_SUCCESS;
}

int comm_coll_sched_send(struct comm_coll_sched *s, const void *buf, MPI_Count count,
                         struct comm_datatype *dt, int peer)
{
    return sched_add_data(s, STEP_SEND, buf, NULL, count, dt, NULL, peer);
}

int comm_coll_sched_recv(struct comm_coll_sched *s, void *buf, MPI_Count count,
                         struct comm_datatype *dt, int peer)
{
    return sched_add_data(s, STEP_RECV, NULL, buf, count, dt, NULL, peer);
}

int comm_coll_sched_copy(struct comm_coll_sched *s, const void *src, void *dst, MPI_Count count,
                         struct comm_datatype *dt)
{
    return sched_add_data(s, STEP_COPY, src, dst, count, dt, NULL, 0);
}

int comm_coll_sched_pack(struct comm_coll_sched *s, const void *buf, MPI_Count count,
                         struct comm_datatype *dt, void *bytes)
{
    return sched_add_data(s, STEP_PACK, buf, bytes, count, dt, NULL, 0);
}

int comm_coll_sched_unpack(struct comm_coll_sched *s, const void *bytes, void *buf, MPI_Count count,
                           struct comm_datatype *dt)
{
    return sched_add_data(s, STEP_UNPACK, bytes, buf, count, dt, NULL, 0);
}

int comm_coll_sched_reduce(struct comm_coll_sched *s, const void *in, void *inout, MPI_Count count,
                           struct comm_datatype *dt, struct comm_op *op)
{
    return sched_add_data(s, STEP_REDUCE, in, inout, count, dt, op, 0);
}

int comm_coll_sched_call(struct comm_coll_sched *s, int (*fn)(struct comm_coll_sched *s, void *arg),
                         void *arg)
{
    struct sched_step *step = sched_add(s, STEP_CALL);

    if (step == NULL) {
        return MPI_ERR_NO_MEM;
    }
    step->fn = fn;
    step->arg = arg;
    return MPI_SUCCESS;
}

static int sched_add_flag(struct comm_coll_sched *s, enum sched_kind kind, bool *flag)
{
    struct sched_step *step = sched_add(s, kind);

    if (step == NULL) {
        return MPI_ERR_NO_MEM;
    }
    step->flag = flag;
    return MPI_SUCCESS;
}

int comm_coll_sched_wait(struct comm_coll_sched *s, const bool *flag)
{
    return sched_add_flag(s, STEP_WAIT, (bool *)(uintptr_t)flag);
}

int comm_coll_sched_signal(struct comm_coll_sched *s, bool *flag)
{
    return sched_add_flag(s, STEP_SIGNAL, flag);
}

int comm_coll_sched_round(struct comm_coll_sched *s)
{
    return sched_add(s, STEP_ROUND) == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

void *comm_coll_sched_buffer(struct comm_coll_sched *s, size_t len)
{
    void **grown = realloc(s->buffers, (s->nbuffers + 1) * sizeof(*grown));
    void *buf;

    if (grown == NULL) {
        return NULL;
    }
    s->buffers = grown;
    buf = calloc(1, len > 0 ? len : 1);
    if (buf != NULL) {
        s->buffers[s->nbuffers++] = buf;
    }
    return buf;
}

void *comm_coll_sched_elements(struct comm_coll_sched *s, MPI_Count count, struct comm_datatype *dt)
{
    size_t span = count > 0 ? (size_t)((count - 1) * dt->extent + dt->true_extent) : 0;
    char *block = comm_coll_sched_buffer(s, span);

    return block == NULL ? NULL : block - dt->true_lb;
}

void comm_coll_sched_free(struct comm_coll_sched *s)
{
    for (size_t i = 0; i < s->nsteps; i++) {
        if (s->steps[i]->dt != NULL) {
            comm_datatype_release(s->steps[i]->dt);
        }
        if (s->steps[i]->op != NULL) {
            comm_op_release(s->steps[i]->op);
        }
        free(s->steps[i]);
    }
    for (size_t i = 0; i < s->nbuffers; i++) {
        free(s->buffers[i]);
    }
    free(s->buffers);
    free(s->steps);
    free(s);
}

static void sched_free_request_part(void *coll)
{
    comm_coll_sched_free(coll);
}

/* Runs steps from s->next until a round that must wait; true when the schedule is done. */
static bool sched_advance(struct comm_coll_sched *s)
{
    while (s->next < s->nsteps && s->error == MPI_SUCCESS) {
        struct sched_step *step = s->steps[s->next];
        int rc = COMM_OK;

        switch (step->kind) {
        case STEP_ROUND:
            for (size_t i = s->round_first; i < s->next; i++) {
                struct sched_step *t = s->steps[i];

                if ((t->kind == STEP_SEND || t->kind == STEP_RECV) && t->peer != MPI_PROC_NULL &&
                    !t->req.complete) {
                    return false;
                }
                if ((t->kind == STEP_SEND || t->kind == STEP_RECV) && t->req.error != MPI_SUCCESS) {
                    s->error = t->req.error;
                }
            }
            s->round_first = ++s->next;
            continue;
        case STEP_SEND:
        case STEP_RECV:
            if (step->peer != MPI_PROC_NULL) {
                comm_coll_request_init(
                    &step->req, step->kind == STEP_SEND ? COMM_REQUEST_SEND : COMM_REQUEST_RECV,
                    step->kind == STEP_SEND ? step->src : step->dst, step->count, step->dt,
                    step->peer, s->tag, step->comm);
                rc = step->kind == STEP_SEND ? comm_p2p_start_send(&step->req)
                                             : comm_p2p_start_recv(&step->req);
            }
            break;
        case STEP_COPY:
            s->error = comm_coll_copy(step->src, step->dst, step->count, step->dt);
            break;
        case STEP_REDUCE:
            rc = comm_op_reduce(step->op, step->src, step->dst, step->count, step->dt);
            break;
        case STEP_CALL:
            s->error = step->fn(s, step->arg);
            break;
        case STEP_WAIT:
            if (!*step->flag) {
                return false; /* another schedule sets it, under the core lock as this runs */
            }
            break;
        case STEP_SIGNAL:
            *step->flag = true;
            break;
        case STEP_PACK:
            comm_datatype_pack(step->dt, step->src, step->count, 0, step->dst,
                               (size_t)step->count * step->dt->size);
            break;
        case STEP_UNPACK:
            comm_datatype_unpack(step->dt, step->dst, step->count, 0, step->src,
                                 (size_t)step->count * step->dt->size);
            break;
        }
        if (rc < 0 && s->error == MPI_SUCCESS) {
            s->error = MPI_ERR_OTHER;
        }
        s->next++;
    }
    if (s->error != MPI_SUCCESS) {
        /* Let what was started finish before the buffers go. */
        for (size_t i = s->round_first; i < s->next; i++) {
            struct sched_step *t = s->steps[i];

            if ((t->kind == STEP_SEND || t->kind == STEP_RECV) && t->peer != MPI_PROC_NULL &&
                !t->req.complete) {
                return false;
            }
        }
        return true;
    }
    /* The last round has no closing step: wait for it as for any other. */
    for (size_t i = s->round_first; i < s->next; i++) {
        struct sched_step *t = s->steps[i];

        if ((t->kind == STEP_SEND || t->kind == STEP_RECV) && t->peer != MPI_PROC_NULL) {
            if (!t->req.complete) {
                return false;
            }
            if (t->req.error != MPI_SUCCESS) {
                s->error = t->req.error;
            }
        }
    }
    return true;
}

/* Takes S off the active list and completes its request (which may free S). */
static void sched_finish(struct comm_coll_sched *s, struct comm_coll_sched **link)
{
    *link = s->active_next;
    if (sched_active_tail == &s->active_next) {
        sched_active_tail = link;
    }
    comm_request_complete(s->req, s->error);
}

static int sched_progress(void)
{
    static bool running;
    struct comm_coll_sched **link = &sched_active;
    int events = 0;

    if (running) {
        return 0;
    }
    running = true;
    while (*link != NULL) {
        struct comm_coll_sched *s = *link;

        if (sched_advance(s)) {
            sched_finish(s, link);
            events++;
        } else {
            link = &s->active_next;
        }
    }
    running = false;
    return events;
}

int comm_coll_sched_start(struct comm_coll_sched *s, struct comm_request *req)
{
    int err = comm_coll_sched_run(s, req);

    if (err != MPI_SUCCESS) {
        comm_coll_sched_free(s);
        return err;
    }
    req->coll = s;
    req->coll_free = sched_free_request_part;
    comm_communicator_retain(req->comm); /* released with the request */
    return MPI_SUCCESS;
}

int comm_coll_sched_run(struct comm_coll_sched *s, struct comm_request *req)
{
    if (comm_progress_add_hook(sched_progress) < 0) {
        return MPI_ERR_INTERN;
    }
    s->req = req;
    req->comm = s->comm;
    req->complete = false;
    req->state = COMM_REQUEST_QUEUED;
    comm_status_set_empty(&req->status);
    comm_core_lock();
    *sched_active_tail = s;
    sched_active_tail = &s->active_next;
    /* Start the first round now: its messages leave before the call returns. */
    sched_progress();
    comm_core_unlock();
    return MPI_SUCCESS;
}
