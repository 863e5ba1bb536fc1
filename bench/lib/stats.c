// SPDX-License-Identifier: GPL-2.0
/* Summary statistics and Student's t distribution; see stats.h for the definitions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);

	if (lo >= n - 1)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

double stats_percentile(const double *x, size_t n, double p)
{
	double *s, v;

	if (!n || !(s = malloc(n * sizeof(*s))))
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp_double);
	v = stats_percentile_sorted(s, n, p);
	free(s);
	return v;
}

double stats_median(const double *x, size_t n)
{
	return stats_percentile(x, n, 0.5);
}

int stats_compute(const double *x, size_t n, struct stats *st)
{
	double sum = 0, dev = 0, dev2 = 0, *s;
	size_t i;

	if (n == 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -EINVAL;
		sum += x[i];
	}
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp_double);

	st->n = n;
	st->mean = sum / (double)n;
	/* corrected two-pass algorithm: exact when the mean is off by rounding */
	for (i = 0; i < n; i++) {
		dev += x[i] - st->mean;
		dev2 += (x[i] - st->mean) * (x[i] - st->mean);
	}
	st->stddev = n > 1 ? sqrt(fmax(0, (dev2 - dev * dev / (double)n) / (double)(n - 1))) : 0;
	st->min = s[0];
	st->max = s[n - 1];
	st->median = stats_percentile_sorted(s, n, 0.5);
	st->p99 = stats_percentile_sorted(s, n, 0.99);
	if (st->stddev == 0)
		st->cv = 0;
	else if (st->mean == 0)
		st->cv = INFINITY;
	else
		st->cv = st->stddev / fabs(st->mean);
	free(s);
	return 0;
}

const double *stats_drop_warmup(const double *x, size_t *n, size_t warmup)
{
	size_t drop = warmup < *n ? warmup : *n;

	*n -= drop;
	return x + drop;
}

/*
 * Continued fraction of the incomplete beta function, evaluated with the
 * modified Lentz method (Numerical Recipes 6.4, DLMF 8.17.22).
 */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 100000; m++) {
		double m2 = 2.0 * m, num, del;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* I_x(a, b) with y = 1 - x passed in so that it keeps its precision. */
static double betainc_xy(double a, double b, double x, double y)
{
	double front;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(y));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, y) / b;
}

double stats_betainc(double a, double b, double x)
{
	return betainc_xy(a, b, x, 1 - x);
}

/* P(|T| > |t|) for T ~ t(df): I_{df/(df+t^2)}(df/2, 1/2) */
static double t_two_sided(double t, double df)
{
	double t2 = t * t;

	if (isinf(t))
		return 0;
	return betainc_xy(df / 2, 0.5, df / (df + t2), t2 / (df + t2));
}

double stats_t_cdf(double t, double df)
{
	double tail = t_two_sided(t, df) / 2;

	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double q = p > 0.5 ? p : 1 - p, lo = 0, hi = 1;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	/* the upper tail 1 - q = P(T > t) = two_sided(t) / 2 falls with t */
	while (t_two_sided(hi, df) / 2 > 1 - q && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 2000 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (t_two_sided(mid, df) / 2 > 1 - q)
			lo = mid;
		else
			hi = mid;
	}
	return p > 0.5 ? (lo + hi) / 2 : -(lo + hi) / 2;
}
