// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arrays.h"
#include "procstat.h"
#include "sampler.h"

#define PATH_LEN (SAMPLER_ROOT_LEN + 32)
/* "pcp.count": a pageset field, summed over the zone's CPUs */
#define PCP_PREFIX "pcp."
#define PCP_PREFIX_LEN 4

/* "allocstall_*": every vmstat field of that prefix, summed */
#define FIELD_PREFIX_MARK '*'
#define MS_PER_S 1000
/* Linux's USER_HZ on every architecture pcptop runs on */
#define USER_HZ_DEFAULT 100
#define PSI_FIELD_LEN 16

/* /proc/pressure's files, the first word of an SRC_PSI field */
static const char *const psi_resources[] = { "cpu", "memory", "io" };
#define NR_PSI ARRAY_SIZE(psi_resources)

/* what one interval read, source by source */
struct readings {
	struct proc_fields vmstat;
	int vmstat_err;
	struct zoneinfo zi;
	int zi_err;
	struct buddyinfo bi;
	int bi_err;
	struct cpustat cs;
	int cs_err;
	struct psi_totals psi[NR_PSI];
	int psi_err[NR_PSI];
	struct blockstat blk[SAMPLE_DEVS];
	int blk_err[SAMPLE_DEVS];
};

static bool wants(const struct sampler *s, enum sample_src src)
{
	int i;

	if (src == SRC_ZONEINFO && s->want_zoneinfo)
		return true;
	/* buddyinfo's zones are indexed as zoneinfo lists them */
	if (src == SRC_ZONEINFO && wants(s, SRC_BUDDYINFO))
		return true;
	for (i = 0; i < nr_figs; i++)
		if (fig_table[i].type == FIG_SAMPLED &&
		    fig_table[i].sample.src == src)
			return true;
	return false;
}

static void read_sources(const struct sampler *s, struct readings *r)
{
	char path[PATH_LEN];

	size_t k;
	int i;

	memset(r, 0, sizeof(*r));
	r->vmstat_err = r->zi_err = r->bi_err = r->cs_err = -ENOENT;
	for (k = 0; k < NR_PSI; k++)
		r->psi_err[k] = -ENOENT;
	for (i = 0; i < SAMPLE_DEVS; i++)
		r->blk_err[i] = -ENOENT;
	if (wants(s, SRC_VMSTAT)) {
		proc_path(path, sizeof(path), s->root, "proc/vmstat");
		r->vmstat_err = vmstat_parse(path, &r->vmstat);
	}
	if (wants(s, SRC_ZONEINFO)) {
		proc_path(path, sizeof(path), s->root, "proc/zoneinfo");
		r->zi_err = zoneinfo_parse(path, &r->zi);
	}
	if (wants(s, SRC_BUDDYINFO)) {
		proc_path(path, sizeof(path), s->root, "proc/buddyinfo");
		r->bi_err = buddyinfo_parse(path, &r->bi);
	}
	if (wants(s, SRC_STAT)) {
		proc_path(path, sizeof(path), s->root, "proc/stat");
		r->cs_err = cpustat_parse(path, &r->cs);
	}
	for (k = 0; wants(s, SRC_PSI) && k < NR_PSI; k++) {
		char rel[32];

		snprintf(rel, sizeof(rel), "proc/pressure/%s",
			 psi_resources[k]);
		proc_path(path, sizeof(path), s->root, rel);
		r->psi_err[k] = psi_parse(path, &r->psi[k]);
	}
	for (i = 0; wants(s, SRC_BLOCK) && i < s->nr_devs; i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "sys/block/%s/stat", s->devs[i]);
		proc_path(path, sizeof(path), s->root, rel);
		r->blk_err[i] = blockstat_parse(path, &r->blk[i]);
	}
}

static void readings_free(struct readings *r)
{
	proc_fields_free(&r->vmstat);
	zoneinfo_free(&r->zi);
	buddyinfo_free(&r->bi);
	cpustat_free(&r->cs);
}

/* a vmstat field, or the sum of those of a prefix ("allocstall_*") */
static int vmstat_value(const struct proc_fields *pf, const char *field,
			int64_t *v)
{
	size_t n = strlen(field);
	bool any = false;
	int i;

	if (!n || field[n - 1] != FIELD_PREFIX_MARK)
		return proc_field_find(pf, field, v);
	*v = 0;
	for (i = 0; i < pf->n; i++) {
		if (strncmp(pf->f[i].name, field, n - 1))
			continue;
		*v += pf->f[i].v;
		any = true;
	}
	return any ? 0 : -ENOENT;
}

/* node 0's index of a zone name: the index the BPF side keys zones by */
static int zone_index(const struct zoneinfo *zi, const char *name)
{
	int i, n = 0;

	for (i = 0; i < zi->nr_zones; i++) {
		if (zi->zones[i].node != 0)
			continue;
		if (!strcmp(zi->zones[i].name, name))
			return n < SAMPLE_ZONES ? n : -1;
		n++;
	}
	return -1;
}

static const struct pcp_key {
	const char *name;
	size_t off;
} pcp_keys[] = {
	{ "count", offsetof(struct pcp_cpu, count) },
	{ "high", offsetof(struct pcp_cpu, high) },
	{ "batch", offsetof(struct pcp_cpu, batch) },
	{ "high_min", offsetof(struct pcp_cpu, high_min) },
	{ "high_max", offsetof(struct pcp_cpu, high_max) },
};

/*
 * A pageset field over the zone's CPUs: a zone with no pagesets has none
 * (-ENOENT); one with a CPU that does not print the field (high_min
 * before 6.13) has no sum to give (-ENODATA), and spoils its zone's.
 */
static int pcp_sum(const struct zone_pcp *z, const char *field, int64_t *v)
{
	size_t k, off = 0;
	int c, x;

	for (k = 0; k < ARRAY_SIZE(pcp_keys); k++)
		if (!strcmp(pcp_keys[k].name, field))
			break;
	if (k == ARRAY_SIZE(pcp_keys) || !z->nr_cpus)
		return -ENOENT;
	off = pcp_keys[k].off;
	*v = 0;
	for (c = 0; c < z->nr_cpus; c++) {
		x = *(const int *)((const char *)&z->cpus[c] + off);
		if (x == PCP_FIELD_ABSENT)
			return -ENODATA;
		*v += x;
	}
	return 0;
}

static int zone_field(const struct zone_pcp *z, const char *field, int64_t *v)
{
	if (!strncmp(field, PCP_PREFIX, PCP_PREFIX_LEN))
		return pcp_sum(z, field + PCP_PREFIX_LEN, v);
	return proc_field_find(&z->fields, field, v);
}

/* a sum past INT64 is no real zone's (the fuzzer made one): none */
static bool add_checked(int64_t *sum, int64_t v)
{
	if ((v > 0 && *sum > INT64_MAX - v) || (v < 0 && *sum < INT64_MIN - v))
		return false;
	*sum += v;
	return true;
}

void sample_zone_values(const struct zoneinfo *zi, const char *field,
			int64_t v[SAMPLE_ZONES], bool have[SAMPLE_ZONES])
{
	bool broken[SAMPLE_ZONES] = { false };
	int i, z, err;
	int64_t x;

	memset(have, 0, sizeof(bool) * SAMPLE_ZONES);
	memset(v, 0, sizeof(int64_t) * SAMPLE_ZONES);
	for (i = 0; i < zi->nr_zones; i++) {
		z = zone_index(zi, zi->zones[i].name);
		if (z < 0)
			continue;
		err = zone_field(&zi->zones[i], field, &x);
		if (err == -ENODATA)
			broken[z] = true;
		if (err)
			continue;
		if (!add_checked(&v[z], x))
			broken[z] = true;
		have[z] = true;
	}
	for (z = 0; z < SAMPLE_ZONES; z++)
		have[z] &= !broken[z];
}

/* "io.full": a /proc/pressure file's some or full total, us */
static int psi_value(const struct readings *r, const char *field, int64_t *v)
{
	const char *dot = strchr(field, '.');
	size_t k;

	for (k = 0; dot && k < NR_PSI; k++) {
		const struct psi_totals *p = &r->psi[k];

		if (strlen(psi_resources[k]) != (size_t)(dot - field) ||
		    strncmp(field, psi_resources[k], (size_t)(dot - field)) ||
		    r->psi_err[k])
			continue;
		if (!strcmp(dot + 1, "some") && p->have_some)
			*v = p->some_us;
		else if (!strcmp(dot + 1, "full") && p->have_full)
			*v = p->full_us;
		else
			return -ENOENT;
		return 0;
	}
	return -ENOENT;
}

/* the raw reading of a machine-wide row: 0, or -ENOENT */
static int machine_value(const struct sampler *s, const struct readings *r,
			 const struct fig_desc *d, int64_t *v)
{
	switch (d->sample.src) {
	case SRC_VMSTAT:
		return r->vmstat_err ?
			       -ENOENT :
			       vmstat_value(&r->vmstat, d->sample.field, v);
	case SRC_PROG:
		return s->prog ? s->prog(s->prog_ctx, d->sample.field, v) :
				 -ENOENT;
	case SRC_STAT:
		/* "online": the cpuN lines, which list the online CPUs */
		if (r->cs_err || strcmp(d->sample.field, "online"))
			return -ENOENT;
		*v = r->cs.nr;
		return 0;
	case SRC_PSI:
		return psi_value(r, d->sample.field, v);
	default:
		return -ENOENT;
	}
}

/*
 * A counter's increase since its last reading; the first reading only
 * starts it. A counter that went down was reset (programs reloaded):
 * what it holds now is all that happened since. But /proc/stat's idle
 * and iowait go back a little when a waiter is woken on another CPU
 * (Documentation/filesystems/proc.rst: "iowait is not reliable"), so a
 * kernel total that went down (resets false) only added nothing.
 */
static bool counted(struct sampler *s, int cell, int64_t raw, bool resets,
		    int64_t *inc)
{
	bool had = s->have[cell];
	int64_t prev = s->prev[cell];

	s->prev[cell] = raw;
	s->have[cell] = true;
	if (!had)
		return false;
	*inc = raw >= prev ? raw - prev : resets ? raw : 0;
	return true;
}

/* a total the kernel keeps for as long as it runs, never reset */
static bool kernel_total(const struct fig_desc *d)
{
	return d->sample.src == SRC_STAT || d->sample.src == SRC_PSI ||
	       d->sample.src == SRC_BLOCK;
}

/* a reading of zone (-1: the machine) and order (-1: none) into out */
static void put(struct sampler *s, struct samples *out,
		const struct fig_desc *d, int zone, int order, int64_t raw)
{
	int cell = sample_cell_base(d) +
		   (zone < 0  ? 0 :
		    order < 0 ? sample_zone_cell(zone) :
				sample_order_cell(zone, order));
	int64_t v = raw;

	if (d->sample.kind == SAMPLE_COUNTER &&
	    !counted(s, cell, raw, !kernel_total(d), &v))
		return;
	if (!out)
		return;
	if (order < 0)
		samples_set(out, d, zone, v);
	else
		samples_set_order(out, d, zone, order, v);
}

/* free blocks of every zone and order, zones summed over nodes */
static bool take_buddy(struct sampler *s, const struct readings *r,
		       struct samples *out, const struct fig_desc *d)
{
	int64_t sum[SAMPLE_ZONES][SAMPLE_ORDERS] = { { 0 } };
	bool have[SAMPLE_ZONES][SAMPLE_ORDERS] = { { false } }, any = false;
	int i, z, o;

	if (r->bi_err || r->zi_err)
		return false;
	for (i = 0; i < r->bi.nr_zones; i++) {
		const struct buddy_zone *bz = &r->bi.zones[i];

		z = zone_index(&r->zi, bz->name);
		for (o = 0; z >= 0 && o < bz->nr_orders && o < SAMPLE_ORDERS;
		     o++) {
			sum[z][o] += bz->free[o];
			have[z][o] = true;
		}
	}
	for (z = 0; z < SAMPLE_ZONES; z++)
		for (o = 0; o < SAMPLE_ORDERS; o++) {
			if (!have[z][o])
				continue;
			put(s, out, d, z, o, sum[z][o]);
			any = true;
		}
	return any;
}

/*
 * A cpu state's time on each CPU, in ms; a CPU past the last cell adds
 * to it, so the cells still sum to the machine's time
 */
static bool take_cpus(struct sampler *s, const struct readings *r,
		      struct samples *out, const struct fig_desc *d)
{
	int64_t ms[SAMPLE_CPUS] = { 0 };
	bool have[SAMPLE_CPUS] = { false }, any = false;
	int st = cpu_state_find(d->sample.field), i, k;

	if (r->cs_err || st < 0)
		return false;
	for (i = 0; i < r->cs.nr; i++) {
		k = r->cs.cpus[i].cpu < SAMPLE_CPUS ? r->cs.cpus[i].cpu :
						      SAMPLE_CPUS - 1;
		ms[k] += r->cs.cpus[i].ticks[st] * MS_PER_S / s->user_hz;
		have[k] = true;
	}
	for (k = 0; k < SAMPLE_CPUS; k++) {
		if (!have[k])
			continue;
		put(s, out, d, k, -1, ms[k]);
		any = true;
	}
	return any;
}

/* a /sys/block/DEV/stat field of each device sampled */
static bool take_devs(struct sampler *s, const struct readings *r,
		      struct samples *out, const struct fig_desc *d)
{
	int f = block_stat_find(d->sample.field), i;
	bool any = false;

	for (i = 0; f >= 0 && i < s->nr_devs; i++) {
		if (r->blk_err[i] || f >= r->blk[i].nr)
			continue;
		put(s, out, d, i, -1, r->blk[i].v[f]);
		any = true;
	}
	return any;
}

/* every row from r into out (NULL: only start the counters) */
static void take(struct sampler *s, const struct readings *r,
		 struct samples *out, struct facts *fa)
{
	int64_t zv[SAMPLE_ZONES], v;
	bool have[SAMPLE_ZONES], any;
	int i, z;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type != FIG_SAMPLED)
			continue;
		any = false;
		if (d->sample.scope == SCOPE_ZONE_ORDER &&
		    d->sample.src == SRC_BUDDYINFO) {
			any = take_buddy(s, r, out, d);
		} else if (d->sample.scope == SCOPE_ZONE &&
			   d->sample.src == SRC_ZONEINFO && !r->zi_err) {
			sample_zone_values(&r->zi, d->sample.field, zv, have);
			for (z = 0; z < SAMPLE_ZONES; z++) {
				if (!have[z])
					continue;
				put(s, out, d, z, -1, zv[z]);
				any = true;
			}
		} else if (d->sample.scope == SCOPE_CPU &&
			   d->sample.src == SRC_STAT) {
			any = take_cpus(s, r, out, d);
		} else if (d->sample.scope == SCOPE_DEV &&
			   d->sample.src == SRC_BLOCK) {
			any = take_devs(s, r, out, d);
		} else if (d->sample.scope == SCOPE_MACHINE &&
			   !machine_value(s, r, d, &v)) {
			put(s, out, d, -1, -1, v);
			any = true;
		}
		if (fa && i < FIGTAB_MAX)
			fa->sampled[i] = any;
	}
	if (out)
		samples_sum_zones(out);
}

/* the devices SRC_BLOCK rows sample, named in the facts too */
static void open_devs(struct sampler *s, struct facts *fa)
{
	int n = blockdev_list(s->root, s->devs, SAMPLE_DEVS), i;

	s->nr_devs = n < 0 ? 0 : n < SAMPLE_DEVS ? n : SAMPLE_DEVS;
	if (!fa)
		return;
	fa->nr_devs = n < 0 ? 0 : n;
	for (i = 0; i < s->nr_devs; i++)
		snprintf(fa->devs[i], sizeof(fa->devs[i]), "%s", s->devs[i]);
}

int sampler_open(struct sampler *s, const char *root, sample_prog_fn prog,
		 void *prog_ctx, bool with_zoneinfo, struct facts *fa)
{
	char cmdline[PATH_LEN];
	struct readings r;

	memset(s, 0, sizeof(*s));
	snprintf(s->root, sizeof(s->root), "%s", root);
	s->prog = prog;
	s->prog_ctx = prog_ctx;
	s->want_zoneinfo = with_zoneinfo;
	s->user_hz = sysconf(_SC_CLK_TCK);
	if (s->user_hz <= 0)
		s->user_hz = USER_HZ_DEFAULT;
	s->nr_cells = sample_nr_cells();
	s->prev = calloc(s->nr_cells ? s->nr_cells : 1, sizeof(*s->prev));
	s->have = calloc(s->nr_cells ? s->nr_cells : 1, sizeof(*s->have));
	if (!s->prev || !s->have) {
		sampler_close(s);
		return -ENOMEM;
	}
	if (wants(s, SRC_BLOCK))
		open_devs(s, fa);
	read_sources(s, &r);
	take(s, &r, NULL, fa);
	proc_path(cmdline, sizeof(cmdline), s->root, "proc/cmdline");
	if (fa && wants(s, SRC_PSI) && r.psi_err[0])
		psi_absent_reason(fa->scale.config_path, cmdline,
				  fa->psi_absent, sizeof(fa->psi_absent));
	readings_free(&r);
	return 0;
}

void sampler_close(struct sampler *s)
{
	free(s->prev);
	free(s->have);
	s->prev = NULL;
	s->have = NULL;
}

int sampler_read(struct sampler *s, struct samples *out, struct zoneinfo *zi,
		 int *zi_err)
{
	struct readings r;

	if (out->nr != s->nr_cells)
		return -EINVAL;
	samples_clear(out);
	read_sources(s, &r);
	take(s, &r, out, NULL);
	if (zi) {
		*zi = r.zi;
		*zi_err = r.zi_err;
		memset(&r.zi, 0, sizeof(r.zi));
	}
	readings_free(&r);
	return 0;
}
