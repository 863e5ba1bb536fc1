// SPDX-License-Identifier: GPL-2.0
/* Clocks, CPU pinning and sleeps; see timing.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts)) {
		fprintf(stderr, "clock_gettime(clock %d): %s\n", (int)clk, strerror(errno));
		abort();
	}
	return timespec_to_ns(&ts);
}

uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t tai_ns(void)
{
	return clock_ns(CLOCK_TAI);
}

uint64_t real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

/* "0-1,3" style list of the CPUs in @set */
static void cpuset_str(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int cpu, start = -1;

	buf[0] = '\0';
	for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
		int in = cpu < CPU_SETSIZE && CPU_ISSET(cpu, set);

		if (in && start < 0)
			start = cpu;
		if (!in && start >= 0 && used < len) {
			used += (size_t)snprintf(buf + used, len - used, used ? ",%d" : "%d", start);
			if (cpu - 1 > start && used < len)
				used += (size_t)snprintf(buf + used, len - used, "-%d", cpu - 1);
			start = -1;
		}
	}
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set, allowed;
	char list[256] = "unknown";
	int err;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0)
		cpuset_str(&allowed, list, sizeof(list));
	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		fprintf(stderr, "pin_to_cpu: CPU %d is out of range 0..%d (allowed CPUs: %s)\n",
			cpu, CPU_SETSIZE - 1, list);
		return -EINVAL;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err) {
		fprintf(stderr, "pin_to_cpu: cannot pin thread to CPU %d: %s (allowed CPUs: %s)\n",
			cpu, strerror(err), list);
		return -err;
	}
	return 0;
}

int sleep_until_ns(clockid_t clk, uint64_t abs_ns)
{
	struct timespec ts = ns_to_timespec(abs_ns);
	int err;

	do
		err = clock_nanosleep(clk, TIMER_ABSTIME, &ts, NULL);
	while (err == EINTR);
	if (err)
		fprintf(stderr, "sleep_until_ns(clock %d, %llu): %s\n", (int)clk,
			(unsigned long long)abs_ns, strerror(err));
	return -err;
}

int sleep_ns(uint64_t ns)
{
	return sleep_until_ns(CLOCK_MONOTONIC, mono_ns() + ns);
}
