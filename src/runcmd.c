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
#include <unistd.h>
#include <sys/wait.h>
#include "cli.h"
#include "runcmd.h"

#define NSEC_PER_SEC 1000000000LL
/* the command's exit is noticed within this, whatever the interval */
#define CHILD_POLL_NS 50000000LL
/* as a shell reports a command it cannot run */
#define EXIT_NOT_FOUND 127
#define EXIT_NOT_EXECUTABLE 126
#define EXIT_SIGNAL_BASE 128

/* read by the signal handler: the command to pass signals to */
static volatile pid_t child_pid;
static volatile sig_atomic_t signals_seen;

long long run_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (long long)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void nap_ns(long long ns)
{
	struct timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	/* a signal or SIGCHLD cuts it short: the caller looks again */
	nanosleep(&ts, NULL);
}

/* see run_install_signals(): a second signal means the command will not stop */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	pid_t pid = child_pid;

	(void)uc;
	signals_seen++;
	cli_exiting = 1;
	if (pid <= 0)
		return;
	if (signals_seen > 1)
		kill(pid, SIGKILL);
	else if (si->si_code != SI_KERNEL)
		kill(pid, sig);
}

/* only there to cut a nanosleep short when the command exits */
static void on_sigchld(int sig)
{
	(void)sig;
}

void run_install_signals(void)
{
	struct sigaction sa = { .sa_sigaction = on_signal,
				.sa_flags = SA_SIGINFO };
	struct sigaction sc = { .sa_handler = on_sigchld,
				.sa_flags = SA_NOCLDSTOP };

	/* no SA_RESTART: sleeps must end early */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&sc.sa_mask);
	sigaction(SIGCHLD, &sc, NULL);
}

/*
 * A close-on-exec pipe brings back exec's errno, so a command that
 * cannot be run is an error here, not an odd exit status.
 */
int run_start(struct run_child *c, char **argv)
{
	int pfd[2], e = 0;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	c->start_ns = run_now_ns(CLOCK_MONOTONIC);
	c->pid = fork();
	if (c->pid < 0) {
		e = errno;
		close(pfd[0]);
		close(pfd[1]);
		return -e;
	}
	if (c->pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		close(pfd[0]);
		execvp(argv[0], argv);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(EXIT_NOT_FOUND);
		_exit(e == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXECUTABLE);
	}
	child_pid = c->pid;
	c->running = true;
	close(pfd[1]);
	do {
		n = read(pfd[0], &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == (ssize_t)sizeof(e)) {
		child_pid = 0;
		while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
			;
		c->running = false;
		c->end_ns = run_now_ns(CLOCK_MONOTONIC);
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
	if (waitid(P_PID, c->pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)))
		return false;
	if (si.si_pid != c->pid)
		return false;
	child_pid = 0;
	while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
		;
	c->running = false;
	c->end_ns = run_now_ns(CLOCK_MONOTONIC);
	return true;
}

enum run_end run_wait(struct run_child *c, long long deadline,
				  long long stop_at)
{
	long long now, left;

	for (;;) {
		if (c->pid > 0) {
			if (run_reap(c, false))
				return RUN_CHILD_EXITED;
		} else if (cli_exiting) {
			return RUN_SIGNAL;
		}
		now = run_now_ns(CLOCK_MONOTONIC);
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
