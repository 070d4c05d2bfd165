// SPDX-License-Identifier: GPL-2.0-only
/*
 * recwrite.c, recread.c and rechdr.c: a recording written and read back
 * bit for bit, read while it grows, and read as a newer writer would
 * have written it. test_recfile_bad.c feeds the reader broken files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recbuf.h"
#include "recfile_fixture.h"
#include "recsum.h"
#include "unit.h"

static void test_round_trip(void)
{
	const char *path = rf_tpath("rt.data");
	uint64_t ends[MAX_CHUNKS];
	struct rec_reader r;
	struct rec_item it;
	struct snapshot want;
	int i, ret;

	rf_write_ref(path, ends);
	REQUIRE(rec_open(&r, path) == 0);
	CHECK_EQ_INT(r.h.version_major, REC_VERSION_MAJOR);
	CHECK_EQ_STR(r.h.pcptop_version, "9.9.9");
	CHECK_EQ_STR(r.h.f.release, "6.1.0-cip-test");
	CHECK_EQ_STR(r.h.f.arch, "aarch64");
	CHECK_EQ_STR(r.h.f.hostname, "board7");
	CHECK_EQ_U64(r.h.interval_ns, 500000000ULL);
	CHECK_EQ_INT(r.h.dims.nr_cpus, NR_CPUS);
	CHECK_EQ_INT(r.h.f.nr_probes, 2);
	CHECK_EQ_STR(r.h.f.probes[0].target, "free_pcppages_bulk");
	CHECK(!r.h.f.probes[0].estimated);
	CHECK(r.h.f.probes[1].estimated);
	CHECK_EQ_STR(r.h.f.probes[1].mode_name, "tracepoint");
	CHECK_EQ_STR(r.h.f.mode_summary, "mixed");
	CHECK_EQ_INT(r.h.f.scale.value, 5);
	CHECK_EQ_INT(r.h.f.scale.source, SCALE_SRC_CONFIG);
	CHECK(r.h.f.scale.have[SCALE_SRC_CMDLINE]);
	CHECK_EQ_INT(r.h.f.scale.val[SCALE_SRC_CMDLINE], 0);
	CHECK(!r.h.f.scale.have[SCALE_SRC_KVAR]);
	CHECK_EQ_INT(r.h.f.scale.patch, SCALE_PATCH_ABSENT);
	CHECK_EQ_STR(r.h.f.scale.config_path, "/proc/config.gz");
	CHECK_EQ_STR(r.h.f.scale.note, "cmdline ignored");
	REQUIRE(r.h.f.zones.nr_zones == 2);
	CHECK_EQ_STR(r.h.f.zones.zones[1].name, "Normal");
	CHECK_EQ_INT(r.h.f.zones.zones[1].nr_cpus, NR_CPUS);
	CHECK_EQ_INT(r.h.f.zones.zones[1].cpus[1].count, 11);
	CHECK_EQ_INT(r.h.f.zones.zones[1].cpus[1].batch, 63);
	CHECK_EQ_INT(r.h.f.zones.zones[1].cpus[1].high_max, 756);
	CHECK_EQ_INT(r.h.f.zones.zones[0].cpus[0].high_min, PCP_FIELD_ABSENT);
	CHECK_EQ_INT(r.h.f.pageblock_order, 9);
	CHECK_EQ_INT(r.h.f.pages_per_block, 512);
	CHECK_EQ_INT(r.h.f.high_fraction, 0);
	CHECK_EQ_U64(r.h.f.run_cap_pages, 2016);
	REQUIRE(r.h.argc == 5);
	CHECK_EQ_STR(r.h.argv[0], "bonnie++");
	CHECK_EQ_STR(r.h.argv[2], "/tmp/a dir");

	rf_snap_init(&want);
	for (i = 0; i < NR_IV; i++) {
		ret = rec_next(&r, &it);
		CHECK_EQ_INT(ret, 0);
		CHECK_EQ_INT(it.type, REC_CHUNK_INTERVAL);
		CHECK_EQ_INT(it.iv.seq, i);
		CHECK_EQ_U64(it.iv.t_end_ns, (uint64_t)(i + 1) * 500000000ULL);
		rf_fill_snap(&want, (unsigned int)i + 1);
		CHECK(rf_snap_equal(&want, &r.snap));
	}
	rf_snap_fini(&want);
	ret = rec_next(&r, &it);
	CHECK_EQ_INT(ret, 0);
	CHECK_EQ_INT(it.type, REC_CHUNK_END);
	CHECK_EQ_STR(it.end.reason, "command exited");
	CHECK(it.end.have_command);
	CHECK_EQ_INT(it.end.exit_code, 7);
	CHECK_EQ_U64(it.end.wall_ns, 1499000000ULL);
	CHECK_EQ_U64(it.end.maxrss_kb, 5678);
	CHECK_EQ_INT(it.end.nr_intervals, NR_IV);
	CHECK_EQ_INT(rec_next(&r, &it), 0);
	CHECK_EQ_INT(it.type, REC_CHUNK_NONE);
	rec_close(&r);
}

/* a reader at the end of a growing file sees the next chunk once written */
static void test_growing_file(void)
{
	const char *path = rf_tpath("grow.data");
	struct rec_header h;
	struct zoneinfo zi;
	struct rec_writer w;
	struct rec_reader r;
	struct rec_interval iv = {};
	struct rec_item it;
	struct snapshot s;

	rf_make_header(&h, &zi);
	rf_snap_init(&s);
	REQUIRE(rec_writer_open(&w, path, &h) == 0);
	rf_fill_snap(&s, 3);
	CHECK_EQ_INT(rec_write_interval(&w, &iv, &s), 0);
	REQUIRE(rec_open(&r, path) == 0);
	CHECK_EQ_INT(rec_next(&r, &it), 0);
	CHECK_EQ_INT(it.type, REC_CHUNK_INTERVAL);
	CHECK_EQ_INT(rec_next(&r, &it), 0);
	CHECK_EQ_INT(it.type, REC_CHUNK_NONE);
	iv.seq = 1;
	rf_fill_snap(&s, 4);
	CHECK_EQ_INT(rec_write_interval(&w, &iv, &s), 0);
	CHECK_EQ_INT(rec_next(&r, &it), 0);
	CHECK_EQ_INT(it.type, REC_CHUNK_INTERVAL);
	CHECK_EQ_INT(it.iv.seq, 1);
	CHECK(rf_snap_equal(&s, &r.snap));
	rec_close(&r);
	rec_writer_close(&w);
	zoneinfo_free(&zi);
	rf_snap_fini(&s);
}

/*
 * A newer writer: an unknown header tag, more histograms, slots and
 * counters than this build has, and a chunk type it does not know.
 */
static void test_newer_writer(void)
{
	const char *path = rf_tpath("newer.data");
	struct rec_dims d;
	struct rec_header h, got;
	struct zoneinfo zi;
	struct rec_writer w = {};
	struct rec_reader r;
	struct rec_item it;
	struct rbuf b = {};
	char msg[REC_ERR_LEN];
	uint64_t v, cnt_keys, k, n;
	uint32_t cpu, z, hi, i;
	unsigned char pre[REC_PREAMBLE_LEN] = {};
	int fd;

	rf_make_header(&h, &zi);
	d = h.dims;
	d.nr_hists = NR_PCPTOP_HISTS + 1;
	d.hist_slots = PCPTOP_HIST_SLOTS + 2;
	d.nr_counters = NR_PCPTOP_COUNTERS + 3;
	h.dims = d;
	rec_header_encode(&b, &h);
	rb_u16(&b, 999); /* a tag from the future */
	rb_u16(&b, 0);
	rb_u32(&b, 3);
	rb_put(&b, "abc", 3);
	REQUIRE(!b.err);
	CHECK_EQ_INT(rec_header_decode(b.p, b.len, &got, msg, sizeof(msg)), 0);
	CHECK_EQ_STR(got.f.hostname, "board7");
	rec_header_free(&got);

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	REQUIRE(fd >= 0);
	rf_preamble(pre, rf_order_le, REC_VERSION_MAJOR,
		    7); /* newer, still readable */
	REQUIRE(write(fd, pre, sizeof(pre)) == (ssize_t)sizeof(pre));
	w.fd = fd;
	CHECK_EQ_INT(rec_write_chunk(&w, REC_CHUNK_HEADER, b.p, b.len), 0);
	CHECK_EQ_INT(rec_write_chunk(&w, 77, "future", 6), 0);

	/* one interval: value = cpu*1e6 + position, so each lands traceably */
	rb_reset(&b);
	rb_u32(&b, 56); /* a longer fixed part than ours */
	rb_u32(&b, 0);
	rb_u64(&b, 0);
	rb_u64(&b, 1000);
	rb_u64(&b, 0);
	rb_u32(&b, NR_CPUS);
	rb_u32(&b, 0);
	rb_u64(&b, 0);
	rb_u64(&b, 0xdeadbeef);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (z = 0; z < d.max_zones; z++)
			for (hi = 0; hi < d.nr_hists; hi++)
				for (i = 0; i <= d.hist_slots; i++)
					rb_u64(&b, cpu * 1000000ULL + z * 1000 +
							   hi * 40 + i);
	cnt_keys = (uint64_t)d.max_zones * d.order_slots * d.mt_slots;
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (k = 0; k < cnt_keys; k++)
			for (n = 0; n < d.nr_counters; n++)
				rb_u64(&b, cpu * 1000000ULL + k * 100 + n);
	REQUIRE(!b.err);
	CHECK_EQ_INT(rec_write_chunk(&w, REC_CHUNK_INTERVAL, b.p, b.len), 0);
	rec_writer_close(&w);
	rb_free(&b);
	zoneinfo_free(&zi);

	REQUIRE(rec_open(&r, path) == 0);
	CHECK_EQ_INT(r.h.version_minor, 7);
	CHECK_EQ_INT(rec_next(&r, &it), 0);
	CHECK_EQ_INT(it.type, REC_CHUNK_INTERVAL);
	/* cpu 1, zone 2, hist 3: slot 5 as written, the last slot gets 31..33 */
	v = r.snap.hists[PCPTOP_NR_HIST_KEYS + pcptop_hist_key(2, 3)].slots[5];
	CHECK_EQ_U64(v, 1000000ULL + 2000 + 3 * 40 + 5);
	v = r.snap.hists[PCPTOP_NR_HIST_KEYS + pcptop_hist_key(2, 3)]
		    .slots[PCPTOP_HIST_SLOTS - 1];
	CHECK_EQ_U64(v, 3 * (1000000ULL + 2000 + 3 * 40) + 31 + 32 + 33);
	v = r.snap.hists[PCPTOP_NR_HIST_KEYS + pcptop_hist_key(2, 3)].max;
	CHECK_EQ_U64(v, 1000000ULL + 2000 + 3 * 40 + 34);
	v = r.snap.counters[PCPTOP_NR_COUNTER_KEYS + 17].c[CNT_REFILL_PAGES];
	CHECK_EQ_U64(v, 1000000ULL + 17 * 100 + CNT_REFILL_PAGES);
	CHECK_EQ_INT(rec_next(&r, &it), 0);
	CHECK_EQ_INT(it.type, REC_CHUNK_NONE);
	rec_close(&r);
}

static void test_argv_join(void)
{
	char buf[64];

	rec_argv_join(5, rf_argv, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "bonnie++ -d '/tmp/a dir' -s 256");
	rec_argv_join(5, rf_argv, buf, 12);
	CHECK_EQ_STR(buf, "bonnie++ -d");
}

/*
 * Two whole intervals, then 10 ms before the command exited: the short
 * one joins the point before it instead of plotting as a rate spike.
 */
static void test_short_last_interval(void)
{
	static const uint64_t ends_ns[] = { 500000000ULL, 1000000000ULL,
					    1010000000ULL };
	const char *path = rf_tpath("short.data");
	struct rec_interval iv = {};
	struct rec_summary sum;
	struct rec_header h;
	struct rec_writer w;
	struct zoneinfo zi;
	struct snapshot s;
	char msg[REC_ERR_LEN];
	uint64_t total = 0;
	size_t i;

	rf_make_header(&h, &zi);
	rf_snap_init(&s);
	REQUIRE(rec_writer_open(&w, path, &h) == 0);
	for (i = 0; i < sizeof(ends_ns) / sizeof(ends_ns[0]); i++) {
		rf_fill_snap(&s, 1);
		iv.seq = (uint32_t)i;
		iv.t_start_ns = i ? ends_ns[i - 1] : 0;
		iv.t_end_ns = ends_ns[i];
		CHECK_EQ_INT(rec_write_interval(&w, &iv, &s), 0);
		total += snap_counter(&s, SNAP_ALL, SNAP_ALL,
				      CNT_BULK_FREE_PAGES);
	}
	CHECK_EQ_INT(rec_writer_close(&w), 0);
	zoneinfo_free(&zi);
	rf_snap_fini(&s);
	REQUIRE(rec_summary_load(path, &sum, msg, sizeof(msg)) == 0);
	REQUIRE(sum.nr_points == 2);
	CHECK(sum.points[1].secs > 0.509 && sum.points[1].secs < 0.511);
	CHECK(sum.points[1].t > 1.009 && sum.points[1].t < 1.011);
	CHECK_EQ_U64(sum.points[0].cnt[CNT_BULK_FREE_PAGES] +
			     sum.points[1].cnt[CNT_BULK_FREE_PAGES],
		     total);
	CHECK_EQ_U64(sum.total.cnt[CNT_BULK_FREE_PAGES], total);
	rec_summary_free(&sum);
}

/*
 * The chunks beside an interval: latency summed over CPUs (detail) and
 * the sampled figures (1.3's samples chunk), a zone of one absent
 */
static void test_detail_round_trip(void)
{
	const struct fig_desc *pages = fig_find("pcp_pages");
	const struct fig_desc *hmin = fig_find("pcp_high_min");
	const char *path = rf_tpath("detail.data");
	struct pcptop_lat_val want, got;
	struct rec_interval iv = {};
	struct rec_reader r;
	struct rec_header h;
	struct rec_writer w;
	struct rec_item it;
	struct zoneinfo zi;
	struct snapshot s;
	int k = pcptop_lat_key(LAT_ALLOC, LAT_PATH_BULK, 2), i;

	REQUIRE(pages && hmin);
	rf_make_header(&h, &zi);
	h.f.sampled[fig_index(pages)] = true;
	h.f.sampled[fig_index(hmin)] = true;
	rf_snap_init(&s);
	for (i = 0; i < NR_CPUS; i++) {
		struct pcptop_lat_val *v =
			&s.lats[(size_t)i * PCPTOP_NR_LAT_KEYS + k];

		v->slots[10] = 3 + i;
		v->max = 1500 + i;
		v->sum = 3000 + i;
	}
	samples_set(&s.smp, pages, 1, 1234);
	samples_set(&s.smp, hmin, 0, 17);
	samples_sum_zones(&s.smp);
	snap_lat(&s, SNAP_ALL, k, &want);
	REQUIRE(rec_writer_open(&w, path, &h) == 0);
	iv.t_end_ns = 500000000ULL;
	CHECK_EQ_INT(rec_write_interval(&w, &iv, &s), 0);
	/* a second interval without detail: nothing carries over */
	rec_detail_clear(&s);
	samples_clear(&s.smp);
	iv.seq = 1;
	iv.t_start_ns = iv.t_end_ns;
	iv.t_end_ns *= 2;
	CHECK_EQ_INT(rec_write_interval(&w, &iv, &s), 0);
	CHECK_EQ_INT(rec_writer_close(&w), 0);
	zoneinfo_free(&zi);
	rf_snap_fini(&s);

	REQUIRE(rec_open(&r, path) == 0);
	CHECK_EQ_INT(r.h.version_minor, REC_VERSION_MINOR);
	CHECK(facts_fig_shown(&r.h.f, pages));
	CHECK(!facts_fig_shown(&r.h.f, fig_find("zone_managed")));
	REQUIRE(rec_next(&r, &it) == 0 && it.type == REC_CHUNK_INTERVAL);
	snap_lat(&r.snap, SNAP_ALL, k, &got);
	CHECK(!memcmp(&want, &got, sizeof(want)));
	CHECK_EQ_U64(got.sum, 3000 * NR_CPUS + NR_CPUS * (NR_CPUS - 1) / 2);
	CHECK_EQ_INT(sample_value(pages, samples_cell(&r.snap.smp, pages, 2)),
		     1234);
	CHECK_EQ_INT(sample_value(pages, samples_cell(&r.snap.smp, pages, 0)),
		     1234);
	CHECK(!sample_present(samples_cell(&r.snap.smp, pages, 1)));
	CHECK_EQ_INT(sample_value(hmin, samples_cell(&r.snap.smp, hmin, 1)),
		     17);
	REQUIRE(rec_next(&r, &it) == 0 && it.type == REC_CHUNK_INTERVAL);
	snap_lat(&r.snap, SNAP_ALL, k, &got);
	CHECK_EQ_U64(got.max, 0);
	CHECK(!sample_present(samples_cell(&r.snap.smp, pages, 0)));
	rec_close(&r);
}

const struct unit_test recfile_tests[] = { TEST(test_round_trip),
					   TEST(test_detail_round_trip),
					   TEST(test_short_last_interval),
					   TEST(test_growing_file),
					   TEST(test_newer_writer),
					   TEST(test_argv_join),
					   TEST_END };
