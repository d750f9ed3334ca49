/*
 * btl_write.c - the btls' one-sided write (write_start) between two ranks, below MPI: each
 * rank registers a buffer, and the other writes a message into it from two local pieces, then
 * a short one, then one of 0 bytes; the writer's done function must come from its progress,
 * and once the writer says so (a fragment sent after its done function) every byte is in
 * place and the guards around it are untouched.
 *
 * Layer: test, using btl/ and pmix-glue/ directly, as the runtime does.  Run under comm-run
 * with 2 ranks; COMM_SHM=0 makes the ofi btl serve the peer.  Usage: btl_write [KIB]
 * (the long message's size, default 3000).
 */
#include "config.h"

#include "btl/btl.h"
#include "pmix-glue/pmix_client.h"
#include "base/error.h"
#include "base/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

enum { GUARD = 64 };

static int peer_said;  /* fragments from the peer */
static int done_calls; /* done functions called */
static int done_status;
static bool in_write_start;

static void on_recv(long peer, const void *data, size_t len)
{
    (void)peer;
    (void)data;
    (void)len;
    peer_said++;
}

static void on_written(uint32_t token)
{
    (void)token;
}

static void on_done(void *ctx, int status)
{
    if (in_write_start) {
        fprintf(stderr, "btl_write: a done function was called from inside write_start\n");
        exit(1);
    }
    done_calls++;
    done_status = status;
    *(int *)ctx += 1;
}

static char pattern(long writer, size_t i)
{
    return (char)((size_t)(writer + 1) * 31 + i * 7 + i / 251);
}

/* What byte I of a target buffer holds once the peer WRITER has written its long message of
 * LEN bytes after the guard and its short one of 5 bytes at the start. */
static char expected(long writer, size_t i, size_t len)
{
    if (i < 5) {
        return pattern(writer, i);
    }
    if (i < GUARD || i >= GUARD + len) {
        return 'z';
    }
    return pattern(writer, i - GUARD);
}

static int fail(const char *what, int rc)
{
    fprintf(stderr, "btl_write: %s: %s\n", what, comm_strerror(rc));
    return 1;
}

/* Writes LEN bytes of SRC, in two local pieces, at the peer's REMOTE + OFF; waits for its done
 * function.  Returns COMM_OK or a status. */
static int write_wait(struct comm_btl_endpoint *ep, char *src, size_t len, uint64_t remote,
                      const struct comm_btl_key *key, size_t off)
{
    const struct comm_btl_ops *ops = ep->module->ops;
    struct iovec iov[2] = {{src, len / 3}, {src + len / 3, len - len / 3}};
    int mine = 0, rc;

    for (;;) {
        in_write_start = true;
        rc = ops->write_start(ep, iov, 2, remote + off, key, len, on_done, &mine);
        in_write_start = false;
        if (rc != COMM_AGAIN) {
            break;
        }
        comm_btl_progress_all();
    }
    if (rc < 0) {
        return rc;
    }
    if (mine != 0) {
        return COMM_ERR_INTERNAL; /* reported before any progress call */
    }
    while (mine == 0) {
        comm_btl_progress_all();
    }
    return done_status;
}

int main(int argc, char **argv)
{
    struct comm_pmix_job job;
    struct comm_btl_self_info self;
    struct comm_btl_endpoint *ep;
    struct comm_btl_module *m;
    long *local_peers, local_rank = 0, peer;
    size_t nlocal, len = 3000 * 1024, total;
    struct target {
        uint64_t addr;
        struct comm_btl_key key;
    } mine = {0}, *theirs;
    char *target, *src;
    void *data;
    size_t data_len;
    char host[COMM_PMIX_NAME_MAX], peer_host[COMM_PMIX_NAME_MAX];
    int rc;

    if (argc > 1) {
        char *end;
        long kib = strtol(argv[1], &end, 10);

        if (*end != '\0' || kib <= 0 || kib > 1 << 20) {
            fprintf(stderr, "btl_write: KIB must be a positive number of KiB, not '%s'\n", argv[1]);
            return 2;
        }
        len = (size_t)kib * 1024;
    }
    if ((rc = comm_pmix_init(&job)) < 0) {
        return fail("init", rc);
    }
    comm_log_set_rank(job.host, job.rank);
    if ((rc = comm_log_configure()) < 0) {
        return fail("log settings", rc);
    }
    if (job.size != 2) {
        fprintf(stderr, "btl_write: needs 2 ranks, not %ld\n", job.size);
        return 2;
    }
    peer = 1 - job.rank;
    if ((rc = comm_pmix_local_peers(&local_peers, &nlocal)) < 0) {
        return fail("local peers", rc);
    }
    for (size_t i = 0; i < nlocal; i++) {
        if (local_peers[i] == job.rank) {
            local_rank = (long)i;
        }
    }
    self = (struct comm_btl_self_info){.nspace = job.nspace,
                                       .rank = job.rank,
                                       .size = job.size,
                                       .local_rank = local_rank,
                                       .local_size = (long)nlocal,
                                       .local_peers = local_peers};
    if ((rc = comm_btl_open_all(&self, on_recv, on_written)) < 0) {
        return fail("opening the btls", rc);
    }
    total = len + 2 * GUARD;
    target = malloc(total);
    src = malloc(len);
    if (target == NULL || src == NULL) {
        return fail("buffers", COMM_ERR_NOMEM);
    }
    memset(target, 'z', total);
    for (size_t i = 0; i < len; i++) {
        src[i] = pattern(job.rank, i);
    }
    /* Connected first, so that the buffer is registered with the btl that serves the peer. */
    if ((rc = comm_pmix_commit()) < 0 || (rc = comm_pmix_fence(true)) < 0) {
        return fail("address exchange", rc);
    }
    comm_pmix_peer_host(job.rank, host, sizeof(host));
    comm_pmix_peer_host(peer, peer_host, sizeof(peer_host));
    rc = comm_btl_connect_peer(&(struct comm_btl_peer){.rank = peer,
                                                       .same_host = strcmp(host, peer_host) == 0,
                                                       .local_rank = 1 - local_rank},
                               &ep);
    if (rc < 0) {
        return fail("connecting", rc);
    }
    m = ep->module;
    mine.addr = (uint64_t)(uintptr_t)target;
    if ((rc = m->ops->register_mem(m, target, total, &mine.key)) < 0) {
        return fail("registering", rc);
    }
    if ((rc = comm_pmix_put("btl_write.target", &mine, sizeof(mine))) < 0 ||
        (rc = comm_pmix_commit()) < 0 || (rc = comm_pmix_fence(true)) < 0 ||
        (rc = comm_pmix_get(peer, "btl_write.target", &data, &data_len)) < 0) {
        return fail("target exchange", rc);
    }
    if (data_len != sizeof(mine)) {
        return fail("target exchange", COMM_ERR_INTERNAL);
    }
    theirs = data;
    comm_btl_wired_all();

    /* The long message after the guard, a short one at the very start, then 0 bytes. */
    if ((rc = write_wait(ep, src, len, theirs->addr, &theirs->key, GUARD)) != COMM_OK) {
        return fail(rc == COMM_ERR_NOT_SUPPORTED ? "write_start refused" : "long write", rc);
    }
    if ((rc = write_wait(ep, src, 5, theirs->addr, &theirs->key, 0)) != COMM_OK) {
        return fail("short write", rc);
    }
    in_write_start = true;
    rc = m->ops->write_start(ep, NULL, 0, theirs->addr, &theirs->key, 0, on_done, NULL);
    in_write_start = false;
    if (rc != COMM_OK) {
        return fail("0-byte write", rc);
    }
    while ((rc = m->ops->send(ep, "w", 1, NULL, 0)) == COMM_AGAIN) {
        comm_btl_progress_all();
    }
    if (rc < 0) {
        return fail("sending", rc);
    }
    while (peer_said == 0) {
        comm_btl_progress_all();
    }
    for (size_t i = 0; i < total; i++) {
        if (target[i] != expected(peer, i, len)) {
            fprintf(stderr, "btl_write: rank %ld: byte %zu is %d, not %d\n", job.rank, i, target[i],
                    expected(peer, i, len));
            return 1;
        }
    }
    if (done_calls != 2) {
        fprintf(stderr, "btl_write: %d done functions, not 2\n", done_calls);
        return 1;
    }
    printf("rank %ld: %zu bytes written with %s, in place at rank %ld\n", job.rank, len + 5,
           m->ops->name, peer);
    while (comm_btl_flush_all() == COMM_AGAIN) {
        comm_btl_progress_all();
    }
    m->ops->deregister_mem(m, &mine.key);
    if ((rc = comm_pmix_fence(false)) < 0) {
        return fail("last fence", rc);
    }
    comm_btl_close_all();
    free(data);
    free(local_peers);
    free(src);
    free(target);
    comm_pmix_finalize();
    return 0;
}
