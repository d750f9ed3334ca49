/*
 * run_options_test.c - comm-run's command line: what is accepted, what is refused and how.
 */
#include "config.h"

#include "launcher/comm_run.h"
#include "base/error.h"

#include "test/unit/unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static struct comm_run_options opts;
static char err[256];

/* Parses a NULL-terminated list of words after "comm-run". */
static int parse(const char *first, ...)
{
    static char words[32][128];
    char *argv[32] = {words[0]};
    int argc = 1;
    va_list ap;

    snprintf(words[0], sizeof(words[0]), "comm-run");
    va_start(ap, first);
    for (const char *w = first; w != NULL && argc < 31; w = va_arg(ap, const char *)) {
        snprintf(words[argc], sizeof(words[argc]), "%s", w);
        argv[argc] = words[argc];
        argc++;
    }
    va_end(ap);
    argv[argc] = NULL;
    memset(&opts, 0, sizeof(opts));
    err[0] = '\0';
    return comm_run_options_parse(argc, argv, &opts, err, sizeof(err));
}

START_TEST(np_and_program_with_its_arguments)
{
    ck_assert_int_eq(parse("-np", "4", "./app", "-np", "9", NULL), COMM_OK);
    ck_assert_int_eq(opts.np, 4);
    ck_assert_int_eq(opts.program_index, 3);
    ck_assert_int_eq(opts.action, COMM_RUN_ACTION_RUN);
    ck_assert_int_eq(opts.timeout, -1);
    ck_assert_int_eq(opts.bind, COMM_RUN_BIND_DEFAULT);
    comm_run_options_free(&opts);
}
END_TEST

START_TEST(np_spellings)
{
    ck_assert_int_eq(parse("-n", "2", "a", NULL), COMM_OK);
    ck_assert_int_eq(opts.np, 2);
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("--np=3", "a", NULL), COMM_OK);
    ck_assert_int_eq(opts.np, 3);
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("--np", "5", "a", NULL), COMM_OK);
    ck_assert_int_eq(opts.np, 5);
    comm_run_options_free(&opts);
}
END_TEST

START_TEST(np_zero_and_garbage_are_refused)
{
    ck_assert_int_eq(parse("-np", "0", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "invalid value '0' for -np: expected a whole number from 1 to 1048576");
    ck_assert_int_eq(parse("-np", "abc", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err,
                     "invalid value 'abc' for -np: expected a whole number from 1 to 1048576");
    ck_assert_int_eq(parse("-np", "-3", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(parse("-np", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "option -np needs a value");
}
END_TEST

START_TEST(unknown_option_is_named)
{
    ck_assert_int_eq(parse("--frobnicate", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "unknown option '--frobnicate'");
    ck_assert_int_eq(parse("-np=4", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "unknown option '-np=4'");
}
END_TEST

START_TEST(missing_program_is_refused)
{
    ck_assert_int_eq(parse("-np", "2", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "no program to run");
    ck_assert_int_eq(parse(NULL), COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(bind_to_core_or_none_only)
{
    ck_assert_int_eq(parse("--bind-to", "core", "a", NULL), COMM_OK);
    ck_assert_int_eq(opts.bind, COMM_RUN_BIND_CORE);
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("--bind-to=none", "a", NULL), COMM_OK);
    ck_assert_int_eq(opts.bind, COMM_RUN_BIND_NONE);
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("--bind-to", "socket", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "invalid value 'socket' for --bind-to: expected core or none");
}
END_TEST

START_TEST(flags_and_exports)
{
    ck_assert_int_eq(parse("--tag-output", "--report-bindings", "-x", "FOO", "-x", "BAR=a=b",
                           "a", NULL),
                     COMM_OK);
    ck_assert(opts.tag_output);
    ck_assert(opts.report_bindings);
    ck_assert_int_eq(opts.nexports, 2);
    ck_assert_str_eq(opts.exports[0], "FOO");
    ck_assert_str_eq(opts.exports[1], "BAR=a=b");
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("-x", "1BAD=2", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "invalid value '1BAD=2' for -x: expected VAR or VAR=value with VAR a "
                          "variable name");
    ck_assert_int_eq(parse("-x", "=2", "a", NULL), COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(topo_takes_a_file)
{
    ck_assert_int_eq(parse("--topo", "topo.conf", "a", NULL), COMM_OK);
    ck_assert_str_eq(opts.topo_file, "topo.conf");
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("--topo=t.conf", "a", NULL), COMM_OK);
    ck_assert_str_eq(opts.topo_file, "t.conf");
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("a", NULL), COMM_OK);
    ck_assert_ptr_null(opts.topo_file);
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("--topo", NULL), COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(timeout_option_and_environment)
{
    long t = -5;

    ck_assert_int_eq(parse("--timeout", "0", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(parse("--timeout=x", "a", NULL), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(parse("--timeout", "30", "a", NULL), COMM_OK);
    ck_assert_int_eq(opts.timeout, 30);
    ck_assert_int_eq(comm_run_options_timeout(&opts, "5", &t, err, sizeof(err)), COMM_OK);
    ck_assert_int_eq(t, 30); /* the option wins */
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("a", NULL), COMM_OK);
    ck_assert_int_eq(comm_run_options_timeout(&opts, "5", &t, err, sizeof(err)), COMM_OK);
    ck_assert_int_eq(t, 5);
    ck_assert_int_eq(comm_run_options_timeout(&opts, NULL, &t, err, sizeof(err)), COMM_OK);
    ck_assert_int_eq(t, 0);
    ck_assert_int_eq(comm_run_options_timeout(&opts, "soon", &t, err, sizeof(err)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "invalid value 'soon' for MPIEXEC_TIMEOUT: expected a whole number "
                          "from 0 to 31536000");
    ck_assert_int_eq(t, 0);
    comm_run_options_free(&opts);
}
END_TEST

START_TEST(help_and_version_need_no_program)
{
    ck_assert_int_eq(parse("--help", NULL), COMM_OK);
    ck_assert_int_eq(opts.action, COMM_RUN_ACTION_HELP);
    comm_run_options_free(&opts);
    ck_assert_int_eq(parse("-V", NULL), COMM_OK);
    ck_assert_int_eq(opts.action, COMM_RUN_ACTION_VERSION);
    comm_run_options_free(&opts);
}
END_TEST

START_TEST(double_dash_ends_options)
{
    ck_assert_int_eq(parse("-np", "2", "--", "-weird-name", NULL), COMM_OK);
    ck_assert_int_eq(opts.program_index, 4);
    comm_run_options_free(&opts);
}
END_TEST

START_TEST(rank_lists_are_compressed)
{
    const long ranks[] = {0, 1, 2, 3, 5, 7, 8};
    const long many[] = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20};
    char out[64];

    comm_run_format_ranks(ranks, 7, out, sizeof(out));
    ck_assert_str_eq(out, "0-3,5,7-8");
    comm_run_format_ranks(ranks, 0, out, sizeof(out));
    ck_assert_str_eq(out, "");
    comm_run_format_ranks(many, 11, out, 16);
    ck_assert_str_eq(out, "0,2,4,6,8,...");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run_options");
    TCase *tc = comm_test_case("parse");

    tcase_add_test(tc, np_and_program_with_its_arguments);
    tcase_add_test(tc, np_spellings);
    tcase_add_test(tc, np_zero_and_garbage_are_refused);
    tcase_add_test(tc, unknown_option_is_named);
    tcase_add_test(tc, missing_program_is_refused);
    tcase_add_test(tc, bind_to_core_or_none_only);
    tcase_add_test(tc, flags_and_exports);
    tcase_add_test(tc, timeout_option_and_environment);
    tcase_add_test(tc, topo_takes_a_file);
    tcase_add_test(tc, help_and_version_need_no_program);
    tcase_add_test(tc, double_dash_ends_options);
    tcase_add_test(tc, rank_lists_are_compressed);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
