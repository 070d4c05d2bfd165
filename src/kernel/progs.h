/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The program table: which BPF program of bpf/pcptop.bpf.c runs each
 * probe in each mode. progs.c writes it as offsets of the skeleton's
 * skel->progs.x, so a program renamed or deleted in bpf/ is a compile
 * error there. It calls no libbpf: the unit tests link it and check every
 * plan attach_plan.c can make against it.
 */
#ifndef PCPTOP_PROGS_H
#define PCPTOP_PROGS_H

#include <stdbool.h>
#include <stddef.h>
#include "probes.h"

struct pcptop_bpf;
struct bpf_program;

/* the programs a probe can have, by the mode that runs them */
enum prog_slot {
	SLOT_NONE,
	SLOT_FENTRY,
	SLOT_FEXIT,
	SLOT_KPROBE,
	SLOT_KRETPROBE,
	SLOT_TP, /* tp_btf, through the kernel's BTF */
	SLOT_TP_EXIT, /* a support probe's second tracepoint */
	SLOT_RAW_TP, /* their raw_tp twins (bpf/rawtp.bpf.h), without it */
	SLOT_RAW_TP_EXIT,
	NR_PROG_SLOTS,
};

/* where a probe's programs sit in struct pcptop_bpf; 0 for none */
struct probe_progs {
	size_t at[NR_PROG_SLOTS];
};

extern const struct probe_progs probe_progs[NR_PROBES];
/* --cross-check: mm_page_pcpu_drain beside a function probe (SLOT_TP) */
extern const struct probe_progs xcheck_progs;
/* BPF_PROG_TEST_RUN target reading the scale patch's variable */
extern const size_t read_kvar_prog;

/* the programs probe id runs in mode m: an entry one and an exit one */
struct prog_need {
	enum prog_slot entry, exit; /* SLOT_NONE: the mode runs none there */
};

void prog_need(int id, enum probe_mode m, bool raw_tp, struct prog_need *n);
/* "fentry", "kretprobe", "raw_tp exit", ... */
const char *prog_slot_name(enum prog_slot s);

/*
 * Whether every probe the plan attaches has its programs in tab: 0, or
 * -ENOENT with msg naming the probe, its mode and the missing program.
 */
int progs_check(const struct probe_progs tab[NR_PROBES],
		const struct probe_state probes[NR_PROBES], bool raw_tp,
		char *msg, size_t len);

/* the program at offset off of skel, NULL for 0 */
struct bpf_program *prog_at(const struct pcptop_bpf *skel, size_t off);

#endif /* PCPTOP_PROGS_H */
