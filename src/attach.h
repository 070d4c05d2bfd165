/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The attach plan: for every probe choose fentry, then kprobe, then a
 * tracepoint stand-in, then none, and keep the reason for each choice so
 * `pcptop info` can say what is attached and why.
 */
#ifndef PCPTOP_ATTACH_H
#define PCPTOP_ATTACH_H

#include <stdbool.h>
#include <stdint.h>

enum probe_id {
	PROBE_BULK_FREE,	/* free_pcppages_bulk */
	PROBE_REFILL,		/* rmqueue_bulk */
	PROBE_DECAY,		/* decay_pcp_high */
	PROBE_DRAIN,		/* drain_pages_zone */
	PROBE_FREE_HIGH,	/* the commit function's free_high flushes */
	NR_PROBES,
};

enum probe_mode {
	MODE_NONE,
	MODE_FENTRY,
	MODE_KPROBE,
	MODE_TRACEPOINT,
	MODE_HEURISTIC,	/* free_high guessed from where a bulk free starts */
	MODE_AUTO,	/* only as a request */
};

#define PROBE_REASON_LEN 192
#define ATTACH_MSG_LEN 320
#define ATTACH_MAX_LINKS 16
#define RUN_GAP_NS_DEFAULT 5000

struct probe_state {
	enum probe_mode mode;
	char target[64];	/* function or tracepoint in use */
	char reason[PROBE_REASON_LEN];
	bool estimated;		/* figures come from event runs, not calls */
};

struct attach_opts {
	enum probe_mode want;	/* MODE_AUTO or the one mode to use */
	bool cross_check;	/* mm_page_pcpu_drain beside a function probe */
	bool verbose;		/* pass libbpf's log through */
	uint64_t run_gap_ns;
};

struct pcptop_bpf;
struct bpf_link;

struct attach {
	struct pcptop_bpf *skel;
	struct probe_state probes[NR_PROBES];
	struct bpf_link *links[ATTACH_MAX_LINKS];
	int nr_links;
	bool cross_check;
	char btf_source[64];
	char commit_fn[40];	/* free_unref_page_commit or its 6.15 name */
	/* set when auto mode had to fall back; main prints it once */
	char fallback[ATTACH_MSG_LEN];
	/* one line for the user when attach_open() fails */
	char error[ATTACH_MSG_LEN];
};

const char *probe_name(enum probe_id id);
const char *probe_mode_name(enum probe_mode mode);
/* "auto", "fentry", "kprobe", "tracepoint" -> mode; -EINVAL otherwise */
int probe_mode_parse(const char *s, enum probe_mode *mode);

/*
 * Check privileges and BTF, plan, load and attach. 0 or -errno; on error
 * a->error says what failed and what to do, and nothing stays attached.
 */
int attach_open(struct attach *a, const struct attach_opts *opts);
void attach_close(struct attach *a);

/* mode shared by every attached probe, or "mixed" */
const char *attach_summary_mode(const struct attach *a);

/* tracepoint mode: cut event runs at this many pages (batch << scale) */
void attach_set_run_cap(struct attach *a, unsigned long long pages);

/* value of an int at a kernel address, read by a BPF program */
int attach_read_kernel_int(struct attach *a, unsigned long long addr,
			   int *value);

#endif /* PCPTOP_ATTACH_H */
