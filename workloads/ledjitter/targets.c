// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's targets, judged on 10 ms steps on an idle guest with the
 * kernel observer, into targets.json (and one line each on stdout):
 *  - pattern_drift_grows: the jiffies pattern's error accumulates (drift
 *    above 0, the error at the end above the error half-way);
 *  - hr_pattern_p99_step_error: hr_pattern's p99 |step error| is at most a
 *    tenth of pattern's;
 *  - hr_pattern_drift: hr_pattern drifts at most 1 ms per 1000 steps;
 *  - MODE_observer_gap_p99: the user observer trails the kernel by no more
 *    (p99) than cyclictest's p99 wake-up latency on the idle guest.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ledjitter.h"

static int find_cell(const struct cell *cells, size_t n, const char *mode, unsigned int step,
		     const char *load)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(cells[i].mode, mode) && cells[i].step_ms == step &&
		    !strcmp(cells[i].load, load) && strcmp(cells[i].status, "skipped"))
			return (int)i;
	return -1;
}

static void __attribute__((format(printf, 7, 8)))
target(struct outputs *o, const char *name, double measured, double limit, const char *unit,
       enum target_verdict met, const char *fmt, ...)
{
	char *why;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&why, fmt, ap);
	va_end(ap);
	if (rc < 0)
		lab_die("out of memory for target %s", name);
	printf("%s: %s: %s\n", met == TARGET_MET ? "MET" : met == TARGET_NOT_MET ? "NOT MET" :
	       "not judged", name, why);
	if (out_target(o->sum, name, measured, limit, unit, met, why))
		report_fail(o, "cannot write %s/targets.json (target %s)", o->dir, name);
	free(why);
}

static enum target_verdict verdict_of(bool ok)
{
	return ok ? TARGET_MET : TARGET_NOT_MET;
}

static void pattern_target(struct outputs *o, const struct cell *c, const struct cell_stats *a,
			   long probe_lost)
{
	target(o, "pattern_drift_grows", a->drift[0], 0, "ms/1000 steps",
	       verdict_of(a->end_err[0] > a->mid_err[0] && a->drift[0] > 0),
	       "drift %.1f ms per 1000 steps (slope of the lower envelope, whole run; %zu windows: "
	       "%.1f..%.1f) must be above 0, and the error at the end %.1f ms above the error at "
	       "step n/2 %.1f ms; n=%zu, p99 |step error| %.3f ms, median error %.3f ms, mean step "
	       "interval %.2f ms for 10 ms asked, jiffies floor %.0f ms at HZ=%u; bpftrace lost %ld "
	       "events", a->drift[0], a->nwin[0], a->drift_min[0], a->drift_max[0],
	       a->end_err[0] / 1e3, a->mid_err[0] / 1e3, a->n[0], a->p99_abs[0] / 1e3,
	       a->median[0] / 1e3, a->mean_interval_ms[0], led_model_jiffies_ms(10, c->hz), c->hz,
	       probe_lost);
}

static void hr_p99_target(struct outputs *o, const struct cell_stats *a,
			  const struct cell_stats *b)
{
	target(o, "hr_pattern_p99_step_error", b->p99_abs[0] / 1e3, a->p99_abs[0] / 1e4, "ms",
	       verdict_of(b->p99_abs[0] <= a->p99_abs[0] / 10),
	       "hr_pattern's p99 |step error| %.3f ms must be at most 1/10 of pattern's %.3f ms "
	       "(ratio 1/%.0f); hr_pattern n=%zu, median error %.3f ms, mean step interval %.3f "
	       "ms; the kernel observer missed %ld (pattern) and %ld (hr_pattern) changes",
	       b->p99_abs[0] / 1e3, a->p99_abs[0] / 1e3, a->p99_abs[0] / b->p99_abs[0], b->n[0],
	       b->median[0] / 1e3, b->mean_interval_ms[0], a->kernel_skipped, b->kernel_skipped);
}

static void hr_drift_target(struct outputs *o, const struct cell_stats *b)
{
	target(o, "hr_pattern_drift", b->drift[0], 1.0, "ms/1000 steps",
	       verdict_of(fabs(b->drift[0]) <= 1.0),
	       "|drift| %.3f ms per 1000 steps must be at most 1 (slope of the lower envelope, "
	       "whole run; %zu windows: %.3f..%.3f)", fabs(b->drift[0]), b->nwin[0],
	       b->drift_min[0], b->drift_max[0]);
}

static void gap_target(struct outputs *o, const char *mode, const struct cell_stats *s,
		       const struct ct_stats *ct)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_observer_gap_p99", mode);
	if (!s)
		target(o, name, NAN, ct->p99, "us", TARGET_NOT_JUDGED,
		       "no kernel-observed %s cell at 10 ms on the idle guest", mode);
	else if (isnan(ct->max))
		target(o, name, s->gap_p99, NAN, "us", TARGET_NOT_JUDGED,
		       "no idle cyclictest histogram to compare with");
	else if (!s->ngap)
		target(o, name, NAN, ct->p99, "us", TARGET_NOT_JUDGED,
		       "no user read matched to a kernel change");
	else
		target(o, name, s->gap_p99, ct->p99, "us", verdict_of(s->gap_p99 <= ct->p99),
		       "the user observer trails the kernel by median %.0f us, p99 %.0f us, max %.0f "
		       "us (n=%zu): p99 must be within cyclictest's p99 wake-up latency %.0f us "
		       "(idle cyclictest: median %.0f us, max %.0f us)", s->gap_median, s->gap_p99,
		       s->gap_max, s->ngap, ct->p99, ct->median, ct->max);
}

void write_targets(struct outputs *o, const struct cell *cells, const struct cell_stats *cs,
		   size_t n, const struct ct_stats *ct, long probe_lost)
{
	static const char no_hr[] = "no kernel-observed hr_pattern cell at 10 ms on the idle "
				    "guest (hr_pattern is the lab's patch; absent on the stock kernel)";
	static const char no_pattern[] = "no kernel-observed pattern cell at 10 ms on the idle "
					 "guest";
	int p = find_cell(cells, n, "pattern", 10, "idle");
	int h = find_cell(cells, n, "hr_pattern", 10, "idle");
	const struct cell_stats *a = p >= 0 && cs[p].have[0] ? &cs[p] : NULL;
	const struct cell_stats *b = h >= 0 && cs[h].have[0] ? &cs[h] : NULL;

	if (a)
		pattern_target(o, &cells[p], a, probe_lost);
	else
		target(o, "pattern_drift_grows", NAN, 0, "ms/1000 steps", TARGET_NOT_JUDGED, "%s",
		       no_pattern);
	if (a && b)
		hr_p99_target(o, a, b);
	else
		target(o, "hr_pattern_p99_step_error", NAN, NAN, "ms", TARGET_NOT_JUDGED, "%s",
		       b ? no_pattern : no_hr);
	if (b)
		hr_drift_target(o, b);
	else
		target(o, "hr_pattern_drift", NAN, 1.0, "ms/1000 steps", TARGET_NOT_JUDGED, "%s",
		       no_hr);
	gap_target(o, "pattern", a, ct);
	gap_target(o, "hr_pattern", b, ct);
}
