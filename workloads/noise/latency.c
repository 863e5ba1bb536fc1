// SPDX-License-Identifier: GPL-2.0
/*
 * timerlat's figures of one load, per context (irq, thread) and per CPU and
 * over all CPUs: the p50 and p99 of the latency with 95 % intervals, and the
 * max. One CPU's activations come in clusters in time (a host stall of the
 * vCPU delays every activation it covers, and under TCG stalls often hit
 * every vCPU at once), so the intervals come from a cluster bootstrap
 * (ci_quantile_clusters) over time blocks of BLOCK_NS: a block of one CPU's
 * samples for a CPU's figure, a block of every CPU's samples for the
 * all-CPU one. Writes the CCDF of every context over all CPUs
 * (latency-cdf.csv) and the quantiles of every CPU and of all of them
 * (platform-latency.csv, cpu "all"), the figures the timing workloads
 * compare their lateness with.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "noise.h"
#include "stats.h"

#define BLOCK_NS 500000000LL	/* the clusters: half-second blocks */
#define CDF_STEPS_PER_DECADE 20

/* The samples of one figure: latencies with their clusters */
struct sel {
	double *x;
	size_t *cl, n, ncl;
};

/* A seed from the figure's name, so that a report run again gives the same intervals */
static uint64_t seed_of(const char *load, const char *ctx, int cpu, double p)
{
	char key[96];
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	snprintf(key, sizeof(key), "%s/%s/%d/%g", load, ctx, cpu, p);
	for (i = 0; key[i]; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ULL;
	return h;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The samples of context @ctx on @cpu (-1: every CPU), blocks renumbered densely */
static void select_samples(const struct tl_set *t, int ctx, int cpu, struct sel *s)
{
	int64_t t0 = INT64_MAX;
	size_t i, k, *ids;

	s->n = s->ncl = 0;
	for (i = 0; i < t->n; i++)
		if (t->s[i].t_ns < t0)
			t0 = t->s[i].t_ns;
	for (i = 0; i < t->n; i++) {
		const struct tl_sample *a = &t->s[i];

		if (a->ctx != ctx || (cpu >= 0 && a->cpu != cpu))
			continue;
		s->x[s->n] = a->lat_us;
		s->cl[s->n++] = (size_t)((a->t_ns - t0) / BLOCK_NS);
	}
	if (!s->n)
		return;
	ids = lab_calloc(s->n, sizeof(*ids), "blocks");
	memcpy(ids, s->cl, s->n * sizeof(*ids));
	qsort(ids, s->n, sizeof(*ids), cmp_size);
	for (i = 0, k = 0; i < s->n; i++)
		if (!k || ids[i] != ids[k - 1])
			ids[k++] = ids[i];
	s->ncl = k;
	for (i = 0; i < s->n; i++)
		s->cl[i] = (size_t)((size_t *)bsearch(&s->cl[i], ids, k, sizeof(*ids), cmp_size) - ids);
	free(ids);
}

/* The @p quantile of @s with its cluster interval; NAN (recorded) when it fails */
static double quantile(struct report *r, const struct sel *s, double p, uint64_t seed,
		       struct ci *ci)
{
	double q = NAN;

	if (ci_quantile_clusters(s->x, s->cl, s->n, s->ncl, p, seed, &q, ci)) {
		report_fail(r, "the %g quantile of %zu timerlat samples could not be computed", p, s->n);
		return NAN;
	}
	return q;
}

/* The CCDF over all CPUs: latency against the fraction of activations later */
static void write_cdf(struct report *r, const char *load, const char *ctx, const struct sel *s)
{
	double *sorted = lab_calloc(s->n, sizeof(*sorted), "sorted samples"), ex;
	int k;

	memcpy(sorted, s->x, s->n * sizeof(*sorted));
	qsort(sorted, s->n, sizeof(*sorted), stats_cmp_double);
	for (k = 0;; k++) {
		ex = pow(10, -(double)k / CDF_STEPS_PER_DECADE);
		if (ex < 1.0 / s->n)
			break;
		fprintf(r->cdf.f, "%s,%s,%.6g,%.9g,%.3f\n", load, ctx, 1 - ex, ex,
			stats_percentile_sorted(sorted, s->n, 1 - ex));
	}
	fprintf(r->cdf.f, "%s,%s,%.9g,%.9g,%.3f\n", load, ctx, 1 - 1.0 / s->n, 1.0 / s->n,
		sorted[s->n - 1]);
	free(sorted);
}

/* The largest sample of @s */
static double largest(const struct sel *s)
{
	double mx = s->x[0];
	size_t i;

	for (i = 1; i < s->n; i++)
		if (s->x[i] > mx)
			mx = s->x[i];
	return mx;
}

/* A row of platform-latency.csv */
static void platform_row(struct report *r, const char *load, const char *ctx, const char *cpu,
			 double p, double q, const struct ci *ci, const struct sel *s)
{
	fprintf(r->platform.f, "%s,%s,%s,%g,%.3f,", load, ctx, cpu, p, q);
	if (!ci || isnan(ci->lo))
		fprintf(r->platform.f, ",,");
	else
		fprintf(r->platform.f, "%.3f,%.3f,", ci->lo, ci->hi);
	fprintf(r->platform.f, "%zu,%zu,%s\n", s->n, s->ncl, ci ? ci->method : "the largest sample");
}

/*
 * The quantiles of one selection (p50, p90, p99, p99.9 where n allows, and
 * the max) into platform-latency.csv; the p50, p99 and max as metrics; the
 * p99 into @pp unless NULL
 */
static void figures(struct report *r, const char *load, const char *ctx, int cpu,
		    const struct sel *s, struct platform_p99 *pp)
{
	static const double ps[] = { 0.5, 0.9, 0.99, 0.999 };
	char cpus[16];
	const char *params[] = { "cpu", cpus, "load", load, "context", ctx, NULL };
	double q, mx = largest(s);
	struct ci ci;
	size_t i;

	if (cpu < 0)
		snprintf(cpus, sizeof(cpus), "all");
	else
		snprintf(cpus, sizeof(cpus), "%d", cpu);
	for (i = 0; i < sizeof(ps) / sizeof(*ps); i++) {
		/* a tail quantile wants a sample beyond it at least */
		if (ps[i] != 0.5 && (s->n < STATS_P99_MIN_N || s->n * (1 - ps[i]) < 1))
			continue;
		q = quantile(r, s, ps[i], seed_of(load, ctx, cpu, ps[i]), &ci);
		if (isnan(q))
			continue;
		platform_row(r, load, ctx, cpus, ps[i], q, &ci, s);
		if (ps[i] == 0.5)
			report_estimate(r, "timerlat_latency_p50_us", params, "us", q, s->n, &ci);
		if (ps[i] == 0.99) {
			report_estimate(r, "timerlat_latency_p99_us", params, "us", q, s->n, &ci);
			if (pp)
				*pp = (struct platform_p99){ q, ci.lo, ci.hi, s->n, s->ncl, true };
		}
	}
	platform_row(r, load, ctx, cpus, 1, mx, NULL, s);
	report_estimate(r, "timerlat_latency_max_us", params, "us", mx, s->n, NULL);
}

void latency_figures(struct report *r, const struct tl_set *t, struct platform_p99 *irq,
		     struct platform_p99 *thread)
{
	struct sel s = {
		.x = lab_calloc(t->n + 1, sizeof(double), "samples"),
		.cl = lab_calloc(t->n + 1, sizeof(size_t), "clusters"),
	};
	bool idle = !strcmp(t->load, "idle");
	int ctx, cpu;

	for (ctx = 0; ctx < t->nctx; ctx++) {
		const char *name = t->ctx_names[ctx];
		struct platform_p99 *pp = !idle ? NULL : !strcmp(name, "irq") ? irq :
					  !strcmp(name, "thread") ? thread : NULL;

		for (cpu = -1; cpu < t->ncpu; cpu++) {
			select_samples(t, ctx, cpu, &s);
			if (!s.n)
				continue;
			figures(r, t->load, name, cpu, &s, cpu < 0 ? pp : NULL);
			if (cpu < 0)
				write_cdf(r, t->load, name, &s);
		}
	}
	free(s.x);
	free(s.cl);
}
