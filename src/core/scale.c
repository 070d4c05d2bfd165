// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which PCP batch scale is in force, and how sure we are of it. See
 * scale.h for the precedence; the notes say where sources disagree or
 * where the chosen value rests on an assumption.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kallsyms.h"
#include "procfs.h"
#include "scale.h"

#define SCALE_PARAM "pcp_batch_scale_max"
#define SCALE_CONFIG "PCP_BATCH_SCALE_MAX"
#define SCALE_SETUP_SYM "setup_pcp_batch_scale_max"
#define SCALE_VAR_SYM "pcp_batch_scale_max"

const char *const scale_kallsyms_syms[SCALE_KALLSYMS_NSYMS] = { SCALE_SETUP_SYM,
								SCALE_VAR_SYM };
#define SCALE_UNKNOWN_VALUE (-1)
/* room for any command-line value; cmdline_raw keeps only its head */
#define CMDLINE_VAL_LEN 256
#define CONFIG_VAL_LEN 32
#define PATH_LEN 4096

/* one name a line, as clang-format would not keep them */
/* clang-format off */
static const char *const source_names[NR_SCALE_SRC] = {
	[SCALE_SRC_KVAR]	= "kernel-variable",
	[SCALE_SRC_CMDLINE]	= "cmdline",
	[SCALE_SRC_CONFIG]	= "config",
	[SCALE_SRC_INFERRED]	= "inferred",
	[SCALE_SRC_UNKNOWN]	= "unknown",
	[SCALE_SRC_NONE]	= "none",
};
/* clang-format on */

const char *scale_source_name(enum scale_source src)
{
	if ((unsigned int)src >= NR_SCALE_SRC)
		return "unknown";
	return source_names[src];
}

/*
 * simple_strtoull(s, &end, 0) of lib/vsprintf.c: "0x" + hex digit is hex,
 * a leading 0 octal, else decimal; no blanks, no sign; wraps on overflow.
 */
static unsigned long long kernel_strtoull(const char *s, const char **end)
{
	unsigned long long v = 0;
	unsigned int base = 10, d;

	if (s[0] == '0') {
		if (tolower((unsigned char)s[1]) == 'x' &&
		    isxdigit((unsigned char)s[2])) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	}
	for (;; s++) {
		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	*end = s;
	return v;
}

/*
 * get_option(&str, (unsigned int *)&pcp_batch_scale_max) before the clamp.
 * get_option() stores what simple_strtoull() gave even when it consumed
 * nothing, so "abc" sets 0; only an empty value leaves the variable
 * alone. *number says whether there were digits at all.
 */
static int get_option_uint(const char *raw, unsigned int *out, bool *number)
{
	const char *cur = raw, *end;
	unsigned long long v;
	bool neg = false;

	if (!raw || !*raw)
		return -EINVAL;
	if (*cur == '-') {
		neg = true;
		cur++;
	}
	v = kernel_strtoull(cur, &end);
	*out = (unsigned int)(neg ? -v : v);
	*number = end != cur;
	return 0;
}

int scale_parse_cmdline_value(const char *raw, int *value)
{
	unsigned int u;
	bool number;
	int err;

	err = get_option_uint(raw, &u, &number);
	if (err)
		return err;
	/* unsigned compare, as in the patch: "-1" is huge, so it becomes 6 */
	if (u > SCALE_CLAMP_MAX)
		u = SCALE_CLAMP_MAX;
	*value = (int)u;
	return 0;
}

/* both setters resolve again: value, source and note follow at once */
void scale_set_kvar(struct scale_info *si, int value)
{
	si->have[SCALE_SRC_KVAR] = true;
	si->val[SCALE_SRC_KVAR] = value;
	si->kvar_err = 0;
	scale_resolve(si);
}

void scale_set_kvar_error(struct scale_info *si, int err)
{
	/* either sign: callers pass -errno, but errno itself is no surprise */
	si->kvar_err = err > 0 ? -err : err;
	scale_resolve(si);
}

void scale_set_inferred(struct scale_info *si, int value, int evidence)
{
	si->have[SCALE_SRC_INFERRED] = value >= 0 && evidence > 0;
	si->val[SCALE_SRC_INFERRED] = value;
	si->inferred_evidence = evidence > 0 ? evidence : 0;
	scale_resolve(si);
}

static int sat_add(int a, unsigned long long b)
{
	return b > (unsigned long long)(INT_MAX - a) ? INT_MAX : a + (int)b;
}

void scale_add_evidence(struct scale_info *si, int at_least,
			unsigned long long at_least_n, int exact,
			unsigned long long exact_n)
{
	int evidence;

	if (at_least_n && at_least > si->inferred_at_least)
		si->inferred_at_least = at_least;
	if (exact_n) {
		si->inferred_exact = exact;
		si->inferred_exact_n = sat_add(si->inferred_exact_n, exact_n);
	}
	evidence = sat_add(sat_add(si->inferred_evidence, at_least_n), exact_n);
	/* an exact value wins; a lower bound above it says the probes are wrong */
	si->val[SCALE_SRC_INFERRED] = si->inferred_exact_n ?
					      si->inferred_exact :
					      si->inferred_at_least;
	si->have[SCALE_SRC_INFERRED] = si->val[SCALE_SRC_INFERRED] >= 0 &&
				       evidence > 0;
	si->inferred_evidence = evidence;
}

void scale_observe(struct scale_info *si, int at_least,
		   unsigned long long at_least_n, int exact,
		   unsigned long long exact_n)
{
	scale_add_evidence(si, at_least, at_least_n, exact, exact_n);
	scale_resolve(si);
}

void scale_set_free_high_uncapped(struct scale_info *si)
{
	si->free_high_uncapped = true;
	scale_resolve(si);
}

void scale_inferred_line(const struct scale_info *si, char *buf, size_t len)
{
	int ev = si->inferred_evidence;

	if (!si->have[SCALE_SRC_INFERRED])
		snprintf(
			buf, len,
			"inferred: nothing yet (no drain chunk cut at batch << scale, no capped factor seen)");
	else if (si->inferred_exact_n)
		snprintf(
			buf, len,
			"inferred = %d from %d drain chunk%s cut at batch << scale",
			si->inferred_exact, si->inferred_exact_n,
			si->inferred_exact_n == 1 ? "" : "s");
	else
		snprintf(
			buf, len,
			"inferred >= %d from %d observation%s (factors, free_count, chunk sizes)",
			si->val[SCALE_SRC_INFERRED], ev, ev == 1 ? "" : "s");
}

/* parts joined by "; " so the note stays one line */
static __attribute__((format(printf, 2, 3))) void
note_add(struct scale_info *si, const char *fmt, ...)
{
	size_t len = strlen(si->note);
	va_list ap;

	if (len && len + 2 < sizeof(si->note)) {
		strcpy(si->note + len, "; ");
		len += 2;
	}
	if (len + 1 >= sizeof(si->note))
		return;
	va_start(ap, fmt);
	vsnprintf(si->note + len, sizeof(si->note) - len, fmt, ap);
	va_end(ap);
}

/* how the boot parameter was read, beyond the plain 0..6 case */
static void note_cmdline_reading(struct scale_info *si)
{
	unsigned int u;
	bool number;

	if (get_option_uint(si->cmdline_raw, &u, &number))
		return;
	if (!number)
		note_add(si,
			 "cmdline asks \"%s\", which get_option() reads as 0",
			 si->cmdline_raw);
}

/* the boot parameter asked for more than the patch allows */
static bool cmdline_clamped(const struct scale_info *si)
{
	unsigned int u;
	bool number;

	return !get_option_uint(si->cmdline_raw, &u, &number) &&
	       u > SCALE_CLAMP_MAX;
}

static void note_kvar(struct scale_info *si)
{
	int kvar = si->val[SCALE_SRC_KVAR];
	int cmd = si->val[SCALE_SRC_CMDLINE];
	int cfg = si->val[SCALE_SRC_CONFIG];

	if (si->have[SCALE_SRC_CMDLINE]) {
		if (kvar != cmd)
			note_add(si, "cmdline asks %s, kernel variable is %d",
				 si->cmdline_raw, kvar);
		else if (cmdline_clamped(si))
			note_add(
				si,
				"cmdline asks %s, kernel variable is %d (the patch clamps to %d)",
				si->cmdline_raw, kvar, SCALE_CLAMP_MAX);
		else
			note_cmdline_reading(si);
	} else if (si->have[SCALE_SRC_CONFIG] && cfg != kvar) {
		note_add(
			si,
			"no cmdline value, yet kernel variable is %d and CONFIG_%s is %d",
			kvar, SCALE_CONFIG, cfg);
	}
}

static void note_cmdline(struct scale_info *si)
{
	note_cmdline_reading(si);
	if (cmdline_clamped(si))
		note_add(si, "cmdline asks %s, the patch clamps it to %d",
			 si->cmdline_raw, SCALE_CLAMP_MAX);
	if (si->patch == SCALE_PATCH_UNKNOWN)
		note_add(
			si,
			"kallsyms hides whether the kernel has the %s= patch: cmdline assumed in force",
			SCALE_PARAM);
	else if (!si->kvar_addr)
		note_add(
			si,
			"kernel variable not in kallsyms (no CONFIG_KALLSYMS_ALL): cmdline taken as in force");
	else if (si->kvar_err)
		note_add(
			si,
			"kernel variable at %#llx unreadable (%s): cmdline taken as in force",
			si->kvar_addr, strerror(-si->kvar_err));
	else
		note_add(
			si,
			"kernel variable at %#llx not read: cmdline taken as in force",
			si->kvar_addr);
}

static void note_config(struct scale_info *si)
{
	if (si->have[SCALE_SRC_CMDLINE] && si->patch == SCALE_PATCH_ABSENT)
		note_add(si,
			 "cmdline %s=%s ignored: the kernel lacks the patch",
			 SCALE_PARAM, si->cmdline_raw);
	/* patched, no cmdline value: the default holds unless it was poked */
	else if (si->kvar_addr && si->kvar_err)
		note_add(
			si,
			"kernel variable at %#llx unreadable (%s): config taken as in force",
			si->kvar_addr, strerror(-si->kvar_err));
}

static bool scale_valid(int v)
{
	return v >= 0 && v <= SCALE_CLAMP_MAX;
}

void scale_resolve(struct scale_info *si)
{
	bool kvar_ok = si->have[SCALE_SRC_KVAR] &&
		       scale_valid(si->val[SCALE_SRC_KVAR]);
	int inf = si->val[SCALE_SRC_INFERRED];

	si->note[0] = '\0';
	/*
	 * A cmdline value counts only where the patch is known to be there:
	 * with kallsyms unreadable, a stray pcp_batch_scale_max= on a kernel
	 * without it must not outrank the config.
	 */
	if (kvar_ok)
		si->source = SCALE_SRC_KVAR;
	else if (si->have[SCALE_SRC_CMDLINE] &&
		 (si->patch == SCALE_PATCH_PRESENT ||
		  (si->patch == SCALE_PATCH_UNKNOWN &&
		   !si->have[SCALE_SRC_CONFIG])))
		si->source = SCALE_SRC_CMDLINE;
	else if (si->have[SCALE_SRC_CONFIG])
		si->source = SCALE_SRC_CONFIG;
	else if (si->config_lacks && si->patch != SCALE_PATCH_PRESENT)
		si->source = SCALE_SRC_NONE;
	else if (si->have[SCALE_SRC_INFERRED])
		si->source = SCALE_SRC_INFERRED;
	else
		si->source = SCALE_SRC_UNKNOWN;
	si->value = si->source == SCALE_SRC_UNKNOWN ||
				    si->source == SCALE_SRC_NONE ?
			    SCALE_UNKNOWN_VALUE :
			    si->val[si->source];

	switch (si->source) {
	case SCALE_SRC_KVAR:
		note_kvar(si);
		break;
	case SCALE_SRC_CMDLINE:
		note_cmdline(si);
		break;
	case SCALE_SRC_CONFIG:
		note_config(si);
		break;
	case SCALE_SRC_INFERRED:
		if (si->inferred_exact_n)
			note_add(
				si,
				"inferred from %d drain chunks cut at batch << scale",
				si->inferred_exact_n);
		else
			note_add(si,
				 "inferred from %d observations: a lower bound",
				 si->inferred_evidence);
		break;
	case SCALE_SRC_NONE:
		note_add(
			si,
			"no scale in this kernel: %s has no CONFIG_%s (before v6.7, without the 6.1.y backport, nothing caps a flush)",
			si->config_path, SCALE_CONFIG);
		break;
	default:
		note_add(
			si,
			"no kernel variable, cmdline, config or chunks to go by");
		break;
	}
	if (si->free_high_uncapped && si->value >= 0)
		note_add(
			si,
			"before v6.7 the scale caps drain chunks and the free factor only: a free_high flush frees the whole pageset");
	if (si->have[SCALE_SRC_KVAR] && !kvar_ok)
		note_add(si, "kernel variable reads %d, outside 0..%d: ignored",
			 si->val[SCALE_SRC_KVAR], SCALE_CLAMP_MAX);
	/* a lower bound below the value is no news; above it, or an exact value off it, is */
	if (si->have[SCALE_SRC_INFERRED] && si->source != SCALE_SRC_INFERRED &&
	    si->value >= 0 &&
	    (inf > si->value || (si->inferred_exact_n && inf != si->value)))
		note_add(si, "the probes saw scale %s %d, not the %s value %d",
			 si->inferred_exact_n ? "=" : ">=", inf,
			 scale_source_name(si->source), si->value);
}

/* strscpy() without the return: a long value keeps its head */
static void copy_trunc(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Only running out of memory is worth failing for: a file that is missing,
 * unreadable or damaged just leaves its source out, and the note or the
 * "unknown" says what is left.
 */
static int hard_error(int err)
{
	return err == -ENOMEM ? err : 0;
}

static int collect_cmdline(const char *root, struct scale_info *si)
{
	char path[PATH_LEN], raw[CMDLINE_VAL_LEN];
	int err, v;

	proc_path(path, sizeof(path), root, "proc/cmdline");
	err = cmdline_lookup(path, SCALE_PARAM, raw, sizeof(raw));
	if (err)
		return hard_error(err);
	copy_trunc(si->cmdline_raw, sizeof(si->cmdline_raw), raw);
	/* an empty value never reaches the variable: nothing to record */
	if (scale_parse_cmdline_value(raw, &v))
		return 0;
	si->have[SCALE_SRC_CMDLINE] = true;
	si->val[SCALE_SRC_CMDLINE] = v;
	return 0;
}

/*
 * The __setup handler is a text symbol, listed with or without
 * CONFIG_KALLSYMS_ALL, so it tells whether the kernel has the patch; the
 * variable itself is listed only with KALLSYMS_ALL.
 */
static int collect_kallsyms(const char *root, struct scale_info *si)
{
	const char *const *syms = scale_kallsyms_syms;
	unsigned long long addrs[SCALE_KALLSYMS_NSYMS];
	char path[PATH_LEN];
	int err;

	si->patch = SCALE_PATCH_UNKNOWN;
	proc_path(path, sizeof(path), root, "proc/kallsyms");
	/* one pass over 100k+ lines for both symbols */
	err = kallsyms_lookup_many(path, syms, SCALE_KALLSYMS_NSYMS, addrs);
	if (err)
		return hard_error(err);
	if (!addrs[0]) {
		/* absent from a list we can trust, or a list of zeros */
		err = kallsyms_readable(path);
		if (!err)
			si->patch = SCALE_PATCH_ABSENT;
		return hard_error(err);
	}
	si->patch = SCALE_PATCH_PRESENT;
	si->kvar_addr = addrs[1];
	return 0;
}

static int config_value(const char *path, struct scale_info *si)
{
	char val[CONFIG_VAL_LEN], *end;
	long v;
	int err;

	err = kconfig_lookup(path, SCALE_CONFIG, val, sizeof(val));
	/* read, and the option not in it: this kernel has no scale */
	if (err == -ENOENT && !access(path, R_OK)) {
		si->config_lacks = true;
		copy_trunc(si->config_path, sizeof(si->config_path), path);
	}
	if (err)
		return err;
	v = strtol(val, &end, 10);
	/* Kconfig gives it "range 0 6": anything else is not a config */
	if (end == val || *end || v < 0 || v > SCALE_CLAMP_MAX)
		return -EINVAL;
	si->have[SCALE_SRC_CONFIG] = true;
	si->val[SCALE_SRC_CONFIG] = (int)v;
	copy_trunc(si->config_path, sizeof(si->config_path), path);
	return 0;
}

/* the running kernel's own config first, then the distribution's copy */
static int collect_config(const char *root, const char *release,
			  struct scale_info *si)
{
	char path[PATH_LEN], rel[PATH_LEN];
	int err;

	proc_path(path, sizeof(path), root, "proc/config.gz");
	err = config_value(path, si);
	if (!err || !release || !*release)
		return hard_error(err);
	snprintf(rel, sizeof(rel), "boot/config-%s", release);
	proc_path(path, sizeof(path), root, rel);
	return hard_error(config_value(path, si));
}

/* 0 or -ENOMEM; si is filled and resolved either way */
int scale_collect(const char *root, const char *release, struct scale_info *si)
{
	int err;

	memset(si, 0, sizeof(*si));
	si->value = SCALE_UNKNOWN_VALUE;
	si->source = SCALE_SRC_UNKNOWN;
	si->inferred_at_least = si->inferred_exact = SCALE_UNKNOWN_VALUE;
	err = collect_cmdline(root, si);
	if (!err)
		err = collect_kallsyms(root, si);
	if (!err)
		err = collect_config(root, release, si);
	scale_resolve(si);
	return err;
}
