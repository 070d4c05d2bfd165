/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command table's entry points, every command's options and their
 * parsers. Parsers return 0 or -EINVAL after saying why on one line; a
 * help request sets ->help and returns 0. Only cmd_*() turn a -errno into
 * an exit status (cli_status()).
 */
#ifndef PCPTOP_CLI_H
#define PCPTOP_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "probes.h"

#define PCPTOP_VERSION "0.2.0"

/* exit codes: 2 is bad input or an unusable system, as in the man page */
#define EXIT_OK 0
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

int cmd_info(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_btf_min(int argc, char **argv);
int cmd_whatif(int argc, char **argv);

/* "pcptop: <msg>" on stderr, one line */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_warn(), then -EINVAL: for bad input */
int cli_bad_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * getopt_long's '?' or ':' for cmd: -EINVAL after one line naming the
 * option and 'pcptop CMD --help'
 */
int cli_bad_option(int c, char **argv, const char *cmd);
/*
 * The exit status of a -errno: 0 for 0; EXIT_RUNTIME for failures while
 * running (-ENOMEM, -EIO, -EPIPE, -EFAULT); EXIT_USAGE for the rest: bad
 * input, and a kernel or system pcptop cannot use.
 */
int cli_status(int err);

/* seconds as "1", "0.5", "2s"; -EINVAL unless 0 < v <= max */
int cli_parse_seconds(const char *s, double max, double *out);
/* a whole number >= 1 */
int cli_parse_count(const char *s, long *out);

#define MAX_INTERVAL_S 86400.0
#define MAX_DURATION_S (366.0 * 86400.0)
#define TOP_MIN_DELAY_S 0.1
#define TOP_MAX_DELAY_S 3600.0
/* -d SECS of the live view: 0 or -EINVAL outside the two above */
int cli_parse_delay(const char *s, double *out);

struct info_opts {
	bool help;
	bool json;
	struct attach_opts attach;
};

struct stat_opts {
	bool help;
	double interval;
	long count; /* 0: until a signal */
	bool json;
	bool hists;
	const char *prom; /* --prom FILE, or NULL */
	struct attach_opts attach;
};

struct top_opts {
	bool help;
	double delay;
	long count; /* 0: until q or a signal */
	bool batch;
	struct attach_opts attach;
};

#define DEFAULT_RECORDING "pcptop.data"
/*
 * record --sync: fsync the recording at most this often. 5 s is ext4's
 * own journal commit interval, so the fsyncs add few commits of their
 * own; what they cost and what a power cut loses is in docs/PERFORMANCE.md
 * ("Figures the code's comments cite").
 */
#define RECORD_SYNC_DEFAULT_S 5.0

struct record_opts {
	bool help;
	const char *out;
	double interval;
	double duration; /* 0: until the command exits or a signal */
	double sync; /* fsync at most every this many s; 0: only at the end */
	const char *prom;
	bool quiet;
	bool trace; /* --trace: the pcp traffic as events (issue 22) */
	struct attach_opts attach;
	int argc; /* the command, 0 for none */
	char **argv;
};

enum out_fmt { FMT_TEXT, FMT_JSON, FMT_CSV };

/* diff's runs a side at most (pcptop diff A1 A2 ... -- B1 B2 ...) */
#define DIFF_MAX_RUNS 32

struct report_opts {
	bool help;
	const char *files[2 * DIFF_MAX_RUNS];
	int nr_files;
	int nr_a; /* diff: files[0..nr_a) are side A, the rest side B */
	enum out_fmt fmt;
	const char *html; /* --html OUT, "-" for stdout */
	bool timeline;
	bool hists;
};

struct btf_min_cli {
	bool help;
	const char *src, *out;
	const char *object; /* --object FILE */
};

/* the probe options stat and record share, for their --help (one %d:
 * the run gap's default) */
#define CLI_PROBE_OPTS_HELP                                                             \
	"      --exact-free-high  probe the commit function on every free, for\n"       \
	"                       exact free_high counts on 6.7+ (costs more: see\n"      \
	"                       docs/PERFORMANCE.md; pcptop info shows the cost)\n"     \
	"      --latency        time every allocation and free (entry to exit of\n"     \
	"                       the allocator's entry points) by order and path;\n"     \
	"                       function probes only, and costly: see\n"                \
	"                       docs/PERFORMANCE.md\n"                                  \
	"      --page-orders    beside function probes, count every bulk-freed\n"       \
	"                       page at its order (a hook on every page;\n"             \
	"                       tracepoint mode counts them anyway)\n"                  \
	"      --btf FILE       this kernel's BTF from FILE, for kernels without\n"     \
	"                       /sys/kernel/btf/vmlinux (kprobe and tracepoint\n"       \
	"                       modes; 'pcptop btf-min' makes a small one)\n"           \
	"      --run-gap NS     tracepoint mode: events further apart than NS on one\n" \
	"                       CPU start a new estimated call (default %d)\n"

int cli_parse_info(int argc, char **argv, struct info_opts *o);
int cli_parse_stat(int argc, char **argv, struct stat_opts *o);
int cli_parse_top(int argc, char **argv, struct top_opts *o);
int cli_parse_record(int argc, char **argv, struct record_opts *o);
/* report (diff false) and diff (true) share their options */
int cli_parse_report(int argc, char **argv, struct report_opts *o, bool diff);
int cli_parse_btf_min(int argc, char **argv, struct btf_min_cli *o);

/* pcptop whatif (cli_whatif.c) */
struct whatif_cli {
	bool help;
	const char *file;
	const char *scales; /* --scale LIST as given, NULL: 0-6 */
	const char *rules; /* --rules NAME, NULL: the recording's */
	bool json;
	const char *html; /* --html OUT, "-" for stdout */
	bool check;
	const char *save; /* --save OUT: one scale's prediction, a recording */
};

int cli_parse_whatif(int argc, char **argv, struct whatif_cli *o);

/* each command's --help text */
void info_usage(FILE *f);
void stat_usage(FILE *f);
void top_usage(FILE *f);
void record_usage(FILE *f);
void report_usage(FILE *f);
void diff_usage(FILE *f);
void btf_min_usage(FILE *f);
void whatif_usage(FILE *f);

#endif /* PCPTOP_CLI_H */
