/* SPDX-License-Identifier: GPL-2.0-only */
/* The command table's entry points and what they share. */
#ifndef PCPTOP_CLI_H
#define PCPTOP_CLI_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include "attach.h"

#define PCPTOP_VERSION "0.1.0"

/* exit codes: 2 is bad input or an unusable system, as in the man page */
#define EXIT_OK 0
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

extern volatile sig_atomic_t cli_exiting;

int cmd_info(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/* "pcptop: <msg>" on stderr, one line; returns EXIT_USAGE */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* seconds as "1", "0.5", "2s"; -EINVAL unless 0 < v <= max */
int cli_parse_seconds(const char *s, double max, double *out);
int cli_parse_count(const char *s, long *out);
/*
 * Options of every command that attaches: -m/--mode, -v/--verbose,
 * --cross-check, --run-gap. A command lists CLI_ATTACH_LONGOPTS in its
 * long options, "m:v" in its short ones, numbers its own long-only
 * options from CLI_OPT_FIRST_FREE, and hands what it does not know to
 * cli_attach_opt().
 */
enum {
	CLI_OPT_CROSS_CHECK = 0x100,
	CLI_OPT_RUN_GAP,
	CLI_OPT_FIRST_FREE,
};
#define CLI_ATTACH_LONGOPTS                                            \
	{ "mode", required_argument, NULL, 'm' },                      \
	{ "verbose", no_argument, NULL, 'v' },                         \
	{ "cross-check", no_argument, NULL, CLI_OPT_CROSS_CHECK },     \
	{ "run-gap", required_argument, NULL, CLI_OPT_RUN_GAP }
/* cli_attach_opt() took the option */
#define CLI_OPT_TAKEN 1

void cli_attach_defaults(struct attach_opts *o);
/* CLI_OPT_TAKEN, 0 when c is not one of them, EXIT_USAGE after saying why */
int cli_attach_opt(int c, const char *arg, struct attach_opts *o);

/* SIGINT/SIGTERM set cli_exiting so every loop ends with links closed */
void cli_install_signals(void);
/* sleeps up to secs, returns early when a signal asks to exit */
void cli_sleep(double secs);

#endif /* PCPTOP_CLI_H */
