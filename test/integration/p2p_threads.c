/*
 * p2p_threads.c - integration test of MPI_THREAD_MULTIPLE: four threads per rank call MPI at
 * once.
 *
 *   p2p_threads [ROUNDS]    (default 40; any number of ranks >= 2)
 *
 * Every thread of every rank, all at the same time:
 *   1. dups its own communicator from its thread's copy of MPI_COMM_WORLD (communicators made
 *      in several threads at once get distinct contexts), with an attribute of a keyval it
 *      made, one more from its group with MPI_Comm_create_group, and an intercommunicator
 *      between even and odd ranks (MPI_Intercomm_create, then MPI_Intercomm_merge);
 *   2. on rank 0, waits for a message one thread of rank 1 sends 0.3 s later (on
 *      MPI_COMM_WORLD, its own tag): one thread drives progress
 *      and the others sleep, so at least three of the four hardly leave their core meanwhile
 *      (they do not spin);
 *   3. on the shared MPI_COMM_WORLD, sends ROUNDS numbered messages to every other rank with
 *      its own tag (MPI_Isend and MPI_Issend; small and rendezvous sizes) and receives the
 *      same from every other rank with MPI_ANY_SOURCE (MPI_Recv, MPI_Irecv, and MPI_Probe then
 *      MPI_Recv), checking that the messages of each sender arrive in the order they were
 *      sent (MPI's non-overtaking rule, per sending thread);
 *   4. on the shared communicator SHARED, all threads take messages of any tag with
 *      MPI_Mprobe/MPI_Mrecv or MPI_Improbe/MPI_Imrecv, as the standard advises where threads
 *      share a communicator: every message is received exactly once and intact;
 *   5. on its own communicator, runs blocking collectives (barrier, bcast, allreduce,
 *      allgather) and a nonblocking allreduce, with results it checks;
 *   6. exchanges messages with blocking MPI_Sendrecv, MPI_Send and MPI_Recv on its own
 *      communicator;
 *   7. waits on receives with MPI_Waitany and MPI_Waitsome, and tests with MPI_Test;
 *   8. with MPI_ERRORS_RETURN on its communicator, gets MPI_ERR_RANK and MPI_ERR_TAG back.
 * The main thread first checks MPI_Init_thread, MPI_Query_thread and MPI_Is_thread_main, and
 * waits for a generalized request that another thread completes.
 * Prints "p2p_threads R: ok" per rank, or "FAIL: p2p_threads rank R: ..." and aborts.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <mpi.h>

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    NTHREADS = 4,
    TAG_ORDER = 100,   /* plus the thread */
    TAG_SHARED = 200,  /* plus the thread */
    TAG_ANY = 300,     /* plus the thread */
    TAG_SLEEP = 400,   /* plus the thread */
    SLEEP_US = 300000, /* how long rank 1 keeps rank 0's threads waiting */
    BIG = 70000,       /* bytes: above every eager limit */
    HDR = 4,           /* ints at the start of every message: source, thread, seq, length */
};

static int rank, size, rounds = 40;
static MPI_Comm shared;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAIL: p2p_threads rank %d: %s:%d: %s\n", rank, __FILE__, __LINE__, #cond);     \
            fflush(stdout);                                                                        \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                          \
        }                                                                                          \
    } while (0)

/* Bytes of message SEQ of thread T: mostly small, some rendezvous-sized. */
static int msg_len(int t, int seq)
{
    return (seq + t) % 7 == 3 ? BIG : (int)sizeof(int) * (HDR + (seq * 13 + t) % 50);
}

static void fill(int *buf, int src, int t, int seq, int len)
{
    int n = len / (int)sizeof(int);

    buf[0] = src;
    buf[1] = t;
    buf[2] = seq;
    buf[3] = len;
    for (int i = HDR; i < n; i++) {
        buf[i] = src * 1000003 + t * 10007 + seq * 101 + i;
    }
}

static void check_msg(const int *buf, int len, int src, int t, int seq)
{
    int n = len / (int)sizeof(int);

    CHECK(buf[0] == src && buf[1] == t && buf[2] == seq && buf[3] == len);
    for (int i = HDR; i < n; i++) {
        CHECK(buf[i] == src * 1000003 + t * 10007 + seq * 101 + i);
    }
}

/* How often this thread has left its core, voluntarily or not. */
static long thread_switches(void)
{
    struct rusage ru;

    CHECK(getrusage(RUSAGE_THREAD, &ru) == 0);
    return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* Step 2: rank 0's threads wait for messages rank 1 sends after SLEEP_US: one of them polls,
 * the others sleep until their message is there.  A sleeping thread leaves its core a few
 * times; one that polls, or spins yielding its core, thousands of times (QUIET counts the
 * sleepers). */
static void sleepers(int t, int *quiet, pthread_barrier_t *together)
{
    int x = t;
    long switches;

    /* No thread of this rank is still busy elsewhere (it might poll meanwhile). */
    pthread_barrier_wait(together);
    if (rank == 1 && t == 0) {
        int out[NTHREADS];
        MPI_Request reqs[NTHREADS];

        /* All at once: a message that arrives late would pass the polling role around. */
        usleep(SLEEP_US);
        for (int i = 0; i < NTHREADS; i++) {
            out[i] = i;
            CHECK(MPI_Isend(&out[i], 1, MPI_INT, 0, TAG_SLEEP + i, MPI_COMM_WORLD, &reqs[i]) ==
                  MPI_SUCCESS);
        }
        CHECK(MPI_Waitall(NTHREADS, reqs, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    } else if (rank == 0) {
        switches = thread_switches();
        CHECK(MPI_Recv(&x, 1, MPI_INT, 1, TAG_SLEEP + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        CHECK(x == t);
        if (thread_switches() - switches < 20) {
            __atomic_add_fetch(quiet, 1, __ATOMIC_RELAXED);
        }
    }
}

/* Step 3: numbered messages on MPI_COMM_WORLD, received in each sender's order.  The sends are
 * waited for at the end: a thread keeps a receive posted until it has every message due. */
static void order(int t, int *rbuf)
{
    int *next = calloc((size_t)size, sizeof(*next)), n = rounds * (size - 1), got = 0;
    MPI_Request *sreq = malloc((size_t)n * sizeof(*sreq));
    int **sbuf = calloc((size_t)n, sizeof(*sbuf));

    CHECK(next != NULL && sreq != NULL && sbuf != NULL);
    for (int seq = 0; seq < rounds; seq++) {
        for (int d = 1; d < size; d++) {
            int dest = (rank + d) % size, len = msg_len(t, seq), i = seq * (size - 1) + d - 1;
            MPI_Request rreq;
            MPI_Status st;
            int count;

            sbuf[i] = malloc((size_t)len);
            CHECK(sbuf[i] != NULL);
            fill(sbuf[i], rank, t, seq, len);
            if (seq % 3 == 0) {
                CHECK(MPI_Isend(sbuf[i], len, MPI_BYTE, dest, TAG_ORDER + t, MPI_COMM_WORLD,
                                &sreq[i]) == MPI_SUCCESS);
                CHECK(MPI_Recv(rbuf, BIG, MPI_BYTE, MPI_ANY_SOURCE, TAG_ORDER + t, MPI_COMM_WORLD,
                               &st) == MPI_SUCCESS);
            } else if (seq % 3 == 1) {
                CHECK(MPI_Irecv(rbuf, BIG, MPI_BYTE, MPI_ANY_SOURCE, TAG_ORDER + t, MPI_COMM_WORLD,
                                &rreq) == MPI_SUCCESS);
                CHECK(MPI_Issend(sbuf[i], len, MPI_BYTE, dest, TAG_ORDER + t, MPI_COMM_WORLD,
                                 &sreq[i]) == MPI_SUCCESS);
                CHECK(MPI_Wait(&rreq, &st) == MPI_SUCCESS);
            } else {
                /* The tag is this thread's alone: what MPI_Probe finds, MPI_Recv gets. */
                CHECK(MPI_Isend(sbuf[i], len, MPI_BYTE, dest, TAG_ORDER + t, MPI_COMM_WORLD,
                                &sreq[i]) == MPI_SUCCESS);
                CHECK(MPI_Probe(MPI_ANY_SOURCE, TAG_ORDER + t, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
                CHECK(MPI_Get_count(&st, MPI_BYTE, &count) == MPI_SUCCESS);
                CHECK(count == msg_len(t, next[st.MPI_SOURCE]));
                CHECK(MPI_Recv(rbuf, count, MPI_BYTE, st.MPI_SOURCE, TAG_ORDER + t, MPI_COMM_WORLD,
                               &st) == MPI_SUCCESS);
            }
            CHECK(st.MPI_TAG == TAG_ORDER + t && st.MPI_SOURCE != rank);
            CHECK(MPI_Get_count(&st, MPI_BYTE, &count) == MPI_SUCCESS);
            CHECK(count == msg_len(t, next[st.MPI_SOURCE]));
            check_msg(rbuf, count, st.MPI_SOURCE, t, next[st.MPI_SOURCE]);
            next[st.MPI_SOURCE]++;
            got++;
        }
    }
    CHECK(MPI_Waitall(n, sreq, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(got == n);
    for (int r = 0; r < size; r++) {
        CHECK(next[r] == (r == rank ? 0 : rounds));
    }
    for (int i = 0; i < n; i++) {
        free(sbuf[i]);
    }
    free(sbuf);
    free(sreq);
    free(next);
}

/* Step 6: blocking sends on the thread's own communicator: a ring of MPI_Sendrecv, then MPI_Send
 * and MPI_Recv of a rendezvous-sized message, even ranks sending first. */
static void blocking(int t, MPI_Comm comm, int *sbuf, int *rbuf)
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size, count;
    MPI_Status st;

    for (int seq = 0; seq < 4; seq++) {
        int len = msg_len(t, seq);

        fill(sbuf, rank, t, seq, len);
        CHECK(MPI_Sendrecv(sbuf, len, MPI_BYTE, to, seq, rbuf, BIG, MPI_BYTE, from, seq, comm,
                           &st) == MPI_SUCCESS);
        CHECK(st.MPI_SOURCE == from && st.MPI_TAG == seq);
        CHECK(MPI_Get_count(&st, MPI_BYTE, &count) == MPI_SUCCESS && count == len);
        check_msg(rbuf, len, from, t, seq);
    }
    fill(sbuf, rank, t, 99, BIG);
    for (int turn = 0; turn < 2; turn++) {
        if (rank % 2 == turn) {
            CHECK(MPI_Send(sbuf, BIG, MPI_BYTE, to, 7, comm) == MPI_SUCCESS);
        } else {
            CHECK(MPI_Recv(rbuf, BIG, MPI_BYTE, from, 7, comm, &st) == MPI_SUCCESS);
            check_msg(rbuf, BIG, from, t, 99);
        }
    }
}

/* Step 4: threads share SHARED and take messages of any tag with matched probes.  Each thread
 * first claims one of the messages due (COUNTS[NTHREADS] counts the claims), so a blocking
 * Mprobe always has a message left for it. */
static void probes(int t, int *sbuf, int *rbuf, int *counts)
{
    int dest = (rank + 1) % size, from = (rank + size - 1) % size, n = rounds / 2;
    int due = NTHREADS * n, slot;
    MPI_Request *sreq = malloc((size_t)n * sizeof(*sreq));
    int *packed = malloc((size_t)n * BIG);

    CHECK(sreq != NULL && packed != NULL);
    for (int seq = 0; seq < n; seq++) {
        int len = msg_len(t, seq), *buf = (int *)((char *)packed + (size_t)seq * BIG);

        fill(buf, rank, t, seq, len);
        CHECK(MPI_Isend(buf, len, MPI_BYTE, dest, TAG_SHARED + t, shared, &sreq[seq]) ==
              MPI_SUCCESS);
    }
    while ((slot = __atomic_fetch_add(&counts[NTHREADS], 1, __ATOMIC_RELAXED)) < due) {
        MPI_Message msg;
        MPI_Request req;
        MPI_Status st;
        int count, flag = 0;

        if (slot % 2 == 0) {
            CHECK(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, shared, &msg, &st) == MPI_SUCCESS);
        } else {
            while (!flag) {
                CHECK(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, shared, &flag, &msg, &st) ==
                      MPI_SUCCESS);
            }
        }
        CHECK(st.MPI_SOURCE == from);
        CHECK(st.MPI_TAG >= TAG_SHARED && st.MPI_TAG < TAG_SHARED + NTHREADS);
        CHECK(MPI_Get_count(&st, MPI_BYTE, &count) == MPI_SUCCESS);
        if (slot % 3 == 1) {
            CHECK(MPI_Imrecv(rbuf, count, MPI_BYTE, &msg, &req) == MPI_SUCCESS);
            CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
        } else {
            CHECK(MPI_Mrecv(rbuf, count, MPI_BYTE, &msg, &st) == MPI_SUCCESS);
        }
        CHECK(msg == MPI_MESSAGE_NULL);
        CHECK(rbuf[0] == from && rbuf[1] == st.MPI_TAG - TAG_SHARED);
        check_msg(rbuf, count, from, rbuf[1], rbuf[2]);
        __atomic_add_fetch(&counts[rbuf[1]], 1, __ATOMIC_RELAXED);
    }
    CHECK(MPI_Waitall(n, sreq, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    free(packed);
    free(sreq);
}

/* Step 5: collectives on the thread's own communicator. */
static void collectives(int t, MPI_Comm comm)
{
    int value[3], sum[3], *all = malloc((size_t)size * sizeof(*all));
    MPI_Request req;

    CHECK(all != NULL);
    for (int i = 0; i < rounds / 2; i++) {
        int root = (i + t) % size, b = rank == root ? 1000 * t + i : -1;

        CHECK(MPI_Barrier(comm) == MPI_SUCCESS);
        CHECK(MPI_Bcast(&b, 1, MPI_INT, root, comm) == MPI_SUCCESS);
        CHECK(b == 1000 * t + i);
        value[0] = rank + t;
        value[1] = i;
        value[2] = 1;
        CHECK(MPI_Allreduce(value, sum, 3, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS);
        CHECK(sum[0] == size * (size - 1) / 2 + size * t && sum[1] == size * i && sum[2] == size);
        value[0] = rank * 10 + t;
        CHECK(MPI_Allgather(value, 1, MPI_INT, all, 1, MPI_INT, comm) == MPI_SUCCESS);
        for (int r = 0; r < size; r++) {
            CHECK(all[r] == r * 10 + t);
        }
        CHECK(MPI_Iallreduce(value, sum, 1, MPI_INT, MPI_MAX, comm, &req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(sum[0] == (size - 1) * 10 + t);
    }
    free(all);
}

/* Step 7: Waitany, Waitsome and Test on receives from every other rank. */
static void completion(int t, MPI_Comm comm)
{
    enum { N = 8 };
    int in[N], out[N], left = N, outcount, idx[N], flag = 0;
    int from = (rank + size - 1) % size, to = (rank + 1) % size;
    MPI_Request rreq[N], sreq[N];

    for (int i = 0; i < N; i++) {
        in[i] = -1;
        out[i] = rank * 100 + i;
        CHECK(MPI_Irecv(&in[i], 1, MPI_INT, from, TAG_ANY + i, comm, &rreq[i]) == MPI_SUCCESS);
    }
    for (int i = N - 1; i >= 0; i--) {
        CHECK(MPI_Isend(&out[i], 1, MPI_INT, to, TAG_ANY + i, comm, &sreq[i]) == MPI_SUCCESS);
    }
    while (left > N / 2) {
        int i;
        CHECK(MPI_Waitany(N, rreq, &i, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(i >= 0 && i < N && in[i] == from * 100 + i && rreq[i] == MPI_REQUEST_NULL);
        left--;
    }
    while (left > 1) {
        CHECK(MPI_Waitsome(N, rreq, &outcount, idx, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        CHECK(outcount >= 1);
        for (int k = 0; k < outcount; k++) {
            CHECK(in[idx[k]] == from * 100 + idx[k]);
        }
        left -= outcount;
    }
    for (int i = 0; i < N && left == 1; i++) {
        if (rreq[i] != MPI_REQUEST_NULL) {
            while (!flag) {
                CHECK(MPI_Test(&rreq[i], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
            }
            CHECK(in[i] == from * 100 + i);
            left = 0;
        }
    }
    CHECK(left == 0);
    CHECK(MPI_Waitall(N, sreq, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    (void)t;
}

/* Step 8: bad arguments from a thread get their error class back. */
static void errors(MPI_Comm comm)
{
    int x = 0, cls;

    CHECK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    CHECK(MPI_Error_class(MPI_Send(&x, 1, MPI_INT, size, 0, comm), &cls) == MPI_SUCCESS);
    CHECK(cls == MPI_ERR_RANK);
    CHECK(MPI_Error_class(MPI_Send(&x, 1, MPI_INT, 0, -5, comm), &cls) == MPI_SUCCESS);
    CHECK(cls == MPI_ERR_TAG);
}

struct thread_arg {
    int t;
    MPI_Comm parent; /* the thread's copy of MPI_COMM_WORLD */
    int *counts;     /* messages taken in step 4 by sending thread, then the claims */
    int *quiet;      /* threads of rank 0 that slept in step 2 */
    pthread_barrier_t *together;
};

static void *thread_main(void *p)
{
    struct thread_arg *a = p;
    int *sbuf = malloc(BIG), *rbuf = malloc(BIG), flag = -1, r, s, keyval, *value = NULL;
    int mine, sum;
    MPI_Group group;
    MPI_Comm sub, inter, merged;
    MPI_Comm comm;

    CHECK(sbuf != NULL && rbuf != NULL);
    CHECK(MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 0);
    /* Keyvals made in every thread at once; the dup copies the attribute. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(a->parent, keyval, &a->t) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(a->parent, &comm) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_attr(comm, keyval, &value, &flag) == MPI_SUCCESS && flag == 1);
    CHECK(value == &a->t);
    CHECK(MPI_Comm_delete_attr(a->parent, keyval) == MPI_SUCCESS);
    /* A communicator made over a group while the other threads make theirs. */
    CHECK(MPI_Comm_group(comm, &group) == MPI_SUCCESS);
    CHECK(MPI_Comm_create_group(comm, group, a->t, &sub) == MPI_SUCCESS);
    CHECK(MPI_Group_free(&group) == MPI_SUCCESS);
    CHECK(MPI_Comm_rank(sub, &r) == MPI_SUCCESS && r == rank);
    mine = a->t + 1;
    CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, sub) == MPI_SUCCESS);
    CHECK(sum == size * (a->t + 1));
    CHECK(MPI_Comm_free(&sub) == MPI_SUCCESS);
    /* An intercommunicator between the even and the odd ranks, merged back. */
    CHECK(MPI_Comm_split(comm, rank % 2, rank, &sub) == MPI_SUCCESS);
    CHECK(MPI_Intercomm_create(sub, 0, comm, rank % 2 == 0 ? 1 : 0, a->t, &inter) == MPI_SUCCESS);
    CHECK(MPI_Intercomm_merge(inter, rank % 2, &merged) == MPI_SUCCESS);
    CHECK(MPI_Comm_size(merged, &s) == MPI_SUCCESS && s == size);
    CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, merged) == MPI_SUCCESS);
    CHECK(sum == size * (a->t + 1));
    CHECK(MPI_Comm_free(&merged) == MPI_SUCCESS && MPI_Comm_free(&inter) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&sub) == MPI_SUCCESS);
    CHECK(MPI_Comm_free_keyval(&keyval) == MPI_SUCCESS && keyval == MPI_KEYVAL_INVALID);
    CHECK(MPI_Comm_rank(comm, &r) == MPI_SUCCESS && r == rank);
    CHECK(MPI_Comm_size(comm, &s) == MPI_SUCCESS && s == size);
    sleepers(a->t, a->quiet, a->together);
    order(a->t, rbuf);
    probes(a->t, sbuf, rbuf, a->counts);
    collectives(a->t, comm);
    blocking(a->t, comm, sbuf, rbuf);
    completion(a->t, comm);
    errors(comm);
    CHECK(MPI_Comm_free(&comm) == MPI_SUCCESS && comm == MPI_COMM_NULL);
    free(sbuf);
    free(rbuf);
    return NULL;
}

static int greq_query(void *extra_state, MPI_Status *status)
{
    (void)extra_state;
    MPI_Status_set_elements(status, MPI_BYTE, 42);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int greq_free(void *extra_state)
{
    (void)extra_state;
    return MPI_SUCCESS;
}

static int greq_cancel(void *extra_state, int complete)
{
    (void)extra_state;
    (void)complete;
    return MPI_SUCCESS;
}

static void *greq_completer(void *p)
{
    usleep(20000);
    CHECK(MPI_Grequest_complete(*(MPI_Request *)p) == MPI_SUCCESS);
    return NULL;
}

/* A generalized request completed by another thread while this one waits for it. */
static void grequest(void)
{
    MPI_Request req, handle;
    MPI_Status st;
    pthread_t completer;
    int count = -1;

    CHECK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, NULL, &req) == MPI_SUCCESS);
    handle = req;
    CHECK(pthread_create(&completer, NULL, greq_completer, &handle) == 0);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
    CHECK(MPI_Get_count(&st, MPI_BYTE, &count) == MPI_SUCCESS && count == 42);
    CHECK(pthread_join(completer, NULL) == 0);
}

int main(int argc, char **argv)
{
    struct thread_arg args[NTHREADS];
    pthread_t threads[NTHREADS];
    pthread_barrier_t together;
    int provided = -1, q = -1, flag = -1, counts[NTHREADS + 1] = {0}, quiet = 0;

    if (argc > 1) {
        rounds = atoi(argv[1]);
    }
    CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    CHECK(MPI_Query_thread(&q) == MPI_SUCCESS && q == MPI_THREAD_MULTIPLE);
    CHECK(MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 1);
    CHECK(size >= 2);
    grequest();
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &shared) == MPI_SUCCESS);
    CHECK(pthread_barrier_init(&together, NULL, NTHREADS) == 0);
    for (int t = 0; t < NTHREADS; t++) {
        args[t] =
            (struct thread_arg){.t = t, .counts = counts, .quiet = &quiet, .together = &together};
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &args[t].parent) == MPI_SUCCESS);
    }
    for (int t = 0; t < NTHREADS; t++) {
        CHECK(pthread_create(&threads[t], NULL, thread_main, &args[t]) == 0);
    }
    for (int t = 0; t < NTHREADS; t++) {
        CHECK(pthread_join(threads[t], NULL) == 0);
        CHECK(MPI_Comm_free(&args[t].parent) == MPI_SUCCESS);
    }
    CHECK(pthread_barrier_destroy(&together) == 0);
    if (rank == 0) {
        CHECK(quiet >= NTHREADS - 1);
    }
    /* Every message of step 4 was taken once: none is left, none twice. */
    for (int t = 0; t < NTHREADS; t++) {
        CHECK(counts[t] == rounds / 2);
    }
    CHECK(MPI_Barrier(shared) == MPI_SUCCESS);
    CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, shared, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(flag == 0);
    CHECK(MPI_Comm_free(&shared) == MPI_SUCCESS);
    printf("p2p_threads %d: ok\n", rank);
    MPI_Finalize();
    return 0;
}
