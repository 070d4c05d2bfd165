/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record --trace: the pageset trimmed or emptied other than by a free,
 * by its function probes (fentry, or their kprobe twins): drains,
 * vmstat's decay (its entry and return) and CPU hotplug. Part of
 * bpf/trace.bpf.c, which includes it once, after the ring buffer's
 * helpers, fill_snap() and on_drain() it uses.
 */
#ifndef PCPTOP_TRACE_PAGESET_BPF_H
#define PCPTOP_TRACE_PAGESET_BPF_H

static __always_inline int on_decay(struct zone *zone,
				    struct per_cpu_pages *pcp)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct pcptrace_event *e;
	struct pcptrace_snap *s;
	int idx = compat_zone_idx(zone);

	if (idx < 0 || idx >= PCPTOP_ZONE_UNKNOWN)
		idx = PCPT_ZONE_UNKNOWN;
	run_break(cpu);
	s = (struct pcptrace_snap *)reserve(sizeof(*s), PCPT_SNAPSHOT, cpu);
	if (s) {
		fill_snap(s, pcp, idx);
		bpf_ringbuf_submit(s, BPF_RB_NO_WAKEUP);
	}
	e = reserve(sizeof(*e), PCPT_DECAY, cpu);
	if (!e)
		return 0;
	e->zone = idx;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

/*
 * The decay's chunks are the model's to free, here: a run of frees on
 * this CPU before the return goes out first, so it lands between the
 * DECAY and this, where the kernel's flushed against the lowered high.
 * vmstat runs the decay on the pageset's own CPU, in a bound kworker.
 */
static __always_inline int on_decay_end(int idx)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct pcptrace_event *e;

	if (idx < 0 || idx >= PCPTOP_ZONE_UNKNOWN)
		idx = PCPT_ZONE_UNKNOWN;
	run_break(cpu);
	e = reserve(sizeof(*e), PCPT_DECAY_END, cpu);
	if (!e)
		return 0;
	e->zone = idx;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

/*
 * The reservation is submitted straight after its test: with the map
 * update between them, 6.1's verifier tested the record again, took it
 * for NULL there and refused the program ("Unreleased reference"), and
 * with it every function probe of the trace (arm64 and amd64 6.1).
 */
static __always_inline int on_hotplug(int type, unsigned int cpu)
{
	struct pcptrace_event *e;
	__u32 k = 0, *dead;

	run_break(cpu);
	if (type == PCPT_CPU_DEAD) {
		dead = bpf_map_lookup_elem(&in_cpu_dead, &k);
		if (dead)
			*dead = cpu + 1;
	}
	e = reserve(sizeof(*e), type, cpu);
	if (!e)
		return 0;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

static __always_inline int cpu_dead_done(void)
{
	__u32 k = 0, *dead = bpf_map_lookup_elem(&in_cpu_dead, &k);

	if (dead)
		*dead = 0;
	return 0;
}

SEC("pcptop.fentry/drain_pages_zone")
int BPF_PROG(tf_drain, unsigned int cpu, struct zone *zone)
{
	return on_drain(cpu, zone);
}

SEC("kprobe/drain_pages_zone")
int BPF_KPROBE(tk_drain, unsigned int cpu, struct zone *zone)
{
	return on_drain(cpu, zone);
}

SEC("pcptop.fentry/decay_pcp_high")
int BPF_PROG(tf_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return on_decay(zone, pcp);
}

SEC("kprobe/decay_pcp_high")
int BPF_KPROBE(tk_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return on_decay(zone, pcp);
}

/* its return value is not read: int, then bool (6.19, stable backports) */
SEC("pcptop.fexit/decay_pcp_high")
int BPF_PROG(tx_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return on_decay_end(compat_zone_idx(zone));
}

SEC("kretprobe/decay_pcp_high")
int BPF_KRETPROBE(tr_decay)
{
	return on_decay_end(PCPT_ZONE_UNKNOWN);
}

SEC("pcptop.fentry/page_alloc_cpu_dead")
int BPF_PROG(tf_dead, unsigned int cpu)
{
	return on_hotplug(PCPT_CPU_DEAD, cpu);
}

SEC("pcptop.fexit/page_alloc_cpu_dead")
int BPF_PROG(tx_dead, unsigned int cpu, int ret)
{
	return cpu_dead_done();
}

SEC("kprobe/page_alloc_cpu_dead")
int BPF_KPROBE(tk_dead, unsigned int cpu)
{
	return on_hotplug(PCPT_CPU_DEAD, cpu);
}

SEC("kretprobe/page_alloc_cpu_dead")
int BPF_KRETPROBE(tr_dead)
{
	return cpu_dead_done();
}

SEC("pcptop.fentry/page_alloc_cpu_online")
int BPF_PROG(tf_online, unsigned int cpu)
{
	return on_hotplug(PCPT_CPU_ONLINE, cpu);
}

SEC("kprobe/page_alloc_cpu_online")
int BPF_KPROBE(tk_online, unsigned int cpu)
{
	return on_hotplug(PCPT_CPU_ONLINE, cpu);
}

#endif /* PCPTOP_TRACE_PAGESET_BPF_H */
