// SPDX-License-Identifier: GPL-2.0-only
/*
 * The floor of what watching costs: on the same hooks pcptop attaches, a
 * program that only counts its runs. make bench compares pcptop's cost
 * with this one's; the hooks are set at run time (tests/bench/floor.c),
 * eight of each kind of function probe and sixteen tracepoints, enough for
 * every mode pcptop has (6.12's default mode: ten tracepoints).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} runs SEC(".maps");

static __always_inline int hit(void)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&runs, &k);

	if (v)
		(*v)++;
	return 0;
}

/* clang-format off */
SEC("fentry")
int BPF_PROG(fe0)
{
	return hit();
}

SEC("fentry")
int BPF_PROG(fe1)
{
	return hit();
}

SEC("fentry")
int BPF_PROG(fe2)
{
	return hit();
}

SEC("fentry")
int BPF_PROG(fe3)
{
	return hit();
}

SEC("fentry")
int BPF_PROG(fe4)
{
	return hit();
}

SEC("fentry")
int BPF_PROG(fe5)
{
	return hit();
}

SEC("fentry")
int BPF_PROG(fe6)
{
	return hit();
}

SEC("fentry")
int BPF_PROG(fe7)
{
	return hit();
}

SEC("fexit")
int BPF_PROG(fx0)
{
	return hit();
}

SEC("fexit")
int BPF_PROG(fx1)
{
	return hit();
}

SEC("fexit")
int BPF_PROG(fx2)
{
	return hit();
}

SEC("fexit")
int BPF_PROG(fx3)
{
	return hit();
}

SEC("fexit")
int BPF_PROG(fx4)
{
	return hit();
}

SEC("fexit")
int BPF_PROG(fx5)
{
	return hit();
}

SEC("fexit")
int BPF_PROG(fx6)
{
	return hit();
}

SEC("fexit")
int BPF_PROG(fx7)
{
	return hit();
}

SEC("kprobe")
int BPF_KPROBE(kp0)
{
	return hit();
}

SEC("kprobe")
int BPF_KPROBE(kp1)
{
	return hit();
}

SEC("kprobe")
int BPF_KPROBE(kp2)
{
	return hit();
}

SEC("kprobe")
int BPF_KPROBE(kp3)
{
	return hit();
}

SEC("kprobe")
int BPF_KPROBE(kp4)
{
	return hit();
}

SEC("kprobe")
int BPF_KPROBE(kp5)
{
	return hit();
}

SEC("kprobe")
int BPF_KPROBE(kp6)
{
	return hit();
}

SEC("kprobe")
int BPF_KPROBE(kp7)
{
	return hit();
}

SEC("kretprobe")
int BPF_KRETPROBE(kr0)
{
	return hit();
}

SEC("kretprobe")
int BPF_KRETPROBE(kr1)
{
	return hit();
}

SEC("kretprobe")
int BPF_KRETPROBE(kr2)
{
	return hit();
}

SEC("kretprobe")
int BPF_KRETPROBE(kr3)
{
	return hit();
}

SEC("kretprobe")
int BPF_KRETPROBE(kr4)
{
	return hit();
}

SEC("kretprobe")
int BPF_KRETPROBE(kr5)
{
	return hit();
}

SEC("kretprobe")
int BPF_KRETPROBE(kr6)
{
	return hit();
}

SEC("kretprobe")
int BPF_KRETPROBE(kr7)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb0)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb1)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb2)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb3)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb4)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb5)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb6)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb7)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb8)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb9)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb10)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb11)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb12)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb13)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb14)
{
	return hit();
}

SEC("tp_btf")
int BPF_PROG(tb15)
{
	return hit();
}
/* clang-format on */
