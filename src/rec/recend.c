// SPDX-License-Identifier: GPL-2.0-only
/*
 * The end chunk of a recording: why and how the recording stopped, and
 * the command's fate (docs/FORMAT.md, "End chunk").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "recfile.h"
#include "rectags.h"

enum rec_end_tag {
	TAG_END_REASON = 1,
	TAG_END_COMMAND = 2,
	TAG_END_EXIT = 3,
	TAG_END_TIMES = 4,
	TAG_END_TOTALS = 5,
};

void rec_end_encode(struct rbuf *b, const struct rec_header *h,
		    const struct rec_end *e)
{
	size_t off;

	tlv_str(b, TAG_END_REASON, e->reason);
	if (e->have_command) {
		put_argv(b, TAG_END_COMMAND, h->argc, h->argv);
		off = tlv_begin(b, TAG_END_EXIT);
		rb_i32(b, e->exit_code);
		rb_i32(b, e->wait_status);
		rb_i32(b, e->term_signal);
		tlv_end(b, off);
		off = tlv_begin(b, TAG_END_TIMES);
		rb_u64(b, e->wall_ns);
		rb_u64(b, e->utime_ns);
		rb_u64(b, e->stime_ns);
		rb_u64(b, e->maxrss_kb);
		tlv_end(b, off);
	}
	off = tlv_begin(b, TAG_END_TOTALS);
	rb_u32(b, e->nr_intervals);
	rb_u64(b, e->recorded_ns);
	tlv_end(b, off);
}

static int end_record(struct rcur *c, uint16_t tag, void *ctx)
{
	struct rec_end *e = ctx;
	int argc = 0, i, err;
	char **argv = NULL;

	switch (tag) {
	case TAG_END_REASON:
		rc_str(c, e->reason, sizeof(e->reason));
		break;
	case TAG_END_COMMAND:
		/* the header has the command; this copy only proves it */
		err = get_argv(c, &argc, &argv);
		for (i = 0; i < argc; i++)
			free(argv[i]);
		free(argv);
		if (err)
			return err;
		e->have_command = true;
		break;
	case TAG_END_EXIT:
		e->have_command = true;
		e->exit_code = rc_i32(c);
		e->wait_status = rc_i32(c);
		e->term_signal = rc_i32(c);
		break;
	case TAG_END_TIMES:
		e->wall_ns = rc_u64(c);
		e->utime_ns = rc_u64(c);
		e->stime_ns = rc_u64(c);
		e->maxrss_kb = rc_u64(c);
		break;
	case TAG_END_TOTALS:
		e->nr_intervals = rc_u32(c);
		e->recorded_ns = rc_u64(c);
		break;
	default:
		break;
	}
	return c->bad ? -EBADMSG : 0;
}

int rec_end_decode(const void *p, size_t len, struct rec_end *e, char *msg,
		   size_t msglen)
{
	memset(e, 0, sizeof(*e));
	return walk_records(p, len, "end", end_record, e, msg, msglen);
}
