// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop info: what is attached and why, the scale in force with every
 * source found, and the pagesets as /proc/zoneinfo shows them.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "pcptrace.h"
#include "json.h"
#include "json_facts.h"
#include "kshape.h"
#include "system.h"

void info_usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop info [--json] [--mode MODE] [-v]\n"
		"\n"
		"Attaches the probes as 'stat' would, reports, and detaches:\n"
		"  - kernel release and arch, where BTF came from;\n"
		"  - per probe the mode chosen (fentry, kprobe, tracepoint, heuristic,\n"
		"    none) and why;\n"
		"  - the PCP batch scale in force and its source: the kernel variable\n"
		"    pcp_batch_scale_max (CIP patch, read live through BPF), the\n"
		"    pcp_batch_scale_max= boot parameter, CONFIG_PCP_BATCH_SCALE_MAX from\n"
		"    /proc/config.gz or /boot/config-$(uname -r); every source found;\n"
		"  - per zone and CPU the pcp count, high, batch (high_min, high_max\n"
		"    where the kernel prints them), percpu_pagelist_high_fraction and\n"
		"    the pageblock order.\n"
		"\n"
		"  -j, --json       one JSON document\n"
		"  -m, --mode MODE  auto (default), fentry, kprobe or tracepoint\n"
		"      --exact-free-high  probe every free for an exact free_high\n"
		"      --latency        probe every allocation and free for their latency\n"
		"      --page-orders    hook every bulk-freed page for its order\n"
		"      --btf FILE       this kernel's BTF, where /sys/kernel/btf is missing\n"
		"  -v, --verbose    libbpf's log and the verifier's cost on stderr\n"
		"  -h, --help       this text\n");
}

static const char *err_text(int err)
{
	return err ? strerror(-err) : "";
}

/*
 * record --trace: what it would attach besides, never loaded here. Its
 * function probes go where pcptop's own drain probe went (fentry, else
 * kprobe), so that probe's mode says whether they would attach.
 */
static void print_trace_cost(const struct facts *fa)
{
	const struct fact_probe *drain = facts_probe(fa, "drain");
	bool fn = drain &&
		  (drain->mode == MODE_FENTRY || drain->mode == MODE_KPROBE);

	printf("--trace    would add kmem:mm_page_alloc and kmem:mm_page_free: a program\n"
	       "           on every allocation and free, a 24-byte record for each run of\n"
	       "           them alike (one CPU's, one zone, order and migratetype, at most\n"
	       "           %llu us long) in a %u KiB ring buffer polled every 10 ms;\n"
	       "           measured on the rehearsal's bonnie++ (6.12, fentry): about 340\n"
	       "           guest instructions an event, +2.7 to +4.0 %% of its CPU work, most\n"
	       "           of it the hooks' dispatch (docs/PERFORMANCE.md)\n",
	       (unsigned long long)(PCPTRACE_RUN_MAX_NS / 1000),
	       PCPTRACE_RINGBUF_DEFAULT / 1024);
	printf("           %s\n",
	       fn ? "and drain_pages_zone, decay_pcp_high and CPU hotplug as function\n"
		    "           probes; the commit function too (free_unref_page_commit,\n"
		    "           free_frozen_page_commit after 6.12) and free_one_page where the\n"
		    "           kernel has it (6.12 on): the frees by path in place of\n"
		    "           mm_page_free (the pcp ones with their list, each pageset's lists\n"
		    "           walked at its first)" :
		    "no drain, decay or hotplug events: their function probes do not attach\n"
		    "           here; pagesets from /proc/zoneinfo each interval instead");
	if (drain && drain->mode == MODE_KPROBE)
		printf("           as kprobes they cost more: about 2 800 guest instructions an\n"
		       "           event on a short churn (arm64 6.1), 720 with --mode tracepoint,\n"
		       "           whose replay misses by 8-10 %% (docs/PERFORMANCE.md)\n");
}

/* what watching costs: the hooks that run per page, the memory locked */
static void print_cost(const struct facts *fa)
{
	int i, n = 0;

	printf("cost       maps lock %llu KiB;",
	       (unsigned long long)(fa->self.map_bytes / 1024));
	for (i = 0; i < fa->nr_probes; i++) {
		const struct fact_probe *p = &fa->probes[i];

		if (probe_per_page(probe_find(p->name), p->mode))
			printf("%s %s (%s)", n++ ? "," : " per page:", p->name,
			       p->target);
	}
	printf("%s\n", n ? "" : " nothing runs per page, only per batch");
	printf("           ns per event and CPU share: pcptop top's header; docs/PERFORMANCE.md\n");
	print_trace_cost(fa);
}

/* what the figures' meaning depends on, and the evidence for it */
static void print_shape(const struct kshape *k)
{
	if (!k->known)
		return;
	printf("flush      %s\n",
	       k->flush_chunked ?
		       "chunked: the commit function frees a flush in bulk calls of at most pcp->batch (BTF: it returns bool); a flush is several bulk calls" :
		       "one bulk call per commit flush (BTF: the commit function returns void); decay and drain calls may chunk theirs");
	printf("free_high  %s: %s\n", kshape_rule_name(k->free_high_rule),
	       k->free_high_why);
	printf("zone lock  %s; zone-lock tracepoints: %s\n",
	       k->zone_lock_renamed ? "zone->_lock (BTF)" : "zone->lock (BTF)",
	       k->zone_lock_tps ?
		       "present, not used: pcptop times zone->lock inside the bulk calls" :
		       "none (pcptop times zone->lock inside the bulk calls)");
}

/*
 * Zones whose every pageset stays below the 6.16+ free_high threshold:
 * free_high.count 0 there is the kernel's doing, not a miss.
 */
static void print_free_high_reach(const struct facts *fa)
{
	int z, c, r, out;

	if (!fa->shape.known || fa->zones_err)
		return;
	for (z = 0; z < fa->zones.nr_zones; z++) {
		const struct zone_pcp *zp = &fa->zones.zones[z];
		const struct pcp_cpu *p = NULL;

		for (c = 0, out = 0; c < zp->nr_cpus; c++) {
			p = &zp->cpus[c];
			r = kshape_free_high_reachable(fa->shape.free_high_rule,
						       p->batch, p->high_min,
						       fa->scale.value);
			if (r != 0)
				break;
			out++;
		}
		if (!out || out != zp->nr_cpus)
			continue;
		printf("           unreachable in node %d %s: batch %d + high_min %d / 2 > batch << scale %d, where free_count stops\n",
		       zp->node, zp->name, p->batch, p->high_min,
		       fa->scale.value);
	}
}

/* where the wall-time budget's figures come from, and what is missing */
static void print_wall_sources(const struct facts *fa)
{
	int i;

	printf("wall time  /proc/stat; /proc/pressure %s%s\n",
	       fa->psi_absent[0] ? "absent: " : "(cpu, memory, io)",
	       fa->psi_absent);
	printf("           block devices:");
	for (i = 0; i < fa->nr_devs && i < SAMPLE_DEVS; i++)
		printf(" %s", fa->devs[i]);
	if (!fa->nr_devs)
		printf(" none");
	if (fa->nr_devs > SAMPLE_DEVS)
		printf(" (and %d more, not sampled)",
		       fa->nr_devs - SAMPLE_DEVS);
	printf("\n");
}

static void print_text(const struct facts *fa)
{
	const struct scale_info *s = &fa->scale;
	char line[512];
	int i, src, z, c;

	facts_scale_line(fa, line, sizeof(line));
	printf("%s\n", line);
	printf("  sources:");
	for (src = 0; src < SCALE_SRC_UNKNOWN; src++)
		if (s->have[src])
			printf(" %s=%d", scale_source_name(src), s->val[src]);
	printf("%s\n", s->have[SCALE_SRC_KVAR] || s->have[SCALE_SRC_CMDLINE] ||
				       s->have[SCALE_SRC_CONFIG] ?
			       "" :
			       " none");
	printf("  pcp_batch_scale_max patch: %s\n",
	       s->patch == SCALE_PATCH_PRESENT ?
		       "present" :
	       s->patch == SCALE_PATCH_ABSENT ?
		       "absent" :
		       "unknown (kallsyms unreadable)");
	printf("kernel     %s %s, BTF %s\n", fa->release, fa->arch,
	       fa->btf_source);
	print_shape(&fa->shape);
	print_free_high_reach(fa);
	printf("probes\n");
	for (i = 0; i < fa->nr_probes; i++)
		printf("  %-12s %-10s %s\n", fa->probes[i].name,
		       fa->probes[i].mode_name, fa->probes[i].reason);
	if (fa->fallback[0])
		printf("  note: %s\n", fa->fallback);
	print_cost(fa);
	if (fa->pageblock_err)
		printf("pageblock  unknown (/proc/pagetypeinfo: %s)\n",
		       err_text(fa->pageblock_err));
	else
		printf("pageblock  order %d, %d pages per block\n",
		       fa->pageblock_order, fa->pages_per_block);
	if (fa->high_fraction_err)
		printf("percpu_pagelist_high_fraction unreadable (%s)\n",
		       err_text(fa->high_fraction_err));
	else
		printf("percpu_pagelist_high_fraction %ld%s\n",
		       fa->high_fraction,
		       fa->high_fraction ? "" : " (high sized automatically)");
	print_wall_sources(fa);
	if (fa->zones_err) {
		printf("pagesets   unreadable (/proc/zoneinfo: %s)\n",
		       err_text(fa->zones_err));
		return;
	}
	printf("pagesets   %4s %-8s %4s %7s %7s %6s %8s %8s\n", "node", "zone",
	       "cpu", "count", "high", "batch", "high_min", "high_max");
	for (z = 0; z < fa->zones.nr_zones; z++) {
		const struct zone_pcp *zp = &fa->zones.zones[z];

		for (c = 0; c < zp->nr_cpus; c++) {
			const struct pcp_cpu *p = &zp->cpus[c];

			printf("           %4d %-8s %4d %7d %7d %6d", zp->node,
			       zp->name, p->cpu, p->count, p->high, p->batch);
			if (p->high_min != PCP_FIELD_ABSENT)
				printf(" %8d %8d", p->high_min, p->high_max);
			printf("\n");
		}
	}
}

static void print_json(const struct facts *fa)
{
	struct json_writer w;

	json_init(&w, stdout);
	json_obj_begin(&w, NULL);
	json_schema(&w);
	json_obj_begin(&w, "scale");
	json_scale_fields(&w, &fa->scale);
	json_obj_end(&w);
	json_facts(&w, fa, -1);
	json_self(&w, &fa->self);
	json_obj_end(&w);
	json_end_line(&w);
}

int cmd_info(int argc, char **argv)
{
	struct info_opts o;
	struct system sys;
	int err;

	err = cli_parse_info(argc, argv, &o);
	if (err || o.help) {
		if (o.help)
			info_usage(stdout);
		return cli_status(err);
	}
	err = system_attach(&sys, &o.attach, true, false);
	if (err)
		return cli_status(err);
	attach_self_cost(&sys.a, &sys.f.self);
	if (o.json)
		print_json(&sys.f);
	else
		print_text(&sys.f);
	system_detach(&sys);
	return EXIT_OK;
}
