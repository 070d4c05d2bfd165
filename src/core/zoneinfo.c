// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/zoneinfo: each zone's own "name value" lines (watermarks, managed,
 * nr_free_pages, ...) and its pagesets, per CPU, in the 6.1 and the 6.13+
 * (high_min, high_max) shapes.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arrays.h"
#include "lines.h"
#include "procfs.h"

#define ZONES_INIT_CAP 8
#define CPUS_INIT_CAP 4

struct pcp_key {
	const char *name;
	size_t off;
};

/* the per-CPU lines of a "pagesets" block; high_min/high_max are 6.13+ */
static const struct pcp_key pcp_keys[] = {
	{ "count", offsetof(struct pcp_cpu, count) },
	{ "high", offsetof(struct pcp_cpu, high) },
	{ "batch", offsetof(struct pcp_cpu, batch) },
	{ "high_min", offsetof(struct pcp_cpu, high_min) },
	{ "high_max", offsetof(struct pcp_cpu, high_max) },
};

#define NR_PCP_KEYS ARRAY_SIZE(pcp_keys)

static int zone_add(struct zoneinfo *zi, int *cap, int node, const char *name)
{
	struct zone_pcp *z;
	int err;

	err = grow_array((void **)&zi->zones, zi->nr_zones, cap, ZONES_INIT_CAP,
			 sizeof(*zi->zones));
	if (err)
		return err;
	z = &zi->zones[zi->nr_zones++];
	memset(z, 0, sizeof(*z));
	z->node = node;
	snprintf(z->name, sizeof(z->name), "%s", name);
	return 0;
}

static int cpu_add(struct zone_pcp *z, int *cap, int cpu)
{
	struct pcp_cpu *c;
	int err;

	err = grow_array((void **)&z->cpus, z->nr_cpus, cap, CPUS_INIT_CAP,
			 sizeof(*z->cpus));
	if (err)
		return err;
	c = &z->cpus[z->nr_cpus++];
	c->cpu = cpu;
	c->count = c->high = c->batch = PCP_FIELD_ABSENT;
	c->high_min = c->high_max = PCP_FIELD_ABSENT;
	return 0;
}

/* "count:    1322" and friends; other lines of the block are not ours */
static int pcp_field(struct pcp_cpu *c, const char *line)
{
	const char *colon = strchr(line, ':');
	size_t klen, i;

	if (!colon)
		return 0;
	klen = colon - line;
	for (i = 0; i < NR_PCP_KEYS; i++) {
		if (strlen(pcp_keys[i].name) != klen ||
		    strncmp(line, pcp_keys[i].name, klen))
			continue;
		return parse_int(colon + 1,
				 (int *)((char *)c + pcp_keys[i].off));
	}
	return 0;
}

/* a pageset without its three always-printed fields is not zoneinfo */
static int zoneinfo_check(const struct zoneinfo *zi)
{
	int i, j;

	if (!zi->nr_zones)
		return -EINVAL;
	for (i = 0; i < zi->nr_zones; i++) {
		for (j = 0; j < zi->zones[i].nr_cpus; j++) {
			const struct pcp_cpu *c = &zi->zones[i].cpus[j];

			if (c->count == PCP_FIELD_ABSENT ||
			    c->high == PCP_FIELD_ABSENT ||
			    c->batch == PCP_FIELD_ABSENT)
				return -EINVAL;
		}
	}
	return 0;
}

int zoneinfo_parse(const char *path, struct zoneinfo *zi)
{
	char name[ZONE_NAME_LEN];
	int zcap = 0, ccap = 0, node, cpu, err, ret;
	struct zone_pcp *z = NULL;
	bool in_pagesets = false, in_fields = false;
	char field[PROC_FIELD_LEN];
	struct lines l;
	int64_t v;

	memset(zi, 0, sizeof(*zi));
	err = lines_open(&l, path);
	if (err)
		return err;
	while ((ret = lines_next(&l)) > 0) {
		const char *s = skip_blanks(l.buf);

		/* %15s: ZONE_NAME_LEN - 1, zone names are short */
		if (sscanf(s, "Node %d, zone %15s", &node, name) == 2) {
			err = zone_add(zi, &zcap, node, name);
			if (err)
				goto out;
			z = &zi->zones[zi->nr_zones - 1];
			ccap = 0;
			in_pagesets = in_fields = false;
		} else if (!z) {
			continue;
		} else if (!strcmp(s, "pagesets")) {
			in_pagesets = true;
		} else if (!in_pagesets) {
			/* the node's own stats come before "pages free" */
			in_fields |= !strncmp(s, "pages free", 10);
			if (!in_fields ||
			    name_value(s, field, sizeof(field), &v))
				continue;
			err = proc_fields_add(&z->fields, field, v);
			if (err)
				goto out;
		} else if (sscanf(s, "cpu: %d", &cpu) == 1) {
			err = cpu_add(z, &ccap, cpu);
			if (err)
				goto out;
		} else if (z->nr_cpus) {
			/* the zone's lines after the last CPU match no key */
			err = pcp_field(&z->cpus[z->nr_cpus - 1], s);
			if (err)
				goto out;
		}
	}
	err = ret < 0 ? ret : zoneinfo_check(zi);
out:
	lines_close(&l);
	if (err)
		zoneinfo_free(zi);
	return err;
}

void zoneinfo_free(struct zoneinfo *zi)
{
	int i;

	if (!zi)
		return;
	for (i = 0; i < zi->nr_zones; i++) {
		free(zi->zones[i].cpus);
		proc_fields_free(&zi->zones[i].fields);
	}
	free(zi->zones);
	zi->zones = NULL;
	zi->nr_zones = 0;
}

int zoneinfo_find(const struct zoneinfo *zi, int node, const char *name)
{
	int i;

	for (i = 0; i < zi->nr_zones; i++)
		if (zi->zones[i].node == node &&
		    !strcmp(zi->zones[i].name, name))
			return i;
	return -1;
}
