// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `ledjitter report` (build/ledjitter, run from the
 * repository's root): which step of the ideal timeline each observed change
 * is. A fixture run holds one abs_pattern cell whose trigger skips two steps
 * after a stall (as kernel/patches' abs_pattern does: it sets the brightness
 * of the step it is at, once) and one jiffies pattern cell whose every step
 * is 6 ms late on the one before (HZ=250 rounding). abs_pattern's changes
 * must be indexed by time: no drift, the two skipped steps counted, the
 * stall's lateness in the interval error across the skip. pattern's by
 * count: its drift is its accumulated lateness, 6000 ms per 1000 steps.
 * The abs_pattern cell is written as a run before the file's rename did
 * (mode hr_pattern, no kernel column): the report reads it as abs_pattern.
 * Written with the kernel column, a cell of mode hr_pattern is the lab's
 * renamed trigger on a 6.1 kernel (abs_pattern) and mainline's hr_pattern on
 * a kernel of 6.10 or later (stays hr_pattern).
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"

static const char *bin = "build/ledjitter";
static char dir[] = "/tmp/test_ledjitter.XXXXXX";

#define STEPS		400
#define STEP_NS		10000000ULL
#define T_HR		1000000000ULL	/* abs_pattern cell's start, ns */
#define T_PAT		10000000000ULL	/* pattern cell's start */
#define LATE_NS		200000ULL	/* every abs_pattern change 0.2 ms late */
#define STALL_STEP	100		/* steps 100, 101 skipped, 102 set 5 ms late */
#define STALL_LATE_NS	5000000ULL

static int report(const char *d)
{
	char *argv[] = { (char *)bin, "report", "--out", (char *)d, NULL };

	return tap_run(argv, NULL);
}

/* The change of step k at @t: the kernel's set and the user's read 0.1 ms later */
static void change(FILE *probe, FILE *user, const char *led, int k, unsigned long long t)
{
	int b = k % 2 ? 0 : 255;

	fprintf(probe, "set,%llu,%s,%d,,,0\n", t, led, b);
	fprintf(user, "%d,%llu,%d\n", k, t + 100000, b);
}

/*
 * The fixture run in @d; @kernel: the release in the cells' kernel column,
 * or NULL for a run made before that column
 */
static void fixture(const char *d, const char *kernel)
{
	FILE *cells, *probe, *uh, *up;
	char kc[64] = "";
	int k;

	if (kernel)
		snprintf(kc, sizeof(kc), ",%s", kernel);
	cells = tap_fixture(d, "cells-idle.csv", NULL);
	fprintf(cells, "cell,mode,step_ms,load,steps,repeat,pattern,led,t_open_ns,t_start_ns,"
		"t_written_ns,t_end_ns,hz,reads,status%s\n", kernel ? ",kernel" : "");
	fprintf(cells, "hr-10,hr_pattern,10,idle,%d,-1,255 10 255 0 0 10 0 0,led-hr,%llu,%llu,%llu,"
		"%llu,250,%d,ok%s\n", STEPS, T_HR - 1000, T_HR, T_HR + 1000,
		T_HR + (STEPS + 1) * STEP_NS, STEPS, kc);
	fprintf(cells, "pat-10,pattern,10,idle,%d,-1,255 10 255 0 0 10 0 0,led-pat,%llu,%llu,%llu,"
		"%llu,250,%d,ok%s\n", STEPS, T_PAT - 1000, T_PAT, T_PAT + 1000,
		T_PAT + 2 * STEPS * STEP_NS, STEPS, kc);
	fclose(cells);
	probe = tap_fixture(d, "probe-led_timer.csv", "event,t_ns,led,value,late_ticks,late_ns,cpu");
	uh = tap_fixture(d, "user-hr-10.csv", "read,t_ns,brightness");
	up = tap_fixture(d, "user-pat-10.csv", "read,t_ns,brightness");
	for (k = 0; k < STEPS; k++) {
		/* each step 16 ms after the one before: 6 ms late, accumulated */
		change(probe, up, "led-pat", k, T_PAT + k * 16000000ULL);
		if (k == STALL_STEP || k == STALL_STEP + 1)
			continue;
		change(probe, uh, "led-hr", k, T_HR + k * STEP_NS +
		       (k == STALL_STEP + 2 ? STALL_LATE_NS : LATE_NS));
	}
	fclose(probe);
	fclose(uh);
	fclose(up);
}

/* The value of metric @name for @mode and @observer (NULL: none), or NULL */
static json_t *metric(json_t *sum, const char *name, const char *mode, const char *observer)
{
	json_t *m, *p;
	size_t i;

	json_array_foreach(json_object_get(sum, "metrics"), i, m) {
		p = json_object_get(m, "params");
		if (strcmp(json_string_value(json_object_get(m, "name")) ?: "", name) ||
		    strcmp(json_string_value(json_object_get(p, "mode")) ?: "", mode))
			continue;
		if (observer &&
		    strcmp(json_string_value(json_object_get(p, "observer")) ?: "", observer))
			continue;
		return m;
	}
	return NULL;
}

static double num(json_t *m, const char *key)
{
	json_t *v = m ? json_object_get(m, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The fixture and its report, which the tests below read */
LAB_TEST(report_runs)
{
	int rc;

	fixture(dir, NULL);
	rc = report(dir);
	tap_ok(rc == 0 || rc == 1, "report ran on the fixture: expected exit 0 or 1 (targets), got %d",
	       rc);
}

/* The summary.json of the fixture in @d (the test bails out without it) */
static json_t *summary_of(const char *d)
{
	char path[512];
	json_t *sum;

	snprintf(path, sizeof(path), "%s/summary.json", d);
	sum = json_load_file(path, 0, NULL);
	if (!sum)
		tap_bail("no %s", path);
	return sum;
}

static json_t *summary(void)
{
	return summary_of(dir);
}

LAB_TEST(abs_pattern)
{
	json_t *sum = summary(), *d;

	d = metric(sum, "drift_ms_per_1000_steps", "abs_pattern", "kernel");
	/* (the one step 4.8 ms later than the rest tilts the fit by -0.09) */
	tap_eq_dbl(num(d, "median"), 0, 0.2,
		   "abs_pattern: steps indexed by time, the skipped steps are not drift (ms/1000 steps)");
	tap_eq_dbl(num(metric(sum, "skipped_changes", "abs_pattern", NULL), "median"), 2, 0,
		   "abs_pattern: the two steps skipped after the stall are counted");
	d = metric(sum, "skipped_changes_pct", "abs_pattern", NULL);
	tap_eq_dbl(num(d, "median"), 100.0 * 2 / STEPS, 1e-9,
		   "abs_pattern: the skipped steps' share of the steps (%)");
	tap_eq_dbl(num(d, "n"), STEPS, 0, "abs_pattern: the share is of every step up to the last seen");
	tap_ok(d && json_is_object(json_object_get(d, "ci95")) &&
	       num(json_object_get(d, "ci95"), "lo") < 100.0 * 2 / STEPS &&
	       num(json_object_get(d, "ci95"), "hi") > 100.0 * 2 / STEPS,
	       "abs_pattern: the share has a Wilson interval around it");
	tap_ok(d && !strcmp(json_string_value(json_object_get(json_object_get(d, "ci95"), "method")) ?: "",
			    "Wilson, clusters' design effect"),
	       "abs_pattern: the share's interval is on the effective n of half-second blocks of steps");
	tap_eq_dbl(num(metric(sum, "step_error_us", "abs_pattern", "kernel"), "median"),
		   LATE_NS / 1e3, 0.01, "abs_pattern: step error median is the 0.2 ms lateness (us)");
	tap_eq_dbl(num(metric(sum, "interval_error_us", "abs_pattern", "kernel"), "max"),
		   (STALL_LATE_NS - LATE_NS) / 1e3, 0.01,
		   "abs_pattern: the interval across the skipped steps carries the stall's lateness (us)");
	tap_eq_dbl(num(metric(sum, "interval_error_us", "abs_pattern", "kernel"), "n"),
		   STEPS - 2 - 1, 0, "abs_pattern: one interval error per observed change but the first");
	tap_eq_dbl(num(metric(sum, "interval_error_us", "abs_pattern", "user"), "n"),
		   STEPS - 2 - 2, 0,
		   "abs_pattern: the user observer's interval errors are between consecutive steps only");
	json_decref(sum);
}

LAB_TEST(pattern)
{
	json_t *sum = summary(), *d;

	d = metric(sum, "drift_ms_per_1000_steps", "pattern", "kernel");
	tap_eq_dbl(num(d, "median"), 6000, 0.01,
		   "pattern: steps indexed by count, its 6 ms a step accumulate (ms/1000 steps)");
	tap_eq_dbl(num(metric(sum, "skipped_changes", "pattern", NULL), "median"), 0, 0,
		   "pattern: no step skipped");
	json_decref(sum);
}

/*
 * A cell of mode hr_pattern in a run with the kernel column: the lab's
 * trigger of its 6.1 series before the rename on a 6.1 kernel, mainline's
 * hr_pattern on 6.12
 */
static void hr_pattern_of(const char *kernel, const char *want, const char *not)
{
	char d[256];
	json_t *sum;
	int rc;

	snprintf(d, sizeof(d), "%s/%s", dir, kernel);
	if (mkdir(d, 0755))
		tap_bail("cannot make %s", d);
	fixture(d, kernel);
	rc = report(d);
	tap_ok(rc == 0 || rc == 1, "report ran on the fixture of kernel %s: exit %d", kernel, rc);
	sum = summary_of(d);
	tap_ok(metric(sum, "drift_ms_per_1000_steps", want, "kernel") &&
	       !metric(sum, "drift_ms_per_1000_steps", not, "kernel"),
	       "kernel %s: a cell of mode hr_pattern is read as %s", kernel, want);
	json_decref(sum);
}

/*
 * An abs_pattern cell drifting @drift_ns a step, in @d: a trigger timed
 * from its previous step, not from the pattern's start. Its changes must be
 * matched in order, not folded into skips: the drift is seen, and the
 * target NOT MET.
 */
static void drifting(const char *name, unsigned long long drift_ns)
{
	char d[256], path[512], *why = NULL;
	json_t *sum, *tg, *t;
	FILE *cells, *probe, *uh;
	double want = drift_ns / 1e6 * 1000;
	size_t i;
	int k;

	snprintf(d, sizeof(d), "%s/%s", dir, name);
	if (mkdir(d, 0755))
		tap_bail("cannot make %s", d);
	cells = tap_fixture(d, "cells-idle.csv", NULL);
	fprintf(cells, "cell,mode,step_ms,load,steps,repeat,pattern,led,t_open_ns,t_start_ns,"
		"t_written_ns,t_end_ns,hz,reads,status,kernel\n");
	fprintf(cells, "hr-10,hr_pattern,10,idle,%d,-1,255 10 255 0 0 10 0 0,led-hr,%llu,%llu,%llu,"
		"%llu,250,%d,ok,6.1.192\n", STEPS, T_HR - 1000, T_HR, T_HR + 1000,
		T_HR + STEPS * (STEP_NS + drift_ns) + STEP_NS, STEPS);
	fclose(cells);
	probe = tap_fixture(d, "probe-led_timer.csv", "event,t_ns,led,value,late_ticks,late_ns,cpu");
	uh = tap_fixture(d, "user-hr-10.csv", "read,t_ns,brightness");
	for (k = 0; k < STEPS; k++)
		change(probe, uh, "led-hr", k, T_HR + k * (STEP_NS + drift_ns) + LATE_NS);
	fclose(probe);
	fclose(uh);
	k = report(d);
	tap_ok(k == 0 || k == 1, "%s: report ran, exit %d", name, k);
	sum = summary_of(d);
	snprintf(path, sizeof(path), "%s: the drift is seen, not folded into the pattern's period "
		 "(ms/1000 steps)", name);
	tap_eq_dbl(num(metric(sum, "drift_ms_per_1000_steps", "abs_pattern", "kernel"), "median"), want,
		   want * 1e-3, path);
	snprintf(path, sizeof(path), "%s: no step counted as skipped", name);
	tap_eq_dbl(num(metric(sum, "skipped_changes", "abs_pattern", NULL), "median"), 0, 0, path);
	json_decref(sum);
	snprintf(path, sizeof(path), "%s/targets.json", d);
	tg = json_load_file(path, 0, NULL);
	json_array_foreach(tg, i, t)
		if (!strcmp(json_string_value(json_object_get(t, "target")) ?: "", "abs_pattern_drift"))
			why = json_is_false(json_object_get(t, "met")) ? "NOT MET" : "not NOT MET";
	tap_ok(why && !strcmp(why, "NOT MET"), "%s: abs_pattern_drift is NOT MET: got %s", name,
	       why ? why : "no such target");
	json_decref(tg);
}

LAB_TEST(abs_pattern_drifting)
{
	drifting("drift-0.5ms", 500000);
	drifting("drift-6ms", 6000000);
}

LAB_TEST(hr_pattern_by_kernel)
{
	hr_pattern_of("6.1.192", "abs_pattern", "hr_pattern");
	hr_pattern_of("6.12.118", "hr_pattern", "abs_pattern");
}

int main(int argc, char **argv)
{
	if (access(bin, X_OK))
		tap_bail("%s is not built (make all)", bin);
	tap_tmpdir(dir);
	return tap_main(argc, argv);
}
