// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/interval.c, the lab's one source of 95 %
 * intervals, against answers worked out independently: order-statistic
 * ranks from the binomial distribution (R: qbinom), Wilson intervals
 * (R: prop.test(correct = FALSE)), t intervals of a mean (R: t.test) and of
 * a regression slope (R: confint(lm)), the bootstrap ratio's edge cases, and
 * the cluster bootstrap of a quantile against the order-statistic interval
 * (alike when every sample is its own cluster; wider, and covering the true
 * quantile, when the samples of a cluster move together).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "interval.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

LAB_TEST(quantile)
{
	double x[10], big[1000];
	struct ci ci;
	size_t i;

	for (i = 0; i < N(x); i++)
		x[i] = 10 - i;	/* unsorted on purpose: 10..1 */
	tap_eq_int(ci_quantile(x, N(x), 0.5, &ci), 0, "ci_quantile of 10 samples returns 0");
	tap_eq_dbl(ci.lo, 2, 0, "median interval of 1..10: lower end x(2)");
	tap_eq_dbl(ci.hi, 9, 0, "median interval of 1..10: upper end x(9)");
	tap_eq_str(ci.of, "median", "the interval says it is of the median");
	tap_eq_str(ci.method, "order statistics", "and how it was made");
	ci_quantile(x, 5, 0.5, &ci);
	tap_ok(isnan(ci.lo) && isnan(ci.hi), "median of 5 samples: no interval (coverage of [x1,x5] is 93.75%%)");
	ci_quantile(x, 6, 0.5, &ci);
	tap_ok(ci.lo == 5 && ci.hi == 10, "median of 6 samples: [x(1), x(6)] (got [%g, %g])", ci.lo, ci.hi);
	tap_eq_int(ci_quantile_min_n(0.5), 6, "the median needs n >= 6");
	tap_eq_int(ci_quantile_min_n(0.99), 368, "p99 needs n >= 368 (0.99^368 < 0.025)");
	for (i = 0; i < N(big); i++)
		big[i] = i + 1;
	ci_quantile(big, N(big), 0.99, &ci);
	/* P(B <= 982) = 0.0138, P(B <= 983) = 0.0264, P(B <= 995) < 0.975 <= P(B <= 996)
	 * for B ~ Binomial(1000, 0.99): ranks 983 and 997 */
	tap_ok(ci.lo == 983 && ci.hi == 997, "p99 of 1..1000: [x(983), x(997)] (got [%g, %g])", ci.lo, ci.hi);
	tap_eq_str(ci.of, "p99", "and it is named p99");
	x[3] = NAN;
	tap_eq_int(ci_quantile(x, N(x), 0.5, &ci), -EINVAL, "a sample that is not finite is refused");
	tap_eq_int(ci_quantile(big, 10, 1.0, &ci), -EINVAL, "p = 1 is refused");
}

LAB_TEST(wilson)
{
	struct ci ci;

	ci_wilson(0, 10, &ci);
	tap_ok(ci.lo == 0 && fabs(ci.hi - 0.277533) < 1e-5, "Wilson 0/10: [0, 0.2775] (got [%g, %g])", ci.lo, ci.hi);
	ci_wilson(5, 10, &ci);
	tap_ok(fabs(ci.lo - 0.236593) < 1e-5 && fabs(ci.hi - 0.763407) < 1e-5,
	       "Wilson 5/10: [0.2366, 0.7634] (got [%g, %g])", ci.lo, ci.hi);
	ci_wilson(10, 10, &ci);
	tap_ok(fabs(ci.lo - 0.722467) < 1e-5 && ci.hi == 1, "Wilson 10/10: [0.7225, 1] (got [%g, %g])", ci.lo, ci.hi);
	ci_wilson(0, 0, &ci);
	tap_ok(isnan(ci.lo), "Wilson with no trials: no interval, because \"%s\"", ci.method);
}

/*
 * 1000 trials in 10 clusters of 100 with 10 failures: one in each cluster
 * is plain Wilson; all ten in one cluster (one stall) is Wilson on about
 * 99 effective trials (design effect 10.1), a wider interval
 */
LAB_TEST(wilson_clusters)
{
	size_t m[10], spread[10], one[10], i;
	struct ci ci, plain;

	for (i = 0; i < 10; i++) {
		m[i] = 100;
		spread[i] = 99;
		one[i] = i ? 100 : 90;
	}
	ci_wilson(990, 1000, &plain);
	ci_wilson_clusters(spread, m, 10, &ci);
	tap_ok(fabs(ci.lo - plain.lo) < 1e-12 && fabs(ci.hi - plain.hi) < 1e-12,
	       "failures spread over the clusters: plain Wilson [%g, %g] (got [%g, %g])", plain.lo,
	       plain.hi, ci.lo, ci.hi);
	ci_wilson_clusters(one, m, 10, &ci);
	tap_ok(fabs(ci.lo - 0.945149) < 1e-5 && fabs(ci.hi - 0.998245) < 1e-5,
	       "failures in one cluster: Wilson on 1000 / 10.1 trials, [0.9451, 0.9982] (got [%g, %g], %s)",
	       ci.lo, ci.hi, ci.method);
	tap_ok(ci.lo < plain.lo && ci.hi > plain.hi, "clustered failures give the wider interval");
	for (i = 0; i < 10; i++)
		one[i] = 100;
	ci_wilson_clusters(one, m, 10, &ci);
	ci_wilson(1000, 1000, &plain);
	tap_ok(ci.lo == plain.lo && ci.hi == 1, "no failure: plain Wilson, [%g, 1] (got [%g, %g])", plain.lo,
	       ci.lo, ci.hi);
	ci_wilson_clusters(one, m, 4, &ci);
	tap_ok(isnan(ci.lo), "4 clusters: no interval, because \"%s\"", ci.method);
}

LAB_TEST(mean_slope)
{
	const double m[] = { 1, 2, 3, 4, 5 };
	const double y[] = { 2.1, 3.9, 6.2, 7.8, 10.1 }, flat[] = { 1, 1, 1, 1, 1 };
	double b = 0;
	struct ci ci;

	ci_mean(m, N(m), &ci);
	tap_ok(fabs(ci.lo - 1.036757) < 1e-5 && fabs(ci.hi - 4.963243) < 1e-5,
	       "t interval of the mean of 1..5: [1.0368, 4.9632] (got [%g, %g])", ci.lo, ci.hi);
	ci_mean(m, 1, &ci);
	tap_ok(isnan(ci.lo), "mean of one sample: no interval");
	tap_eq_int(ci_slope(m, y, N(m), &b, &ci), 0, "ci_slope fits 5 points");
	tap_eq_dbl(b, 1.99, 1e-9, "slope of the fit");
	tap_ok(fabs(ci.lo - 1.79994) < 1e-4 && fabs(ci.hi - 2.18006) < 1e-4,
	       "slope interval [1.7999, 2.1801] as confint(lm) (got [%g, %g])", ci.lo, ci.hi);
	tap_eq_int(ci_slope(flat, y, N(flat), &b, &ci), -EINVAL, "x all equal: no slope, -EINVAL");
	tap_eq_int(ci_slope(m, y, 2, &b, &ci), -EINVAL, "two points: no interval, -EINVAL");
}

LAB_TEST(ratio)
{
	const double two[] = { 2, 2, 2, 2, 2, 2 }, one[] = { 1, 1, 1, 1, 1, 1 };
	const double a[] = { 10, 11, 9, 10, 12, 10, 9, 11 }, b2[] = { 20, 22, 18, 20, 24, 20, 18, 22 };
	double r = 0;
	struct ci ci;

	tap_eq_int(ci_ratio(two, N(two), one, N(one), 1, &r, &ci), 0, "ci_ratio of constant sides");
	tap_ok(r == 2 && ci.lo == 2 && ci.hi == 2, "2 against 1: ratio 2 in [2, 2] (got %g [%g, %g])", r, ci.lo, ci.hi);
	ci_ratio(b2, N(b2), a, N(a), 7, &r, &ci);
	tap_ok(fabs(r - 2) < 1e-12 && ci.lo <= 2 && ci.hi >= 2 && ci.lo > 1.5 && ci.hi < 2.5,
	       "a side scaled by 2: ratio 2, interval around it (got %g [%g, %g])", r, ci.lo, ci.hi);
	tap_eq_int(ci_ratio(two, N(two), one, 0, 1, &r, &ci), -EINVAL, "an empty side is refused");
	ci_ratio(two, 1, one, N(one), 1, &r, &ci);
	tap_ok(isnan(ci.lo), "one sample on a side: ratio without interval (\"%s\")", ci.method);
}

LAB_TEST(quantile_clusters)
{
	static double x[1000];
	static size_t cl[1000];
	double q = 0, lo0, hi0;
	struct ci ci, os;
	size_t i;
	int rc;

	for (i = 0; i < N(x); i++) {
		x[i] = (double)(N(x) - i);
		cl[i] = i;
	}
	tap_eq_int(ci_quantile_clusters(x, cl, N(x), N(x), 0.5, 1, &q, &ci), 0,
		   "every sample its own cluster: returns 0");
	ci_quantile(x, N(x), 0.5, &os);
	tap_ok(q == 500.5, "the estimate is the type-7 median of 1..1000, 500.5 (got %g)", q);
	tap_ok(fabs(ci.lo - os.lo) <= 15 && fabs(ci.hi - os.hi) <= 15,
	       "and its interval is near the order-statistic one [%g, %g] (got [%g, %g])", os.lo,
	       os.hi, ci.lo, ci.hi);
	tap_eq_str(ci.method, "cluster bootstrap", "the interval names its method");
	lo0 = ci.lo;
	hi0 = ci.hi;
	ci_quantile_clusters(x, cl, N(x), N(x), 0.5, 1, &q, &ci);
	tap_ok(ci.lo == lo0 && ci.hi == hi0, "the same seed gives the same interval");

	/* 10 clusters of 100 equal samples: 10 observations, not 1000 */
	for (i = 0; i < N(x); i++) {
		cl[i] = i / 100;
		x[i] = (double)(cl[i] + 1);
	}
	ci_quantile(x, N(x), 0.5, &os);
	ci_quantile_clusters(x, cl, N(x), 10, 0.5, 2, &q, &ci);
	tap_ok(ci.lo <= 4 && ci.hi >= 7 && os.lo >= 5 && os.hi <= 6,
	       "clusters of equal samples: the interval is wide [%g, %g] where the order statistics "
	       "take 1000 samples at their word [%g, %g]", ci.lo, ci.hi, os.lo, os.hi);
	rc = ci_quantile_clusters(x, cl, 400, 4, 0.5, 2, &q, &ci);
	tap_ok(rc == 0 && isnan(ci.lo) && q == 2.5,
	       "4 clusters: the estimate (%g) without an interval (\"%s\")", q, ci.method);
	cl[0] = 10;
	tap_eq_int(ci_quantile_clusters(x, cl, N(x), 10, 0.5, 2, &q, &ci), -EINVAL,
		   "a cluster number out of range is refused");
	cl[0] = 0;
	tap_eq_int(ci_quantile_clusters(x, cl, N(x), 11, 0.5, 2, &q, &ci), -EINVAL,
		   "a cluster without samples is refused");
	x[5] = NAN;
	tap_eq_int(ci_quantile_clusters(x, cl, N(x), 10, 0.5, 2, &q, &ci), -EINVAL,
		   "a sample that is not finite is refused");
}

/* A standard normal variate (Box-Muller) */
static double normal(struct fuzz_rng *g)
{
	double u = ((double)(fuzz_next(g) >> 11) + 0.5) / 9007199254740992.0;
	double v = (double)(fuzz_next(g) >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * 20 clusters of 50 samples, each a cluster's shift plus its own noise, both
 * N(0, 1): the true median is 0, and half the variance is shared inside a
 * cluster. Over 100 such data sets the cluster bootstrap covers 0 about 95 %
 * of the time; the order statistics, taking 1000 samples at their word, far
 * less.
 */
LAB_TEST(quantile_clusters_coverage)
{
	static double x[1000];
	static size_t cl[1000];
	int sims = 100, k, cov = 0, cov_os = 0;
	struct fuzz_rng g;
	struct ci ci, os;
	double q, shift = 0;
	size_t i;

	fuzz_seed(&g, 42);
	for (k = 0; k < sims; k++) {
		for (i = 0; i < N(x); i++) {
			cl[i] = i / 50;
			if (i % 50 == 0)
				shift = normal(&g);
			x[i] = shift + normal(&g);
		}
		ci_quantile_clusters(x, cl, N(x), 20, 0.5, (uint64_t)k, &q, &ci);
		ci_quantile(x, N(x), 0.5, &os);
		cov += ci.lo <= 0 && ci.hi >= 0;
		cov_os += os.lo <= 0 && os.hi >= 0;
	}
	tap_ok(cov >= 85, "cluster bootstrap: the true median inside the interval in %d of %d "
	       "clustered data sets (at least 85)", cov, sims);
	tap_ok(cov_os < 60, "order statistics on the same: %d of %d (fewer than 60: they ignore the "
	       "clusters)", cov_os, sims);
}

/*
 * Two senders of the same latencies, 10 rounds of 50 samples a side, each
 * round a shift plus its own noise (100 + 10 N(0, 1) + 10 N(0, 1)): the true
 * ratio of medians is 1. Resampling the rounds covers 1 in about 95 % of
 * 100 such pairs; resampling the samples, taking 500 a side at their word,
 * far less.
 */
LAB_TEST(ratio_clusters_coverage)
{
	static double a[500], b[500];
	static size_t ca[500], cb[500];
	int sims = 100, k, cov = 0, cov_plain = 0;
	double r, sa = 0, sb = 0;
	struct fuzz_rng g;
	struct ci ci, plain;
	size_t i;

	fuzz_seed(&g, 7);
	for (k = 0; k < sims; k++) {
		for (i = 0; i < N(a); i++) {
			ca[i] = cb[i] = i / 50;
			if (i % 50 == 0) {
				sa = 10 * normal(&g);
				sb = 10 * normal(&g);
			}
			a[i] = 100 + sa + 10 * normal(&g);
			b[i] = 100 + sb + 10 * normal(&g);
		}
		ci_ratio_clusters(a, ca, N(a), 10, b, cb, N(b), 10, (uint64_t)k, &r, &ci);
		ci_ratio(a, N(a), b, N(b), (uint64_t)k, &r, &plain);
		cov += ci.lo <= 1 && ci.hi >= 1;
		cov_plain += plain.lo <= 1 && plain.hi >= 1;
	}
	tap_ok(cov >= 85, "ratio, rounds resampled: 1 inside the interval in %d of %d pairs (at least 85)",
	       cov, sims);
	tap_ok(cov_plain < 70, "ratio, samples resampled: %d of %d (fewer than 70: it ignores the rounds)",
	       cov_plain, sims);
	tap_eq_int(ci_ratio_clusters(a, ca, N(a), 4, b, cb, N(b), 10, 1, &r, &ci), -EINVAL,
		   "a cluster number out of range is refused");
	for (i = 0; i < N(a); i++)
		ca[i] = i / 125;
	ci_ratio_clusters(a, ca, N(a), 4, b, cb, N(b), 10, 1, &r, &ci);
	tap_ok(isnan(ci.lo) && isfinite(r), "4 rounds a side: the ratio (%g) without an interval (\"%s\")", r,
	       ci.method);
}

LAB_TEST_MAIN()
