// SPDX-License-Identifier: GPL-2.0-only
/*
 * Finding rows of the figure table and what they hold: lookups by key,
 * the modes a row is measured and estimated in, the layout of the sampled
 * rows' cells, and the names of the dimensions' slots. figtab.c is the
 * table itself.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "figtab.h"

/* where each sampled row's cells start, for the table in use */
static int cell_base[FIGTAB_MAX];
static int nr_cells;
static const struct fig_desc *laid_out;

static void lay_out(void)
{
	int i, n = 0;

	for (i = 0; i < nr_figs; i++) {
		cell_base[i] = n;
		n += sample_cells(&fig_table[i]);
	}
	nr_cells = n;
	laid_out = fig_table;
}

int figtab_use(const struct fig_desc *table, int n)
{
	int i;

	if (!table)
		table = figtab_builtin(&n);
	if (n > FIGTAB_MAX)
		return -E2BIG;
	for (i = 0; i < n; i++)
		if (table[i].type == FIG_SAMPLED &&
		    (!table[i].sample.field || !table[i].sample.unit))
			return -EINVAL;
	fig_table = table;
	nr_figs = n;
	lay_out();
	return 0;
}

int fig_index(const struct fig_desc *d)
{
	return (int)(d - fig_table);
}

int fig_split_slot(const struct fig_desc *d, int k)
{
	int i, j, n = 0;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *e = &fig_table[i];

		if (e->type != FIG_SPLIT)
			continue;
		for (j = 0; j < FIG_MAX_PARTS && e->parts[j].key; j++, n++)
			if (e == d && j == k)
				return n < FIGTAB_MAX_SPLIT_VALUES ? n : -1;
	}
	return -1;
}

const char *fig_batch_unit(const struct fig_desc *d)
{
	return d->unit ? d->unit : "pages";
}

const char *fig_pages_key(const struct fig_desc *d)
{
	return d->pages_key ? d->pages_key : "pages";
}

bool fig_is_wall(const struct fig_desc *d)
{
	if (d->type == FIG_SAMPLED)
		return d->sample.src == SRC_STAT || d->sample.src == SRC_PSI ||
		       d->sample.src == SRC_BLOCK;
	return d->flags & FIG_WALL;
}

int sample_instances(enum sample_scope scope)
{
	switch (scope) {
	case SCOPE_ZONE:
	case SCOPE_ZONE_ORDER:
		return SAMPLE_ZONES;
	case SCOPE_CPU:
		return SAMPLE_CPUS;
	case SCOPE_DEV:
		return SAMPLE_DEVS;
	default:
		return 0;
	}
}

int sample_cells(const struct fig_desc *d)
{
	if (d->type != FIG_SAMPLED)
		return 0;
	if (d->sample.scope == SCOPE_ZONE_ORDER)
		return 1 + SAMPLE_ZONES + SAMPLE_ZONES * SAMPLE_ORDERS;
	return 1 + sample_instances(d->sample.scope);
}

int sample_cell_base(const struct fig_desc *d)
{
	if (laid_out != fig_table)
		lay_out();
	return cell_base[fig_index(d)];
}

int sample_nr_cells(void)
{
	if (laid_out != fig_table)
		lay_out();
	return nr_cells;
}

const char *sample_src_name(enum sample_src src)
{
	static const char *const names[NR_SAMPLE_SRCS] = {
		[SRC_VMSTAT] = "/proc/vmstat",
		[SRC_ZONEINFO] = "/proc/zoneinfo",
		[SRC_BUDDYINFO] = "/proc/buddyinfo",
		[SRC_PROG] = "program statistics",
		[SRC_STAT] = "/proc/stat",
		[SRC_PSI] = "/proc/pressure",
		[SRC_BLOCK] = "/sys/block/*/stat",
	};

	return (unsigned int)src < NR_SAMPLE_SRCS ? names[src] : "?";
}

const char *sample_kind_name(enum sample_kind kind)
{
	return kind == SAMPLE_COUNTER ? "counter" : "gauge";
}

const char *counter_key(int counter)
{
	if (counter < 0 || counter >= NR_PCPTOP_COUNTERS)
		return NULL;
	return counter_table[counter].key;
}

int counter_find(const char *key)
{
	int i;

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		if (!strcmp(counter_table[i].key, key))
			return i;
	return -1;
}

int hist_find(const char *key)
{
	int i;

	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		if (!strcmp(hist_table[i].key, key))
			return i;
	return -1;
}

const struct fig_desc *fig_find(const char *key)
{
	int i;

	for (i = 0; i < nr_figs; i++)
		if (!strcmp(fig_table[i].key, key))
			return &fig_table[i];
	return NULL;
}

static bool avail_in(unsigned int avail, enum probe_mode mode)
{
	if ((unsigned int)mode >= NR_PROBE_MODES || mode == MODE_NONE)
		return false;
	return !avail || (avail & PROBE_MODE_BIT(mode));
}

bool fig_measured(const struct fig_desc *d, enum probe_mode mode)
{
	return avail_in(d->avail, mode);
}

bool hist_measured(const struct hist_desc *h, enum probe_mode mode)
{
	return avail_in(h->avail, mode);
}

bool fig_events_estimated(const struct fig_desc *d, enum probe_mode mode)
{
	return (unsigned int)mode < NR_PROBE_MODES &&
	       (d->est_events & PROBE_MODE_BIT(mode));
}

bool fig_pages_estimated(const struct fig_desc *d, enum probe_mode mode)
{
	return (unsigned int)mode < NR_PROBE_MODES &&
	       (d->est_pages & PROBE_MODE_BIT(mode));
}

static const char *const order_names[PCPTOP_ORDER_SLOTS] = { "0", "1", "2", "3",
							     "4+" };
static const char *const path_names[NR_LAT_DIRS][NR_LAT_PATHS] = {
	[LAT_ALLOC] = { "pcp", "refill" },
	[LAT_FREE] = { "pcp", "flush" },
};
static const char *const mt_names[PCPTOP_MT_SLOTS] = { "Unmovable", "Movable",
						       "Reclaimable", "CMA",
						       "other" };

const char *lat_order_name(int order_slot)
{
	return order_slot >= 0 && order_slot < PCPTOP_ORDER_SLOTS ?
		       order_names[order_slot] :
		       "?";
}

const char *lat_path_name(int dir, int path)
{
	return dir >= 0 && dir < NR_LAT_DIRS && path >= 0 &&
			       path < NR_LAT_PATHS ?
		       path_names[dir][path] :
		       "?";
}

const char *lat_hist_key(int dir)
{
	return dir == LAT_ALLOC ? "alloc_ns" : "free_ns";
}

const char *mt_slot_name(int mt_slot)
{
	return mt_slot >= 0 && mt_slot < PCPTOP_MT_SLOTS ? mt_names[mt_slot] :
							   "?";
}
