// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes a synthetic recording with known counts through the real writer
 * (src/rec/), so tests/record/run.sh can check that report and diff
 * give back exactly what went in, without BPF.
 *
 * Usage: mkrec OUT SCALE SOURCE MULT [COMMAND ARGS...]
 *   SCALE   the scale in the header, and the size of the free_high flushes
 *           (63 << SCALE pages)
 *   SOURCE  config | cmdline | kernel-variable
 *   MULT    bulk frees per interval are MULT * (i + 1), 63 pages each
 * Four intervals of one second, 2 CPUs, all counts on CPU 0, zone 1; with
 * a COMMAND an end chunk says it exited 3 after 4.0 s.
 * Totals: bulk_free calls 10 * MULT, pages 630 * MULT; refill calls 20,
 * pages 620; free_high 4 flushes of 63 << SCALE pages; lock hold 10 * MULT
 * samples in the 1024..2047 ns slot; 4 drain chunks proving SCALE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recfile.h"

#define NR_CPUS 2
#define NR_IV 4
#define ZONE 1
#define MT_MOVABLE 1
#define BATCH 63
#define REFILL_PAGES 31
#define SLOT_BULK 5 /* 32..63 pages */
#define SLOT_REFILL 4 /* 16..31 pages */
#define SLOT_LOCK 10 /* 1024..2047 ns */
#define NSEC 1000000000ULL
#define EXIT_STATUS 3

static int slot_of(unsigned long long v)
{
	int s = 0;

	while (v > 1) {
		v >>= 1;
		s++;
	}
	return s;
}

static void bump(struct snapshot *s, int hist, int slot, uint64_t n,
		 uint64_t max)
{
	struct pcptop_hist_val *h = &s->hists[pcptop_hist_key(ZONE, hist)];

	h->slots[slot] += n;
	if (max > h->max)
		h->max = max;
}

int main(int argc, char **argv)
{
	struct rec_header h;
	struct rec_writer w;
	struct rec_interval iv = {};
	struct rec_end e = {};
	struct snapshot s = {};
	struct zone_pcp zones[2] = {};
	struct pcp_cpu cpus[2][NR_CPUS];
	__u64 *c;
	unsigned long long flush;
	int scale, mult, i, z, err;

	if (argc < 5) {
		fprintf(stderr,
			"usage: mkrec OUT SCALE SOURCE MULT [COMMAND...]\n");
		return 2;
	}
	scale = atoi(argv[2]);
	mult = atoi(argv[4]);
	flush = (unsigned long long)BATCH << scale;

	rec_header_init(&h, NR_CPUS);
	snprintf(h.pcptop_version, sizeof(h.pcptop_version), "synthetic");
	h.start_realtime_ns = 1748736000ULL * NSEC;
	h.interval_ns = NSEC;
	snprintf(h.f.release, sizeof(h.f.release), "6.1.0-synthetic-s%d",
		 scale);
	snprintf(h.f.arch, sizeof(h.f.arch), "aarch64");
	snprintf(h.f.hostname, sizeof(h.f.hostname), "board");
	/* every figure measured: a fentry run on a 6.12-like kernel */
	for (i = 0; i < PROBE_IRQ_TIME; i++) {
		struct fact_probe *p = &h.f.probes[h.f.nr_probes++];

		snprintf(p->name, sizeof(p->name), "%s", probe_table[i].name);
		snprintf(p->mode_name, sizeof(p->mode_name), "fentry");
		p->mode = MODE_FENTRY;
	}
	snprintf(h.f.mode_summary, sizeof(h.f.mode_summary), "fentry");
	h.f.scale.value = scale;
	h.f.scale.source = !strcmp(argv[3], "cmdline") ? SCALE_SRC_CMDLINE :
			   !strcmp(argv[3], "kernel-variable") ?
							 SCALE_SRC_KVAR :
							 SCALE_SRC_CONFIG;
	h.f.scale.have[h.f.scale.source] = true;
	h.f.scale.val[h.f.scale.source] = scale;
	if (h.f.scale.source == SCALE_SRC_CONFIG)
		snprintf(h.f.scale.config_path, sizeof(h.f.scale.config_path),
			 "/proc/config.gz");
	for (z = 0; z < 2; z++) {
		zones[z].node = 0;
		snprintf(zones[z].name, ZONE_NAME_LEN, z ? "Normal" : "DMA32");
		zones[z].nr_cpus = NR_CPUS;
		zones[z].cpus = cpus[z];
		for (i = 0; i < NR_CPUS; i++)
			cpus[z][i] = (struct pcp_cpu){ i,
						       0,
						       6 * BATCH,
						       BATCH,
						       PCP_FIELD_ABSENT,
						       PCP_FIELD_ABSENT };
	}
	h.f.zones.nr_zones = 2;
	h.f.zones.zones = zones;
	h.f.pageblock_order = 9;
	h.f.pages_per_block = 512;
	h.f.high_fraction = 0;
	h.argc = argc - 5;
	h.argv = argv + 5;

	if (snapshot_alloc(&s, NR_CPUS))
		return 1;
	err = rec_writer_open(&w, argv[1], &h);
	if (err) {
		fprintf(stderr, "mkrec: %s: error %d\n", argv[1], err);
		return 1;
	}
	for (i = 0; i < NR_IV; i++) {
		uint64_t n = (uint64_t)mult * (i + 1);

		memset(s.hists, 0,
		       (size_t)NR_CPUS * PCPTOP_NR_HIST_KEYS *
			       sizeof(*s.hists));
		memset(s.counters, 0,
		       (size_t)NR_CPUS * PCPTOP_NR_COUNTER_KEYS *
			       sizeof(*s.counters));
		c = s.counters[pcptop_counter_key(ZONE, 0, MT_MOVABLE)].c;
		c[CNT_BULK_FREE_CALLS] = n;
		c[CNT_BULK_FREE_PAGES] = n * BATCH;
		c[CNT_LOCK_HOLD_NS] = n * 1500;
		c[CNT_REFILL_CALLS] = 2 * (i + 1);
		c[CNT_REFILL_PAGES] = 2 * (i + 1) * REFILL_PAGES;
		c[CNT_FREE_HIGH_COUNT] = 1;
		c[CNT_FREE_HIGH_PAGES] = flush;
		bump(&s, HIST_BULK_FREE_PAGES, SLOT_BULK, n, BATCH);
		bump(&s, HIST_LOCK_HOLD_NS, SLOT_LOCK, n, 1500);
		/* a drain chunk cut at batch << SCALE proves the scale */
		bump(&s, HIST_SCALE_EXACT, slot_of(scale), 1, scale);
		bump(&s, HIST_REFILL_PAGES, SLOT_REFILL, 2 * (i + 1),
		     REFILL_PAGES);
		bump(&s, HIST_FREE_HIGH_PAGES, slot_of(flush), 1, flush);
		iv.seq = (uint32_t)i;
		iv.t_start_ns = i * NSEC;
		iv.t_end_ns = (i + 1) * NSEC;
		iv.realtime_ns = h.start_realtime_ns + iv.t_end_ns;
		if (rec_write_interval(&w, &iv, &s))
			return 1;
	}
	snprintf(e.reason, sizeof(e.reason),
		 h.argc ? "command exited" : "signal");
	e.nr_intervals = NR_IV;
	e.recorded_ns = NR_IV * NSEC;
	if (h.argc) {
		e.have_command = true;
		e.exit_code = EXIT_STATUS;
		e.wait_status = EXIT_STATUS << 8;
		e.wall_ns = NR_IV * NSEC;
	}
	if (rec_write_end(&w, &h, &e) || rec_writer_close(&w))
		return 1;
	snapshot_free(&s);
	return 0;
}
