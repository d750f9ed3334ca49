/*
 * rawtcp.c - raw TCP ping-pong latency and streaming bandwidth, printed in the OSU-style
 * columns of the other benchmarks (latency, bw), so that comm's tcp path can be set beside a
 * plain socket on the same path: loopback, or two hosts of the simulated cluster of
 * test/cluster (server in one network namespace, client in another).
 *
 * Plain sockets: no MPI, no comm, not linked with libcomm.  The server binds to the one address
 * it is given (never to every address unless told so), serves one client and exits.  The
 * client chooses the tests, sizes and counts, sends them to the server in a session header,
 * then both run the same loops and the client prints one row per size.  Both sides wait by
 * spinning on non-blocking sockets (or in poll with --block), and give up with an error after
 * --timeout seconds without progress, so a missing peer never hangs them.
 *
 *   rawtcp -s -a 127.0.0.1 -p 0 &          # prints "# rawtcp server listening on ... port N"
 *   rawtcp -c -a 127.0.0.1 -p N -m 1:65536
 *
 * Exit status: 0, 1 when the run failed (connection, timeout, peer), 2 for a bad command line.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* What main does after reading the command line: every value but RAWTCP_RUN is an exit status. */
enum rawtcp_status {
    RAWTCP_RUN = -1,
    RAWTCP_EXIT_OK = 0,
    RAWTCP_EXIT_FAILURE = 1,
    RAWTCP_EXIT_USAGE = 2,
};

enum rawtcp_test {
    RAWTCP_TEST_LATENCY = 1,
    RAWTCP_TEST_BANDWIDTH = 2,
};

enum {
    RAWTCP_MAGIC = 0x72746370, /* "rtcp" */
    RAWTCP_VERSION = 1,
    RAWTCP_FLAG_BLOCK = 1,
    RAWTCP_DEFAULT_PORT = 18515,
    RAWTCP_DEFAULT_MIN_SIZE = 1,
    RAWTCP_DEFAULT_MAX_SIZE = 4194304,
    RAWTCP_MAX_SIZE = 1 << 30,
    RAWTCP_DEFAULT_WINDOW = 64,
    RAWTCP_MAX_WINDOW = 1 << 20,
    RAWTCP_MAX_COUNT = INT_MAX / 2,
    RAWTCP_DEFAULT_TIMEOUT = 30,
    RAWTCP_MAX_TIMEOUT = 86400,
    RAWTCP_LARGE_THRESHOLD = 8192, /* OSU's small/large boundary for default counts */
    RAWTCP_LABEL_WIDTH = 10,
    RAWTCP_VALUE_WIDTH = 18,
    RAWTCP_SPINS_PER_CLOCK = 256,
    RAWTCP_MIN_BUFFER = 262144, /* what the bandwidth receiver drains at once, at least */
    RAWTCP_HOST_LEN = INET6_ADDRSTRLEN + 16, /* an IPv6 address with "%interface" */
};

struct rawtcp_options {
    char mode; /* 's' server, 'c' client, 0 not given */
    const char *address;
    long port;
    unsigned tests; /* RAWTCP_TEST_* bits */
    long min_size;  /* -m */
    long max_size;
    long iterations;         /* -i; 0: OSU's default by size and test */
    long warmup;             /* -x; -1: OSU's default */
    long window;             /* -W */
    bool block;              /* --block: wait in poll, not by spinning */
    long timeout;            /* seconds without progress before giving up */
    const char *client_only; /* the first client-only option seen, for the server's error */
};

/* What the client tells the server; every field in network byte order on the wire. */
struct rawtcp_hello {
    uint32_t magic;
    uint32_t version;
    uint32_t tests;
    uint32_t flags;
    uint32_t min_size;
    uint32_t max_size;
    uint32_t iterations;
    uint32_t warmup; /* UINT32_MAX: default */
    uint32_t window;
};

/* One connected socket and what is needed to wait on it and to name it in errors. */
struct rawtcp_conn {
    int fd;
    bool block;
    long timeout_ms;
    char peer[RAWTCP_HOST_LEN + 16]; /* "ADDRESS port N" */
};

static void rawtcp_usage(void)
{
    printf("Usage: rawtcp -s -a ADDRESS [-p PORT] [--block] [--timeout SEC]\n"
           "       rawtcp -c -a ADDRESS [-p PORT] [-t latency|bw|both] [-m [MIN:]MAX] [-i ITER]\n"
           "              [-x WARMUP] [-W WINDOW] [--block] [--timeout SEC]\n"
           "Raw TCP ping-pong latency (half round trip, us) and streaming bandwidth (MB/s)\n"
           "between two processes, in the columns of the OSU-style benchmarks.\n\n");
    printf("  -s, --server       listen on ADDRESS, serve one client, exit\n"
           "  -c, --client       connect to the server at ADDRESS, run the tests, print them\n"
           "  -a, --address A    numeric IPv4 or IPv6 address; the server binds to it alone\n"
           "  -p, --port P       TCP port (default %d); 0 on the server: any free port,\n"
           "                     printed on the \"listening\" line\n",
           RAWTCP_DEFAULT_PORT);
    printf("  -t, --test T       latency, bw or both (default both); client only\n"
           "  -m [MIN:]MAX       sizes in bytes, MIN then doubling up to MAX (default %d:%d,\n"
           "                     MIN at least 1, MAX at most %d); client only\n",
           RAWTCP_DEFAULT_MIN_SIZE, RAWTCP_DEFAULT_MAX_SIZE, RAWTCP_MAX_SIZE);
    printf("  -i ITER            timed iterations per size (default: latency 10000 up to %d\n"
           "                     bytes, 1000 above; bw 100, 20 above); client only\n"
           "  -x WARMUP          untimed iterations per size (default: latency 100, 10 above;\n"
           "                     bw 10, 2 above); client only\n"
           "  -W WINDOW          bw: messages sent per acknowledgement (default %d); client only\n",
           RAWTCP_LARGE_THRESHOLD, RAWTCP_DEFAULT_WINDOW);
    printf("  -b, --block        wait in poll(2) instead of spinning (the receiver then pays the\n"
           "                     wake-up of an idle core on every message)\n"
           "  -T, --timeout SEC  give up after SEC seconds without progress (default %d)\n"
           "  -h, --help         print this help and exit\n\n"
           "Exit status: 0, 1 when the run failed, 2 for a bad command line.\n",
           RAWTCP_DEFAULT_TIMEOUT);
}

static int rawtcp_usage_error(const char *subject, const char *value, const char *what)
{
    if (value != NULL) {
        fprintf(stderr, "rawtcp: %s '%s' %s (try -h)\n", subject, value, what);
    } else {
        fprintf(stderr, "rawtcp: %s %s (try -h)\n", subject, what);
    }
    return RAWTCP_EXIT_USAGE;
}

/* Parses TEXT, all of it, as a decimal number in [MIN, MAX]; returns 0, or -1. */
static int rawtcp_parse_number(const char *text, long min, long max, long *value_out)
{
    char *end;
    long value;

    if (text[0] < '0' || text[0] > '9') {
        return -1;
    }
    errno = 0;
    value = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < min || value > max) {
        return -1;
    }
    *value_out = value;
    return 0;
}

/* -m [MIN:]MAX or MIN: ; returns 0 and sets the sizes in O, or -1. */
static int rawtcp_parse_sizes(const char *text, struct rawtcp_options *o)
{
    const char *colon = strchr(text, ':');
    long min = o->min_size;
    long max = o->max_size;
    char min_text[32];

    if (colon == NULL) {
        if (rawtcp_parse_number(text, 1, RAWTCP_MAX_SIZE, &max) < 0) {
            return -1;
        }
        if (max < min) {
            min = max;
        }
    } else {
        size_t len = (size_t)(colon - text);

        if (len == 0 || len >= sizeof(min_text)) {
            return -1;
        }
        memcpy(min_text, text, len);
        min_text[len] = '\0';
        if (rawtcp_parse_number(min_text, 1, RAWTCP_MAX_SIZE, &min) < 0) {
            return -1;
        }
        if (colon[1] != '\0' && rawtcp_parse_number(colon + 1, 1, RAWTCP_MAX_SIZE, &max) < 0) {
            return -1;
        }
    }
    if (min > max) {
        return -1;
    }
    o->min_size = min;
    o->max_size = max;
    return 0;
}

/* Returns RAWTCP_RUN, or the exit status (help printed, or the error said). */
static int rawtcp_parse(int argc, char **argv, struct rawtcp_options *o)
{
    static const struct option longopts[] = {
        {"server", no_argument, NULL, 's'},
        {"client", no_argument, NULL, 'c'},
        {"address", required_argument, NULL, 'a'},
        {"port", required_argument, NULL, 'p'},
        {"test", required_argument, NULL, 't'},
        {"block", no_argument, NULL, 'b'},
        {"timeout", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(o, 0, sizeof(*o));
    o->port = RAWTCP_DEFAULT_PORT;
    o->tests = RAWTCP_TEST_LATENCY | RAWTCP_TEST_BANDWIDTH;
    o->min_size = RAWTCP_DEFAULT_MIN_SIZE;
    o->max_size = RAWTCP_DEFAULT_MAX_SIZE;
    o->warmup = -1;
    o->window = RAWTCP_DEFAULT_WINDOW;
    o->timeout = RAWTCP_DEFAULT_TIMEOUT;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":sca:p:t:m:i:x:W:bT:h", longopts, NULL)) != -1) {
        const char *arg = argv[optind - 1];

        switch (c) {
        case 's':
        case 'c':
            if (o->mode != 0 && o->mode != c) {
                return rawtcp_usage_error("options -s and -c", NULL, "exclude each other");
            }
            o->mode = (char)c;
            break;
        case 'a':
            o->address = optarg;
            break;
        case 'p':
            if (rawtcp_parse_number(optarg, 0, 65535, &o->port) < 0) {
                return rawtcp_usage_error("port", optarg, "is not a TCP port (0 to 65535)");
            }
            break;
        case 't':
            o->client_only = o->client_only ? o->client_only : "-t";
            if (strcmp(optarg, "latency") == 0) {
                o->tests = RAWTCP_TEST_LATENCY;
            } else if (strcmp(optarg, "bw") == 0) {
                o->tests = RAWTCP_TEST_BANDWIDTH;
            } else if (strcmp(optarg, "both") == 0) {
                o->tests = RAWTCP_TEST_LATENCY | RAWTCP_TEST_BANDWIDTH;
            } else {
                return rawtcp_usage_error("test", optarg, "is unknown: want latency, bw or both");
            }
            break;
        case 'm':
            o->client_only = o->client_only ? o->client_only : "-m";
            if (rawtcp_parse_sizes(optarg, o) < 0) {
                return rawtcp_usage_error("option -m", optarg,
                                          "is not a size range: want [MIN:]MAX in bytes, "
                                          "1 <= MIN <= MAX <= 1073741824");
            }
            break;
        case 'i':
            o->client_only = o->client_only ? o->client_only : "-i";
            if (rawtcp_parse_number(optarg, 1, RAWTCP_MAX_COUNT, &o->iterations) < 0) {
                return rawtcp_usage_error("option -i", optarg,
                                          "is not an iteration count: want 1 to 1073741823");
            }
            break;
        case 'x':
            o->client_only = o->client_only ? o->client_only : "-x";
            if (rawtcp_parse_number(optarg, 0, RAWTCP_MAX_COUNT, &o->warmup) < 0) {
                return rawtcp_usage_error("option -x", optarg,
                                          "is not a warm-up count: want 0 to 1073741823");
            }
            break;
        case 'W':
            o->client_only = o->client_only ? o->client_only : "-W";
            if (rawtcp_parse_number(optarg, 1, RAWTCP_MAX_WINDOW, &o->window) < 0) {
                return rawtcp_usage_error("option -W", optarg,
                                          "is not a window size: want 1 to 1048576");
            }
            break;
        case 'b':
            o->block = true;
            break;
        case 'T':
            if (rawtcp_parse_number(optarg, 1, RAWTCP_MAX_TIMEOUT, &o->timeout) < 0) {
                return rawtcp_usage_error("timeout", optarg,
                                          "is not a number of seconds: want 1 to 86400");
            }
            break;
        case 'h':
            rawtcp_usage();
            return RAWTCP_EXIT_OK;
        case ':':
            return rawtcp_usage_error("option", arg, "needs a value");
        default:
            return rawtcp_usage_error("option", arg, "is unknown");
        }
    }
    if (optind < argc) {
        return rawtcp_usage_error("unexpected argument", argv[optind],
                                  "(this program takes only options)");
    }
    if (o->mode == 0) {
        return rawtcp_usage_error("mode", NULL, "missing: give -s (server) or -c (client)");
    }
    if (o->address == NULL) {
        return rawtcp_usage_error("address", NULL,
                                  "missing: give -a ADDRESS (the server binds to it alone)");
    }
    if (o->mode == 's' && o->client_only != NULL) {
        return rawtcp_usage_error("option", o->client_only,
                                  "applies to the client only (it sends the tests, sizes and "
                                  "counts to the server)");
    }
    if (o->mode == 'c' && o->port == 0) {
        return rawtcp_usage_error("port", "0", "is for the server only: give the server's port");
    }
    return RAWTCP_RUN;
}

static double rawtcp_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Resolves a numeric ADDRESS and PORT (no name lookup); returns 0, or -1 with the error said. */
static int rawtcp_resolve(const char *address, long port, struct addrinfo **ai_out)
{
    struct addrinfo hints;
    char service[16];
    int rc;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_TCP;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    snprintf(service, sizeof(service), "%ld", port);
    rc = getaddrinfo(address, service, &hints, ai_out);
    if (rc != 0) {
        fprintf(stderr, "rawtcp: address '%s' is not a numeric IPv4 or IPv6 address: %s\n", address,
                gai_strerror(rc));
        return -1;
    }
    return 0;
}

/* "ADDRESS port N" for a socket address. */
static void rawtcp_name(const struct sockaddr *sa, socklen_t len, char *out, size_t size)
{
    char host[RAWTCP_HOST_LEN];
    char port[8];

    if (getnameinfo(sa, len, host, sizeof(host), port, sizeof(port),
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
        snprintf(out, size, "(unknown address)");
        return;
    }
    snprintf(out, size, "%s port %s", host, port);
}

/* Makes a connected socket ready: no Nagle, non-blocking.  Returns 0, or -1 with the error. */
static int rawtcp_setup(struct rawtcp_conn *conn)
{
    int one = 1;
    int flags;

    if (setsockopt(conn->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0) {
        fprintf(stderr, "rawtcp: setsockopt TCP_NODELAY: %s\n", strerror(errno));
        return -1;
    }
    flags = fcntl(conn->fd, F_GETFL);
    if (flags < 0 || fcntl(conn->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        fprintf(stderr, "rawtcp: fcntl O_NONBLOCK: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

/*
 * Waits in poll until FD is ready for EVENTS or DEADLINE (rawtcp_now's clock) passes.
 * Returns 1 ready, 0 timed out, -1 on error (said).
 */
static int rawtcp_wait(int fd, short events, double deadline)
{
    struct pollfd pfd = {.fd = fd, .events = events};

    for (;;) {
        double left = deadline - rawtcp_now();
        int rc;

        if (left <= 0) {
            return 0;
        }
        rc = poll(&pfd, 1, (int)(left * 1000.0) + 1);
        if (rc > 0) {
            return 1;
        }
        if (rc < 0 && errno != EINTR) {
            fprintf(stderr, "rawtcp: poll: %s\n", strerror(errno));
            return -1;
        }
    }
}

/*
 * Sends or receives exactly LEN bytes on the non-blocking socket.  Spinning, a failed recv or
 * send costs less than a poll, and the clock is read only every few hundred failures: the
 * timeout counts from the first look at the clock after the last progress.  Returns 0, or -1
 * after saying what failed (WHAT names the step, for the message).
 */
static int rawtcp_transfer(struct rawtcp_conn *conn, bool sending, char *buf, size_t len,
                           const char *what)
{
    double timeout = (double)conn->timeout_ms / 1000.0;
    double deadline = 0.0; /* 0: not started; the clock is read only while waiting */
    size_t done = 0;
    unsigned spins = 0;

    while (done < len) {
        ssize_t n;
        bool expired = false;

        if (sending) {
            n = send(conn->fd, buf + done, len - done, MSG_NOSIGNAL);
        } else {
            n = recv(conn->fd, buf + done, len - done, 0);
        }
        if (n > 0) {
            done += (size_t)n;
            deadline = 0.0;
            continue;
        }
        if (n == 0) {
            fprintf(stderr, "rawtcp: %s closed the connection during %s (%zu of %zu bytes)\n",
                    conn->peer, what, done, len);
            return -1;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            fprintf(stderr, "rawtcp: %s %s %s during %s: %s\n", sending ? "send to" : "recv from",
                    conn->peer, "failed", what, strerror(errno));
            return -1;
        }
        if (conn->block) {
            int rc;

            if (deadline == 0.0) {
                deadline = rawtcp_now() + timeout;
            }
            rc = rawtcp_wait(conn->fd, sending ? POLLOUT : POLLIN, deadline);
            if (rc < 0) {
                return -1;
            }
            expired = rc == 0;
        } else if (++spins >= RAWTCP_SPINS_PER_CLOCK) {
            double now = rawtcp_now();

            spins = 0;
            if (deadline == 0.0) {
                deadline = now + timeout;
            }
            expired = now >= deadline;
        }
        if (expired) {
            fprintf(stderr,
                    "rawtcp: no progress for %ld s with %s during %s (%zu of %zu bytes %s): "
                    "is the peer still running?\n",
                    conn->timeout_ms / 1000, conn->peer, what, done, len,
                    sending ? "sent" : "received");
            return -1;
        }
    }
    return 0;
}

static int rawtcp_send(struct rawtcp_conn *conn, char *buf, size_t len, const char *what)
{
    return rawtcp_transfer(conn, true, buf, len, what);
}

static int rawtcp_recv(struct rawtcp_conn *conn, char *buf, size_t len, const char *what)
{
    return rawtcp_transfer(conn, false, buf, len, what);
}

static long rawtcp_iterations(const struct rawtcp_hello *h, enum rawtcp_test test, long size)
{
    bool large = size > RAWTCP_LARGE_THRESHOLD;

    if (h->iterations > 0) {
        return (long)h->iterations;
    }
    if (test == RAWTCP_TEST_LATENCY) {
        return large ? 1000 : 10000;
    }
    return large ? 20 : 100;
}

static long rawtcp_warmup(const struct rawtcp_hello *h, enum rawtcp_test test, long size)
{
    bool large = size > RAWTCP_LARGE_THRESHOLD;

    if (h->warmup != UINT32_MAX) {
        return (long)h->warmup;
    }
    if (test == RAWTCP_TEST_LATENCY) {
        return large ? 10 : 100;
    }
    return large ? 2 : 10;
}

/* Both sides meet before each size, so neither times the other's set-up. */
static int rawtcp_sync(struct rawtcp_conn *conn, bool client)
{
    char byte = 's';

    if (client) {
        if (rawtcp_send(conn, &byte, 1, "the start of a size") < 0) {
            return -1;
        }
        return rawtcp_recv(conn, &byte, 1, "the start of a size");
    }
    if (rawtcp_recv(conn, &byte, 1, "the start of a size") < 0) {
        return -1;
    }
    return rawtcp_send(conn, &byte, 1, "the start of a size");
}

/* Ping-pong of SIZE bytes; on the client, sets *usec_out to half the round trip. */
static int rawtcp_latency(struct rawtcp_conn *conn, const struct rawtcp_hello *h, bool client,
                          char *buf, long size, double *usec_out)
{
    long iterations = rawtcp_iterations(h, RAWTCP_TEST_LATENCY, size);
    long warmup = rawtcp_warmup(h, RAWTCP_TEST_LATENCY, size);
    double start = 0.0;
    long i;

    if (rawtcp_sync(conn, client) < 0) {
        return -1;
    }
    for (i = 0; i < warmup + iterations; i++) {
        if (i == warmup) {
            start = rawtcp_now();
        }
        if (client) {
            if (rawtcp_send(conn, buf, (size_t)size, "the latency test") < 0 ||
                rawtcp_recv(conn, buf, (size_t)size, "the latency test") < 0) {
                return -1;
            }
        } else {
            if (rawtcp_recv(conn, buf, (size_t)size, "the latency test") < 0 ||
                rawtcp_send(conn, buf, (size_t)size, "the latency test") < 0) {
                return -1;
            }
        }
    }
    *usec_out = (rawtcp_now() - start) * 1e6 / (2.0 * (double)iterations);
    return 0;
}

/*
 * Windows of SIZE-byte messages from client to server, one byte back per window.  The client
 * sends each message with its own calls, as a message layer would; the server drains the
 * stream in chunks of up to BUF_SIZE bytes, as a receiver that posts a window of receives would.
 */
static int rawtcp_bandwidth(struct rawtcp_conn *conn, const struct rawtcp_hello *h, bool client,
                            char *buf, size_t buf_size, long size, double *mbps_out)
{
    long iterations = rawtcp_iterations(h, RAWTCP_TEST_BANDWIDTH, size);
    long warmup = rawtcp_warmup(h, RAWTCP_TEST_BANDWIDTH, size);
    size_t window_bytes = (size_t)size * h->window;
    double start = 0.0;
    char ack = 'a';
    long i;

    if (rawtcp_sync(conn, client) < 0) {
        return -1;
    }
    for (i = 0; i < warmup + iterations; i++) {
        size_t done;

        if (i == warmup) {
            start = rawtcp_now();
        }
        for (done = 0; done < window_bytes;) {
            size_t chunk = client ? (size_t)size : window_bytes - done;
            int rc;

            chunk = chunk < buf_size ? chunk : buf_size;
            rc = client ? rawtcp_send(conn, buf, chunk, "the bandwidth test")
                        : rawtcp_recv(conn, buf, chunk, "the bandwidth test");
            if (rc < 0) {
                return -1;
            }
            done += chunk;
        }
        if (client ? rawtcp_recv(conn, &ack, 1, "a bandwidth acknowledgement")
                   : rawtcp_send(conn, &ack, 1, "a bandwidth acknowledgement")) {
            return -1;
        }
    }
    *mbps_out = (double)window_bytes * (double)iterations / 1e6 / (rawtcp_now() - start);
    return 0;
}

static void rawtcp_print_header(const struct rawtcp_conn *conn, const struct rawtcp_hello *h,
                                enum rawtcp_test test)
{
    bool latency = test == RAWTCP_TEST_LATENCY;

    printf("# OSU-style raw TCP %s Test - plain sockets, server %s, %s\n",
           latency ? "Latency" : "Bandwidth", conn->peer,
           (h->flags & RAWTCP_FLAG_BLOCK) ? "poll(2) waits" : "busy-polling");
    printf("# sizes %u to %u bytes", (unsigned)h->min_size, (unsigned)h->max_size);
    if (!latency) {
        printf(", window %u", (unsigned)h->window);
    }
    if (h->iterations > 0) {
        printf(", iterations %ld", rawtcp_iterations(h, test, 1));
    } else {
        printf(", iterations %ld/%ld (up to/above %d bytes)", rawtcp_iterations(h, test, 1),
               rawtcp_iterations(h, test, RAWTCP_LARGE_THRESHOLD + 1), RAWTCP_LARGE_THRESHOLD);
    }
    if (h->warmup != UINT32_MAX) {
        printf(", warm-up %ld\n", rawtcp_warmup(h, test, 1));
    } else {
        printf(", warm-up %ld/%ld\n", rawtcp_warmup(h, test, 1),
               rawtcp_warmup(h, test, RAWTCP_LARGE_THRESHOLD + 1));
    }
    printf("%-*s%*s\n", RAWTCP_LABEL_WIDTH, "# Size", RAWTCP_VALUE_WIDTH,
           latency ? "Latency (us)" : "Bandwidth (MB/s)");
    fflush(stdout);
}

/* Runs every test of the session on either side; the client prints.  Returns 0, or -1. */
static int rawtcp_session(struct rawtcp_conn *conn, const struct rawtcp_hello *h, bool client)
{
    static const enum rawtcp_test order[] = {RAWTCP_TEST_LATENCY, RAWTCP_TEST_BANDWIDTH};
    size_t buf_size = h->max_size > RAWTCP_MIN_BUFFER ? h->max_size : RAWTCP_MIN_BUFFER;
    char *buf;
    size_t t;
    int rc = 0;

    buf = malloc(buf_size);
    if (buf == NULL) {
        fprintf(stderr, "rawtcp: cannot allocate %zu bytes: %s\n", buf_size, strerror(errno));
        return -1;
    }
    memset(buf, 'r', buf_size);
    for (t = 0; t < sizeof(order) / sizeof(order[0]) && rc == 0; t++) {
        long size;

        if ((h->tests & order[t]) == 0) {
            continue;
        }
        if (client) {
            rawtcp_print_header(conn, h, order[t]);
        }
        for (size = (long)h->min_size; size <= (long)h->max_size && rc == 0; size *= 2) {
            double value = 0.0;

            if (order[t] == RAWTCP_TEST_LATENCY) {
                rc = rawtcp_latency(conn, h, client, buf, size, &value);
            } else {
                rc = rawtcp_bandwidth(conn, h, client, buf, buf_size, size, &value);
            }
            if (rc == 0 && client) {
                printf("%*ld%*.2f\n", RAWTCP_LABEL_WIDTH, size, RAWTCP_VALUE_WIDTH, value);
                fflush(stdout);
            }
        }
    }
    free(buf);
    return rc;
}

static void rawtcp_hello_swap(struct rawtcp_hello *h, uint32_t (*swap)(uint32_t))
{
    h->magic = swap(h->magic);
    h->version = swap(h->version);
    h->tests = swap(h->tests);
    h->flags = swap(h->flags);
    h->min_size = swap(h->min_size);
    h->max_size = swap(h->max_size);
    h->iterations = swap(h->iterations);
    h->warmup = swap(h->warmup);
    h->window = swap(h->window);
}

static uint32_t rawtcp_hton(uint32_t value)
{
    return htonl(value);
}

static uint32_t rawtcp_ntoh(uint32_t value)
{
    return ntohl(value);
}

/* A header from the wire is used only if every field is one the client could have sent. */
static bool rawtcp_hello_is_valid(const struct rawtcp_hello *h)
{
    return h->magic == RAWTCP_MAGIC && h->version == RAWTCP_VERSION && h->tests != 0 &&
           (h->tests & ~(uint32_t)(RAWTCP_TEST_LATENCY | RAWTCP_TEST_BANDWIDTH)) == 0 &&
           (h->flags & ~(uint32_t)RAWTCP_FLAG_BLOCK) == 0 && h->min_size >= 1 &&
           h->min_size <= h->max_size && h->max_size <= RAWTCP_MAX_SIZE &&
           h->iterations <= RAWTCP_MAX_COUNT &&
           (h->warmup == UINT32_MAX || h->warmup <= RAWTCP_MAX_COUNT) && h->window >= 1 &&
           h->window <= RAWTCP_MAX_WINDOW;
}

static int rawtcp_server(const struct rawtcp_options *o)
{
    struct addrinfo *ai;
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);
    struct rawtcp_conn conn = {.fd = -1, .block = o->block, .timeout_ms = o->timeout * 1000};
    struct rawtcp_hello h;
    char name[sizeof(conn.peer)];
    int one = 1;
    int lfd;
    int rc = RAWTCP_EXIT_FAILURE;

    if (rawtcp_resolve(o->address, o->port, &ai) < 0) {
        return RAWTCP_EXIT_USAGE;
    }
    lfd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK, ai->ai_protocol);
    if (lfd < 0) {
        fprintf(stderr, "rawtcp: socket: %s\n", strerror(errno));
        goto out_free_ai;
    }
    /* A port just used by the previous run (in TIME_WAIT) can be used again at once. */
    if (setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0) {
        fprintf(stderr, "rawtcp: setsockopt SO_REUSEADDR: %s\n", strerror(errno));
        goto out_close_listener;
    }
    if (bind(lfd, ai->ai_addr, ai->ai_addrlen) < 0) {
        fprintf(stderr, "rawtcp: cannot bind to %s port %ld: %s\n", o->address, o->port,
                strerror(errno));
        goto out_close_listener;
    }
    if (listen(lfd, 1) < 0 || getsockname(lfd, (struct sockaddr *)&addr, &len) < 0) {
        fprintf(stderr, "rawtcp: listen on %s port %ld: %s\n", o->address, o->port,
                strerror(errno));
        goto out_close_listener;
    }
    rawtcp_name((struct sockaddr *)&addr, len, name, sizeof(name));
    printf("# rawtcp server listening on %s\n", name);
    fflush(stdout);
    rc = rawtcp_wait(lfd, POLLIN, rawtcp_now() + (double)o->timeout);
    if (rc <= 0) {
        if (rc == 0) {
            fprintf(stderr, "rawtcp: no client connected to %s within %ld s\n", name, o->timeout);
        }
        rc = RAWTCP_EXIT_FAILURE;
        goto out_close_listener;
    }
    rc = RAWTCP_EXIT_FAILURE;
    len = sizeof(addr);
    conn.fd = accept(lfd, (struct sockaddr *)&addr, &len);
    if (conn.fd < 0) {
        fprintf(stderr, "rawtcp: accept on %s: %s\n", name, strerror(errno));
        goto out_close_listener;
    }
    rawtcp_name((struct sockaddr *)&addr, len, conn.peer, sizeof(conn.peer));
    if (rawtcp_setup(&conn) < 0 ||
        rawtcp_recv(&conn, (char *)&h, sizeof(h), "the session header") < 0) {
        goto out_close_conn;
    }
    rawtcp_hello_swap(&h, rawtcp_ntoh);
    if (!rawtcp_hello_is_valid(&h)) {
        fprintf(stderr,
                "rawtcp: the client at %s sent a session header rawtcp version %d does not "
                "accept (another program, or another version)\n",
                conn.peer, RAWTCP_VERSION);
        goto out_close_conn;
    }
    /* The client's choice of waiting applies to both sides, so that one run is one mode. */
    conn.block = (h.flags & RAWTCP_FLAG_BLOCK) != 0 || o->block;
    if (rawtcp_session(&conn, &h, false) == 0) {
        printf("# rawtcp server done with %s\n", conn.peer);
        rc = RAWTCP_EXIT_OK;
    }
out_close_conn:
    close(conn.fd);
out_close_listener:
    close(lfd);
out_free_ai:
    freeaddrinfo(ai);
    return rc;
}

/* Connects the non-blocking socket within TIMEOUT seconds; returns 0, or -1 with the error. */
static int rawtcp_connect(struct rawtcp_conn *conn, const struct addrinfo *ai, long timeout)
{
    socklen_t len = sizeof(int);
    int error = 0;
    int rc;

    if (connect(conn->fd, ai->ai_addr, ai->ai_addrlen) == 0) {
        return 0;
    }
    if (errno != EINPROGRESS) {
        fprintf(stderr, "rawtcp: cannot connect to %s: %s\n", conn->peer, strerror(errno));
        return -1;
    }
    rc = rawtcp_wait(conn->fd, POLLOUT, rawtcp_now() + (double)timeout);
    if (rc == 0) {
        fprintf(stderr, "rawtcp: cannot connect to %s: no answer within %ld s\n", conn->peer,
                timeout);
    }
    if (rc <= 0) {
        return -1;
    }
    if (getsockopt(conn->fd, SOL_SOCKET, SO_ERROR, &error, &len) < 0) {
        error = errno;
    }
    if (error != 0) {
        fprintf(stderr, "rawtcp: cannot connect to %s: %s\n", conn->peer, strerror(error));
        return -1;
    }
    return 0;
}

static int rawtcp_client(const struct rawtcp_options *o)
{
    struct addrinfo *ai;
    struct rawtcp_conn conn = {.fd = -1, .block = o->block, .timeout_ms = o->timeout * 1000};
    struct rawtcp_hello h = {
        .magic = RAWTCP_MAGIC,
        .version = RAWTCP_VERSION,
        .tests = o->tests,
        .flags = o->block ? RAWTCP_FLAG_BLOCK : 0,
        .min_size = (uint32_t)o->min_size,
        .max_size = (uint32_t)o->max_size,
        .iterations = (uint32_t)o->iterations,
        .warmup = o->warmup < 0 ? UINT32_MAX : (uint32_t)o->warmup,
        .window = (uint32_t)o->window,
    };
    struct rawtcp_hello wire = h;
    int rc = RAWTCP_EXIT_FAILURE;

    if (rawtcp_resolve(o->address, o->port, &ai) < 0) {
        return RAWTCP_EXIT_USAGE;
    }
    rawtcp_name(ai->ai_addr, ai->ai_addrlen, conn.peer, sizeof(conn.peer));
    conn.fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK, ai->ai_protocol);
    if (conn.fd < 0) {
        fprintf(stderr, "rawtcp: socket: %s\n", strerror(errno));
        goto out_free_ai;
    }
    if (rawtcp_connect(&conn, ai, o->timeout) < 0) {
        goto out_close;
    }
    rawtcp_hello_swap(&wire, rawtcp_hton);
    if (rawtcp_setup(&conn) < 0 ||
        rawtcp_send(&conn, (char *)&wire, sizeof(wire), "the session header") < 0) {
        goto out_close;
    }
    if (rawtcp_session(&conn, &h, true) == 0) {
        rc = RAWTCP_EXIT_OK;
    }
out_close:
    close(conn.fd);
out_free_ai:
    freeaddrinfo(ai);
    return rc;
}

int main(int argc, char **argv)
{
    struct rawtcp_options o;
    int rc = rawtcp_parse(argc, argv, &o);

    if (rc != RAWTCP_RUN) {
        return rc;
    }
    return o.mode == 's' ? rawtcp_server(&o) : rawtcp_client(&o);
}
