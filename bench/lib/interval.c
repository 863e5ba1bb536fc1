// SPDX-License-Identifier: GPL-2.0
/* 95 % confidence intervals; see interval.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "abstat.h"
#include "fuzz.h"
#include "interval.h"
#include "stats.h"

#define Z95 1.959963984540054

static void none(struct ci *ci, const char *of, const char *why)
{
	ci->lo = ci->hi = NAN;
	ci->of = of;
	ci->method = why;
}

/* log of the Binomial(n, p) probability of k */
static double binom_logpmf(size_t n, size_t k, double p)
{
	return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) +
	       k * log(p) + (n - k) * log1p(-p);
}

/*
 * Ranks (1-based) l and u of the order statistics that bracket the @p
 * quantile with coverage >= 95 %: l the largest with P(B <= l - 1) <= 0.025,
 * u the smallest with P(B <= u - 1) >= 0.975, B ~ Binomial(n, p); then
 * P(x(l) <= q <= x(u)) >= P(l <= B <= u - 1) >= 0.95. Returns false when
 * the ranks fall outside 1..n (n too small).
 */
static bool quantile_ranks(size_t n, double p, size_t *l, size_t *u)
{
	double sd = sqrt(n * p * (1 - p)), from = floor(n * p - 12 * sd - 12), cdf = 0;
	size_t k = from > 0 ? (size_t)from : 0;
	bool have_l = false;

	/* below k the mass is < 1e-30: B <= k - 1 counts as 0 */
	*l = k;		/* rank k means P(B <= k - 1) ~ 0 <= 0.025 */
	for (; k <= n; k++) {
		cdf += exp(binom_logpmf(n, k, p));	/* P(B <= k) */
		if (!have_l && cdf > 0.025) {
			*l = k;		/* P(B <= k - 1) <= 0.025 < P(B <= k) */
			have_l = true;
		}
		if (cdf >= 0.975) {
			*u = k + 1;	/* P(B <= u - 1) >= 0.975 */
			return *l >= 1 && *u <= n;
		}
	}
	return false;
}

size_t ci_quantile_min_n(double p)
{
	size_t n, l, u;

	for (n = 2; n < 100000000; n += n < 1000 ? 1 : n / 1000)
		if (quantile_ranks(n, p, &l, &u))
			return n;
	return SIZE_MAX;
}

static const char *quantile_name(double p)
{
	if (p == 0.5)
		return "median";
	if (p == 0.99)
		return "p99";
	if (p == 0.9)
		return "p90";
	return "quantile";
}

void ci_quantile_sorted(const double *sorted, size_t n, double p, struct ci *ci)
{
	size_t l, u;

	if (!n || !quantile_ranks(n, p, &l, &u)) {
		none(ci, quantile_name(p), "too few samples for an order-statistic interval");
		return;
	}
	ci->lo = sorted[l - 1];
	ci->hi = sorted[u - 1];
	ci->of = quantile_name(p);
	ci->method = "order statistics";
}

int ci_quantile(const double *x, size_t n, double p, struct ci *ci)
{
	double *s;
	size_t i;

	if (!(p > 0 && p < 1))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp_double);
	ci_quantile_sorted(s, n, p, ci);
	free(s);
	return 0;
}

/* Wilson's interval of the fraction @f of @n trials (n may be an effective, fractional one) */
static void wilson(double f, double n, struct ci *ci)
{
	double z2 = Z95 * Z95, c, h;

	c = (f + z2 / (2.0 * n)) / (1 + z2 / n);
	h = Z95 / (1 + z2 / n) * sqrt(f * (1 - f) / n + z2 / (4.0 * n * n));
	ci->lo = f <= 0 ? 0 : fmax(0, c - h);
	ci->hi = f >= 1 ? 1 : fmin(1, c + h);
	ci->of = "fraction";
}

void ci_wilson(size_t k, size_t n, struct ci *ci)
{
	if (!n || k > n) {
		none(ci, "fraction", "no trials");
		return;
	}
	wilson((double)k / n, (double)n, ci);
	ci->method = "Wilson";
}

void ci_wilson_clusters(const size_t *k, const size_t *m, size_t nclusters, struct ci *ci)
{
	double K = 0, N = 0, f, v = 0, deff = 1;
	size_t c, used = 0;

	for (c = 0; c < nclusters; c++) {
		if (k[c] > m[c]) {
			none(ci, "fraction", "a cluster with more successes than trials");
			return;
		}
		K += (double)k[c];
		N += (double)m[c];
		used += m[c] > 0;
	}
	if (used < CI_CLUSTERS_MIN) {
		none(ci, "fraction", "fewer than 5 clusters with trials");
		return;
	}
	f = K / N;
	if (f > 0 && f < 1) {
		for (c = 0; c < nclusters; c++)
			v += ((double)k[c] - f * (double)m[c]) * ((double)k[c] - f * (double)m[c]);
		/* the clusters' variance of f (ratio estimator) over the binomial one */
		v = v * (double)used / (double)(used - 1) / (N * N);
		deff = fmax(1, v / (f * (1 - f) / N));
	}
	wilson(f, N / deff, ci);
	ci->method = "Wilson, clusters' design effect";
}

void ci_mean(const double *x, size_t n, struct ci *ci)
{
	double m = 0, ss = 0, half;
	size_t i;

	if (n < 2) {
		none(ci, "mean", "fewer than 2 samples");
		return;
	}
	for (i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	half = stats_t_quantile(0.975, n - 1) * sqrt(ss / (n - 1) / n);
	ci->lo = m - half;
	ci->hi = m + half;
	ci->of = "mean";
	ci->method = "t";
}

int ci_slope(const double *x, const double *y, size_t n, double *slope, struct ci *ci)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, sse = 0, b, a, half;
	size_t i;

	if (n < 3)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (!(sxx > 0))
		return -EINVAL;
	b = sxy / sxx;
	a = my - b * mx;
	for (i = 0; i < n; i++) {
		double r = y[i] - a - b * x[i];

		sse += r * r;
	}
	half = stats_t_quantile(0.975, n - 2) * sqrt(sse / (n - 2) / sxx);
	*slope = b;
	ci->lo = b - half;
	ci->hi = b + half;
	ci->of = "slope";
	ci->method = "t";
	return 0;
}

int ci_ratio(const double *num, size_t nnum, const double *den, size_t nden,
	     uint64_t seed, double *ratio, struct ci *ci)
{
	double change, lo, hi;
	int err;

	err = ab_bootstrap(den, nden, num, nnum, CI_BOOTSTRAP_REPS, seed, &change, &lo, &hi);
	if (err)
		return err;
	*ratio = 1 + change / 100;
	if (nnum < 2 || nden < 2) {
		none(ci, "ratio of medians", "fewer than 2 samples a side");
		return 0;
	}
	ci->lo = 1 + lo / 100;
	ci->hi = 1 + hi / 100;
	ci->of = "ratio of medians";
	ci->method = "bootstrap";
	return 0;
}

/* Samples grouped by cluster, each cluster's sorted, and all of them sorted */
struct clustered {
	double *v;	/* cluster j: v[off[j]] .. v[off[j + 1] - 1], ascending */
	size_t *off;
	double *all;
	size_t n, k;
};

/* How many samples of a resample (@cnt[j]: the draws of cluster j) are <= @v */
static size_t resample_count_le(const struct clustered *c, const unsigned int *cnt, double v)
{
	size_t j, total = 0;

	for (j = 0; j < c->k; j++) {
		size_t lo = c->off[j], hi = c->off[j + 1];

		if (!cnt[j])
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (c->v[mid] <= v)
				lo = mid + 1;
			else
				hi = mid;
		}
		total += cnt[j] * (lo - c->off[j]);
	}
	return total;
}

/* The order statistic of rank @r (0-based) of a resample: the smallest sample
 * value with more than r of the resample's samples at or below it */
static double resample_rank(const struct clustered *c, const unsigned int *cnt, size_t r)
{
	size_t lo = 0, hi = c->n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (resample_count_le(c, cnt, c->all[mid]) > r)
			hi = mid;
		else
			lo = mid + 1;
	}
	return c->all[lo];
}

/* The @p quantile (type 7) of a resample of @total samples */
static double resample_quantile(const struct clustered *c, const unsigned int *cnt,
				size_t total, double p)
{
	double h = (total - 1) * p, lo = floor(h), a = resample_rank(c, cnt, (size_t)lo);

	if (h == lo || (size_t)lo + 1 >= total)
		return a;
	return a + (h - lo) * (resample_rank(c, cnt, (size_t)lo + 1) - a);
}

static int clustered_make(struct clustered *c, const double *x, const size_t *cluster, size_t n,
			  size_t k)
{
	size_t i, j, *fill;

	c->n = n;
	c->k = k;
	c->v = malloc(n * sizeof(*c->v));
	c->all = malloc(n * sizeof(*c->all));
	c->off = calloc(k + 1, sizeof(*c->off));
	fill = calloc(k, sizeof(*fill));
	if (!c->v || !c->all || !c->off || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		c->off[cluster[i] + 1]++;
	for (j = 0; j < k; j++) {
		if (!c->off[j + 1]) {
			free(fill);
			return -EINVAL;	/* an empty cluster */
		}
		c->off[j + 1] += c->off[j];
	}
	for (i = 0; i < n; i++)
		c->v[c->off[cluster[i]] + fill[cluster[i]]++] = x[i];
	for (j = 0; j < k; j++)
		qsort(c->v + c->off[j], c->off[j + 1] - c->off[j], sizeof(*c->v), stats_cmp_double);
	memcpy(c->all, x, n * sizeof(*x));
	qsort(c->all, n, sizeof(*c->all), stats_cmp_double);
	free(fill);
	return 0;
}

int ci_quantile_clusters(const double *x, const size_t *cluster, size_t n, size_t nclusters,
			 double p, uint64_t seed, double *q, struct ci *ci)
{
	struct clustered c = { 0 };
	double *rep = NULL;
	unsigned int *cnt = NULL, r;
	struct fuzz_rng g;
	size_t i;
	int err;

	if (!(p > 0 && p < 1) || !n || !nclusters)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]) || cluster[i] >= nclusters)
			return -EINVAL;
	err = clustered_make(&c, x, cluster, n, nclusters);
	if (err)
		goto out;
	*q = stats_percentile_sorted(c.all, n, p);
	if (nclusters < CI_CLUSTERS_MIN) {
		none(ci, quantile_name(p), "fewer than 5 clusters for a cluster bootstrap");
		goto out;
	}
	rep = malloc(CI_BOOTSTRAP_REPS * sizeof(*rep));
	cnt = malloc(nclusters * sizeof(*cnt));
	err = -ENOMEM;
	if (!rep || !cnt)
		goto out;
	err = 0;
	fuzz_seed(&g, seed);
	for (r = 0; r < CI_BOOTSTRAP_REPS; r++) {
		size_t total = 0, j;

		memset(cnt, 0, nclusters * sizeof(*cnt));
		for (i = 0; i < nclusters; i++) {
			j = (size_t)fuzz_below(&g, nclusters);
			cnt[j]++;
			total += c.off[j + 1] - c.off[j];
		}
		rep[r] = resample_quantile(&c, cnt, total, p);
	}
	qsort(rep, CI_BOOTSTRAP_REPS, sizeof(*rep), stats_cmp_double);
	ci->lo = stats_percentile_sorted(rep, CI_BOOTSTRAP_REPS, 0.025);
	ci->hi = stats_percentile_sorted(rep, CI_BOOTSTRAP_REPS, 0.975);
	ci->of = quantile_name(p);
	ci->method = "cluster bootstrap";
out:
	free(c.v);
	free(c.off);
	free(c.all);
	free(rep);
	free(cnt);
	return err;
}

int ci_ratio_clusters(const double *num, const size_t *cnum, size_t nnum, size_t knum,
		      const double *den, const size_t *cden, size_t nden, size_t kden,
		      uint64_t seed, double *ratio, struct ci *ci)
{
	struct clustered a = { 0 }, b = { 0 };
	unsigned int *ca = NULL, *cb = NULL, r;
	double *rep = NULL, md;
	struct fuzz_rng g;
	size_t i;
	int err = -EINVAL;

	if (!nnum || !nden || !knum || !kden)
		return -EINVAL;
	for (i = 0; i < nnum; i++)
		if (!isfinite(num[i]) || cnum[i] >= knum)
			return -EINVAL;
	for (i = 0; i < nden; i++)
		if (!isfinite(den[i]) || cden[i] >= kden)
			return -EINVAL;
	err = clustered_make(&a, num, cnum, nnum, knum);
	if (!err)
		err = clustered_make(&b, den, cden, nden, kden);
	if (err)
		goto out;
	md = stats_percentile_sorted(b.all, nden, 0.5);
	if (md == 0) {
		err = -EINVAL;
		goto out;
	}
	*ratio = stats_percentile_sorted(a.all, nnum, 0.5) / md;
	if (knum < CI_CLUSTERS_MIN || kden < CI_CLUSTERS_MIN) {
		none(ci, "ratio of medians", "fewer than 5 clusters a side for a cluster bootstrap");
		goto out;
	}
	rep = malloc(CI_BOOTSTRAP_REPS * sizeof(*rep));
	ca = malloc(knum * sizeof(*ca));
	cb = malloc(kden * sizeof(*cb));
	err = -ENOMEM;
	if (!rep || !ca || !cb)
		goto out;
	err = 0;
	fuzz_seed(&g, seed);
	for (r = 0; r < CI_BOOTSTRAP_REPS; r++) {
		size_t ta = 0, tb = 0, j;

		memset(ca, 0, knum * sizeof(*ca));
		memset(cb, 0, kden * sizeof(*cb));
		for (i = 0; i < knum; i++) {
			j = (size_t)fuzz_below(&g, knum);
			ca[j]++;
			ta += a.off[j + 1] - a.off[j];
		}
		for (i = 0; i < kden; i++) {
			j = (size_t)fuzz_below(&g, kden);
			cb[j]++;
			tb += b.off[j + 1] - b.off[j];
		}
		md = resample_quantile(&b, cb, tb, 0.5);
		rep[r] = md != 0 ? resample_quantile(&a, ca, ta, 0.5) / md : NAN;
	}
	for (r = 0; r < CI_BOOTSTRAP_REPS; r++)
		if (isnan(rep[r])) {
			none(ci, "ratio of medians", "a resample's median of the denominator was 0");
			goto out;
		}
	qsort(rep, CI_BOOTSTRAP_REPS, sizeof(*rep), stats_cmp_double);
	ci->lo = stats_percentile_sorted(rep, CI_BOOTSTRAP_REPS, 0.025);
	ci->hi = stats_percentile_sorted(rep, CI_BOOTSTRAP_REPS, 0.975);
	ci->of = "ratio of medians";
	ci->method = "cluster bootstrap";
out:
	free(a.v);
	free(a.off);
	free(a.all);
	free(b.v);
	free(b.off);
	free(b.all);
	free(rep);
	free(ca);
	free(cb);
	return err;
}
