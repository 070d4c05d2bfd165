/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one signal installer. SIGINT, SIGTERM and SIGHUP set sig_exiting,
 * so every loop ends through its cleanup path with links closed and the
 * terminal restored; none of them restarts a sleep.
 */
#ifndef PCPTOP_SIG_H
#define PCPTOP_SIG_H

#include <signal.h>

extern volatile sig_atomic_t sig_exiting;

/* called from the handler after sig_exiting is set, e.g. to pass it on */
typedef void (*sig_hook_fn)(int sig, const siginfo_t *si);

/*
 * Install the exit handler. hook may be NULL. With wake_on_child,
 * SIGCHLD interrupts sleeps too (pcptop record notices its command's
 * exit at once). SIGPIPE is ignored: a closed pipe then fails the write,
 * and the cleanup path still runs.
 */
void sig_install(sig_hook_fn hook, int wake_on_child);

#endif /* PCPTOP_SIG_H */
