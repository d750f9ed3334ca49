/*
 * run_evlog_test.c - libevent's own messages reach comm-run's log, not bare stderr: a real
 * libevent warning (the one libpmix's server finalize causes) is an info line, shown at
 * COMM_LOG_LEVEL=info and hidden at the default level.
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "base/log.h"

#include "test/unit/unit.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void ignore(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
}

/* comm-run's log at LEVEL (NULL: the default), its stderr going to a fresh temporary file,
 * whose descriptor is returned; the real stderr is kept in *SAVED. */
static int capture_begin(const char *level, int *saved)
{
    char path[] = "/tmp/comm-evlog-XXXXXX";
    int out = mkstemp(path);

    ck_assert_int_ge(out, 0);
    unlink(path);
    if (level != NULL) {
        setenv("COMM_LOG_LEVEL", level, 1);
    } else {
        unsetenv("COMM_LOG_LEVEL");
    }
    comm_log_set_tool("comm-run");
    ck_assert_int_eq(comm_log_configure(), 0);
    *saved = dup(2);
    ck_assert_int_eq(dup2(out, 2), 2);
    return out;
}

/* Puts stderr back and returns what was written to it since capture_begin. */
static char *capture_end(int out, int saved)
{
    static char text[4096];
    ssize_t n;

    dup2(saved, 2);
    close(saved);
    n = pread(out, text, sizeof(text) - 1, 0);
    close(out);
    ck_assert_int_ge(n, 0);
    text[n] = '\0';
    return text;
}

/* Makes libevent warn as libpmix makes it: a socket watched for reading and writing is closed,
 * then its write event is deleted (epoll MOD on a closed fd).  Returns what went to stderr. */
static char *provoke_warning(const char *level)
{
    int sv[2], saved, out;
    struct event_base *base;
    struct event *rd, *wr;
    char *text;

    event_set_log_callback(comm_run_libevent_log);
    /* Before the socket is closed, so that no new file takes its number. */
    out = capture_begin(level, &saved);
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    base = event_base_new();
    ck_assert_ptr_nonnull(base);
    ck_assert_str_eq(event_base_get_method(base), "epoll");
    rd = event_new(base, sv[0], EV_READ | EV_PERSIST, ignore, NULL);
    wr = event_new(base, sv[0], EV_WRITE | EV_PERSIST, ignore, NULL);
    ck_assert_int_eq(event_add(rd, NULL), 0);
    ck_assert_int_eq(event_add(wr, NULL), 0);
    close(sv[0]);
    event_del(wr);
    text = capture_end(out, saved);
    event_free(rd);
    event_free(wr);
    event_base_free(base);
    close(sv[1]);
    return text;
}

START_TEST(warning_is_an_info_line)
{
    const char *text = provoke_warning("info");

    ck_assert_msg(strncmp(text, "comm-run: info: libevent: Epoll MOD", 35) == 0, "stderr was: '%s'",
                  text);
    ck_assert_msg(strstr(text, "Bad file descriptor\n") != NULL, "stderr was: '%s'", text);
    ck_assert_msg(strstr(text, "[warn]") == NULL, "stderr was: '%s'", text);
}
END_TEST

START_TEST(warning_is_hidden_by_default)
{
    const char *text = provoke_warning(NULL);

    ck_assert_msg(text[0] == '\0', "stderr was: '%s'", text);
}
END_TEST

START_TEST(error_is_a_warning)
{
    int saved, out = capture_begin(NULL, &saved);

    comm_run_libevent_log(EVENT_LOG_ERR, "something broke");
    ck_assert_str_eq(capture_end(out, saved), "comm-run: warning: libevent: something broke\n");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run_evlog");
    TCase *tc = comm_test_case("libevent");

    tcase_add_test(tc, warning_is_an_info_line);
    tcase_add_test(tc, warning_is_hidden_by_default);
    tcase_add_test(tc, error_is_a_warning);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
