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

/* the CIP patch clamps pcp_batch_scale_max= to this (MAX_PCP_BATCH) */
#define SCALE_CLAMP_MAX 6
#define SCALE_NOTE_LEN 256
#define SCALE_PATH_LEN 256

enum scale_source {
	SCALE_SRC_KVAR,		/* "kernel-variable" */
	SCALE_SRC_CMDLINE,	/* "cmdline" */
	SCALE_SRC_CONFIG,	/* "config" */
	SCALE_SRC_INFERRED,	/* "inferred" */
	SCALE_SRC_UNKNOWN,	/* "unknown" */
	NR_SCALE_SRC,
};

/* whether the running kernel carries the pcp_batch_scale_max= patch */
enum scale_patch {
	SCALE_PATCH_UNKNOWN,	/* kallsyms unreadable */
	SCALE_PATCH_ABSENT,
	SCALE_PATCH_PRESENT,
};

struct scale_info {
	int value;			/* -1 when unknown */
	enum scale_source source;
	bool have[NR_SCALE_SRC];
	int val[NR_SCALE_SRC];
	enum scale_patch patch;
	unsigned long long kvar_addr;	/* 0 when kallsyms does not list it */
	char cmdline_raw[32];		/* as written on the command line */
	char config_path[SCALE_PATH_LEN]; /* where CONFIG_... was found */
	int inferred_evidence;		/* chunks the inference rests on */
	char note[SCALE_NOTE_LEN];	/* disagreement between sources, or "" */
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
 * Inference: the largest free_high flush, drain chunk or decay drain seen,
 * against batch. A chunk of c pages with batch b proves scale >=
 * ceil(log2(c / b)); evidence counts the chunks seen.
 */
void scale_set_inferred(struct scale_info *si, int value, int evidence);
int scale_infer(unsigned long long largest_chunk, int batch);

/* choose value/source by precedence and fill note on disagreement */
void scale_resolve(struct scale_info *si);

/* the CIP patch's parsing: get_option() then the clamp to 6 */
int scale_parse_cmdline_value(const char *raw, int *value);

#endif /* PCPTOP_SCALE_H */
