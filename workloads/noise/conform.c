// SPDX-License-Identifier: GPL-2.0
/*
 * noise conform: the tracers the workload measures with, as TAP.
 *  - timerlat gives samples on every online CPU, in both contexts, each
 *    activation's thread latency at least its IRQ latency, stamped in
 *    CLOCK_MONOTONIC within the time it ran, none lost;
 *  - osnoise gives a period on every CPU that ran its full runtime, with
 *    its events: a timer IRQ on every CPU; per period, the noise total is
 *    the sum of its gaps (sample_threshold), the hardware counter the gaps
 *    with no interference, and the IRQ, softirq and thread counters the
 *    events of each (within 2: an interference that straddles the period's
 *    start or end is counted on one side and traced on the other);
 *  - bad input is refused and changes nothing: timerlat's period outside
 *    100..1000000 us, osnoise's runtime above its period, a CPU list beyond
 *    the kernel's CPUs, an unknown tracer, osnoise while timerlat is set in
 *    another instance (EBUSY);
 *  - afterwards no instance of ours is left and the osnoise/ knobs are as
 *    they were.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "noise.h"
#include "tap.h"
#include "timing.h"
#include "tracefs.h"

#define CONFORM_TIMERLAT_S 2
#define CONFORM_OSNOISE_S 3

struct tl_check {
	unsigned long irq[MAX_CPUS], thread[MAX_CPUS];
	unsigned long last_seq[MAX_CPUS], irq_seq[MAX_CPUS];
	unsigned long long irq_lat[MAX_CPUS];
	unsigned long inverted, backwards, out_of_time, unknown_ctx;
	int64_t t0, t1;
};

struct osn_check {
	unsigned long periods[MAX_CPUS], irq_events[MAX_CPUS];
	unsigned long short_runtime, noise_off, hw_off, counters_off, checked;
	char first_bad[160];
};

static void tl_sample(void *arg, int cpu, int64_t t_ns, unsigned long seq, const char *ctx,
		      unsigned long long lat_ns)
{
	struct tl_check *c = arg;

	if (t_ns < c->t0 - 1000000000LL || t_ns > c->t1 + 1000000000LL)
		c->out_of_time++;
	if (!strcmp(ctx, "irq")) {
		if (c->irq[cpu]++ && seq <= c->last_seq[cpu])
			c->backwards++;
		c->last_seq[cpu] = seq;
		c->irq_seq[cpu] = seq;
		c->irq_lat[cpu] = lat_ns;
	} else if (!strcmp(ctx, "thread")) {
		c->thread[cpu]++;
		if (c->irq[cpu] && c->irq_seq[cpu] == seq && lat_ns < c->irq_lat[cpu])
			c->inverted++;
	} else {
		c->unknown_ctx++;
	}
}

static bool near(unsigned long a, unsigned long b)
{
	return a + 2 >= b && b + 2 >= a;
}

static void osn_period(void *arg, int cpu, int64_t t_ns, const struct osn_period *p)
{
	struct osn_check *c = arg;
	bool noise_ok, hw_ok, counters_ok;

	(void)t_ns;
	c->periods[cpu]++;
	c->irq_events[cpu] += p->events[CAUSE_IRQ];
	/* a period cut short by the stop prints no summary: every one ran it all */
	if (p->s.runtime_us < 1000000)
		c->short_runtime++;
	c->checked++;
	noise_ok = p->s.noise_us == p->sample_ns / 1000;
	hw_ok = p->s.hw == p->events[CAUSE_HW];
	counters_ok = near(p->s.irq, p->events[CAUSE_IRQ]) &&
		      near(p->s.softirq, p->events[CAUSE_SOFTIRQ]) &&
		      near(p->s.thread, p->events[CAUSE_THREAD]);
	c->noise_off += !noise_ok;
	c->hw_off += !hw_ok;
	c->counters_off += !counters_ok;
	if ((!noise_ok || !hw_ok || !counters_ok) && !c->first_bad[0])
		snprintf(c->first_bad, sizeof(c->first_bad), "CPU %d: noise %llu us against gaps "
			 "%llu ns; hw %lu against %lu; irq %lu/%lu, softirq %lu/%lu, thread %lu/%lu",
			 cpu, p->s.noise_us, p->sample_ns, p->s.hw, p->events[CAUSE_HW], p->s.irq,
			 p->events[CAUSE_IRQ], p->s.softirq, p->events[CAUSE_SOFTIRQ], p->s.thread,
			 p->events[CAUSE_THREAD]);
}

/* Trace @t for @secs and read its buffer into @sink; -1 when it could not */
static int trace_once(struct tracer *t, const struct trace_sink *sink, int secs, long *lost,
		      int ncpu, int64_t *t0, int64_t *t1)
{
	struct trace_counts c;
	struct timespec ts = { .tv_sec = secs };
	FILE *in;
	int cpu, err;

	*t0 = (int64_t)mono_ns();
	err = tracer_start(t);
	if (err)
		return -1;
	nanosleep(&ts, NULL);
	tracer_stop(t);
	*t1 = (int64_t)mono_ns();
	*lost = 0;
	for (cpu = 0; cpu < ncpu; cpu++)
		*lost += tracer_overrun(t, cpu) > 0 ? tracer_overrun(t, cpu) : 0;
	in = tracer_trace(t);
	if (!in)
		return -1;
	err = trace_read(in, sink, &c, NULL);
	fclose(in);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		*lost += c.lost[cpu];
	return err ? -1 : 0;
}

/* Every CPU of @ncpu has a non-zero count in @v; the first that has not, or -1 */
static int first_zero(const unsigned long *v, int ncpu)
{
	int cpu;

	for (cpu = 0; cpu < ncpu; cpu++)
		if (!v[cpu])
			return cpu;
	return -1;
}

static void conform_timerlat(int ncpu)
{
	struct tl_check *c = lab_calloc(1, sizeof(*c), "timerlat checks");
	const struct trace_sink sink = { tl_sample, NULL, c };
	struct tracer t;
	long lost;
	int z;

	if (tracer_open(&t, "timerlat", 4096) ||
	    trace_once(&t, &sink, CONFORM_TIMERLAT_S, &lost, ncpu, &c->t0, &c->t1)) {
		tap_fail("timerlat runs in a trace instance of its own", "see the messages above");
		tracer_close(&t);
		free(c);
		return;
	}
	tap_ok(true, "timerlat runs in a trace instance of its own, mono clock");
	z = first_zero(c->irq, ncpu);
	tap_ok(z < 0, "timerlat: IRQ-context samples on every CPU of %d in %d s (first without: %d)",
	       ncpu, CONFORM_TIMERLAT_S, z);
	z = first_zero(c->thread, ncpu);
	tap_ok(z < 0, "timerlat: thread-context samples on every CPU of %d (first without: %d)", ncpu,
	       z);
	tap_eq_int((long long)c->unknown_ctx, 0, "timerlat: every sample's context is irq or thread");
	tap_eq_int((long long)c->inverted, 0,
		   "timerlat: no activation's thread latency below its IRQ latency");
	tap_eq_int((long long)c->backwards, 0, "timerlat: activation numbers rise on each CPU");
	tap_eq_int((long long)c->out_of_time, 0,
		   "timerlat: every stamp is CLOCK_MONOTONIC within the time it ran");
	tap_eq_int(lost, 0, "timerlat: the ring buffer lost no sample");
	tap_diag("timerlat: %lu IRQ and %lu thread samples on CPU 0", c->irq[0], c->thread[0]);

	/* osnoise while timerlat is set in another instance: EBUSY, nothing set */
	{
		struct tracer o;
		char file[96], cur[64] = "";
		int err = tracer_open(&o, "osnoise", 1024);

		if (!err)
			err = tracer_start(&o);
		tap_eq_str(err ? lab_errname(err) : "accepted", "EBUSY",
			   "osnoise is refused while timerlat is set in another instance");
		snprintf(file, sizeof(file), "%s/current_tracer", o.dir);
		tracefs_read(file, cur, sizeof(cur));
		tap_eq_str(cur, "nop", "and its instance's tracer stays nop");
		tracer_close(&o);
	}
	tracer_close(&t);
	free(c);
}

static void conform_osnoise(int ncpu)
{
	struct osn_check *c = lab_calloc(1, sizeof(*c), "osnoise checks");
	const struct trace_sink sink = { NULL, osn_period, c };
	int64_t t0, t1;
	struct tracer t;
	long lost;
	int z;

	if (tracer_open(&t, "osnoise", 8192) ||
	    trace_once(&t, &sink, CONFORM_OSNOISE_S, &lost, ncpu, &t0, &t1)) {
		tap_fail("osnoise runs in a trace instance of its own with its events",
			 "see the messages above");
		tracer_close(&t);
		free(c);
		return;
	}
	tap_ok(true, "osnoise runs in a trace instance of its own with its events");
	z = first_zero(c->periods, ncpu);
	tap_ok(z < 0, "osnoise: a period on every CPU of %d in %d s (first without: %d)", ncpu,
	       CONFORM_OSNOISE_S, z);
	z = first_zero(c->irq_events, ncpu);
	tap_ok(z < 0, "osnoise: irq_noise events (the tick at least) on every CPU (first without: %d)",
	       z);
	tap_eq_int((long long)c->short_runtime, 0, "osnoise: every period ran its runtime, 1 s");
	tap_eq_int(lost, 0, "osnoise: the ring buffer lost no event");
	if (lost) {
		tap_skip("events were lost", "osnoise: per period, the noise is the sum of its gaps");
		tap_skip("events were lost", "osnoise: the hardware counter counts the gaps with no "
			 "interference");
		tap_skip("events were lost", "osnoise: the counters match the events");
	} else {
		tap_ok(!c->noise_off, "osnoise: per period, the noise is the sum of its gaps "
		       "(%lu of %lu periods off; %s)", c->noise_off, c->checked, c->first_bad);
		tap_ok(!c->hw_off, "osnoise: the hardware counter counts the gaps with no "
		       "interference (%lu of %lu periods off)", c->hw_off, c->checked);
		tap_ok(!c->counters_off, "osnoise: the IRQ, softirq and thread counters match their "
		       "events within 2 (%lu of %lu periods off)", c->counters_off, c->checked);
	}
	tracer_close(&t);
	free(c);
}

/* @val into osnoise/@knob is refused (-EINVAL or -ERANGE) and the knob unchanged */
static void refused(const char *knob, const char *val, const char *why)
{
	char before[256] = "", after[256] = "", path[64];
	int err;

	snprintf(path, sizeof(path), "osnoise/%s", knob);
	tracefs_read(path, before, sizeof(before));
	err = tracefs_write(path, val);
	tracefs_read(path, after, sizeof(after));
	tap_ok((err == -EINVAL || err == -ERANGE) && !strcmp(before, after),
	       "osnoise/%s refuses '%s' (%s): %s, still '%s'", knob, val, why,
	       err ? lab_errname(err) : "accepted", after);
}

static void conform_bad_input(int ncpu)
{
	char big[32], file[96], cur[64] = "";
	struct tracer t;
	int err;

	refused("timerlat_period_us", "50", "below 100 us");
	refused("timerlat_period_us", "1000001", "above 1 s");
	refused("runtime_us", "2000000", "above the period, 1 s");
	refused("period_us", "0", "below the runtime");
	snprintf(big, sizeof(big), "%d", ncpu + 4096);
	refused("cpus", big, "no such CPU");
	refused("cpus", "zero", "not a CPU list");

	/* an unknown tracer in an instance: refused, nop kept */
	if (tracer_open(&t, "timerlat", 1024)) {
		tap_fail("an unknown tracer is refused", "no instance");
		return;
	}
	snprintf(file, sizeof(file), "%s/current_tracer", t.dir);
	err = tracefs_write(file, "osnoisy");
	tracefs_read(file, cur, sizeof(cur));
	tap_ok(err == -EINVAL && !strcmp(cur, "nop"),
	       "current_tracer refuses 'osnoisy' (no such tracer): %s, still '%s'",
	       err ? lab_errname(err) : "accepted", cur);
	tracer_close(&t);
}

/* No trace instance named lab-noise-* is left */
static int instances_left(void)
{
	DIR *d = opendir(TRACEFS "/instances");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "lab-noise-", 10);
	closedir(d);
	return n;
}

/* The osnoise/ knobs the workload sets, as one string for a before/after check */
static void knobs_text(char *buf, size_t len)
{
	static const char *const names[] = { "timerlat_period_us", "period_us", "runtime_us" };
	char path[64], v[32];
	size_t i, at = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(*names) && at < len; i++) {
		snprintf(path, sizeof(path), "osnoise/%s", names[i]);
		if (tracefs_read(path, v, sizeof(v)))
			snprintf(v, sizeof(v), "?");
		at += (size_t)snprintf(buf + at, len - at, "%s%s %s", i ? ", " : "", names[i], v);
	}
}

int cmd_conform(int argc, char **argv)
{
	const struct lab_opt opts[] = { LAB_OPT_END };
	char before[160] = "", after[160] = "";
	int ncpu = online_cpus();

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	knobs_text(before, sizeof(before));
	knobs_save();
	tap_ok(!knobs_set(1000, 1000000, 1000000),
	       "osnoise/ takes timerlat_period_us 1000, period_us and runtime_us 1000000");
	conform_timerlat(ncpu);
	conform_osnoise(ncpu);
	conform_bad_input(ncpu);
	knobs_restore();
	knobs_text(after, sizeof(after));
	tap_eq_str(after, before, "osnoise/ is back to what it was");
	tap_eq_int(instances_left(), 0, "no trace instance lab-noise-* is left");
	return tap_finish();
}
