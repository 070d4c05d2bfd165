// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metrics contract (docs/METRICS.md): every metric the textfile
 * writer emits, in any probe mode, has a row there with its type; every
 * row names a metric the writer emits; every figure of the table has a
 * metric; counters end in _total and gauges do not. The writer is run on
 * synthetic facts in each mode, with every probe and option on, so that
 * what a kernel or a mode hides is still listed.
 * PCPTOP_METRICS_DUMP=FILE writes what the writer emitted, "name type
 * labels help" a line, to start a row from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "outcheck.h"
#include "prom.h"
#include "synth.h"
#include "unit.h"

#define METRICS_DOC "docs/METRICS.md"
#define METRICS_MAX 512
#define NAME_LEN 128
#define TYPE_LEN 16
#define LABELS_LEN 128
#define HELP_LEN 256
#define DOC_LINE_LEN 1024

struct mrow {
	char name[NAME_LEN];
	char type[TYPE_LEN];
	char labels[LABELS_LEN];
	char help[HELP_LEN];
};

struct mset {
	struct mrow m[METRICS_MAX];
	int n;
};

static struct mrow *set_find(struct mset *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->m[i].name, name))
			return &s->m[i];
	return NULL;
}

/* the label keys of a sample line "name{a="x",b="y"} v": "a,b" */
static void label_keys(const char *line, char *out, size_t len)
{
	const char *p = strchr(line, '{'), *eq;
	size_t used = 0;

	out[0] = '\0';
	if (!p)
		return;
	for (p++; *p && *p != '}'; p = eq) {
		eq = strchr(p, '=');
		if (!eq)
			return;
		used += snprintf(out + used, used < len ? len - used : 0,
				 "%s%.*s", used ? "," : "", (int)(eq - p), p);
		/* past the quoted value, escapes and all */
		for (eq += 2; *eq && *eq != '"'; eq++)
			if (*eq == '\\' && eq[1])
				eq++;
		if (*eq)
			eq++;
		if (*eq == ',')
			eq++;
	}
}

/* the # HELP / # TYPE lines of one exposition text, and a sample's labels */
static void collect(struct mset *s, const char *text)
{
	char line[DOC_LINE_LEN], name[NAME_LEN];
	const char *p = text, *nl;
	struct mrow *cur = NULL;

	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
		if (!strncmp(line, "# HELP ", 7)) {
			sscanf(line + 7, "%127s", name);
			cur = set_find(s, name);
			if (!cur && s->n < METRICS_MAX) {
				cur = &s->m[s->n++];
				snprintf(cur->name, sizeof(cur->name), "%s",
					 name);
				snprintf(cur->help, sizeof(cur->help), "%s",
					 line + 8 + strlen(name));
			}
		} else if (!strncmp(line, "# TYPE ", 7) && cur) {
			sscanf(line + 8 + strlen(cur->name), "%15s", cur->type);
		} else if (cur && line[0] != '#' && !cur->labels[0]) {
			label_keys(line, cur->labels, sizeof(cur->labels));
		}
	}
}

static void render(struct mset *s, enum probe_mode mode)
{
	struct prom_state ps;
	struct facts fa;
	struct figures f;
	struct samples smp;
	struct capture c;

	synth_facts(&fa, mode, true);
	synth_figures(&f, 1);
	REQUIRE(!samples_alloc(&smp));
	synth_samples(&smp, 1);
	prom_init(&ps, NULL, &fa);
	REQUIRE(!prom_add(&ps, &f, &smp, 1.0));
	prom_write(capture_open(&c), &ps, &f, 1.0);
	collect(s, capture_text(&c));
	capture_free(&c);
	prom_free(&ps);
	samples_free(&smp);
	facts_free(&fa);
}

/* the doc's rows: "| `name` | type | ..." */
static int read_doc(struct mset *d)
{
	char line[DOC_LINE_LEN];
	FILE *f = fopen(METRICS_DOC, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && d->n < METRICS_MAX) {
		struct mrow *m = &d->m[d->n];

		if (sscanf(line, "| `%127[^`]` | %15[a-z] |", m->name,
			   m->type) == 2 &&
		    !strncmp(m->name, "pcptop_", 7))
			d->n++;
	}
	fclose(f);
	return 0;
}

static struct mset emitted, doc;

static void dump(const struct mset *s)
{
	const char *path = getenv("PCPTOP_METRICS_DUMP");
	FILE *f;
	int i;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (i = 0; i < s->n; i++)
		fprintf(f, "%s\t%s\t%s\t%s\n", s->m[i].name, s->m[i].type,
			s->m[i].labels, s->m[i].help);
	fclose(f);
}

static void test_metrics_doc_both_ways(void)
{
	static const enum probe_mode modes[] = { MODE_FENTRY, MODE_KPROBE,
						 MODE_TRACEPOINT,
						 MODE_HEURISTIC };
	struct mrow *m;
	size_t k;
	int i;

	memset(&emitted, 0, sizeof(emitted));
	memset(&doc, 0, sizeof(doc));
	for (k = 0; k < sizeof(modes) / sizeof(modes[0]); k++)
		render(&emitted, modes[k]);
	dump(&emitted);
	REQUIRE(!read_doc(&doc));
	CHECK(emitted.n > 100);
	for (i = 0; i < emitted.n; i++) {
		m = set_find(&doc, emitted.m[i].name);
		if (!m)
			unit_fail(__FILE__, __LINE__,
				  "%s (%s) has no row in %s", emitted.m[i].name,
				  emitted.m[i].type, METRICS_DOC);
		else if (strcmp(m->type, emitted.m[i].type))
			unit_fail(__FILE__, __LINE__,
				  "%s: %s says %s, it is %s", m->name,
				  METRICS_DOC, m->type, emitted.m[i].type);
	}
	for (i = 0; i < doc.n; i++)
		if (!set_find(&emitted, doc.m[i].name))
			unit_fail(__FILE__, __LINE__,
				  "%s: %s names it, pcptop never writes it",
				  doc.m[i].name, METRICS_DOC);
}

/* a counter ends in _total, nothing else does (histograms aside) */
static void test_metrics_counters_are_total(void)
{
	int i;

	for (i = 0; i < emitted.n; i++) {
		const char *n = emitted.m[i].name;
		size_t len = strlen(n);
		bool total = len > 6 && !strcmp(n + len - 6, "_total");

		if (!strcmp(emitted.m[i].type, "histogram"))
			continue;
		if (total != !strcmp(emitted.m[i].type, "counter"))
			unit_fail(__FILE__, __LINE__, "%s is a %s", n,
				  emitted.m[i].type);
	}
}

/* every figure of the table reaches the file under a name the doc has */
static void test_metrics_every_figure(void)
{
	char name[NAME_LEN];
	int i, k;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];
		const char *names[] = { d->prom_events, d->prom_pages,
					d->prom_total };
		bool any = false;

		for (k = 0; k < 3; k++) {
			if (!names[k])
				continue;
			any = true;
			if (!set_find(&doc, names[k]))
				unit_fail(__FILE__, __LINE__,
					  "%s: %s not in %s", d->key, names[k],
					  METRICS_DOC);
		}
		if (d->prom_gauge) {
			any = true;
			snprintf(name, sizeof(name), "%s%s", d->prom_gauge,
				 d->type == FIG_SAMPLED ? "" : "_max");
			if (!set_find(&doc, name))
				unit_fail(__FILE__, __LINE__,
					  "%s: %s not in %s", d->key, name,
					  METRICS_DOC);
		}
		if (!any)
			unit_fail(__FILE__, __LINE__, "figure %s has no metric",
				  d->key);
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		if (!hist_table[i].weighted &&
		    !set_find(&doc, hist_table[i].prom))
			unit_fail(__FILE__, __LINE__, "histogram %s not in %s",
				  hist_table[i].prom, METRICS_DOC);
}

/*
 * The gauges that are seconds already: the interval and the write's Unix
 * time went out divided by 1e9 as if ns (caught by tests/fleet/run.sh:
 * the stale alert fired on every file)
 */
static void test_metrics_base_units(void)
{
	char line[OUT_LINE_LEN];
	struct prom_state ps;
	struct facts fa;
	struct figures f;
	struct samples smp;
	struct capture c;
	double v = 0;
	time_t now = time(NULL);

	synth_facts(&fa, MODE_FENTRY, false);
	synth_figures(&f, 1);
	REQUIRE(!samples_alloc(&smp));
	prom_init(&ps, NULL, &fa);
	REQUIRE(!prom_add(&ps, &f, &smp, 2.5));
	prom_write(capture_open(&c), &ps, &f, 2.5);
	CHECK(out_line(capture_text(&c), "pcptop_interval_seconds ", line));
	CHECK(sscanf(line, "pcptop_interval_seconds %lf", &v) == 1 && v == 2.5);
	v = 0;
	CHECK(out_line(capture_text(&c),
		       "pcptop_last_update_timestamp_seconds ", line));
	CHECK(sscanf(line, "pcptop_last_update_timestamp_seconds %lf", &v) ==
		      1 &&
	      v >= (double)now && v <= (double)now + 60);
	CHECK(out_line(capture_text(&c), "pcptop_seconds_total ", line) &&
	      !strcmp(line, "pcptop_seconds_total 2.500"));
	capture_free(&c);
	prom_free(&ps);
	samples_free(&smp);
	facts_free(&fa);
}

const struct unit_test metrics_doc_tests[] = {
	TEST(test_metrics_base_units),
	TEST(test_metrics_doc_both_ways),
	TEST(test_metrics_counters_are_total),
	TEST(test_metrics_every_figure),
	TEST_END,
};
