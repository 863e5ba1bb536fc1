// SPDX-License-Identifier: GPL-2.0
/*
 * The osnoise and timerlat tracers through a trace instance of our own
 * (instances/lab-noise-TRACER-PID): its buffer, the mono trace clock (stamps
 * in CLOCK_MONOTONIC, which the timing workloads read too) and, for
 * osnoise, its events; the top-level trace and other instances are left
 * alone (trace-cmd may be recording there). The tracers' knobs live in the
 * global osnoise/ folder: saved before they are set, restored when the
 * program ends however it ends (atexit), with every instance it made gone.
 *
 * Tracing runs in chunks: tracing_on 1 starts the tracer's kernel threads,
 * tracing_on 0 stops them, and the buffer is read while they are stopped,
 * so the reader never runs while the platform is being measured.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "noise.h"
#include "tracefs.h"

static struct {
	bool saved;
	char timerlat_period[32], period[32], runtime[32];
} knobs;

static struct tracer *opened[4];
static bool at_exit;

void tracer_path(const struct tracer *t, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, TRACEFS "/%s/%s", t->dir, file);
}

/* @val into @file of the instance: 0 or -errno */
static int inst_write(const struct tracer *t, const char *file, const char *val)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "%s/%s", t->dir, file);
	return tracefs_write(rel, val);
}

void knobs_save(void)
{
	knobs.saved = !tracefs_read("osnoise/timerlat_period_us", knobs.timerlat_period,
				    sizeof(knobs.timerlat_period)) &&
		      !tracefs_read("osnoise/period_us", knobs.period, sizeof(knobs.period)) &&
		      !tracefs_read("osnoise/runtime_us", knobs.runtime, sizeof(knobs.runtime));
}

/*
 * osnoise's runtime may not exceed its period at any time: the runtime
 * first when the new one fits the old period, else the period first
 */
static int set_pair(const char *period, const char *runtime)
{
	int err = tracefs_write("osnoise/runtime_us", runtime);

	if (!err)
		return tracefs_write("osnoise/period_us", period);
	err = tracefs_write("osnoise/period_us", period);
	return err ? err : tracefs_write("osnoise/runtime_us", runtime);
}

int knobs_set(unsigned long long timerlat_period_us, unsigned long long period_us,
	      unsigned long long runtime_us)
{
	char a[32], b[32];
	int err;

	snprintf(a, sizeof(a), "%llu", timerlat_period_us);
	err = tracefs_write("osnoise/timerlat_period_us", a);
	if (err) {
		fprintf(stderr, "%s: the kernel refused osnoise/timerlat_period_us '%s': %s\n",
			lab_prog, a, strerror(-err));
		return err;
	}
	snprintf(a, sizeof(a), "%llu", period_us);
	snprintf(b, sizeof(b), "%llu", runtime_us);
	err = set_pair(a, b);
	if (err)
		fprintf(stderr, "%s: the kernel refused osnoise/period_us '%s' with runtime_us '%s': "
			"%s\n", lab_prog, a, b, strerror(-err));
	return err;
}

void knobs_restore(void)
{
	if (!knobs.saved)
		return;
	if (tracefs_write("osnoise/timerlat_period_us", knobs.timerlat_period) ||
	    set_pair(knobs.period, knobs.runtime))
		fprintf(stderr, "%s: could not restore osnoise/ (timerlat_period_us %s, period_us %s, "
			"runtime_us %s)\n", lab_prog, knobs.timerlat_period, knobs.period,
			knobs.runtime);
}

/* At exit, however the program ends: no instance of ours left, the knobs back */
static void cleanup(void)
{
	size_t i;

	for (i = 0; i < sizeof(opened) / sizeof(*opened); i++)
		if (opened[i])
			tracer_close(opened[i]);
	knobs_restore();
}

static bool tracer_available(const char *name)
{
	char path[PATH_MAX], word[64];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "/available_tracers");
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fscanf(f, "%63s", word) == 1)
		found = !strcmp(word, name);
	fclose(f);
	return found;
}

int tracer_open(struct tracer *t, const char *name, unsigned long buffer_kb)
{
	char path[PATH_MAX], val[32];
	int err = 0;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->name = name;
	if (!tracer_available(name)) {
		fprintf(stderr, "%s: the kernel offers no %s tracer (" TRACEFS "/available_tracers; "
			"CONFIG_OSNOISE_TRACER, CONFIG_TIMERLAT_TRACER)\n", lab_prog, name);
		return -ENOENT;
	}
	if (!at_exit) {
		atexit(cleanup);
		at_exit = true;
	}
	snprintf(t->dir, sizeof(t->dir), "instances/lab-noise-%s-%d", name, (int)getpid());
	snprintf(path, sizeof(path), TRACEFS "/%s", t->dir);
	if (mkdir(path, 0755)) {
		err = -errno;
		fprintf(stderr, "%s: cannot make the trace instance %s: %s\n", lab_prog, path,
			strerror(errno));
		return err;
	}
	t->made = true;
	for (i = 0; i < sizeof(opened) / sizeof(*opened); i++)
		if (!opened[i]) {
			opened[i] = t;
			break;
		}
	snprintf(val, sizeof(val), "%lu", buffer_kb);
	if ((err = inst_write(t, "trace_clock", "mono")))
		fprintf(stderr, "%s: %s/trace_clock refused 'mono': %s\n", lab_prog, path,
			strerror(-err));
	else if ((err = inst_write(t, "buffer_size_kb", val)))
		fprintf(stderr, "%s: %s/buffer_size_kb refused '%s': %s\n", lab_prog, path, val,
			strerror(-err));
	else if (!strcmp(name, "osnoise") && (err = inst_write(t, "events/osnoise/enable", "1")))
		fprintf(stderr, "%s: cannot enable the osnoise events in %s: %s\n", lab_prog, path,
			strerror(-err));
	if (err)
		tracer_close(t);
	return err;
}

int tracer_start(struct tracer *t)
{
	int err;

	if (t->started)
		return inst_write(t, "tracing_on", "1");
	err = inst_write(t, "current_tracer", t->name);
	if (err)
		fprintf(stderr, "%s: " TRACEFS "/%s/current_tracer refused '%s': %s%s\n", lab_prog,
			t->dir, t->name, strerror(-err), err == -EBUSY ?
			" (the other of osnoise and timerlat runs somewhere: only one of them at a "
			"time)" : "");
	else
		t->started = true;
	return err;
}

int tracer_stop(struct tracer *t)
{
	return inst_write(t, "tracing_on", "0");
}

FILE *tracer_trace(struct tracer *t)
{
	char path[PATH_MAX];

	tracer_path(t, "trace", path, sizeof(path));
	return fopen(path, "r");
}

long tracer_overrun(struct tracer *t, int cpu)
{
	char path[PATH_MAX], line[128];
	long total = 0, v;
	bool seen = false;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "/%s/per_cpu/cpu%d/stats", t->dir, cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "overrun: %ld", &v) == 1 ||
		    sscanf(line, "dropped events: %ld", &v) == 1) {
			total += v;
			seen = true;
		}
	fclose(f);
	return seen ? total : -1;
}

int tracer_clear(struct tracer *t)
{
	return inst_write(t, "trace", "");
}

void tracer_close(struct tracer *t)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(opened) / sizeof(*opened); i++)
		if (opened[i] == t)
			opened[i] = NULL;
	if (!t->made)
		return;
	inst_write(t, "tracing_on", "0");
	inst_write(t, "current_tracer", "nop");
	snprintf(path, sizeof(path), TRACEFS "/%s", t->dir);
	if (rmdir(path))
		fprintf(stderr, "%s: cannot remove the trace instance %s: %s\n", lab_prog, path,
			strerror(errno));
	t->made = t->started = false;
}

int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_CPUS ? MAX_CPUS : (int)n;
}
