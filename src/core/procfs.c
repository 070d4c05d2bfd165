// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc parsers. Every file is read through zlib: gzdopen() passes a plain
 * file through untouched and inflates a gzip one, so /proc/config.gz and
 * /boot/config-* (or a fixture of either) share one line reader.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "procfs.h"

/* most lines fit; the reader doubles this for /proc/cmdline and the like */
#define LINE_INIT_CAP 256
#define ZONES_INIT_CAP 8
#define CPUS_INIT_CAP 4
/* "CONFIG_" + the longest symbol name (~50 in 6.x) + "=" */
#define KCONFIG_PREFIX_LEN 128
#define GZIP_MAGIC0 0x1f
#define GZIP_MAGIC1 0x8b

struct lines {
	gzFile f;
	char *buf;
	size_t cap;
	bool gzip; /* the file starts with the gzip magic */
};

void proc_path(char *buf, size_t len, const char *root, const char *rel)
{
	size_t rlen = root ? strlen(root) : 0;

	while (rlen && root[rlen - 1] == '/')
		rlen--;
	while (*rel == '/')
		rel++;
	snprintf(buf, len, "%.*s/%s", (int)rlen, rlen ? root : "", rel);
}

static int lines_open(struct lines *l, const char *path)
{
	unsigned char magic[2];
	int fd;

	memset(l, 0, sizeof(*l));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* pread leaves the offset alone, so zlib still starts at byte 0 */
	l->gzip = pread(fd, magic, sizeof(magic), 0) == sizeof(magic) &&
		  magic[0] == GZIP_MAGIC0 && magic[1] == GZIP_MAGIC1;
	l->cap = LINE_INIT_CAP;
	l->buf = malloc(l->cap);
	l->f = l->buf ? gzdopen(fd, "rb") : NULL;
	if (!l->f) {
		free(l->buf);
		close(fd);
		return -ENOMEM;
	}
	return 0;
}

static void lines_close(struct lines *l)
{
	if (l->f)
		gzclose(l->f);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

/* zlib keeps errno for read errors and its own codes for bad gzip data */
static int lines_error(struct lines *l)
{
	int zerr;

	gzerror(l->f, &zerr);
	if (zerr == Z_OK || zerr == Z_STREAM_END)
		return 0;
	if (zerr == Z_ERRNO)
		return errno ? -errno : -EIO;
	if (zerr == Z_MEM_ERROR)
		return -ENOMEM;
	return -EIO;
}

/* 1 with the next line (no newline) in l->buf, 0 at the end, or -errno */
static int lines_next(struct lines *l)
{
	size_t len = 0;
	char *tmp;

	for (;;) {
		if (!gzgets(l->f, l->buf + len, (int)(l->cap - len))) {
			if (len)
				return 1;
			return lines_error(l);
		}
		len += strlen(l->buf + len);
		if (len && l->buf[len - 1] == '\n') {
			l->buf[len - 1] = '\0';
			return 1;
		}
		/* a short read without a newline is the last line */
		if (len + 1 < l->cap)
			return 1;
		if (l->cap > INT_MAX / 2)
			return -E2BIG;
		tmp = realloc(l->buf, l->cap * 2);
		if (!tmp)
			return -ENOMEM;
		l->buf = tmp;
		l->cap *= 2;
	}
}

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* a whole decimal int, surrounding blanks allowed */
static int parse_int(const char *s, int *val)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s)
		return -EINVAL;
	if (errno || v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	if (*skip_blanks(end))
		return -EINVAL;
	*val = (int)v;
	return 0;
}

static int copy_value(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		return -E2BIG;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

/* ---- zoneinfo ---- */

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

#define NR_PCP_KEYS (sizeof(pcp_keys) / sizeof(pcp_keys[0]))

/* keeps arrays of (*nr + 1) elements available, doubling from init */
static int grow(void **arr, int nr, int *cap, int init, size_t size)
{
	int ncap = *cap ? *cap * 2 : init;
	void *tmp;

	if (nr < *cap)
		return 0;
	tmp = realloc(*arr, (size_t)ncap * size);
	if (!tmp)
		return -ENOMEM;
	*arr = tmp;
	*cap = ncap;
	return 0;
}

static int zone_add(struct zoneinfo *zi, int *cap, int node, const char *name)
{
	struct zone_pcp *z;
	int err;

	err = grow((void **)&zi->zones, zi->nr_zones, cap, ZONES_INIT_CAP,
		   sizeof(*zi->zones));
	if (err)
		return err;
	z = &zi->zones[zi->nr_zones++];
	memset(z, 0, sizeof(*z));
	z->node = node;
	z->managed = -1;
	snprintf(z->name, sizeof(z->name), "%s", name);
	return 0;
}

static int cpu_add(struct zone_pcp *z, int *cap, int cpu)
{
	struct pcp_cpu *c;
	int err;

	err = grow((void **)&z->cpus, z->nr_cpus, cap, CPUS_INIT_CAP,
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
	bool in_pagesets = false;
	struct lines l;

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
			in_pagesets = false;
		} else if (!z) {
			continue;
		} else if (!strcmp(s, "pagesets")) {
			in_pagesets = true;
		} else if (!in_pagesets) {
			sscanf(s, "managed %ld", &z->managed);
			continue;
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
	for (i = 0; i < zi->nr_zones; i++)
		free(zi->zones[i].cpus);
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

/* ---- pagetypeinfo ---- */

int pagetypeinfo_parse(const char *path, int *order, int *pages_per_block)
{
	bool have_order = false, have_pages = false;
	struct lines l;
	int err, ret = 0;

	err = lines_open(&l, path);
	if (err)
		return err;
	/* both lines head the file; stop reading once they are seen */
	while ((!have_order || !have_pages) && (ret = lines_next(&l)) > 0) {
		if (sscanf(l.buf, "Page block order: %d", order) == 1)
			have_order = true;
		else if (sscanf(l.buf, "Pages per block: %d",
				pages_per_block) == 1)
			have_pages = true;
	}
	if (!have_order || !have_pages)
		err = ret < 0 ? ret : -ENOENT;
	lines_close(&l);
	return err;
}

/* ---- kernel config ---- */

int kconfig_lookup(const char *path, const char *name, char *val, size_t len)
{
	char prefix[KCONFIG_PREFIX_LEN];
	size_t plen, vlen;
	struct lines l;
	int err, ret;
	char *v;

	plen = snprintf(prefix, sizeof(prefix), "CONFIG_%s=", name);
	if (plen >= sizeof(prefix))
		return -EINVAL;
	err = lines_open(&l, path);
	if (err)
		return err;
	err = -ENOENT;
	/* "# CONFIG_X is not set" never starts with the prefix: -ENOENT */
	while ((ret = lines_next(&l)) > 0) {
		if (strncmp(l.buf, prefix, plen))
			continue;
		v = l.buf + plen;
		vlen = strlen(v);
		/* string symbols are quoted in the file, not in their value */
		if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
			v++;
			vlen -= 2;
		}
		err = copy_value(val, len, v, vlen);
		break;
	}
	/*
	 * The gzip magic, not the file name, tells the kinds apart: zlib
	 * checks the same two bytes and passes anything else through. A
	 * stream error in a gzip file is damaged data (-EIO) whatever code
	 * zlib gave, and the symbol may sit in the lost part: not -ENOENT.
	 */
	if (ret < 0 && err == -ENOENT)
		err = l.gzip ? -EIO : ret;
	lines_close(&l);
	return err;
}

/* ---- command line ---- */

/* parameq() of kernel/params.c: '-' and '_' are the same in names */
static bool param_eq(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char ca = a[i] == '-' ? '_' : a[i];
		char cb = b[i] == '-' ? '_' : b[i];

		if (ca != cb)
			return false;
	}
	return true;
}

/*
 * next_arg() of kernel/params.c: splits at blanks outside double quotes,
 * cuts at the first '=' and drops the quotes around a value. Returns the
 * rest of args; *val is NULL for a parameter without '='.
 */
static char *next_arg(char *args, char **param, char **val)
{
	bool in_quote = false, quoted = false;
	size_t i, equals = 0;

	if (*args == '"') {
		args++;
		in_quote = quoted = true;
	}
	for (i = 0; args[i]; i++) {
		if (isspace((unsigned char)args[i]) && !in_quote)
			break;
		if (!equals && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	*val = NULL;
	if (equals) {
		args[equals] = '\0';
		*val = args + equals + 1;
		if (**val == '"') {
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i]) {
		args[i] = '\0';
		args += i + 1;
	} else {
		args += i;
	}
	return (char *)skip_blanks(args);
}

int cmdline_lookup(const char *path, const char *param, char *val, size_t len)
{
	size_t plen = strlen(param);
	const char *found = NULL;
	char *args, *p, *v;
	struct lines l;
	int err, ret;

	err = lines_open(&l, path);
	if (err)
		return err;
	ret = lines_next(&l);
	if (ret <= 0) {
		err = ret ? ret : -ENOENT;
		goto out;
	}
	args = (char *)skip_blanks(l.buf);
	while (*args) {
		args = next_arg(args, &p, &v);
		/* what follows a lone "--" is init's, not the kernel's */
		if (!v && !strcmp(p, "--"))
			break;
		if (strlen(p) == plen && param_eq(p, param, plen))
			found = v ? v : "";
	}
	err = found ? copy_value(val, len, found, strlen(found)) : -ENOENT;
out:
	lines_close(&l);
	return err;
}

/* ---- small files ---- */

int read_long_file(const char *path, long *val)
{
	struct lines l;
	char *end;
	int err;
	long v;

	err = lines_open(&l, path);
	if (err)
		return err;
	err = lines_next(&l);
	if (err > 0) {
		errno = 0;
		v = strtol(l.buf, &end, 10);
		err = end == l.buf ? -EINVAL : -errno;
		if (!err)
			*val = v;
	} else if (!err) {
		err = -EINVAL; /* empty */
	}
	lines_close(&l);
	return err;
}

int read_text_file(const char *path, char *buf, size_t len)
{
	struct lines l;
	int err, n;
	char extra;

	if (!len || len > INT_MAX)
		return -EINVAL;
	err = lines_open(&l, path);
	if (err)
		return err;
	n = gzread(l.f, buf, (unsigned int)(len - 1));
	if (n < 0) {
		err = lines_error(&l);
		goto out;
	}
	/* a file that fills buf is fine if all that is left is its newline */
	if ((size_t)n == len - 1 && gzread(l.f, &extra, 1) > 0 &&
	    (extra != '\n' || gzread(l.f, &extra, 1) > 0)) {
		err = -E2BIG;
		goto out;
	}
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
out:
	lines_close(&l);
	return err;
}
