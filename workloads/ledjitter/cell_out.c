// SPDX-License-Identifier: GPL-2.0
/*
 * One cell's results: its steps-CELL.csv, its metrics in summary.json, and
 * its rows of errors.csv, error-hist.csv, drift.csv and table.csv.
 *
 * The headline of an observer is the interval error: each observed
 * interval between two consecutive changes minus the interval asked for
 * (interval_error_us: median with its interval, p99 and max; p99 with its
 * own interval as interval_error_p99_us where n >= 100, else the figure is
 * interval_error_max_us). It is jitter for both triggers: the jiffies
 * pattern's tick rounding shows as a constant offset of its intervals, not
 * as a ramp. Drift is its own figure: the least-squares slope of the
 * absolute step error over the step index, in ms per 1000 steps, with the
 * fit's t interval (drift_ms_per_1000_steps). mean_interval_ms is what the
 * jiffies model predicts for pattern.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ledjitter.h"
#include "stats.h"

/* One model change's row of steps-CELL.csv: both observers, where they saw it */
static void step_row(FILE *f, const struct match *m, long j)
{
	const struct led_step *ms = m->ms;
	const uint64_t *kt = m->k.t, *ut = m->u.t, t0 = m->c->t_start;
	long u = m->umodel[j], kc = m->kmodel[j];

	fprintf(f, "%ld,%llu,%llu,%u,", j, (unsigned long long)ms[j].t_ms,
		(unsigned long long)ms[j].cycle, ms[j].brightness);
	if (kc >= 0)
		fprintf(f, "%.3f,%.1f,", (double)(kt[kc] - t0) / 1e6,
			(double)(kt[kc] - t0) / 1e3 - (double)ms[j].t_ms * 1e3);
	else
		fputs(",,", f);
	if (kc > 0 && j > 0 && m->kmodel[j - 1] == kc - 1)
		fprintf(f, "%.1f,", (double)(kt[kc] - kt[kc - 1]) / 1e3 -
			(double)(ms[j].t_ms - ms[j - 1].t_ms) * 1e3);
	else
		fputs(",", f);
	if (u >= 0)
		fprintf(f, "%.3f,%.1f,", (double)(ut[u] - t0) / 1e6,
			(double)(ut[u] - t0) / 1e3 - (double)ms[j].t_ms * 1e3);
	else
		fputs(",,", f);
	if (u >= 0 && kc >= 0)
		fprintf(f, "%.1f\n", (double)(ut[u] - kt[kc]) / 1e3);
	else
		fputs("\n", f);
}

/* steps-CELL.csv: every model change with what each observer saw; 0 or -1 */
int cell_steps_csv(struct outputs *o, const struct match *m)
{
	struct atomic_file af;
	char name[128];
	long j;

	snprintf(name, sizeof(name), "steps-%s.csv", m->c->cell);
	if (csv_open(&af, o->dir, name,
		     "step,t_ideal_ms,cycle,brightness,kernel_t_ms,kernel_err_us,"
		     "kernel_interval_err_us,user_t_ms,user_err_us,gap_us")) {
		report_fail(o, "cannot write %s/%s", o->dir, name);
		return -1;
	}
	for (j = 0; j < m->nmodel; j++)
		step_row(af.f, m, j);
	if (atomic_commit(&af)) {
		report_fail(o, "cannot write %s/%s", o->dir, name);
		return -1;
	}
	return 0;
}

/* error-hist.csv: |interval error| in bins doubling in width */
static void write_hist(struct outputs *o, const struct cell *c, const char *obs,
		       const double *x, size_t n)
{
	size_t counts[HIST_BINS] = { 0 }, i;
	double a;
	int b;

	for (i = 0; i < n; i++) {
		a = fabs(x[i]);
		b = a < 1 ? 0 : 1 + (int)floor(log2(a));
		if (b >= HIST_BINS)
			b = HIST_BINS - 1;
		counts[b]++;
	}
	for (b = 0; b < HIST_BINS; b++)
		fprintf(o->hist.f, "%s,%u,%s,%s,%g,%g,%zu\n", c->mode, c->step_ms, c->load, obs,
			b ? ldexp(1, b - 1) : 0, ldexp(1, b), counts[b]);
}

static void estimate(struct outputs *o, const char *name, const char *const *params,
		     const char *unit, double v, size_t n, const struct ci *ci)
{
	if (isfinite(v) && out_estimate(o->sum, name, params, unit, v, n, ci))
		report_fail(o, "cannot add metric %s to %s/summary.json", name, o->dir);
}

/*
 * The observer's figures: interval error quantiles with their intervals,
 * the mean interval, the drift slope (ms per 1000 steps) of the step error.
 */
static void observer_figures(const struct cell *c, const struct observer *b,
			     struct obs_figures *f)
{
	double *x, *y;
	struct stats st;
	size_t i;

	memset(f, 0, sizeof(*f));
	f->have = b->n > 0;
	f->n = b->n;
	f->ni = b->ni;
	f->ierr_p50 = f->ierr_p99 = f->ierr_max = f->mean_ms = f->drift = NAN;
	f->err_median = b->n ? stats_median(b->err, b->n) : NAN;
	ci_quantile(b->ierr, b->ni, 0.5, &f->p50_ci);
	ci_quantile(b->ierr, b->ni, 0.99, &f->p99_ci);
	ci_mean(b->ierr, b->ni, &f->mean_ci);
	if (b->ni && !stats_compute(b->ierr, b->ni, &st)) {
		f->ierr_p50 = st.median;
		f->ierr_p99 = b->ni >= STATS_P99_MIN_N ? st.p99 : NAN;
		f->ierr_max = st.max;
		f->mean_ms = c->step_ms + st.mean / 1e3;
	}
	f->mean_ci.lo = c->step_ms + f->mean_ci.lo / 1e3;
	f->mean_ci.hi = c->step_ms + f->mean_ci.hi / 1e3;
	f->drift_ci = (struct ci){ NAN, NAN, "slope", "fewer than 3 steps" };
	if (b->n >= 3) {
		x = lab_calloc(b->n, sizeof(*x), "drift fit");
		y = lab_calloc(b->n, sizeof(*y), "drift fit");
		for (i = 0; i < b->n; i++) {
			x[i] = (double)b->step[i] / 1000;
			y[i] = b->err[i] / 1000;
		}
		if (ci_slope(x, y, b->n, &f->drift, &f->drift_ci))
			f->drift = NAN;
		free(x);
		free(y);
	}
}

/* The observer's rows of errors.csv, error-hist.csv, drift.csv and table.csv */
static void observer_rows(struct outputs *o, const struct match *m, const struct observer *b,
			  const struct cell_stats *cs, const struct obs_figures *f)
{
	const struct cell *c = m->c;
	const struct led_step *ms = m->ms;
	size_t i, k = 0;

	/* interval_err_ms: the interval ending at this step, where the one before was seen */
	for (i = 0; i < b->n; i++) {
		fprintf(o->errors.f, "%s,%u,%s,%s,%ld,%.6f,%.6f,", c->mode, c->step_ms, c->load,
			b->name, b->step[i], (double)ms[b->step[i]].t_ms / 1e3, b->err[i] / 1e3);
		if (i && b->step[i] == b->step[i - 1] + 1 && k < b->ni)
			fprintf(o->errors.f, "%.6f\n", b->ierr[k++] / 1e3);
		else
			fputs("\n", o->errors.f);
	}
	write_hist(o, c, b->name, b->ierr, b->ni);
	/* cumulative drift over cycles: the error of each cycle's first step */
	for (i = 0; i < b->n; i++)
		if (i == 0 || ms[b->step[i]].cycle != ms[b->step[i - 1]].cycle)
			fprintf(o->drift.f, "%s,%u,%s,%s,%llu,%.6f\n", c->mode, c->step_ms, c->load,
				b->name, (unsigned long long)ms[b->step[i]].cycle, b->err[i] / 1e3);
	fprintf(o->table.f, "%s,%u,%s,%s,%zu,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.3f,%.3f,%.3f,",
		c->mode, c->step_ms, c->load, b->name, f->ni, f->ierr_p50, f->p50_ci.lo,
		f->p50_ci.hi, f->ierr_p99, f->p99_ci.lo, f->p99_ci.hi, f->ierr_max, f->mean_ms,
		f->mean_ci.lo, f->mean_ci.hi);
	/* the jiffies model concerns the software pattern only */
	if (!strcmp(c->mode, "pattern") && c->step_ms)
		fprintf(o->table.f, "%.0f", led_model_jiffies_ms(c->step_ms, c->hz));
	fprintf(o->table.f, ",%.3f,%.3f,%.3f,%zu,%.1f,%ld,%ld,%ld\n", f->drift, f->drift_ci.lo,
		f->drift_ci.hi, f->n, f->err_median, cs->lost, m->nmodel, cs->kernel_changes);
}

/* The headline metrics of one observer, its figures and rows */
static void observer_out(struct outputs *o, const struct match *m, const char **params,
			 struct cell_stats *cs, int x)
{
	const struct observer *b = &m->ob[x];
	struct obs_figures *f = &cs->ob[x];

	params[7] = b->name;
	observer_figures(m->c, b, f);
	report_metric(o, "interval_error_us", params, "us", b->ierr, b->ni);
	if (b->ni >= STATS_P99_MIN_N)
		estimate(o, "interval_error_p99_us", params, "us", f->ierr_p99, b->ni, &f->p99_ci);
	else
		estimate(o, "interval_error_max_us", params, "us", f->ierr_max, b->ni, NULL);
	estimate(o, "mean_interval_ms", params, "ms", f->mean_ms, b->ni, &f->mean_ci);
	estimate(o, "drift_ms_per_1000_steps", params, "ms/1000 steps", f->drift, b->n,
		 &f->drift_ci);
	report_metric(o, "step_error_us", params, "us", b->err, b->n);
	observer_rows(o, m, b, cs, f);
}

/* The events the user observer missed, and how far it trails the kernel */
static void gap_out(struct outputs *o, const struct match *m, const char *const *lp,
		    struct cell_stats *cs)
{
	double lost = (double)cs->lost;
	struct stats st;

	report_metric(o, "lost_events", lp, "events", &lost, 1);
	report_metric(o, "observer_gap_us", lp, "us", m->gap, m->ngap);
	cs->ngap = m->ngap;
	cs->gap_p99 = cs->gap_median = cs->gap_max = NAN;
	cs->gap_p99_ci = (struct ci){ NAN, NAN, "p99", "no gap" };
	if (m->ngap && !stats_compute(m->gap, m->ngap, &st)) {
		ci_quantile(m->gap, m->ngap, 0.99, &cs->gap_p99_ci);
		cs->gap_p99 = m->ngap >= STATS_P99_MIN_N ? st.p99 : st.max;
		cs->gap_median = st.median;
		cs->gap_max = st.max;
	}
}

/*
 * The timer lateness behind the steps, in the cell's window; for
 * abs_pattern also its start: the first expiry of its hrtimer is hr_start,
 * the kernel's time of the write, against the two user references, and
 * the kernel observer's step error from hr_start (what is left of the
 * absolute error's floor without the start reference).
 */
static void lateness_out(struct outputs *o, const struct match *m, const struct kevents *k,
			 const char *const *lp, struct cell_stats *cs)
{
	const struct cell *c = m->c;
	bool hr = mode_is_hrtimer(c->mode), abs = mode_is_abs(c->mode);
	size_t i, nl = 0, cnt = hr ? k->nh : k->nt;
	double *late = lab_calloc(cnt, sizeof(*late), "timer lateness"), *e;
	uint64_t hr_start = 0;

	for (i = 0; i < cnt; i++) {
		const struct ktimer *t = hr ? &k->ht[i] : &k->tt[i];

		if (t->t < c->t_start || t->t > c->t_end)
			continue;
		if (abs && !nl)
			hr_start = t->expires;
		late[nl++] = hr ? (double)t->late / 1e3 :
			     (double)t->late * (c->hz ? 1e6 / c->hz : NAN);
	}
	if (k->present)
		report_metric(o, "timer_lateness_us", lp, "us", late, nl);
	free(late);
	if (!hr_start)
		return;
	cs->start_lag_us = ((double)hr_start - (double)c->t_start) / 1e3;
	cs->open_lag_us = ((double)hr_start - (double)c->t_open) / 1e3;
	e = lab_calloc(m->ob[0].n + 1, sizeof(*e), "errors from hr_start");
	for (i = 0; i < m->ob[0].n; i++)
		e[i] = m->ob[0].err[i] - cs->start_lag_us;
	report_metric(o, "step_error_from_hr_start_us", lp, "us", e, m->ob[0].n);
	free(e);
}

/*
 * The interval of the skipped steps' share: the model's changes up to the
 * last one the kernel observer saw, in half-second blocks of their ideal
 * time (one stall skips several steps at once), Wilson on the blocks'
 * effective n (ci_wilson_clusters)
 */
static void skipped_ci(const struct match *m, struct ci *ci)
{
	long last = m->ob[0].step[m->ob[0].n - 1], j;
	size_t nb = (size_t)(m->ms[last].t_ms / 500) + 1, b;
	size_t *skipped = lab_calloc(nb, sizeof(size_t), "blocks");
	size_t *steps = lab_calloc(nb, sizeof(size_t), "blocks");

	for (j = 0; j <= last; j++) {
		b = (size_t)(m->ms[j].t_ms / 500);
		steps[b]++;
		skipped[b] += m->kmodel[j] < 0;
	}
	ci_wilson_clusters(skipped, steps, nb, ci);
	free(skipped);
	free(steps);
}

void cell_metrics(struct outputs *o, const struct match *m, const struct kevents *k,
		  struct cell_stats *cs)
{
	const struct cell *c = m->c;
	char step_s[16];
	const char *params[] = { "mode", c->mode, "step_ms", step_s, "load", c->load,
				 "observer", NULL, NULL };
	const char *lp[] = { "mode", c->mode, "step_ms", step_s, "load", c->load, NULL };
	int x;

	if (c->step_ms)
		snprintf(step_s, sizeof(step_s), "%u", c->step_ms);
	else
		snprintf(step_s, sizeof(step_s), "custom");
	cs->start_lag_us = cs->open_lag_us = NAN;
	for (x = 0; x < 2; x++)
		if (x == 1 || k->present)
			observer_out(o, m, params, cs, x);
	/*
	 * abs_pattern's steps skipped after a stall (and the kernel observer's
	 * lost changes): the count, and its share of the steps up to the last
	 * one seen with its interval (skipped_ci)
	 */
	if (k->present) {
		double skipped = (double)cs->kernel_skipped;
		size_t steps = (size_t)cs->kernel_skipped + m->ob[0].n;
		struct ci ci;

		report_metric(o, "skipped_changes", lp, "changes", &skipped, 1);
		if (steps && m->ob[0].n) {
			skipped_ci(m, &ci);
			ci.lo *= 100;
			ci.hi *= 100;
			estimate(o, "skipped_changes_pct", lp, "% of steps",
				 100 * skipped / (double)steps, steps, &ci);
		}
	}
	gap_out(o, m, lp, cs);
	lateness_out(o, m, k, lp, cs);
}
