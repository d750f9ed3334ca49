/*
 * comm_run_remote.c - jobs across hosts: comm-run's side (starting the agents, taking their
 * messages, completing fences across hosts) and the links both sides keep on the event loop.
 * An agent's side is comm_run_agent.c.
 *
 * Layer: launcher.
 *
 * comm-run starts one agent per other host that has ranks, as `LAUNCH_AGENT HOST COMM_RUN
 * --agent INDEX ADDRS:PORT` (the way ssh runs a command; `ip netns exec` works the same way),
 * and writes the job's secret (random, never on a command line) to the agent's standard input.
 * The agent connects back over TCP, proves the secret, and gets its part of the job: it is then
 * the PMIx server of its host's ranks, starts them, and writes their output to its own standard
 * output and error, which the launch command carries back to comm-run's.  The handshake is done
 * before the event loop starts, with a deadline; after it both sides talk through libevent.
 *
 * What crosses hosts: an agent reports each rank's exit and abort (comm-run applies the failure
 * rules and prints the lines, naming the host), and its host's part of each fence; comm-run
 * completes a fence once every host with ranks has given its part, and tells the agents to stop
 * when the job ends.  Both sides send a heartbeat every COMM_HEARTBEAT_MS (comm-run's settings,
 * sent to the agents with the job).  A side that hears nothing for COMM_HEARTBEAT_MISSES of
 * them suspects the other and says so in a warning, and says so again when it hears from it:
 * a link down for a while and back loses nothing (TCP keeps the connection and resends).  One
 * that hears nothing for COMM_HEARTBEAT_LOST_MS takes the other for gone: comm-run ends the job
 * naming the host, an agent stops its ranks.  An agent that exits, or whose connection the
 * other side closes, before saying it is done ends the job the same way; a connection that is
 * reset is made again ("Reconnection" below).
 */
#include "config.h"

#include "launcher/comm_run_remote.h"
#include "pmix-glue/pmix_server.h"
#include "base/error.h"
#include "base/log.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ---- addresses -------------------------------------------------------------------------- */

/* The interface that holds local address ADDR, into NAME ("" when not found). */
static void remote_ifname_of(const struct sockaddr_in *addr, char *name, size_t len)
{
    struct ifaddrs *all, *a;

    name[0] = '\0';
    if (getifaddrs(&all) != 0) {
        return;
    }
    for (a = all; a != NULL; a = a->ifa_next) {
        if (a->ifa_addr != NULL && a->ifa_addr->sa_family == AF_INET &&
            ((struct sockaddr_in *)(void *)a->ifa_addr)->sin_addr.s_addr == addr->sin_addr.s_addr) {
            snprintf(name, len, "%s", a->ifa_name);
            break;
        }
    }
    freeifaddrs(all);
}

void comm_run_remote_note_interface(int fd, char *list, size_t len)
{
    struct sockaddr_in local;
    socklen_t alen = sizeof(local);
    char name[IF_NAMESIZE + 1], padded[IF_NAMESIZE + 3], haystack[300];

    if (getsockname(fd, (struct sockaddr *)&local, &alen) != 0 || local.sin_family != AF_INET) {
        return;
    }
    remote_ifname_of(&local, name, sizeof(name));
    snprintf(padded, sizeof(padded), ",%s,", name);
    snprintf(haystack, sizeof(haystack), ",%s,", list);
    if (name[0] != '\0' && strstr(haystack, padded) == NULL) {
        size_t used = strlen(list);

        snprintf(list + used, len - used, "%s%s", used ? "," : "", name);
    }
}

/* This namespace's IPv4 addresses, non-loopback first, as "A,B,...". */
static void remote_my_addresses(char *out, size_t len)
{
    struct ifaddrs *all, *a;
    size_t used = 0;

    out[0] = '\0';
    if (getifaddrs(&all) == 0) {
        for (int loop = 0; loop < 2; loop++) {
            for (a = all; a != NULL; a = a->ifa_next) {
                char text[INET_ADDRSTRLEN];
                bool is_loop;

                if (a->ifa_addr == NULL || a->ifa_addr->sa_family != AF_INET ||
                    !(a->ifa_flags & IFF_UP)) {
                    continue;
                }
                is_loop = (a->ifa_flags & IFF_LOOPBACK) != 0;
                if (is_loop != (loop == 1)) {
                    continue;
                }
                inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)a->ifa_addr)->sin_addr, text,
                          sizeof(text));
                used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s",
                                         used ? "," : "", text);
            }
        }
        freeifaddrs(all);
    }
    if (out[0] == '\0') {
        snprintf(out, len, "127.0.0.1");
    }
}

int comm_run_remote_nonblocking(int fd, bool on)
{
    int flags = fcntl(fd, F_GETFL);

    return flags < 0 ? -1 : fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK);
}

int comm_run_remote_io_all(int fd, void *buf, size_t len, bool writing, time_t deadline)
{
    char *p = buf;

    while (len > 0) {
        struct pollfd pfd = {.fd = fd, .events = writing ? POLLOUT : POLLIN};
        long left = (long)(deadline - time(NULL));
        ssize_t n;

        if (left <= 0 || poll(&pfd, 1, (int)(left * 1000)) <= 0) {
            if (left > 0 && errno == EINTR) {
                continue;
            }
            return COMM_ERR_TIMEOUT;
        }
        n = writing ? write(fd, p, len) : read(fd, p, len);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
            continue;
        }
        if (n <= 0) {
            return COMM_ERR_UNREACHABLE;
        }
        p += n;
        len -= (size_t)n;
    }
    return COMM_OK;
}

static void remote_from_agent(struct comm_run_link *l, uint32_t type, struct comm_run_reader *r);

/* ---- comm-run's side: starting agents --------------------------------------------------- */

/* Splits CMD at white space into ARGV (at most MAX-1 words). */
static size_t remote_split(char *cmd, char **argv, size_t max)
{
    size_t n = 0;

    for (char *tok = strtok(cmd, " \t"); tok != NULL && n + 1 < max; tok = strtok(NULL, " \t")) {
        argv[n++] = tok;
    }
    argv[n] = NULL;
    return n;
}

static int remote_spawn(struct comm_run_job *job, struct comm_run_link *l, const char *self,
                        const char *connect_to, const char *secret)
{
    char cmd[1024], index[32], agent_flag[] = "--agent", *argv[40];
    size_t n;
    int in[2];
    pid_t pid;

    snprintf(cmd, sizeof(cmd), "%s", job->opts->launch_agent);
    n = remote_split(cmd, argv, 34);
    snprintf(index, sizeof(index), "%ld", l->host);
    argv[n++] = job->hosts.list[l->host].name;
    argv[n++] = (char *)(uintptr_t)self;
    argv[n++] = agent_flag;
    argv[n++] = index;
    argv[n++] = (char *)(uintptr_t)connect_to;
    argv[n] = NULL;
    if (pipe2(in, O_CLOEXEC) != 0) {
        comm_log_error("launcher", "cannot create a pipe: %s", strerror(errno));
        return COMM_ERR_SYSTEM;
    }
    pid = fork();
    if (pid == 0) {
        sigset_t none;

        /* Its own process group: a Ctrl-C at the terminal is comm-run's to handle. */
        setpgid(0, 0);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        dup2(in[0], STDIN_FILENO);
        execvp(argv[0], argv);
        fprintf(stderr, "comm-run: cannot run the launch agent '%s' for host %s: %s\n", argv[0],
                job->hosts.list[l->host].name, strerror(errno));
        _exit(127);
    }
    close(in[0]);
    if (pid < 0) {
        close(in[1]);
        comm_log_error("launcher", "cannot fork the agent of host %s: %s",
                       job->hosts.list[l->host].name, strerror(errno));
        return COMM_ERR_SYSTEM;
    }
    setpgid(pid, pid);
    l->launcher = pid;
    /* The secret travels on the agent's standard input, never on a command line. */
    if (write(in[1], secret, strlen(secret)) < 0 || write(in[1], "\n", 1) < 0) {
        comm_log_warn("launcher", "cannot give the agent of host %s its secret: %s",
                      job->hosts.list[l->host].name, strerror(errno));
    }
    close(in[1]);
    return COMM_OK;
}

/* Whether environment entry E is a COMM_* setting that ranks on other hosts get from
 * comm-run: not the variables the launcher sets for each rank itself. */
static bool remote_is_setting(const char *e)
{
    return strncmp(e, "COMM_", 5) == 0 && strchr(e, '=') != NULL &&
           strncmp(e, "COMM_WORLD_", 11) != 0 && strncmp(e, "COMM_NET_INTERFACES=", 20) != 0;
}

/* The JOB message for host HOST. */
static int remote_send_job(struct comm_run_job *job, struct comm_run_link *l, time_t deadline)
{
    struct comm_run_wire w;
    uint32_t head[2];
    int rc;

    comm_run_wire_init(&w);
    comm_run_wire_u64(&w, (uint64_t)job->np);
    comm_run_wire_u64(&w, job->hosts.n);
    for (size_t i = 0; i < job->hosts.n; i++) {
        comm_run_wire_str(&w, job->hosts.list[i].name);
    }
    for (long r = 0; r < job->np; r++) {
        comm_run_wire_u64(&w, (uint64_t)job->rank_host[r]);
    }
    comm_run_wire_str(&w, job->nspace);
    comm_run_wire_str(&w, job->program);
    {
        uint64_t argc = 0;

        while (job->argv[argc] != NULL) {
            argc++;
        }
        comm_run_wire_u64(&w, argc);
        for (uint64_t i = 0; i < argc; i++) {
            comm_run_wire_str(&w, job->argv[i]);
        }
    }
    /* comm-run's own COMM_* settings first, then -x (later entries win): on this host the
     * ranks inherit both, and a rank on another host must see the same settings, whatever
     * environment the launch agent gives the agent there. */
    {
        uint64_t nsettings = 0;

        for (char **e = environ; *e != NULL; e++) {
            nsettings += remote_is_setting(*e);
        }
        comm_run_wire_u64(&w, nsettings + job->opts->nexports);
        for (char **e = environ; *e != NULL; e++) {
            if (remote_is_setting(*e)) {
                comm_run_wire_str(&w, *e);
            }
        }
    }
    /* -x: VAR alone takes comm-run's value, as it would on this host. */
    for (size_t i = 0; i < job->opts->nexports; i++) {
        const char *e = job->opts->exports[i], *value;
        char entry[4096];

        if (strchr(e, '=') != NULL || (value = comm_config_env(e)) == NULL) {
            snprintf(entry, sizeof(entry), "%s", e);
        } else {
            snprintf(entry, sizeof(entry), "%s=%s", e, value);
        }
        comm_run_wire_str(&w, entry);
    }
    comm_run_wire_u64(&w, (uint64_t)job->opts->bind);
    comm_run_wire_u64(&w, job->opts->report_bindings);
    comm_run_wire_u64(&w, job->opts->tag_output);
    comm_run_wire_u64(&w, (uint64_t)job->opts->heartbeat_ms);
    comm_run_wire_u64(&w, (uint64_t)job->opts->heartbeat_misses);
    comm_run_wire_u64(&w, (uint64_t)job->opts->heartbeat_lost_ms);
    if (w.failed) {
        free(w.buf);
        return COMM_ERR_NOMEM;
    }
    head[0] = htonl(COMM_RUN_MSG_JOB);
    head[1] = htonl((uint32_t)w.len);
    rc = comm_run_remote_io_all(l->fd, head, sizeof(head), true, deadline);
    if (rc == COMM_OK) {
        rc = comm_run_remote_io_all(l->fd, w.buf, w.len, true, deadline);
    }
    free(w.buf);
    return rc;
}

/* Reads and checks a HELLO on a new connection; returns the host index or -1. */
/* Reads an agent's HELLO on FD: its host index, or -1 when it is malformed or does not prove
 * SECRET.  *TOOK_OUT: the count of comm-run's messages an agent connecting again took, or
 * UINT64_MAX for a first connection. */
static long remote_read_hello(struct comm_run_job *job, int fd, const char *secret, time_t deadline,
                              uint64_t *took_out)
{
    uint32_t head[2];
    char body[256];
    size_t len;
    uint64_t host = 0;
    uint32_t slen;

    if (comm_run_remote_io_all(fd, head, sizeof(head), false, deadline) != COMM_OK ||
        ntohl(head[0]) != COMM_RUN_MSG_HELLO || (len = ntohl(head[1])) > sizeof(body) || len < 12 ||
        comm_run_remote_io_all(fd, body, len, false, deadline) != COMM_OK) {
        return -1;
    }
    for (int i = 0; i < 8; i++) {
        host = (host << 8) | (unsigned char)body[i];
    }
    memcpy(&slen, body + 8, 4);
    slen = ntohl(slen);
    if (slen != strlen(secret) || (12 + slen != len && 12 + slen + 8 != len) ||
        host >= job->hosts.n) {
        return -1;
    }
    *took_out = UINT64_MAX;
    if (len == 12 + slen + 8) {
        *took_out = 0;
        for (int i = 0; i < 8; i++) {
            *took_out = (*took_out << 8) | (unsigned char)body[12 + slen + i];
        }
    }
    /* Compare every byte: how long it takes must not tell how much was right. */
    {
        unsigned char diff = 0;

        for (uint32_t i = 0; i < slen; i++) {
            diff |= (unsigned char)(body[12 + i] ^ secret[i]);
        }
        if (diff != 0) {
            return -1;
        }
    }
    return (long)host;
}

static void remote_kill_launchers(struct comm_run_remote *rm)
{
    for (size_t i = 0; i < rm->nlinks; i++) {
        if (rm->links[i].launcher > 0) {
            kill(-rm->links[i].launcher, SIGKILL);
            waitpid(rm->links[i].launcher, NULL, 0);
            rm->links[i].launcher = 0;
        }
    }
}

int comm_run_remote_launch(struct comm_run_job *job)
{
    struct comm_run_remote *rm = calloc(1, sizeof(*rm));
    unsigned char raw[COMM_RUN_REMOTE_SECRET_LEN];
    char secret[2 * COMM_RUN_REMOTE_SECRET_LEN + 1], addrs[512], connect_to[600], self[PATH_MAX];
    struct sockaddr_in any = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t alen = sizeof(any);
    size_t expected = 0, joined = 0;
    time_t deadline;
    ssize_t n;
    int lfd = -1, rc = COMM_ERR_SYSTEM;

    if (rm == NULL || (rm->links = calloc(job->hosts.n, sizeof(*rm->links))) == NULL) {
        free(rm);
        comm_log_error("launcher", "out of memory");
        return COMM_ERR_NOMEM;
    }
    rm->nlinks = job->hosts.n;
    rm->fences_tail = &rm->fences;
    rm->listen_fd = -1;
    job->remote = rm;
    n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0 || getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
        comm_log_error("launcher", "cannot find comm-run's own path or make the job's secret");
        return COMM_ERR_SYSTEM;
    }
    self[n] = '\0';
    for (size_t i = 0; i < sizeof(raw); i++) {
        snprintf(secret + 2 * i, 3, "%02x", raw[i]);
    }
    lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&any, sizeof(any)) != 0 || listen(lfd, 64) != 0 ||
        getsockname(lfd, (struct sockaddr *)&any, &alen) != 0) {
        comm_log_error("launcher", "cannot listen for the agents: %s", strerror(errno));
        goto out;
    }
    remote_my_addresses(addrs, sizeof(addrs));
    snprintf(connect_to, sizeof(connect_to), "%s:%u", addrs, ntohs(any.sin_port));
    for (size_t i = 0; i < job->hosts.n; i++) {
        struct comm_run_link *l = &rm->links[i];

        l->job = job;
        l->host = (long)i;
        l->on_message = remote_from_agent;
        l->fd = -1;
        l->parts_tail = &l->parts;
        if ((long)i == job->this_host || job->hosts.list[i].nranks == 0) {
            continue;
        }
        expected++;
        if (remote_spawn(job, l, self, connect_to, secret) < 0) {
            goto out;
        }
    }
    deadline = time(NULL) + COMM_RUN_REMOTE_CONNECT_S;
    while (joined < expected) {
        struct pollfd pfd = {.fd = lfd, .events = POLLIN};
        long left = (long)(deadline - time(NULL));
        pid_t pid;
        int wstatus, fd;
        long host;
        uint64_t took;

        /* An agent whose launch command ended before it joined will never join. */
        while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
            for (size_t i = 0; i < rm->nlinks; i++) {
                if (rm->links[i].launcher == pid) {
                    rm->links[i].launcher = 0;
                    if (!rm->links[i].hello) {
                        comm_log_error(
                            "launcher",
                            "the agent of host %s ended (%s %d) before "
                            "it connected; is comm-run at %s on that host?",
                            job->hosts.list[i].name, WIFSIGNALED(wstatus) ? "signal" : "status",
                            WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : WEXITSTATUS(wstatus), self);
                        goto out;
                    }
                }
            }
        }
        if (left <= 0) {
            for (size_t i = 0; i < rm->nlinks; i++) {
                if (rm->links[i].launcher > 0 && !rm->links[i].hello) {
                    comm_log_error("launcher",
                                   "the agent of host %s did not connect within "
                                   "%d s",
                                   job->hosts.list[i].name, COMM_RUN_REMOTE_CONNECT_S);
                }
            }
            goto out;
        }
        if (poll(&pfd, 1, 200) <= 0) {
            continue;
        }
        fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        host = remote_read_hello(job, fd, secret, time(NULL) + 5, &took);
        if (host < 0 || took != UINT64_MAX || rm->links[host].hello ||
            rm->links[host].launcher == 0 || (long)host == job->this_host) {
            comm_log_warn("launcher", "refused a connection that did not prove the job's secret");
            close(fd);
            continue;
        }
        rm->links[host].fd = fd;
        rm->links[host].hello = true;
        rm->links[host].heard_ms = comm_run_now_ms();
        comm_run_remote_note_interface(fd, job->net_interfaces, sizeof(job->net_interfaces));
        joined++;
    }
    for (size_t i = 0; i < rm->nlinks; i++) {
        if (rm->links[i].hello && remote_send_job(job, &rm->links[i], deadline + 5) < 0) {
            comm_log_error("launcher", "cannot send the agent of host %s its part of the job",
                           job->hosts.list[i].name);
            goto out;
        }
    }
    rc = COMM_OK;
    /* Kept open: an agent whose connection is reset connects again. */
    rm->listen_fd = lfd;
    snprintf(rm->secret, sizeof(rm->secret), "%s", secret);
    lfd = -1;
out:
    if (lfd >= 0) {
        close(lfd);
    }
    if (rc < 0) {
        remote_kill_launchers(rm);
    }
    return rc;
}

/* ---- comm-run's side, on the event loop ------------------------------------------------- */

/* comm-run: completes the fences every host with ranks has given its part of. */
static void remote_try_fences(struct comm_run_job *job)
{
    struct comm_run_remote *rm = job->remote;

    for (;;) {
        struct comm_run_wire w;
        size_t total = 0;
        char *all, *p;

        if (job->local_np > 0 && rm->fences == NULL) {
            return;
        }
        for (size_t i = 0; i < rm->nlinks; i++) {
            struct comm_run_link *l = &rm->links[i];

            if (l->hello && !l->gone && l->parts == NULL) {
                return;
            }
            total += l->hello && !l->gone ? l->parts->len : 0;
        }
        total += job->local_np > 0 ? rm->fences->len : 0;
        all = malloc(total > 0 ? total : 1);
        if (all == NULL) {
            comm_log_error("launcher", "out of memory completing a fence");
            comm_run_job_fail(job, COMM_RUN_EXIT_FAILURE);
            return;
        }
        p = all;
        if (job->local_np > 0) {
            memcpy(p, rm->fences->data, rm->fences->len);
            p += rm->fences->len;
        }
        for (size_t i = 0; i < rm->nlinks; i++) {
            struct comm_run_link *l = &rm->links[i];
            struct comm_run_part *part = l->parts;

            if (!l->hello || l->gone) {
                continue;
            }
            memcpy(p, part->data, part->len);
            p += part->len;
            l->parts = part->next;
            if (l->parts == NULL) {
                l->parts_tail = &l->parts;
            }
            free(part->data);
            free(part);
        }
        for (size_t i = 0; i < rm->nlinks; i++) {
            if (rm->links[i].hello && !rm->links[i].gone) {
                comm_run_wire_init(&w);
                comm_run_wire_bytes(&w, all, total);
                comm_run_remote_send(&rm->links[i], COMM_RUN_MSG_FENCE_DONE, &w);
            }
        }
        if (job->local_np > 0) {
            struct comm_run_fence *f = rm->fences;

            rm->fences = f->next;
            if (rm->fences == NULL) {
                rm->fences_tail = &rm->fences;
            }
            comm_pmix_server_fence_complete(f->fence, COMM_OK, all, total);
            free(f->data);
            free(f);
        }
        free(all);
    }
}

/* comm-run: one message from an agent. */
static void remote_from_agent(struct comm_run_link *l, uint32_t type, struct comm_run_reader *r)
{
    struct comm_run_job *job = l->job;

    switch (type) {
    case COMM_RUN_MSG_EXIT: {
        long rank = (long)comm_run_read_u64(r), pid = (long)comm_run_read_u64(r);
        int wstatus = (int)comm_run_read_u64(r);
        bool connected = comm_run_read_u64(r) != 0, finalized = comm_run_read_u64(r) != 0;

        if (!r->bad && rank >= 0 && rank < job->np && job->ranks[rank].host == l->host) {
            comm_run_job_remote_exit(job, rank, pid, wstatus, connected, finalized);
        }
        break;
    }
    case COMM_RUN_MSG_ABORT: {
        long rank = (long)comm_run_read_u64(r), pid = (long)comm_run_read_u64(r);
        int status = (int)comm_run_read_u64(r);
        char *message = comm_run_read_str(r);

        if (!r->bad && rank >= 0 && rank < job->np && job->ranks[rank].host == l->host) {
            comm_run_job_remote_abort(job, rank, pid, status, message);
        }
        free(message);
        break;
    }
    case COMM_RUN_MSG_FENCE: {
        size_t len;
        const char *data = comm_run_read_bytes(r, &len);
        struct comm_run_part *part = calloc(1, sizeof(*part));

        if (data == NULL || part == NULL || (part->data = malloc(len > 0 ? len : 1)) == NULL) {
            free(part);
            comm_run_remote_lost(l, "a fence it sent could not be kept");
            break;
        }
        memcpy(part->data, data, len);
        part->len = len;
        *l->parts_tail = part;
        l->parts_tail = &part->next;
        remote_try_fences(job);
        break;
    }
    case COMM_RUN_MSG_DONE:
        l->done = true;
        comm_run_job_check_done(job);
        break;
    case COMM_RUN_MSG_PING:
        break;
    default:
        r->bad = true;
    }
}

/* ---- both sides, on the event loop --------------------------------------------------------- */

/* What L's other side is, for messages: "host h2" (comm-run's side), "comm-run" (an agent's). */
static void remote_other(const struct comm_run_link *l, char *out, size_t len)
{
    if (l->host >= 0) {
        snprintf(out, len, "host %s", l->job->hosts.list[l->host].name);
    } else {
        snprintf(out, len, "comm-run");
    }
}

/* The warning an agent's lines start with ("agent of host h1: "), or nothing for comm-run. */
static void remote_self(const struct comm_run_link *l, char *out, size_t len)
{
    if (l->host < 0) {
        snprintf(out, len, "agent of host %s: ", l->job->hosts.list[l->job->this_host].name);
    } else {
        out[0] = '\0';
    }
}

void comm_run_remote_lost(struct comm_run_link *l, const char *why)
{
    struct comm_run_job *job = l->job;

    if (l->gone) {
        return;
    }
    l->gone = true;
    if (l->bev != NULL) {
        bufferevent_disable(l->bev, EV_READ | EV_WRITE);
    }
    if (l->host < 0) {
        /* An agent without comm-run: nothing to report to; stop the ranks and go. */
        comm_log_error("launcher", "agent of host %s: lost comm-run (%s); stopping %ld rank%s",
                       job->hosts.list[job->this_host].name, why, job->alive,
                       job->alive == 1 ? "" : "s");
        comm_run_job_stop(job, 0);
        comm_run_job_check_done(job);
        return;
    }
    if (!l->done) {
        /* Its ranks are gone with it, as far as this job is concerned. */
        for (long i = 0; i < job->np; i++) {
            if (job->ranks[i].host == l->host && !job->ranks[i].exited) {
                job->ranks[i].exited = true;
            }
        }
        if (!job->stopping) {
            comm_log_error("launcher", "lost the agent of host %s (%s); stopping the job",
                           job->hosts.list[l->host].name, why);
        }
        comm_run_job_fail(job, COMM_RUN_EXIT_FAILURE);
    }
    comm_run_job_check_done(job);
}

static int remote_attach_link(struct comm_run_job *job, struct comm_run_link *l);

/* ---- reconnection ---------------------------------------------------------------------- *
 *
 * A connection between comm-run and an agent can be reset under a running job (a switch port,
 * a host's sockets killed) while both ends live on.  So every message but PING is numbered and
 * kept by its sender until a PING from the other side says how many it took.  When the
 * connection fails (a reset: an orderly close is the other side leaving, and ends the job as
 * before), the agent connects again every heartbeat (COMM_HEARTBEAT_MS) and proves the secret
 * with how many of comm-run's messages it took; comm-run answers RESUMED with how many of the
 * agent's it took, and each side writes again what the other lacks.  A side that stays
 * without a connection for COMM_HEARTBEAT_LOST_MS since it last heard the other gives up on it
 * as before. */

/* Frees L's kept messages the other side has (it took TOOK). */
static void remote_forget(struct comm_run_link *l, uint64_t took)
{
    while (l->kept != NULL && l->kept->seq <= took) {
        struct comm_run_kept *k = l->kept;

        l->kept = k->next;
        free(k);
    }
    if (l->kept == NULL) {
        l->kept_tail = &l->kept;
    }
}

int comm_run_remote_send(struct comm_run_link *l, uint32_t type, struct comm_run_wire *w)
{
    struct comm_run_wire ping;
    uint32_t head[2];
    size_t body = w != NULL ? w->len : 0;
    struct comm_run_kept *k;
    int rc = COMM_OK;

    if (type == COMM_RUN_MSG_PING) {
        comm_run_wire_init(&ping);
        comm_run_wire_u64(&ping, l->received);
        return l->bev != NULL ? comm_run_wire_send(l->bev, type, &ping) : COMM_OK;
    }
    k = w != NULL && w->failed ? NULL : malloc(sizeof(*k) + sizeof(head) + body);
    if (k == NULL) {
        rc = COMM_ERR_NOMEM;
    } else {
        head[0] = htonl(type);
        head[1] = htonl((uint32_t)body);
        memcpy(k->bytes, head, sizeof(head));
        if (body > 0) {
            memcpy(k->bytes + sizeof(head), w->buf, body);
        }
        k->len = sizeof(head) + body;
        k->seq = ++l->sent;
        k->next = NULL;
        if (l->kept_tail == NULL) {
            l->kept_tail = &l->kept;
        }
        *l->kept_tail = k;
        l->kept_tail = &k->next;
        if (l->bev != NULL && bufferevent_write(l->bev, k->bytes, k->len) != 0) {
            rc = COMM_ERR_NOMEM;
        }
    }
    if (w != NULL) {
        free(w->buf);
        comm_run_wire_init(w);
    }
    return rc;
}

/* L's connection failed (WHY): closed, and waited for (comm-run) or made again (an agent). */
static void remote_break(struct comm_run_link *l, const char *why)
{
    struct comm_run_job *job = l->job;
    char self[320], other[320];

    bufferevent_free(l->bev);
    l->bev = NULL;
    l->broken_ms = comm_run_now_ms();
    snprintf(l->broken_why, sizeof(l->broken_why), "%s", why);
    remote_self(l, self, sizeof(self));
    remote_other(l, other, sizeof(other));
    comm_log_warn("launcher",
                  "%sconnection to %s lost (%s); %s (the job ends if it stays lost %.1f s after "
                  "it was last heard, COMM_HEARTBEAT_LOST_MS)",
                  self, other, why,
                  l->host >= 0 ? "waiting for its agent to connect again" : "connecting again",
                  (double)job->opts->heartbeat_lost_ms / 1e3);
}

int comm_run_remote_resume(struct comm_run_link *l, int fd, uint64_t took)
{
    char self[320], other[320];
    unsigned long n = 0;

    l->fd = fd;
    if (remote_attach_link(l->job, l) != COMM_OK) {
        if (l->bev != NULL) {
            bufferevent_free(l->bev);
            l->bev = NULL;
        } else {
            close(fd);
        }
        l->fd = -1;
        return COMM_ERR_SYSTEM;
    }
    remote_forget(l, took);
    for (struct comm_run_kept *k = l->kept; k != NULL; k = k->next) {
        bufferevent_write(l->bev, k->bytes, k->len);
        n++;
    }
    remote_self(l, self, sizeof(self));
    remote_other(l, other, sizeof(other));
    comm_log_warn("launcher",
                  "%sconnection to %s made again after %.1f s (lost: %s); %lu message%s sent again",
                  self, other, (double)(comm_run_now_ms() - l->broken_ms) / 1e3, l->broken_why, n,
                  n == 1 ? "" : "s");
    l->broken_ms = 0;
    l->suspected = false;
    l->heard_ms = comm_run_now_ms();
    return COMM_OK;
}

static void remote_on_read(struct bufferevent *bev, void *arg)
{
    struct comm_run_link *l = arg;
    struct comm_run_reader r;
    uint32_t type;
    int rc;

    if (l->suspected) {
        char self[320], other[320];

        remote_self(l, self, sizeof(self));
        remote_other(l, other, sizeof(other));
        comm_log_warn("launcher", "%s%s answers again after %.1f s of silence: no longer suspected",
                      self, other, (double)(comm_run_now_ms() - l->heard_ms) / 1e3);
        l->suspected = false;
    }
    l->heard_ms = comm_run_now_ms();
    while (!l->gone && (rc = comm_run_wire_next(bev, &type, &r)) != 0) {
        if (rc < 0) {
            comm_run_remote_lost(l, "it sent a malformed message");
            return;
        }
        if (type == COMM_RUN_MSG_PING) {
            uint64_t took = comm_run_read_u64(&r);

            if (!r.bad) {
                remote_forget(l, took);
            }
        } else {
            l->received++;
        }
        l->on_message(l, type, &r);
        if (r.bad) {
            comm_run_reader_free(&r);
            comm_run_remote_lost(l, "it sent a malformed message");
            return;
        }
        comm_run_reader_free(&r);
    }
}

static void remote_on_event(struct bufferevent *bev, short what, void *arg)
{
    struct comm_run_link *l = arg;

    (void)bev;
    if (what & BEV_EVENT_ERROR && !l->gone && !l->done) {
        /* A reset, not the other side closing: the agent connects again. */
        remote_break(l, "its connection failed");
    } else if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        comm_run_remote_lost(l, what & BEV_EVENT_EOF ? "its connection closed"
                                                     : "its connection failed");
    }
}

/* An agent that said DONE leaves once its DONE is on the wire. */
static void remote_on_written(struct bufferevent *bev, void *arg)
{
    struct comm_run_link *l = arg;

    (void)bev;
    if (l->host < 0 && l->done) {
        event_base_loopexit(l->job->base, NULL);
    }
}

static void remote_on_ping(evutil_socket_t fd, short what, void *arg)
{
    struct comm_run_job *job = arg;
    struct comm_run_remote *rm = job->remote;
    const struct comm_run_options *o = job->opts;
    uint64_t now = comm_run_now_ms();

    (void)fd;
    (void)what;
    for (size_t i = 0; i < rm->nlinks + (rm->coord ? 1 : 0); i++) {
        struct comm_run_link *l = rm->coord ? rm->coord : &rm->links[i];
        uint64_t silent = now - l->heard_ms;

        if ((l->bev == NULL && l->broken_ms == 0) || l->gone || (l->host >= 0 && l->done)) {
            continue;
        }
        if (silent >= (uint64_t)o->heartbeat_lost_ms) {
            char why[96];

            snprintf(why, sizeof(why), "it stopped answering: silent for %.1f s",
                     (double)silent / 1e3);
            comm_run_remote_lost(l, why);
            continue;
        }
        if (!l->suspected && l->broken_ms == 0 &&
            silent >= (uint64_t)(o->heartbeat_ms * o->heartbeat_misses)) {
            char self[320], other[320];

            remote_self(l, self, sizeof(self));
            remote_other(l, other, sizeof(other));
            comm_log_warn("launcher",
                          "%s%s suspected: silent for %.1f s (%ld heartbeats of %ld ms missed); "
                          "the job goes on, and ends if it stays silent %.1f s "
                          "(COMM_HEARTBEAT_LOST_MS)",
                          self, other, (double)silent / 1e3, o->heartbeat_misses, o->heartbeat_ms,
                          (double)o->heartbeat_lost_ms / 1e3);
            l->suspected = true;
        }
        if (l->bev != NULL) {
            comm_run_remote_send(l, COMM_RUN_MSG_PING, NULL);
        } else if (l->host < 0) {
            comm_run_agent_reconnect(job);
        }
    }
    if (job->remote->coord != NULL) {
        comm_run_job_check_done(job);
    }
}

static int remote_attach_link(struct comm_run_job *job, struct comm_run_link *l)
{
    int one = 1;

    comm_run_remote_nonblocking(l->fd, true);
    setsockopt(l->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    l->bev = bufferevent_socket_new(job->base, l->fd, BEV_OPT_CLOSE_ON_FREE);
    if (l->bev == NULL) {
        return COMM_ERR_NOMEM;
    }
    l->fd = -1;
    bufferevent_setcb(l->bev, remote_on_read, remote_on_written, remote_on_event, l);
    return bufferevent_enable(l->bev, EV_READ | EV_WRITE) == 0 ? COMM_OK : COMM_ERR_SYSTEM;
}

/* comm-run: an agent connects again (its connection was reset): proven, it gets the count of
 * its messages comm-run took, and both sides write again what the other lacks. */
static void remote_on_accept(evutil_socket_t lfd, short what, void *arg)
{
    struct comm_run_job *job = arg;
    struct comm_run_remote *rm = job->remote;
    uint64_t took = UINT64_MAX;
    uint32_t head[2] = {htonl(COMM_RUN_MSG_RESUMED), htonl(8)};
    unsigned char count[8];
    struct comm_run_link *l;
    long host;
    int fd;

    (void)what;
    fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) {
        return;
    }
    comm_run_remote_nonblocking(fd, false);
    host = remote_read_hello(job, fd, rm->secret, time(NULL) + 5, &took);
    l = host >= 0 ? &rm->links[host] : NULL;
    if (l == NULL || took == UINT64_MAX || !l->hello || l->gone || l->done) {
        comm_log_warn("launcher", "refused a connection that did not prove the job's secret or "
                                  "came for no agent still at work");
        close(fd);
        return;
    }
    if (l->broken_ms == 0) {
        /* The agent saw its connection fail before this side did (the reset did not reach it):
         * the old one is dead. */
        remote_break(l, "its agent connected again");
    }
    for (int i = 0; i < 8; i++) {
        count[i] = (unsigned char)(l->received >> (56 - 8 * i));
    }
    if (comm_run_remote_io_all(fd, head, sizeof(head), true, time(NULL) + 5) < 0 ||
        comm_run_remote_io_all(fd, count, sizeof(count), true, time(NULL) + 5) < 0) {
        close(fd);
        return;
    }
    comm_run_remote_resume(l, fd, took);
}

int comm_run_remote_attach(struct comm_run_job *job)
{
    struct comm_run_remote *rm = job->remote;
    struct timeval beat = comm_run_heartbeat(job->opts);
    int rc = COMM_OK;

    if (rm->coord != NULL) {
        rc = remote_attach_link(job, rm->coord);
    }
    for (size_t i = 0; i < rm->nlinks && rc == COMM_OK; i++) {
        if (rm->links[i].hello) {
            rc = remote_attach_link(job, &rm->links[i]);
        }
    }
    if (rm->coord == NULL && rm->listen_fd >= 0) {
        comm_run_remote_nonblocking(rm->listen_fd, true);
        rm->accept_ev =
            event_new(job->base, rm->listen_fd, EV_READ | EV_PERSIST, remote_on_accept, job);
        if (rm->accept_ev == NULL || event_add(rm->accept_ev, NULL) != 0) {
            rc = COMM_ERR_SYSTEM;
        }
    }
    rm->ping_ev = event_new(job->base, -1, EV_PERSIST, remote_on_ping, job);
    if (rc != COMM_OK || rm->ping_ev == NULL || event_add(rm->ping_ev, &beat) != 0) {
        comm_log_error("launcher", "cannot watch the connections between hosts");
        return COMM_ERR_SYSTEM;
    }
    return COMM_OK;
}

void comm_run_remote_stop(struct comm_run_job *job)
{
    struct comm_run_remote *rm = job->remote;

    for (size_t i = 0; i < rm->nlinks; i++) {
        if (rm->links[i].hello && !rm->links[i].gone) {
            comm_run_remote_send(&rm->links[i], COMM_RUN_MSG_STOP, NULL);
        }
    }
}

void comm_run_remote_fence(struct comm_run_job *job, struct comm_run_fence *f)
{
    struct comm_run_remote *rm = job->remote;

    f->next = NULL;
    *rm->fences_tail = f;
    rm->fences_tail = &f->next;
    if (rm->coord != NULL) {
        struct comm_run_wire w;

        comm_run_wire_init(&w);
        comm_run_wire_bytes(&w, f->data, f->len);
        if (rm->coord->gone || comm_run_remote_send(rm->coord, COMM_RUN_MSG_FENCE, &w) < 0) {
            comm_run_remote_lost(rm->coord, "a fence could not be sent");
        }
        return;
    }
    remote_try_fences(job);
}

void comm_run_remote_exit(struct comm_run_job *job, const struct comm_run_rank *r)
{
    struct comm_run_remote *rm = job->remote;
    struct comm_run_wire w;

    if (rm == NULL || rm->coord == NULL || rm->coord->gone) {
        return;
    }
    comm_run_wire_init(&w);
    comm_run_wire_u64(&w, (uint64_t)r->rank);
    comm_run_wire_u64(&w, (uint64_t)r->pid);
    comm_run_wire_u64(&w, (uint64_t)(unsigned)r->wait_status);
    comm_run_wire_u64(&w, atomic_load(&r->connected));
    comm_run_wire_u64(&w, atomic_load(&r->finalized));
    comm_run_remote_send(rm->coord, COMM_RUN_MSG_EXIT, &w);
}

void comm_run_remote_abort(struct comm_run_job *job, const struct comm_run_rank *r)
{
    struct comm_run_remote *rm = job->remote;
    struct comm_run_wire w;

    if (rm == NULL || rm->coord == NULL || rm->coord->gone) {
        return;
    }
    comm_run_wire_init(&w);
    comm_run_wire_u64(&w, (uint64_t)r->rank);
    comm_run_wire_u64(&w, (uint64_t)r->pid);
    comm_run_wire_u64(&w, (uint64_t)(unsigned)r->abort_status);
    comm_run_wire_str(&w, r->abort_message);
    comm_run_remote_send(rm->coord, COMM_RUN_MSG_ABORT, &w);
}

bool comm_run_remote_done(struct comm_run_job *job)
{
    struct comm_run_remote *rm = job->remote;

    if (rm->coord != NULL) {
        /* An agent: its ranks are done; say so once, then leave when it is written. */
        if (!rm->coord->done && !rm->coord->gone && rm->coord->bev != NULL) {
            rm->coord->done = true;
            comm_run_remote_send(rm->coord, COMM_RUN_MSG_DONE, NULL);
            return false;
        }
        return rm->coord->gone;
    }
    for (size_t i = 0; i < rm->nlinks; i++) {
        const struct comm_run_link *l = &rm->links[i];

        if (l->hello && !l->done && !l->gone) {
            return false;
        }
    }
    return true;
}

void comm_run_remote_reaped(struct comm_run_job *job, pid_t pid, int wstatus)
{
    struct comm_run_remote *rm = job->remote;

    (void)wstatus;
    for (size_t i = 0; i < rm->nlinks; i++) {
        if (rm->links[i].launcher == pid) {
            rm->links[i].launcher = 0;
        }
    }
}

void comm_run_remote_free(struct comm_run_job *job)
{
    struct comm_run_remote *rm = job->remote;

    if (rm == NULL) {
        return;
    }
    if (rm->ping_ev != NULL) {
        event_free(rm->ping_ev);
    }
    if (rm->accept_ev != NULL) {
        event_free(rm->accept_ev);
    }
    if (rm->listen_fd >= 0 && rm->coord == NULL) {
        close(rm->listen_fd);
    }
    for (size_t i = 0; i < rm->nlinks + (rm->coord ? 1 : 0); i++) {
        struct comm_run_link *l = rm->coord ? rm->coord : &rm->links[i];

        if (l->bev != NULL) {
            bufferevent_free(l->bev);
        }
        if (l->fd >= 0 && l->bev == NULL && (l->hello || l->host < 0)) {
            close(l->fd);
        }
        remote_forget(l, UINT64_MAX);
        while (l->parts != NULL) {
            struct comm_run_part *p = l->parts;

            l->parts = p->next;
            free(p->data);
            free(p);
        }
    }
    /* Agents that said DONE are cleaning up and about to exit: give them a few seconds.  A
     * launch command still running after that (an agent that hung) goes with the job. */
    for (int wait_ms = 0; wait_ms < COMM_RUN_REMOTE_EXIT_WAIT_MS; wait_ms += 10) {
        bool running = false;

        for (size_t i = 0; i < rm->nlinks; i++) {
            if (rm->links[i].launcher > 0 && rm->links[i].done &&
                waitpid(rm->links[i].launcher, NULL, WNOHANG) == 0) {
                running = true;
            } else if (rm->links[i].done) {
                rm->links[i].launcher = 0;
            }
        }
        if (!running) {
            break;
        }
        usleep(10000);
    }
    for (size_t i = 0; i < rm->nlinks; i++) {
        if (rm->links[i].launcher > 0) {
            kill(-rm->links[i].launcher, SIGKILL);
            waitpid(rm->links[i].launcher, NULL, 0);
        }
    }
    while (rm->fences != NULL) {
        struct comm_run_fence *f = rm->fences;

        rm->fences = f->next;
        comm_pmix_server_fence_complete(f->fence, COMM_ERR_UNREACHABLE, NULL, 0);
        free(f->data);
        free(f);
    }
    for (size_t i = 0; i < rm->nagent_strings; i++) {
        free(rm->agent_strings[i]);
    }
    free(rm->agent_strings);
    free(rm->coord);
    free(rm->links);
    free(rm);
    job->remote = NULL;
}
