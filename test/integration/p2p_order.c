/*
 * p2p_order.c - integration test of MPI's non-overtaking rule: messages from one sender that
 * match the same receive arrive in the order they were sent, whatever their size, send mode,
 * and whether the receive was posted before (expected) or after (unexpected) they arrived.
 *
 *   p2p_order [COUNT [BIG-BYTES]]   (defaults 2000 and 262144; any number of ranks >= 2)
 *
 * Each rank sends COUNT messages of mixed sizes (mostly small, every 97th one BIG-BYTES) to the
 * next rank in five phases; every payload carries a header with its sender, phase and sequence
 * number and a pattern derived from them, checked byte for byte:
 *   1. one tag, all Isend, receives posted after the sender said it is done (unexpected path);
 *   2. one tag, receives all pre-posted (expected path), sends mixing Send and Isend;
 *   3. four tags, receiver takes one tag at a time in reverse order: order per tag holds;
 *   4. four tags, MPI_ANY_TAG from the one sender: exact send order, mixed Send/Isend;
 *   5. every rank sends to every other rank, received with MPI_ANY_SOURCE and MPI_ANY_TAG in
 *      windows of Irecvs and single Recvs: per-sender order holds in posting order.
 * Plain portable MPI, relying only on what the standard guarantees; no collectives.  Prints
 * "p2p_order R: ok" per rank, or "FAIL: p2p_order rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    NTAGS = 4,
    WINDOW = 16,
    TAG_NOTICE = 1000, /* plus the phase */
};

struct header {
    int32_t src;
    int32_t phase;
    int32_t seq;
    int32_t len;
};

static const char *prog = "p2p_order";
static int rank, size, next, prev;
static int count = 2000, big = 262144;

#include "p2p_check.h"

static uint32_t mix(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h =
        a * 0x9e3779b1u ^ (b + 0x7f4a7c15u) * 0x85ebca6bu ^ (c + 0x165667b1u) * 0xc2b2ae35u;

    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

/* Length in bytes of message SEQ of PHASE from SRC: mostly small, every 97th one big. */
static int msg_len(int phase, int src, int seq)
{
    if (seq % 97 == 41) {
        return big;
    }
    return (int)sizeof(struct header) +
           (int)(mix((uint32_t)phase, (uint32_t)src, (uint32_t)seq) % 2000u);
}

static int msg_tag(int phase, int src, int seq)
{
    if (phase <= 2) {
        return 10 * phase;
    }
    return 10 * phase + (int)(mix((uint32_t)src, (uint32_t)seq, 77u) % NTAGS);
}

static void fill(unsigned char *buf, int phase, int src, int seq)
{
    struct header h = {src, phase, seq, msg_len(phase, src, seq)};
    uint32_t v = mix((uint32_t)src, (uint32_t)seq, (uint32_t)phase);

    memcpy(buf, &h, sizeof(h));
    for (int k = (int)sizeof(h); k < h.len; k++) {
        buf[k] = (unsigned char)(v + (uint32_t)k * 31u);
    }
}

/* Checks that BUF, received with status ST, is message SEQ of PHASE from SRC. */
static void verify(const unsigned char *buf, const MPI_Status *st, int phase, int src, int seq)
{
    struct header h;
    int len = msg_len(phase, src, seq), n = -1;
    uint32_t v = mix((uint32_t)src, (uint32_t)seq, (uint32_t)phase);

    memcpy(&h, buf, sizeof(h));
    if (h.src != src || h.phase != phase || h.seq != seq || h.len != len) {
        fail(__LINE__,
             "phase %d: got message %d of phase %d from rank %d (len %d), expected message %d from "
             "rank %d",
             phase, h.seq, h.phase, h.src, h.len, seq, src);
    }
    MPI_Get_count(st, MPI_BYTE, &n);
    if (st->MPI_SOURCE != src || st->MPI_TAG != msg_tag(phase, src, seq) || n != len) {
        fail(__LINE__, "phase %d message %d from rank %d: status source %d tag %d count %d", phase,
             seq, src, st->MPI_SOURCE, st->MPI_TAG, n);
    }
    for (int k = (int)sizeof(h); k < len; k++) {
        if (buf[k] != (unsigned char)(v + (uint32_t)k * 31u)) {
            fail(__LINE__, "phase %d message %d from rank %d: byte %d of %d is wrong", phase, seq,
                 src, k, len);
        }
    }
}

/* Builds the NMSG messages of PHASE in one arena; OFF_OUT[i] is message i's offset. */
static unsigned char *build(int phase, int nmsg, size_t **off_out)
{
    size_t *off = malloc(sizeof(*off) * (size_t)(nmsg + 1));
    unsigned char *arena;

    CHECK(off != NULL);
    off[0] = 0;
    for (int i = 0; i < nmsg; i++) {
        off[i + 1] = off[i] + (size_t)msg_len(phase, rank, i);
    }
    arena = malloc(off[nmsg]);
    CHECK(arena != NULL);
    for (int i = 0; i < nmsg; i++) {
        fill(arena + off[i], phase, rank, i);
    }
    *off_out = off;
    return arena;
}

/* Phase 1: all sends are Isend; the receiver waits for the sender's notice before it posts its
 * receives, so most messages are unexpected when their receive is posted. */
static void phase_unexpected(unsigned char *rbuf)
{
    const int phase = 1;
    size_t *off;
    unsigned char *arena = build(phase, count, &off);
    MPI_Request *reqs = malloc(sizeof(*reqs) * (size_t)count), notice;
    MPI_Status st;
    int notice_out = 0, notice_in = 0;

    CHECK(reqs != NULL);
    for (int i = 0; i < count; i++) {
        CHECK_MPI(MPI_Isend(arena + off[i], msg_len(phase, rank, i), MPI_BYTE, next,
                            msg_tag(phase, rank, i), MPI_COMM_WORLD, &reqs[i]));
    }
    CHECK_MPI(
        MPI_Isend(&notice_out, 0, MPI_INT, next, TAG_NOTICE + phase, MPI_COMM_WORLD, &notice));
    CHECK_MPI(MPI_Recv(&notice_in, 0, MPI_INT, prev, TAG_NOTICE + phase, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&notice, MPI_STATUS_IGNORE));
    for (int i = 0; i < count; i++) {
        CHECK_MPI(
            MPI_Recv(rbuf, big, MPI_BYTE, prev, msg_tag(phase, prev, 0), MPI_COMM_WORLD, &st));
        verify(rbuf, &st, phase, prev, i);
    }
    CHECK_MPI(MPI_Waitall(count, reqs, MPI_STATUSES_IGNORE));
    free(reqs);
    free(arena);
    free(off);
}

/* Phase 2: the receiver pre-posts every receive, then tells the sender, which mixes blocking
 * Send (safe: the receive is posted) and Isend. */
static void phase_expected(void)
{
    const int phase = 2;
    size_t *off, *roff;
    unsigned char *arena = build(phase, count, &off), *rarena;
    MPI_Request *rreqs = malloc(sizeof(*rreqs) * (size_t)count);
    MPI_Request *sreqs = malloc(sizeof(*sreqs) * (size_t)count);
    MPI_Status *sts = malloc(sizeof(*sts) * (size_t)count);
    MPI_Request ready;
    int notice_out = 0, notice_in = 0;

    CHECK(rreqs != NULL && sreqs != NULL && sts != NULL);
    roff = malloc(sizeof(*roff) * (size_t)(count + 1));
    CHECK(roff != NULL);
    roff[0] = 0;
    for (int i = 0; i < count; i++) {
        roff[i + 1] = roff[i] + (size_t)msg_len(phase, prev, i);
    }
    rarena = malloc(roff[count]);
    CHECK(rarena != NULL);
    for (int i = 0; i < count; i++) {
        CHECK_MPI(MPI_Irecv(rarena + roff[i], msg_len(phase, prev, i), MPI_BYTE, prev,
                            msg_tag(phase, prev, i), MPI_COMM_WORLD, &rreqs[i]));
    }
    CHECK_MPI(MPI_Isend(&notice_out, 0, MPI_INT, prev, TAG_NOTICE + phase, MPI_COMM_WORLD, &ready));
    CHECK_MPI(MPI_Recv(&notice_in, 0, MPI_INT, next, TAG_NOTICE + phase, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    for (int i = 0; i < count; i++) {
        if (i % 3 == 0) {
            CHECK_MPI(MPI_Isend(arena + off[i], msg_len(phase, rank, i), MPI_BYTE, next,
                                msg_tag(phase, rank, i), MPI_COMM_WORLD, &sreqs[i]));
        } else {
            CHECK_MPI(MPI_Send(arena + off[i], msg_len(phase, rank, i), MPI_BYTE, next,
                               msg_tag(phase, rank, i), MPI_COMM_WORLD));
            sreqs[i] = MPI_REQUEST_NULL;
        }
    }
    CHECK_MPI(MPI_Waitall(count, rreqs, sts));
    for (int i = 0; i < count; i++) {
        verify(rarena + roff[i], &sts[i], phase, prev, i);
    }
    CHECK_MPI(MPI_Waitall(count, sreqs, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Wait(&ready, MPI_STATUS_IGNORE));
    free(rreqs);
    free(sreqs);
    free(sts);
    free(rarena);
    free(roff);
    free(arena);
    free(off);
}

/* Phase 3: four tags; the receiver drains one tag at a time, last tag first. */
static void phase_tags(unsigned char *rbuf)
{
    const int phase = 3;
    size_t *off;
    unsigned char *arena = build(phase, count, &off);
    MPI_Request *reqs = malloc(sizeof(*reqs) * (size_t)count);
    MPI_Status st;

    CHECK(reqs != NULL);
    for (int i = 0; i < count; i++) {
        CHECK_MPI(MPI_Isend(arena + off[i], msg_len(phase, rank, i), MPI_BYTE, next,
                            msg_tag(phase, rank, i), MPI_COMM_WORLD, &reqs[i]));
    }
    for (int t = NTAGS - 1; t >= 0; t--) {
        for (int i = 0; i < count; i++) {
            int tag = msg_tag(phase, prev, i);

            if (tag != 10 * phase + t) {
                continue;
            }
            CHECK_MPI(MPI_Recv(rbuf, big, MPI_BYTE, prev, tag, MPI_COMM_WORLD, &st));
            verify(rbuf, &st, phase, prev, i);
        }
    }
    CHECK_MPI(MPI_Waitall(count, reqs, MPI_STATUSES_IGNORE));
    free(reqs);
    free(arena);
    free(off);
}

/* Phase 4: four tags, received with MPI_ANY_TAG from the one sender, so in send order.  Even
 * ranks send first and odd ranks receive first, so the blocking sends need no buffering. */
static void phase_any_tag(unsigned char *rbuf)
{
    const int phase = 4;
    size_t *off;
    unsigned char *arena = build(phase, count, &off);
    MPI_Request *reqs = malloc(sizeof(*reqs) * (size_t)count);
    MPI_Status st;

    CHECK(reqs != NULL);
    for (int round = 0; round < 2; round++) {
        if ((round == 0) == (rank % 2 == 0)) {
            for (int i = 0; i < count; i++) {
                reqs[i] = MPI_REQUEST_NULL;
                if (i % 2 == 0) {
                    CHECK_MPI(MPI_Isend(arena + off[i], msg_len(phase, rank, i), MPI_BYTE, next,
                                        msg_tag(phase, rank, i), MPI_COMM_WORLD, &reqs[i]));
                } else {
                    CHECK_MPI(MPI_Send(arena + off[i], msg_len(phase, rank, i), MPI_BYTE, next,
                                       msg_tag(phase, rank, i), MPI_COMM_WORLD));
                }
            }
        } else {
            for (int i = 0; i < count; i++) {
                CHECK_MPI(MPI_Recv(rbuf, big, MPI_BYTE, prev, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                verify(rbuf, &st, phase, prev, i);
            }
        }
    }
    CHECK_MPI(MPI_Waitall(count, reqs, MPI_STATUSES_IGNORE));
    free(reqs);
    free(arena);
    free(off);
}

/* Phase 5: everyone sends to everyone; full wildcard receives.  Per sender, the sequence
 * numbers must come in posting order of the receives.  No other message can be in flight to
 * this rank here: all earlier phases are fully received, and nothing is sent afterwards. */
static void phase_any_source(void)
{
    const int phase = 5;
    int per_peer = count / (size - 1) > 0 ? count / (size - 1) : 1;
    int nsend = per_peer * (size - 1), total = nsend, done = 0;
    int *expect = calloc((size_t)size, sizeof(*expect));
    size_t *off;
    unsigned char *arena = build(phase, per_peer, &off), *win;
    MPI_Request *sreqs = malloc(sizeof(*sreqs) * (size_t)nsend), wreqs[WINDOW];
    MPI_Status wsts[WINDOW];
    int posted = 0, k = 0;

    CHECK(expect != NULL && sreqs != NULL);
    win = malloc((size_t)WINDOW * (size_t)big);
    CHECK(win != NULL);
    /* Some receives are posted before any message is sent. */
    posted = total < WINDOW ? total : WINDOW;
    for (int w = 0; w < posted; w++) {
        CHECK_MPI(MPI_Irecv(win + (size_t)w * (size_t)big, big, MPI_BYTE, MPI_ANY_SOURCE,
                            MPI_ANY_TAG, MPI_COMM_WORLD, &wreqs[w]));
    }
    for (int i = 0; i < per_peer; i++) {
        for (int d = 1; d < size; d++) {
            int dst = (rank + d) % size;

            CHECK_MPI(MPI_Isend(arena + off[i], msg_len(phase, rank, i), MPI_BYTE, dst,
                                msg_tag(phase, rank, i), MPI_COMM_WORLD, &sreqs[k++]));
        }
    }
    while (done < total) {
        struct header h;

        if (posted > 0) {
            CHECK_MPI(MPI_Waitall(posted, wreqs, wsts));
            for (int w = 0; w < posted; w++) {
                unsigned char *buf = win + (size_t)w * (size_t)big;

                memcpy(&h, buf, sizeof(h));
                CHECK(h.src >= 0 && h.src < size && h.src != rank);
                verify(buf, &wsts[w], phase, h.src, expect[h.src]++);
            }
            done += posted;
            posted = 0;
        }
        /* A few blocking wildcard receives between the windows. */
        for (int j = 0; j < 3 && done < total; j++) {
            MPI_Status st;

            CHECK_MPI(
                MPI_Recv(win, big, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            memcpy(&h, win, sizeof(h));
            CHECK(h.src >= 0 && h.src < size && h.src != rank);
            verify(win, &st, phase, h.src, expect[h.src]++);
            done++;
        }
        posted = total - done < WINDOW ? total - done : WINDOW;
        for (int w = 0; w < posted; w++) {
            CHECK_MPI(MPI_Irecv(win + (size_t)w * (size_t)big, big, MPI_BYTE, MPI_ANY_SOURCE,
                                MPI_ANY_TAG, MPI_COMM_WORLD, &wreqs[w]));
        }
    }
    for (int s = 0; s < size; s++) {
        if (s != rank && expect[s] != per_peer) {
            fail(__LINE__, "phase 5: %d messages from rank %d, expected %d", expect[s], s,
                 per_peer);
        }
    }
    CHECK_MPI(MPI_Waitall(nsend, sreqs, MPI_STATUSES_IGNORE));
    free(win);
    free(sreqs);
    free(expect);
    free(arena);
    free(off);
}

int main(int argc, char **argv)
{
    unsigned char *rbuf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) {
        count = atoi(argv[1]);
    }
    if (argc > 2) {
        big = atoi(argv[2]);
    }
    if (size < 2 || count < 1 || big < 2048 + (int)sizeof(struct header)) {
        fail(__LINE__, "usage: p2p_order [COUNT [BIG-BYTES]] with COUNT >= 1, BIG-BYTES >= 2064 "
                       "and at least 2 ranks");
    }
    next = (rank + 1) % size;
    prev = (rank - 1 + size) % size;
    rbuf = malloc((size_t)big);
    CHECK(rbuf != NULL);

    phase_unexpected(rbuf);
    phase_expected();
    phase_tags(rbuf);
    phase_any_tag(rbuf);
    phase_any_source();

    free(rbuf);
    printf("%s %d: ok\n", prog, rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
