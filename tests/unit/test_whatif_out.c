// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop whatif's outputs and its place beside diff: the table's columns
 * and marks, the JSON's keys (tests/schema/run.sh validates the document
 * this test writes to $PCPTOP_WHATIF_JSON), the HTML's charts, a saved
 * prediction read back as a recording and compared by diff's own model,
 * and the options' refusals.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "synth.h"
#include "test_whatif.h"
#include "unit.h"
#include "whatif_save.h"
#include "whatif_view.h"

static const char *out(void (*fn)(FILE *, const struct whatif *),
		       const struct whatif *w, struct capture *c)
{
	FILE *f = capture_open(c);

	if (!f)
		return "";
	fn(f, w);
	return capture_text(c);
}

/* whether the table's row that starts with label has a '~' in it */
static bool row_marked(const char *s, const char *label)
{
	const char *r = strstr(s, label), *nl;

	if (!r)
		return false;
	nl = strchr(r, '\n');
	return memchr(r, '~', nl ? (size_t)(nl - r) : strlen(r)) != NULL;
}

void test_whatif_outputs(void)
{
	struct capture c;
	const char *s, *path = getenv("PCPTOP_WHATIF_JSON");
	struct tw x;
	FILE *f;

	REQUIRE(tw_written(&x, PCPM_RULES_6_12, 5, 31) == 0);
	/* the recording timed its calls */
	tw_timed(&x, 300, 25, false);
	REQUIRE(tw_run(&x, "0-6") == 0);
	s = out(whatif_text, &x.w, &c);
	CHECK(strstr(
		s, "rules 6.12 (the recorded kernel's), recorded at scale 5"));
	CHECK(strstr(s, "recorded"));
	CHECK(strstr(s, "scale 5*"));
	CHECK(strstr(s, "scale 0 "));
	CHECK(strstr(s, "scale 6"));
	CHECK(strstr(s, "bulk frees (free_pcppages_bulk calls)"));
	CHECK(strstr(s, "no events lost"));
	CHECK(strstr(s, "below high:"));
	CHECK(strstr(s, "lock hold priced: by each call's pages"));
	/* exact in fentry mode; the recording's estimate where its tracepoint stood in */
	CHECK(!row_marked(s, "refills (rmqueue_bulk calls)"));
	capture_free(&c);
	((struct fact_probe *)facts_probe(&x.s.h.f, "refill"))->mode =
		MODE_TRACEPOINT;
	REQUIRE(tw_run(&x, "0-6") == 0);
	s = out(whatif_text, &x.w, &c);
	CHECK(row_marked(s, "refills (rmqueue_bulk calls)"));
	CHECK(row_marked(s, "largest refill (pages)"));
	CHECK(!row_marked(s, "pages refilled (pages)"));
	CHECK(strstr(s, "'~' the recording's estimate"));
	/* which scale: the last lines, one per cost */
	CHECK(strstr(s, "\nwhich scale (the replays against"));
	CHECK(strstr(s, "\n  zone->lock time: least at "));
	CHECK(strstr(s, "\n  zone->lock acquisitions: least at "));
	CHECK(strstr(s, "\n  interrupts-off max: least at "));
	CHECK(strstr(s, "\n  pages parked: least at "));
	capture_free(&c);
	((struct fact_probe *)facts_probe(&x.s.h.f, "refill"))->mode =
		MODE_FENTRY;
	REQUIRE(tw_run(&x, "0-6") == 0);
	s = out(whatif_json, &x.w, &c);
	CHECK(!strncmp(s, "{\"schema\":3,", 12));
	CHECK(strstr(s, "\"rules\":\"6.12\""));
	CHECK(strstr(s, "\"recorded_scale\":5"));
	CHECK(strstr(s, "\"bulk_free.calls\":"));
	CHECK(strstr(s, "\"irqs_off_ns.p99\":"));
	/* a replay's own: the recording did not count it */
	CHECK(strstr(s, "\"bulk_free.asked_max\":null"));
	CHECK(strstr(s, "\"parked\":["));
	CHECK(strstr(s, "\"measured\":{"));
	CHECK(strstr(
		s,
		"\"which_scale\":[{\"figure\":\"irqs_off_ns.max\",\"ok\":true"));
	if (path && *path) {
		f = fopen(path, "w");
		CHECK(f && fputs(s, f) >= 0 && !fclose(f));
	}
	capture_free(&c);
	s = out(whatif_html, &x.w, &c);
	CHECK(strstr(
		s,
		"aria-label=\"interrupts off for zone-&gt;lock against the scale\""));
	CHECK(strstr(
		s,
		"aria-label=\"zone-&gt;lock acquisitions against the scale\""));
	CHECK(strstr(s, "aria-label=\"pages parked in the pcp lists\""));
	CHECK(strstr(s, "pcp batch scale"));
	CHECK(strstr(s, "<h3>Which scale</h3>"));
	CHECK(strstr(s, "<li>zone-&gt;lock time: least at "));
	CHECK(strstr(s, "</html>"));
	capture_free(&c);
	tw_free(&x);
}

/*
 * --save: the prediction at scale 0 is a recording; read back, its
 * figures are the prediction's and the figures it did not predict are
 * absent, not 0; diff's model compares it with the traced recording
 * metric by metric.
 */
void test_whatif_save_diff(void)
{
	char path[] = "/tmp/pcptop-whatif-XXXXXX";
	const struct fig_desc *bf = fig_find("bulk_free");
	const struct whatif_col *p;
	struct rec_summary back;
	struct cmp_result *r;
	char msg[512];
	struct tw x;
	int fd, k;

	REQUIRE(tw_written(&x, PCPM_RULES_6_12, 5, 41) == 0);
	REQUIRE(tw_run(&x, "0") == 0);
	p = &x.w.cols[0];
	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	close(fd);
	unlink(path);
	CHECK_EQ_INT(whatif_save(path, &x.w, p, &x.s, msg, sizeof(msg)), 0);
	REQUIRE(rec_summary_load(path, &back, msg, sizeof(msg)) == 0);
	CHECK_EQ_INT(back.nr_points, 1);
	CHECK_EQ_INT(back.h.f.scale.value, 0);
	CHECK(strstr(back.h.f.scale.note, "predicted by pcptop whatif"));
	CHECK_EQ_U64(fig_events(bf, &back.total), fig_events(bf, &p->fig));
	CHECK_EQ_U64(fig_pages(bf, &back.total), fig_pages(bf, &p->fig));
	CHECK_EQ_U64(fig_max(bf, &back.total), fig_max(bf, &p->fig));
	CHECK(facts_fig_shown(&back.h.f, bf));
	CHECK(facts_fig_shown(&back.h.f, fig_find("refill_by_order")));
	CHECK_EQ_U64(fig_part(fig_find("refill_by_order"), 0, &back.total),
		     p->fig.ord_cnt[0][CNT_REFILL_PAGES]);
	CHECK(!facts_fig_shown(&back.h.f, fig_find("bulk_free_by_order")));
	CHECK(!facts_fig_shown(&back.h.f, fig_find("compact_stall_ns")));
	r = calloc(1, sizeof(*r));
	REQUIRE(r);
	r->a.n = r->b.n = 1;
	r->a.run[0] = &back;
	r->b.run[0] = &x.s;
	CHECK_EQ_INT(cmp_build(r), 0);
	k = cmp_find(r, "bulk_free.calls");
	REQUIRE(k >= 0);
	CHECK(r->m[k].a == (double)fig_events(bf, &p->fig));
	CHECK(r->m[k].b == (double)fig_events(bf, &x.s.total));
	k = cmp_find(r, "compact_stall_ns.total");
	CHECK(k < 0 || isnan(r->m[k].a));
	free(r);
	rec_summary_free(&back);
	unlink(path);
	tw_free(&x);
}

static int parse(const char *line, struct whatif_cli *o)
{
	char buf[256], *argv[16];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 15; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return cli_parse_whatif(argc, argv, o);
}

void test_whatif_cli(void)
{
	static const char *const bad[] = {
		"whatif a b",
		"whatif --check --scale 3",
		"whatif --check --json",
		"whatif --json --html -",
		"whatif --save -",
		"whatif --bogus",
		"whatif --scale",
	};
	struct whatif_cli o;
	size_t i;

	CHECK_EQ_INT(parse("whatif", &o), 0);
	CHECK_EQ_STR(o.file, DEFAULT_RECORDING);
	CHECK_EQ_INT(parse("whatif r.data -s 0,5 --rules 6.16 -j --html k.html",
			   &o),
		     0);
	CHECK_EQ_STR(o.file, "r.data");
	CHECK_EQ_STR(o.scales, "0,5");
	CHECK_EQ_STR(o.rules, "6.16");
	CHECK(o.json);
	CHECK_EQ_STR(o.html, "k.html");
	CHECK_EQ_INT(parse("whatif r.data --check", &o), 0);
	CHECK(o.check);
	CHECK_EQ_INT(parse("whatif --save p.data --scale 0 r.data", &o), 0);
	CHECK_EQ_STR(o.save, "p.data");
	CHECK_EQ_INT(parse("whatif -h", &o), 0);
	CHECK(o.help);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(parse(bad[i], &o), -EINVAL);
}
