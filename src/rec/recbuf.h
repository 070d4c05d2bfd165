/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Explicit little-endian encoding for recordings: a growing output buffer
 * and a bounds-checked input cursor. A cursor that runs past its end only
 * sets ->bad and yields zeroes, so decoders check once at the end instead
 * of after every field, and random input can never read out of bounds.
 */
#ifndef PCPTOP_RECBUF_H
#define PCPTOP_RECBUF_H

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RB_MIN_CAP 4096

struct rbuf {
	unsigned char *p;
	size_t len;
	size_t cap;
	int err; /* -ENOMEM once a grow failed; later puts do nothing */
};

static inline void rb_reset(struct rbuf *b)
{
	b->len = 0;
	b->err = 0;
}

static inline void rb_free(struct rbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static inline unsigned char *rb_grow(struct rbuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : RB_MIN_CAP;
	unsigned char *p;

	if (b->err)
		return NULL;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2) {
			b->err = -ENOMEM;
			return NULL;
		}
		cap *= 2;
	}
	if (cap != b->cap) {
		p = realloc(b->p, cap);
		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	p = b->p + b->len;
	b->len += n;
	return p;
}

static inline void rb_put(struct rbuf *b, const void *data, size_t n)
{
	unsigned char *p = rb_grow(b, n);

	if (p && n)
		memcpy(p, data, n);
}

static inline void rb_u16(struct rbuf *b, uint16_t v)
{
	v = htole16(v);
	rb_put(b, &v, sizeof(v));
}

static inline void rb_u32(struct rbuf *b, uint32_t v)
{
	v = htole32(v);
	rb_put(b, &v, sizeof(v));
}

static inline void rb_u64(struct rbuf *b, uint64_t v)
{
	v = htole64(v);
	rb_put(b, &v, sizeof(v));
}

static inline void rb_i32(struct rbuf *b, int32_t v)
{
	rb_u32(b, (uint32_t)v);
}

/* a string and its terminating NUL */
static inline void rb_str(struct rbuf *b, const char *s)
{
	rb_put(b, s, strlen(s) + 1);
}

/* patch a u32 written earlier at offset off */
static inline void rb_set_u32(struct rbuf *b, size_t off, uint32_t v)
{
	if (!b->err && off + sizeof(v) <= b->len) {
		v = htole32(v);
		memcpy(b->p + off, &v, sizeof(v));
	}
}

/* *buf holds at least need bytes (grown with realloc), or -ENOMEM */
static inline int rb_reserve(unsigned char **buf, size_t *cap, size_t need)
{
	unsigned char *p;

	if (*cap >= need)
		return 0;
	p = realloc(*buf, need);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = need;
	return 0;
}

struct rcur {
	const unsigned char *p;
	size_t len;
	size_t off;
	bool bad;
};

static inline void rc_init(struct rcur *c, const void *p, size_t len)
{
	c->p = p;
	c->len = len;
	c->off = 0;
	c->bad = false;
}

static inline size_t rc_left(const struct rcur *c)
{
	return c->bad ? 0 : c->len - c->off;
}

/* n bytes at the cursor, or NULL (and ->bad) when fewer are left */
static inline const unsigned char *rc_take(struct rcur *c, size_t n)
{
	const unsigned char *p;

	if (c->bad || c->len - c->off < n) {
		c->bad = true;
		return NULL;
	}
	p = c->p + c->off;
	c->off += n;
	return p;
}

static inline uint16_t rc_u16(struct rcur *c)
{
	const unsigned char *p = rc_take(c, sizeof(uint16_t));
	uint16_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t rc_u32(struct rcur *c)
{
	const unsigned char *p = rc_take(c, sizeof(uint32_t));
	uint32_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t rc_u64(struct rcur *c)
{
	const unsigned char *p = rc_take(c, sizeof(uint64_t));
	uint64_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline int32_t rc_i32(struct rcur *c)
{
	return (int32_t)rc_u32(c);
}

/*
 * A NUL-terminated string into dst (truncated to len - 1 bytes). A string
 * without its NUL before the end of the record is malformed.
 */
static inline void rc_str(struct rcur *c, char *dst, size_t len)
{
	const unsigned char *nul;
	size_t n;

	dst[0] = '\0';
	if (c->bad)
		return;
	nul = memchr(c->p + c->off, '\0', c->len - c->off);
	if (!nul) {
		c->bad = true;
		return;
	}
	n = (size_t)(nul - (c->p + c->off));
	if (len) {
		size_t k = n < len - 1 ? n : len - 1;

		memcpy(dst, c->p + c->off, k);
		dst[k] = '\0';
	}
	c->off += n + 1;
}

#endif /* PCPTOP_RECBUF_H */
