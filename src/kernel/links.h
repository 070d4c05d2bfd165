/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * BPF links destroyed at once. A kprobe link's release waits for a grace
 * period (the perf event's unregister_kprobe()): one after another,
 * pcptop's took 0.31 s of a 1.1 s kprobe-mode start on the one-CPU
 * arm64 6.12 board VM (-icount); released from threads of their own the
 * waits overlap, and the start took 0.18 s less (0.1-0.29 s on 7.3).
 * Not for fentry links: their trampolines' updates serialize in the
 * kernel, and threads made 7.3's start 0.4 s longer (1.93 -> 2.33 guest
 * s; 6.12 unchanged), so attach.c releases those one after another.
 */
#ifndef PCPTOP_LINKS_H
#define PCPTOP_LINKS_H

struct bpf_link;

/*
 * bpf_link__destroy() on each of links[0..n) (NULL ones skipped), in
 * threads that run together, and every one NULL once all are gone; one
 * whose thread cannot start is destroyed in the caller's
 */
void links_destroy(struct bpf_link **links, int n);

#endif /* PCPTOP_LINKS_H */
