// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "compat.bpf.h"
#include "probes.h"

const struct probe_desc probe_table[NR_PROBES] = {
	[PROBE_BULK_FREE] = {
		.name = "bulk_free",
		.fns = { "free_pcppages_bulk" },
		.fentry = "fe_bulk", .fexit = "fx_bulk",
		.kprobe = "kp_bulk", .kretprobe = "kr_bulk",
		.tp = "mm_page_pcpu_drain", .tp_prog = "tp_drain",
		.tp_nargs = COMPAT_PCPU_DRAIN_TP_NARGS,
		.tp_note = "pages exact, calls and lock time estimated from event runs",
		.heuristic_on = -1,
	},
	[PROBE_REFILL] = {
		.name = "refill",
		.fns = { "rmqueue_bulk" },
		.fentry = "fe_refill", .fexit = "fx_refill",
		.kprobe = "kp_refill", .kretprobe = "kr_refill",
		.tp = "mm_page_alloc_zone_locked", .tp_prog = "tp_zone_locked",
		.tp_nargs = COMPAT_ZONE_LOCKED_TP_NARGS,
		.tp_note = "pages from percpu_refill events, calls and lock time estimated",
		.heuristic_on = -1,
	},
	[PROBE_DECAY] = {
		.name = "decay",
		.fns = { "decay_pcp_high" },
		.fentry = "fe_decay", .fexit = "fx_decay",
		.kprobe = "kp_decay", .kretprobe = "kr_decay",
		.heuristic_on = -1,
	},
	[PROBE_DRAIN] = {
		.name = "drain",
		.fns = { "drain_pages_zone" },
		.fentry = "fe_drain", .fexit = "fx_drain",
		.kprobe = "kp_drain", .kretprobe = "kr_drain",
		.heuristic_on = -1,
	},
	[PROBE_FREE_HIGH] = {
		.name = "free_high",
		.fns = COMPAT_COMMIT_FNS,
		.fentry = "fe_commit", .fexit = "fx_commit",
		.kprobe = "kp_commit", .kretprobe = "kr_commit",
		.heuristic_on = PROBE_BULK_FREE,
		.heuristic_note = "estimated from bulk frees that start at an order 1-3 list",
	},
};

/* one name a line, as clang-format would not keep them */
/* clang-format off */
static const char *const mode_names[NR_PROBE_MODES] = {
	[MODE_NONE] = "none",
	[MODE_FENTRY] = "fentry",
	[MODE_KPROBE] = "kprobe",
	[MODE_TRACEPOINT] = "tracepoint",
	[MODE_HEURISTIC] = "heuristic",
	[MODE_AUTO] = "auto",
};
/* clang-format on */

const char *probe_mode_name(enum probe_mode mode)
{
	return (unsigned int)mode < NR_PROBE_MODES ? mode_names[mode] : "?";
}

int probe_mode_parse(const char *s, enum probe_mode *mode)
{
	static const enum probe_mode choices[] = { MODE_AUTO, MODE_FENTRY,
						   MODE_KPROBE,
						   MODE_TRACEPOINT };
	size_t i;

	for (i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		if (!strcmp(s, mode_names[choices[i]])) {
			*mode = choices[i];
			return 0;
		}
	}
	return -EINVAL;
}

enum probe_mode probe_mode_from_name(const char *s)
{
	int m;

	for (m = 0; m < NR_PROBE_MODES; m++)
		if (!strcmp(s, mode_names[m]))
			return (enum probe_mode)m;
	return MODE_NONE;
}

int probe_find(const char *name)
{
	int id;

	for (id = 0; id < NR_PROBES; id++)
		if (!strcmp(probe_table[id].name, name))
			return id;
	return -1;
}
