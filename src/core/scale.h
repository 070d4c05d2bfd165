/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PCP batch scale in force and where that figure comes from.
 * Precedence: the live kernel variable of the CIP patch, the boot
 * parameter (only where the kernel is known to have the patch),
 * CONFIG_PCP_BATCH_SCALE_MAX, "none" when the config says the kernel has
 * no scale at all (before v6.7 without the 6.1.y backport), inference
 * from what the probes proved, else unknown.
 */
#ifndef PCPTOP_SCALE_H
#define PCPTOP_SCALE_H

#include <stdbool.h>
#include <stddef.h>

/* the CIP patch clamps pcp_batch_scale_max= to this (MAX_PCP_BATCH) */
#define SCALE_CLAMP_MAX 6
#define SCALE_NOTE_LEN 256
#define SCALE_PATH_LEN 256
/* the symbols scale_collect() looks up in kallsyms: the patch's setup
 * handler, then its variable */
#define SCALE_KALLSYMS_NSYMS 2
extern const char *const scale_kallsyms_syms[SCALE_KALLSYMS_NSYMS];

/* scale_inferred_line()'s longest line */
#define SCALE_INFERRED_LEN 160

enum scale_source {
	SCALE_SRC_KVAR, /* "kernel-variable" */
	SCALE_SRC_CMDLINE, /* "cmdline" */
	SCALE_SRC_CONFIG, /* "config" */
	SCALE_SRC_INFERRED, /* "inferred" */
	SCALE_SRC_UNKNOWN, /* "unknown" */
	SCALE_SRC_NONE, /* "none": the kernel has no scale (value -1) */
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
	int inferred_evidence; /* observations the inference rests on */
	char note[SCALE_NOTE_LEN]; /* disagreement between sources, or "" */
	/* scale_observe(): what the probes proved so far, -1 nothing */
	int inferred_at_least; /* the largest lower bound */
	int inferred_exact; /* what capped drain chunks showed */
	int inferred_exact_n; /* how many did */
	bool config_lacks; /* a config was read and has no such option */
	/* the kernel's free_high flush frees all of pcp->count (pre-6.7) */
	bool free_high_uncapped;
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
 * Inference, from what the probes record at each bulk free (bpf/pcptop.bpf.c,
 * HIST_SCALE_*): lower bounds no kernel can exceed (the factor the scale
 * caps, free_count, chunk sizes) and the exact value a drain chunk cut at
 * batch << scale shows. One interval's largest of each, and how many
 * observations; -1 / 0 for none. The scale does not change while the
 * kernel runs, so they accumulate over the run.
 */
void scale_observe(struct scale_info *si, int at_least,
		   unsigned long long at_least_n, int exact,
		   unsigned long long exact_n);
/*
 * The same evidence, without resolving value and source again: for a
 * recording, whose header keeps what was resolved when it was made.
 */
void scale_add_evidence(struct scale_info *si, int at_least,
			unsigned long long at_least_n, int exact,
			unsigned long long exact_n);
/* pre-6.7 kernel (pcp has free_factor): the note says what is not capped */
void scale_set_free_high_uncapped(struct scale_info *si);
/* set the inference directly (a recording's totals) */
void scale_set_inferred(struct scale_info *si, int value, int evidence);

/*
 * "inferred = 5 from 3 drain chunks cut at batch << scale", "inferred >= 2
 * from 120 observations", or why nothing is inferred: one line.
 */
void scale_inferred_line(const struct scale_info *si, char *buf, size_t len);

/* choose value/source by precedence and fill note on disagreement */
void scale_resolve(struct scale_info *si);

/* the CIP patch's parsing: get_option() then the clamp to 6 */
int scale_parse_cmdline_value(const char *raw, int *value);

#endif /* PCPTOP_SCALE_H */
