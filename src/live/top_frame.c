// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live view's frames (lines of plain text, cut to the screen's width)
 * and its number formats, for every part that draws: top_draw.c,
 * top_system.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "top.h"

#define FRAME_LINES_START 64
#define KILO 1000.0
#define NS_PER_US 1e3
#define NS_PER_MS 1e6
#define NS_PER_S 1e9
#define ONE_DECIMAL_BELOW 10.0

int top_frame_init(struct top_frame *f, int cols, int rows)
{
	memset(f, 0, sizeof(*f));
	f->lines = calloc(FRAME_LINES_START, sizeof(*f->lines));
	if (!f->lines)
		return -ENOMEM;
	f->cap = FRAME_LINES_START;
	top_frame_reset(f, cols, rows);
	return 0;
}

void top_frame_free(struct top_frame *f)
{
	free(f->lines);
	f->lines = NULL;
	f->cap = 0;
}

void top_frame_reset(struct top_frame *f, int cols, int rows)
{
	f->nr = 0;
	f->oom = false;
	f->cols = cols < TOP_LINE_LEN ? cols : TOP_LINE_LEN - 1;
	f->rows = rows;
}

static bool frame_full(const struct top_frame *f)
{
	return f->rows && f->nr >= f->rows;
}

/* a new line, cut to the frame's width; NULL when the screen is full */
struct top_line *top_frame_add(struct top_frame *f, unsigned int attr,
			       const char *fmt, ...)
{
	struct top_line *l;
	va_list ap;

	if (frame_full(f) || f->cols <= 0)
		return NULL;
	if (f->nr == f->cap) {
		struct top_line *n = realloc(f->lines, 2 * f->cap * sizeof(*n));

		if (!n) {
			f->oom = true;
			return NULL;
		}
		f->lines = n;
		f->cap *= 2;
	}
	l = &f->lines[f->nr++];
	memset(l, 0, sizeof(*l));
	l->attr = attr;
	va_start(ap, fmt);
	vsnprintf(l->text, (size_t)f->cols + 1, fmt, ap);
	va_end(ap);
	return l;
}

void top_frame_print(const struct top_frame *f, FILE *out)
{
	int i;

	for (i = 0; i < f->nr; i++) {
		const char *t = f->lines[i].text;
		int n = (int)strlen(t);

		while (n > 0 && t[n - 1] == ' ')
			n--;
		fprintf(out, "%.*s\n", n, t);
	}
}

/* ---- numbers ---- */

void top_fmt_num(char *buf, int width, double v)
{
	static const char suffix[] = "kMGT";
	double scaled = v;
	int i;

	if (v < 0) {
		snprintf(buf, TOP_NUM_LEN, "-");
		return;
	}
	if (v < ONE_DECIMAL_BELOW && v != (double)(long long)v) {
		snprintf(buf, TOP_NUM_LEN, "%.1f", v);
		return;
	}
	if (snprintf(buf, TOP_NUM_LEN, "%.0f", v) <= width)
		return;
	for (i = 0; suffix[i]; i++) {
		scaled /= KILO;
		if (scaled < ONE_DECIMAL_BELOW &&
		    snprintf(buf, TOP_NUM_LEN, "%.1f%c", scaled, suffix[i]) <=
			    width)
			return;
		if (snprintf(buf, TOP_NUM_LEN, "%.0f%c", scaled, suffix[i]) <=
		    width)
			return;
	}
}

void top_fmt_ns(char *buf, size_t len, double ns)
{
	if (ns < 0)
		snprintf(buf, len, "-");
	else if (ns < NS_PER_US)
		snprintf(buf, len, "%.0fns", ns);
	else if (ns < ONE_DECIMAL_BELOW * NS_PER_US)
		snprintf(buf, len, "%.1fus", ns / NS_PER_US);
	else if (ns < NS_PER_MS)
		snprintf(buf, len, "%.0fus", ns / NS_PER_US);
	else if (ns < ONE_DECIMAL_BELOW * NS_PER_MS)
		snprintf(buf, len, "%.1fms", ns / NS_PER_MS);
	else if (ns < NS_PER_S)
		snprintf(buf, len, "%.0fms", ns / NS_PER_MS);
	else
		snprintf(buf, len, "%.1fs", ns / NS_PER_S);
}
