// SPDX-License-Identifier: GPL-2.0-only
/* figtab: the table every output iterates is whole and consistent */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "figtab.h"
#include "probes.h"
#include "top.h"
#include "unit.h"

static void test_every_counter_and_hist_is_named_once(void)
{
	int i, j;

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++) {
		REQUIRE(counter_table[i].key);
		CHECK_EQ_INT(counter_find(counter_table[i].key), i);
		for (j = 0; j < i; j++)
			CHECK(strcmp(counter_table[i].key,
				     counter_table[j].key));
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		/* a weighted one is recorded, never exported */
		REQUIRE(hist_table[i].key && hist_table[i].title &&
			hist_table[i].unit &&
			!hist_table[i].prom == hist_table[i].weighted);
		CHECK_EQ_INT(hist_find(hist_table[i].key), i);
		CHECK(hist_table[i].probe >= 0 &&
		      hist_table[i].probe < NR_PROBES);
		for (j = 0; j < i; j++) {
			CHECK(strcmp(hist_table[i].key, hist_table[j].key));
			if (hist_table[i].prom && hist_table[j].prom)
				CHECK(strcmp(hist_table[i].prom,
					     hist_table[j].prom));
		}
	}
	CHECK_EQ_INT(counter_find("no_such_counter"), -1);
	CHECK(counter_key(NR_PCPTOP_COUNTERS) == NULL);
}

/*
 * A split's parts are real counters, at a real order slot, with keys of
 * their own that can be Prometheus label values; its own BPF parts unused
 */
static void split_consistent(const struct fig_desc *d)
{
	int k, j, n = fig_nr_parts(d);

	CHECK(n >= 2);
	CHECK(d->unit && d->part_label && d->prom_total);
	CHECK(d->events < 0 && d->pages < 0 && d->hist < 0 && d->total < 0);
	for (k = 0; k < n; k++) {
		const struct fig_part *p = &d->parts[k];

		CHECK(p->counter >= 0 && p->counter < NR_PCPTOP_COUNTERS);
		CHECK(p->order >= 0 && p->order <= PCPTOP_ORDER_SLOTS);
		CHECK(fig_split_slot(d, k) >= 0);
		for (j = 0; j < k; j++)
			CHECK(strcmp(p->key, d->parts[j].key));
	}
}

/* each row refers to counters and histograms that exist, as its type needs */
static void test_figures_refer_to_real_counters(void)
{
	int i, k;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		CHECK(d->key && d->title);
		CHECK(fig_find(d->key) == d);
		if (d->type == FIG_SAMPLED) {
			/* its source is named, and no BPF part is borrowed */
			CHECK(d->sample.field && d->sample.unit);
			CHECK((unsigned int)d->sample.src < NR_SAMPLE_SRCS);
			CHECK(d->probe < 0 && d->events < 0 && d->pages < 0 &&
			      d->hist < 0 && d->total < 0);
			CHECK(!d->extras[0].key && !d->ratios[0].key);
			CHECK(d->sample.kind == SAMPLE_COUNTER ?
				      d->prom_total && !d->prom_gauge :
				      d->prom_gauge && !d->prom_total);
			CHECK(d->sample.scope != SCOPE_ZONE ||
			      d->sample.src == SRC_ZONEINFO);
			CHECK((d->sample.scope == SCOPE_ZONE_ORDER) ==
			      (d->sample.src == SRC_BUDDYINFO));
			CHECK(d->sample.scope != SCOPE_MACHINE ||
			      d->sample.src == SRC_VMSTAT ||
			      d->sample.src == SRC_PROG ||
			      d->sample.src == SRC_PSI ||
			      d->sample.src == SRC_STAT);
			CHECK((d->sample.scope == SCOPE_CPU) ==
			      (d->sample.src == SRC_STAT &&
			       d->sample.kind == SAMPLE_COUNTER));
			CHECK((d->sample.scope == SCOPE_DEV) ==
			      (d->sample.src == SRC_BLOCK));
			CHECK(!(d->flags & ~FIG_TL_VALUE));
			continue;
		}
		/* a BPF figure of the whole machine may have a pane line */
		CHECK(!(d->flags & FIG_TL_VALUE));
		CHECK(d->live == LIVE_NONE ||
		      (d->live == LIVE_PANE &&
		       (d->type == FIG_SPLIT || d->type == FIG_TIME)));
		CHECK(d->probe >= 0 && d->probe < NR_PROBES);
		CHECK(d->events < NR_PCPTOP_COUNTERS);
		CHECK(d->pages < NR_PCPTOP_COUNTERS);
		CHECK(d->hist < NR_PCPTOP_HISTS);
		CHECK(d->total < NR_PCPTOP_COUNTERS);
		switch (d->type) {
		case FIG_BATCH:
			CHECK(d->events >= 0 && d->events_key);
			CHECK(d->pages >= 0 && d->hist >= 0);
			/* a failed CHECK goes on: no hist_table[-1] */
			CHECK(d->hist >= 0 && !strcmp(hist_table[d->hist].unit,
						      fig_batch_unit(d)));
			break;
		case FIG_TIME:
			CHECK(d->total >= 0 && d->hist >= 0);
			CHECK(d->hist >= 0 &&
			      !strcmp(hist_table[d->hist].unit, "nsecs"));
			CHECK(d->prom_total && d->prom_gauge);
			break;
		case FIG_CHECK:
			CHECK(d->pages >= 0 && d->pages_key);
			break;
		case FIG_COUNT:
			CHECK(d->total >= 0);
			break;
		case FIG_SAMPLED:
			break;
		case FIG_SPLIT:
			split_consistent(d);
			break;
		}
		for (k = 0; k < FIG_MAX_EXTRAS && d->extras[k].key; k++)
			CHECK(d->extras[k].counter >= 0 &&
			      d->extras[k].counter < NR_PCPTOP_COUNTERS);
		if (d->flags & (FIG_TL_P99 | FIG_TL_MAX))
			CHECK(d->hist >= 0);
	}
}

/* Prometheus names: [a-zA-Z_:][a-zA-Z0-9_:]*, pcptop_ first, no repeats */
static bool prom_name_ok(const char *s)
{
	if (strncmp(s, "pcptop_", 7))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != ':')
			return false;
	return true;
}

static void test_prom_names_valid_and_unique(void)
{
	const char *seen[128];
	int n = 0, i, j, k;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];
		const char *names[] = { d->prom_events, d->prom_pages,
					d->prom_total, d->prom_gauge };

		for (k = 0; k < 4; k++) {
			if (!names[k])
				continue;
			CHECK(prom_name_ok(names[k]));
			for (j = 0; j < n; j++)
				CHECK(strcmp(seen[j], names[k]));
			if (n < 128)
				seen[n++] = names[k];
		}
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		if (!hist_table[i].weighted)
			CHECK(prom_name_ok(hist_table[i].prom));
}

static void test_estimated_by_mode(void)
{
	const struct fig_desc *bulk = fig_find("bulk_free");
	const struct fig_desc *fh = fig_find("free_high");

	REQUIRE(bulk && fh);
	CHECK(!fig_events_estimated(bulk, MODE_FENTRY));
	CHECK(!fig_events_estimated(bulk, MODE_KPROBE));
	CHECK(fig_events_estimated(bulk, MODE_TRACEPOINT));
	/* pages come one event per page in tracepoint mode: exact */
	CHECK(!fig_pages_estimated(bulk, MODE_TRACEPOINT));
	CHECK(fig_pages_estimated(fh, MODE_HEURISTIC));
	CHECK(!fig_pages_estimated(fh, MODE_FENTRY));
	CHECK(!fig_events_estimated(bulk, (enum probe_mode)99));
}

static void test_top_columns_come_from_the_table(void)
{
	int i, j, n = 0;

	top_cols_init(NULL);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		n += !!d->col_events + !!d->col_pages + !!d->col_avg +
		     !!d->col_max + !!d->col_p50 + !!d->col_p99;
	}
	/* CPU ZONE COUNT HIGH BATCH, then one per figtab column */
	CHECK_EQ_INT(top_nr_cols, 5 + n);
	for (i = 0; i < top_nr_cols; i++) {
		CHECK(top_cols[i].width >= (int)strlen(top_cols[i].label));
		for (j = 0; j < i; j++)
			CHECK(strcmp(top_cols[i].label, top_cols[j].label));
	}
	CHECK(!strcmp(top_cols[COL_CPU].label, "CPU"));
	CHECK(!strcmp(top_cols[COL_COUNT].label, "COUNT"));
}

/* cells: one per machine-wide figure, a sum and each zone per per-zone one */
static void test_sample_layout(void)
{
	static const struct fig_desc two[] = {
		{ .key = "a",
		  .type = FIG_SAMPLED,
		  .probe = -1,
		  .events = -1,
		  .pages = -1,
		  .hist = -1,
		  .total = -1,
		  .sample = { SRC_VMSTAT, "a", SAMPLE_COUNTER, SCOPE_MACHINE,
			      "x" } },
		{ .key = "b",
		  .type = FIG_SAMPLED,
		  .probe = -1,
		  .events = -1,
		  .pages = -1,
		  .hist = -1,
		  .total = -1,
		  .sample = { SRC_ZONEINFO, "b", SAMPLE_GAUGE, SCOPE_ZONE,
			      "x" } },
	};
	static const struct fig_desc bad[] = {
		{ .key = "no_field", .type = FIG_SAMPLED },
	};
	int builtin = nr_figs;

	REQUIRE(figtab_use(two, 2) == 0);
	CHECK_EQ_INT(sample_nr_cells(), 1 + 1 + SAMPLE_ZONES);
	CHECK_EQ_INT(sample_cell_base(&fig_table[1]), 1);
	CHECK_EQ_INT(sample_cells(&fig_table[0]), 1);
	CHECK(figtab_use(bad, 1) == -EINVAL);
	CHECK(figtab_use(two, FIGTAB_MAX + 1) == -E2BIG);
	CHECK(figtab_use(NULL, 0) == 0);
	CHECK_EQ_INT(nr_figs, builtin);
	CHECK(fig_find("pcp_pages") != NULL);
}

static void test_probe_table(void)
{
	enum probe_mode m;
	int id;

	for (id = 0; id < NR_PROBES; id++) {
		const struct probe_desc *d = &probe_table[id];

		CHECK(d->name);
		CHECK_EQ_INT(probe_find(d->name), id);
		/* a heuristic rides on a probe planned before it */
		CHECK(d->heuristic_on < id);
		CHECK(!d->tp || d->tp_cat);
		/* programs: test_progs.c */
		if (d->support) {
			/*
			 * tracepoints only: an entry and an exit, or one
			 * beside the one function probe it needs
			 */
			CHECK(!d->fns[0] && d->what);
			CHECK(d->tp && (d->tp_exit || d->beside));
		} else {
			/*
			 * a function, or tracepoints of its own: a pair, or
			 * one that fires once what it counts is over
			 */
			CHECK(d->fns[0] || (d->tp && d->tp_note));
			CHECK(!d->beside);
		}
		CHECK(d->beside >= 0 && d->beside <= NR_PROBES);
		if (d->beside)
			CHECK(!probe_table[d->beside - 1].support);
	}
	CHECK_EQ_INT(probe_find("nope"), -1);
	CHECK_EQ_INT(probe_mode_parse("kprobe", &m), 0);
	CHECK_EQ_INT(m, MODE_KPROBE);
	CHECK(probe_mode_parse("heuristic", &m) < 0);
	CHECK(probe_mode_parse("", &m) < 0);
	CHECK_EQ_INT(probe_mode_from_name("heuristic"), MODE_HEURISTIC);
	CHECK_EQ_INT(probe_mode_from_name("from-the-future"), MODE_NONE);
	CHECK_EQ_STR(probe_mode_name(MODE_TRACEPOINT), "tracepoint");
	CHECK_EQ_STR(probe_mode_name((enum probe_mode)42), "?");
}

const struct unit_test figtab_tests[] = {
	TEST(test_every_counter_and_hist_is_named_once),
	TEST(test_figures_refer_to_real_counters),
	TEST(test_prom_names_valid_and_unique),
	TEST(test_estimated_by_mode),
	TEST(test_top_columns_come_from_the_table),
	TEST(test_probe_table),
	TEST(test_sample_layout),
	TEST_END,
};
