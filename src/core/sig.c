// SPDX-License-Identifier: GPL-2.0-only
#include <stddef.h>
#include <string.h>
#include "arrays.h"
#include "sig.h"

volatile sig_atomic_t sig_exiting;
static sig_hook_fn sig_hook;

static void on_exit_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	sig_exiting = 1;
	if (sig_hook)
		sig_hook(sig, si);
}

/* only there to cut a sleep short */
static void on_wake(int sig)
{
	(void)sig;
}

void sig_install(sig_hook_fn hook, int wake_on_child)
{
	static const int exit_signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	sig_hook = hook;
	memset(&sa, 0, sizeof(sa));
	/* no SA_RESTART: sleeping loops must wake up and detach */
	sa.sa_sigaction = on_exit_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(exit_signals); i++)
		sigaction(exit_signals[i], &sa, NULL);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);

	if (wake_on_child) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_wake;
		sa.sa_flags = SA_NOCLDSTOP;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGCHLD, &sa, NULL);
	}
}
