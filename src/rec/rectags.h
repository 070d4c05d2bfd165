/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between rechdr.c and recend.c: writing and walking the tagged records
 * of the header and end chunks. Decoders return 0 or -EBADMSG.
 */
#ifndef PCPTOP_RECTAGS_H
#define PCPTOP_RECTAGS_H

#include <stddef.h>
#include <stdint.h>
#include "recbuf.h"

/* start a record; returns where its length goes, for tlv_end() */
size_t tlv_begin(struct rbuf *b, uint16_t tag);
void tlv_end(struct rbuf *b, size_t len_off);
/* a record holding one string */
void tlv_str(struct rbuf *b, uint16_t tag, const char *s);
/* a record of u32 argc, then argc strings */
void put_argv(struct rbuf *b, uint16_t tag, int argc, char **argv);
/* the same back, allocated; a second one replaces *argvp */
int get_argv(struct rcur *c, int *argcp, char ***argvp);

/*
 * Call fn on each record of a chunk with a cursor over that record
 * alone. 0, the first error of fn, or -EBADMSG for a record cut short;
 * msg then names the record ("what" is "header" or "end").
 */
int walk_records(const void *p, size_t len, const char *what,
		 int (*fn)(struct rcur *c, uint16_t tag, void *ctx), void *ctx,
		 char *msg, size_t msglen);

#endif /* PCPTOP_RECTAGS_H */
