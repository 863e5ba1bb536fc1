// SPDX-License-Identifier: GPL-2.0
/*
 * One cell's results: its steps-CELL.csv, its metrics in summary.json, and
 * its rows of errors.csv, error-hist.csv, drift.csv and table.csv.
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

static void write_hist(struct outputs *o, const struct cell *c, const char *obs,
		       const double *err, size_t n)
{
	size_t counts[HIST_BINS] = { 0 }, i;
	double a;
	int b;

	for (i = 0; i < n; i++) {
		a = fabs(err[i]);
		b = a < 1 ? 0 : 1 + (int)floor(log2(a));
		if (b >= HIST_BINS)
			b = HIST_BINS - 1;
		counts[b]++;
	}
	for (b = 0; b < HIST_BINS; b++)
		fprintf(o->hist.f, "%s,%u,%s,%s,%g,%g,%zu\n", c->mode, c->step_ms, c->load, obs,
			b ? ldexp(1, b - 1) : 0, ldexp(1, b), counts[b]);
}

/* The observer's figures the targets and table.csv need, into @cs[x] */
static void observer_stats(const struct cell *c, const struct observer *b, const double *wins,
			   size_t nw, double whole, struct cell_stats *cs, int x)
{
	struct stats st;

	cs->have[x] = b->n > 0;
	cs->n[x] = b->n;
	cs->p99_abs[x] = b->n ? p99_abs(b->err, b->n) : NAN;
	cs->median[x] = NAN;
	if (b->n && !stats_compute(b->err, b->n, &st))
		cs->median[x] = st.median;
	cs->drift[x] = whole;
	cs->nwin[x] = nw;
	cs->drift_med[x] = cs->drift_min[x] = cs->drift_max[x] = NAN;
	if (nw && !stats_compute(wins, nw, &st)) {
		cs->drift_med[x] = st.median;
		cs->drift_min[x] = st.min;
		cs->drift_max[x] = st.max;
	}
	cs->end_err[x] = b->n ? b->err[b->n - 1] : NAN;
	cs->mean_interval_ms[x] = NAN;
	if (b->ni && !stats_compute(b->ierr, b->ni, &st))
		cs->mean_interval_ms[x] = c->step_ms + st.mean / 1e3;
	cs->mid_err[x] = b->n ? b->err[b->n / 2] : NAN;
}

/* The observer's rows of errors.csv, error-hist.csv, drift.csv and table.csv */
static void observer_rows(struct outputs *o, const struct match *m, const struct observer *b,
			  const struct cell_stats *cs, int x)
{
	const struct cell *c = m->c;
	const struct led_step *ms = m->ms;
	size_t i;

	for (i = 0; i < b->n; i++)
		fprintf(o->errors.f, "%s,%u,%s,%s,%ld,%.6f,%.6f\n", c->mode, c->step_ms, c->load,
			b->name, b->step[i], (double)ms[b->step[i]].t_ms / 1e3, b->err[i] / 1e3);
	write_hist(o, c, b->name, b->err, b->n);
	/* cumulative drift over cycles: the error of each cycle's first step */
	for (i = 0; i < b->n; i++)
		if (i == 0 || ms[b->step[i]].cycle != ms[b->step[i - 1]].cycle)
			fprintf(o->drift.f, "%s,%u,%s,%s,%llu,%.6f\n", c->mode, c->step_ms, c->load,
				b->name, (unsigned long long)ms[b->step[i]].cycle, b->err[i] / 1e3);
	fprintf(o->table.f, "%s,%u,%s,%s,%zu,%.1f,%.1f,%.3f,%.3f,%.3f,%zu,%.3f,", c->mode,
		c->step_ms, c->load, b->name, b->n, cs->p99_abs[x], cs->median[x], cs->drift[x],
		cs->drift_min[x], cs->drift_max[x], cs->nwin[x], cs->mean_interval_ms[x]);
	/* the jiffies floor concerns the software pattern only */
	if (!strcmp(c->mode, "pattern") && c->step_ms)
		fprintf(o->table.f, "%.0f", led_model_jiffies_ms(c->step_ms, c->hz));
	fprintf(o->table.f, ",%ld,%ld,%ld\n", cs->lost, m->nmodel, cs->kernel_changes);
}

/* Step, interval and drift metrics of one observer, its figures and rows */
static void observer_out(struct outputs *o, const struct match *m, const char **params,
			 struct cell_stats *cs, int x)
{
	const struct observer *b = &m->ob[x];
	double *wins = lab_calloc(DRIFT_WINDOWS, sizeof(double), "drift windows"), whole;
	size_t nw;

	params[7] = b->name;
	report_metric(o, "step_error_us", params, "us", b->err, b->n);
	report_metric(o, "interval_error_us", params, "us", b->ierr, b->ni);
	nw = drift_windows(b, wins, &whole);
	report_metric(o, "drift_ms_per_1000_steps", params, "ms/1000 steps", wins, nw);
	observer_stats(m->c, b, wins, nw, whole, cs, x);
	free(wins);
	observer_rows(o, m, b, cs, x);
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
	if (m->ngap && !stats_compute(m->gap, m->ngap, &st)) {
		cs->gap_p99 = m->ngap >= STATS_P99_MIN_N ? st.p99 : st.max;
		cs->gap_median = st.median;
		cs->gap_max = st.max;
	}
}

/* The timer lateness behind the steps, in the cell's window */
static void lateness_out(struct outputs *o, const struct cell *c, const struct kevents *k,
			 const char *const *lp)
{
	bool hr = !strcmp(c->mode, "hr_pattern");
	size_t i, nl = 0, cnt = hr ? k->nh : k->nt;
	double *late = lab_calloc(cnt, sizeof(*late), "timer lateness");

	for (i = 0; i < cnt; i++) {
		const struct ktimer *e = hr ? &k->ht[i] : &k->tt[i];

		if (e->t < c->t_start || e->t > c->t_end)
			continue;
		late[nl++] = hr ? (double)e->late / 1e3 :
			     (double)e->late * (c->hz ? 1e6 / c->hz : NAN);
	}
	if (k->present)
		report_metric(o, "timer_lateness_us", lp, "us", late, nl);
	free(late);
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
	for (x = 0; x < 2; x++)
		if (x == 1 || k->present)
			observer_out(o, m, params, cs, x);
	gap_out(o, m, lp, cs);
	lateness_out(o, c, k, lp);
}
