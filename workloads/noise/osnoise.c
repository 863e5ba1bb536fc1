// SPDX-License-Identifier: GPL-2.0
/*
 * osnoise's figures of one load: noise per second of the tracer's runtime,
 * in us/s, by cause, per CPU and over all CPUs, and the longest single gap
 * of each period.
 *
 * A sample is one period (1 s) of one CPU; over all CPUs, one period index
 * of a chunk (the CPUs' threads start together, so their k-th periods cover
 * about the same second) with the mean over the CPUs, kept only when every
 * CPU has it. The causes: "total" is osnoise's own sum of gaps; irq,
 * softirq, thread and nmi are the net durations of the interference events
 * (an interference in a gap shorter than the 5 us threshold counts there,
 * not in the total); the part of the gaps that no interference explains
 * (whole gaps with none, the rest of gaps with some) is named for what it
 * is under the accelerator of the run (hw_cause_name). A period of a chunk
 * in which the ring buffer lost events of its CPU is left out, and counted.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "noise.h"
#include "stats.h"

#define NFIG (NCAUSES + 1)	/* the causes, then the total */

const char *hw_cause_name(const char *accel)
{
	if (!strcmp(accel, "tcg"))
		return "host-tcg";	/* the host not running QEMU's vCPU thread */
	if (!strcmp(accel, "kvm"))
		return "hypervisor-kvm";	/* VM exits, the host preempting the vCPU */
	if (!strcmp(accel, "none"))
		return "hardware";	/* SMIs, firmware */
	return "hardware-or-host";
}

/* us of noise per second of runtime of a row: cause @k, or (k == NCAUSES) the total */
static double per_s(const struct osn_row *row, int k)
{
	double secs = row->p.s.runtime_us / 1e6;
	double us = k == NCAUSES ? (double)row->p.s.noise_us : row->p.cause_ns[k] / 1000.0;

	return us / secs;
}

static const char *fig_name(const struct report *r, int k)
{
	return k == NCAUSES ? "total" : k == CAUSE_HW ? hw_cause_name(r->accel) : cause_names[k];
}

/* The metrics and causes.csv rows of one CPU (or "all") from @v[k][0..n) */
static void cpu_figures(struct report *r, const char *load, const char *cpu, double *const *v,
			const double *max_single, size_t n)
{
	const char *params[] = { "cpu", cpu, "load", load, "cause", NULL, NULL };
	struct stats st;
	struct ci ci;
	int i, k;

	for (i = 0; i < NFIG; i++) {	/* the total first, then the causes */
		k = i ? i - 1 : NCAUSES;
		params[5] = fig_name(r, k);
		report_metric(r, "noise_us_per_s", params, "us/s", v[k], n);
		if (!n || stats_compute(v[k], n, &st) || ci_quantile(v[k], n, 0.5, &ci))
			continue;
		fprintf(r->causes.f, "%s,%s,%s,%d,%.3f,", load, cpu, params[5], i, st.median);
		if (isnan(ci.lo))
			fprintf(r->causes.f, ",,");
		else
			fprintf(r->causes.f, "%.3f,%.3f,", ci.lo, ci.hi);
		fprintf(r->causes.f, "%.3f,%.3f,%zu\n", st.mean, st.max, n);
	}
	params[4] = NULL;
	report_metric(r, "noise_max_single_us", params, "us", max_single, n);
}

static int cmp_row(const void *a, const void *b)
{
	const struct osn_row *x = *(struct osn_row *const *)a, *y = *(struct osn_row *const *)b;

	if (x->chunk != y->chunk)
		return x->chunk < y->chunk ? -1 : 1;
	if (x->period != y->period)
		return x->period < y->period ? -1 : 1;
	return x->cpu - y->cpu;
}

void osnoise_figures(struct report *r, const struct osn_set *o)
{
	struct osn_row **use = lab_calloc(o->n + 1, sizeof(*use), "periods");
	double *v[NFIG], *mx = lab_calloc(o->n + 1, sizeof(*mx), "max gaps");
	size_t i, j, m, n, nuse = 0, left_out = 0;
	char cpu[16];
	int k, c;

	for (k = 0; k < NFIG; k++)
		v[k] = lab_calloc(o->n + 1, sizeof(double), "noise per second");
	for (i = 0; i < o->n; i++) {
		if (o->r[i].lost > 0 || !o->r[i].p.s.runtime_us)
			left_out++;
		else
			use[nuse++] = &o->r[i];
	}
	for (c = 0; c < o->ncpu; c++) {
		for (i = 0, n = 0; i < nuse; i++) {
			if (use[i]->cpu != c)
				continue;
			for (k = 0; k < NFIG; k++)
				v[k][n] = per_s(use[i], k);
			mx[n++] = (double)use[i]->p.s.max_single_us;
		}
		snprintf(cpu, sizeof(cpu), "%d", c);
		cpu_figures(r, o->load, cpu, v, mx, n);
	}
	/* over all CPUs: each (chunk, period) that every CPU has */
	qsort(use, nuse, sizeof(*use), cmp_row);
	for (i = 0, n = 0; i < nuse; i = j) {
		for (j = i; j < nuse && use[j]->chunk == use[i]->chunk &&
			    use[j]->period == use[i]->period; j++)
			;
		if ((int)(j - i) != o->ncpu)
			continue;
		mx[n] = 0;
		for (k = 0; k < NFIG; k++) {
			v[k][n] = 0;
			for (m = i; m < j; m++)
				v[k][n] += per_s(use[m], k) / (double)(j - i);
		}
		for (m = i; m < j; m++)
			if (use[m]->p.s.max_single_us > mx[n])
				mx[n] = (double)use[m]->p.s.max_single_us;
		n++;
	}
	cpu_figures(r, o->load, "all", v, mx, n);
	report_estimate(r, "osnoise_periods_left_out", (const char *[]){ "load", o->load, NULL },
			"periods", (double)left_out, o->n, NULL);
	for (k = 0; k < NFIG; k++)
		free(v[k]);
	free(mx);
	free(use);
}
