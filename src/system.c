// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "attach.h"
#include "cli.h"
#include "system.h"

#define LIVE_ROOT "/"

int system_attach(struct attach *a, struct system_facts *sf,
		  const struct attach_opts *o, bool say_fallback)
{
	int err = attach_open(a, o);

	if (err)
		return cli_error("%s", a->error);
	if (say_fallback && a->fallback[0])
		fprintf(stderr, "pcptop: %s\n", a->fallback);
	err = system_collect(sf, a);
	if (err) {
		attach_close(a);
		cli_error("reading /proc: %s", strerror(-err));
		return EXIT_RUNTIME;
	}
	attach_set_run_cap(a, system_chunk_bound(sf));
	return 0;
}

void system_detach(struct attach *a, struct system_facts *sf)
{
	system_free(sf);
	attach_close(a);
}

int system_collect(struct system_facts *sf, struct attach *a)
{
	char path[256];
	int err, value;

	memset(sf, 0, sizeof(*sf));
	if (uname(&sf->uts))
		return -errno;

	err = scale_collect(LIVE_ROOT, sf->uts.release, &sf->scale);
	if (err)
		return err;
	sf->kvar_err = -ENOENT;
	if (a && sf->scale.kvar_addr) {
		sf->kvar_err = attach_read_kernel_int(a, sf->scale.kvar_addr,
						      &value);
		/* both setters resolve again, so value and note follow */
		if (!sf->kvar_err)
			scale_set_kvar(&sf->scale, value);
		else
			scale_set_kvar_error(&sf->scale, sf->kvar_err);
	}

	proc_path(path, sizeof(path), LIVE_ROOT, "proc/zoneinfo");
	sf->zones_err = zoneinfo_parse(path, &sf->zones);
	proc_path(path, sizeof(path), LIVE_ROOT, "proc/pagetypeinfo");
	sf->pageblock_err = pagetypeinfo_parse(path, &sf->pageblock_order,
					       &sf->pages_per_block);
	proc_path(path, sizeof(path), LIVE_ROOT,
		  "proc/sys/vm/percpu_pagelist_high_fraction");
	sf->high_fraction_err = read_long_file(path, &sf->high_fraction);
	return 0;
}

void system_free(struct system_facts *sf)
{
	zoneinfo_free(&sf->zones);
}

const char *system_zone_name(const struct system_facts *sf, int idx)
{
	int i, n = 0;

	for (i = 0; i < sf->zones.nr_zones; i++) {
		if (sf->zones.zones[i].node != 0)
			continue;
		if (n++ == idx)
			return sf->zones.zones[i].name;
	}
	return "?";
}

int system_max_batch(const struct system_facts *sf)
{
	int i, c, best = 0;

	for (i = 0; i < sf->zones.nr_zones; i++)
		for (c = 0; c < sf->zones.zones[i].nr_cpus; c++)
			if (sf->zones.zones[i].cpus[c].batch > best)
				best = sf->zones.zones[i].cpus[c].batch;
	return best;
}

unsigned long long system_chunk_bound(const struct system_facts *sf)
{
	int batch = system_max_batch(sf);

	/* an inferred scale is a lower bound: no bound can come from it */
	if (batch <= 0 || sf->scale.value < 0 ||
	    sf->scale.source == SCALE_SRC_INFERRED)
		return 0;
	return (unsigned long long)batch << sf->scale.value;
}

unsigned long long system_overshoot_slack(const struct system_facts *sf)
{
	/* without /proc/pagetypeinfo scale.c assumes order 9 */
	return scale_overshoot_slack(sf->pageblock_err ? -1 :
				     sf->pageblock_order);
}

void system_scale_line(const struct system_facts *sf, char *buf, size_t len)
{
	const struct scale_info *s = &sf->scale;
	const char *where = "";

	if (s->source == SCALE_SRC_CONFIG)
		where = s->config_path;
	else if (s->source == SCALE_SRC_CMDLINE)
		where = "/proc/cmdline";
	else if (s->source == SCALE_SRC_KVAR)
		where = "pcp_batch_scale_max";

	if (s->value < 0)
		snprintf(buf, len, "scale unknown (no kernel variable, cmdline or config found)");
	else
		snprintf(buf, len, "scale %d (%s%s%s)%s%s", s->value,
			 scale_source_name(s->source), where[0] ? ", " : "",
			 where, s->note[0] ? "; " : "", s->note);
}
