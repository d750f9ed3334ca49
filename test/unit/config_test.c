/*
 * config_test.c - settings and log configuration: parsing, validation, messages.
 */
#include "config.h"

#include "base/config_table.h"
#include "base/error.h"
#include "base/log.h"

#include "test/unit/unit.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs FN with stderr sent to a file; returns what it wrote (static buffer). */
static const char *capture_stderr(void (*fn)(void))
{
    static char out[8192];
    char path[] = "/tmp/comm-config-test.XXXXXX";
    int fd = mkstemp(path), saved = dup(STDERR_FILENO);
    ssize_t n;

    ck_assert_int_ge(fd, 0);
    unlink(path);
    dup2(fd, STDERR_FILENO);
    fn();
    dup2(saved, STDERR_FILENO);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    n = read(fd, out, sizeof(out) - 1);
    out[n > 0 ? n : 0] = '\0';
    close(fd);
    return out;
}

START_TEST(bool_spellings_are_accepted_and_others_refused)
{
    bool b = false;

    ck_assert_int_eq(comm_config_parse_bool("yes", &b), COMM_OK);
    ck_assert(b);
    ck_assert_int_eq(comm_config_parse_bool("OFF", &b), COMM_OK);
    ck_assert(!b);
    ck_assert_int_eq(comm_config_parse_bool("1", &b), COMM_OK);
    ck_assert(b);
    b = true;
    ck_assert_int_eq(comm_config_parse_bool("maybe", &b), COMM_ERR_BAD_PARAM);
    ck_assert(b); /* untouched on failure */
    ck_assert_int_eq(comm_config_parse_bool("", &b), COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(numbers_must_be_whole_and_in_range)
{
    long v = -7;

    ck_assert_int_eq(comm_config_parse_long("42", 0, 100, &v), COMM_OK);
    ck_assert_int_eq(v, 42);
    ck_assert_int_eq(comm_config_parse_long("101", 0, 100, &v), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_config_parse_long("-1", 0, 100, &v), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_config_parse_long("12x", 0, 100, &v), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_config_parse_long("", 0, 100, &v), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_config_parse_long("99999999999999999999", 0, 100, &v),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(v, 42);
}
END_TEST

static const struct comm_setting test_int = {
    .name = "COMM_TEST_COUNT", .type = COMM_SETTING_INT, .default_value = "4",
    .help = "a count", .min = 1, .max = 10};

START_TEST(a_bad_value_is_named_with_what_is_expected)
{
    char msg[256];

    ck_assert_int_eq(comm_config_check(&test_int, "abc", msg, sizeof(msg)), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(msg, "COMM_TEST_COUNT: invalid value 'abc': expected a whole number from 1 "
                          "to 10");
    ck_assert_int_eq(comm_config_check(&test_int, "7", msg, sizeof(msg)), COMM_OK);
}
END_TEST

START_TEST(typed_read_returns_default_or_environment)
{
    long v = 0;

    unsetenv("COMM_TEST_COUNT");
    ck_assert_int_eq(comm_config_get_int(&test_int, &v), COMM_OK);
    ck_assert_int_eq(v, 4);
    setenv("COMM_TEST_COUNT", "9", 1);
    ck_assert_int_eq(comm_config_get_int(&test_int, &v), COMM_OK);
    ck_assert_int_eq(v, 9);
    setenv("COMM_TEST_COUNT", "0", 1);
    ck_assert_int_eq(comm_config_get_int(&test_int, &v), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(v, 9);
}
END_TEST

/* The tools interface's writes (MPI_T_cvar_write before MPI_Init) win over the environment. */
START_TEST(an_override_takes_the_place_of_the_environment)
{
    long v = 0;

    setenv("COMM_TEST_COUNT", "9", 1);
    ck_assert_int_eq(comm_config_override(&test_int, "3"), COMM_OK);
    ck_assert_str_eq(comm_config_value(&test_int), "3");
    ck_assert_int_eq(comm_config_get_int(&test_int, &v), COMM_OK);
    ck_assert_int_eq(v, 3);
    ck_assert_int_eq(comm_config_override(&test_int, "5"), COMM_OK); /* replaces the first */
    ck_assert_int_eq(comm_config_get_int(&test_int, &v), COMM_OK);
    ck_assert_int_eq(v, 5);
    unsetenv("COMM_TEST_COUNT");
    ck_assert(comm_config_is_set(&test_int));
    ck_assert_str_eq(comm_config_value(&test_int), "5");
}
END_TEST

START_TEST(log_spec_accepts_default_and_overrides)
{
    struct comm_log_spec spec;
    char expected[256];

    ck_assert_int_eq(comm_log_parse_spec("info", &spec, expected, sizeof(expected)), COMM_OK);
    ck_assert_int_eq(spec.level, COMM_LOG_INFO);
    ck_assert_int_eq(spec.noverrides, 0);
    ck_assert_int_eq(comm_log_parse_spec("warn,btl_ofi=debug,coll=trace", &spec, expected,
                                         sizeof(expected)),
                     COMM_OK);
    ck_assert_int_eq(spec.level, COMM_LOG_WARN);
    ck_assert_int_eq(spec.noverrides, 2);
    ck_assert_str_eq(spec.overrides[0].component, "btl_ofi");
    ck_assert_int_eq(spec.overrides[0].level, COMM_LOG_DEBUG);
    ck_assert_int_eq(spec.overrides[1].level, COMM_LOG_TRACE);
    /* Overrides alone keep the default level. */
    ck_assert_int_eq(comm_log_parse_spec("pmix=info", &spec, expected, sizeof(expected)),
                     COMM_OK);
    ck_assert_int_eq(spec.level, COMM_LOG_WARN);
}
END_TEST

START_TEST(log_spec_refuses_malformed_values)
{
    struct comm_log_spec spec;
    char expected[256];

    ck_assert_int_eq(comm_log_parse_spec("loud", &spec, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_ptr_nonnull(strstr(expected, "error, warn, info, debug or trace"));
    ck_assert_int_eq(comm_log_parse_spec("warn,nosuch=debug", &spec, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_ptr_nonnull(strstr(expected, "btl_ofi"));
    ck_assert_int_eq(comm_log_parse_spec("warn,coll=loud", &spec, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_log_parse_spec("warn,info", &spec, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_log_parse_spec("warn,", &spec, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_log_parse_spec("", &spec, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(log_ranks_parse_lists_and_ranges)
{
    struct comm_log_ranks r;
    char expected[256];

    ck_assert_int_eq(comm_log_parse_ranks("all", &r, expected, sizeof(expected)), COMM_OK);
    ck_assert(comm_log_ranks_has(&r, 12345));
    ck_assert_int_eq(comm_log_parse_ranks("0,4-7", &r, expected, sizeof(expected)), COMM_OK);
    ck_assert(comm_log_ranks_has(&r, 0));
    ck_assert(!comm_log_ranks_has(&r, 1));
    ck_assert(comm_log_ranks_has(&r, 4));
    ck_assert(comm_log_ranks_has(&r, 7));
    ck_assert(!comm_log_ranks_has(&r, 8));
    ck_assert_int_eq(comm_log_parse_ranks("7-3", &r, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_log_parse_ranks("1,,2", &r, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_log_parse_ranks("x", &r, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_log_parse_ranks("", &r, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_log_parse_ranks("3,", &r, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(log_file_pattern_expands_rank_host_pid)
{
    char path[256], expected[256];

    ck_assert_int_eq(comm_log_expand_pattern("/tmp/log.%h.%r.%p.%%", "node7", 3, 42, path,
                                             sizeof(path), expected, sizeof(expected)),
                     COMM_OK);
    ck_assert_str_eq(path, "/tmp/log.node7.3.42.%");
    ck_assert_int_eq(comm_log_expand_pattern("/tmp/log.%x", "h", 0, 0, path, sizeof(path),
                                             expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_ptr_nonnull(strstr(expected, "%r, %h, %p"));
    ck_assert_int_eq(comm_log_expand_pattern("abcdefgh", "h", 0, 0, path, 4, expected,
                                             sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
}
END_TEST

static void emit_as_rank(void)
{
    comm_log_set_rank("nodeA", 3);
    comm_log_warn("btl_ofi", "rail %d peer %d is slow", 2, 17);
    comm_log_info("btl_ofi", "hidden at the default level");
}

START_TEST(rank_lines_carry_host_rank_component_level)
{
    unsetenv("COMM_LOG_LEVEL");
    ck_assert_str_eq(capture_stderr(emit_as_rank),
                     "[nodeA:3] btl_ofi warning: rail 2 peer 17 is slow\n");
}
END_TEST

static void emit_with_overrides(void)
{
    comm_log_set_rank("n", 0);
    ck_assert_int_eq(comm_log_configure(), COMM_OK);
    comm_log_info("btl_shm", "shm info");
    comm_log_info("btl_ofi", "ofi info");
    comm_log_info("coll", "coll info");
    comm_log_warn("coll", "coll warn");
}

START_TEST(component_overrides_apply_to_subcomponents)
{
    setenv("COMM_LOG_LEVEL", "error,btl=info,btl_ofi=warn", 1);
    ck_assert_str_eq(capture_stderr(emit_with_overrides), "[n:0] btl_shm info: shm info\n");
}
END_TEST

static void emit_as_rank_two(void)
{
    comm_log_set_rank("n", 2);
    ck_assert_int_eq(comm_log_configure(), COMM_OK);
    comm_log_warn("runtime", "from rank two");
}

START_TEST(log_ranks_silences_other_ranks)
{
    setenv("COMM_LOG_RANKS", "0-1,3", 1);
    ck_assert_str_eq(capture_stderr(emit_as_rank_two), "");
    setenv("COMM_LOG_RANKS", "2", 1);
    ck_assert_str_eq(capture_stderr(emit_as_rank_two), "[n:2] runtime warning: from rank two\n");
}
END_TEST

static void emit_as_tool(void)
{
    comm_log_set_tool("comm-run");
    comm_log_error("launcher", "rank %d failed", 1);
    comm_log_warn("launcher", "careful");
    comm_log_notice("launcher", "as asked");
}

START_TEST(tool_lines_start_with_the_tool_name)
{
    ck_assert_str_eq(capture_stderr(emit_as_tool),
                     "comm-run: rank 1 failed\ncomm-run: warning: careful\ncomm-run: as asked\n");
}
END_TEST

START_TEST(log_file_receives_the_lines)
{
    char pattern[] = "/tmp/comm-log-test.%r.%p";
    char path[256], buf[256], expected[64];
    FILE *f;

    comm_log_set_rank("h", 5);
    setenv("COMM_LOG_FILE", pattern, 1);
    ck_assert_int_eq(comm_log_configure(), COMM_OK);
    comm_log_warn("runtime", "to the file");
    comm_log_finalize();
    ck_assert_int_eq(comm_log_expand_pattern(pattern, "h", 5, (long)getpid(), path, sizeof(path),
                                             expected, sizeof(expected)),
                     COMM_OK);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
    fclose(f);
    unlink(path);
    ck_assert_str_eq(buf, "[h:5] runtime warning: to the file\n");
}
END_TEST

static void configure_bad_level(void)
{
    setenv("COMM_LOG_LEVEL", "loud", 1);
    ck_assert_int_eq(comm_log_configure(), COMM_ERR_BAD_PARAM);
}

START_TEST(bad_log_level_is_an_error_naming_the_variable)
{
    const char *out;

    comm_log_set_tool("t");
    out = capture_stderr(configure_bad_level);
    ck_assert_ptr_nonnull(strstr(out, "t: COMM_LOG_LEVEL: invalid value 'loud': expected"));
}
END_TEST

static const struct comm_setting_table *const env_tables[] = {&comm_log_settings};

static void check_env_unknown(void)
{
    ck_assert_int_eq(comm_config_check_environment(env_tables, 1, true), COMM_OK);
}

START_TEST(unknown_comm_variable_is_warned_with_a_suggestion)
{
    comm_log_set_tool("t");
    setenv("COMM_LOG_LEVL", "info", 1);
    ck_assert_str_eq(capture_stderr(check_env_unknown),
                     "t: warning: COMM_LOG_LEVL is not a comm setting (did you mean "
                     "COMM_LOG_LEVEL?); 'comm-info' lists them all\n");
}
END_TEST

static void check_env_bad(void)
{
    ck_assert_int_eq(comm_config_check_environment(env_tables, 1, false), COMM_ERR_BAD_PARAM);
}

START_TEST(environment_check_reports_every_bad_value)
{
    const char *out;

    comm_log_set_tool("t");
    setenv("COMM_LOG_LEVEL", "loud", 1);
    setenv("COMM_LOG_RANKS", "3-1", 1);
    out = capture_stderr(check_env_bad);
    ck_assert_ptr_nonnull(strstr(out, "COMM_LOG_LEVEL: invalid value 'loud'"));
    ck_assert_ptr_nonnull(strstr(out, "COMM_LOG_RANKS: invalid value '3-1'"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("config");
    TCase *tc = comm_test_case("settings");

    /* The tests set what they need; nothing from the caller's environment may leak in. */
    unsetenv("COMM_LOG_LEVEL");
    unsetenv("COMM_LOG_RANKS");
    unsetenv("COMM_LOG_FILE");
    tcase_add_test(tc, bool_spellings_are_accepted_and_others_refused);
    tcase_add_test(tc, numbers_must_be_whole_and_in_range);
    tcase_add_test(tc, a_bad_value_is_named_with_what_is_expected);
    tcase_add_test(tc, typed_read_returns_default_or_environment);
    tcase_add_test(tc, an_override_takes_the_place_of_the_environment);
    tcase_add_test(tc, log_spec_accepts_default_and_overrides);
    tcase_add_test(tc, log_spec_refuses_malformed_values);
    tcase_add_test(tc, log_ranks_parse_lists_and_ranges);
    tcase_add_test(tc, log_file_pattern_expands_rank_host_pid);
    tcase_add_test(tc, rank_lines_carry_host_rank_component_level);
    tcase_add_test(tc, component_overrides_apply_to_subcomponents);
    tcase_add_test(tc, log_ranks_silences_other_ranks);
    tcase_add_test(tc, tool_lines_start_with_the_tool_name);
    tcase_add_test(tc, log_file_receives_the_lines);
    tcase_add_test(tc, bad_log_level_is_an_error_naming_the_variable);
    tcase_add_test(tc, unknown_comm_variable_is_warned_with_a_suggestion);
    tcase_add_test(tc, environment_check_reports_every_bad_value);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
