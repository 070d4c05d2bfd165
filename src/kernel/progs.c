// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program table (progs.h). Each entry is the offset of a program in
 * the skeleton: PROG(fe_bulk) is where skel->progs.fe_bulk sits, so the
 * compiler checks every name against bpf/pcptop.bpf.c. Only the layout of
 * struct pcptop_bpf is taken from the skeleton; nothing here calls
 * libbpf, which is what lets the unit tests link this file.
 */
#include <errno.h>
#include <stdio.h>
#include "pcptop.h"
#include "progs.h"
#include "pcptop.skel.h"

#define PROG(name) offsetof(struct pcptop_bpf, progs.name)
/* an offset of 0 means "no program": none can sit there */
_Static_assert(offsetof(struct pcptop_bpf, progs) > 0,
	       "the skeleton's programs must not start it");

/* a probed function's fentry/fexit pair and kprobe/kretprobe twins */
#define FN_PROGS(fe, fx, kp, kr)                           \
	[SLOT_FENTRY] = PROG(fe), [SLOT_FEXIT] = PROG(fx), \
	[SLOT_KPROBE] = PROG(kp), [SLOT_KRETPROBE] = PROG(kr)
/* a tracepoint program and its raw twin, "r" + its name (TP_TWIN) */
#define TP_PROGS(tp) [SLOT_TP] = PROG(tp), [SLOT_RAW_TP] = PROG(r##tp)
#define TP_EXIT_PROGS(tp) \
	[SLOT_TP_EXIT] = PROG(tp), [SLOT_RAW_TP_EXIT] = PROG(r##tp)

const struct probe_progs probe_progs[NR_PROBES] = {
	[PROBE_BULK_FREE] = { {
		FN_PROGS(fe_bulk, fx_bulk, kp_bulk, kr_bulk),
		TP_PROGS(tp_drain),
	} },
	[PROBE_REFILL] = { {
		FN_PROGS(fe_refill, fx_refill, kp_refill, kr_refill),
		TP_PROGS(tp_zone_locked),
	} },
	[PROBE_DECAY] = { {
		FN_PROGS(fe_decay, fx_decay, kp_decay, kr_decay),
	} },
	[PROBE_DRAIN] = { {
		FN_PROGS(fe_drain, fx_drain, kp_drain, kr_drain),
	} },
	[PROBE_FREE_HIGH] = { {
		FN_PROGS(fe_commit, fx_commit, kp_commit, kr_commit),
	} },
	[PROBE_ALLOC] = { {
		FN_PROGS(fe_alloc, fx_alloc, kp_alloc, kr_alloc),
	} },
	[PROBE_FREE] = { {
		FN_PROGS(fe_free, fx_free, kp_free, kr_free),
	} },
	[PROBE_RECLAIM] = { {
		TP_PROGS(tp_reclaim_begin),
		TP_EXIT_PROGS(tp_reclaim_end),
	} },
	/* its entry is the tracepoint in every mode (fn_entry_tp) */
	[PROBE_COMPACT] = { {
		[SLOT_FEXIT] = PROG(fx_compact),
		[SLOT_KRETPROBE] = PROG(kr_compact),
		TP_PROGS(tp_compact_try),
		TP_EXIT_PROGS(tp_compact_end),
	} },
	[PROBE_WAITS] = { {
		TP_PROGS(tp_dirty),
		TP_EXIT_PROGS(tp_switch),
	} },
	[PROBE_THROTTLE] = { {
		TP_PROGS(tp_throttled),
	} },
	[PROBE_BLOCK] = { {
		TP_PROGS(tp_rq_issue),
		TP_EXIT_PROGS(tp_rq_complete),
	} },
	[PROBE_IRQ_TIME] = { {
		TP_PROGS(tp_irq_entry),
		TP_EXIT_PROGS(tp_irq_exit),
	} },
	[PROBE_SOFTIRQ_TIME] = { {
		TP_PROGS(tp_softirq_entry),
		TP_EXIT_PROGS(tp_softirq_exit),
	} },
	[PROBE_LOCK_WAIT] = { {
		TP_PROGS(tp_lock_begin),
		TP_EXIT_PROGS(tp_lock_end),
	} },
	[PROBE_BULK_ORDER] = { {
		TP_PROGS(tp_drain_order),
	} },
};

const struct probe_progs xcheck_progs = { { TP_PROGS(tp_drain_xcheck) } };
const size_t read_kvar_prog = PROG(read_kvar);

/* one name a line, as clang-format would not keep them */
/* clang-format off */
static const char *const slot_names[NR_PROG_SLOTS] = {
	[SLOT_NONE] = "no",
	[SLOT_FENTRY] = "fentry",
	[SLOT_FEXIT] = "fexit",
	[SLOT_KPROBE] = "kprobe",
	[SLOT_KRETPROBE] = "kretprobe",
	[SLOT_TP] = "tp_btf",
	[SLOT_TP_EXIT] = "tp_btf exit",
	[SLOT_RAW_TP] = "raw_tp",
	[SLOT_RAW_TP_EXIT] = "raw_tp exit",
};
/* clang-format on */

const char *prog_slot_name(enum prog_slot s)
{
	return (unsigned int)s < NR_PROG_SLOTS ? slot_names[s] : "?";
}

void prog_need(int id, enum probe_mode m, bool raw_tp, struct prog_need *n)
{
	bool entry_tp = id >= 0 && id < NR_PROBES &&
			probe_table[id].fn_entry_tp;

	n->entry = n->exit = SLOT_NONE;
	switch (m) {
	case MODE_FENTRY:
		n->entry = entry_tp ? (raw_tp ? SLOT_RAW_TP : SLOT_TP) :
				      SLOT_FENTRY;
		n->exit = SLOT_FEXIT;
		break;
	case MODE_KPROBE:
		n->entry = entry_tp ? (raw_tp ? SLOT_RAW_TP : SLOT_TP) :
				      SLOT_KPROBE;
		n->exit = SLOT_KRETPROBE;
		break;
	case MODE_TRACEPOINT:
		n->entry = raw_tp ? SLOT_RAW_TP : SLOT_TP;
		/* a support probe's or a stall's: a pair of tracepoints */
		if (id >= 0 && id < NR_PROBES && probe_table[id].tp_exit)
			n->exit = raw_tp ? SLOT_RAW_TP_EXIT : SLOT_TP_EXIT;
		break;
	default:
		/* heuristic and none run no program of their own */
		break;
	}
}

static int slot_check(const struct probe_progs *row, int id, enum probe_mode m,
		      enum prog_slot s, char *msg, size_t len)
{
	if (s == SLOT_NONE || row->at[s])
		return 0;
	snprintf(
		msg, len,
		"probe %s is planned as %s, but src/kernel/progs.c gives it no %s program: add it to its row (bpf/pcptop.bpf.c's index lists the programs)",
		probe_table[id].name, probe_mode_name(m), prog_slot_name(s));
	return -ENOENT;
}

int progs_check(const struct probe_progs tab[NR_PROBES],
		const struct probe_state probes[NR_PROBES], bool raw_tp,
		char *msg, size_t len)
{
	struct prog_need n;
	int id, err;

	for (id = 0; id < NR_PROBES; id++) {
		prog_need(id, probes[id].mode, raw_tp, &n);
		err = slot_check(&tab[id], id, probes[id].mode, n.entry, msg,
				 len);
		if (!err)
			err = slot_check(&tab[id], id, probes[id].mode, n.exit,
					 msg, len);
		if (err)
			return err;
	}
	return 0;
}

struct bpf_program *prog_at(const struct pcptop_bpf *skel, size_t off)
{
	if (!skel || !off)
		return NULL;
	return *(struct bpf_program *const *)((const char *)skel + off);
}
