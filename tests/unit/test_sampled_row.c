// SPDX-License-Identifier: GPL-2.0-only
/*
 * The promise of the figure table: a figure sampled from /proc is one row
 * and nothing else. This test adds one row to the table (pgfault of
 * /proc/vmstat, placed on the live view's header), samples it from two
 * fixture readings (1000, then 1007), and looks for its 7 in every output:
 * stat's text and JSON, the live view, a recording written and read back,
 * report's text, JSON, HTML and CSV, diff's text, JSON and HTML, and
 * --prom, each time in the figure's own row or object (compact_stall
 * also increases by 7 in these fixtures).
 * The same search on the built-in table, without the row, must miss it in
 * every output: the test can fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "outcheck.h"
#include "prom.h"
#include "recfile.h"
#include "recfile_fixture.h"
#include "recsum.h"
#include "report_view.h"
#include "sampler.h"
#include "stat_print.h"
#include "synth.h"
#include "top.h"
#include "unit.h"

#define KEY "pgfault"
#define INCREASE 7
#define NR_OUTPUTS 12
#define ROOT_LEN 256
#define PATH_LEN 512

static const struct fig_desc extra = {
	.key = KEY,
	.title = "page faults",
	.type = FIG_SAMPLED,
	.probe = -1,
	.events = -1,
	.pages = -1,
	.hist = -1,
	.total = -1,
	.sample = { SRC_VMSTAT, "pgfault", SAMPLE_COUNTER, SCOPE_MACHINE,
		    "faults" },
	.live = LIVE_HEADER,
	.prom_total = "pcptop_test_pgfault_total",
	.prom_total_help = "Page faults (a unit test's row).",
};

static int copy_file(const char *from, const char *to)
{
	char buf[4096];
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	size_t n;
	int err = in && out ? 0 : -1;

	while (!err && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			err = -1;
	if (in)
		fclose(in);
	if (out && fclose(out))
		err = -1;
	return err;
}

/* a fake root with proc/vmstat and proc/zoneinfo from the fixtures */
static int make_root(char *root, const char *vmstat)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "%s/proc", root);
	if (mkdir(path, 0755) && access(path, F_OK))
		return -1;
	snprintf(path, sizeof(path), "%s/proc/zoneinfo", root);
	if (copy_file(fixture("zoneinfo-6.18"), path))
		return -1;
	snprintf(path, sizeof(path), "%s/proc/buddyinfo", root);
	if (copy_file(fixture("buddyinfo-6.18"), path))
		return -1;
	snprintf(path, sizeof(path), "%s/proc/vmstat", root);
	return copy_file(fixture(vmstat), path);
}

struct run {
	char root[ROOT_LEN];
	char rec[PATH_LEN];
	struct facts fa;
	struct snapshot snap;
	struct figures f;
	struct rec_summary sum;
};

/* sample two readings, record them, read the recording back */
static int sample_and_record(struct run *r)
{
	struct sampler smp;
	struct rec_header h;
	struct rec_writer w;
	struct rec_interval iv = { .t_end_ns = 1000000000ULL };
	struct rec_end e = { .reason = "duration", .nr_intervals = 1 };
	char msg[REC_ERR_LEN];
	int err;

	snprintf(r->root, sizeof(r->root), "%s", "/tmp/pcptop-unit-XXXXXX");
	if (!mkdtemp(r->root) || make_root(r->root, "vmstat-6.18"))
		return -1;
	synth_facts(&r->fa, MODE_TRACEPOINT, false);
	zoneinfo_free(&r->fa.zones);
	if (zoneinfo_parse(fixture("zoneinfo-6.18"), &r->fa.zones) ||
	    snapshot_alloc(&r->snap, 2) ||
	    sampler_open(&smp, r->root, NULL, NULL, true, &r->fa))
		return -1;
	err = make_root(r->root, "vmstat-6.18-later") ||
	      sampler_read(&smp, &r->snap.smp, &r->snap.zi, &r->snap.zi_err);
	sampler_close(&smp);
	if (err)
		return -1;
	synth_figures(&r->f, 1);
	snprintf(r->rec, sizeof(r->rec), "%s/rec.data", r->root);
	rec_header_init(&h, 2);
	h.f = r->fa;
	e.recorded_ns = iv.t_end_ns;
	if (rec_writer_open(&w, r->rec, &h) ||
	    rec_write_interval(&w, &iv, &r->snap) ||
	    rec_write_end(&w, &h, &e) || rec_writer_close(&w))
		return -1;
	return rec_summary_load(r->rec, &r->sum, msg, sizeof(msg));
}

static void run_free(struct run *r)
{
	char path[PATH_LEN];

	rec_summary_free(&r->sum);
	snapshot_free(&r->snap);
	facts_free(&r->fa);
	unlink(r->rec);
	snprintf(path, sizeof(path), "%s/proc/vmstat", r->root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/zoneinfo", r->root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/buddyinfo", r->root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", r->root);
	rmdir(path);
	rmdir(r->root);
}

struct misses {
	int n;
	const char *what[NR_OUTPUTS];
};

static void miss(struct misses *m, bool found, const char *what)
{
	if (!found && m->n < NR_OUTPUTS)
		m->what[m->n++] = what;
}

static bool row_with(const char *text, const char *prefix, long long v)
{
	char line[OUT_LINE_LEN];

	return out_line(text, prefix, line) && out_has_number(line, v);
}

static void check_live(struct run *r, struct misses *m)
{
	struct top_view v = { .delay = 1, .batch = true, .pane = PANE_BATCH };
	struct top_ctx ctx = { .facts = &r->fa, .nr_cpus = 2 };
	struct prom_state ps;
	struct top_frame fr;
	struct top_data d;
	struct capture c;
	char line[OUT_LINE_LEN];

	stat_print_text(capture_open(&c), &r->fa, &r->f, &r->snap.smp, 1.0,
			false);
	miss(m, row_with(capture_text(&c), "  " KEY " ", INCREASE),
	     "stat text");
	capture_free(&c);
	stat_print_json(capture_open(&c), &r->fa, &r->f, &r->snap.smp, 1.0);
	miss(m, out_obj_key_number(capture_text(&c), KEY, "value", INCREASE),
	     "stat --json");
	capture_free(&c);

	prom_init(&ps, NULL, &r->fa);
	prom_add(&ps, &r->f, &r->snap.smp, 1.0);
	prom_write(capture_open(&c), &ps, &r->f, 1.0);
	miss(m,
	     strstr(capture_text(&c),
		    "\npcptop_test_pgfault_total{estimated=\"false\"} 7\n"),
	     "--prom");
	capture_free(&c);
	prom_free(&ps);

	top_cols_init(&r->fa);
	if (top_data_init(&d, &r->snap, 2) ||
	    top_frame_init(&fr, TOP_LINE_LEN - 1, 0)) {
		miss(m, false, "top");
		return;
	}
	d.secs = 1;
	top_rows_build(&ctx, &v, &d);
	top_draw_main(&fr, &ctx, &v, &d);
	top_frame_print(&fr, capture_open(&c));
	miss(m,
	     out_line(capture_text(&c), "system: ", line) &&
		     strstr(line, KEY " 7"),
	     "top");
	capture_free(&c);
	top_frame_free(&fr);
	top_data_free(&d);
}

/* the HTML table row headed th holds text, before its </tr> */
static bool html_row_has(const char *html, const char *th, const char *text)
{
	const char *row = strstr(html, th),
		   *end = row ? strstr(row, "</tr>") : NULL, *at;

	at = row ? strstr(row, text) : NULL;
	return at && end && at < end;
}

/* field k of a CSV line (empty fields count), copied into buf */
static bool csv_field(const char *line, int k, char *buf, size_t len)
{
	size_t n;

	while (k-- > 0) {
		line = strpbrk(line, ",\n");
		if (!line || *line != ',')
			return false;
		line++;
	}
	n = strcspn(line, ",\n");
	if (n >= len)
		return false;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return true;
}

/* the CSV column named col holds v in the first data line */
static bool csv_has(const char *csv, const char *col, long long v)
{
	const char *data = strchr(csv, '\n');
	char field[64];
	int k;

	for (k = 0; data && csv_field(csv, k, field, sizeof(field)); k++)
		if (!strcmp(field, col))
			return csv_field(data + 1, k, field, sizeof(field)) &&
			       *field && strtoll(field, NULL, 10) == v;
	return false;
}

static void check_recorded(struct run *r, struct misses *m)
{
	const struct fig_desc *d = fig_find(KEY);
	const struct rec_summary *s = &r->sum;
	struct cmp_result *cr;
	struct capture c;

	miss(m,
	     d && facts_fig_shown(&s->h.f, d) &&
		     sample_value(d, samples_cell(&s->total_smp, d, 0)) ==
			     INCREASE,
	     "the recording");
	report_text(capture_open(&c), s, true, false);
	miss(m, row_with(capture_text(&c), "  " KEY " ", INCREASE),
	     "report text");
	capture_free(&c);
	report_json(capture_open(&c), s);
	miss(m, out_has_key_number(capture_text(&c), KEY, INCREASE),
	     "report --json");
	capture_free(&c);
	report_html(capture_open(&c), s);
	miss(m,
	     html_row_has(capture_text(&c),
			  "<th style=\"text-align:left\">" KEY "</th>",
			  "total 7 "),
	     "report --html");
	capture_free(&c);
	report_csv(capture_open(&c), s);
	miss(m, csv_has(capture_text(&c), KEY, INCREASE), "report --csv");
	capture_free(&c);
	cr = synth_compare(s, s);
	if (!cr) {
		miss(m, false, "diff");
		return;
	}
	diff_text(capture_open(&c), cr);
	miss(m, row_with(capture_text(&c), "  " KEY ".total ", INCREASE),
	     "diff text");
	capture_free(&c);
	diff_json(capture_open(&c), cr);
	miss(m, strstr(capture_text(&c), "\"" KEY ".total\":{\"a\":7,"),
	     "diff --json");
	capture_free(&c);
	diff_html(capture_open(&c), cr);
	/* A's and B's cells of the row, not its heading alone */
	miss(m,
	     html_row_has(capture_text(&c), "<th>" KEY ".total</th>",
			  "<td>7</td><td>7</td>"),
	     "diff --html");
	capture_free(&c);
	free(cr);
}

/* how many outputs lack the row's 7 with the table in use */
static int outputs_missing(struct misses *m)
{
	struct run r;

	memset(&r, 0, sizeof(r));
	memset(m, 0, sizeof(*m));
	if (sample_and_record(&r)) {
		unit_fail(__FILE__, __LINE__, "sampling and recording failed");
		run_free(&r);
		return -1;
	}
	check_live(&r, m);
	check_recorded(&r, m);
	run_free(&r);
	return m->n;
}

static void test_one_sampled_row_reaches_every_output(void)
{
	struct fig_desc *table;
	struct misses m;
	int n = nr_figs, i;

	table = calloc(n + 1, sizeof(*table));
	REQUIRE(table);
	memcpy(table, fig_table, n * sizeof(*table));
	table[n] = extra;
	REQUIRE(figtab_use(table, n + 1) == 0);
	if (outputs_missing(&m))
		for (i = 0; i < m.n; i++)
			unit_fail(__FILE__, __LINE__,
				  "the added row is missing from %s",
				  m.what[i]);
	figtab_use(NULL, 0);
	free(table);
	/* without the row, every one of them must miss it */
	CHECK_EQ_INT(outputs_missing(&m), NR_OUTPUTS);
}

/*
 * The built-in rows through the same path: a per-order figure's cells
 * (buddyinfo), a prefix sum of vmstat fields (allocstall_*), a counter's
 * increase (compact_stall 10 -> 17) and zoneinfo's zone lines come back
 * from the recording as they were sampled.
 */
static void test_builtin_rows_round_trip(void)
{
	const struct fig_desc *b = fig_find("buddy_free");
	const struct fig_desc *cs = fig_find("compact_stall");
	const struct fig_desc *st = fig_find("allocstall");
	const struct fig_desc *zmin = fig_find("zone_min");
	const struct samples *t;
	struct run r;

	REQUIRE(b && cs && st && zmin);
	memset(&r, 0, sizeof(r));
	if (sample_and_record(&r)) {
		unit_fail(__FILE__, __LINE__, "sampling and recording failed");
		run_free(&r);
		return;
	}
	t = &r.sum.total_smp;
	/* Normal is node 0's zone 2; buddyinfo-6.18's order 0 and 10 */
	CHECK_EQ_INT(sample_value(b,
				  samples_cell(t, b, sample_order_cell(2, 0))),
		     6106);
	CHECK_EQ_INT(sample_value(b,
				  samples_cell(t, b, sample_order_cell(2, 10))),
		     800);
	CHECK_EQ_INT(sample_value(b, samples_cell(t, b, sample_zone_cell(0))),
		     5);
	CHECK_EQ_INT(sample_value(cs, samples_cell(t, cs, 0)), 7);
	CHECK(sample_present(samples_cell(t, st, 0)));
	CHECK_EQ_INT(sample_value(zmin,
				  samples_cell(t, zmin, sample_zone_cell(2))),
		     7732);
	run_free(&r);
}

const struct unit_test sampled_row_tests[] = {
	TEST(test_one_sampled_row_reaches_every_output),
	TEST(test_builtin_rows_round_trip),
	TEST_END,
};
