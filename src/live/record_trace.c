// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --trace: between the trace object (kernel/trace.c) and the
 * recording (rec/rectrace_chunk.c). The ring buffer's records become
 * pcpmodel events as BPF wrote them; nothing is decided here that the
 * reader can decide later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "clock.h"
#include "pcptrace.h"
#include "procfs.h"
#include "recbuf.h"
#include "record_trace.h"
#include "trace.h"

#define ZONEINFO_PATH "/proc/zoneinfo"

_Static_assert(sizeof(struct pcptrace_event) == sizeof(struct pcpmodel_event),
	       "bpf/pcptrace.h's event is pcpmodel_event's layout");
_Static_assert(PCPTRACE_RUN_MAX == REC_TRACE_RUN_MAX,
	       "bpf/pcptrace.h's runs are what the reader takes");
_Static_assert((int)PCPT_ALLOC == (int)PCPM_EV_ALLOC &&
		       (int)PCPT_FREE == (int)PCPM_EV_FREE &&
		       (int)PCPT_SNAPSHOT == (int)PCPM_EV_SNAPSHOT &&
		       (int)PCPT_CPU_ONLINE == (int)PCPM_EV_CPU_ONLINE &&
		       (int)PCPT_RECLAIM == (int)PCPM_EV_RECLAIM &&
		       (int)PCPT_ISOLATE == (int)PCPM_EV_ISOLATE &&
		       (int)PCPT_DECAY_END == (int)PCPM_EV_DECAY_END,
	       "bpf/pcptrace.h's types are pcpmodel's");
_Static_assert(PCPT_ZONE_UNKNOWN == PCPM_ZONE_UNKNOWN,
	       "bpf/pcptrace.h's unknown zone is pcpmodel's");
_Static_assert(PCPT_ORDER_UNKNOWN == PCPM_ORDER_UNKNOWN,
	       "bpf/pcptrace.h's unknown order is pcpmodel's");
_Static_assert(PCPT_PATH_PCP == PCPM_PATH_PCP &&
		       PCPT_PATH_BUDDY == PCPM_PATH_BUDDY,
	       "bpf/pcptrace.h's paths are pcpmodel's");

static int flush(struct rec_tracer *rt)
{
	struct rbuf b = { 0 };
	int err;

	if (rt->err)
		return rt->err;
	if (!rt->buf.nr_events && !rt->buf.nr_losses)
		return 0;
	rt->buf.seq = rt->seq;
	rec_trace_encode(&b, &rt->buf, REC_CHUNK_TRACE_RUNS);
	/*
	 * zlib's fastest level: on the packed events it takes about half
	 * the instructions of its default for a third more bytes
	 * (docs/PERFORMANCE.md, "record --trace"), and the recorder runs on
	 * the CPUs it traces
	 */
	err = b.err ? b.err :
		      rec_write_chunk_level(rt->w, REC_CHUNK_TRACE_RUNS, b.p,
					    b.len, REC_TRACE_ZLIB_LEVEL);
	rb_free(&b);
	if (err) {
		rt->err = err;
		return err;
	}
	rt->chunks++;
	rec_trace_chunk_reset(&rt->buf);
	return 0;
}

static int on_snap(struct rec_tracer *rt, const struct pcptrace_snap *s)
{
	struct pcpmodel_pcp_state st = {
		.count = s->count,
		.high = s->high,
		.high_min = s->high_min,
		.high_max = s->high_max,
		.batch = s->batch,
		.free_count = s->free_count,
		.alloc_factor = s->alloc_factor,
		.free_factor = s->free_factor,
		.flags = s->flags,
		.fields = s->fields,
	};
	int i;

	_Static_assert(PCPT_FIELD_LISTS == PCPM_FIELD_LISTS &&
			       PCPT_NR_LISTS >= PCPM_NR_LISTS_MAX,
		       "bpf/pcptrace.h's lists are pcpmodel's");
	for (i = 0; i < PCPM_NR_LISTS_MAX; i++)
		st.list_entries[i] = s->lists[i];

	return rec_trace_add_pcp(&rt->buf, s->ev.time_ns, s->ev.cpu, s->ev.zone,
				 &st);
}

/* a zone's mark at a direct reclaim's end: a zone state of its own kind */
static int on_mark(struct rec_tracer *rt, const struct pcptrace_mark *mk)
{
	struct pcpmodel_zone_state zs = {
		.free_pages = mk->free_pages,
		.wmark_min = mk->mark,
		.fields = PCPM_ZFIELD_MARK,
	};

	if (mk->ev.zone >= PCPTOP_MAX_ZONES)
		return 0;
	return rec_trace_add_zone(&rt->buf, mk->ev.time_ns, mk->ev.zone, &zs);
}

/*
 * A zone state with the flags a commit read, when they changed since the
 * CPU's last record: records come in the order their runs ended, not in
 * the order their events began, so one CPU's run may reach the recorder
 * after another CPU's later record; a CPU's own records are in order.
 */
static int zone_flags(struct rec_tracer *rt, const struct pcptrace_event *e)
{
	struct pcpmodel_zone_state zs = { .fields = PCPM_ZFIELD_FLAGS };
	uint8_t *last;

	if (!(e->zflags & PCPT_ZF_VALID) || e->zone >= PCPTOP_MAX_ZONES ||
	    e->cpu >= rt->nr_cpus)
		return 0;
	last = &rt->zflags[(size_t)e->cpu * PCPTOP_MAX_ZONES + e->zone];
	if (*last == e->zflags)
		return 0;
	*last = e->zflags;
	zs.below_high = !!(e->zflags & PCPT_ZF_BELOW_HIGH);
	zs.reclaim_active = !!(e->zflags & PCPT_ZF_RECLAIM_ACTIVE);
	return rec_trace_add_zone(&rt->buf, e->time_ns, e->zone, &zs);
}

static int sink(void *ctx, const void *rec, size_t len)
{
	const struct pcptrace_event *e = rec;
	struct rec_tracer *rt = ctx;
	struct pcpmodel_event ev;
	int err;

	if (len < sizeof(*e))
		return 0;
	if (e->type == PCPT_SNAPSHOT) {
		if (len < sizeof(struct pcptrace_snap))
			return 0;
		err = on_snap(rt, rec);
	} else if (e->type == PCPT_MARK) {
		if (len < sizeof(struct pcptrace_mark))
			return 0;
		err = on_mark(rt, rec);
	} else {
		err = zone_flags(rt, e);
		if (err)
			return err;
		memset(&ev, 0, sizeof(ev));
		ev.time_ns = e->time_ns;
		ev.cpu = e->cpu;
		ev.type = e->type;
		ev.zone = e->zone;
		ev.order = e->order;
		ev.migratetype = e->migratetype;
		ev.path = e->path;
		ev.reason = e->reason;
		ev.caller = e->caller;
		/* a page event's run: the events after its first */
		if (rec_trace_in_runs(e->type) || e->type == PCPT_RECLAIM)
			ev.payload = e->payload;
		err = rec_trace_add_event(&rt->buf, &ev);
	}
	if (err)
		return err;
	rt->events += e->type == PCPT_SNAPSHOT || e->type == PCPT_MARK ?
			      1 :
			      rec_trace_event_n(&ev);
	if (rt->buf.nr_events >= REC_TRACE_CHUNK_EVENTS)
		return flush(rt);
	return 0;
}

/*
 * A CPU's records dropped since the last read happened between that read
 * and this one: the window is certain, whatever order the consumer saw.
 */
static int read_losses(struct rec_tracer *rt)
{
	uint64_t now;
	int cpu, err;

	err = trace_lost(rt->kt, rt->lost_now, rt->nr_cpus);
	if (err)
		return err;
	now = clock_mono_ns();
	for (cpu = 0; cpu < rt->nr_cpus; cpu++) {
		struct rec_trace_loss l = {
			.t_start_ns = rt->t_lost_read,
			.t_end_ns = now,
			.lost = rt->lost_now[cpu] - rt->lost_prev[cpu],
			.cpu = (uint32_t)cpu,
		};

		if (!l.lost)
			continue;
		err = rec_trace_add_loss(&rt->buf, &l);
		if (err)
			return err;
		rt->lost += l.lost;
		rt->loss_windows++;
		rt->lost_prev[cpu] = rt->lost_now[cpu];
	}
	rt->t_lost_read = now;
	return 0;
}

int rec_tracer_poll(struct rec_tracer *rt)
{
	int n = trace_poll(rt->kt);

	if (n < 0)
		return n;
	return read_losses(rt);
}

/* /proc/zoneinfo's node 0: every pageset and zone, at the time of the read */
static int read_zoneinfo(struct rec_tracer *rt)
{
	struct zoneinfo zi = { 0 };
	uint64_t t = clock_mono_ns();
	int i, c, err, zidx = 0;

	err = zoneinfo_parse(ZONEINFO_PATH, &zi);
	if (err)
		return err == -ENOMEM ? err : 0;
	for (i = 0; i < zi.nr_zones && !err; i++) {
		const struct zone_pcp *z = &zi.zones[i];
		struct pcpmodel_zone_state zs = { .fields = PCPM_ZFIELD_WMARK };
		int64_t v;

		if (z->node != 0)
			continue;
		if (!proc_field_find(&z->fields, "pages_free", &v))
			zs.free_pages = (uint64_t)v;
		if (!proc_field_find(&z->fields, "min", &v))
			zs.wmark_min = (uint64_t)v;
		if (!proc_field_find(&z->fields, "low", &v))
			zs.wmark_low = (uint64_t)v;
		if (!proc_field_find(&z->fields, "high", &v))
			zs.wmark_high = (uint64_t)v;
		if (z->nr_cpus)
			err = rec_trace_add_zone(&rt->buf, t, zidx, &zs);
		for (c = 0; c < z->nr_cpus && !err; c++) {
			const struct pcp_cpu *p = &z->cpus[c];
			struct pcpmodel_pcp_state st = {
				.count = p->count,
				.high = p->high,
				.batch = p->batch,
			};

			if (p->high_min != PCP_FIELD_ABSENT) {
				st.high_min = p->high_min;
				st.high_max = p->high_max;
				st.fields = PCPM_FIELD_AUTO_HIGH;
			}
			err = rec_trace_add_pcp(&rt->buf, t, p->cpu, zidx, &st);
		}
		zidx++;
	}
	zoneinfo_free(&zi);
	return err;
}

int rec_tracer_interval(struct rec_tracer *rt, uint32_t next_seq)
{
	int err = rec_tracer_poll(rt);

	if (!err)
		err = read_zoneinfo(rt);
	if (!err)
		err = flush(rt);
	rt->seq = next_seq;
	return err;
}

int rec_tracer_start(struct rec_tracer *rt, const struct record_opts *o,
		     struct rec_writer *w, uint64_t t0)
{
	struct trace_opts to = {
		.want = o->attach.want,
		.btf_path = o->attach.btf_path,
		.verbose = o->attach.verbose,
	};
	char msg[TRACE_MSG_LEN];
	int err;

	memset(rt, 0, sizeof(*rt));
	rt->w = w;
	err = trace_open(&rt->kt, &to, sink, rt, msg, sizeof(msg));
	if (err) {
		cli_warn("%s", msg);
		return err;
	}
	rt->nr_cpus = trace_nr_cpus(rt->kt);
	rt->lost_prev = calloc((size_t)rt->nr_cpus, sizeof(uint64_t));
	rt->lost_now = calloc((size_t)rt->nr_cpus, sizeof(uint64_t));
	rt->zflags = calloc((size_t)rt->nr_cpus, PCPTOP_MAX_ZONES);
	if (!rt->lost_prev || !rt->lost_now || !rt->zflags) {
		cli_warn("--trace: out of memory for %d CPUs", rt->nr_cpus);
		rec_tracer_stop(rt, true);
		return -ENOMEM;
	}
	rt->buf.hooks = trace_hooks(rt->kt) | PCPT_HOOK_ZONEINFO;
	rt->buf.ringbuf_bytes = trace_ringbuf_bytes(rt->kt);
	rt->buf.t0_ns = t0;
	rt->t_lost_read = clock_mono_ns();
	/* the pagesets as the trace starts: the replay's seeds */
	err = read_zoneinfo(rt);
	if (err) {
		cli_warn("--trace: reading %s: %s", ZONEINFO_PATH,
			 strerror(-err));
		rec_tracer_stop(rt, true);
	}
	return err;
}

int rec_tracer_stop(struct rec_tracer *rt, bool quiet)
{
	int err = 0;

	if (rt->kt && rt->w) {
		/* the runs in progress once nothing can add to them */
		trace_detach(rt->kt);
		err = rec_tracer_poll(rt);
		if (!err)
			err = trace_flush_runs(rt->kt);
		if (!err)
			err = flush(rt);
	}
	if (!quiet && rt->kt)
		fprintf(stderr,
			"pcptop: --trace: %llu events in %llu chunks, %llu lost in %llu windows (ring buffer %u KiB)\n",
			(unsigned long long)rt->events,
			(unsigned long long)rt->chunks,
			(unsigned long long)rt->lost,
			(unsigned long long)rt->loss_windows,
			trace_ringbuf_bytes(rt->kt) / 1024);
	trace_close(rt->kt);
	rt->kt = NULL;
	free(rt->lost_prev);
	free(rt->lost_now);
	free(rt->zflags);
	rt->lost_prev = rt->lost_now = NULL;
	rt->zflags = NULL;
	rec_trace_chunk_free(&rt->buf);
	return err;
}
