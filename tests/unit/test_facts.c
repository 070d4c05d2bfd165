// SPDX-License-Identifier: GPL-2.0-only
/* facts.c: what every view derives from the facts of a run */
#include <string.h>
#include "facts.h"
#include "synth.h"
#include "unit.h"

static void test_zone_names_and_batch(void)
{
	struct facts f;

	synth_facts(&f, MODE_FENTRY, false);
	CHECK_EQ_STR(facts_zone_name(&f, 0), "DMA32");
	CHECK_EQ_STR(facts_zone_name(&f, 1), "Normal");
	CHECK_EQ_STR(facts_zone_name(&f, 5), "?");
	CHECK_EQ_INT(facts_max_batch(&f), 63);
	CHECK_EQ_U64(facts_chunk_bound(&f), 63ULL << 5);
	facts_free(&f);
}

/* an inferred scale is a lower bound: it bounds no chunk */
static void test_no_bound_from_inference(void)
{
	struct facts f;

	synth_facts(&f, MODE_FENTRY, false);
	f.scale.source = SCALE_SRC_INFERRED;
	CHECK_EQ_U64(facts_chunk_bound(&f), 0);
	f.scale.source = SCALE_SRC_CONFIG;
	f.scale.value = -1;
	CHECK_EQ_U64(facts_chunk_bound(&f), 0);
	facts_free(&f);
}

static void test_modes(void)
{
	struct facts f;

	synth_facts(&f, MODE_TRACEPOINT, false);
	CHECK_EQ_INT(facts_mode(&f, PROBE_BULK_FREE), MODE_TRACEPOINT);
	CHECK_EQ_INT(facts_mode(&f, PROBE_FREE_HIGH), MODE_NONE);
	CHECK_EQ_INT(facts_mode(&f, PROBE_DECAY), MODE_NONE);
	CHECK(facts_estimated(&f, PROBE_REFILL));
	CHECK_EQ_STR(facts_summary_mode(&f), "tracepoint");
	f.probes[PROBE_DECAY].mode = MODE_FENTRY;
	CHECK_EQ_STR(facts_summary_mode(&f), "mixed");
	CHECK(facts_probe(&f, "nope") == NULL);
	CHECK_EQ_INT(facts_mode(&f, -1), MODE_NONE);
	facts_free(&f);
}

/* the one-line probe lists leave out support and opt-in probes not attached */
static void test_probe_listed(void)
{
	struct facts fa;
	int i, listed;

	synth_facts(&fa, MODE_TRACEPOINT, false);
	for (i = 0, listed = 0; i < fa.nr_probes; i++) {
		int id = probe_find(fa.probes[i].name);

		listed += facts_probe_listed(&fa, i);
		if (id >= 0 &&
		    (probe_table[id].support || probe_table[id].opt_in))
			CHECK(!facts_probe_listed(&fa, i));
		else
			CHECK(facts_probe_listed(&fa, i));
	}
	CHECK(listed > 0 && listed < fa.nr_probes);
	facts_free(&fa);
	synth_facts(&fa, MODE_FENTRY, false);
	for (i = 0; i < fa.nr_probes; i++)
		CHECK(facts_probe_listed(&fa, i));
	facts_free(&fa);
}

static void test_scale_line(void)
{
	char line[256];
	struct facts f;

	synth_facts(&f, MODE_FENTRY, false);
	strcpy(f.scale.config_path, "/proc/config.gz");
	facts_scale_line(&f, line, sizeof(line));
	CHECK_EQ_STR(line, "scale 5 (config, /proc/config.gz)");
	f.scale.value = -1;
	facts_scale_line(&f, line, sizeof(line));
	CHECK(strstr(line, "scale unknown") == line);
	facts_free(&f);
}

/*
 * Pages by order come from the bulk free's own tracepoint, or beside its
 * function probe from bulk_order, which only --page-orders attaches
 */
static void test_by_order_needs_its_probe(void)
{
	const struct fig_desc *d = fig_find("bulk_free_by_order");
	struct fact_probe *bo;
	struct facts fa;

	REQUIRE(d);
	synth_facts(&fa, MODE_FENTRY, false);
	CHECK(facts_fig_shown(&fa, d));
	bo = (struct fact_probe *)facts_probe(&fa, "bulk_order");
	REQUIRE(bo);
	bo->mode = MODE_NONE;
	CHECK(!facts_fig_shown(&fa, d));
	CHECK(facts_fig_shown(&fa, fig_find("refill_by_order")));
	facts_free(&fa);
	synth_facts(&fa, MODE_TRACEPOINT, false);
	CHECK_EQ_INT(facts_mode(&fa, PROBE_BULK_ORDER), MODE_NONE);
	CHECK(facts_fig_shown(&fa, d));
	facts_free(&fa);
}

const struct unit_test facts_tests[] = {
	TEST(test_by_order_needs_its_probe),
	TEST(test_zone_names_and_batch),
	TEST(test_no_bound_from_inference),
	TEST(test_modes),
	TEST(test_probe_listed),
	TEST(test_scale_line),
	TEST_END,
};
