/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between the /proc parsers (procfs.c, zoneinfo.c): one line reader for
 * plain and gzip files, and the small helpers they share. All return 0
 * or -errno unless said.
 */
#ifndef PCPTOP_LINES_H
#define PCPTOP_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

struct lines {
	gzFile f;
	char *buf;
	size_t cap;
	bool gzip; /* the file starts with the gzip magic */
};

int lines_open(struct lines *l, const char *path);
void lines_close(struct lines *l);
/* 1 with the next line (no newline) in l->buf, 0 at the end, or -errno */
int lines_next(struct lines *l);
/* the error that ended reading, 0 at a clean end of file */
int lines_error(struct lines *l);

const char *skip_blanks(const char *s);
/* a whole decimal int, surrounding blanks allowed */
int parse_int(const char *s, int *val);
/* n bytes of src into dst as a string; -E2BIG when they do not fit */
int copy_value(char *dst, size_t len, const char *src, size_t n);
/* keeps *arr with room for element nr, doubling its capacity from init */
int grow_array(void **arr, int nr, int *cap, int init, size_t size);

#endif /* PCPTOP_LINES_H */
