// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running pcptop record's command: fork/exec with exec's errno brought
 * back, signals passed on, the exit noticed within CHILD_POLL_NS whatever
 * the interval, and reaping that never signals a recycled pid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "clock.h"
#include "runcmd.h"
#include "sig.h"
#include "units.h"

/* the command's exit is noticed within this, whatever the interval */
#define CHILD_POLL_NS (50 * NSEC_PER_MSEC)
/* as a shell reports a command it cannot run */
#define EXIT_NOT_FOUND 127
#define EXIT_NOT_EXECUTABLE 126
#define EXIT_SIGNAL_BASE 128

/* read by the signal handler: the command to pass signals to */
static volatile pid_t child_pid;
static volatile sig_atomic_t signals_seen;
/*
 * a signal that came before the command started (while pcptop attached,
 * which takes seconds on a loaded machine): run_start() sends it to the
 * new child before it execs, so the command ends by it without running;
 * without this it was lost, and record waited for the whole command
 */
static volatile sig_atomic_t pending_sig;

static void nap_ns(uint64_t ns)
{
	struct timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	/* one nanosleep: a signal or SIGCHLD cuts it short, the caller looks again */
	nanosleep(&ts, NULL);
}

/* see run_install_signals(): a second signal means the command will not stop */
static void pass_on(int sig, const siginfo_t *si)
{
	pid_t pid = child_pid;

	signals_seen++;
	/*
	 * A terminal's signal (SI_KERNEL) reaches a running command from the
	 * terminal itself; before the command runs, nothing else passes it
	 */
	if (pid <= 0) {
		pending_sig = sig;
		return;
	}
	if (signals_seen > 1)
		kill(pid, SIGKILL);
	else if (si->si_code != SI_KERNEL)
		kill(pid, sig);
}

void run_install_signals(void)
{
	sig_install(pass_on, 1);
}

/*
 * A close-on-exec pipe brings back exec's errno, so a command that
 * cannot be run is an error here, not an odd exit status.
 */
int run_start(struct run_child *c, char **argv)
{
	sigset_t exits, old;
	int pfd[2], e = 0;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	/*
	 * Held from the fork until the child has its default handlers and
	 * the parent knows its pid: one that came in between would have
	 * run pass_on() in the child, or found no pid in the parent.
	 */
	sigemptyset(&exits);
	sigaddset(&exits, SIGINT);
	sigaddset(&exits, SIGTERM);
	sigaddset(&exits, SIGHUP);
	sigprocmask(SIG_BLOCK, &exits, &old);
	c->start_ns = clock_mono_ns();
	c->pid = fork();
	if (c->pid < 0) {
		e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(pfd[0]);
		close(pfd[1]);
		return -e;
	}
	if (c->pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		/* ignored signals stay ignored across exec: give it back */
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(pfd[0]);
		execvp(argv[0], argv);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(EXIT_NOT_FOUND);
		_exit(e == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXECUTABLE);
	}
	child_pid = c->pid;
	c->running = true;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pending_sig)
		kill(c->pid, signals_seen > 1 ? SIGKILL : pending_sig);
	close(pfd[1]);
	do {
		n = read(pfd[0], &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == (ssize_t)sizeof(e)) {
		child_pid = 0;
		while (wait4(c->pid, &c->status, 0, &c->ru) < 0 &&
		       errno == EINTR)
			;
		c->running = false;
		c->end_ns = clock_mono_ns();
		return -e;
	}
	return 0;
}

bool run_reap(struct run_child *c, bool block)
{
	siginfo_t si;

	if (!c->running)
		return false;
	/* look first (WNOWAIT): the handler stops using the pid before reaping frees it */
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, c->pid, &si,
		   WEXITED | WNOWAIT | (block ? 0 : WNOHANG)))
		return false;
	if (si.si_pid != c->pid)
		return false;
	child_pid = 0;
	while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
		;
	c->running = false;
	c->end_ns = clock_mono_ns();
	return true;
}

enum run_end run_wait(struct run_child *c, uint64_t deadline, uint64_t stop_at)
{
	uint64_t now, left;

	for (;;) {
		if (c->pid > 0) {
			if (run_reap(c, false))
				return RUN_CHILD_EXITED;
		} else if (sig_exiting) {
			return RUN_SIGNAL;
		}
		now = clock_mono_ns();
		if (stop_at && now >= stop_at) {
			if (c->pid <= 0)
				return RUN_DURATION;
			if (!c->term_sent && c->running) {
				kill(c->pid, SIGTERM);
				c->term_sent = true;
			}
		}
		if (now >= deadline)
			return RUN_TICK;
		left = deadline - now;
		if (stop_at > now && stop_at - now < left)
			left = stop_at - now;
		if (c->pid > 0 && left > CHILD_POLL_NS)
			left = CHILD_POLL_NS;
		nap_ns(left);
	}
}

int run_exit_code(const struct run_child *c)
{
	if (WIFSIGNALED(c->status))
		return EXIT_SIGNAL_BASE + WTERMSIG(c->status);
	return WEXITSTATUS(c->status);
}
