/* SPDX-License-Identifier: GPL-2.0-only */
/* The command table's entry points and what they share. */
#ifndef PCPTOP_CLI_H
#define PCPTOP_CLI_H

#include <signal.h>
#include <stdbool.h>

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
/* SIGINT/SIGTERM set cli_exiting so every loop ends with links closed */
void cli_install_signals(void);
/* sleeps up to secs, returns early when a signal asks to exit */
void cli_sleep(double secs);

#endif /* PCPTOP_CLI_H */
