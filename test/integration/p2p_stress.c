/*
 * p2p_stress.c - randomized point-to-point stress test, bounded in time: every rank sends
 * messages of random sizes (0 to 256 KiB, mostly small) with one of four tags to random ranks
 * (itself included) with Isend and Issend, and receives whatever comes by posted wildcard
 * Irecvs, Iprobe + Recv, Improbe + Mrecv/Imrecv and occasional receives for a given source and
 * tag, switching between these at random.  Each payload carries a header (source, tag,
 * sequence number, length, checksum of the random bytes); the receiver checks the header
 * against the status, the bytes against the checksum, and that per (source, tag) the sequence
 * numbers come in the order the receives were posted, without gaps.
 *
 *   p2p_stress [SECONDS [SEED]]    (defaults 3 and 1; any number of ranks >= 2)
 *
 * Termination: after SECONDS each rank sends every rank (itself too) one message with tag
 * TAG_COUNT saying how many data messages it sent it, and keeps receiving until it has every
 * count and every announced message.  Then nothing can still arrive, so each receive left
 * posted must be cancelled.  Never blocks except in a receive of a message already probed.
 * Plain portable MPI; no collectives.  Prints "p2p_stress R: ok, N messages, M bytes" per
 * rank (messages and payload bytes received), or "FAIL: p2p_stress rank R: ..." and aborts.
 */
#include <mpi.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    NTAGS = 4, /* data tags are 1 to NTAGS */
    TAG_COUNT = 100,
    MAX_PAYLOAD = 262144,
    MAX_SENDS = 32, /* outstanding sends */
    WILD = 4,       /* wildcard Irecvs kept posted in wildcard mode */
    SPECIFIC = 2,   /* at most this many receives for a given source and tag */
    MAX_RECVS = WILD + SPECIFIC + 8,
    MODE_WILD = 0,
    MODE_PROBE,
    MODE_MPROBE,
    NMODES,
};

struct header {
    int32_t src;
    int32_t tag;
    int32_t seq;
    int32_t len;
    uint32_t sum;
};

/* A receive in posting order; the ordering check walks these front to back. */
struct entry {
    int done; /* completed and verified, or cancelled */
    int data; /* a data message (not a count, not cancelled) */
    int src, tag, seq;
};

/* A pending nonblocking receive. */
struct pending {
    MPI_Request req;
    unsigned char *buf;
    int capacity;
    long entry; /* index into the entry list */
    int specific;
};

static const char *prog = "p2p_stress";
static int rank, size;
static uint64_t rng;

static struct entry *entries;
static long nentries, entries_cap, entries_head;
static struct pending recvs[MAX_RECVS];
static int nrecvs, nwild, nspecific;
static MPI_Request sreqs[MAX_SENDS];
static unsigned char *sbufs[MAX_SENDS];

static int *sent_to, *seq_out, *expect_seq, *got_from, *count_from;
static long nreceived, nbytes, nsent;

#include "p2p_check.h"

static uint64_t next_random(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dULL;
}

static int random_below(int n)
{
    return (int)(next_random() % (uint64_t)n);
}

/* Mostly small: 60% up to 64 bytes, 25% up to 4 KiB, 12% up to 64 KiB, 3% up to 256 KiB. */
static int random_len(void)
{
    int r = random_below(100);

    if (r < 60) {
        return random_below(65);
    }
    if (r < 85) {
        return random_below(4097);
    }
    if (r < 97) {
        return random_below(65537);
    }
    return random_below(MAX_PAYLOAD + 1);
}

static uint32_t checksum(const unsigned char *p, int n)
{
    uint32_t h = 2166136261u;

    for (int i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

static long new_entry(void)
{
    if (nentries == entries_cap) {
        entries_cap = entries_cap ? 2 * entries_cap : 4096;
        entries = realloc(entries, sizeof(*entries) * (size_t)entries_cap);
        CHECK(entries != NULL);
    }
    memset(&entries[nentries], 0, sizeof(entries[0]));
    return nentries++;
}

/* Checks per (source, tag) order over the receives that are done, in posting order. */
static void advance_order(void)
{
    while (entries_head < nentries && entries[entries_head].done) {
        struct entry *e = &entries[entries_head++];

        if (e->data) {
            int *want = &expect_seq[e->src * NTAGS + e->tag - 1];

            if (e->seq != *want) {
                fail(__LINE__,
                     "from rank %d tag %d: message %d came where message %d was due (receive %ld "
                     "in posting order)",
                     e->src, e->tag, e->seq, *want, entries_head - 1);
            }
            (*want)++;
        }
    }
}

/* Verifies a received message against its status and records it in entry E. */
static void accept(const unsigned char *buf, const MPI_Status *st, long e)
{
    struct header h;
    int n = -1;

    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
    if (st->MPI_TAG == TAG_COUNT) {
        int count;

        CHECK(n == (int)sizeof(count));
        memcpy(&count, buf, sizeof(count));
        CHECK(st->MPI_SOURCE >= 0 && st->MPI_SOURCE < size);
        if (count_from[st->MPI_SOURCE] != -1 || count < 0) {
            fail(__LINE__, "second or bad count message (%d) from rank %d", count, st->MPI_SOURCE);
        }
        count_from[st->MPI_SOURCE] = count;
        entries[e].done = 1;
        return;
    }
    if (n < (int)sizeof(h)) {
        fail(__LINE__, "message of %d bytes from rank %d tag %d is shorter than a header", n,
             st->MPI_SOURCE, st->MPI_TAG);
    }
    memcpy(&h, buf, sizeof(h));
    if (h.src != st->MPI_SOURCE || h.tag != st->MPI_TAG || h.len != n - (int)sizeof(h) ||
        h.tag < 1 || h.tag > NTAGS || h.src < 0 || h.src >= size) {
        fail(__LINE__,
             "header (source %d tag %d length %d) does not match the status (source %d tag %d, %d "
             "bytes)",
             h.src, h.tag, h.len, st->MPI_SOURCE, st->MPI_TAG, n);
    }
    if (checksum(buf + sizeof(h), h.len) != h.sum) {
        fail(__LINE__, "message %d from rank %d tag %d: checksum of its %d bytes is wrong", h.seq,
             h.src, h.tag, h.len);
    }
    entries[e].done = 1;
    entries[e].data = 1;
    entries[e].src = h.src;
    entries[e].tag = h.tag;
    entries[e].seq = h.seq;
    got_from[h.src]++;
    nreceived++;
    nbytes += h.len;
}

static void post_recv(int src, int tag, int capacity, int specific)
{
    struct pending *p;

    CHECK(nrecvs < MAX_RECVS);
    p = &recvs[nrecvs++];
    p->buf = malloc((size_t)capacity);
    CHECK(p->buf != NULL);
    p->capacity = capacity;
    p->entry = new_entry();
    p->specific = specific;
    CHECK_MPI(MPI_Irecv(p->buf, capacity, MPI_BYTE, src, tag, MPI_COMM_WORLD, &p->req));
    if (specific == 1) {
        nspecific++;
    } else if (specific == 0) {
        nwild++;
    }
}

static void remove_recv(int i)
{
    free(recvs[i].buf);
    if (recvs[i].specific == 1) {
        nspecific--;
    } else if (recvs[i].specific == 0) {
        nwild--;
    }
    recvs[i] = recvs[--nrecvs];
}

/* Completes whatever pending receives are done. */
static void poll_recvs(void)
{
    MPI_Request reqs[MAX_RECVS];
    MPI_Status sts[MAX_RECVS];
    int idx[MAX_RECVS], out = 0;

    if (nrecvs == 0) {
        return;
    }
    for (int i = 0; i < nrecvs; i++) {
        reqs[i] = recvs[i].req;
    }
    CHECK_MPI(MPI_Testsome(nrecvs, reqs, &out, idx, sts));
    if (out == MPI_UNDEFINED || out == 0) {
        return;
    }
    for (int k = 0; k < out; k++) {
        accept(recvs[idx[k]].buf, &sts[k], recvs[idx[k]].entry);
        recvs[idx[k]].req = MPI_REQUEST_NULL;
    }
    for (int i = nrecvs - 1; i >= 0; i--) {
        if (recvs[i].req == MPI_REQUEST_NULL) {
            remove_recv(i);
        }
    }
    advance_order();
}

/* Iprobe for anything, then a receive of exactly its size from its source with its tag. */
static void probe_and_recv(void)
{
    MPI_Status st, st2;
    unsigned char *buf;
    int flag = 0, n = -1;
    long e;

    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    if (!flag) {
        return;
    }
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    buf = malloc((size_t)(n > 0 ? n : 1));
    CHECK(buf != NULL);
    e = new_entry();
    CHECK_MPI(MPI_Recv(buf, n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2));
    accept(buf, &st2, e);
    free(buf);
    advance_order();
}

/* Improbe for anything, then Mrecv or Imrecv of exactly its size. */
static void mprobe_and_recv(void)
{
    MPI_Message msg;
    MPI_Status st;
    int flag = 0, n = -1;

    CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
    if (!flag) {
        return;
    }
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    if (random_below(2) == 0 && nrecvs < MAX_RECVS) {
        struct pending *p = &recvs[nrecvs++];

        p->buf = malloc((size_t)(n > 0 ? n : 1));
        CHECK(p->buf != NULL);
        p->capacity = n;
        p->entry = new_entry();
        p->specific = 2;
        CHECK_MPI(MPI_Imrecv(p->buf, n, MPI_BYTE, &msg, &p->req));
        CHECK(msg == MPI_MESSAGE_NULL);
    } else {
        unsigned char *buf = malloc((size_t)(n > 0 ? n : 1));
        long e = new_entry();

        CHECK(buf != NULL);
        CHECK_MPI(MPI_Mrecv(buf, n, MPI_BYTE, &msg, &st));
        accept(buf, &st, e);
        free(buf);
        advance_order();
    }
}

static int free_send_slot(void)
{
    int flag;

    for (int i = 0; i < MAX_SENDS; i++) {
        if (sreqs[i] != MPI_REQUEST_NULL) {
            CHECK_MPI(MPI_Test(&sreqs[i], &flag, MPI_STATUS_IGNORE));
            if (flag) {
                free(sbufs[i]);
                sbufs[i] = NULL;
            }
        }
    }
    for (int i = 0; i < MAX_SENDS; i++) {
        if (sreqs[i] == MPI_REQUEST_NULL) {
            return i;
        }
    }
    return -1;
}

static void send_one(int slot)
{
    int dst = random_below(size), tag = 1 + random_below(NTAGS), len = random_len();
    unsigned char *buf = malloc(sizeof(struct header) + (size_t)len);
    struct header h;

    CHECK(buf != NULL);
    for (int i = 0; i < len; i++) {
        buf[sizeof(h) + (size_t)i] = (unsigned char)next_random();
    }
    h.src = rank;
    h.tag = tag;
    h.seq = seq_out[dst * NTAGS + tag - 1]++;
    h.len = len;
    h.sum = checksum(buf + sizeof(h), len);
    memcpy(buf, &h, sizeof(h));
    sbufs[slot] = buf;
    /* Every 16th send is synchronous, which keeps unexpected messages from piling up. */
    if (nsent % 16 == 15) {
        CHECK_MPI(MPI_Issend(buf, (int)sizeof(h) + len, MPI_BYTE, dst, tag, MPI_COMM_WORLD,
                             &sreqs[slot]));
    } else {
        CHECK_MPI(
            MPI_Isend(buf, (int)sizeof(h) + len, MPI_BYTE, dst, tag, MPI_COMM_WORLD, &sreqs[slot]));
    }
    sent_to[dst]++;
    nsent++;
}

/* One round of receive work in MODE; SPECIFIC_OK allows a new receive for a given source. */
static void receive_work(int mode, int specific_ok)
{
    poll_recvs();
    if (mode == MODE_WILD) {
        while (nwild < WILD && nrecvs < MAX_RECVS) {
            post_recv(MPI_ANY_SOURCE, MPI_ANY_TAG, (int)sizeof(struct header) + MAX_PAYLOAD, 0);
        }
    } else if (mode == MODE_PROBE) {
        probe_and_recv();
    } else {
        mprobe_and_recv();
    }
    if (specific_ok && nspecific < SPECIFIC && nrecvs < MAX_RECVS && random_below(200) == 0) {
        post_recv(random_below(size), 1 + random_below(NTAGS),
                  (int)sizeof(struct header) + MAX_PAYLOAD, 1);
    }
}

static int all_received(void)
{
    for (int s = 0; s < size; s++) {
        if (count_from[s] < 0 || got_from[s] < count_from[s]) {
            return 0;
        }
        if (got_from[s] > count_from[s]) {
            fail(__LINE__, "%d messages from rank %d, which announced %d", got_from[s], s,
                 count_from[s]);
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 3.0, t0;
    long seed = argc > 2 ? atol(argv[2]) : 1, iter = 0;
    MPI_Request *count_reqs;
    int mode = MODE_WILD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || seconds < 0) {
        fail(__LINE__, "usage: p2p_stress [SECONDS [SEED]], at least 2 ranks");
    }
    rng = (uint64_t)seed * 1000003u + (uint64_t)rank * 7919u + 1u;
    sent_to = calloc((size_t)size, sizeof(int));
    got_from = calloc((size_t)size, sizeof(int));
    count_from = malloc(sizeof(int) * (size_t)size);
    seq_out = calloc((size_t)size * NTAGS, sizeof(int));
    expect_seq = calloc((size_t)size * NTAGS, sizeof(int));
    count_reqs = malloc(sizeof(*count_reqs) * (size_t)size);
    CHECK(sent_to && got_from && count_from && seq_out && expect_seq && count_reqs);
    for (int s = 0; s < size; s++) {
        count_from[s] = -1;
    }
    for (int i = 0; i < MAX_SENDS; i++) {
        sreqs[i] = MPI_REQUEST_NULL;
    }

    /* Run: random sends and receives until the time is up. */
    t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < seconds) {
        int slot;

        if (iter++ % 64 == 0) {
            mode = random_below(NMODES);
        }
        if (random_below(2) == 0 && (slot = free_send_slot()) >= 0) {
            send_one(slot);
        }
        receive_work(mode, 1);
    }

    /* Drain: announce the counts, then receive until every announced message is in. */
    for (int d = 0; d < size; d++) {
        CHECK_MPI(MPI_Isend(&sent_to[d], 1, MPI_INT, d, TAG_COUNT, MPI_COMM_WORLD, &count_reqs[d]));
    }
    while (!all_received()) {
        if (iter++ % 64 == 0) {
            mode = random_below(NMODES);
        }
        free_send_slot();
        receive_work(mode, 0);
    }

    /* Nothing can arrive any more: every receive still posted must be cancelled. */
    for (int i = nrecvs - 1; i >= 0; i--) {
        MPI_Status st;
        int cancelled = 0;

        CHECK_MPI(MPI_Cancel(&recvs[i].req));
        CHECK_MPI(MPI_Wait(&recvs[i].req, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
        if (!cancelled) {
            fail(__LINE__,
                 "a receive left posted got a message from rank %d tag %d after every announced "
                 "message had arrived",
                 st.MPI_SOURCE, st.MPI_TAG);
        }
        entries[recvs[i].entry].done = 1;
        remove_recv(i);
    }
    advance_order();
    CHECK(entries_head == nentries);
    CHECK_MPI(MPI_Waitall(size, count_reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < MAX_SENDS; i++) {
        CHECK_MPI(MPI_Wait(&sreqs[i], MPI_STATUS_IGNORE));
        free(sbufs[i]);
    }
    /* Every announced message went through the ordering check. */
    for (int s = 0; s < size; s++) {
        int checked = 0;

        for (int t = 0; t < NTAGS; t++) {
            checked += expect_seq[s * NTAGS + t];
        }
        if (checked != count_from[s]) {
            fail(__LINE__, "%d messages from rank %d checked for order, %d announced", checked, s,
                 count_from[s]);
        }
    }

    printf("%s %d: ok, %ld messages, %ld bytes\n", prog, rank, nreceived, nbytes);
    fflush(stdout);
    free(entries);
    free(sent_to);
    free(got_from);
    free(count_from);
    free(seq_out);
    free(expect_seq);
    free(count_reqs);
    MPI_Finalize();
    return 0;
}
