// SPDX-License-Identifier: GPL-2.0-only
/* /proc parsers of small files; zoneinfo.c has /proc/zoneinfo */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lines.h"
#include "procfs.h"

/* "CONFIG_" + the longest symbol name (~50 in 6.x) + "=" */
#define KCONFIG_PREFIX_LEN 128
#define FIELDS_INIT_CAP 64

/* ---- name value files ---- */

int proc_field_find(const struct proc_fields *pf, const char *name, int64_t *v)
{
	int i;

	for (i = 0; i < pf->n; i++) {
		if (!strcmp(pf->f[i].name, name)) {
			*v = pf->f[i].v;
			return 0;
		}
	}
	return -ENOENT;
}

int name_value(const char *line, char *name, size_t len, int64_t *v)
{
	const char *s = skip_blanks(line), *num;
	size_t n = 0;
	char *end;
	long long x;

	/* the value is the last word; the name every word before it */
	num = strrchr(s, ' ');
	if (!num || num == s)
		return -EINVAL;
	num++;
	errno = 0;
	x = strtoll(num, &end, 10);
	if (end == num || *end || errno)
		return -EINVAL;
	for (; s < num && n + 1 < len; s++) {
		if (isspace((unsigned char)*s)) {
			if (n && name[n - 1] != '_')
				name[n++] = '_';
		} else if (isalnum((unsigned char)*s) || *s == '_') {
			name[n++] = *s;
		} else {
			return -EINVAL;
		}
	}
	while (n && name[n - 1] == '_')
		n--;
	if (!n || s < num)
		return -EINVAL;
	name[n] = '\0';
	*v = x;
	return 0;
}

int proc_fields_add(struct proc_fields *pf, const char *name, int64_t v)
{
	struct proc_field *f;
	int err;

	err = grow_array((void **)&pf->f, pf->n, &pf->cap, FIELDS_INIT_CAP,
			 sizeof(*pf->f));
	if (err)
		return err;
	f = &pf->f[pf->n++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->v = v;
	return 0;
}

void proc_fields_free(struct proc_fields *pf)
{
	free(pf->f);
	memset(pf, 0, sizeof(*pf));
}

int vmstat_parse(const char *path, struct proc_fields *pf)
{
	char name[PROC_FIELD_LEN];
	struct lines l;
	int64_t v;
	int err, ret;

	memset(pf, 0, sizeof(*pf));
	err = lines_open(&l, path);
	if (err)
		return err;
	while ((ret = lines_next(&l)) > 0) {
		if (name_value(l.buf, name, sizeof(name), &v))
			continue;
		err = proc_fields_add(pf, name, v);
		if (err)
			break;
	}
	if (!err)
		err = ret < 0 ? ret : pf->n ? 0 : -EINVAL;
	lines_close(&l);
	if (err)
		proc_fields_free(pf);
	return err;
}

/* ---- buddyinfo ---- */

#define BUDDY_INIT_CAP 8

/* "Node 0, zone   Normal  12010 8689 ...": 0, or -EINVAL for any other */
static int buddy_line(const char *line, struct buddy_zone *z)
{
	const char *s;
	char *end;
	int n;

	memset(z, 0, sizeof(*z));
	/* %15s: ZONE_NAME_LEN - 1 */
	if (sscanf(line, "Node %d, zone %15s%n", &z->node, z->name, &n) != 2)
		return -EINVAL;
	for (s = line + n; *skip_blanks(s); s = end) {
		if (z->nr_orders == BUDDY_MAX_ORDERS)
			return -E2BIG;
		errno = 0;
		z->free[z->nr_orders] = strtoll(s, &end, 10);
		if (end == s || errno || z->free[z->nr_orders] < 0)
			return -EINVAL;
		z->nr_orders++;
	}
	return z->nr_orders ? 0 : -EINVAL;
}

int buddyinfo_parse(const char *path, struct buddyinfo *bi)
{
	struct buddy_zone z;
	struct lines l;
	int err, ret;

	memset(bi, 0, sizeof(*bi));
	err = lines_open(&l, path);
	if (err)
		return err;
	while ((ret = lines_next(&l)) > 0) {
		err = buddy_line(l.buf, &z);
		if (err)
			break;
		err = grow_array((void **)&bi->zones, bi->nr_zones, &bi->cap,
				 BUDDY_INIT_CAP, sizeof(*bi->zones));
		if (err)
			break;
		bi->zones[bi->nr_zones++] = z;
	}
	if (!err)
		err = ret < 0 ? ret : bi->nr_zones ? 0 : -EINVAL;
	lines_close(&l);
	if (err)
		buddyinfo_free(bi);
	return err;
}

void buddyinfo_free(struct buddyinfo *bi)
{
	free(bi->zones);
	memset(bi, 0, sizeof(*bi));
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
