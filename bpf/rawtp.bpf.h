/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every tracepoint program comes twice: tp_btf, attached through the
 * kernel's BTF, and a raw_tp twin named "r" + its name, attached by
 * tracepoint name, for kernels without BTF of their own
 * (/sys/kernel/btf/vmlinux absent, the BTF given with --btf). The
 * loader autoloads one of the two. Both read the same arguments off the
 * same context and run the same handler; the raw twin only sees pointers
 * as numbers, which is all the handlers use them as. One program retyped
 * at load would do, but libbpf 1.1 (Debian 12) still looks a tp_btf
 * section's target up in the kernel's BTF, and crashes without one.
 */
#ifndef PCPTOP_RAWTP_BPF_H
#define PCPTOP_RAWTP_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* TP_TWIN(tracepoint, name, expression returning int, arguments...) */
#define TP_TWIN(tp, name, call, ...)         \
	SEC("tp_btf/" #tp)                   \
	int BPF_PROG(name, ##__VA_ARGS__)    \
	{                                    \
		return call;                 \
	}                                    \
	SEC("raw_tp/" #tp)                   \
	int BPF_PROG(r##name, ##__VA_ARGS__) \
	{                                    \
		return call;                 \
	}

#endif /* PCPTOP_RAWTP_BPF_H */
