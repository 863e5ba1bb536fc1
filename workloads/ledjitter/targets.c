// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's targets, judged on 10 ms steps on the idle guest with the
 * kernel observer, into targets.json (and one line each on stdout). The
 * verdicts are taken on the figures' 95 % intervals (bench/lib/verdict.c,
 * through the functions of bench/lib/led_model.c), with fixture tests
 * (tests/unit/test_led_model.c): MET inside the limit, NOT MET wholly
 * outside, undecided when the interval straddles it:
 *  - pattern_mean_interval: pattern's mean step interval matches the
 *    jiffies model of the run's HZ (led_model_jiffies_ms) within 2 %;
 *  - abs_pattern_interval_error_p99: abs_pattern's interval-error p99 is
 *    within cyclictest's p99 wake-up latency on the idle guest of the same
 *    run; the two are separate samples with no interval of their
 *    difference, so they are judged by the overlap of their p99 intervals
 *    (verdict_below); below n 368 a p99 has no interval: not judged;
 *  - abs_pattern_drift: the 95 % interval of abs_pattern's drift slope lies
 *    inside +-1 ms per 1000 steps;
 *  - hr_pattern_interval_error_p99, hr_pattern_drift: the same for
 *    mainline's hr_pattern, side by side, in runs that have its cells (a
 *    kernel of 6.10 or later);
 *  - MODE_observer_gap_p99: the user observer trails the kernel by no more
 *    (p99) than cyclictest's p99 wake-up latency on the idle guest, by the
 *    overlap of the two p99 intervals as above.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ledjitter.h"
#include "stats.h"

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
	printf("%s: %s: %s\n", verdict_name(met), name, why);
	if (out_target(o->sum, name, measured, limit, unit, met, why))
		report_fail(o, "cannot write %s/targets.json (target %s)", o->dir, name);
	free(why);
}

static void mean_target(struct outputs *o, const struct cell *c, const struct obs_figures *a)
{
	double model = led_model_jiffies_ms(10, c->hz);
	char words[300];
	enum target_verdict v = led_target_mean_interval(&a->mean_ci, model, words, sizeof(words));

	target(o, "pattern_mean_interval", a->mean_ms, model, "ms", v,
	       "pattern's mean step interval %.3f ms (n=%zu intervals, kernel observer) must be within "
	       "%.0f%% of the jiffies model's %.3f ms for 10 ms steps at HZ=%u (%.2f%% off): %s; interval "
	       "error median %.0f us, max %.0f us", a->mean_ms, a->ni, LED_MEAN_TOLERANCE * 100, model,
	       c->hz, (a->mean_ms / model - 1) * 100, words, a->ierr_p50, a->ierr_max);
}

static void hr_p99_target(struct outputs *o, const char *mode, const struct obs_figures *b,
			  const struct ct_stats *ct)
{
	bool p99 = b->ni >= STATS_P99_MIN_N;
	double v = p99 ? b->ierr_p99 : b->ierr_max;
	char words[500], name[64];
	enum target_verdict met = verdict_below(&b->p99_ci, &ct->p99_ci, words, sizeof(words));

	snprintf(name, sizeof(name), "%s_interval_error_p99", mode);
	target(o, name, v, ct->p99, "us", met,
	       "%s's interval error %s %.0f us (n=%zu intervals, kernel observer; median "
	       "%.0f us, max %.0f us) must be within cyclictest's p99 wake-up latency on the idle "
	       "guest of this run, %.0f us (n=%zu): %s", mode, p99 ? "p99" : "max (n < 100, no p99)",
	       v, b->ni, b->ierr_p50, b->ierr_max, ct->p99, ct->n, words);
}

static void hr_drift_target(struct outputs *o, const char *mode, const struct obs_figures *b)
{
	char words[300], name[64];
	enum target_verdict v = led_target_drift(&b->drift_ci, LED_DRIFT_LIMIT_MS, words, sizeof(words));

	snprintf(name, sizeof(name), "%s_drift", mode);
	target(o, name, b->drift, LED_DRIFT_LIMIT_MS, "ms/1000 steps", v,
	       "%s's drift %.3f ms per 1000 steps (least-squares slope of the step error, "
	       "n=%zu steps, kernel observer) must lie inside +-%.0f: %s", mode, b->drift, b->n,
	       LED_DRIFT_LIMIT_MS, words);
}

static void gap_target(struct outputs *o, const char *mode, const struct cell_stats *s,
		       const struct ct_stats *ct)
{
	char name[64], words[500];

	snprintf(name, sizeof(name), "%s_observer_gap_p99", mode);
	if (!s)
		target(o, name, NAN, ct->p99, "us", TARGET_NOT_JUDGED,
		       "no kernel-observed %s cell at 10 ms on the idle guest", mode);
	else if (isnan(ct->p99))
		target(o, name, s->gap_p99, NAN, "us", TARGET_NOT_JUDGED,
		       "no idle cyclictest histogram to compare with");
	else if (!s->ngap)
		target(o, name, NAN, ct->p99, "us", TARGET_NOT_JUDGED,
		       "no user read matched to a kernel change");
	else
		target(o, name, s->gap_p99, ct->p99, "us",
		       verdict_below(&s->gap_p99_ci, &ct->p99_ci, words, sizeof(words)),
		       "the user observer trails the kernel by median %.0f us, %s %.0f us, max %.0f "
		       "us (n=%zu): it must be within cyclictest's p99 wake-up latency %.0f us "
		       "(idle cyclictest: median %.0f us, max %.0f us, n=%zu): %s", s->gap_median,
		       s->ngap >= STATS_P99_MIN_N ? "p99" : "max (n < 100)", s->gap_p99,
		       s->gap_max, s->ngap, ct->p99, ct->median, ct->max, ct->n, words);
}

/* An hrtimer mode's interval error and drift: @b its cell at 10 ms, idle, or NULL (@why) */
static void hr_targets(struct outputs *o, const char *mode, const struct cell_stats *b,
		       const struct ct_stats *ct, const char *why)
{
	char name[64];

	if (b && !isnan(ct->p99)) {
		hr_p99_target(o, mode, &b->ob[0], ct);
	} else {
		snprintf(name, sizeof(name), "%s_interval_error_p99", mode);
		target(o, name, NAN, ct->p99, "us", TARGET_NOT_JUDGED, "%s",
		       b ? "no idle cyclictest histogram with n >= 100 to compare with" : why);
	}
	if (b) {
		hr_drift_target(o, mode, &b->ob[0]);
	} else {
		snprintf(name, sizeof(name), "%s_drift", mode);
		target(o, name, NAN, LED_DRIFT_LIMIT_MS, "ms/1000 steps", TARGET_NOT_JUDGED, "%s",
		       why);
	}
}

void write_targets(struct outputs *o, const struct cell *cells, const struct cell_stats *cs,
		   size_t n, const struct ct_stats *ct)
{
	static const char no_abs[] = "no kernel-observed abs_pattern cell at 10 ms on the idle "
				    "guest (abs_pattern is the lab's patch; absent on the stock kernel)";
	static const char no_hr[] = "no kernel-observed hr_pattern cell at 10 ms on the idle guest";
	int p = find_cell(cells, n, "pattern", 10, "idle");
	int h = find_cell(cells, n, "abs_pattern", 10, "idle");
	int r = find_cell(cells, n, "hr_pattern", 10, "idle");
	const struct cell_stats *a = p >= 0 && cs[p].ob[0].have ? &cs[p] : NULL;
	const struct cell_stats *b = h >= 0 && cs[h].ob[0].have ? &cs[h] : NULL;
	size_t i;

	if (a)
		mean_target(o, &cells[p], &a->ob[0]);
	else
		target(o, "pattern_mean_interval", NAN, NAN, "ms", TARGET_NOT_JUDGED,
		       "no kernel-observed pattern cell at 10 ms on the idle guest");
	hr_targets(o, "abs_pattern", b, ct, no_abs);
	gap_target(o, "pattern", a, ct);
	gap_target(o, "abs_pattern", b, ct);
	/* mainline's hr_pattern: judged alike in the runs that measured it */
	for (i = 0; i < n && strcmp(cells[i].mode, "hr_pattern"); i++)
		;
	if (i < n) {
		b = r >= 0 && cs[r].ob[0].have ? &cs[r] : NULL;
		hr_targets(o, "hr_pattern", b, ct, no_hr);
		gap_target(o, "hr_pattern", b, ct);
	}
}
