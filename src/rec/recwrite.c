// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing recordings (docs/FORMAT.md): the preamble, then chunks, each
 * zlib-compressed, CRC32-checked and written whole with one write after
 * another, so a killed writer leaves whole chunks behind it; fsync comes
 * at the end (and on signals), not with every chunk. Interval chunks carry the raw per-CPU
 * map values exactly as the BPF side keyed them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>
#include "outfile.h"
#include "recbuf.h"
#include "recfile.h"

void rec_dims_own(struct rec_dims *d, int nr_cpus)
{
	d->nr_cpus = (uint32_t)nr_cpus;
	d->hist_slots = PCPTOP_HIST_SLOTS;
	d->max_zones = PCPTOP_MAX_ZONES;
	d->nr_hists = NR_PCPTOP_HISTS;
	d->order_slots = PCPTOP_ORDER_SLOTS;
	d->mt_slots = PCPTOP_MT_SLOTS;
	d->nr_counters = NR_PCPTOP_COUNTERS;
}

void rec_header_init(struct rec_header *h, int nr_cpus)
{
	int i;

	memset(h, 0, sizeof(*h));
	facts_init(&h->f);
	h->version_major = REC_VERSION_MAJOR;
	h->version_minor = REC_VERSION_MINOR;
	rec_dims_own(&h->dims, nr_cpus);
	h->have_names = true;
	for (i = 0; i < REC_MAX_COUNTERS; i++) {
		h->cnt_map[i] = i < NR_PCPTOP_COUNTERS ? i : -1;
		h->cnt_series[i] = -1;
	}
	for (i = 0; i < REC_MAX_DIM; i++)
		h->hist_map[i] = i < NR_PCPTOP_HISTS ? i : -1;
}

int rec_write_chunk(struct rec_writer *w, uint16_t type, const void *data,
		    size_t len)
{
	return rec_write_chunk_level(w, type, data, len, Z_DEFAULT_COMPRESSION);
}

int rec_write_chunk_level(struct rec_writer *w, uint16_t type, const void *data,
			  size_t len, int level)
{
	unsigned char hdr[REC_CHUNK_HDR_LEN];
	struct rbuf hb = {};
	uLongf clen = compressBound(len);
	uint32_t crc;
	int err;

	if (len > REC_MAX_CHUNK_LEN)
		return -E2BIG;
	err = rb_reserve(&w->zbuf, &w->zbuf_len, clen);
	if (err)
		return err;
	if (compress2(w->zbuf, &clen, data, len, level) != Z_OK)
		return -EIO;

	rb_u32(&hb, REC_CHUNK_MAGIC);
	rb_u16(&hb, type);
	rb_u16(&hb, 0);
	rb_u32(&hb, w->seq);
	rb_u32(&hb, (uint32_t)clen);
	rb_u32(&hb, (uint32_t)len);
	if (hb.err) {
		rb_free(&hb);
		return hb.err;
	}
	crc = crc32(0, hb.p, REC_CHUNK_CRC_SPAN);
	crc = crc32(crc, w->zbuf, clen);
	rb_u32(&hb, crc);
	memcpy(hdr, hb.p, sizeof(hdr));
	rb_free(&hb);

	err = outfile_write_all(w->fd, hdr, sizeof(hdr));
	if (!err)
		err = outfile_write_all(w->fd, w->zbuf, clen);
	if (err)
		return err;
	/*
	 * No fsync here: a journal commit every interval would add to the
	 * very disk I/O a benchmark measures. A killed pcptop leaves its
	 * whole chunks in the page cache all the same; rec_writer_sync()
	 * runs at the end and on signals.
	 */
	w->seq++;
	w->bytes += sizeof(hdr) + clen;
	return 0;
}

int rec_writer_open(struct rec_writer *w, const char *path,
		    const struct rec_header *h)
{
	struct rbuf b = {};
	int err;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	if (h->dims.nr_cpus < 1 || h->dims.nr_cpus > REC_MAX_CPUS)
		return -EINVAL;
	rec_dims_own(&w->dims, (int)h->dims.nr_cpus);
	/* intervals are written in this build's layout: say so */
	if (memcmp(&w->dims, &h->dims, sizeof(w->dims)))
		return -EINVAL;
	memcpy(w->series, h->f.sampled, sizeof(w->series));
	/* never through a symlink, never over anything but a file */
	w->fd = outfile_scratch(path);
	if (w->fd < 0)
		return w->fd;

	rb_put(&b, REC_MAGIC, REC_MAGIC_LEN);
	rb_u32(&b, REC_BYTE_ORDER);
	rb_u16(&b, REC_VERSION_MAJOR);
	rb_u16(&b, REC_VERSION_MINOR);
	err = b.err ? b.err : outfile_write_all(w->fd, b.p, b.len);
	if (err)
		goto fail;
	w->bytes = b.len;
	rb_reset(&b);
	rec_header_encode(&b, h);
	err = b.err ? b.err : rec_write_chunk(w, REC_CHUNK_HEADER, b.p, b.len);
	if (err)
		goto fail;
	rb_free(&b);
	return 0;
fail:
	rb_free(&b);
	rec_writer_close(w);
	return err;
}

static void put_u64s(unsigned char *dst, const uint64_t *src, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(dst, src, n * REC_VALUE_SIZE);
#else
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = htole64(src[i]);

		memcpy(dst + i * REC_VALUE_SIZE, &v, REC_VALUE_SIZE);
	}
#endif
}

int rec_write_interval(struct rec_writer *w, const struct rec_interval *iv,
		       const struct snapshot *s)
{
	size_t nh = (size_t)w->dims.nr_cpus * PCPTOP_NR_HIST_KEYS *
		    (sizeof(struct pcptop_hist_val) / REC_VALUE_SIZE);
	size_t nc = (size_t)w->dims.nr_cpus * PCPTOP_NR_COUNTER_KEYS *
		    NR_PCPTOP_COUNTERS;
	size_t len = REC_IV_FIXED_LEN + (nh + nc) * REC_VALUE_SIZE;
	struct rbuf b = {};
	int err;

	/* the structs are plain u64 arrays: no padding to skip */
	_Static_assert(sizeof(struct pcptop_hist_val) ==
			       (PCPTOP_HIST_SLOTS + 1) * REC_VALUE_SIZE,
		       "pcptop_hist_val has padding");
	_Static_assert(sizeof(struct pcptop_counter_val) ==
			       NR_PCPTOP_COUNTERS * REC_VALUE_SIZE,
		       "pcptop_counter_val has padding");
	if (s->nr_cpus != (int)w->dims.nr_cpus)
		return -EINVAL;
	err = rec_detail_encode(&b, iv->seq, s);
	if (!err && b.len)
		err = rec_write_chunk(w, REC_CHUNK_DETAIL, b.p, b.len);
	rb_reset(&b);
	if (!err)
		err = rec_samples_encode(&b, w, iv->seq, s);
	if (!err && b.len)
		err = rec_write_chunk(w, REC_CHUNK_SAMPLES, b.p, b.len);
	rb_free(&b);
	memset(&b, 0, sizeof(b));
	if (err)
		return err;
	err = rb_reserve(&w->raw, &w->raw_len, len);
	if (err)
		return err;
	rb_u32(&b, REC_IV_FIXED_LEN);
	rb_u32(&b, iv->seq);
	rb_u64(&b, iv->t_start_ns);
	rb_u64(&b, iv->t_end_ns);
	rb_u64(&b, iv->realtime_ns);
	rb_u32(&b, w->dims.nr_cpus);
	rb_u32(&b, iv->flags);
	rb_u64(&b, 0);
	if (b.err || b.len != REC_IV_FIXED_LEN) {
		err = b.err ? b.err : -EINVAL;
		rb_free(&b);
		return err;
	}
	memcpy(w->raw, b.p, b.len);
	rb_free(&b);
	put_u64s(w->raw + REC_IV_FIXED_LEN, (const uint64_t *)s->hists, nh);
	put_u64s(w->raw + REC_IV_FIXED_LEN + nh * REC_VALUE_SIZE,
		 (const uint64_t *)s->counters, nc);
	return rec_write_chunk(w, REC_CHUNK_INTERVAL, w->raw, len);
}

int rec_write_end(struct rec_writer *w, const struct rec_header *h,
		  const struct rec_end *e)
{
	struct rbuf b = {};
	int err;

	rec_end_encode(&b, h, e);
	err = b.err ? b.err : rec_write_chunk(w, REC_CHUNK_END, b.p, b.len);
	rb_free(&b);
	return err;
}

int rec_writer_sync(struct rec_writer *w)
{
	/* pipes and some file systems cannot sync: nothing to do there */
	if (w->fd >= 0 && fsync(w->fd) && errno != EINVAL && errno != EROFS)
		return -errno;
	return 0;
}

int rec_writer_close(struct rec_writer *w)
{
	int err = 0;

	if (w->fd >= 0 && close(w->fd))
		err = -errno;
	w->fd = -1;
	free(w->raw);
	free(w->zbuf);
	w->raw = w->zbuf = NULL;
	w->raw_len = w->zbuf_len = 0;
	return err;
}
