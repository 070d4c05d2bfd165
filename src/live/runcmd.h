/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command pcptop record runs: started after the probes are attached
 * so its whole life is counted, watched from the interval loop, and sent
 * the signals pcptop receives (see run_install_signals()).
 */
#ifndef PCPTOP_RUNCMD_H
#define PCPTOP_RUNCMD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* why run_wait() returned */
enum run_end {
	RUN_TICK, /* the interval's deadline came */
	RUN_CHILD_EXITED, /* the command exited and was reaped */
	RUN_SIGNAL, /* no command, and SIGINT/SIGTERM/SIGHUP came */
	RUN_DURATION, /* no command, and --duration ran out */
};

struct run_child {
	pid_t pid; /* 0: no command */
	bool running;
	bool term_sent; /* --duration ran out and SIGTERM went out */
	int status; /* from wait4() once reaped */
	struct rusage ru;
	uint64_t start_ns; /* CLOCK_MONOTONIC at fork and at reaping */
	uint64_t end_ns;
};

/*
 * SIGINT, SIGTERM and SIGHUP set sig_exiting and go on to the command:
 * one the terminal sent (si_code SI_KERNEL) already reached it in the
 * same foreground process group, any other is passed on; a second one
 * kills it with SIGKILL. SIGCHLD only wakes the loop.
 */
void run_install_signals(void);

/*
 * fork and exec argv (PATH searched). 0, or -errno when it cannot be
 * run: the child is then already reaped with status 127 or 126.
 */
int run_start(struct run_child *c, char **argv);

/* true once the command has exited and been reaped (block: wait for it) */
bool run_reap(struct run_child *c, bool block);

/*
 * Sleep until deadline (CLOCK_MONOTONIC ns), or less when the recording
 * has to end. stop_at (0: none) is --duration's end: without a command
 * it ends the recording, with one it sends the command SIGTERM once.
 */
enum run_end run_wait(struct run_child *c, uint64_t deadline, uint64_t stop_at);

/* 0..255 as a shell reports it: the exit code, or 128 + the signal */
int run_exit_code(const struct run_child *c);

#endif /* PCPTOP_RUNCMD_H */
