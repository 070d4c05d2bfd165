// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tagged records the header and end chunks are made of: {u16 tag,
 * u16 reserved, u32 length, bytes}, so a newer pcptop can add facts and
 * an older one skips the tags it does not know (docs/FORMAT.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recfile.h"
#include "rectags.h"

/* start a record; returns where its length goes, for tlv_end() */
size_t tlv_begin(struct rbuf *b, uint16_t tag)
{
	size_t off;

	rb_u16(b, tag);
	rb_u16(b, 0);
	off = b->len;
	rb_u32(b, 0);
	return off;
}

void tlv_end(struct rbuf *b, size_t len_off)
{
	rb_set_u32(b, len_off, (uint32_t)(b->len - len_off - sizeof(uint32_t)));
}

void tlv_str(struct rbuf *b, uint16_t tag, const char *s)
{
	size_t off = tlv_begin(b, tag);

	rb_str(b, s);
	tlv_end(b, off);
}

void put_argv(struct rbuf *b, uint16_t tag, int argc, char **argv)
{
	size_t off = tlv_begin(b, tag);
	int i;

	rb_u32(b, (uint32_t)argc);
	for (i = 0; i < argc; i++)
		rb_str(b, argv[i]);
	tlv_end(b, off);
}

int get_argv(struct rcur *c, int *argcp, char ***argvp)
{
	uint32_t argc = rc_u32(c), i;
	char **argv;

	/* every argument takes at least its NUL: bounded by the record */
	if (c->bad || argc > REC_MAX_ARGS || argc > rc_left(c))
		return -EBADMSG;
	argv = calloc(argc + 1, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	for (i = 0; i < argc; i++) {
		const unsigned char *s = c->p + c->off;
		size_t n;

		if (!memchr(s, '\0', rc_left(c)))
			break;
		n = strlen((const char *)s);
		argv[i] = strdup((const char *)s);
		if (!argv[i])
			break;
		c->off += n + 1;
	}
	if (i < argc) {
		while (i > 0)
			free(argv[--i]);
		free(argv);
		return -EBADMSG;
	}
	/* a second command record replaces the first */
	if (*argvp) {
		for (i = 0; (int)i < *argcp; i++)
			free((*argvp)[i]);
		free(*argvp);
	}
	*argcp = (int)argc;
	*argvp = argv;
	return 0;
}

/*
 * Call fn on each record of a chunk with a cursor over that record
 * alone. 0, the first error of fn, or -EBADMSG for a record cut short;
 * msg then names the record ("what" is "header" or "end").
 */
int walk_records(const void *p, size_t len, const char *what,
		 int (*fn)(struct rcur *c, uint16_t tag, void *ctx), void *ctx,
		 char *msg, size_t msglen)
{
	const unsigned char *data;
	struct rcur all, sub;
	uint16_t tag;
	uint32_t n;
	int at = 0, err;

	msg[0] = '\0';
	rc_init(&all, p, len);
	while (rc_left(&all)) {
		at++;
		tag = rc_u16(&all);
		rc_u16(&all);
		n = rc_u32(&all);
		data = rc_take(&all, n);
		if (!data) {
			snprintf(msg, msglen, "%s record %d is cut short", what,
				 at);
			return -EBADMSG;
		}
		rc_init(&sub, data, n);
		err = fn(&sub, tag, ctx);
		if (err) {
			snprintf(msg, msglen,
				 "%s record %d (tag %u) is malformed", what, at,
				 tag);
			return err;
		}
	}
	return 0;
}
