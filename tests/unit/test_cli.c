// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c: every command's options, good and bad. Bad input is -EINVAL
 * (exit status 2) after one line on stderr; --help is a flag, not an
 * error.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "cli.h"
#include "unit.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

/* the parsers say why on stderr: keep the test log readable */
static int quiet_fd = -1;

static void quiet(void)
{
	fflush(stderr);
	quiet_fd = dup(2);
	if (!freopen("/dev/null", "w", stderr))
		return;
}

static void loud(void)
{
	fflush(stderr);
	if (quiet_fd >= 0) {
		dup2(quiet_fd, 2);
		close(quiet_fd);
		quiet_fd = -1;
	}
}

static void test_status_of_errors(void)
{
	CHECK_EQ_INT(cli_status(0), EXIT_OK);
	CHECK_EQ_INT(cli_status(-EINVAL), EXIT_USAGE);
	CHECK_EQ_INT(cli_status(-EPERM), EXIT_USAGE);
	CHECK_EQ_INT(cli_status(-ENOENT), EXIT_USAGE);
	CHECK_EQ_INT(cli_status(-ENOMEM), EXIT_RUNTIME);
	CHECK_EQ_INT(cli_status(-EIO), EXIT_RUNTIME);
}

static void test_numbers(void)
{
	double d;
	long n;

	CHECK_EQ_INT(cli_parse_seconds("0.5", 10, &d), 0);
	CHECK(d == 0.5);
	CHECK_EQ_INT(cli_parse_seconds("2s", 10, &d), 0);
	CHECK(d == 2);
	CHECK(cli_parse_seconds("0", 10, &d) < 0);
	CHECK(cli_parse_seconds("-1", 10, &d) < 0);
	CHECK(cli_parse_seconds("11", 10, &d) < 0);
	CHECK(cli_parse_seconds("1x", 10, &d) < 0);
	CHECK(cli_parse_seconds("", 10, &d) < 0);
	CHECK(cli_parse_seconds("nan", 10, &d) < 0);
	CHECK_EQ_INT(cli_parse_count("3", &n), 0);
	CHECK_EQ_INT(n, 3);
	CHECK(cli_parse_count("0", &n) < 0);
	CHECK(cli_parse_count("-2", &n) < 0);
	CHECK(cli_parse_count("1e3", &n) < 0);
	CHECK(cli_parse_count("99999999999999999999", &n) < 0);
	CHECK_EQ_INT(cli_parse_delay("0.1", &d), 0);
	CHECK(cli_parse_delay("0.05", &d) < 0);
	CHECK(cli_parse_delay("3601", &d) < 0);
}

static void test_stat_options(void)
{
	char *ok[] = { "stat",
		       "-i",
		       "0.5",
		       "-c",
		       "3",
		       "--json",
		       "--mode",
		       "tracepoint",
		       "--cross-check",
		       "--run-gap",
		       "2000",
		       "--prom",
		       "/tmp/x.prom",
		       "--exact-free-high",
		       "--page-orders",
		       NULL };
	char *help[] = { "stat", "--help", NULL };
	char *bad_mode[] = { "stat", "-m", "fast", NULL };
	char *bad_gap[] = { "stat", "--run-gap", "-5", NULL };
	char *extra[] = { "stat", "now", NULL };
	struct stat_opts o;

	CHECK_EQ_INT(cli_parse_stat(ARGC(ok), ok, &o), 0);
	CHECK(o.interval == 0.5 && o.count == 3 && o.json && !o.help);
	CHECK_EQ_INT(o.attach.want, MODE_TRACEPOINT);
	CHECK(o.attach.cross_check);
	CHECK(o.attach.exact_free_high);
	CHECK(o.attach.page_orders && !o.attach.latency);
	CHECK_EQ_U64(o.attach.run_gap_ns, 2000);
	CHECK_EQ_STR(o.prom, "/tmp/x.prom");
	CHECK_EQ_INT(cli_parse_stat(ARGC(help), help, &o), 0);
	CHECK(o.help);
	quiet();
	CHECK_EQ_INT(cli_parse_stat(ARGC(bad_mode), bad_mode, &o), -EINVAL);
	CHECK_EQ_INT(cli_parse_stat(ARGC(bad_gap), bad_gap, &o), -EINVAL);
	CHECK_EQ_INT(cli_parse_stat(ARGC(extra), extra, &o), -EINVAL);
	loud();
}

static void test_stat_defaults(void)
{
	char *none[] = { "stat", NULL };
	struct stat_opts o;

	CHECK_EQ_INT(cli_parse_stat(ARGC(none), none, &o), 0);
	CHECK(o.interval == 1.0 && o.count == 0 && o.hists && !o.json);
	CHECK_EQ_INT(o.attach.want, MODE_AUTO);
	CHECK_EQ_U64(o.attach.run_gap_ns, RUN_GAP_NS_DEFAULT);
	CHECK(o.prom == NULL);
}

static void test_top_options(void)
{
	char *ok[] = { "top", "-d", "2", "-n", "5", "-b", NULL };
	char *no_value[] = { "top", "-d", NULL };
	char *unknown[] = { "top", "-x", NULL };
	char *slow[] = { "top", "-d", "0.01", NULL };
	struct top_opts o;

	CHECK_EQ_INT(cli_parse_top(ARGC(ok), ok, &o), 0);
	CHECK(o.delay == 2 && o.count == 5 && o.batch);
	quiet();
	CHECK_EQ_INT(cli_parse_top(ARGC(no_value), no_value, &o), -EINVAL);
	CHECK_EQ_INT(cli_parse_top(ARGC(unknown), unknown, &o), -EINVAL);
	CHECK_EQ_INT(cli_parse_top(ARGC(slow), slow, &o), -EINVAL);
	loud();
}

/* record's command starts at its first non-option: its options are its own */
static void test_record_options(void)
{
	char *cmd[] = { "record", "-o",	      "x.data", "-i",	"0.5",
			"--",	  "bonnie++", "-d",	"/mnt", NULL };
	char *cmd2[] = { "record", "-q", "sleep", "-i", NULL };
	char *exact[] = { "record", "--exact-free-high",
			  "--mode", "kprobe",
			  "true",   NULL };
	char *bad[] = { "record", "-o", "", NULL };
	char *dur[] = { "record", "-d", "0", NULL };
	struct record_opts o;

	CHECK_EQ_INT(cli_parse_record(ARGC(cmd), cmd, &o), 0);
	CHECK_EQ_STR(o.out, "x.data");
	REQUIRE(o.argc == 3);
	CHECK_EQ_STR(o.argv[0], "bonnie++");
	CHECK_EQ_STR(o.argv[2], "/mnt");
	CHECK_EQ_INT(cli_parse_record(ARGC(cmd2), cmd2, &o), 0);
	CHECK(o.quiet);
	REQUIRE(o.argc == 2);
	CHECK_EQ_STR(o.argv[1], "-i");
	CHECK_EQ_STR(o.out, DEFAULT_RECORDING);
	CHECK_EQ_INT(cli_parse_record(ARGC(exact), exact, &o), 0);
	CHECK(o.attach.exact_free_high && o.attach.want == MODE_KPROBE);
	REQUIRE(o.argc == 1);
	quiet();
	CHECK_EQ_INT(cli_parse_record(ARGC(bad), bad, &o), -EINVAL);
	CHECK_EQ_INT(cli_parse_record(ARGC(dur), dur, &o), -EINVAL);
	loud();
}

static void test_report_and_diff_options(void)
{
	char *def[] = { "report", NULL };
	char *csv[] = { "report", "r.data", "--csv", "-T", NULL };
	char *both[] = { "report", "--json", "--csv", NULL };
	char *two[] = { "report", "a", "b", NULL };
	char *diff_one[] = { "diff", "a", NULL };
	char *diff_ok[] = { "diff", "a", "b", "--html", "-", NULL };
	char *diff_csv[] = { "diff", "a", "b", "--csv", NULL };
	char *html_json[] = { "diff", "a", "b", "--html", "-", "--json", NULL };
	struct report_opts o;

	CHECK_EQ_INT(cli_parse_report(ARGC(def), def, &o, false), 0);
	CHECK_EQ_STR(o.files[0], DEFAULT_RECORDING);
	CHECK_EQ_INT(cli_parse_report(ARGC(csv), csv, &o, false), 0);
	CHECK(o.fmt == FMT_CSV && !o.timeline && o.hists);
	CHECK_EQ_INT(cli_parse_report(ARGC(diff_ok), diff_ok, &o, true), 0);
	CHECK_EQ_INT(o.nr_files, 2);
	CHECK_EQ_STR(o.html, "-");
	quiet();
	CHECK_EQ_INT(cli_parse_report(ARGC(both), both, &o, false), -EINVAL);
	CHECK_EQ_INT(cli_parse_report(ARGC(two), two, &o, false), -EINVAL);
	CHECK_EQ_INT(cli_parse_report(ARGC(diff_one), diff_one, &o, true),
		     -EINVAL);
	CHECK_EQ_INT(cli_parse_report(ARGC(diff_csv), diff_csv, &o, true),
		     -EINVAL);
	CHECK_EQ_INT(cli_parse_report(ARGC(html_json), html_json, &o, true),
		     -EINVAL);
	loud();
}

/* repeats: "--" splits the sides, and options may sit on either side */
static void test_diff_repeats(void)
{
	char *runs[] = { "diff", "a1",	   "a2", "a3", "--",
			 "b1",	 "--json", "b2", NULL };
	char *pair[] = { "diff", "--json", "a", "--", "b", NULL };
	char *no_b[] = { "diff", "a1", "a2", "--", NULL };
	char *no_a[] = { "diff", "--", "b1", NULL };
	char *twice[] = { "diff", "a", "--", "b", "--", "c", NULL };
	char *help_b[] = { "diff", "a", "--", "-h", NULL };
	struct report_opts o;

	CHECK_EQ_INT(cli_parse_report(ARGC(runs), runs, &o, true), 0);
	CHECK_EQ_INT(o.nr_a, 3);
	CHECK_EQ_INT(o.nr_files, 5);
	CHECK_EQ_STR(o.files[2], "a3");
	CHECK_EQ_STR(o.files[3], "b1");
	CHECK_EQ_STR(o.files[4], "b2");
	CHECK(o.fmt == FMT_JSON);
	CHECK_EQ_INT(cli_parse_report(ARGC(pair), pair, &o, true), 0);
	CHECK(o.nr_a == 1 && o.nr_files == 2);
	CHECK_EQ_INT(cli_parse_report(ARGC(help_b), help_b, &o, true), 0);
	CHECK(o.help);
	quiet();
	CHECK_EQ_INT(cli_parse_report(ARGC(no_b), no_b, &o, true), -EINVAL);
	CHECK_EQ_INT(cli_parse_report(ARGC(no_a), no_a, &o, true), -EINVAL);
	CHECK_EQ_INT(cli_parse_report(ARGC(twice), twice, &o, true), -EINVAL);
	loud();
}

static void test_btf_min_options(void)
{
	char *ok[] = { "btf-min", "--object", "o.bpf.o",
		       "in.btf",  "out.btf",  NULL };
	char *one[] = { "btf-min", "in.btf", NULL };
	char *three[] = { "btf-min", "a", "b", "c", NULL };
	char *empty[] = { "btf-min", "--object", "", "a", "b", NULL };
	char *unknown[] = { "btf-min", "--json", "a", "b", NULL };
	struct btf_min_cli o;

	CHECK_EQ_INT(cli_parse_btf_min(ARGC(ok), ok, &o), 0);
	CHECK_EQ_STR(o.object, "o.bpf.o");
	CHECK_EQ_STR(o.src, "in.btf");
	CHECK_EQ_STR(o.out, "out.btf");
	quiet();
	CHECK_EQ_INT(cli_parse_btf_min(ARGC(one), one, &o), -EINVAL);
	CHECK_EQ_INT(cli_parse_btf_min(ARGC(three), three, &o), -EINVAL);
	CHECK_EQ_INT(cli_parse_btf_min(ARGC(empty), empty, &o), -EINVAL);
	CHECK_EQ_INT(cli_parse_btf_min(ARGC(unknown), unknown, &o), -EINVAL);
	loud();
}

static void test_info_options(void)
{
	char *ok[] = { "info", "-j", "-v", "-m", "kprobe", NULL };
	char *bad[] = { "info", "--interval", "1", NULL };
	struct info_opts o;

	CHECK_EQ_INT(cli_parse_info(ARGC(ok), ok, &o), 0);
	CHECK(o.json && o.attach.verbose);
	CHECK_EQ_INT(o.attach.want, MODE_KPROBE);
	quiet();
	CHECK_EQ_INT(cli_parse_info(ARGC(bad), bad, &o), -EINVAL);
	loud();
}

const struct unit_test cli_tests[] = {
	TEST(test_status_of_errors),
	TEST(test_numbers),
	TEST(test_stat_options),
	TEST(test_stat_defaults),
	TEST(test_top_options),
	TEST(test_record_options),
	TEST(test_report_and_diff_options),
	TEST(test_diff_repeats),
	TEST(test_info_options),
	TEST(test_btf_min_options),
	TEST_END,
};
