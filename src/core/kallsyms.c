// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms, read fast: big read()s and memchr, the address parsed
 * only on the lines asked for. Through zlib's line reader a pass took
 * three times a plain read of the file, which is almost all the kernel
 * printing the lines (docs/PERFORMANCE.md, "Figures the code's comments
 * cite").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kallsyms.h"

#define READ_CHUNK (256 * 1024)
#define NAME_MAX_LEN 128
#define PATH_LEN 256

struct want {
	const char *const *syms;
	size_t len[KALLSYMS_CACHE_MAX];
	int n;
	int left; /* names not found with a nonzero address yet */
	unsigned long long *addrs;
	bool *listed; /* listed, perhaps with address 0 */
	/*
	 * The text of each name and of its compiler parts ("name.cold",
	 * "name.constprop.0"), NULL when not asked for. A text ends where
	 * the next higher address starts: the kernel lists its own symbols
	 * in address order, so that is a line soon after; pending counts
	 * the ranges still waiting for it.
	 */
	struct kallsyms_range *ranges;
	int max_ranges;
	int nr_ranges;
	int pending;
};

struct scan_out {
	bool listed_any;
	bool nonzero_any;
};

/* what one prefetch learned, for the lookups that follow */
static struct {
	bool valid;
	char path[PATH_LEN];
	int n;
	char names[KALLSYMS_CACHE_MAX][NAME_MAX_LEN];
	unsigned long long addrs[KALLSYMS_CACHE_MAX];
	bool listed[KALLSYMS_CACHE_MAX];
	struct kallsyms_range ranges[KALLSYMS_MAX_RANGES];
	int nr_ranges;
	struct scan_out out;
} cache;

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static unsigned long long parse_addr(const char *s)
{
	unsigned long long a = 0;
	int v;

	for (; (v = hexval(*s)) >= 0; s++)
		a = a << 4 | (unsigned long long)v;
	return a;
}

/* a listed address closes the text of the symbols found before it */
static void close_ranges(struct want *w, unsigned long long a)
{
	int i;

	for (i = 0; i < w->nr_ranges; i++) {
		if (w->ranges[i].hi || a <= w->ranges[i].lo)
			continue;
		w->ranges[i].hi = a;
		w->pending--;
	}
}

/* name is sym, or a part the compiler split off it: "sym.cold" */
static bool is_part(const char *name, size_t len, const char *sym,
		    size_t sym_len)
{
	return len >= sym_len && !memcmp(name, sym, sym_len) &&
	       (len == sym_len || name[sym_len] == '.');
}

static void add_range(struct want *w, int i, const char *addr)
{
	struct kallsyms_range *r;

	if (w->nr_ranges >= w->max_ranges)
		return;
	r = &w->ranges[w->nr_ranges++];
	r->sym = i;
	r->lo = parse_addr(addr);
	r->hi = 0;
	w->pending++;
}

/* "ffffffff81630330 t free_pcppages_bulk\t[module]": one line, no '\n' */
static void scan_line(const char *s, const char *end, struct want *w,
		      struct scan_out *o)
{
	const char *addr = s, *name, *name_end;
	bool nonzero = false;
	size_t len;
	int i;

	while (s < end && hexval(*s) >= 0) {
		nonzero |= *s != '0';
		s++;
	}
	if (w->pending > 0 && nonzero && s != addr)
		close_ranges(w, parse_addr(addr));
	/* address, blank, type letter, blank, name */
	if (s == addr || s + 3 >= end || s[0] != ' ' || s[2] != ' ')
		return;
	name = s + 3;
	name_end = name;
	while (name_end < end && *name_end != '\t' && *name_end != ' ')
		name_end++;
	if (name_end == name)
		return;
	o->listed_any = true;
	o->nonzero_any |= nonzero;
	len = (size_t)(name_end - name);
	for (i = 0; i < w->n; i++) {
		if (!w->syms[i])
			continue;
		/* a module's symbol ("\t[mod]" follows) is not the kernel's text */
		if (w->ranges && nonzero && name_end == end &&
		    is_part(name, len, w->syms[i], w->len[i]))
			add_range(w, i, addr);
		if (w->addrs[i] || w->len[i] != len ||
		    memcmp(name, w->syms[i], w->len[i]))
			continue;
		w->listed[i] = true;
		if (!nonzero)
			continue;
		/* the first listing with an address wins, as kallsyms_lookup() has it */
		w->addrs[i] = parse_addr(addr);
		w->left--;
	}
}

/* one pass; stops once every name has an address and one was nonzero */
static int scan(const char *path, struct want *w, struct scan_out *o)
{
	char *buf, *line, *nl, *end;
	size_t have = 0;
	ssize_t got;
	int fd, err = 0;

	memset(o, 0, sizeof(*o));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(READ_CHUNK);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		got = read(fd, buf + have, READ_CHUNK - have);
		if (got < 0) {
			err = -errno;
			break;
		}
		end = buf + have + got;
		line = buf;
		while ((nl = memchr(line, '\n', (size_t)(end - line)))) {
			scan_line(line, nl, w, o);
			line = nl + 1;
		}
		if (got == 0) {
			/* a last line without its newline */
			if (line < end)
				scan_line(line, end, w, o);
			break;
		}
		/* a name's parts may come later: ranges read to the end */
		if (w->left <= 0 && o->nonzero_any && !w->ranges)
			break;
		have = (size_t)(end - line);
		/* a line longer than the buffer is no kallsyms line */
		if (have == READ_CHUNK)
			have = 0;
		memmove(buf, line, have);
	}
	free(buf);
	close(fd);
	return err;
}

static void want_init(struct want *w, const char *const *syms, int n,
		      unsigned long long *addrs, bool *listed)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->syms = syms;
	w->n = n;
	w->addrs = addrs;
	w->listed = listed;
	for (i = 0; i < n; i++) {
		addrs[i] = 0;
		listed[i] = false;
		w->len[i] = syms[i] ? strlen(syms[i]) : 0;
		w->left += syms[i] != NULL;
	}
}

/* index of sym in the cache of path, or -1 */
static int cached(const char *path, const char *sym)
{
	int i;

	if (!cache.valid || strcmp(cache.path, path))
		return -1;
	for (i = 0; sym && i < cache.n; i++)
		if (!strcmp(cache.names[i], sym))
			return i;
	return sym ? -1 : 0;
}

int kallsyms_prefetch(const char *path, const char *const *syms, int n)
{
	struct want w;
	int i, err;

	kallsyms_forget();
	if (n > KALLSYMS_CACHE_MAX || strlen(path) >= PATH_LEN)
		return -E2BIG;
	for (i = 0; i < n; i++)
		if (syms[i] && strlen(syms[i]) >= NAME_MAX_LEN)
			return -E2BIG;
	want_init(&w, syms, n, cache.addrs, cache.listed);
	w.ranges = cache.ranges;
	w.max_ranges = KALLSYMS_MAX_RANGES;
	err = scan(path, &w, &cache.out);
	if (err)
		return err;
	cache.nr_ranges = w.nr_ranges;
	for (i = 0; i < n; i++)
		snprintf(cache.names[i], NAME_MAX_LEN, "%s",
			 syms[i] ? syms[i] : "");
	snprintf(cache.path, sizeof(cache.path), "%s", path);
	cache.n = n;
	cache.valid = true;
	return 0;
}

void kallsyms_forget(void)
{
	memset(&cache, 0, sizeof(cache));
}

const void *kallsyms_state(size_t *len)
{
	*len = sizeof(cache);
	return cache.valid ? &cache : NULL;
}

int kallsyms_state_set(const void *buf, size_t len, const char *path,
		       const char *const *syms, int n)
{
	static typeof(cache) in;
	int i;

	if (len != sizeof(in))
		return -EBADMSG;
	memcpy(&in, buf, len);
	/* a copy for other names, another file or a damaged one: not ours */
	if (!in.valid || in.n != n || n > KALLSYMS_CACHE_MAX ||
	    in.nr_ranges < 0 || in.nr_ranges > KALLSYMS_MAX_RANGES ||
	    strncmp(in.path, path, PATH_LEN))
		return -ESTALE;
	for (i = 0; i < n; i++)
		if (strncmp(in.names[i], syms[i] ? syms[i] : "", NAME_MAX_LEN))
			return -ESTALE;
	for (i = 0; i < in.nr_ranges; i++)
		if (in.ranges[i].sym < 0 || in.ranges[i].sym >= n)
			return -EBADMSG;
	cache = in;
	return 0;
}

int kallsyms_lookup_many(const char *path, const char *const *syms, int n,
			 unsigned long long *addrs)
{
	bool listed[KALLSYMS_CACHE_MAX];
	struct scan_out o;
	struct want w;
	int i, c;

	if (n > KALLSYMS_CACHE_MAX)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		c = syms[i] ? cached(path, syms[i]) : -2;
		if (c == -1)
			break;
		addrs[i] = c >= 0 ? cache.addrs[c] : 0;
	}
	if (i == n)
		return 0;
	want_init(&w, syms, n, addrs, listed);
	return scan(path, &w, &o);
}

/* the ranges of syms among those of the cache: 0, or -ENOENT for a miss */
static int cached_ranges(const char *path, const char *const *syms, int n,
			 struct kallsyms_range *out, int max, int *found)
{
	int i, c, k;

	*found = 0;
	for (i = 0; i < n; i++) {
		c = syms[i] ? cached(path, syms[i]) : -2;
		if (c == -1)
			return -ENOENT;
		for (k = 0; c >= 0 && k < cache.nr_ranges; k++) {
			if (cache.ranges[k].sym != c || *found >= max)
				continue;
			out[*found] = cache.ranges[k];
			out[(*found)++].sym = i;
		}
	}
	return 0;
}

int kallsyms_ranges(const char *path, const char *const *syms, int n,
		    struct kallsyms_range *out, int max, int *found)
{
	unsigned long long addrs[KALLSYMS_CACHE_MAX];
	bool listed[KALLSYMS_CACHE_MAX];
	struct scan_out o;
	struct want w;
	int err;

	if (n > KALLSYMS_CACHE_MAX)
		return -E2BIG;
	if (!cached_ranges(path, syms, n, out, max, found))
		return 0;
	want_init(&w, syms, n, addrs, listed);
	w.ranges = out;
	w.max_ranges = max;
	err = scan(path, &w, &o);
	*found = w.nr_ranges;
	return err;
}

int kallsyms_lookup(const char *path, const char *sym, unsigned long long *addr)
{
	const char *syms[1] = { sym };
	unsigned long long a[1];
	bool listed[1];
	struct scan_out o;
	struct want w;
	int c, err;

	if (!sym)
		return -EINVAL;
	c = cached(path, sym);
	if (c >= 0) {
		*addr = cache.addrs[c];
		return *addr ? 0 : cache.listed[c] ? -EPERM : -ENOENT;
	}
	want_init(&w, syms, 1, a, listed);
	err = scan(path, &w, &o);
	if (err)
		return err;
	*addr = a[0];
	return a[0] ? 0 : listed[0] ? -EPERM : -ENOENT;
}

int kallsyms_readable(const char *path)
{
	struct scan_out o;
	struct want w;
	unsigned long long none[1];
	bool listed[1];
	const char *syms[1] = { NULL };
	int err;

	if (cached(path, NULL) == 0) {
		o = cache.out;
	} else {
		want_init(&w, syms, 1, none, listed);
		err = scan(path, &w, &o);
		if (err)
			return err;
	}
	if (o.nonzero_any)
		return 0;
	return o.listed_any ? -EPERM : -ENOENT;
}
