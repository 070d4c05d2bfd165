/* SPDX-License-Identifier: GPL-2.0-only */
/* Writing one page (report's, diff's, whatif's HTML) to a file or stdout. */
#ifndef PCPTOP_PAGE_OUT_H
#define PCPTOP_PAGE_OUT_H

#include <stdio.h>

/*
 * OUT ("-": stdout) through outfile's keep-old rule, the page written by
 * fn(f, ctx) (0 or -errno), flushed and closed; "wrote OUT" on stderr.
 * 0; -EINVAL when OUT cannot be created, fn's error or -EIO when writing
 * the page failed (each said).
 */
int page_out(const char *out, int (*fn)(FILE *f, const void *ctx),
	     const void *ctx);

#endif /* PCPTOP_PAGE_OUT_H */
