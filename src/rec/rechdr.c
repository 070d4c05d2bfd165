// SPDX-License-Identifier: GPL-2.0-only
/*
 * The header and end chunks of a recording: lists of tagged records
 * {u16 tag, u16 reserved, u32 length, bytes}, so a newer pcptop can add
 * facts and an older one skips the tags it does not know. Tags and their
 * layouts are listed in docs/FORMAT.md; change both together.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "figtab.h"
#include "recbuf.h"
#include "recfile.h"
#include "rectags.h"

enum rec_hdr_tag {
	TAG_PCPTOP_VERSION = 1,
	TAG_START = 2,
	TAG_RELEASE = 3,
	TAG_ARCH = 4,
	TAG_HOSTNAME = 5,
	TAG_DIMS = 6,
	TAG_INTERVAL = 7,
	TAG_PROBE = 8,
	TAG_MODE_SUMMARY = 9,
	TAG_FALLBACK = 10,
	TAG_BTF_SOURCE = 11,
	TAG_SCALE = 12,
	TAG_ZONE = 13,
	TAG_ZONES_ERR = 14,
	TAG_PAGEBLOCK = 15,
	TAG_HIGH_FRACTION = 16,
	TAG_ATTACH_OPTS = 17,
	TAG_COMMAND = 18,
	TAG_COUNTER_NAMES = 19, /* 1.1: u32 n, n strings, in array order */
	TAG_HIST_NAMES = 20,
	TAG_SAMPLE_SERIES = 21, /* 1.3: one per sampled series */
	TAG_BLOCK_DEVS = 22, /* 1.7: u32 devices, u32 n listed, n names */
	TAG_PSI_ABSENT = 23, /* 1.7: why /proc/pressure was not read */
};

/* node, nr_cpus, name[16]: the fixed part of a TAG_ZONE record */
#define ZONE_REC_FIXED (8 + ZONE_NAME_LEN)
#define ZONE_REC_CPU_LEN 28
#define MAX_ZONE_RECS 4096
#define SCALE_SRC_ON_DISK 5

static void put_scale(struct rbuf *b, const struct scale_info *s)
{
	size_t off = tlv_begin(b, TAG_SCALE);
	int i;

	rb_i32(b, s->value);
	rb_u32(b, (uint32_t)s->source);
	rb_u32(b, (uint32_t)s->patch);
	rb_u64(b, s->kvar_addr);
	rb_i32(b, s->inferred_evidence);
	for (i = 0; i < SCALE_SRC_ON_DISK; i++) {
		rb_u32(b, i < NR_SCALE_SRC && s->have[i]);
		rb_i32(b, i < NR_SCALE_SRC ? s->val[i] : 0);
	}
	rb_str(b, s->cmdline_raw);
	rb_str(b, s->config_path);
	rb_str(b, s->note);
	tlv_end(b, off);
}

static void put_zone(struct rbuf *b, const struct zone_pcp *z)
{
	size_t off = tlv_begin(b, TAG_ZONE);
	char name[ZONE_NAME_LEN] = "";
	int c;

	rb_i32(b, z->node);
	rb_u32(b, (uint32_t)z->nr_cpus);
	snprintf(name, sizeof(name), "%s", z->name);
	rb_put(b, name, sizeof(name));
	for (c = 0; c < z->nr_cpus; c++) {
		const struct pcp_cpu *p = &z->cpus[c];

		rb_i32(b, p->cpu);
		rb_i32(b, p->count);
		rb_i32(b, p->high);
		rb_i32(b, p->batch);
		rb_i32(b, p->high_min);
		rb_i32(b, p->high_max);
		rb_i32(b, 0); /* reserved */
	}
	tlv_end(b, off);
}

/*
 * An array the run did not keep (a whatif prediction's unpredicted
 * counters) is named with REC_NAME_NOT_KEPT in front: no reader knows
 * that name, so every reader drops its values and the figures it feeds.
 */
static void put_names(struct rbuf *b, uint16_t tag, int n,
		      const char *(*name)(int i), const bool *kept)
{
	size_t off = tlv_begin(b, tag);
	char dropped[64];
	int i;

	rb_u32(b, (uint32_t)n);
	for (i = 0; i < n; i++) {
		if (kept[i]) {
			rb_str(b, name(i));
			continue;
		}
		snprintf(dropped, sizeof(dropped), "%s%s", REC_NAME_NOT_KEPT,
			 name(i));
		rb_str(b, dropped);
	}
	tlv_end(b, off);
}

static const char *counter_name(int i)
{
	return counter_table[i].key;
}

static const char *hist_name(int i)
{
	return hist_table[i].key;
}

void rec_header_encode(struct rbuf *b, const struct rec_header *h)
{
	const struct rec_dims *d = &h->dims;
	const struct facts *f = &h->f;
	size_t off;
	int i;

	tlv_str(b, TAG_PCPTOP_VERSION, h->pcptop_version);
	off = tlv_begin(b, TAG_START);
	rb_u64(b, h->start_realtime_ns);
	tlv_end(b, off);
	tlv_str(b, TAG_RELEASE, f->release);
	tlv_str(b, TAG_ARCH, f->arch);
	tlv_str(b, TAG_HOSTNAME, f->hostname);
	off = tlv_begin(b, TAG_DIMS);
	rb_u32(b, d->nr_cpus);
	rb_u32(b, d->hist_slots);
	rb_u32(b, d->max_zones);
	rb_u32(b, d->nr_hists);
	rb_u32(b, d->order_slots);
	rb_u32(b, d->mt_slots);
	rb_u32(b, d->nr_counters);
	tlv_end(b, off);
	/* the writer's arrays are always this build's layout */
	put_names(b, TAG_COUNTER_NAMES, NR_PCPTOP_COUNTERS, counter_name,
		  f->counted);
	put_names(b, TAG_HIST_NAMES, NR_PCPTOP_HISTS, hist_name, f->hist_kept);
	rec_series_encode(b, h, TAG_SAMPLE_SERIES);
	if (f->nr_devs) {
		off = tlv_begin(b, TAG_BLOCK_DEVS);
		rb_u32(b, (uint32_t)f->nr_devs);
		rb_u32(b, f->nr_devs < SAMPLE_DEVS ? f->nr_devs : SAMPLE_DEVS);
		for (i = 0; i < f->nr_devs && i < SAMPLE_DEVS; i++)
			rb_str(b, f->devs[i]);
		tlv_end(b, off);
	}
	if (f->psi_absent[0])
		tlv_str(b, TAG_PSI_ABSENT, f->psi_absent);
	off = tlv_begin(b, TAG_INTERVAL);
	rb_u64(b, h->interval_ns);
	tlv_end(b, off);
	for (i = 0; i < f->nr_probes && i < REC_MAX_PROBES; i++) {
		const struct fact_probe *p = &f->probes[i];

		off = tlv_begin(b, TAG_PROBE);
		rb_u32(b, p->estimated);
		rb_str(b, p->name);
		rb_str(b, p->mode_name);
		rb_str(b, p->target);
		rb_str(b, p->reason);
		tlv_end(b, off);
	}
	tlv_str(b, TAG_MODE_SUMMARY, f->mode_summary);
	tlv_str(b, TAG_FALLBACK, f->fallback);
	tlv_str(b, TAG_BTF_SOURCE, f->btf_source);
	put_scale(b, &f->scale);
	for (i = 0; i < f->zones.nr_zones; i++)
		put_zone(b, &f->zones.zones[i]);
	if (f->zones_err) {
		off = tlv_begin(b, TAG_ZONES_ERR);
		rb_i32(b, -f->zones_err);
		tlv_end(b, off);
	}
	if (f->pageblock_order >= 0) {
		off = tlv_begin(b, TAG_PAGEBLOCK);
		rb_i32(b, f->pageblock_order);
		rb_i32(b, f->pages_per_block);
		tlv_end(b, off);
	}
	if (f->high_fraction >= 0) {
		off = tlv_begin(b, TAG_HIGH_FRACTION);
		rb_u64(b, (uint64_t)f->high_fraction);
		tlv_end(b, off);
	}
	off = tlv_begin(b, TAG_ATTACH_OPTS);
	rb_u64(b, f->run_gap_ns);
	rb_u64(b, f->run_cap_pages);
	rb_u32(b, f->cross_check);
	tlv_end(b, off);
	if (h->argc > 0)
		put_argv(b, TAG_COMMAND, h->argc, h->argv);
}

static void get_scale(struct rcur *c, struct scale_info *s)
{
	uint32_t src, patch;
	int i;

	memset(s, 0, sizeof(*s));
	s->value = rc_i32(c);
	src = rc_u32(c);
	patch = rc_u32(c);
	s->source = src < NR_SCALE_SRC ? (enum scale_source)src :
					 SCALE_SRC_UNKNOWN;
	s->patch = patch <= SCALE_PATCH_PRESENT ? (enum scale_patch)patch :
						  SCALE_PATCH_UNKNOWN;
	s->kvar_addr = rc_u64(c);
	s->inferred_evidence = rc_i32(c);
	for (i = 0; i < SCALE_SRC_ON_DISK; i++) {
		bool have = rc_u32(c) != 0;
		int val = rc_i32(c);

		if (i < NR_SCALE_SRC) {
			s->have[i] = have;
			s->val[i] = val;
		}
	}
	rc_str(c, s->cmdline_raw, sizeof(s->cmdline_raw));
	rc_str(c, s->config_path, sizeof(s->config_path));
	rc_str(c, s->note, sizeof(s->note));
	/* a value the scale cannot take reads as unknown, never as data */
	if (s->value < -1 || s->value > 31)
		s->value = -1;
}

static int get_zone(struct rcur *c, struct zoneinfo *zi)
{
	struct zone_pcp *zones, *z;
	int32_t node = rc_i32(c);
	uint32_t nr = rc_u32(c), i;
	const unsigned char *name = rc_take(c, ZONE_NAME_LEN);

	if (c->bad || nr > REC_MAX_CPUS ||
	    rc_left(c) != (size_t)nr * ZONE_REC_CPU_LEN ||
	    zi->nr_zones >= MAX_ZONE_RECS)
		return -EBADMSG;
	zones = realloc(zi->zones, (zi->nr_zones + 1) * sizeof(*zones));
	if (!zones)
		return -ENOMEM;
	zi->zones = zones;
	z = &zones[zi->nr_zones];
	memset(z, 0, sizeof(*z));
	z->node = node;
	memcpy(z->name, name, ZONE_NAME_LEN);
	z->name[ZONE_NAME_LEN - 1] = '\0';
	z->cpus = calloc(nr ? nr : 1, sizeof(*z->cpus));
	if (!z->cpus)
		return -ENOMEM;
	zi->nr_zones++;
	z->nr_cpus = (int)nr;
	for (i = 0; i < nr; i++) {
		struct pcp_cpu *p = &z->cpus[i];

		p->cpu = rc_i32(c);
		p->count = rc_i32(c);
		p->high = rc_i32(c);
		p->batch = rc_i32(c);
		p->high_min = rc_i32(c);
		p->high_max = rc_i32(c);
		rc_i32(c);
	}
	return 0;
}

/* sane array shapes: bounded so an interval's size cannot overflow */
static bool dims_sane(const struct rec_dims *d)
{
	return d->nr_cpus >= 1 && d->nr_cpus <= REC_MAX_CPUS &&
	       d->hist_slots >= 1 && d->hist_slots <= REC_MAX_DIM &&
	       d->max_zones >= 1 && d->max_zones <= REC_MAX_DIM &&
	       d->nr_hists >= 1 && d->nr_hists <= REC_MAX_DIM &&
	       d->order_slots >= 1 && d->order_slots <= REC_MAX_DIM &&
	       d->mt_slots >= 1 && d->mt_slots <= REC_MAX_DIM &&
	       d->nr_counters >= 1 && d->nr_counters <= REC_MAX_COUNTERS;
}

struct header_ctx {
	struct rec_header *h;
	bool have_dims;
	bool have_counter_names;
	bool have_hist_names;
};

/*
 * u32 n, then n names, each mapped to this build's index by find(); and
 * when series is not NULL, to the sampled figure a name became
 */
static int get_names(struct rcur *c, int *map, int *series, int max,
		     int (*find)(const char *))
{
	char name[64];
	uint32_t n = rc_u32(c), i;

	if (c->bad || n > (uint32_t)max)
		return -EBADMSG;
	for (i = 0; i < n; i++) {
		rc_str(c, name, sizeof(name));
		if (c->bad)
			return -EBADMSG;
		map[i] = find(name);
		if (series)
			series[i] = rec_legacy_counter_series(name);
	}
	for (; i < (uint32_t)max; i++)
		map[i] = -1;
	return 0;
}

static void get_probe(struct rcur *c, struct facts *f)
{
	struct fact_probe *p;

	if (f->nr_probes >= REC_MAX_PROBES)
		return;
	p = &f->probes[f->nr_probes++];
	p->estimated = rc_u32(c) != 0;
	rc_str(c, p->name, sizeof(p->name));
	rc_str(c, p->mode_name, sizeof(p->mode_name));
	rc_str(c, p->target, sizeof(p->target));
	rc_str(c, p->reason, sizeof(p->reason));
	p->mode = probe_mode_from_name(p->mode_name);
}

/* the devices a per-device series' cells are, in order */
static int get_devs(struct rcur *c, struct facts *f)
{
	uint32_t all = rc_u32(c), n = rc_u32(c), i;

	if (c->bad || n > all || all > INT32_MAX)
		return -EBADMSG;
	f->nr_devs = (int)all;
	/* a newer writer's devices past this build's cells are not read */
	for (i = 0; i < n && i < SAMPLE_DEVS; i++)
		rc_str(c, f->devs[i], sizeof(f->devs[i]));
	return c->bad ? -EBADMSG : 0;
}

static int header_record(struct rcur *c, uint16_t tag, void *ctx)
{
	struct header_ctx *hc = ctx;
	struct rec_header *h = hc->h;
	struct rec_dims *d = &h->dims;
	struct facts *f = &h->f;
	int err;

	switch (tag) {
	case TAG_PCPTOP_VERSION:
		rc_str(c, h->pcptop_version, sizeof(h->pcptop_version));
		break;
	case TAG_START:
		h->start_realtime_ns = rc_u64(c);
		break;
	case TAG_RELEASE:
		rc_str(c, f->release, sizeof(f->release));
		break;
	case TAG_ARCH:
		rc_str(c, f->arch, sizeof(f->arch));
		break;
	case TAG_HOSTNAME:
		rc_str(c, f->hostname, sizeof(f->hostname));
		break;
	case TAG_DIMS:
		d->nr_cpus = rc_u32(c);
		d->hist_slots = rc_u32(c);
		d->max_zones = rc_u32(c);
		d->nr_hists = rc_u32(c);
		d->order_slots = rc_u32(c);
		d->mt_slots = rc_u32(c);
		d->nr_counters = rc_u32(c);
		if (!c->bad && !dims_sane(d))
			return -EBADMSG;
		hc->have_dims = !c->bad;
		break;
	case TAG_COUNTER_NAMES:
		err = get_names(c, h->cnt_map, h->cnt_series, REC_MAX_COUNTERS,
				counter_find);
		if (err)
			return err;
		hc->have_counter_names = true;
		break;
	case TAG_HIST_NAMES:
		err = get_names(c, h->hist_map, NULL, REC_MAX_DIM, hist_find);
		if (err)
			return err;
		hc->have_hist_names = true;
		break;
	case TAG_INTERVAL:
		h->interval_ns = rc_u64(c);
		break;
	case TAG_PROBE:
		get_probe(c, f);
		break;
	case TAG_MODE_SUMMARY:
		rc_str(c, f->mode_summary, sizeof(f->mode_summary));
		break;
	case TAG_FALLBACK:
		rc_str(c, f->fallback, sizeof(f->fallback));
		break;
	case TAG_BTF_SOURCE:
		rc_str(c, f->btf_source, sizeof(f->btf_source));
		break;
	case TAG_SCALE:
		get_scale(c, &f->scale);
		break;
	case TAG_ZONE:
		return get_zone(c, &f->zones);
	case TAG_ZONES_ERR:
		f->zones_err = -rc_i32(c);
		break;
	case TAG_PAGEBLOCK:
		f->pageblock_order = rc_i32(c);
		f->pages_per_block = rc_i32(c);
		f->pageblock_err = 0;
		break;
	case TAG_HIGH_FRACTION:
		f->high_fraction = (long)rc_u64(c);
		f->high_fraction_err = 0;
		break;
	case TAG_ATTACH_OPTS:
		f->run_gap_ns = rc_u64(c);
		f->run_cap_pages = rc_u64(c);
		f->cross_check = rc_u32(c) != 0;
		break;
	case TAG_COMMAND:
		return get_argv(c, &h->argc, &h->argv);
	case TAG_SAMPLE_SERIES:
		return rec_series_decode(c, h);
	case TAG_BLOCK_DEVS:
		return get_devs(c, f);
	case TAG_PSI_ABSENT:
		rc_str(c, f->psi_absent, sizeof(f->psi_absent));
		break;
	default:
		/* a newer writer's fact: skip it */
		break;
	}
	return c->bad ? -EBADMSG : 0;
}

/* the counters and histograms the file holds: a figure needs its own */
static void kept_arrays(struct rec_header *h)
{
	uint32_t i;

	memset(h->f.counted, 0, sizeof(h->f.counted));
	memset(h->f.hist_kept, 0, sizeof(h->f.hist_kept));
	for (i = 0; i < h->dims.nr_counters && i < REC_MAX_COUNTERS; i++)
		if (h->cnt_map[i] >= 0 && h->cnt_map[i] < NR_PCPTOP_COUNTERS)
			h->f.counted[h->cnt_map[i]] = true;
	for (i = 0; i < h->dims.nr_hists && i < REC_MAX_DIM; i++)
		if (h->hist_map[i] >= 0 && h->hist_map[i] < NR_PCPTOP_HISTS)
			h->f.hist_kept[h->hist_map[i]] = true;
}

int rec_header_decode(const void *p, size_t len, struct rec_header *h,
		      char *msg, size_t msglen)
{
	struct header_ctx hc = { .h = h };
	int err, i;

	memset(h, 0, sizeof(*h));
	facts_init(&h->f);
	for (i = 0; i < REC_MAX_COUNTERS; i++)
		h->cnt_series[i] = -1;
	err = walk_records(p, len, "header", header_record, &hc, msg, msglen);
	if (!err && !hc.have_dims) {
		snprintf(msg, msglen, "header has no array dimensions");
		err = -EBADMSG;
	}
	if (!err && hc.have_counter_names != hc.have_hist_names) {
		snprintf(msg, msglen, "header names its %s but not its %s",
			 hc.have_counter_names ? "counters" : "histograms",
			 hc.have_counter_names ? "histograms" : "counters");
		err = -EBADMSG;
	}
	if (!err) {
		h->have_names = hc.have_counter_names;
		if (!h->have_names)
			rec_legacy_maps(h);
		kept_arrays(h);
	}
	if (err)
		rec_header_free(h);
	return err;
}

void rec_header_free(struct rec_header *h)
{
	int i;

	facts_free(&h->f);
	for (i = 0; i < h->argc; i++)
		free(h->argv[i]);
	free(h->argv);
	h->argv = NULL;
	h->argc = 0;
}

void rec_argv_join(int argc, char *const *argv, char *buf, size_t len)
{
	size_t used = 0;
	int i, n;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < argc && used < len; i++) {
		const char *a = argv[i];
		bool quote = !a[0] || strpbrk(a, " \t\n'\"\\$`") != NULL;

		n = snprintf(buf + used, len - used, "%s%s%s%s", i ? " " : "",
			     quote ? "'" : "", a, quote ? "'" : "");
		if (n < 0)
			break;
		used += (size_t)n;
	}
}
