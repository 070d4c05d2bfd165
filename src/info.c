// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop info: what is attached and why, the scale in force with every
 * source found, and the pagesets as /proc/zoneinfo shows them.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "attach.h"
#include "cli.h"
#include "json.h"
#include "json_facts.h"
#include "system.h"

struct info_opts {
	bool json;
	struct attach_opts attach;
};

static void usage(FILE *f)
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
		"  -v, --verbose    libbpf's log on stderr\n"
		"  -h, --help       this text\n");
}

static int parse_args(int argc, char **argv, struct info_opts *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		CLI_ATTACH_LONGOPTS,
		{}
	};
	int c, err;

	cli_attach_defaults(&o->attach);
	optind = 1;
	while ((c = getopt_long(argc, argv, "jm:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			err = cli_attach_opt(c, optarg, &o->attach);
			if (err == CLI_OPT_TAKEN)
				break;
			return err ? err : cli_error("see 'pcptop info --help'");
		}
	}
	if (optind < argc)
		return cli_error("unexpected argument '%s': see 'pcptop info --help'",
				 argv[optind]);
	return 0;
}

static const char *err_text(int err)
{
	return err ? strerror(-err) : "";
}

static void print_text(const struct attach *a, const struct system_facts *sf)
{
	const struct scale_info *s = &sf->scale;
	char line[512];
	int id, src, z, c;

	system_scale_line(sf, line, sizeof(line));
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
	       s->patch == SCALE_PATCH_PRESENT ? "present" :
	       s->patch == SCALE_PATCH_ABSENT	 ? "absent" :
						   "unknown (kallsyms unreadable)");
	printf("kernel     %s %s, BTF %s\n", sf->uts.release, sf->uts.machine,
	       a->btf_source);
	printf("probes\n");
	for (id = 0; id < NR_PROBES; id++)
		printf("  %-10s %-10s %s\n", probe_name(id),
		       probe_mode_name(a->probes[id].mode),
		       a->probes[id].reason);
	if (a->fallback[0])
		printf("  note: %s\n", a->fallback);
	if (sf->pageblock_err)
		printf("pageblock  unknown (/proc/pagetypeinfo: %s)\n",
		       err_text(sf->pageblock_err));
	else
		printf("pageblock  order %d, %d pages per block\n",
		       sf->pageblock_order, sf->pages_per_block);
	if (sf->high_fraction_err)
		printf("percpu_pagelist_high_fraction unreadable (%s)\n",
		       err_text(sf->high_fraction_err));
	else
		printf("percpu_pagelist_high_fraction %ld%s\n",
		       sf->high_fraction,
		       sf->high_fraction ? "" : " (high sized automatically)");
	if (sf->zones_err) {
		printf("pagesets   unreadable (/proc/zoneinfo: %s)\n",
		       err_text(sf->zones_err));
		return;
	}
	printf("pagesets   %4s %-8s %4s %7s %7s %6s %8s %8s\n", "node", "zone",
	       "cpu", "count", "high", "batch", "high_min", "high_max");
	for (z = 0; z < sf->zones.nr_zones; z++) {
		const struct zone_pcp *zp = &sf->zones.zones[z];

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

static void print_json(const struct attach *a, const struct system_facts *sf)
{
	struct json_writer w;
	int id;

	json_init(&w, stdout);
	json_obj_begin(&w, NULL);
	json_obj_begin(&w, "kernel");
	json_str(&w, "release", sf->uts.release);
	json_str(&w, "arch", sf->uts.machine);
	json_str(&w, "btf", a->btf_source);
	json_obj_end(&w);
	json_obj_begin(&w, "scale");
	json_scale_fields(&w, &sf->scale);
	json_obj_end(&w);
	json_str(&w, "mode", attach_summary_mode(a));
	json_arr_begin(&w, "probes");
	for (id = 0; id < NR_PROBES; id++) {
		json_obj_begin(&w, NULL);
		json_str(&w, "name", probe_name(id));
		json_str(&w, "mode", probe_mode_name(a->probes[id].mode));
		json_str(&w, "target", a->probes[id].target);
		json_bool(&w, "estimated", a->probes[id].estimated);
		json_str(&w, "reason", a->probes[id].reason);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_str(&w, "fallback", a->fallback);
	if (sf->pageblock_err) {
		json_null(&w, "pageblock_order");
	} else {
		json_int(&w, "pageblock_order", sf->pageblock_order);
		json_int(&w, "pages_per_block", sf->pages_per_block);
	}
	if (sf->high_fraction_err)
		json_null(&w, "percpu_pagelist_high_fraction");
	else
		json_int(&w, "percpu_pagelist_high_fraction",
			 sf->high_fraction);
	json_zone_pagesets(&w, "zones", &sf->zones);
	json_obj_end(&w);
	json_end_line(&w);
}

int cmd_info(int argc, char **argv)
{
	struct info_opts o = {};
	struct system_facts sf;
	struct attach a;
	int err;

	err = parse_args(argc, argv, &o);
	if (err)
		return err < 0 ? EXIT_OK : err;

	err = system_attach(&a, &sf, &o.attach, true);
	if (err)
		return err;
	if (o.json)
		print_json(&a, &sf);
	else
		print_text(&a, &sf);
	system_detach(&a, &sf);
	return EXIT_OK;
}
