// SPDX-License-Identifier: GPL-2.0-only
/*
 * How fast the replay model runs: a synthetic stream of about ten
 * million events (tests/unit/pcpmodel_synth.c: allocation and free runs,
 * decay, drains, hotplug, zone flags, snapshots) on 4 CPUs and 3 zones,
 * written once at scale 5 under the 7.x rules, then replayed through a
 * fresh model for every rule set at scales 0 and 5. Prints one Markdown
 * row per replay: events, seconds, events per second. A benchmark: it
 * never fails on a number. Built and run by tests/bench/pcpmodel.sh.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "pcpmodel_synth.h"

#define BENCH_CPUS 4
#define BENCH_ZONES 3
#define BENCH_WORKLOAD 10000000
#define BENCH_SEED 42
#define BENCH_WRITE_SCALE 5
#define BENCH_REPEATS 3

static int model(enum pcpmodel_ruleset rules, int scale, struct pcpmodel **m)
{
	struct pcpmodel_config cfg = { 0 };
	int err = pcpmodel_rules_init(&cfg.rules, rules);

	if (err)
		return err;
	cfg.scale = scale;
	cfg.nr_cpus = BENCH_CPUS;
	cfg.nr_zones = BENCH_ZONES;
	cfg.thp_order = PCPM_THP_ORDER_4K;
	return pcpmodel_new(&cfg, m);
}

/* the best of a few runs: the machine's noise only ever slows one */
static double replay_secs(enum pcpmodel_ruleset rules, int scale,
			  const struct pcpmodel_stream *s, uint64_t *bulk)
{
	double best = 0;
	int i;

	for (i = 0; i < BENCH_REPEATS; i++) {
		struct pcpmodel *m;
		double t0, t;

		if (model(rules, scale, &m))
			return -1;
		t0 = clock_mono_s();
		pcpmodel_replay(m, s);
		t = clock_mono_s() - t0;
		*bulk = pcpmodel_result(m)->bulk_calls;
		pcpmodel_free(m);
		if (!i || t < best)
			best = t;
	}
	return best;
}

int main(void)
{
	struct pcpm_synth_opts o;
	struct pcpmodel *kernel;
	struct pcpm_synth s;
	double t0, secs;
	uint64_t bulk = 0;
	int rules, scale, err;

	pcpm_synth_defaults(&o, BENCH_SEED);
	o.nr_workload = BENCH_WORKLOAD;
	err = model(PCPM_RULES_7_X, BENCH_WRITE_SCALE, &kernel);
	if (err) {
		fprintf(stderr, "pcpmodel_bench: model: %d\n", err);
		return 1;
	}
	t0 = clock_mono_s();
	err = pcpm_synth_make(&o, kernel, &s);
	secs = clock_mono_s() - t0;
	pcpmodel_free(kernel);
	if (err) {
		fprintf(stderr, "pcpmodel_bench: stream: %d\n", err);
		return 1;
	}
	printf("stream: %zu events (%zu pageset states, %zu zone states), "
	       "%zu bytes an event, written and played in %.2f s\n\n",
	       s.nr_events, s.nr_pcp_states, s.nr_zone_states,
	       sizeof(struct pcpmodel_event), secs);
	printf("| rules | scale | events | s (best of %d) | Mevents/s | bulk frees |\n",
	       BENCH_REPEATS);
	printf("|---|---|---|---|---|---|\n");
	for (rules = 0; rules < NR_PCPM_RULES; rules++) {
		for (scale = 0; scale <= BENCH_WRITE_SCALE;
		     scale += BENCH_WRITE_SCALE) {
			secs = replay_secs(rules, scale, &s.stream, &bulk);
			printf("| %s | %d | %zu | %.3f | %.1f | %" PRIu64
			       " |\n",
			       pcpmodel_rules_name(rules), scale, s.nr_events,
			       secs, secs > 0 ? s.nr_events / secs / 1e6 : 0,
			       bulk);
		}
	}
	pcpm_synth_free(&s);
	return 0;
}
