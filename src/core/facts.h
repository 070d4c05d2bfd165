/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run was made under: the kernel, how each probe attached, the PCP
 * batch scale and where it was read, the pagesets. Filled live by
 * kernel/system.c or read back from a recording's header, so stat, info,
 * report and diff print them through the same code.
 */
#ifndef PCPTOP_FACTS_H
#define PCPTOP_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "figtab.h"
#include "kshape.h"
#include "probes.h"
#include "procfs.h"
#include "procstat.h"
#include "scale.h"

#define FACTS_UTS_LEN 65
#define FACTS_MAX_PROBES 16
#define FACTS_STR_LEN 256

/* one probe as attached, or as a recording names it */
struct fact_probe {
	char name[32];
	char mode_name[32]; /* as written; mode is its parse */
	enum probe_mode mode;
	char target[PROBE_TARGET_LEN];
	char reason[FACTS_STR_LEN];
	bool estimated;
};

/* what pcptop costs, read from the kernel at each report */
#define SELF_MAX_PROGS 32
#define SELF_NAME_LEN 32

struct self_prog {
	char name[SELF_NAME_LEN];
	uint64_t runs; /* since load, counted while bpf stats are on */
	uint64_t run_ns;
};

struct self_cost {
	bool valid;
	bool stats_on; /* kernel.bpf_stats_enabled: runs and run_ns count */
	uint64_t map_bytes; /* locked by pcptop's maps (fdinfo memlock) */
	int nr_progs;
	struct self_prog progs[SELF_MAX_PROGS];
};

struct facts {
	char release[FACTS_UTS_LEN];
	char arch[FACTS_UTS_LEN];
	char hostname[FACTS_UTS_LEN];
	int nr_probes;
	struct fact_probe probes[FACTS_MAX_PROBES];
	char mode_summary[32]; /* the mode all probes share, or "mixed" */
	char fallback[FACTS_STR_LEN * 2];
	char btf_source[64];
	struct scale_info scale;
	struct zoneinfo zones; /* allocated: facts_free() */
	int zones_err; /* -errno when zoneinfo was unreadable */
	int pageblock_order; /* -1 when unknown */
	int pages_per_block;
	int pageblock_err; /* why unknown, -errno */
	long high_fraction; /* -1 when unknown */
	int high_fraction_err;
	uint64_t run_gap_ns;
	uint64_t run_cap_pages; /* batch << scale, 0 unknown */
	bool cross_check;
	/* live only: the pcp code's shape and its evidence (info) */
	struct kshape shape;
	struct self_cost self;
	/* FIG_SAMPLED rows this run read (by fig_table index) */
	bool sampled[FIGTAB_MAX];
	/*
	 * The block devices the per-device figures' cells name, in cell
	 * order; nr_devs is how many the machine had: those past
	 * SAMPLE_DEVS are not sampled
	 */
	int nr_devs;
	char devs[SAMPLE_DEVS][BLOCK_NAME_LEN];
	/* why /proc/pressure was not read; "" when it was or was not tried */
	char psi_absent[FACTS_STR_LEN];
	/*
	 * The counters and histograms this run kept: all of them live; a
	 * recording's, those its header names (an older one lacks the newer)
	 */
	bool counted[NR_PCPTOP_COUNTERS];
	bool hist_kept[NR_PCPTOP_HISTS];
};

void facts_init(struct facts *f);
void facts_free(struct facts *f);

/* the probe of that name, NULL when the run had none */
const struct fact_probe *facts_probe(const struct facts *f, const char *name);
/* the mode of probe id in this run (MODE_NONE when absent) */
enum probe_mode facts_mode(const struct facts *f, int probe_id);
bool facts_estimated(const struct facts *f, int probe_id);

/*
 * Whether a figure (or histogram) was measured in this run: its probe's
 * mode is one it is measured in, and --cross-check for the cross-check;
 * a sampled figure's source had it; a BPF figure's counters were kept.
 */
bool facts_fig_shown(const struct facts *f, const struct fig_desc *d);
/* whether the one-line probe lists name fa->probes[i] (not a support
 * probe that is not attached) */
bool facts_probe_listed(const struct facts *f, int i);
bool facts_hist_shown(const struct facts *f, int hist);
/* whether extra k of a figure is counted in this run's mode */
bool facts_extra_shown(const struct facts *f, const struct fig_desc *d, int k);
/* estimated: the figure's mode says so and the probe was not exact */
bool facts_events_estimated(const struct facts *f, const struct fig_desc *d);
bool facts_pages_estimated(const struct facts *f, const struct fig_desc *d);

/* "mixed", or the mode every attached probe shares */
const char *facts_summary_mode(const struct facts *f);

/* name of zone index idx (node 0 order, as in /proc/zoneinfo), or "?" */
const char *facts_zone_name(const struct facts *f, int idx);
/*
 * Instance k of a scope, as views name it: a zone's name, "cpu3" (the
 * last cell "cpu63+", which holds the CPUs past it too), a device's name
 */
void facts_instance_name(const struct facts *f, enum sample_scope scope, int k,
			 char *buf, size_t len);
/* the word views key instances by: "zone", "cpu", "device" */
const char *facts_instance_label(enum sample_scope scope);
/* largest pcp->batch over every zone and CPU, 0 when unknown */
int facts_max_batch(const struct facts *f);
/* batch << scale, the largest chunk any bulk call moves; 0 when unknown */
unsigned long long facts_chunk_bound(const struct facts *f);
/* "scale 5 (config, /proc/config.gz)": the first line of every view */
void facts_scale_line(const struct facts *f, char *buf, size_t len);

struct figures;
/*
 * What the probes proved of the scale in an interval (HIST_SCALE_*)
 * feeds the one inference over the whole run.
 */
void facts_observe_scale(struct facts *fa, const struct figures *f);

/* whether this run timed allocations or frees (--latency attached) */
bool facts_latency(const struct facts *f, int dir);

#endif /* PCPTOP_FACTS_H */
