/* SPDX-License-Identifier: GPL-2.0 */
/* Clocks in nanoseconds, CPU pinning and absolute-time sleeps. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000ULL

static inline uint64_t timespec_to_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + (uint64_t)ts->tv_nsec;
}

static inline struct timespec ns_to_timespec(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};
	return ts;
}

/* Reading of @clk in ns; aborts with a message if the clock does not exist. */
uint64_t clock_ns(clockid_t clk);
/* CLOCK_MONOTONIC, for intervals. */
uint64_t mono_ns(void);
/* CLOCK_TAI (what taprio base-time and the PTP stack use). */
uint64_t tai_ns(void);
/* CLOCK_REALTIME, for timestamps people read. */
uint64_t real_ns(void);

/*
 * pin_to_cpu - bind the calling thread to CPU @cpu.
 * Returns 0, or -errno after printing why on stderr (CPU out of range,
 * offline or outside the allowed set), with the CPUs that are allowed.
 */
int pin_to_cpu(int cpu);

/* Sleep until @clk reads @abs_ns (clock_nanosleep TIMER_ABSTIME), across signals. */
int sleep_until_ns(clockid_t clk, uint64_t abs_ns);
/* Sleep @ns nanoseconds on CLOCK_MONOTONIC. */
int sleep_ns(uint64_t ns);

#endif
