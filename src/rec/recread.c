// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading recordings. Nothing in the file is trusted: every length is
 * checked against fixed limits and the file's size before anything is
 * allocated, every chunk against its CRC32 and sequence number, and the
 * first bad or incomplete chunk ends the readable prefix. A reader at the
 * end of a file still being written just sees the next chunk later.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>
#include "recbuf.h"
#include "recfile.h"

static void set_msg(struct rec_reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_msg(struct rec_reader *r, int err, const char *fmt, ...)
{
	va_list ap;

	r->err = err;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
}

/* bytes read, short only at end of file */
static ssize_t pread_all(int fd, void *p, size_t n, uint64_t off)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = pread(fd, (char *)p + got, n - got, (off_t)(off + got));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* values in one interval chunk's arrays */
static uint64_t iv_values(const struct rec_dims *d)
{
	uint64_t hist =
		(uint64_t)d->max_zones * d->nr_hists * (d->hist_slots + 1);
	uint64_t cnt = (uint64_t)d->max_zones * d->order_slots * d->mt_slots *
		       d->nr_counters;

	return d->nr_cpus * (hist + cnt);
}

/*
 * Read the chunk at r->off into r->raw: 0 with *type and *len set (*type
 * REC_CHUNK_NONE at a clean end of file), else -errno with r->msg set.
 */
static int read_chunk(struct rec_reader *r, uint16_t *type, size_t *len)
{
	unsigned char hdr[REC_CHUNK_HDR_LEN];
	uint32_t magic, seq, clen, ulen, crc, limit;
	struct rcur c;
	struct stat st;
	uLongf dlen;
	ssize_t got;

	got = pread_all(r->fd, hdr, sizeof(hdr), r->off);
	if (got < 0) {
		set_msg(r, (int)got, "reading at byte %llu: %s",
			(unsigned long long)r->off, strerror((int)-got));
		return r->err;
	}
	if (got == 0) {
		*type = REC_CHUNK_NONE;
		return 0;
	}
	if (got < (ssize_t)sizeof(hdr)) {
		set_msg(r, -ENODATA,
			"chunk %u at byte %llu is cut short (%zd of %d header bytes)",
			r->next_seq, (unsigned long long)r->off, got,
			REC_CHUNK_HDR_LEN);
		return r->err;
	}
	rc_init(&c, hdr, sizeof(hdr));
	magic = rc_u32(&c);
	*type = rc_u16(&c);
	rc_u16(&c);
	seq = rc_u32(&c);
	clen = rc_u32(&c);
	ulen = rc_u32(&c);
	crc = rc_u32(&c);
	if (magic != REC_CHUNK_MAGIC) {
		set_msg(r, -EBADMSG, "chunk %u at byte %llu has no chunk magic",
			r->next_seq, (unsigned long long)r->off);
		return r->err;
	}
	limit = *type == REC_CHUNK_HEADER ? REC_MAX_HEADER_LEN :
		*type == REC_CHUNK_END	  ? REC_MAX_END_LEN :
					    REC_MAX_CHUNK_LEN;
	if (seq != r->next_seq || !clen || clen > REC_MAX_CHUNK_LEN ||
	    ulen > limit ||
	    ulen > (uint64_t)clen * REC_ZLIB_MAX_RATIO + REC_ZLIB_RATIO_SLACK) {
		set_msg(r, -EBADMSG,
			"chunk %u at byte %llu has a bad header (seq %u, %u -> %u bytes)",
			r->next_seq, (unsigned long long)r->off, seq, clen,
			ulen);
		return r->err;
	}
	/* never allocate for bytes the file does not hold */
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    r->off + sizeof(hdr) + clen > (uint64_t)st.st_size) {
		set_msg(r, -ENODATA,
			"chunk %u at byte %llu is cut short (%llu of %u bytes)",
			r->next_seq, (unsigned long long)r->off,
			(unsigned long long)(st.st_size - r->off - sizeof(hdr)),
			clen);
		return r->err;
	}
	if (rb_reserve(&r->zbuf, &r->zbuf_len, clen) ||
	    rb_reserve(&r->raw, &r->raw_len, ulen ? ulen : 1)) {
		set_msg(r, -ENOMEM, "out of memory for chunk %u (%u bytes)",
			r->next_seq, ulen);
		return r->err;
	}
	got = pread_all(r->fd, r->zbuf, clen, r->off + sizeof(hdr));
	if (got != (ssize_t)clen) {
		set_msg(r, got < 0 ? (int)got : -ENODATA,
			"chunk %u at byte %llu is cut short", r->next_seq,
			(unsigned long long)r->off);
		return r->err;
	}
	if (crc32(crc32(0, hdr, REC_CHUNK_CRC_SPAN), r->zbuf, clen) != crc) {
		set_msg(r, -EBADMSG, "chunk %u at byte %llu fails its CRC32",
			r->next_seq, (unsigned long long)r->off);
		return r->err;
	}
	dlen = ulen;
	if (uncompress(r->raw, &dlen, r->zbuf, clen) != Z_OK || dlen != ulen) {
		set_msg(r, -EBADMSG,
			"chunk %u at byte %llu does not inflate to %u bytes",
			r->next_seq, (unsigned long long)r->off, ulen);
		return r->err;
	}
	r->off += sizeof(hdr) + clen;
	r->next_seq++;
	r->nr_chunks++;
	*len = ulen;
	return 0;
}

int rec_open(struct rec_reader *r, const char *path)
{
	unsigned char pre[REC_PREAMBLE_LEN];
	char tmp[REC_ERR_LEN];
	uint32_t order;
	uint16_t major, minor, type;
	struct rcur c;
	size_t len;
	ssize_t got;
	int err;

	memset(r, 0, sizeof(*r));
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		err = -errno;
		snprintf(r->msg, sizeof(r->msg), "%s: %s", path,
			 strerror(-err));
		return err;
	}
	got = pread_all(r->fd, pre, sizeof(pre), 0);
	if (got != (ssize_t)sizeof(pre) ||
	    memcmp(pre, REC_MAGIC, REC_MAGIC_LEN)) {
		set_msg(r, -EBADMSG, "%s: not a pcptop recording (no %s magic)",
			path, REC_MAGIC);
		goto fail;
	}
	rc_init(&c, pre + REC_MAGIC_LEN, sizeof(pre) - REC_MAGIC_LEN);
	order = rc_u32(&c);
	major = rc_u16(&c);
	minor = rc_u16(&c);
	if (order == REC_BYTE_ORDER_SWAPPED) {
		set_msg(r, -EPROTO,
			"%s: a big-endian recording; this pcptop reads little-endian recordings only",
			path);
		goto fail;
	}
	if (order != REC_BYTE_ORDER) {
		set_msg(r, -EBADMSG, "%s: bad byte-order field 0x%08x", path,
			order);
		goto fail;
	}
	if (major != REC_VERSION_MAJOR) {
		set_msg(r, -EPROTO,
			"%s: format version %u.%u; this pcptop reads %d.x: use a pcptop as new as the one that recorded it",
			path, major, minor, REC_VERSION_MAJOR);
		goto fail;
	}
	r->off = sizeof(pre);
	err = read_chunk(r, &type, &len);
	if (err || type != REC_CHUNK_HEADER) {
		if (!err && type == REC_CHUNK_NONE)
			set_msg(r, -ENODATA, "no header chunk");
		else if (!err)
			set_msg(r, -EBADMSG,
				"first chunk is of type %u, not the header",
				type);
		/* the header is the file's first chunk: name the file */
		snprintf(tmp, sizeof(tmp), "%s", r->msg);
		set_msg(r, r->err, "%s: %s", path, tmp);
		goto fail;
	}
	err = rec_header_decode(r->raw, len, &r->h, tmp, sizeof(tmp));
	if (err) {
		set_msg(r, err, "%s: %s", path, tmp[0] ? tmp : "bad header");
		goto fail;
	}
	r->h.version_major = major;
	r->h.version_minor = minor;
	rec_legacy_series(&r->h);
	/* zones map by index (the last is "unknown"); orders and migratetypes must match */
	if (r->h.dims.max_zones < 2 ||
	    r->h.dims.order_slots != PCPTOP_ORDER_SLOTS ||
	    r->h.dims.mt_slots != PCPTOP_MT_SLOTS) {
		set_msg(r, -EPROTO,
			"%s: counters are keyed by %u zones x %u orders x %u migratetypes; this pcptop reads n x %d x %d",
			path, r->h.dims.max_zones, r->h.dims.order_slots,
			r->h.dims.mt_slots, PCPTOP_ORDER_SLOTS,
			PCPTOP_MT_SLOTS);
		goto fail_hdr;
	}
	/* the arrays come with the first chunk that holds them */
	r->snap.nr_cpus = (int)r->h.dims.nr_cpus;
	r->err = 0;
	r->msg[0] = '\0';
	return 0;
fail_hdr:
	rec_header_free(&r->h);
fail:
	err = r->err ? r->err : -EBADMSG;
	rec_close(r);
	/* rec_close() keeps msg: the caller prints it */
	return err;
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/*
 * A file's zone index as this build keys it: the file's last slot is its
 * "unknown", as is ours; real zones past ours (none has a pageset) join it.
 */
static int own_zone(const struct rec_dims *d, uint32_t z)
{
	if (z + 1 >= d->max_zones || z >= PCPTOP_ZONE_UNKNOWN)
		return PCPTOP_ZONE_UNKNOWN;
	return (int)z;
}

/*
 * Scatter the file's arrays into r->snap through the header's maps:
 * histograms or counters this build does not know are dropped, ones the
 * file lacks stay zero, and slots past ours fold into our last, as the
 * BPF side clamps.
 */
static void decode_arrays(struct rec_reader *r, const unsigned char *p)
{
	const struct rec_dims *d = &r->h.dims;
	struct snapshot *s = &r->snap;
	uint64_t now_sampled[REC_MAX_COUNTERS] = { 0 };
	uint32_t cpu, z, h, k, i;

	memset(s->hists, 0,
	       (size_t)s->nr_cpus * PCPTOP_NR_HIST_KEYS * sizeof(*s->hists));
	memset(s->counters, 0,
	       (size_t)s->nr_cpus * PCPTOP_NR_COUNTER_KEYS *
		       sizeof(*s->counters));
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		for (z = 0; z < d->max_zones; z++) {
			for (h = 0; h < d->nr_hists; h++) {
				struct pcptop_hist_val *v = NULL;
				int own = r->h.hist_map[h];
				uint32_t slot;

				if (own >= 0)
					v = &s->hists[(size_t)cpu *
							      PCPTOP_NR_HIST_KEYS +
						      pcptop_hist_key(
							      own_zone(d, z),
							      own)];
				for (i = 0; i <= d->hist_slots;
				     i++, p += REC_VALUE_SIZE) {
					if (!v)
						continue;
					if (i == d->hist_slots) {
						if (get_le64(p) > v->max)
							v->max = get_le64(p);
						continue;
					}
					slot = i < PCPTOP_HIST_SLOTS ?
						       i :
						       PCPTOP_HIST_SLOTS - 1;
					v->slots[slot] += get_le64(p);
				}
			}
		}
	}
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		for (k = 0; k < d->max_zones * d->order_slots * d->mt_slots;
		     k++) {
			uint32_t z = k / (d->order_slots * d->mt_slots);
			uint32_t om = k % (d->order_slots * d->mt_slots);
			int own = pcptop_counter_key(own_zone(d, z), 0, 0) + om;
			struct pcptop_counter_val *v =
				&s->counters[(size_t)cpu *
						     PCPTOP_NR_COUNTER_KEYS +
					     own];

			for (i = 0; i < d->nr_counters;
			     i++, p += REC_VALUE_SIZE) {
				if (r->h.cnt_map[i] >= 0)
					v->c[r->h.cnt_map[i]] += get_le64(p);
				else if (r->h.cnt_series[i] >= 0)
					now_sampled[i] += get_le64(p);
			}
		}
	}
	rec_legacy_counters(&r->h, now_sampled, s);
}

/*
 * The per-CPU arrays, allocated when the first interval (or detail) chunk
 * arrives rather than when the header names the CPUs: a header alone,
 * hostile or cut short, then costs nothing, and an interval chunk has
 * already been checked against the size those arrays take.
 */
static int snap_ensure(struct rec_reader *r)
{
	int nr_cpus = r->snap.nr_cpus;

	if (r->snap.hists)
		return 0;
	if (snapshot_alloc(&r->snap, nr_cpus)) {
		r->snap.nr_cpus = nr_cpus;
		set_msg(r, -ENOMEM, "out of memory for %d CPUs", nr_cpus);
		return r->err;
	}
	return 0;
}

static int decode_interval(struct rec_reader *r, size_t len,
			   struct rec_interval *iv)
{
	struct rcur c;
	uint32_t fixed, nr_cpus;
	uint64_t want;

	rc_init(&c, r->raw, len);
	fixed = rc_u32(&c);
	iv->seq = rc_u32(&c);
	iv->t_start_ns = rc_u64(&c);
	iv->t_end_ns = rc_u64(&c);
	iv->realtime_ns = rc_u64(&c);
	nr_cpus = rc_u32(&c);
	iv->flags = rc_u32(&c);
	want = fixed + iv_values(&r->h.dims) * REC_VALUE_SIZE;
	if (c.bad || fixed < REC_IV_FIXED_LEN || fixed > REC_IV_FIXED_MAX ||
	    nr_cpus != r->h.dims.nr_cpus || want != len ||
	    iv->t_end_ns < iv->t_start_ns) {
		set_msg(r, -EBADMSG,
			"interval chunk %u is malformed (%zu bytes, %llu expected)",
			r->next_seq - 1, len, (unsigned long long)want);
		return r->err;
	}
	if (snap_ensure(r))
		return r->err;
	/* an interval without its samples has no sampled values */
	if (!r->samples_pending || r->samples_seq != iv->seq)
		samples_clear(&r->snap.smp);
	decode_arrays(r, r->raw + fixed);
	samples_sum_zones(&r->snap.smp);
	/* an interval without its detail chunk has no latency */
	if (!r->detail_pending || r->detail_seq != iv->seq)
		rec_detail_clear(&r->snap);
	r->detail_pending = r->samples_pending = false;
	return 0;
}

int rec_next(struct rec_reader *r, struct rec_item *it)
{
	uint16_t type;
	bool zones;
	size_t len;
	int err;

	if (r->err)
		return r->err;
	for (;;) {
		memset(it, 0, sizeof(*it));
		err = read_chunk(r, &type, &len);
		if (err)
			return err;
		it->type = (enum rec_chunk_type)type;
		switch (type) {
		case REC_CHUNK_NONE:
			return 0;
		case REC_CHUNK_INTERVAL:
			return decode_interval(r, len, &it->iv);
		case REC_CHUNK_END:
			err = rec_end_decode(r->raw, len, &it->end, r->msg,
					     sizeof(r->msg));
			if (err)
				r->err = err;
			return err;
		case REC_CHUNK_DETAIL:
			if (snap_ensure(r))
				return r->err;
			if (rec_detail_decode(r->raw, len, &r->h, &r->snap,
					      &r->detail_seq, &zones)) {
				set_msg(r, -EBADMSG,
					"detail chunk %u is malformed (%zu bytes)",
					r->next_seq - 1, len);
				return r->err;
			}
			r->detail_pending = true;
			/* a 1.2 file's pcp memory: sampled values now */
			if (zones) {
				r->samples_pending = true;
				r->samples_seq = r->detail_seq;
			}
			break;
		case REC_CHUNK_SAMPLES:
			if (snap_ensure(r))
				return r->err;
			if (rec_samples_decode(r->raw, len, &r->h, &r->snap,
					       &r->samples_seq)) {
				set_msg(r, -EBADMSG,
					"samples chunk %u is malformed (%zu bytes)",
					r->next_seq - 1, len);
				return r->err;
			}
			r->samples_pending = true;
			break;
		case REC_CHUNK_TRACE:
		case REC_CHUNK_TRACE_PACKED:
		case REC_CHUNK_TRACE_RUNS:
			if (!r->want_trace)
				break;
			it->data = r->raw;
			it->len = len;
			return 0;
		case REC_CHUNK_HEADER:
			set_msg(r, -EBADMSG, "chunk %u is a second header",
				r->next_seq - 1);
			return r->err;
		default:
			/* a newer writer's chunk, whole and checked: skip it */
			break;
		}
	}
}

void rec_close(struct rec_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	rec_header_free(&r->h);
	snapshot_free(&r->snap);
	free(r->zbuf);
	free(r->raw);
	r->zbuf = r->raw = NULL;
	r->zbuf_len = r->raw_len = 0;
}
