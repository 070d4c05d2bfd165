/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The histogram slot of a value: floor(log2(v)), 0 and 1 sharing slot 0,
 * as src/core/hist.c's hist_slot_of() (tests/unit/test_hist.c holds the
 * two to the same answer). Apart from state.bpf.h so that a unit test
 * can compile it natively.
 */
#ifndef PCPTOP_LOG2_BPF_H
#define PCPTOP_LOG2_BPF_H

static __always_inline __u32 log2_slot(__u64 v)
{
	__u64 r, s, t;

	/*
	 * Branch-free: (0 - x) >> 63 is 1 when x (below 2^63) is not 0. With
	 * a branch per step, as libbpf-tools' bits.bpf.h has, each step's
	 * two constants are two states the verifier walks apart: 2^6 paths
	 * through every histogram a program records, most of a start's load
	 * time on a slow core. The barrier keeps clang from turning the
	 * arithmetic back into compares, which BPF can only do with branches.
	 */
#define LOG2_STEP(bits)             \
	t = 0 - (v >> (bits));      \
	asm volatile("" : "+r"(t)); \
	s = (t >> 63) * (bits);     \
	v >>= s;                    \
	r |= s
	r = 0;
	LOG2_STEP(32);
	LOG2_STEP(16);
	LOG2_STEP(8);
	LOG2_STEP(4);
	LOG2_STEP(2);
	LOG2_STEP(1);
#undef LOG2_STEP
	return r;
}

#endif /* PCPTOP_LOG2_BPF_H */
