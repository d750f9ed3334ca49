/*
 * match.c - FIFO matching of receives and messages.
 *
 * Layer: runtime core.  Must not: move data or call transports.
 */
#include "config.h"

#include "runtime/p2p/match.h"
#include "include/mpi.h"

#include <stdlib.h>

/* Records for small messages are reused: a flood of unexpected eager messages would
 * otherwise cost a malloc and a free each.  Guarded by the core lock. */
enum { MATCH_SMALL_PAYLOAD = 256, MATCH_CACHE_MAX = 1024 };
static struct comm_unexpected *match_cache;
static size_t match_cached;

struct comm_unexpected *comm_match_unexpected_alloc(size_t payload)
{
    struct comm_unexpected *u;

    if (payload <= MATCH_SMALL_PAYLOAD && match_cache != NULL) {
        u = match_cache;
        match_cache = u->next;
        match_cached--;
        return u;
    }
    return malloc(sizeof(*u) + (payload <= MATCH_SMALL_PAYLOAD ? MATCH_SMALL_PAYLOAD : payload));
}

void comm_match_unexpected_free(struct comm_unexpected *u)
{
    if (u->data_len <= MATCH_SMALL_PAYLOAD && match_cached < MATCH_CACHE_MAX) {
        u->next = match_cache;
        match_cache = u;
        match_cached++;
        return;
    }
    free(u);
}

bool comm_match_accepts(int want_src, int want_tag, int src, int tag)
{
    return (want_src == MPI_ANY_SOURCE || want_src == src) &&
           (want_tag == MPI_ANY_TAG || want_tag == tag);
}

void comm_match_post(struct comm_match_queues *q, struct comm_posted *p)
{
    p->next = NULL;
    p->prev = q->posted_tail;
    if (q->posted_tail != NULL) {
        q->posted_tail->next = p;
    } else {
        q->posted_head = p;
    }
    q->posted_tail = p;
}

static void match_remove_posted(struct comm_match_queues *q, struct comm_posted *p)
{
    if (p->prev != NULL) {
        p->prev->next = p->next;
    } else {
        q->posted_head = p->next;
    }
    if (p->next != NULL) {
        p->next->prev = p->prev;
    } else {
        q->posted_tail = p->prev;
    }
    p->next = p->prev = NULL;
}

bool comm_match_unpost(struct comm_match_queues *q, struct comm_posted *p)
{
    for (struct comm_posted *i = q->posted_head; i != NULL; i = i->next) {
        if (i == p) {
            match_remove_posted(q, p);
            return true;
        }
    }
    return false;
}

struct comm_posted *comm_match_take_posted(struct comm_match_queues *q, int src, int tag)
{
    for (struct comm_posted *p = q->posted_head; p != NULL; p = p->next) {
        if (comm_match_accepts(p->src, p->tag, src, tag)) {
            match_remove_posted(q, p);
            return p;
        }
    }
    return NULL;
}

void comm_match_add_unexpected(struct comm_match_queues *q, struct comm_unexpected *u)
{
    u->next = NULL;
    u->prev = q->unexpected_tail;
    if (q->unexpected_tail != NULL) {
        q->unexpected_tail->next = u;
    } else {
        q->unexpected_head = u;
    }
    q->unexpected_tail = u;
}

void comm_match_remove_unexpected(struct comm_match_queues *q, struct comm_unexpected *u)
{
    if (u->prev != NULL) {
        u->prev->next = u->next;
    } else {
        q->unexpected_head = u->next;
    }
    if (u->next != NULL) {
        u->next->prev = u->prev;
    } else {
        q->unexpected_tail = u->prev;
    }
    u->next = u->prev = NULL;
}

struct comm_unexpected *comm_match_find_unexpected(struct comm_match_queues *q, int want_src,
                                                   int want_tag, bool take)
{
    for (struct comm_unexpected *u = q->unexpected_head; u != NULL; u = u->next) {
        if (!comm_match_accepts(want_src, want_tag, u->src, u->tag)) {
            continue;
        }
        if (take) {
            comm_match_remove_unexpected(q, u);
        }
        return u;
    }
    return NULL;
}

size_t comm_match_drain(struct comm_match_queues *q)
{
    size_t n = 0;

    while (q->unexpected_head != NULL) {
        struct comm_unexpected *u = q->unexpected_head;

        q->unexpected_head = u->next;
        comm_match_unexpected_free(u);
        n++;
    }
    q->unexpected_tail = NULL;
    return n;
}
