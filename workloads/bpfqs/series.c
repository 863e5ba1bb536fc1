// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs report: the figures of a run as series of batches (contention:
 * windows) after warm-up, read back from the CSV files, and their metrics
 * in summary.json.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "interval.h"
#include "output.h"
#include "bpfqs.h"

struct series **all_series;
size_t n_series;

struct series *series_new(const char *metric, const char *unit, enum kind kind, const char *op,
			  unsigned int vsize, unsigned int threads, bool shared)
{
	struct series *s = lab_calloc(1, sizeof(*s), "a series");

	all_series = lab_realloc(all_series, n_series + 1, sizeof(*all_series), "the series");
	all_series[n_series++] = s;
	s->metric = metric;
	s->unit = unit;
	s->kind = kind;
	snprintf(s->op, sizeof(s->op), "%s", op ? op : "");
	s->vsize = vsize;
	s->threads = threads;
	s->shared = shared;
	return s;
}

struct series *series_get(const char *metric, const char *unit, enum kind kind, const char *op,
			  unsigned int vsize, unsigned int threads, bool shared)
{
	size_t i;

	/* the rows of a series are consecutive: look at the newest first */
	for (i = n_series; i-- > 0;) {
		struct series *s = all_series[i];

		if (!strcmp(s->metric, metric) && s->kind == kind && !strcmp(s->op, op ? op : "") &&
		    s->vsize == vsize && s->threads == threads && s->shared == shared)
			return s;
	}
	return series_new(metric, unit, kind, op, vsize, threads, shared);
}

void series_add(struct series *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->x = lab_realloc(s->x, s->cap, sizeof(double), "the samples");
	}
	s->x[s->n++] = x;
}

struct series *find_series(const char *metric, enum kind k, const char *op, unsigned int vsize)
{
	size_t i;

	for (i = 0; i < n_series; i++) {
		struct series *s = all_series[i];

		if (!strcmp(s->metric, metric) && s->kind == k && !strcmp(s->op, op) && s->vsize == vsize)
			return s;
	}
	return NULL;
}

static int cmp_series(const void *a, const void *b)
{
	const struct series *x = all_series[*(const size_t *)a], *y = all_series[*(const size_t *)b];
	int d;

	if ((d = strcmp(x->metric, y->metric)) || (d = (int)x->kind - (int)y->kind) || (d = strcmp(x->op, y->op)))
		return d;
	if (x->vsize != y->vsize)
		return x->vsize < y->vsize ? -1 : 1;
	if (x->shared != y->shared)
		return x->shared ? 1 : -1;
	return x->threads < y->threads ? -1 : x->threads > y->threads;
}

/*
 * The series in the order the figures' CSV files need: by metric, map, op,
 * then value size, shared and threads ascending, so that each line of a
 * figure is a run of consecutive rows. Free the result.
 */
size_t *series_sorted(size_t n)
{
	size_t *ix = lab_calloc(n, sizeof(*ix), "the series' order"), i;

	for (i = 0; i < n; i++)
		ix[i] = i;
	qsort(ix, n, sizeof(*ix), cmp_series);
	return ix;
}

int series_publish(struct out *o, struct series *s)
{
	const char *params[12];
	char vs[16], th[16];
	size_t i = 0;

	params[i++] = "map";
	params[i++] = kind_name[s->kind];
	if (s->op[0]) {
		params[i++] = "op";
		params[i++] = s->op;
	}
	if (s->vsize) {
		snprintf(vs, sizeof(vs), "%u", s->vsize);
		params[i++] = "value_size";
		params[i++] = vs;
	}
	if (s->threads) {
		snprintf(th, sizeof(th), "%u", s->threads);
		params[i++] = "threads";
		params[i++] = th;
		params[i++] = "shared";
		params[i++] = s->shared ? "yes" : "no";
	}
	params[i] = NULL;
	s->have_st = s->n > 0 && !stats_compute(s->x, s->n, &s->st);
	if (out_metric(o, s->metric, params, s->unit, s->x, s->n))
		return -1;
	if (s->have_st && !strcmp(s->metric, "user_ns_per_op"))
		/* secondary: the fastest batch, a single order statistic (no interval) */
		return out_estimate(o, "user_ns_per_op_best", params, s->unit, s->st.min, s->n, NULL);
	if (s->have_st && !strcmp(s->metric, "prog_ns_per_op")) {
		const struct series *e = find_series("prog_empty_ns_per_run", s->kind, "", s->vsize);

		/*
		 * the fastest batch of the operation less the fastest of the empty
		 * loop (not the smallest round-by-round difference: a round whose
		 * empty loop the host slowed gives a difference below zero)
		 */
		double emin;
		size_t i;

		/* the empty loop may come after the operations in the file: its own minimum */
		for (i = 0, emin = INFINITY; e && i < e->n; i++)
			if (e->x[i] < emin)
				emin = e->x[i];
		if (isfinite(emin))
			return out_estimate(o, "prog_ns_per_op_best", params, s->unit, (s->min_run - emin) / s->k,
					    s->n, NULL);
	}
	return 0;
}

/*
 * Whether an in-program figure is below what the empty-loop subtraction
 * resolves: the 95 % interval of its median reaches zero, or the median is
 * under a third of the empty loop's cost per iteration. The last because
 * the two loops' code differs: across runs here the verifier-inlined array
 * lookup came out anywhere between -10 and +22 ns against an empty loop of
 * 30-45 ns per iteration. (Not a multiple of the empty loop's standard
 * deviation: over all batches, slow host periods included, that is large
 * even where the median is sharp.)
 */
bool below_resolution(const struct series *s, const struct series **empty)
{
	const struct series *e = find_series("prog_empty_ns_per_run", s->kind, "", s->vsize);
	struct ci ci;

	*empty = e;
	if (strcmp(s->metric, "prog_ns_per_op") || !e || !e->have_st || !s->have_st)
		return false;
	if (s->st.median <= 0 || s->st.median < e->st.median / s->k / 3)
		return true;
	return !ci_quantile(s->x, s->n, 0.5, &ci) && !(ci.lo > 0);
}

void series_free_all(void)
{
	size_t i;

	for (i = 0; i < n_series; i++) {
		free(all_series[i]->x);
		free(all_series[i]);
	}
	free(all_series);
	all_series = NULL;
	n_series = 0;
}

bool find_series_metric(const char *metric)
{
	size_t i;

	for (i = 0; i < n_series; i++)
		if (!strcmp(all_series[i]->metric, metric))
			return true;
	return false;
}
