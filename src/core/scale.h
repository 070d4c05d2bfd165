/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PCP batch scale in force and where that figure comes from.
 * Precedence: the live kernel variable of the CIP patch, the boot
 * parameter (only where the kernel has the patch), CONFIG_PCP_BATCH_SCALE_MAX,
 * inference from observed chunks, else unknown.
 */
#ifndef PCPTOP_SCALE_H
#define PCPTOP_SCALE_H

#include <stdbool.h>
#include <stddef.h>

/* the CIP patch clamps pcp_batch_scale_max= to this (MAX_PCP_BATCH) */
#define SCALE_CLAMP_MAX 6
#define SCALE_NOTE_LEN 256
#define SCALE_PATH_LEN 256

enum scale_source {
	SCALE_SRC_KVAR, /* "kernel-variable" */
	SCALE_SRC_CMDLINE, /* "cmdline" */
	SCALE_SRC_CONFIG, /* "config" */
	SCALE_SRC_INFERRED, /* "inferred" */
	SCALE_SRC_UNKNOWN, /* "unknown" */
	NR_SCALE_SRC,
};

/* whether the running kernel carries the pcp_batch_scale_max= patch */
enum scale_patch {
	SCALE_PATCH_UNKNOWN, /* kallsyms unreadable */
	SCALE_PATCH_ABSENT,
	SCALE_PATCH_PRESENT,
};

struct scale_info {
	int value; /* -1 when unknown */
	enum scale_source source;
	bool have[NR_SCALE_SRC];
	int val[NR_SCALE_SRC];
	enum scale_patch patch;
	unsigned long long kvar_addr; /* 0 when kallsyms does not list it */
	char cmdline_raw[32]; /* as written on the command line */
	char config_path[SCALE_PATH_LEN]; /* where CONFIG_... was found */
	int inferred_evidence; /* chunks the inference rests on */
	char note[SCALE_NOTE_LEN]; /* disagreement between sources, or "" */
	/* scale_observe(): the largest chunk so far and its batch */
	unsigned long long inferred_largest;
	unsigned long long inferred_slack;
	int inferred_batch;
	int kvar_err; /* -errno of a failed kvar read, or 0 */
};

const char *scale_source_name(enum scale_source src);

/*
 * Reads <root>/proc/cmdline, <root>/proc/kallsyms, <root>/proc/config.gz
 * then <root>/boot/config-<release>. Leaves the kernel variable for the
 * caller (it needs a BPF read of kvar_addr): see scale_set_kvar().
 * Calls scale_resolve() before returning.
 */
int scale_collect(const char *root, const char *release, struct scale_info *si);

/* value read from the live kernel variable */
void scale_set_kvar(struct scale_info *si, int value);

/*
 * Reading kvar_addr failed with -errno err: the note says so, since the
 * value shown then rests on the cmdline or the config alone.
 */
void scale_set_kvar_error(struct scale_info *si, int err);

/*
 * Inference: the largest free_high flush, drain chunk or decay drain seen,
 * against batch. A chunk of c pages with batch b proves scale >=
 * ceil(log2(c / b)); evidence counts the chunks seen.
 */
void scale_set_inferred(struct scale_info *si, int value, int evidence);
/* 0 with *scale set, or -ENODATA when nothing can be inferred */
int scale_infer(unsigned long long largest_chunk, int batch, int *scale);

/*
 * scale_infer() for pages freed rather than pages asked for:
 * free_pcppages_bulk() frees whole pages until its count drops to <= 0,
 * so the last page, from a list of order o, overshoots the request by up
 * to (1 << o) - 1 pages (2016 asked, 2136 freed has been seen). slack is
 * that allowance for the highest order on the pcp lists: (1 <<
 * pageblock_order) - 1 where THP pages sit on them, 7 where they cannot.
 * Never claims more than the request proves; 0 when largest <= slack.
 * 0 with *scale set, or -ENODATA.
 */
int scale_infer_slack(unsigned long long largest, int batch,
		      unsigned long long slack, int *scale);

/*
 * That allowance for a kernel whose pageblock order is known (THP pages
 * sit on the pcp lists with that order), or, when it is not (<= 0),
 * for order 9: x86-64's and 4K-page arm64's HPAGE_PMD_ORDER.
 */
unsigned long long scale_overshoot_slack(int pageblock_order);

/*
 * Adds one interval's observations: chunks is how many free_high flushes,
 * drain chunks and decay drains were seen, largest the biggest of them in
 * pages freed, batch the largest pcp->batch, slack as for
 * scale_infer_slack(). The scale in force does not change while the
 * kernel runs, so the evidence accumulates over calls and the inference
 * uses the largest chunk of all of them.
 */
void scale_observe(struct scale_info *si, unsigned long long largest, int batch,
		   unsigned long long chunks, unsigned long long slack);

/*
 * "inferred >= 5 from 14 chunks (largest 2016 pages = batch 63 << 5)", or
 * why nothing is inferred yet: one line for the views, any kernel.
 */
void scale_inferred_line(const struct scale_info *si, char *buf, size_t len);

/* choose value/source by precedence and fill note on disagreement */
void scale_resolve(struct scale_info *si);

/* the CIP patch's parsing: get_option() then the clamp to 6 */
int scale_parse_cmdline_value(const char *raw, int *value);

#endif /* PCPTOP_SCALE_H */
