/*
 * comm_run_agent.c - an agent's side of a job across hosts: joining comm-run (the handshake,
 * the job it sends) and what the agent does with comm-run's messages.  The protocol, and
 * comm-run's side, are comm_run_remote.c.
 *
 * Layer: launcher.
 */
#include "config.h"

#include "launcher/comm_run_remote.h"
#include "pmix-glue/pmix_server.h"
#include "base/error.h"
#include "base/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* An agent: one message from comm-run. */
static void agent_from_coord(struct comm_run_link *l, uint32_t type, struct comm_run_reader *r)
{
    struct comm_run_job *job = l->job;
    struct comm_run_remote *rm = job->remote;

    switch (type) {
    case COMM_RUN_MSG_FENCE_DONE: {
        size_t len;
        const char *data = comm_run_read_bytes(r, &len);
        struct comm_run_fence *f = rm->fences;

        if (data == NULL || f == NULL) {
            r->bad = true;
            break;
        }
        rm->fences = f->next;
        if (rm->fences == NULL) {
            rm->fences_tail = &rm->fences;
        }
        comm_pmix_server_fence_complete(f->fence, COMM_OK, data, len);
        free(f->data);
        free(f);
        break;
    }
    case COMM_RUN_MSG_STOP:
        comm_run_job_stop(job, 0);
        break;
    case COMM_RUN_MSG_PING:
        break;
    default:
        r->bad = true;
    }
}

static char *agent_keep(struct comm_run_remote *rm, char *s)
{
    char **grown = realloc(rm->agent_strings, (rm->nagent_strings + 1) * sizeof(*grown));

    if (s == NULL || grown == NULL) {
        free(s);
        return NULL;
    }
    rm->agent_strings = grown;
    rm->agent_strings[rm->nagent_strings++] = s;
    return s;
}

/* Connects to one of "A,B,...:PORT". */
static int agent_connect(const char *spec, time_t deadline)
{
    const char *colon = strrchr(spec, ':');
    char addrs[512];
    long port;

    if (colon == NULL || comm_config_parse_long(colon + 1, 1, 65535, &port) < 0 ||
        (size_t)(colon - spec) >= sizeof(addrs)) {
        return -1;
    }
    snprintf(addrs, sizeof(addrs), "%.*s", (int)(colon - spec), spec);
    for (char *a = strtok(addrs, ","); a != NULL; a = strtok(NULL, ",")) {
        struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        int fd;

        if (inet_pton(AF_INET, a, &sin.sin_addr) != 1) {
            continue;
        }
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            continue;
        }
        comm_run_remote_nonblocking(fd, true);
        if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0 || errno == EINPROGRESS) {
            struct pollfd pfd = {.fd = fd, .events = POLLOUT};
            long left = (long)(deadline - time(NULL));
            int err = 0;
            socklen_t elen = sizeof(err);

            /* An address this host cannot reach fails fast or within a few seconds. */
            if (poll(&pfd, 1, (int)((left < 3 ? left : 3) * 1000)) == 1 &&
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) == 0 && err == 0) {
                comm_run_remote_nonblocking(fd, false);
                return fd;
            }
        }
        close(fd);
    }
    return -1;
}

/* Writes on FD the HELLO of this agent (host HOST), proving SECRET; with how many of
 * comm-run's messages it took when TOOK is not UINT64_MAX (connecting again). */
static int agent_hello(int fd, long host, const char *secret, uint64_t took, time_t deadline)
{
    char hello[12 + 2 * COMM_RUN_REMOTE_SECRET_LEN + 8];
    size_t len = strlen(secret), n = 12 + len;
    uint32_t head[2], slen = htonl((uint32_t)len);

    for (int i = 0; i < 8; i++) {
        hello[i] = (char)((uint64_t)host >> (56 - 8 * i));
    }
    memcpy(hello + 8, &slen, 4);
    memcpy(hello + 12, secret, len);
    if (took != UINT64_MAX) {
        for (int i = 0; i < 8; i++) {
            hello[n + (size_t)i] = (char)(took >> (56 - 8 * i));
        }
        n += 8;
    }
    head[0] = htonl(COMM_RUN_MSG_HELLO);
    head[1] = htonl((uint32_t)n);
    if (comm_run_remote_io_all(fd, head, sizeof(head), true, deadline) < 0 ||
        comm_run_remote_io_all(fd, hello, n, true, deadline) < 0) {
        return COMM_ERR_UNREACHABLE;
    }
    return COMM_OK;
}

void comm_run_agent_reconnect(struct comm_run_job *job)
{
    struct comm_run_remote *rm = job->remote;
    time_t deadline = time(NULL) + 1;
    unsigned char count[8];
    uint32_t head[2];
    uint64_t took = 0;
    int fd;

    /* Within a second (the event loop waits meanwhile): tried again at the next heartbeat. */
    fd = agent_connect(rm->agent_connect, deadline);
    if (fd < 0) {
        return;
    }
    if (agent_hello(fd, job->this_host, rm->secret, rm->coord->received, deadline + 4) < 0 ||
        comm_run_remote_io_all(fd, head, sizeof(head), false, deadline + 4) < 0 ||
        ntohl(head[0]) != COMM_RUN_MSG_RESUMED || ntohl(head[1]) != sizeof(count) ||
        comm_run_remote_io_all(fd, count, sizeof(count), false, deadline + 4) < 0) {
        close(fd);
        return;
    }
    for (int i = 0; i < 8; i++) {
        took = (took << 8) | count[i];
    }
    comm_run_remote_resume(rm->coord, fd, took);
}

int comm_run_agent_join(struct comm_run_job *job, const struct comm_run_options *opts,
                        struct comm_run_options *opts_out)
{
    struct comm_run_remote *rm = calloc(1, sizeof(*rm));
    char secret[2 * COMM_RUN_REMOTE_SECRET_LEN + 2];
    time_t deadline = time(NULL) + COMM_RUN_REMOTE_CONNECT_S;
    struct comm_run_reader r = {0};
    uint32_t head[2];
    size_t len = 0;
    int fd;

    if (rm == NULL || (rm->coord = calloc(1, sizeof(*rm->coord))) == NULL) {
        free(rm);
        return COMM_ERR_NOMEM;
    }
    job->remote = rm;
    rm->fences_tail = &rm->fences;
    rm->listen_fd = -1;
    rm->agent_connect = opts->agent_connect;
    rm->coord->job = job;
    rm->coord->host = -1;
    rm->coord->on_message = agent_from_coord;
    /* The secret comes first on standard input. */
    while (len < sizeof(secret) - 1) {
        ssize_t n = read(STDIN_FILENO, secret + len, 1);

        if (n <= 0 || secret[len] == '\n') {
            break;
        }
        len += (size_t)n;
    }
    secret[len] = '\0';
    if (len != 2 * COMM_RUN_REMOTE_SECRET_LEN) {
        comm_log_error("launcher", "agent: no secret on standard input");
        return COMM_ERR_BAD_PARAM;
    }
    memcpy(rm->secret, secret, len + 1);
    fd = agent_connect(opts->agent_connect, deadline);
    if (fd < 0) {
        comm_log_error("launcher", "agent of host %ld: cannot connect to comm-run at %s",
                       opts->agent_host, opts->agent_connect);
        return COMM_ERR_UNREACHABLE;
    }
    rm->coord->fd = fd;
    if (agent_hello(fd, opts->agent_host, secret, UINT64_MAX, deadline) < 0 ||
        comm_run_remote_io_all(fd, head, sizeof(head), false,
                               deadline + COMM_RUN_REMOTE_CONNECT_S) < 0 ||
        ntohl(head[0]) != COMM_RUN_MSG_JOB || ntohl(head[1]) > COMM_RUN_WIRE_MAX) {
        comm_log_error("launcher", "agent of host %ld: comm-run did not accept this agent",
                       opts->agent_host);
        return COMM_ERR_UNREACHABLE;
    }
    r.len = ntohl(head[1]);
    r.data = malloc(r.len > 0 ? r.len : 1);
    if (r.data == NULL || comm_run_remote_io_all(fd, r.data, r.len, false, deadline) < 0) {
        comm_run_reader_free(&r);
        return COMM_ERR_UNREACHABLE;
    }
    /* The job, as comm-run sent it. */
    *opts_out = *opts;
    job->np = (long)comm_run_read_u64(&r);
    job->hosts.n = (size_t)comm_run_read_u64(&r);
    if (r.bad || job->np < 1 || job->np > COMM_RUN_MAX_PROCS || job->hosts.n < 1 ||
        job->hosts.n > (size_t)COMM_RUN_MAX_PROCS || (long)opts->agent_host >= (long)job->hosts.n) {
        comm_run_reader_free(&r);
        comm_log_error("launcher", "agent: malformed job from comm-run");
        return COMM_ERR_BAD_PARAM;
    }
    job->hosts.list = calloc(job->hosts.n, sizeof(*job->hosts.list));
    job->rank_host = calloc((size_t)job->np, sizeof(*job->rank_host));
    if (job->hosts.list == NULL || job->rank_host == NULL) {
        comm_run_reader_free(&r);
        return COMM_ERR_NOMEM;
    }
    for (size_t i = 0; i < job->hosts.n; i++) {
        size_t nlen;
        const char *name = comm_run_read_bytes(&r, &nlen);

        if (name != NULL && nlen < sizeof(job->hosts.list[i].name)) {
            memcpy(job->hosts.list[i].name, name, nlen);
        }
    }
    for (long k = 0; k < job->np; k++) {
        job->rank_host[k] = (long)comm_run_read_u64(&r);
        if (job->rank_host[k] < 0 || job->rank_host[k] >= (long)job->hosts.n) {
            r.bad = true;
        }
    }
    {
        char *nspace = comm_run_read_str(&r);
        char *program = agent_keep(rm, comm_run_read_str(&r));
        uint64_t argc = comm_run_read_u64(&r);
        char **argv = !r.bad && argc < 100000 ? calloc(argc + 1, sizeof(char *)) : NULL;
        uint64_t nexports;
        const char **exports;

        if (nspace != NULL) {
            snprintf(job->nspace, sizeof(job->nspace), "%s", nspace);
        }
        free(nspace);
        for (uint64_t i = 0; argv != NULL && i < argc; i++) {
            argv[i] = agent_keep(rm, comm_run_read_str(&r));
        }
        agent_keep(rm, (char *)argv);
        nexports = comm_run_read_u64(&r);
        exports = !r.bad && nexports < 100000 ? calloc(nexports + 1, sizeof(char *)) : NULL;
        for (uint64_t i = 0; exports != NULL && i < nexports; i++) {
            exports[i] = agent_keep(rm, comm_run_read_str(&r));
        }
        agent_keep(rm, (char *)(uintptr_t)exports);
        opts_out->bind = (enum comm_run_bind)comm_run_read_u64(&r);
        opts_out->report_bindings = comm_run_read_u64(&r) != 0;
        opts_out->tag_output = comm_run_read_u64(&r) != 0;
        opts_out->heartbeat_ms = (long)comm_run_read_u64(&r);
        opts_out->heartbeat_misses = (long)comm_run_read_u64(&r);
        opts_out->heartbeat_lost_ms = (long)comm_run_read_u64(&r);
        r.bad |= opts_out->heartbeat_ms <= 0 || opts_out->heartbeat_misses <= 0 ||
                 opts_out->heartbeat_lost_ms <= 0;
        opts_out->exports = exports;
        opts_out->nexports = exports ? nexports : 0;
        if (r.bad || program == NULL || argv == NULL || exports == NULL) {
            comm_run_reader_free(&r);
            comm_log_error("launcher", "agent: malformed job from comm-run");
            return COMM_ERR_BAD_PARAM;
        }
        job->program = program;
        job->argv = argv;
    }
    comm_run_reader_free(&r);
    job->this_host = opts->agent_host;
    snprintf(job->net_interfaces, sizeof(job->net_interfaces), "%s", "");
    comm_run_remote_note_interface(fd, job->net_interfaces, sizeof(job->net_interfaces));
    rm->coord->heard_ms = comm_run_now_ms();
    return COMM_OK;
}

