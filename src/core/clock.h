/* SPDX-License-Identifier: GPL-2.0-only */
/* The one monotonic clock, and a sleep that a signal can end early. */
#ifndef PCPTOP_CLOCK_H
#define PCPTOP_CLOCK_H

#include <signal.h>
#include <stdint.h>

/* CLOCK_MONOTONIC: intervals, deadlines, time to the first sample */
uint64_t clock_mono_ns(void);
double clock_mono_s(void);
/* CLOCK_REALTIME: when a recording started, for people to read */
uint64_t clock_real_ns(void);

/*
 * Sleep up to ns; returns early, without error, once *stop is set (a
 * signal handler sets it and interrupts the sleep).
 */
void clock_sleep_ns(uint64_t ns, const volatile sig_atomic_t *stop);
void clock_sleep_s(double secs, const volatile sig_atomic_t *stop);

#endif /* PCPTOP_CLOCK_H */
