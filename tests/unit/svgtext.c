// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reads the <text> of a page's <svg> charts as boxes (svgtext.h). The
 * height of a box is the font's ascent above the baseline and its
 * descent below, rounded up, so that two lines closer than a browser
 * draws them count as over each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "svgtext.h"
#include "unit.h"

#define ASCENT_EM 0.95
#define DESCENT_EM 0.25
/* a browser's size for text no style or attribute sizes */
#define DEFAULT_PX 16
#define ATTR_LEN 64

/* the value of name="..." inside the tag [tag, end), into buf */
static bool attr(const char *tag, const char *end, const char *name, char *buf,
		 size_t len)
{
	char key[ATTR_LEN];
	const char *v, *q;
	size_t n;

	snprintf(key, sizeof(key), " %s=\"", name);
	v = strstr(tag, key);
	if (!v || v >= end)
		return false;
	v += strlen(key);
	q = strchr(v, '"');
	if (!q || q >= end)
		return false;
	n = (size_t)(q - v) < len - 1 ? (size_t)(q - v) : len - 1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return true;
}

static double attr_num(const char *tag, const char *end, const char *name,
		       double dflt)
{
	char buf[ATTR_LEN];

	return attr(tag, end, name, buf, sizeof(buf)) ? atof(buf) : dflt;
}

/* the page's CSS rule sel{...}: what it says after prop, or NULL */
static const char *css(const char *page, const char *sel, const char *prop)
{
	const char *r = strstr(page, sel), *e, *p;

	if (!r)
		return NULL;
	e = strchr(r, '}');
	p = strstr(r, prop);
	return p && e && p < e ? p + strlen(prop) : NULL;
}

/* s's text from its tag's end to </text>, entities decoded */
static void text_of(const char *from, const char *to, char *buf, size_t len)
{
	static const char *const ent[][2] = {
		{ "&lt;", "<" },
		{ "&gt;", ">" },
		{ "&amp;", "&" },
		{ "&quot;", "\"" },
	};
	size_t n = 0, k;

	while (from < to && n + 1 < len) {
		for (k = 0; k < sizeof(ent) / sizeof(ent[0]); k++)
			if (!strncmp(from, ent[k][0], strlen(ent[k][0])))
				break;
		if (k < sizeof(ent) / sizeof(ent[0])) {
			buf[n++] = ent[k][1][0];
			from += strlen(ent[k][0]);
		} else {
			buf[n++] = *from++;
		}
	}
	buf[n] = '\0';
}

/* rotate(a cx cy) by a quarter turn either way, applied to t's box */
static void rotate(struct svgt_text *t, const char *tr)
{
	double a, cx, cy, x0 = t->x0, x1 = t->x1, y0 = t->y0, y1 = t->y1;

	if (sscanf(tr, "rotate(%lf %lf %lf)", &a, &cx, &cy) != 3 ||
	    (a != -90 && a != 90)) {
		t->unread = true;
		return;
	}
	/* y runs down: -90 takes (dx, dy) from the centre to (dy, -dx) */
	if (a == -90) {
		t->x0 = cx + (y0 - cy);
		t->x1 = cx + (y1 - cy);
		t->y0 = cy - (x1 - cx);
		t->y1 = cy - (x0 - cx);
	} else {
		t->x0 = cx - (y1 - cy);
		t->x1 = cx - (y0 - cy);
		t->y0 = cy + (x0 - cx);
		t->y1 = cy + (x1 - cx);
	}
}

/* one <text ...>...</text> at tag of the chart whose <svg> tag is svg */
static void read_text(const char *page, const char *svg, const char *svg_end,
		      const char *tag, struct svgt_text *t)
{
	const char *end = strchr(tag, '>'), *close, *c;
	char buf[ATTR_LEN];
	bool title, bold;
	double px, w;

	memset(t, 0, sizeof(*t));
	close = end ? strstr(end, "</text>") : NULL;
	if (!end || !close) {
		t->unread = true;
		return;
	}
	text_of(end + 1, close, t->s, sizeof(t->s));
	title = attr(tag, end, "class", buf, sizeof(buf)) &&
		!strcmp(buf, "title");
	/* a size from the page's style wins over the attributes */
	c = css(page, title ? "svg .title{" : "svg text{", "font-size:");
	if (!c && title)
		c = css(page, "svg text{", "font-size:");
	px = c ? atof(c) :
		 attr_num(tag, end, "font-size",
			  attr_num(svg, svg_end, "font-size", DEFAULT_PX));
	bold = (title && css(page, "svg .title{", "font-weight:bold")) ||
	       (attr(tag, end, "font-weight", buf, sizeof(buf)) &&
		!strcmp(buf, "bold"));
	t->x = attr_num(tag, end, "x", 0);
	t->y = attr_num(tag, end, "y", 0);
	w = svg_text_width(t->s, px, bold);
	t->x0 = t->x;
	if (attr(tag, end, "text-anchor", buf, sizeof(buf))) {
		if (!strcmp(buf, "middle"))
			t->x0 -= w / 2;
		else if (!strcmp(buf, "end"))
			t->x0 -= w;
		else if (strcmp(buf, "start"))
			t->unread = true;
	}
	t->x1 = t->x0 + w;
	t->y0 = t->y - ASCENT_EM * px;
	t->y1 = t->y + DESCENT_EM * px;
	if (attr(tag, end, "transform", buf, sizeof(buf)))
		rotate(t, buf);
}

const char *svgt_next(const char *page, const char *from, struct svgt_chart *c)
{
	const char *svg = strstr(from, "<svg"), *svg_end, *close, *p;

	if (!svg)
		return NULL;
	svg_end = strchr(svg, '>');
	close = strstr(svg, "</svg>");
	if (!svg_end || !close)
		return NULL;
	memset(c, 0, sizeof(*c));
	if (!attr(svg, svg_end, "aria-label", c->label, sizeof(c->label)))
		snprintf(c->label, sizeof(c->label), "(no aria-label)");
	c->w = attr_num(svg, svg_end, "width", 0);
	c->h = attr_num(svg, svg_end, "height", 0);
	for (p = strstr(svg_end, "<text"); p && p < close;
	     p = strstr(p + 1, "<text")) {
		if (p[5] != ' ' && p[5] != '>')
			continue;
		if (c->n == SVGT_MAX_TEXTS) {
			c->too_many = true;
			break;
		}
		read_text(page, svg, svg_end, p, &c->t[c->n++]);
	}
	return close + strlen("</svg>");
}

static bool over(const struct svgt_text *a, const struct svgt_text *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

int svgt_faults(const struct svgt_chart *c, const char *what)
{
	const struct svgt_text *a, *b;
	int faults = 0, i, j;

	if (c->too_many) {
		unit_fail(__FILE__, __LINE__, "%s, \"%s\": over %d texts", what,
			  c->label, SVGT_MAX_TEXTS);
		faults++;
	}
	for (i = 0; i < c->n; i++) {
		a = &c->t[i];
		if (a->unread) {
			unit_fail(__FILE__, __LINE__,
				  "%s, \"%s\": \"%s\" could not be read", what,
				  c->label, a->s);
			faults++;
			continue;
		}
		if (a->x0 < 0 || a->y0 < 0 || a->x1 > c->w || a->y1 > c->h) {
			unit_fail(
				__FILE__, __LINE__,
				"%s, \"%s\": \"%s\" (%.0f..%.0f, %.0f..%.0f) out of the %.0f x %.0f chart",
				what, c->label, a->s, a->x0, a->x1, a->y0,
				a->y1, c->w, c->h);
			faults++;
		}
		for (j = i + 1; j < c->n; j++) {
			b = &c->t[j];
			if (b->unread || !over(a, b))
				continue;
			unit_fail(
				__FILE__, __LINE__,
				"%s, \"%s\": \"%s\" (%.0f..%.0f, %.0f..%.0f) over \"%s\" (%.0f..%.0f, %.0f..%.0f)",
				what, c->label, a->s, a->x0, a->x1, a->y0,
				a->y1, b->s, b->x0, b->x1, b->y0, b->y1);
			faults++;
		}
	}
	return faults;
}

int svgt_check_page(const char *page, const char *what, int *charts)
{
	struct svgt_chart *c = malloc(sizeof(*c));
	const char *p = page;
	int faults = 0;

	*charts = 0;
	if (!c) {
		unit_fail(__FILE__, __LINE__, "%s: out of memory", what);
		return 1;
	}
	while ((p = svgt_next(page, p, c))) {
		(*charts)++;
		faults += svgt_faults(c, what);
	}
	free(c);
	return faults;
}
