/*
 * comm_run_io.c - forwarding the ranks' stdout and stderr, and comm-run's stdin to rank 0.
 *
 * Layer: launcher.  Runs on the event loop only.
 *
 * Output is forwarded in whole lines, each with one write(2), so two ranks' bytes never share
 * a line; with --tag-output each line starts with "[rank] ".  A line longer than
 * IO_MAX_LINE is cut into pieces of that size.  What is left without a newline at EOF is
 * forwarded as is (with a newline added when tagging, so the next tag starts a line).
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "base/error.h"
#include "base/log.h"

#include <event2/buffer.h>
#include <event2/event.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { IO_MAX_LINE = 65536, IO_STDIN_HIGH_WATER = 1 << 20 };

static void io_write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return; /* our own stdout is gone: the ranks' output has nowhere to go */
        }
        data += n;
        len -= (size_t)n;
    }
}

/* Writes one line (or piece) of LEN bytes from BUF to FD, tagged if asked. */
static void io_emit(struct comm_run_job *job, struct comm_run_rank *r, int fd,
                    struct evbuffer *buf, size_t len, bool add_newline)
{
    char tag[32];
    size_t tag_len = 0;
    char *line;

    if (job->opts->tag_output) {
        int w = snprintf(tag, sizeof(tag), "[%ld] ", r->rank);
        tag_len = w > 0 ? (size_t)w : 0;
    }
    line = malloc(tag_len + len + 1);
    if (line == NULL) {
        evbuffer_drain(buf, len);
        return;
    }
    memcpy(line, tag, tag_len);
    evbuffer_remove(buf, line + tag_len, len);
    if (add_newline) {
        line[tag_len + len++] = '\n';
    }
    io_write_all(fd, line, tag_len + len);
    free(line);
}

/* Forwards every complete line in BUF; at EOF also what is left. */
static void io_flush_lines(struct comm_run_job *job, struct comm_run_rank *r, int fd,
                           struct evbuffer *buf, bool eof)
{
    for (;;) {
        struct evbuffer_ptr nl = evbuffer_search(buf, "\n", 1, NULL);
        size_t have = evbuffer_get_length(buf);

        if (nl.pos >= 0) {
            io_emit(job, r, fd, buf, (size_t)nl.pos + 1, false);
        } else if (have >= IO_MAX_LINE) {
            io_emit(job, r, fd, buf, IO_MAX_LINE, job->opts->tag_output);
        } else if (eof && have > 0) {
            io_emit(job, r, fd, buf, have, job->opts->tag_output);
        } else {
            return;
        }
    }
}

static void io_close_stream(struct comm_run_rank *r, bool is_out)
{
    struct event **ev = is_out ? &r->out_ev : &r->err_ev;
    int *fd = is_out ? &r->out_fd : &r->err_fd;

    if (*ev != NULL) {
        event_free(*ev);
        *ev = NULL;
    }
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
        r->job->open_streams--;
    }
}

static void io_on_output(evutil_socket_t fd, short what, void *arg)
{
    struct comm_run_rank *r = arg;
    struct comm_run_job *job = r->job;
    bool is_out = fd == r->out_fd;
    struct evbuffer *buf = is_out ? r->out_buf : r->err_buf;
    int target = is_out ? STDOUT_FILENO : STDERR_FILENO;
    int n;

    (void)what;
    n = evbuffer_read(buf, fd, 65536);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        return;
    }
    io_flush_lines(job, r, target, buf, n <= 0);
    if (n <= 0) {
        io_close_stream(r, is_out);
        comm_run_job_check_done(job);
    }
}

static int io_pipe(int fds[2])
{
    if (pipe2(fds, O_CLOEXEC) != 0) {
        comm_log_error("launcher", "cannot create a pipe: %s", strerror(errno));
        return COMM_ERR_SYSTEM;
    }
    return COMM_OK;
}

int comm_run_io_setup_rank(struct comm_run_job *job, struct comm_run_rank *r, int *child_out,
                           int *child_err)
{
    int out[2], err[2];

    r->job = job;
    r->out_fd = r->err_fd = -1;
    if (io_pipe(out) < 0) {
        return COMM_ERR_SYSTEM;
    }
    if (io_pipe(err) < 0) {
        close(out[0]);
        close(out[1]);
        return COMM_ERR_SYSTEM;
    }
    r->out_buf = evbuffer_new();
    r->err_buf = evbuffer_new();
    evutil_make_socket_nonblocking(out[0]);
    evutil_make_socket_nonblocking(err[0]);
    r->out_ev = event_new(job->base, out[0], EV_READ | EV_PERSIST, io_on_output, r);
    r->err_ev = event_new(job->base, err[0], EV_READ | EV_PERSIST, io_on_output, r);
    if (r->out_buf == NULL || r->err_buf == NULL || r->out_ev == NULL || r->err_ev == NULL) {
        comm_log_error("launcher", "out of memory setting up the output of rank %ld", r->rank);
        close(out[0]);
        close(out[1]);
        close(err[0]);
        close(err[1]);
        return COMM_ERR_NOMEM;
    }
    r->out_fd = out[0];
    r->err_fd = err[0];
    job->open_streams += 2;
    event_add(r->out_ev, NULL);
    event_add(r->err_ev, NULL);
    *child_out = out[1];
    *child_err = err[1];
    return COMM_OK;
}

static void io_stdin_stop(struct comm_run_job *job)
{
    if (job->stdin_read_ev != NULL) {
        event_free(job->stdin_read_ev);
        job->stdin_read_ev = NULL;
    }
    if (job->stdin_write_ev != NULL) {
        event_free(job->stdin_write_ev);
        job->stdin_write_ev = NULL;
    }
    if (job->stdin_fd >= 0) {
        close(job->stdin_fd);
        job->stdin_fd = -1;
    }
    if (job->stdin_buf != NULL) {
        evbuffer_free(job->stdin_buf);
        job->stdin_buf = NULL;
    }
}

static void io_on_stdin_writable(evutil_socket_t fd, short what, void *arg)
{
    struct comm_run_job *job = arg;
    int n;

    (void)what;
    n = evbuffer_write(job->stdin_buf, fd);
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
        /* Rank 0 closed its stdin or exited: what it did not read is not wanted. */
        io_stdin_stop(job);
        return;
    }
    if (evbuffer_get_length(job->stdin_buf) == 0) {
        event_del(job->stdin_write_ev);
        if (job->stdin_eof) {
            io_stdin_stop(job);
            return;
        }
    }
    if (!job->stdin_eof && evbuffer_get_length(job->stdin_buf) < IO_STDIN_HIGH_WATER) {
        event_add(job->stdin_read_ev, NULL);
    }
}

static void io_on_stdin_readable(evutil_socket_t fd, short what, void *arg)
{
    struct comm_run_job *job = arg;
    int n;

    (void)what;
    n = evbuffer_read(job->stdin_buf, fd, 65536);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        return;
    }
    if (n <= 0) {
        job->stdin_eof = true;
        event_del(job->stdin_read_ev);
        if (evbuffer_get_length(job->stdin_buf) == 0) {
            io_stdin_stop(job);
        }
        return;
    }
    event_add(job->stdin_write_ev, NULL);
    if (evbuffer_get_length(job->stdin_buf) >= IO_STDIN_HIGH_WATER) {
        event_del(job->stdin_read_ev);
    }
}

int comm_run_io_setup_stdin(struct comm_run_job *job, int *child_in)
{
    struct stat st;
    int fds[2];

    job->stdin_fd = -1;
    /* A file or a device is handed to rank 0 as it is; only what can be polled is forwarded. */
    if (fstat(STDIN_FILENO, &st) != 0) {
        *child_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
        return *child_in >= 0 ? COMM_OK : COMM_ERR_SYSTEM;
    }
    if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode) && !isatty(STDIN_FILENO)) {
        *child_in = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
        return *child_in >= 0 ? COMM_OK : COMM_ERR_SYSTEM;
    }
    if (io_pipe(fds) < 0) {
        return COMM_ERR_SYSTEM;
    }
    evutil_make_socket_nonblocking(fds[1]);
    job->stdin_fd = fds[1];
    job->stdin_buf = evbuffer_new();
    job->stdin_read_ev = event_new(job->base, STDIN_FILENO, EV_READ | EV_PERSIST,
                                   io_on_stdin_readable, job);
    job->stdin_write_ev = event_new(job->base, fds[1], EV_WRITE | EV_PERSIST,
                                    io_on_stdin_writable, job);
    if (job->stdin_buf == NULL || job->stdin_read_ev == NULL || job->stdin_write_ev == NULL) {
        io_stdin_stop(job);
        close(fds[0]);
        return COMM_ERR_NOMEM;
    }
    event_add(job->stdin_read_ev, NULL);
    *child_in = fds[0];
    return COMM_OK;
}

void comm_run_io_close_child_ends(int child_in, int child_out, int child_err)
{
    if (child_in >= 0) {
        close(child_in);
    }
    if (child_out >= 0) {
        close(child_out);
    }
    if (child_err >= 0) {
        close(child_err);
    }
}

void comm_run_io_shutdown(struct comm_run_job *job)
{
    io_stdin_stop(job);
    for (long i = 0; i < job->np; i++) {
        struct comm_run_rank *r = &job->ranks[i];

        if (r->out_buf != NULL) {
            io_flush_lines(job, r, STDOUT_FILENO, r->out_buf, true);
        }
        if (r->err_buf != NULL) {
            io_flush_lines(job, r, STDERR_FILENO, r->err_buf, true);
        }
        io_close_stream(r, true);
        io_close_stream(r, false);
        if (r->out_buf != NULL) {
            evbuffer_free(r->out_buf);
            r->out_buf = NULL;
        }
        if (r->err_buf != NULL) {
            evbuffer_free(r->err_buf);
            r->err_buf = NULL;
        }
    }
}
