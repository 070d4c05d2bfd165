// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --trace's runs (format 1.6): an allocation's or free's payload
 * is the events of its run after the first. Written through the real
 * writer and read by the reader whatif uses and by report's tally: runs
 * stand for their events, each at the run's time, in time order with
 * the rest; 1.5's chunks keep reading one event a record; a run past
 * its bound is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pcptrace.h"
#include "recbuf.h"
#include "recfile_fixture.h"
#include "rectrace.h"
#include "rectrace_chunk.h"
#include "recsum.h"
#include "unit.h"

#define T0 1000000000ULL
#define HOOKS (PCPT_HOOK_ALLOC_FREE | PCPT_HOOK_ZONEINFO)

static struct pcpmodel_event page_ev(uint64_t t, int type, int cpu,
				     uint32_t more)
{
	struct pcpmodel_event e = { .time_ns = t,
				    .payload = more,
				    .cpu = (uint16_t)cpu,
				    .type = (uint8_t)type,
				    .zone = 2,
				    .migratetype = 1,
				    .path = PCPT_PATH_BY_ORDER };
	return e;
}

/*
 * One trace chunk of type `type`: CPU 0's run of 3 allocations at T0+10,
 * a drain of CPU 0 at T0+12, CPU 1's lone free at T0+15, CPU 0's run of
 * 2 frees at T0+20 and CPU 1's run of 4 allocations at T0+11, written
 * after them as a run is when its CPU's next event ends it; pageset
 * snapshots at T0+5 and T0+13, whose payloads index their states.
 */
static void write_runs(const char *path, uint16_t type)
{
	struct rec_trace_chunk c = { .hooks = HOOKS,
				     .ringbuf_bytes = 4096,
				     .t0_ns = T0 };
	struct pcpmodel_event drain = { .time_ns = T0 + 12,
					.type = PCPM_EV_DRAIN,
					.zone = 2 };
	struct pcpmodel_pcp_state st = { .count = 10,
					 .high = 100,
					 .batch = 63 };
	struct rec_end e = { .nr_intervals = 1 };
	struct rec_interval iv = { .t_end_ns = 500 };
	struct pcpmodel_event x[5];
	struct rec_header h;
	struct rec_writer w;
	struct rbuf b = { 0 };
	struct zoneinfo zi;
	struct snapshot s;
	size_t i;

	x[0] = page_ev(T0 + 10, PCPM_EV_ALLOC, 0, 2);
	x[1] = drain;
	x[2] = page_ev(T0 + 15, PCPM_EV_FREE, 1, 0);
	x[3] = page_ev(T0 + 20, PCPM_EV_FREE, 0, 1);
	x[4] = page_ev(T0 + 11, PCPM_EV_ALLOC, 1, 3);
	rf_make_header(&h, &zi);
	rf_snap_init(&s);
	REQUIRE(rec_writer_open(&w, path, &h) == 0);
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 5, 0, 2, &st), 0);
	for (i = 0; i < 5; i++)
		CHECK_EQ_INT(rec_trace_add_event(&c, &x[i]), 0);
	st.count = 20;
	CHECK_EQ_INT(rec_trace_add_pcp(&c, T0 + 13, 1, 2, &st), 0);
	rec_trace_encode(&b, &c, type);
	REQUIRE(!b.err);
	CHECK_EQ_INT(rec_write_chunk(&w, type, b.p, b.len), 0);
	rf_fill_snap(&s, 1);
	CHECK_EQ_INT(rec_write_interval(&w, &iv, &s), 0);
	CHECK_EQ_INT(rec_write_end(&w, &h, &e), 0);
	CHECK_EQ_INT(rec_writer_close(&w), 0);
	rb_free(&b);
	rec_trace_chunk_free(&c);
	zoneinfo_free(&zi);
	rf_snap_fini(&s);
}

static void test_rectrace_runs_read(void)
{
	const char *path = rf_tpath("trace-runs.data");
	static const struct {
		uint64_t t;
		int type, cpu;
		uint32_t payload;
	} want[] = {
		{ T0 + 5, PCPM_EV_SNAPSHOT, 0, 0 },
		{ T0 + 10, PCPM_EV_ALLOC, 0, 0 },
		{ T0 + 10, PCPM_EV_ALLOC, 0, 0 },
		{ T0 + 10, PCPM_EV_ALLOC, 0, 0 },
		{ T0 + 11, PCPM_EV_ALLOC, 1, 0 },
		{ T0 + 11, PCPM_EV_ALLOC, 1, 0 },
		{ T0 + 11, PCPM_EV_ALLOC, 1, 0 },
		{ T0 + 11, PCPM_EV_ALLOC, 1, 0 },
		{ T0 + 12, PCPM_EV_DRAIN, 0, 0 },
		{ T0 + 13, PCPM_EV_SNAPSHOT, 1, 1 },
		{ T0 + 15, PCPM_EV_FREE, 1, 0 },
		{ T0 + 20, PCPM_EV_FREE, 0, 0 },
		{ T0 + 20, PCPM_EV_FREE, 0, 0 },
	};
	const struct pcpmodel_event *e;
	struct rec_summary sum;
	struct rec_trace t;
	char msg[320];
	size_t i;

	write_runs(path, REC_CHUNK_TRACE_RUNS);
	REQUIRE(rec_trace_load(path, &t, msg, sizeof(msg)) == 0);
	REQUIRE(t.stream.nr_events == sizeof(want) / sizeof(want[0]));
	e = t.stream.events;
	for (i = 0; i < t.stream.nr_events; i++) {
		CHECK_EQ_U64(e[i].time_ns, want[i].t);
		CHECK_EQ_INT(e[i].type, want[i].type);
		CHECK_EQ_INT(e[i].cpu, want[i].cpu);
		/* the replay sees events, not runs; a snapshot its state */
		CHECK_EQ_INT(e[i].payload, want[i].payload);
	}
	CHECK_EQ_INT(t.stream.pcp_states[e[9].payload].count, 20);
	CHECK_EQ_U64(t.first_ns, T0 + 5);
	CHECK_EQ_U64(t.last_ns, T0 + 20);
	rec_trace_free(&t);
	/* report counts the events a run stands for */
	REQUIRE(rec_summary_load(path, &sum, msg, sizeof(msg)) == 0);
	CHECK_EQ_U64(sum.trace.events[PCPM_EV_ALLOC], 7);
	CHECK_EQ_U64(sum.trace.events[PCPM_EV_FREE], 3);
	CHECK_EQ_U64(sum.trace.events[PCPM_EV_DRAIN], 1);
	rec_summary_free(&sum);
}

/* a 1.5 chunk: a page event's payload meant nothing, one event a record */
static void test_rectrace_runs_old_chunk(void)
{
	const char *path = rf_tpath("trace-runs-15.data");
	struct rec_summary sum;
	struct rec_trace t;
	char msg[320];
	size_t i;

	write_runs(path, REC_CHUNK_TRACE_PACKED);
	REQUIRE(rec_trace_load(path, &t, msg, sizeof(msg)) == 0);
	CHECK_EQ_U64(t.stream.nr_events, 7);
	for (i = 0; i < t.stream.nr_events; i++)
		if (t.stream.events[i].type != PCPM_EV_SNAPSHOT)
			CHECK_EQ_INT(t.stream.events[i].payload, 0);
	rec_trace_free(&t);
	REQUIRE(rec_summary_load(path, &sum, msg, sizeof(msg)) == 0);
	CHECK_EQ_U64(sum.trace.events[PCPM_EV_ALLOC], 2);
	CHECK_EQ_U64(sum.trace.events[PCPM_EV_FREE], 2);
	rec_summary_free(&sum);
}

/* a run longer than BPF makes one is a malformed chunk */
static void test_rectrace_runs_bound(void)
{
	struct rec_trace_chunk c = { .t0_ns = T0 }, out = { 0 };
	struct pcpmodel_event x =
		page_ev(T0 + 5, PCPM_EV_FREE, 0, REC_TRACE_RUN_MAX);
	struct rbuf b = { 0 };
	char msg[320];

	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	rec_trace_encode(&b, &c, REC_CHUNK_TRACE_RUNS);
	REQUIRE(!b.err);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE_RUNS, b.p, b.len, &out,
				      msg, sizeof(msg)),
		     0);
	CHECK_EQ_U64(rec_trace_event_n(&out.events[0]), REC_TRACE_RUN_MAX + 1);
	rb_free(&b);
	rec_trace_chunk_reset(&c);
	x.payload = REC_TRACE_RUN_MAX + 1;
	CHECK_EQ_INT(rec_trace_add_event(&c, &x), 0);
	rec_trace_encode(&b, &c, REC_CHUNK_TRACE_RUNS);
	REQUIRE(!b.err);
	CHECK_EQ_INT(rec_trace_decode(REC_CHUNK_TRACE_RUNS, b.p, b.len, &out,
				      msg, sizeof(msg)),
		     -EBADMSG);
	CHECK(strstr(msg, "run") != NULL);
	rb_free(&b);
	rec_trace_chunk_free(&c);
	rec_trace_chunk_free(&out);
}

const struct unit_test rectrace_runs_tests[] = {
	TEST(test_rectrace_runs_read),
	TEST(test_rectrace_runs_old_chunk),
	TEST(test_rectrace_runs_bound),
	TEST_END,
};
