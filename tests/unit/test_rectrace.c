// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --trace's chunks through the real writer and the reader whatif
 * uses: a written-then-read recording, payloads rebased across chunks,
 * the pcp/buddy path decided by order, losses and their windows, files
 * cut at every length, malformed payloads, and the rule set of a kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "pcptrace.h"
#include "recbuf.h"
#include "recfile_fixture.h"
#include "rectrace.h"
#include "rectrace_chunk.h"
#include "recsum.h"
#include "scale.h"
#include "unit.h"

#define T0 1000000000ULL
#define HOOKS (PCPT_HOOK_ALLOC_FREE | PCPT_HOOK_ZONEINFO)

static struct pcpmodel_event ev(uint64_t t, int type, int cpu, int order,
				int mt)
{
	struct pcpmodel_event e = { .time_ns = t,
				    .cpu = (uint16_t)cpu,
				    .type = (uint8_t)type,
				    .zone = 2,
				    .order = (uint8_t)order,
				    .migratetype = (uint8_t)mt,
				    .path = PCPT_PATH_BY_ORDER };
	return e;
}

/* what write_chunk() writes: the recorder's packed events, or 1.4's */
static uint16_t chunk_type = REC_CHUNK_TRACE_PACKED;

static int write_chunk(struct rec_writer *w, struct rec_trace_chunk *c)
{
	struct rbuf b = { 0 };
	int err;

	rec_trace_encode(&b, c, chunk_type);
	err = b.err ? b.err : rec_write_chunk(w, chunk_type, b.p, b.len);
	rb_free(&b);
	rec_trace_chunk_reset(c);
	return err;
}

/*
 * header; trace (pcp + zone state, 3 allocs, a loss); interval; trace
 * (a free of unknown migratetype, a snapshot, an order-5 alloc, an
 * order-9 alloc); end. ends[] as rf_write_ref() gives them.
 */
static size_t write_traced(const char *path, uint64_t ends[MAX_CHUNKS])
{
	struct pcpmodel_pcp_state st = { .count = 10,
					 .high = 100,
					 .batch = 63 };
	struct pcpmodel_zone_state zs = { .free_pages = 5000,
					  .wmark_high = 300,
					  .fields = PCPM_ZFIELD_WMARK };
	struct rec_trace_loss l = { T0 + 40, T0 + 60, 7, 1 };
	struct rec_trace_chunk c = { .hooks = HOOKS,
				     .ringbuf_bytes = 4096,
				     .t0_ns = T0 };
	struct rec_header h;
	struct zoneinfo zi;
	struct rec_writer w;
	struct rec_interval iv = { .t_end_ns = 500 };
	struct rec_end e = { .nr_intervals = 1 };
	struct pcpmodel_event x;
	struct snapshot s;
	size_t n = 0;

	rf_make_header(&h, &zi);
	rf_snap_init(&s);
	CHECK_EQ_INT(rec_writer_open(&w, path, &h), 0);
	ends[n++] = w.bytes;
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 1, 1, 2, &st), 0);
	CHECK_EQ_INT(rec_trace_add_zone(&c, T0 + 2, 2, &zs), 0);
	x = ev(T0 + 10, PCPM_EV_ALLOC, 0, 0, 1);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	x = ev(T0 + 20, PCPM_EV_ALLOC, 1, 3, 0);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	x = ev(T0 + 30, PCPM_EV_ALLOC, 1, 0, 2);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	CHECK_EQ_INT(rec_trace_add_loss(&c, &l), 0);
	CHECK_EQ_INT(write_chunk(&w, &c), 0);
	ends[n++] = w.bytes;
	rf_fill_snap(&s, 1);
	CHECK_EQ_INT(rec_write_interval(&w, &iv, &s), 0);
	ends[n++] = w.bytes;
	x = ev(T0 + 70, PCPM_EV_FREE, 0, 0, PCPT_MT_UNKNOWN);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	st.count = 20;
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 80, 0, 2, &st), 0);
	x = ev(T0 + 90, PCPM_EV_ALLOC, 0, 5, 1);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	x = ev(T0 + 95, PCPM_EV_ALLOC, 0, 9, 1);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	CHECK_EQ_INT(write_chunk(&w, &c), 0);
	ends[n++] = w.bytes;
	CHECK_EQ_INT(rec_write_end(&w, &h, &e), 0);
	ends[n++] = w.bytes;
	CHECK_EQ_INT(rec_writer_close(&w), 0);
	rec_trace_chunk_free(&c);
	zoneinfo_free(&zi);
	rf_snap_fini(&s);
	return n;
}

static void test_rectrace_round_trip(void)
{
	const char *path = rf_tpath("trace.data");
	uint64_t ends[MAX_CHUNKS];
	const struct pcpmodel_event *e;
	struct rec_trace t;
	char msg[320];

	write_traced(path, ends);
	REQUIRE(rec_trace_load(path, &t, msg, sizeof(msg)) == 0);
	CHECK(!t.truncated);
	CHECK_EQ_U64(t.stream.nr_events, 9);
	CHECK_EQ_U64(t.stream.nr_pcp_states, 2);
	CHECK_EQ_U64(t.stream.nr_zone_states, 1);
	e = t.stream.events;
	/* the second chunk's snapshot points at the second state */
	CHECK_EQ_INT(e[6].type, PCPM_EV_SNAPSHOT);
	CHECK_EQ_INT(e[6].payload, 1);
	CHECK_EQ_INT(t.stream.pcp_states[e[6].payload].count, 20);
	CHECK_EQ_INT(e[1].type, PCPM_EV_ZONE_STATE);
	CHECK_EQ_U64(t.stream.zone_states[e[1].payload].free_pages, 5000);
	/* pcp_allowed_order(): 0..3 and the THP order (the header's 9) */
	CHECK_EQ_INT(e[3].path, PCPM_PATH_PCP);
	CHECK_EQ_INT(e[7].path, PCPM_PATH_BUDDY);
	CHECK_EQ_INT(e[8].path, PCPM_PATH_PCP);
	CHECK_EQ_INT(e[5].migratetype, PCPT_MT_UNKNOWN);
	CHECK(!t.free_mt_known);
	CHECK_EQ_U64(t.first_ns, T0 + 1);
	CHECK_EQ_U64(t.last_ns, T0 + 95);
	CHECK_EQ_U64(t.t0_ns, T0);
	CHECK_EQ_INT(t.hooks, HOOKS);
	CHECK_EQ_INT(t.ringbuf_bytes, 4096);
	CHECK_EQ_U64(t.lost_events, 7);
	CHECK_EQ_U64(t.nr_losses, 1);
	CHECK_EQ_INT(t.losses[0].cpu, 1);
	CHECK_EQ_U64(rec_trace_lost_between(&t, T0, T0 + 40), 0);
	CHECK_EQ_U64(rec_trace_lost_between(&t, T0 + 50, T0 + 51), 7);
	CHECK_EQ_U64(rec_trace_lost_between(&t, T0 + 60, T0 + 100), 7);
	CHECK_EQ_U64(rec_trace_lost_between(&t, T0 + 61, T0 + 100), 0);
	/* the fixture's facts: 6.1 with the config option, scale 5 */
	CHECK_EQ_INT(t.meta.scale, 5);
	CHECK_EQ_STR(t.meta.scale_source, "config");
	CHECK_EQ_INT(t.meta.rules.base, PCPM_RULES_6_1_CAPPED);
	CHECK_EQ_INT(t.meta.thp_order, 9);
	CHECK_EQ_INT(t.meta.nr_cpus, NR_CPUS);
	CHECK_EQ_STR(t.meta.kernel_release, "6.1.0-cip-test");
	rec_trace_free(&t);
}

/* a 1.4 recording's 24-byte events read as they did */
static void test_rectrace_round_trip_14(void)
{
	chunk_type = REC_CHUNK_TRACE;
	test_rectrace_round_trip();
	chunk_type = REC_CHUNK_TRACE_PACKED;
}

/*
 * Packed events read back as the 24-byte ones do, field for field: times
 * out of order and far apart, every field changing alone, a CPU past a
 * varint byte, payloads, a type past the enum
 */
static void test_rectrace_packed(void)
{
	struct rec_trace_chunk c = { .hooks = HOOKS, .t0_ns = T0 };
	struct rec_trace_chunk flat = { 0 }, packed = { 0 };
	struct pcpmodel_zone_state zs = { .free_pages = 1 };
	struct pcpmodel_pcp_state st = { .count = 1 };
	struct rbuf b = { 0 }, bf = { 0 };
	struct pcpmodel_event x;
	char msg[320];
	unsigned int seed = 1, i;

	for (i = 0; i < 2000; i++) {
		seed = seed * 1103515245u + 12345u;
		x = ev(T0 + i * 1000 - (seed >> 20) % 3000, (seed >> 8) % 6,
		       (seed >> 12) % 7 ? 0 : (seed >> 4) % 300,
		       (seed >> 16) % 5 ? 0 : (seed >> 6) % 11,
		       (seed >> 14) % 3);
		if (!(seed % 13))
			x.reason = (uint8_t)(seed >> 24);
		if (!(seed % 17))
			x.caller = (uint8_t)(seed >> 25);
		if (!(seed % 19))
			x.zone = PCPT_ZONE_UNKNOWN;
		if (!(seed % 23))
			x.type = 31;
		if (!(seed % 29))
			x.time_ns = seed % 2 ? 0 : UINT64_MAX;
		CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
		if (!(seed % 31))
			CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + i, i % 4, 1,
						       &st),
				     0);
		if (!(seed % 37))
			CHECK_EQ_INT(rec_trace_add_zone(&c, T0 + i, 2, &zs), 0);
	}
	rec_trace_encode(&b, &c, REC_CHUNK_TRACE_PACKED);
	rec_trace_encode(&bf, &c, REC_CHUNK_TRACE);
	REQUIRE(!b.err && !bf.err);
	/* smaller, even with a field changing every few events */
	CHECK(b.len < bf.len);
	/* twice: the second's payloads rebased past the first's states */
	for (i = 0; i < 2; i++) {
		CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE_PACKED, b.p,
					      b.len, &packed, msg, sizeof(msg)),
			     0);
		CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE, bf.p, bf.len,
					      &flat, msg, sizeof(msg)),
			     0);
	}
	REQUIRE(packed.nr_events == flat.nr_events);
	CHECK_EQ_U64(packed.nr_events, 2 * c.nr_events);
	CHECK_EQ_U64(packed.nr_pcp, 2 * c.nr_pcp);
	CHECK_EQ_U64(packed.nr_zones, 2 * c.nr_zones);
	CHECK(!memcmp(packed.events, flat.events,
		      flat.nr_events * sizeof(*flat.events)));
	/* an event type past 5 bits cannot be packed */
	x.type = 32;
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	rb_free(&b);
	rec_trace_encode(&b, &c, REC_CHUNK_TRACE_PACKED);
	CHECK_EQ_INT(b.err, -ERANGE);
	rb_free(&b);
	rb_free(&bf);
	rec_trace_chunk_free(&c);
	rec_trace_chunk_free(&flat);
	rec_trace_chunk_free(&packed);
}

/* packed events that do not read: each refused, nothing added */
static void test_rectrace_packed_bad(void)
{
	struct rec_trace_chunk c = { .t0_ns = T0 }, out = { 0 };
	struct pcpmodel_event x = ev(T0 + 5, PCPM_EV_FREE, 0, 0, 1);
	const size_t f = REC_TRACE_FIXED_LEN;
	unsigned char *p;
	struct rbuf b = { 0 };
	char msg[320];
	uint32_t v;

	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	x.time_ns += 200; /* a 2-byte varint */
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	rec_trace_encode(&b, &c, REC_CHUNK_TRACE_PACKED);
	REQUIRE(!b.err);
	/* flag, 1-byte time, cpu, 6 fields; flag, 2-byte time */
	CHECK_EQ_U64(b.len, f + 9 + 3);
	REQUIRE((p = malloc(b.len + 1)) != NULL);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE_PACKED, b.p, b.len, &out,
				      msg, sizeof(msg)),
		     0);
	CHECK_EQ_U64(out.events[1].time_ns, T0 + 205);
	/* read as 1.4's layout: its length does not add up */
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE, b.p, b.len, &out, msg,
				      sizeof(msg)),
		     -EBADMSG);
	/* a reserved flag bit */
	memcpy(p, b.p, b.len);
	p[f] |= 0x80;
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE_PACKED, p, b.len, &out,
				      msg, sizeof(msg)),
		     -EBADMSG);
	/* the last varint cut: its last byte says more follows */
	memcpy(p, b.p, b.len);
	p[b.len - 1] |= 0x80;
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE_PACKED, p, b.len, &out,
				      msg, sizeof(msg)),
		     -EBADMSG);
	/* a byte more in the events than they use */
	memcpy(p, b.p, b.len);
	p[b.len] = 0;
	v = htole32(13);
	memcpy(p + 40, &v, 4);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE_PACKED, p, b.len + 1,
				      &out, msg, sizeof(msg)),
		     -EBADMSG);
	/* fewer event bytes than 2 an event */
	v = htole32(3);
	memcpy(p + 40, &v, 4);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE_PACKED, p, f + 3, &out,
				      msg, sizeof(msg)),
		     -EBADMSG);
	CHECK_EQ_U64(out.nr_events, 2);
	free(p);
	rb_free(&b);
	rec_trace_chunk_free(&c);
	rec_trace_chunk_free(&out);
}

/* what report reads of it, chunk by chunk */
static void test_rectrace_tally(void)
{
	const char *path = rf_tpath("trace-sum.data");
	uint64_t ends[MAX_CHUNKS];
	struct rec_summary s;
	char msg[320];

	write_traced(path, ends);
	REQUIRE(rec_summary_load(path, &s, msg, sizeof(msg)) == 0);
	CHECK_EQ_INT(s.stop_err, 0);
	CHECK_EQ_INT(s.nr_points, 1);
	CHECK_EQ_INT(s.trace.chunks, 2);
	CHECK_EQ_U64(s.trace.events[PCPM_EV_ALLOC], 5);
	CHECK_EQ_U64(s.trace.events[PCPM_EV_FREE], 1);
	CHECK_EQ_U64(s.trace.events[PCPM_EV_SNAPSHOT], 2);
	CHECK_EQ_U64(s.trace.lost, 7);
	CHECK_EQ_U64(s.trace.loss_windows, 1);
	CHECK(secs_between(s.trace.t0_ns, s.trace.loss_first_ns) == 40e-9);
	rec_summary_free(&s);
	rf_write_ref(path, ends);
	REQUIRE(rec_summary_load(path, &s, msg, sizeof(msg)) == 0);
	CHECK_EQ_INT(s.trace.chunks, 0);
	rec_summary_free(&s);
}

static void test_rectrace_absent(void)
{
	const char *path = rf_tpath("notrace.data");
	uint64_t ends[MAX_CHUNKS];
	struct rec_trace t;
	char msg[320];

	rf_write_ref(path, ends);
	CHECK_EQ_INT(rec_trace_load(path, &t, msg, sizeof(msg)), -ENOENT);
	CHECK(strstr(msg, "without --trace") != NULL);
	CHECK_EQ_INT(rec_trace_load(rf_tpath("does-not-exist"), &t, msg,
				    sizeof(msg)),
		     -EINVAL);
}

/* every prefix: the header's cut is bad, later cuts keep whole chunks */
static void test_rectrace_truncated(void)
{
	const char *path = rf_tpath("trace-full.data");
	const char *cut = rf_tpath("trace-cut.data");
	uint64_t ends[MAX_CHUNKS];
	unsigned char *buf;
	struct rec_trace t;
	size_t len, n, at;
	char msg[320];
	int err;

	n = write_traced(path, ends);
	REQUIRE(n == 5);
	REQUIRE(rf_load(path, &buf, &len) == 0);
	for (at = 0; at < len; at++) {
		uint64_t want = at >= ends[3] ? 9 : at >= ends[1] ? 5 : 0;

		rf_store(cut, buf, at);
		err = rec_trace_load(cut, &t, msg, sizeof(msg));
		if (at < ends[0]) {
			CHECK_EQ_INT(err, -EINVAL);
			continue;
		}
		if (!want) {
			CHECK_EQ_INT(err, -ENOENT);
			continue;
		}
		CHECK_EQ_INT(err, 0);
		if (err)
			break;
		CHECK_EQ_U64(t.stream.nr_events, want);
		/* cut inside a chunk: said; on a boundary: a clean end */
		CHECK_EQ_INT(t.truncated,
			     at != ends[1] && at != ends[2] && at != ends[3]);
		rec_trace_free(&t);
	}
	free(buf);
}

static void test_rectrace_decode_bad(void)
{
	struct rec_trace_chunk c = { .t0_ns = T0 }, out = { 0 };
	struct pcpmodel_pcp_state st = { .count = 1 };
	struct rec_trace_loss l = { T0 + 5, T0 + 9, 1, 0 };
	struct pcpmodel_event x = ev(T0, PCPM_EV_FREE, 0, 0, 1);
	struct rbuf b = { 0 };
	char msg[320];
	uint32_t v;

	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 1, 0, 0, &st), 0);
	CHECK_EQ_INT(rec_trace_add_loss(&c, &l), 0);
	rec_trace_encode(&b, &c, REC_CHUNK_TRACE);
	REQUIRE(!b.err);
	CHECK_EQ_U64(b.len, REC_TRACE_FIXED_LEN + 2 * REC_TRACE_EVENT_LEN +
				    REC_TRACE_PCP_LEN + REC_TRACE_LOSS_LEN);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE, b.p, b.len, &out, msg,
				      sizeof(msg)),
		     0);
	CHECK_EQ_U64(out.nr_events, 2);
	CHECK_EQ_INT(out.events[1].payload, 0);
	/* a byte short, a byte more */
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE, b.p, b.len - 1, &out,
				      msg, sizeof(msg)),
		     -EBADMSG);
	CHECK(strstr(msg, "trace chunk is malformed") != NULL);
	/* a snapshot pointing past the chunk's states */
	v = htole32(1);
	memcpy(b.p + REC_TRACE_FIXED_LEN + REC_TRACE_EVENT_LEN + 8, &v, 4);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE, b.p, b.len, &out, msg,
				      sizeof(msg)),
		     -EBADMSG);
	v = htole32(0);
	memcpy(b.p + REC_TRACE_FIXED_LEN + REC_TRACE_EVENT_LEN + 8, &v, 4);
	/* a loss ending before it starts */
	memset(b.p + b.len - REC_TRACE_LOSS_LEN + 8, 0, 8);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE, b.p, b.len, &out, msg,
				      sizeof(msg)),
		     -EBADMSG);
	/* counts that overflow the length */
	v = htole32(0xffffffffu);
	memcpy(b.p + 24, &v, 4);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE, b.p, b.len, &out, msg,
				      sizeof(msg)),
		     -EBADMSG);
	/* failures added nothing */
	CHECK_EQ_U64(out.nr_events, 2);
	CHECK_EQ_U64(out.nr_losses, 1);
	rb_free(&b);
	rec_trace_chunk_free(&c);
	rec_trace_chunk_free(&out);
}

static void test_rectrace_rules_of(void)
{
	struct pcpmodel_rules r;
	struct facts f;

	memset(&f, 0, sizeof(f));
	rec_trace_rules_of("7.3.4+deb13-amd64", &f, &r, NULL, 0);
	CHECK_EQ_INT(r.base, PCPM_RULES_7_X);
	rec_trace_rules_of("6.18.7+deb13-amd64", &f, &r, NULL, 0);
	CHECK_EQ_INT(r.base, PCPM_RULES_6_16);
	CHECK(r.decay_chunked);
	rec_trace_rules_of("6.18.5", &f, &r, NULL, 0);
	CHECK(!r.decay_chunked);
	rec_trace_rules_of("6.12.74+deb13-amd64", &f, &r, NULL, 0);
	CHECK_EQ_INT(r.base, PCPM_RULES_6_12);
	CHECK(!r.decay_chunked);
	rec_trace_rules_of("6.12.117", &f, &r, NULL, 0);
	CHECK(r.decay_chunked);
	rec_trace_rules_of("6.6.50", &f, &r, NULL, 0);
	CHECK_EQ_INT(r.base, PCPM_RULES_6_1_CAPPED);
	rec_trace_rules_of("6.1.0-28-amd64", &f, &r, NULL, 0);
	CHECK_EQ_INT(r.base, PCPM_RULES_6_1);
	CHECK_EQ_INT(r.thp_lists, 1);
	rec_trace_rules_of("6.1.99", &f, &r, NULL, 0);
	CHECK_EQ_INT(r.thp_lists, 2);
	f.scale.have[SCALE_SRC_CONFIG] = true;
	rec_trace_rules_of("6.1.0-28-amd64", &f, &r, NULL, 0);
	CHECK_EQ_INT(r.base, PCPM_RULES_6_1_CAPPED);
}

/*
 * What the reader mends: events in time order (a record reserved before
 * another CPU's later one, the recorder's /proc read stamped after records
 * still in the ring buffer), a /proc seed given the pageset's settings by
 * its first BPF read, or dropped for a later read with the lists,
 * mm_page_free's THP-order twin of a commit dropped
 */
static void test_rectrace_mended(void)
{
	const char *path = rf_tpath("mended.data");
	struct pcpmodel_pcp_state seed = { .count = 10,
					   .high = 100,
					   .batch = 63 };
	struct pcpmodel_pcp_state bpf = {
		.count = 12,
		.high = 90,
		.high_min = 60,
		.high_max = 900,
		.batch = 63,
		.free_count = 5,
		.flags = PCPM_PCPF_FREE_HIGH_BATCH |
			 PCPM_PCPF_PREV_FREE_HIGH_ORDER,
		.fields = PCPM_FIELD_AUTO_HIGH | PCPM_FIELD_FREE_COUNT |
			  PCPM_FIELD_ALLOC_FACTOR | PCPM_FIELD_FLAGS
	};
	struct rec_trace_chunk c = { .hooks = HOOKS | PCPT_HOOK_COMMIT,
				     .t0_ns = T0 };
	struct rec_end end = { .nr_intervals = 0 };
	const struct pcpmodel_event *e;
	const struct pcpmodel_pcp_state *st;
	struct pcpmodel_event x;
	struct rec_writer w;
	struct rec_header h;
	struct zoneinfo zi;
	struct rec_trace t;
	char msg[320];

	rf_make_header(&h, &zi);
	CHECK_EQ_INT(rec_writer_open(&w, path, &h), 0);
	x = ev(T0 + 30, PCPM_EV_ALLOC, 1, 0, 1);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	x = ev(T0 + 20, PCPM_EV_ALLOC, 0, 0, 0);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	/* the commit's order-9 free, then mm_page_free's of the same page */
	x = ev(T0 + 40, PCPM_EV_FREE, 0, 9, 1);
	x.path = PCPM_PATH_PCP;
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	x = ev(T0 + 41, PCPM_EV_FREE, 0, 9, PCPT_MT_UNKNOWN);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	x = ev(T0 + 42, PCPM_EV_FREE, 0, 5, PCPT_MT_UNKNOWN);
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	/* the /proc seed at T0 + 5, written after the ring buffer's records */
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 5, 0, 2, &seed), 0);
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 50, 0, 2, &bpf), 0);
	/* CPU 1: a /proc seed, then its first free's read with the lists */
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 6, 1, 2, &seed), 0);
	bpf.fields |= PCPM_FIELD_LISTS;
	bpf.list_entries[0] = 12;
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 60, 1, 2, &bpf), 0);
	CHECK_EQ_INT(write_chunk(&w, &c), 0);
	CHECK_EQ_INT(rec_write_end(&w, &h, &end), 0);
	CHECK_EQ_INT(rec_writer_close(&w), 0);
	rec_trace_chunk_free(&c);
	zoneinfo_free(&zi);

	REQUIRE(rec_trace_load(path, &t, msg, sizeof(msg)) == 0);
	e = t.stream.events;
	/* CPU 1's /proc seed is gone: its read with the lists seeds it */
	REQUIRE(t.stream.nr_events == 7);
	CHECK_EQ_U64(e[6].time_ns, T0 + 60);
	CHECK_EQ_INT(e[6].cpu, 1);
	CHECK_EQ_INT(t.stream.pcp_states[e[6].payload].list_entries[0], 12);
	CHECK_EQ_U64(e[0].time_ns, T0 + 5);
	CHECK_EQ_INT(e[0].type, PCPM_EV_SNAPSHOT);
	CHECK_EQ_U64(e[1].time_ns, T0 + 20);
	CHECK_EQ_U64(e[2].time_ns, T0 + 30);
	CHECK_EQ_U64(e[3].time_ns, T0 + 40);
	CHECK_EQ_INT(e[3].path, PCPM_PATH_PCP);
	/* the twin at T0 + 41 is gone, the order-5 free is the buddy's */
	CHECK_EQ_U64(e[4].time_ns, T0 + 42);
	CHECK_EQ_INT(e[4].path, PCPM_PATH_BUDDY);
	/* only pcp-path frees need a migratetype */
	CHECK(t.free_mt_known);
	/* the seed has the BPF read's settings, not its traffic */
	st = &t.stream.pcp_states[e[0].payload];
	CHECK_EQ_INT(st->count, 10);
	CHECK_EQ_INT(st->high, 100);
	CHECK_EQ_INT(st->high_min, 60);
	CHECK_EQ_INT(st->high_max, 900);
	CHECK_EQ_INT(st->flags, PCPM_PCPF_FREE_HIGH_BATCH);
	CHECK_EQ_INT(st->free_count, 0);
	CHECK_EQ_INT(st->fields, PCPM_FIELD_AUTO_HIGH | PCPM_FIELD_FLAGS);
	rec_trace_free(&t);
}

const struct unit_test rectrace_tests[] = {
	TEST(test_rectrace_round_trip),
	TEST(test_rectrace_round_trip_14),
	TEST(test_rectrace_packed),
	TEST(test_rectrace_packed_bad),
	TEST(test_rectrace_mended),
	TEST(test_rectrace_absent),
	TEST(test_rectrace_truncated),
	TEST(test_rectrace_decode_bad),
	TEST(test_rectrace_rules_of),
	TEST(test_rectrace_tally),
	TEST_END,
};
