// SPDX-License-Identifier: GPL-2.0
/* Statistics of replicated A/B comparisons; see abstat.h. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "abstat.h"
#include "stats.h"

/* Ranks (1-based, mid-ranks for ties) of the n values of x */
static double *ranks(const double *x, size_t n)
{
	double *r = malloc(n * sizeof(*r));
	size_t i, j;

	if (!r)
		return NULL;
	for (i = 0; i < n; i++) {
		double less = 0, equal = 0;

		for (j = 0; j < n; j++) {
			less += x[j] < x[i];
			equal += x[j] == x[i];
		}
		r[i] = less + (equal + 1) / 2;
	}
	return r;
}

static double binom(size_t n, size_t k)
{
	double c = 1;
	size_t i;

	for (i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

/*
 * Exact two-sided p: the share of all ways to pick na of the pooled ranks
 * whose rank sum lies at least as far from its mean as the observed one.
 */
static double mw_exact(const double *r, size_t na, size_t n, double observed)
{
	double mean = (double)na * (double)(n + 1) / 2, dev = fabs(observed - mean);
	double hits = 0, total = 0;
	size_t idx[64], k;

	for (k = 0; k < na; k++)
		idx[k] = k;
	for (;;) {
		double sum = 0;

		for (k = 0; k < na; k++)
			sum += r[idx[k]];
		total++;
		hits += fabs(sum - mean) >= dev - 1e-9;
		/* next combination */
		k = na;
		while (k > 0 && idx[k - 1] == n - na + k - 1)
			k--;
		if (k == 0)
			break;
		idx[k - 1]++;
		for (; k < na; k++)
			idx[k] = idx[k - 1] + 1;
	}
	return hits / total;
}

static double mw_normal(const double *r, size_t na, size_t nb, double observed)
{
	size_t n = na + nb, i, j;
	double mean = (double)na * (double)(n + 1) / 2, ties = 0, var, z;

	for (i = 0; i < n; i++) {
		double t = 0;

		for (j = 0; j < n; j++)
			t += r[j] == r[i];
		ties += t * t - 1;	/* over the t members of a tie group: t^3 - t */
	}
	var = (double)na * (double)nb / 12 *
	      ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (var <= 0)
		return 1;
	z = (fabs(observed - mean) - 0.5) / sqrt(var);
	return z <= 0 ? 1 : erfc(z / sqrt(2));
}

double ab_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
	size_t n = na + nb, i;
	double *x, *r, sum = 0, p;

	if (!na || !nb)
		return NAN;
	x = malloc(n * sizeof(*x));
	if (!x)
		return NAN;
	memcpy(x, a, na * sizeof(*x));
	memcpy(x + na, b, nb * sizeof(*x));
	r = ranks(x, n);
	free(x);
	if (!r)
		return NAN;
	for (i = 0; i < na; i++)
		sum += r[i];
	if (u)
		*u = sum - (double)na * (double)(na + 1) / 2;
	if (na < 64 && binom(n, na) <= AB_MW_EXACT_MAX)
		p = mw_exact(r, na, n, sum);
	else
		p = mw_normal(r, na, nb, sum);
	free(r);
	return p > 1 ? 1 : p;
}

/* mean and sample stddev of x (log(x) when @log); false when a value is not
 * finite, or with @log not > 0 */
static bool moments(const double *x, size_t n, bool log_scale, double *mean, double *sd)
{
	double s = 0, d = 0, v;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || (log_scale && !(x[i] > 0)))
			return false;
		s += log_scale ? log(x[i]) : x[i];
	}
	*mean = s / (double)n;
	for (i = 0; i < n; i++) {
		v = (log_scale ? log(x[i]) : x[i]) - *mean;
		d += v * v;
	}
	*sd = n > 1 ? sqrt(d / (double)(n - 1)) : 0;
	return true;
}

/*
 * The pooled two-sample t of B against A on one scale: the difference of
 * the means *d, its standard error *se and df = na + nb - 2; false when a
 * side has fewer than 2 values or a value does not fit the scale
 */
static bool pooled(const double *a, size_t na, const double *b, size_t nb, bool log_scale,
		   double *d, double *se, double *df)
{
	double ma, sa, mb, sb;

	if (na < 2 || nb < 2 || !moments(a, na, log_scale, &ma, &sa) ||
	    !moments(b, nb, log_scale, &mb, &sb))
		return false;
	*df = (double)(na + nb - 2);
	*d = mb - ma;
	*se = sqrt(((double)(na - 1) * sa * sa + (double)(nb - 1) * sb * sb) / *df) *
	      sqrt(1.0 / (double)na + 1.0 / (double)nb);
	return true;
}

static double t_p(double d, double se, double df)
{
	if (se == 0)
		return d == 0 ? 1 : 0;
	return 2 * stats_t_cdf(-fabs(d / se), df);
}

double ab_ttest_log(const double *a, size_t na, const double *b, size_t nb)
{
	double d, se, df;

	return pooled(a, na, b, nb, true, &d, &se, &df) ? t_p(d, se, df) : NAN;
}

double ab_ttest(const double *a, size_t na, const double *b, size_t nb)
{
	double d, se, df;

	return pooled(a, na, b, nb, false, &d, &se, &df) ? t_p(d, se, df) : NAN;
}

/* splitmix64: a small seeded generator, the same numbers on every machine */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double resampled_median(const double *x, size_t n, double *buf, uint64_t *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = x[next_rand(s) % n];
	qsort(buf, n, sizeof(*buf), stats_cmp_double);
	return stats_percentile_sorted(buf, n, 0.5);
}

int ab_bootstrap(const double *a, size_t na, const double *b, size_t nb,
		 unsigned int reps, uint64_t seed, double *change, double *lo, double *hi)
{
	double ma = stats_median(a, na), mb = stats_median(b, nb), *buf, *ch;
	unsigned int i, kept = 0;

	if (!na || !nb || reps < 100 || !isfinite(ma) || !isfinite(mb) || ma == 0)
		return -EINVAL;
	*change = 100 * (mb / ma - 1);
	buf = malloc((na > nb ? na : nb) * sizeof(*buf));
	ch = malloc(reps * sizeof(*ch));
	if (!buf || !ch) {
		free(buf);
		free(ch);
		return -ENOMEM;
	}
	for (i = 0; i < reps; i++) {
		double ra = resampled_median(a, na, buf, &seed);
		double rb = resampled_median(b, nb, buf, &seed);

		if (ra != 0)
			ch[kept++] = 100 * (rb / ra - 1);
	}
	qsort(ch, kept, sizeof(*ch), stats_cmp_double);
	*lo = kept ? stats_percentile_sorted(ch, kept, 0.025) : NAN;
	*hi = kept ? stats_percentile_sorted(ch, kept, 0.975) : NAN;
	free(buf);
	free(ch);
	return 0;
}

struct ranked_p {
	double p;
	size_t i;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked_p *a = x, *b = y;

	return (a->p > b->p) - (a->p < b->p);
}

void ab_bh(const double *p, size_t n, double *q)
{
	struct ranked_p *r = malloc((n ? n : 1) * sizeof(*r));
	size_t m = 0, k;
	double run = 1;

	for (k = 0; k < n; k++)
		q[k] = NAN;
	if (!r)
		return;
	for (k = 0; k < n; k++)
		if (!isnan(p[k]))
			r[m++] = (struct ranked_p){ p[k], k };
	qsort(r, m, sizeof(*r), cmp_ranked);
	/* q(k) = min over j >= k of p(j) * m / j, from the largest p down */
	for (k = m; k > 0; k--) {
		double v = r[k - 1].p * (double)m / (double)k;

		if (v < run)
			run = v;
		q[r[k - 1].i] = run;
	}
	free(r);
}

static double mean_of_log(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += log(x[i]);
	return s / (double)n;
}

static double cv_of(const double *x, size_t n)
{
	struct stats st;

	if (n < 2 || stats_compute(x, n, &st))
		return NAN;
	return st.cv;
}

static bool all_positive(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
	return true;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

int ab_metric_compute(const double *a, size_t na, const double *b, size_t nb,
		      bool diff_scale, struct ab_metric *m)
{
	double d, se, df, t, reach, base;

	memset(m, 0, sizeof(*m));
	if (!na || !nb)
		return -EINVAL;
	m->na = na;
	m->nb = nb;
	m->diff_scale = diff_scale || !all_positive(a, na) || !all_positive(b, nb);
	m->med_a = stats_median(a, na);
	m->med_b = stats_median(b, nb);
	m->cv_a = cv_of(a, na);
	m->cv_b = cv_of(b, nb);
	m->p_mw = na < 2 || nb < 2 ? NAN : ab_mann_whitney(a, na, b, nb, NULL);
	m->q = NAN;
	m->lo = m->hi = m->diff_lo = m->diff_hi = m->detectable = m->p = NAN;
	base = fabs(mean_of(a, na));
	if (!m->diff_scale) {
		m->diff = NAN;
		m->change = 100 * (exp(mean_of_log(b, nb) - mean_of_log(a, na)) - 1);
	} else {
		m->diff = mean_of(b, nb) - mean_of(a, na);
		m->change = base > 0 ? 100 * m->diff / base : NAN;
	}
	if (!pooled(a, na, b, nb, !m->diff_scale, &d, &se, &df))
		return 0;	/* one boot a side: the change, nothing more */
	t = stats_t_quantile(0.975, df);
	m->p = t_p(d, se, df);
	/* the effect the test finds with AB_POWER at AB_ALPHA (normal shift
	 * of the t statistic: a close approximation at these df) */
	reach = (stats_t_quantile(1 - AB_ALPHA / 2, df) + stats_t_quantile(AB_POWER, df)) * se;
	if (!m->diff_scale) {
		m->lo = 100 * (exp(d - t * se) - 1);
		m->hi = 100 * (exp(d + t * se) - 1);
		m->detectable = 100 * (exp(reach) - 1);
	} else {
		m->diff_lo = d - t * se;
		m->diff_hi = d + t * se;
		if (base > 0) {
			m->lo = 100 * m->diff_lo / base;
			m->hi = 100 * m->diff_hi / base;
			m->detectable = 100 * reach / base;
		}
	}
	return 0;
}

void ab_judge(struct ab_metric *m, size_t n)
{
	double *p = calloc(n ? n : 1, sizeof(*p)), *q = calloc(n ? n : 1, sizeof(*q));
	size_t i;

	if (!p || !q) {
		free(p);
		free(q);
		for (i = 0; i < n; i++)
			m[i].why = "out of memory";
		return;
	}
	for (i = 0; i < n; i++)
		p[i] = m[i].p;
	ab_bh(p, n, q);
	for (i = 0; i < n; i++) {
		m[i].q = q[i];
		m[i].changed = false;
		if (m[i].na < 2 || m[i].nb < 2)
			m[i].why = "one boot a side gives no significance";
		else if (isnan(m[i].p))
			m[i].why = "not tested: a per-boot value is not a number";
		else if (!(q[i] < AB_FDR))
			m[i].why = "q >= 0.05";
		else if (!(m[i].lo > 0 || m[i].hi < 0))
			m[i].why = "interval spans 0";
		else
			m[i].why = "q < 0.05 and the interval excludes 0";
		m[i].changed = !strcmp(m[i].why, "q < 0.05 and the interval excludes 0");
	}
	free(p);
	free(q);
}
