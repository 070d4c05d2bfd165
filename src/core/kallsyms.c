// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms, read fast: big read()s and memchr, the address parsed
 * only on the lines asked for. Through zlib's line reader one pass took
 * 114 ms on a 2-CPU VM (122k lines), twice per start-up; a plain read of
 * the file takes 36 ms, almost all of it the kernel printing the lines.
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

/* "ffffffff81630330 t free_pcppages_bulk\t[module]": one line, no '\n' */
static void scan_line(const char *s, const char *end, struct want *w,
		      struct scan_out *o)
{
	const char *addr = s, *name, *name_end;
	unsigned long long a = 0;
	bool nonzero = false;
	int i, v;

	while (s < end && hexval(*s) >= 0) {
		nonzero |= *s != '0';
		s++;
	}
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
	for (i = 0; i < w->n; i++) {
		if (!w->syms[i] || w->addrs[i] ||
		    w->len[i] != (size_t)(name_end - name) ||
		    memcmp(name, w->syms[i], w->len[i]))
			continue;
		w->listed[i] = true;
		if (!nonzero)
			continue;
		/* the first listing with an address wins, as kallsyms_lookup() has it */
		for (a = 0, s = addr; (v = hexval(*s)) >= 0; s++)
			a = a << 4 | (unsigned long long)v;
		w->addrs[i] = a;
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
		if (w->left <= 0 && o->nonzero_any)
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

	w->syms = syms;
	w->n = n;
	w->left = 0;
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
	err = scan(path, &w, &cache.out);
	if (err)
		return err;
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
