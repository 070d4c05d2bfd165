// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "samples.h"

int samples_alloc(struct samples *s)
{
	s->nr = sample_nr_cells();
	s->c = calloc(s->nr ? s->nr : 1, sizeof(*s->c));
	if (!s->c) {
		s->nr = 0;
		return -ENOMEM;
	}
	return 0;
}

void samples_free(struct samples *s)
{
	free(s->c);
	s->c = NULL;
	s->nr = 0;
}

void samples_clear(struct samples *s)
{
	if (s->c)
		memset(s->c, 0, (size_t)s->nr * sizeof(*s->c));
}

static struct sample_cell *cell_of(struct samples *s, const struct fig_desc *d,
				   int cell)
{
	int i = sample_cell_base(d) + cell;

	if (cell < 0 || cell >= sample_cells(d) || i >= s->nr)
		return NULL;
	return &s->c[i];
}

/* one reading on its own: what an interval keeps */
static void reading(struct sample_cell *c, int64_t v)
{
	c->last = c->total = c->peak = v;
	c->sum = (double)v;
	c->n = 1;
}

void samples_set(struct samples *s, const struct fig_desc *d, int zone,
		 int64_t v)
{
	struct sample_cell *c;

	if (d->sample.scope == SCOPE_MACHINE && zone < 0)
		c = cell_of(s, d, 0);
	else if (d->sample.scope != SCOPE_MACHINE &&
		 d->sample.scope != SCOPE_ZONE_ORDER && zone >= 0 &&
		 zone < sample_instances(d->sample.scope))
		c = cell_of(s, d, sample_zone_cell(zone));
	else
		return;
	if (c)
		reading(c, v);
}

void samples_set_sum(struct samples *s, const struct fig_desc *d, int64_t v)
{
	struct sample_cell *c = cell_of(s, d, 0);

	if (c)
		reading(c, v);
}

void samples_set_order(struct samples *s, const struct fig_desc *d, int zone,
		       int order, int64_t v)
{
	struct sample_cell *c;

	if (d->sample.scope != SCOPE_ZONE_ORDER || zone < 0 ||
	    zone >= SAMPLE_ZONES || order < 0 || order >= SAMPLE_ORDERS)
		return;
	c = cell_of(s, d, sample_order_cell(zone, order));
	if (c)
		reading(c, v);
}

/*
 * The readings of cells first..first + n - 1 (stride apart) into cell
 * into: a cell that was not read stays out of the sum, a sum no cell has
 * is absent, and so is one past INT64 (no real zone has it).
 */
static void sum_cells(struct samples *s, const struct fig_desc *d, int into,
		      int first, int n, int stride)
{
	struct sample_cell *all = cell_of(s, d, into);
	int64_t sum = 0;
	bool any = false, over = false;
	int k;

	if (!all)
		return;
	for (k = 0; k < n; k++) {
		const struct sample_cell *c = cell_of(s, d, first + k * stride);

		if (!c || !c->n)
			continue;
		if ((c->last > 0 && sum > INT64_MAX - c->last) ||
		    (c->last < 0 && sum < INT64_MIN - c->last))
			over = true;
		else
			sum += c->last;
		any = true;
	}
	memset(all, 0, sizeof(*all));
	if (any && !over)
		reading(all, sum);
}

void samples_sum_zones(struct samples *s)
{
	int i, z;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type != FIG_SAMPLED || d->sample.scope == SCOPE_MACHINE)
			continue;
		for (z = 0;
		     d->sample.scope == SCOPE_ZONE_ORDER && z < SAMPLE_ZONES;
		     z++)
			sum_cells(s, d, sample_zone_cell(z),
				  sample_order_cell(z, 0), SAMPLE_ORDERS, 1);
		sum_cells(s, d, 0, sample_zone_cell(0),
			  sample_instances(d->sample.scope), 1);
	}
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

void samples_add(struct samples *dst, const struct samples *src)
{
	int i;

	for (i = 0; i < dst->nr && i < src->nr; i++) {
		struct sample_cell *d = &dst->c[i];
		const struct sample_cell *c = &src->c[i];

		if (!c->n)
			continue;
		d->peak = d->n ? max64(d->peak, c->peak) : c->peak;
		d->last = c->last;
		d->total += c->total;
		d->sum += c->sum;
		d->n += c->n;
	}
}

const struct sample_cell *samples_cell(const struct samples *s,
				       const struct fig_desc *d, int cell)
{
	return cell_of((struct samples *)s, d, cell);
}

bool sample_present(const struct sample_cell *c)
{
	return c && c->n;
}

int64_t sample_value(const struct fig_desc *d, const struct sample_cell *c)
{
	if (!sample_present(c))
		return 0;
	return d->sample.kind == SAMPLE_COUNTER ? c->total : c->last;
}

double sample_mean(const struct sample_cell *c)
{
	return sample_present(c) ? c->sum / c->n : 0.0;
}
