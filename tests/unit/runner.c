// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs every table of unit.h and ends with "N passed, N failed", counting
 * test functions. Exit status 1 when any failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define FIXTURE_PATH_LEN 4096
/* fixture() results stay valid while a few are in use in one call */
#define FIXTURE_BUFS 4

static int cur_failures;

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	cur_failures++;
	/* stdout, so failures sit above their test's line in a log */
	printf("  %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

const char *fixture(const char *rel)
{
	static char bufs[FIXTURE_BUFS][FIXTURE_PATH_LEN];
	static int next;
	const char *dir = getenv("PCPTOP_FIXTURES");
	char *buf = bufs[next++ % FIXTURE_BUFS];

	if (!dir || !*dir)
		dir = "tests/fixtures";
	snprintf(buf, FIXTURE_PATH_LEN, "%s/%s", dir, rel);
	return buf;
}

extern const struct unit_test recfile_tests[];
extern const struct unit_test recfile_bad_tests[];
extern const struct unit_test scale_disagree_tests[];
extern const struct unit_test figtab_tests[];
extern const struct unit_test output_tests[];
extern const struct unit_test rec_output_tests[];
extern const struct unit_test cli_tests[];
extern const struct unit_test plan_tests[];
extern const struct unit_test facts_tests[];
extern const struct unit_test fixture_rec_tests[];
extern const struct unit_test sampler_tests[];
extern const struct unit_test sampled_row_tests[];
extern const struct unit_test progs_tests[];
extern const struct unit_test compare_tests[];
extern const struct unit_test btf_cache_tests[];
extern const struct unit_test pcpmodel_tests[];
extern const struct unit_test kshape_tests[];
extern const struct unit_test whatif_tests[];
extern const struct unit_test rectrace_tests[];
extern const struct unit_test rectrace_runs_tests[];
extern const struct unit_test kallsyms_boot_tests[];
extern const struct unit_test procstat_tests[];
extern const struct unit_test budget_tests[];
extern const struct unit_test metrics_doc_tests[];
extern const struct unit_test chart_text_tests[];

static const struct unit_test *const suites[] = {
	procfs_tests,	   scale_tests,		hist_tests,
	recfile_tests,	   recfile_bad_tests,	scale_disagree_tests,
	figtab_tests,	   output_tests,	rec_output_tests,
	cli_tests,	   plan_tests,		facts_tests,
	fixture_rec_tests, sampler_tests,	sampled_row_tests,
	progs_tests,	   btf_cache_tests,	compare_tests,
	pcpmodel_tests,	   kshape_tests,	whatif_tests,
	rectrace_tests,	   rectrace_runs_tests, kallsyms_boot_tests,
	procstat_tests,	   budget_tests,	metrics_doc_tests,
	chart_text_tests,
};

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int passed = 0, failed = 0;
	size_t s;

	for (s = 0; s < sizeof(suites) / sizeof(suites[0]); s++) {
		const struct unit_test *t;

		for (t = suites[s]; t->name; t++) {
			/* an argument picks the tests whose name has it */
			if (only && !strstr(t->name, only))
				continue;
			cur_failures = 0;
			t->fn();
			printf("%s %s\n", cur_failures ? "FAIL" : "ok  ",
			       t->name);
			if (cur_failures)
				failed++;
			else
				passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
