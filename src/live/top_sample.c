// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live view's sampling, apart from top.c (the command) and
 * top_screen.c (the terminal), which both call it: one interval into the
 * spare top_data, shown unless the view is paused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include "clock.h"
#include "system.h"
#include "top.h"

void top_set_msg(struct top_view *v, double secs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
	v->msg_until = clock_mono_s() + secs;
}

void top_show_latest(struct top_state *s)
{
	struct top_data *t = s->shown;

	s->shown = s->latest;
	s->latest = t;
	s->latest_new = false;
	top_rows_build(&s->ctx, &s->view, s->shown);
}

/* one interval into s->latest; shown at once unless the display is paused */
int top_sample(struct top_state *s)
{
	struct top_data *d = s->latest;
	double now;
	int err;

	err = system_sample(s->sys, d->snap);
	if (err)
		return err;
	now = clock_mono_s();
	d->secs = now - s->last_sample;
	d->when = time(NULL);
	s->last_sample = now;
	cost_sample(&s->cost, &s->sys->a, &d->cost);
	s->latest_new = true;
	if (!s->view.paused)
		top_show_latest(s);
	return 0;
}
