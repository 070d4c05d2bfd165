/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The probe table: every kernel function pcptop watches and the
 * tracepoint that stands in for it where no function probe attaches. The
 * BPF programs that watch them are src/kernel/progs.c's table. The attach plan (kernel/), info, the
 * recording header and every view of a probe's mode iterate this table.
 */
#ifndef PCPTOP_PROBES_H
#define PCPTOP_PROBES_H

#include <stdbool.h>
#include <stdint.h>

enum probe_id {
	PROBE_BULK_FREE, /* free_pcppages_bulk */
	PROBE_REFILL, /* rmqueue_bulk */
	PROBE_DECAY, /* decay_pcp_high */
	PROBE_DRAIN, /* drain_pages_zone */
	PROBE_FREE_HIGH, /* the commit function's free_high flushes */
	PROBE_ALLOC, /* the allocator's entry point: latency (--latency) */
	PROBE_FREE, /* the pcp free entry point: latency (--latency) */
	PROBE_RECLAIM, /* direct reclaim stalls: vmscan tracepoints only */
	PROBE_COMPACT, /* direct compaction stalls: try_to_compact_pages */
	/* wall time without CPU (bpf/waits.bpf.h): tracepoints only */
	PROBE_WAITS, /* writers' throttle sleeps and each CPU's idle split */
	PROBE_THROTTLE, /* reclaim_throttle() sleeps */
	PROBE_BLOCK, /* block requests, issue to complete */
	/* support: tracepoints timing what runs inside the calls above */
	PROBE_IRQ_TIME, /* irq_handler_entry/exit */
	PROBE_SOFTIRQ_TIME, /* softirq_entry/exit */
	PROBE_LOCK_WAIT, /* lock:contention_begin/end */
	PROBE_BULK_ORDER, /* mm_page_pcpu_drain: each bulk-freed page's order */
	NR_PROBES,
};

enum probe_mode {
	MODE_NONE,
	MODE_FENTRY,
	MODE_KPROBE,
	MODE_TRACEPOINT,
	MODE_HEURISTIC, /* free_high guessed from where a bulk free starts */
	MODE_AUTO, /* only as a request */
	NR_PROBE_MODES,
};

#define PROBE_MODE_BIT(m) (1u << (m))
/* modes whose figures come from event runs or guesses, not calls */
#define PROBE_MODES_ESTIMATED \
	(PROBE_MODE_BIT(MODE_TRACEPOINT) | PROBE_MODE_BIT(MODE_HEURISTIC))

/* kernel function names a probe tries, newest name first */
#define PROBE_MAX_FNS 3

/* options asking for probes the default plan leaves out (attach_opts) */
enum probe_opt {
	PROBE_OPT_LATENCY = 1u << 0, /* --latency */
	PROBE_OPT_EXACT_FREE_HIGH = 1u << 1, /* --exact-free-high */
	PROBE_OPT_PAGE_ORDERS = 1u << 2, /* --page-orders */
};

/* the BPF settings (bpf/state.bpf.h's rodata) a function probe turns on */
enum probe_knob {
	KNOB_NONE,
	KNOB_LATENCY_ON, /* latency_on: refills and flushes mark their call */
	KNOB_FREE_HIGH_EXACT, /* free_high_exact: the commit function counts */
};

struct probe_desc {
	const char *name; /* "bulk_free": info, JSON, recordings */
	/*
	 * A support probe has no function: its tracepoints are attached
	 * beside the function probes (fentry or kprobe) and time what runs
	 * inside their calls.
	 */
	bool support;
	const char *what; /* what a support probe is for, for info */
	/* candidates, newest name first (kernel_quirks.h says why) */
	const char *fns[PROBE_MAX_FNS];
	/* tracepoint stand-in (its programs: src/kernel/progs.c); NULL: none */
	const char *tp;
	int tp_nargs; /* arguments the program reads */
	const char *tp_cat; /* its category, "kmem" */
	const char *tp_note; /* what its figures are then */
	/*
	 * A second tracepoint, ending what tp began: a support probe's, and a
	 * stall's (its tracepoints are a pair in every mode they run in)
	 */
	const char *tp_exit;
	/*
	 * A support probe rides beside this probe's function probe only
	 * (BESIDE(id)); 0: beside any timed one
	 */
	int beside;
	/*
	 * The option that asks for its function probe (it runs on every
	 * allocation or free), 0 for none; not asked for, the probe takes
	 * its heuristic, or none.
	 */
	unsigned int opt;
	/* probe whose events a heuristic reads, or -1 */
	int heuristic_on;
	/* the BPF setting its function probe (fentry, kprobe) switches on */
	enum probe_knob knob;
	/* its calls are timed: support probes ride beside its function probe */
	bool timed;
	/*
	 * Its programs run once per page, not per batch: the tracepoint
	 * stand-in (an event per page), or the function (the commit runs on
	 * every page freed to a pcp list).
	 */
	bool tp_per_page, fn_per_page;
	/* opt and no heuristic: unlisted when not attached */
	bool opt_in;
	/*
	 * Beside a function probe its call starts at tp, not at the
	 * function's entry: the kernel's own line for where the wait
	 * starts, and the entry probe's cost (a kretprobe's several
	 * microseconds under TCG) stays out of short calls. Only the exit
	 * is then the function's (fexit, kretprobe).
	 */
	bool fn_entry_tp;
};

/* probe_desc.beside for a support probe that needs probe id's function */
#define BESIDE(id) ((id) + 1)

extern const struct probe_desc probe_table[NR_PROBES];

/* a function whose frames on a drain's stack name its caller */
struct drain_caller_sym {
	const char *name;
	int caller; /* enum pcptop_drain_caller */
};

/* kernel_quirks.h's QUIRK_DRAIN_CALLERS, innermost-first precedence */
extern const struct drain_caller_sym drain_caller_syms[];
extern const int nr_drain_caller_syms;

/* "auto", "fentry", ... for any mode */
const char *probe_mode_name(enum probe_mode mode);
/* the modes a user may ask for: auto, fentry, kprobe, tracepoint */
int probe_mode_parse(const char *s, enum probe_mode *mode);
/* any mode name a recording may hold; MODE_NONE for unknown ones */
enum probe_mode probe_mode_from_name(const char *s);
/* probe index by name, -1 when unknown (a newer recording's probe) */
int probe_find(const char *name);
/* whether probe id in mode m runs a program for every page */
bool probe_per_page(int id, enum probe_mode m);
/* fentry or kprobe: the function itself is probed */
bool probe_mode_fn(enum probe_mode m);

struct attach_opts;
/* the PROBE_OPT_* bits a command's options ask for */
unsigned int probe_opts_of(const struct attach_opts *o);
/* why a probe asked for by opt is not attached when it is not asked for */
const char *probe_opt_unasked(unsigned int opt);

#define PROBE_TARGET_LEN 64
#define PROBE_REASON_LEN 192

/* what the attach plan chose for one probe, and why */
struct probe_state {
	enum probe_mode mode;
	char target[PROBE_TARGET_LEN]; /* function or tracepoint in use */
	char reason[PROBE_REASON_LEN];
	bool estimated; /* figures from event runs, not calls */
};

/* what a command asks of the attach */
struct attach_opts {
	enum probe_mode want; /* MODE_AUTO or the one mode to use */
	bool cross_check; /* mm_page_pcpu_drain beside a function probe */
	bool exact_free_high; /* probe the commit function: every free */
	bool latency; /* probe the allocator's entry points: every call */
	/* mm_page_pcpu_drain beside a function probe: every bulk-freed page */
	bool page_orders;
	const char *btf_path; /* --btf: the kernel's BTF from a file */
	bool verbose; /* pass libbpf's log through */
	uint64_t run_gap_ns;
};

/* tracepoint mode: events closer than this on one CPU are one call */
#define RUN_GAP_NS_DEFAULT 5000
/* beyond 10 ms a gap means nothing */
#define RUN_GAP_MAX_NS 10000000ULL

#endif /* PCPTOP_PROBES_H */
