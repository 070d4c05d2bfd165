/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The recording format of docs/FORMAT.md: a preamble, a header chunk of
 * the facts a run was made under, one chunk per interval holding the raw
 * per-CPU map values, and an end chunk. Every chunk is zlib-compressed
 * and CRC32-checked, so a reader can stop at the last whole chunk of a
 * file that is still growing or whose writer died.
 * Since 1.1 the header names every counter and histogram (figtab's
 * recording keys), so readers map them by name, not by position.
 *
 * Nothing here touches BPF: the unit tests link this file alone.
 */
#ifndef PCPTOP_RECFILE_H
#define PCPTOP_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "facts.h"
#include "snapshot.h"

#define REC_MAGIC "PCPTOPRC"
#define REC_MAGIC_LEN 8
#define REC_VERSION_MAJOR 1
#define REC_VERSION_MINOR 7

/* docs/FORMAT.md: the fixed parts of the file */
#define REC_PREAMBLE_LEN 16
#define REC_BYTE_ORDER 0x01020304u
#define REC_BYTE_ORDER_SWAPPED 0x04030201u
#define REC_CHUNK_MAGIC 0x4b484350u /* "PCHK" in file order */
#define REC_CHUNK_HDR_LEN 24
/* bytes of the chunk header the CRC covers: all but the CRC itself */
#define REC_CHUNK_CRC_SPAN 20
/* limits a reader holds every length to, before allocating anything */
#define REC_MAX_HEADER_LEN (16u << 20)
#define REC_MAX_END_LEN (8u << 20)
#define REC_MAX_CHUNK_LEN (1u << 30)
/* deflate cannot do better than about 1032:1 */
#define REC_ZLIB_MAX_RATIO 1032u
#define REC_ZLIB_RATIO_SLACK 64u
/* an interval chunk's fields before its arrays, in this version and at most */
#define REC_IV_FIXED_LEN 48
#define REC_IV_FIXED_MAX 4096
/* every array value is a little-endian u64 */
#define REC_VALUE_SIZE 8

/* the largest NR_CPUS of any Linux arch (x86 MAXSMP, powerpc) */
#define REC_MAX_CPUS 8192
#define REC_MAX_PROBES FACTS_MAX_PROBES
#define REC_MAX_ARGS 4096
#define REC_ERR_LEN 320
/* bounds of the dimensions a reader accepts */
#define REC_MAX_DIM 64
#define REC_MAX_COUNTERS 256
/* sampled series a header may name, and their zones and orders at most */
#define REC_MAX_SERIES 256
#define REC_MAX_SERIES_ZONES 64
#define REC_MAX_SERIES_ORDERS 64
/* in front of a counter's or histogram's name: the writer did not keep it */
#define REC_NAME_NOT_KEPT "~"
/* a sampled value the interval did not have */
#define REC_SAMPLE_ABSENT INT64_MIN

enum rec_chunk_type {
	REC_CHUNK_NONE = 0, /* rec_next(): the end of the file */
	REC_CHUNK_HEADER = 1,
	REC_CHUNK_INTERVAL = 2,
	REC_CHUNK_END = 3,
	REC_CHUNK_DETAIL = 4, /* 1.2+: latency, before its interval */
	REC_CHUNK_SAMPLES = 5, /* 1.3+: sampled series, before its interval */
	REC_CHUNK_TRACE = 6, /* 1.4+: record --trace (rectrace_chunk.h) */
	REC_CHUNK_TRACE_PACKED = 7, /* 1.5+: the same, events packed */
	/* 1.6+: packed, an allocation's or free's payload a run's length */
	REC_CHUNK_TRACE_RUNS = 8,
};

/* a record --trace chunk, of any version */
static inline bool rec_chunk_is_trace(uint16_t type)
{
	return type == REC_CHUNK_TRACE || type == REC_CHUNK_TRACE_PACKED ||
	       type == REC_CHUNK_TRACE_RUNS;
}

/* the shape of the per-CPU arrays, as the writer's bpf/pcptop.h had it */
struct rec_dims {
	uint32_t nr_cpus;
	uint32_t hist_slots;
	uint32_t max_zones;
	uint32_t nr_hists;
	uint32_t order_slots;
	uint32_t mt_slots;
	uint32_t nr_counters;
};

/* everything known before the first interval */
struct rec_header {
	uint16_t version_major;
	uint16_t version_minor;
	char pcptop_version[32];
	uint64_t start_realtime_ns;
	uint64_t interval_ns; /* as asked with -i */
	struct rec_dims dims;
	/*
	 * The file's counter i is this build's cnt_map[i] (-1: unknown to
	 * this build, dropped); likewise histograms. From the names of a 1.1
	 * header, or 1.0's fixed order.
	 */
	int cnt_map[REC_MAX_COUNTERS];
	int hist_map[REC_MAX_DIM];
	bool have_names; /* the header named them (1.1+) */
	/*
	 * Sampled series (1.3+), in the order of a samples chunk's values:
	 * the file's series i is this build's figure series_fig[i] (-1:
	 * unknown, skipped); it has a value for each of series_zones[i]
	 * zones (0: one value), each of series_orders[i] orders (0: none).
	 */
	int nr_series;
	int series_fig[REC_MAX_SERIES];
	uint32_t series_zones[REC_MAX_SERIES];
	uint32_t series_orders[REC_MAX_SERIES];
	/* 1.1, 1.2: the file's counter i is now sampled figure cnt_series[i] */
	int cnt_series[REC_MAX_COUNTERS];
	/*
	 * 1.2: node 0's zone names in index order, which a detail chunk's
	 * zone records map to (f.zones may be handed over to a summary)
	 */
	char zone_name[SAMPLE_ZONES][ZONE_NAME_LEN];
	struct facts f; /* zones allocated: rec_header_free() */
	int argc; /* 0: no command, the system was recorded */
	char **argv; /* allocated; rec_header_free() */
};

/* the end chunk: why and how the recording stopped */
struct rec_end {
	char reason[64]; /* "command exited", "signal", "duration" */
	bool have_command;
	int exit_code; /* what pcptop record exited with, 0..255 */
	int wait_status; /* raw, as from wait4() */
	int term_signal; /* 0 unless the command died of a signal */
	uint64_t wall_ns; /* the command's life, fork to reap */
	uint64_t utime_ns;
	uint64_t stime_ns;
	uint64_t maxrss_kb;
	uint32_t nr_intervals;
	uint64_t recorded_ns; /* first interval start to last interval end */
};

/* one interval's timing; its counts travel in a struct snapshot */
struct rec_interval {
	uint32_t seq;
	uint32_t flags;
	uint64_t t_start_ns; /* CLOCK_MONOTONIC, since the recording began */
	uint64_t t_end_ns;
	uint64_t realtime_ns; /* CLOCK_REALTIME at t_end */
};

/* set on the interval cut short by the end of the recording */
#define REC_IV_PARTIAL 0x1

struct rec_writer {
	int fd;
	bool series[FIGTAB_MAX]; /* the sampled figures the header names */
	uint32_t seq; /* chunk sequence number */
	struct rec_dims dims;
	uint64_t bytes; /* written so far */
	unsigned char *raw; /* an interval's payload, reused */
	size_t raw_len;
	unsigned char *zbuf;
	size_t zbuf_len;
};

struct rec_reader {
	int fd;
	struct rec_header h;
	uint32_t next_seq;
	uint64_t off; /* file offset of the next chunk */
	uint32_t nr_chunks; /* whole chunks read, the header included */
	int err; /* sticky: once a chunk is bad reading stops */
	char msg[REC_ERR_LEN];
	struct snapshot snap; /* the last interval read */
	bool detail_pending; /* a detail chunk waits for its interval */
	uint32_t detail_seq; /* ... of that interval */
	bool samples_pending; /* sampled values wait for their interval */
	/* rec_next() hands trace chunks over (rec_item.data) instead of skipping */
	bool want_trace;
	uint32_t samples_seq;
	unsigned char *zbuf;
	size_t zbuf_len;
	unsigned char *raw;
	size_t raw_len;
};

/* what rec_next() read */
struct rec_item {
	enum rec_chunk_type type;
	struct rec_interval iv; /* REC_CHUNK_INTERVAL: counts in r->snap */
	struct rec_end end; /* REC_CHUNK_END */
	/* REC_CHUNK_TRACE: the inflated payload, valid until the next call */
	const unsigned char *data;
	size_t len;
};

/* the dimensions of this build's maps (bpf/pcptop.h) */
void rec_dims_own(struct rec_dims *d, int nr_cpus);
/* a header to fill for writing: this build's dimensions, 1:1 maps */
void rec_header_init(struct rec_header *h, int nr_cpus);

/*
 * Create path (mode 0644, truncated) and write the preamble and the
 * header chunk. h->dims must be rec_dims_own(): intervals are written in
 * this build's layout, nr_cpus of them per chunk.
 */
int rec_writer_open(struct rec_writer *w, const char *path,
		    const struct rec_header *h);
int rec_write_interval(struct rec_writer *w, const struct rec_interval *iv,
		       const struct snapshot *s);
int rec_write_end(struct rec_writer *w, const struct rec_header *h,
		  const struct rec_end *e);
/* one chunk of any type: for tests and for chunk types to come */
int rec_write_chunk(struct rec_writer *w, uint16_t type, const void *data,
		    size_t len);
/* the same at zlib's level (Z_BEST_SPEED ... Z_BEST_COMPRESSION) */
int rec_write_chunk_level(struct rec_writer *w, uint16_t type, const void *data,
			  size_t len, int level);
/* fsync: at the end of a recording and when a signal ends it */
int rec_writer_sync(struct rec_writer *w);
/* 0 or -errno of the last close() */
int rec_writer_close(struct rec_writer *w);

/*
 * Read the preamble and the header chunk. On error r->msg says what is
 * wrong in one line and nothing needs closing.
 */
int rec_open(struct rec_reader *r, const char *path);
/*
 * The next chunk into *it: 0 with it->type set (REC_CHUNK_NONE at a clean
 * end of file), or -errno when the rest is unreadable (r->msg says why
 * and where: -ENODATA for a chunk cut short, -EBADMSG for a corrupt one).
 * Chunks of unknown types are skipped, so newer writers stay readable.
 */
int rec_next(struct rec_reader *r, struct rec_item *it);
void rec_close(struct rec_reader *r);

/* the facts the header keeps, filled and freed by the callers */
void rec_header_free(struct rec_header *h);

/*
 * Between recwrite.c, recread.c and rechdr.c: the tagged records of the header and
 * end chunks. Decoders return 0 or -EBADMSG with msg saying what is wrong.
 */
struct rbuf;
void rec_header_encode(struct rbuf *b, const struct rec_header *h);
int rec_header_decode(const void *p, size_t len, struct rec_header *h,
		      char *msg, size_t msglen);
void rec_end_encode(struct rbuf *b, const struct rec_header *h,
		    const struct rec_end *e);
int rec_end_decode(const void *p, size_t len, struct rec_end *e, char *msg,
		   size_t msglen);
/* rechdr.c's, for a 1.0 header (reclegacy.c): pcptop 0.1.0's array order */
void rec_legacy_maps(struct rec_header *h);
/* "bonnie++ -d /tmp -s 256" into buf, arguments with blanks quoted */
void rec_argv_join(int argc, char *const *argv, char *buf, size_t len);

/* recdetail.c: the detail chunk's payload */
struct rbuf;
struct rcur;
/* nothing is added when s has no latency */
int rec_detail_encode(struct rbuf *b, uint32_t seq, const struct snapshot *s);
/*
 * Into s's latency (CPU 0: the sum), and a 1.2 file's pcp memory into its
 * sampled figures (zones named as h's facts name them); 0 or -EBADMSG.
 * *zones tells whether it had any.
 */
int rec_detail_decode(const unsigned char *p, size_t len,
		      const struct rec_header *h, struct snapshot *s,
		      uint32_t *seq, bool *zones);
void rec_detail_clear(struct snapshot *s);

/* recsample.c: the sampled series of the header and the samples chunk */
/* one header record per series h->f.sampled names */
void rec_series_encode(struct rbuf *b, const struct rec_header *h,
		       uint16_t tag);
/* a series record into h's series_* maps and h->f.sampled */
int rec_series_decode(struct rcur *c, struct rec_header *h);
/* the values of the series w->series names; nothing without any */
int rec_samples_encode(struct rbuf *b, const struct rec_writer *w, uint32_t seq,
		       const struct snapshot *s);
/* into s->smp through h's maps (cleared first); 0 or -EBADMSG */
int rec_samples_decode(const unsigned char *p, size_t len,
		       const struct rec_header *h, struct snapshot *s,
		       uint32_t *seq);
/*
 * What format 1.1 and 1.2 kept elsewhere: the recursion_misses counter
 * and the detail chunk's pcp memory are sampled figures now. The first
 * gives the figure a counter of that name became (-1: none); the second
 * marks those figures sampled in a header of that version.
 */
int rec_legacy_counter_series(const char *counter);
void rec_legacy_series(struct rec_header *h);
/* a 1.1/1.2 interval's counters that are sampled figures now, into s->smp */
void rec_legacy_counters(const struct rec_header *h, const uint64_t *sums,
			 struct snapshot *s);

#endif /* PCPTOP_RECFILE_H */
