// SPDX-License-Identifier: GPL-2.0
/* Unit tests of bench/timing.c: clocks, sleeps, CPU pinning. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>

#include "tap.h"
#include "timing.h"

LAB_TEST(clocks)
{
	struct timespec ts = ns_to_timespec(3 * NSEC_PER_SEC + 7);
	uint64_t t0, t1, tai, real;
	int64_t off;

	tap_ok(ts.tv_sec == 3 && ts.tv_nsec == 7 && timespec_to_ns(&ts) == 3 * NSEC_PER_SEC + 7,
	       "ns_to_timespec and timespec_to_ns round-trip");
	t0 = mono_ns();
	t1 = mono_ns();
	tap_ok(t1 >= t0 && t0 > 0, "CLOCK_MONOTONIC does not go back");
	tai = tai_ns();
	real = real_ns();
	off = (int64_t)(tai - real);
	tap_ok(off > -(int64_t)NSEC_PER_SEC && off < 38 * (int64_t)NSEC_PER_SEC,
	       "CLOCK_TAI is CLOCK_REALTIME plus 0..37 s (offset %lld ms)", (long long)(off / 1000000));
}

LAB_TEST(sleeps)
{
	uint64_t t0, t1;

	t0 = mono_ns();
	tap_eq_int(sleep_ns(2000000), 0, "sleep_ns(2 ms) returns 0");
	t1 = mono_ns();
	tap_ok(t1 - t0 >= 2000000, "sleep_ns(2 ms) sleeps at least 2 ms (slept %llu us)",
	       (unsigned long long)((t1 - t0) / 1000));
	t0 = tai_ns() + 1000000;
	sleep_until_ns(CLOCK_TAI, t0);
	tap_ok(tai_ns() >= t0, "sleep_until_ns(CLOCK_TAI) wakes at or after the deadline");
	tap_eq_int(sleep_until_ns(CLOCK_MONOTONIC, 0), 0, "sleep_until_ns in the past returns at once");
}

LAB_TEST(pinning)
{
	cpu_set_t set;

	sched_getaffinity(0, sizeof(set), &set);
	if (CPU_ISSET(0, &set)) {
		tap_eq_int(pin_to_cpu(0), 0, "pin_to_cpu(0)");
		tap_eq_int(sched_getcpu(), 0, "after pinning the thread runs on CPU 0");
	} else {
		tap_skip("CPU 0 not allowed", "pin_to_cpu(0)");
		tap_skip("CPU 0 not allowed", "after pinning the thread runs on CPU 0");
	}
	tap_eq_int(pin_to_cpu(-1), -EINVAL, "pin_to_cpu(-1): -EINVAL");
	tap_eq_int(pin_to_cpu(CPU_SETSIZE), -EINVAL, "pin_to_cpu(CPU_SETSIZE): -EINVAL");
	tap_ok(pin_to_cpu(CPU_SETSIZE - 1) < 0, "pin_to_cpu of a CPU that does not exist fails");
}

LAB_TEST_MAIN()
