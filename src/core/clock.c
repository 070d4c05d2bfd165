// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <time.h>
#include "clock.h"
#include "units.h"

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t clock_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

double clock_mono_s(void)
{
	return (double)clock_mono_ns() / (double)NSEC_PER_SEC;
}

uint64_t clock_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

void clock_sleep_ns(uint64_t ns, const volatile sig_atomic_t *stop)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	/* a handler that sets *stop interrupts nanosleep: look again */
	while (!(stop && *stop) && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void clock_sleep_s(double secs, const volatile sig_atomic_t *stop)
{
	if (secs > 0)
		clock_sleep_ns((uint64_t)(secs * (double)NSEC_PER_SEC), stop);
}
