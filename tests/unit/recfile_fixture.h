/* SPDX-License-Identifier: GPL-2.0-only */
/* The reference recording and the file helpers of the recfile tests. */
#ifndef PCPTOP_RECFILE_FIXTURE_H
#define PCPTOP_RECFILE_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "recfile.h"

#define NR_CPUS 2
#define NR_IV 3
#define MAX_CHUNKS 16

/* the reference recording's command: an argument with a blank in it */
extern char *rf_argv[];
/* the byte-order field as a little- and a big-endian writer store it */
extern const unsigned char rf_order_le[4];
extern const unsigned char rf_order_be[4];

/* "<the tests' temporary directory>/<name>" */
const char *rf_tpath(const char *name);

/* a header with every fact set; zi holds its allocated pagesets */
void rf_make_header(struct rec_header *h, struct zoneinfo *zi);
/* NR_CPUS-wide snapshots and a pattern that differs by seed */
void rf_snap_init(struct snapshot *s);
void rf_snap_fini(struct snapshot *s);
void rf_fill_snap(struct snapshot *s, unsigned int seed);
bool rf_snap_equal(const struct snapshot *a, const struct snapshot *b);

/*
 * The reference file: header, NR_IV intervals (seeds 1..NR_IV), end.
 * ends[i] is the file size after chunk i (0: header), so a prefix's
 * whole chunks are known. Returns the number of chunks.
 */
size_t rf_write_ref(const char *path, uint64_t ends[MAX_CHUNKS]);

struct read_result {
	int open_err;
	int intervals;
	bool have_end;
	int last; /* rec_next()'s last return */
	char msg[REC_ERR_LEN];
};

/* open and read to the end or the first error, counting chunks */
void rf_read_all(const char *path, struct read_result *rr);
/* a whole file into a malloc'ed buffer; 0 or -1 */
int rf_load(const char *path, unsigned char **buf, size_t *len);
void rf_store(const char *path, const void *buf, size_t len);

void rf_preamble(unsigned char *p, const unsigned char order[4], int major,
		 int minor);
void rf_put_chunk_header(unsigned char *p, uint32_t type, uint32_t clen,
			 uint32_t ulen);

#endif /* PCPTOP_RECFILE_FIXTURE_H */
