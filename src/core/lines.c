// SPDX-License-Identifier: GPL-2.0-only
/*
 * The line reader every /proc parser shares. Files are read through zlib:
 * gzdopen() passes a plain file through untouched and inflates a gzip
 * one, so /proc/config.gz and /boot/config-* (or a fixture of either)
 * read alike.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lines.h"

/* most lines fit; the reader doubles this for /proc/cmdline and the like */
#define LINE_INIT_CAP 256
#define GZIP_MAGIC0 0x1f
#define GZIP_MAGIC1 0x8b

void proc_path(char *buf, size_t len, const char *root, const char *rel)
{
	size_t rlen = root ? strlen(root) : 0;

	while (rlen && root[rlen - 1] == '/')
		rlen--;
	while (*rel == '/')
		rel++;
	snprintf(buf, len, "%.*s/%s", (int)rlen, rlen ? root : "", rel);
}

int lines_open(struct lines *l, const char *path)
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

void lines_close(struct lines *l)
{
	if (l->f)
		gzclose(l->f);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

/* zlib keeps errno for read errors and its own codes for bad gzip data */
int lines_error(struct lines *l)
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
int lines_next(struct lines *l)
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

const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* a whole decimal int, surrounding blanks allowed */
int parse_int(const char *s, int *val)
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

int copy_value(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		return -E2BIG;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

/* keeps arrays of (*nr + 1) elements available, doubling from init */
int grow_array(void **arr, int nr, int *cap, int init, size_t size)
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
