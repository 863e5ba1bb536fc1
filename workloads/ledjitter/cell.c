// SPDX-License-Identifier: GPL-2.0
/*
 * One cell against the model: the kernel observer's changes of the cell's
 * LED and the user's uleds reads, each matched to the model change it
 * shows, give every change's step error (observed time minus ideal time
 * from the start of the pattern's write(2)), interval error (observed
 * interval between two consecutive changes minus the interval asked) and,
 * where both observers saw a change, the gap between them (the reader's
 * wake-up latency).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ledjitter.h"

/* The model's changes of the cell's pattern; false when it has no timeline */
static bool model_changes(struct match *m)
{
	const struct cell *c = m->c;
	struct led_tuple *tu = lab_calloc(LED_MODEL_MAX_TUPLES, sizeof(*tu), "pattern tuples");
	long nsteps;
	int ntu;

	ntu = led_pattern_parse(c->pattern, MAX_BRIGHTNESS, tu, LED_MODEL_MAX_TUPLES, NULL);
	if (ntu < 2 || led_model_check(tu, (size_t)ntu, c->repeat)) {
		fprintf(stderr, "%s: %s: pattern '%s' has no timeline to compare with\n", lab_prog,
			c->cell, c->pattern);
		free(tu);
		return false;
	}
	nsteps = led_model_steps(tu, (size_t)ntu, c->repeat, NULL,
				 c->repeat == -1 ? (size_t)c->steps : SIZE_MAX);
	m->ms = lab_calloc((size_t)nsteps, sizeof(*m->ms), "model steps");
	led_model_steps(tu, (size_t)ntu, c->repeat, m->ms, (size_t)nsteps);
	m->nmodel = (long)led_model_changes(m->ms, (size_t)nsteps, 0);
	free(tu);
	return true;
}

/* The kernel's changes of the cell's LED in the cell's window */
static void kernel_changes(struct match *m, const struct kevents *k)
{
	const struct cell *c = m->c;
	int ledi = -1, cur = 0;
	size_t i;

	for (i = 0; i < k->nleds; i++)
		if (!strcmp(k->leds[i], c->led))
			ledi = (int)i;
	for (i = 0; ledi >= 0 && i < k->nset; i++) {
		const struct kevent *e = &k->set[i];

		if (e->led != ledi || e->t < c->t_start || e->t > c->t_end || e->value == cur)
			continue;
		cur = e->value;
		reads_add(&m->k, e->t, e->value);
	}
}

static void observer_alloc(struct observer *ob, const char *name, size_t n)
{
	ob->name = name;
	ob->err = lab_calloc(n, sizeof(double), "step errors");
	ob->ierr = lab_calloc(n, sizeof(double), "interval errors");
	ob->step = lab_calloc(n, sizeof(long), "step indexes");
	ob->t_ms = lab_calloc(n, sizeof(double), "step times");
}

static long *model_index(long n)
{
	long *v = lab_calloc((size_t)n, sizeof(long), "model index"), j;

	for (j = 0; j < n; j++)
		v[j] = -1;
	return v;
}

/*
 * The model change after @prev that a change to @b at @t (ns) shows; @tprev
 * is the time of the change @prev was. The jiffies pattern takes every
 * step, each timed from the one before: the next change with that
 * brightness. abs_pattern takes each step at its ideal time or, after a
 * stall, skips to the step it is at: the last change with that brightness
 * whose ideal time has come (the next one when none has, as for a change
 * seen a little before its ideal time), and only as far as the interval
 * since @prev holds the steps skipped. That interval is allowed @prev's own
 * lateness, at most @prev's step (an abs_pattern change later than its step
 * would have been the next step's): otherwise a trigger drifting late would
 * fold into skips, every error into the pattern's period. -1 when none.
 */
static long model_change_of(const struct match *m, long prev, uint64_t tprev, uint64_t t, int b)
{
	const struct led_step *ms = m->ms;
	uint64_t since = t > m->c->t_start ? t - m->c->t_start : 0;
	double room = INFINITY;
	long j, found = -1;

	if (prev >= 0 && prev + 1 < m->nmodel && t >= tprev) {
		double late = ((double)tprev - (double)m->c->t_start) / 1e6 - (double)ms[prev].t_ms;
		double step = (double)(ms[prev + 1].t_ms - ms[prev].t_ms);

		room = (double)(t - tprev) / 1e6 + fmin(fmax(late, 0), step);
	}
	for (j = prev + 1; j < m->nmodel; j++) {
		if ((int)ms[j].brightness != b)
			continue;
		if (found >= 0 && (ms[j].t_ms * 1000000 > since ||
				   (prev >= 0 && (double)(ms[j].t_ms - ms[prev].t_ms) > room)))
			break;
		found = j;
		if (!mode_is_abs(m->c->mode))
			break;
	}
	return found;
}

/*
 * Observer sample: change time @t (ns) shows model change @j; @prev is the
 * model change of the observer's previous sample, @tprev its time. The
 * interval error is taken between consecutive model changes and, on
 * abs_pattern's absolute timeline, across the steps it skipped (@span): the
 * observed time from the previous change minus the ideal one.
 */
static void observe(struct match *m, struct observer *ob, uint64_t t, long j, long prev,
		    uint64_t tprev, bool span)
{
	const struct led_step *ms = m->ms;
	uint64_t t0 = m->c->t_start;

	ob->step[ob->n] = j;
	ob->t_ms[ob->n] = (double)(t - t0) / 1e6;
	ob->err[ob->n] = (double)(t - t0) / 1e3 - (double)ms[j].t_ms * 1e3;
	if (prev >= 0 && (j == prev + 1 || span))
		ob->ierr[ob->ni++] = (double)(t - tprev) / 1e3 -
				     (double)(ms[j].t_ms - ms[prev].t_ms) * 1e3;
	ob->n++;
}

/*
 * Kernel change i is the model change model_change_of() finds: a change
 * the observer lost (bpftrace's ring buffer overflowing) shows as a
 * repeated value and is skipped over, as are abs_pattern's skipped steps.
 */
static void match_kernel(struct match *m)
{
	const struct reads *k = &m->k;
	long j, prev = -1;
	size_t i;

	observer_alloc(&m->ob[0], "kernel", k->n);
	m->kidx = lab_calloc(k->n, sizeof(long), "kernel change index");
	m->kmodel = model_index(m->nmodel);
	for (i = 0; i < k->n; i++) {
		j = model_change_of(m, prev, i ? k->t[i - 1] : 0, k->t[i], k->b[i]);
		if (j < 0)
			break;
		m->kidx[i] = j;
		m->kmodel[j] = (long)i;
		observe(m, &m->ob[0], k->t[i], j, prev, i ? k->t[i - 1] : 0,
			mode_is_abs(m->c->mode));
		prev = j;
	}
	m->nkm = i;
}

/*
 * The kernel change a user read shows: the last matched kernel change at or
 * before the read, after @kprev, with the read's value; -1 when none.
 */
static long kernel_change_of(const struct match *m, size_t i, long kprev)
{
	long j;

	for (j = (long)m->nkm - 1; j > kprev; j--)
		if (m->k.t[j] <= m->u.t[i] && m->k.b[j] == m->u.b[i])
			return j;
	return -1;
}

/*
 * Each read shows the latest change before it: with the kernel observer
 * the last kernel change at or before the read with that value, without
 * it model_change_of() the read's time and value. The user observer
 * misses changes (it sees only the latest value when it wakes), so its
 * interval errors are between consecutive model changes only.
 */
static void match_user(struct match *m, bool kernel)
{
	const struct reads *u = &m->u;
	long prev = -1, kprev = -1;	/* of the previous read: model change, kernel change */
	size_t i;

	observer_alloc(&m->ob[1], "user", u->n);
	m->umodel = model_index(m->nmodel);
	m->gap = lab_calloc(u->n, sizeof(double), "observer gaps");
	for (i = 0; i < u->n; i++) {
		long mj = -1, kc = -1;

		if (kernel && m->nkm) {
			kc = kernel_change_of(m, i, kprev);
			mj = kc >= 0 ? m->kidx[kc] : -1;
		} else {
			mj = model_change_of(m, prev, prev >= 0 ? u->t[m->umodel[prev]] : 0, u->t[i],
					     u->b[i]);
		}
		if (mj < 0 || mj >= m->nmodel)
			continue;
		m->umodel[mj] = (long)i;
		observe(m, &m->ob[1], u->t[i], mj, prev, prev >= 0 ? u->t[m->umodel[prev]] : 0,
			false);
		if (kc >= 0) {
			m->gap[m->ngap++] = (double)(u->t[i] - m->k.t[kc]) / 1e3;
			kprev = kc;
		}
		prev = mj;
	}
}

static void free_match(struct match *m)
{
	int x;

	for (x = 0; x < 2; x++) {
		free(m->ob[x].err);
		free(m->ob[x].ierr);
		free(m->ob[x].step);
		free(m->ob[x].t_ms);
	}
	reads_free(&m->k);
	reads_free(&m->u);
	free(m->gap);
	free(m->kidx);
	free(m->kmodel);
	free(m->umodel);
	free(m->ms);
}

void analyze_cell(struct outputs *o, const struct cell *c, const struct kevents *k,
		  struct cell_stats *cs)
{
	struct match m = { .c = c };

	memset(cs, 0, sizeof(*cs));
	cs->start_lag_us = cs->open_lag_us = NAN;
	if (!model_changes(&m))
		return;
	cs->model_changes = m.nmodel;
	kernel_changes(&m, k);
	cs->kernel_changes = k->present ? (long)m.k.n : -1;
	load_user_reads(o->dir, c->cell, &m.u);

	match_kernel(&m);
	cs->kernel_skipped = m.ob[0].n ? m.ob[0].step[m.ob[0].n - 1] + 1 - (long)m.ob[0].n : 0;
	if (k->present && (long)m.k.n != m.nmodel)
		fprintf(stderr, "%s: %s: the kernel made %zu changes, the model %ld (%ld skipped "
			"by the trigger or lost by the observer)\n", lab_prog, c->cell, m.k.n,
			m.nmodel, cs->kernel_skipped);
	match_user(&m, k->present);
	cs->lost = (k->present ? (long)m.k.n : m.nmodel) - (long)m.u.n;
	if (cs->lost < 0)
		cs->lost = 0;

	cell_steps_csv(o, &m);
	cell_metrics(o, &m, k, cs);
	free_match(&m);
}
