// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/stats.c: summary statistics, percentile definition,
 * Student's t distribution against table values and closed forms.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "stats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

LAB_TEST(summary)
{
	const double x[] = { 4, 2, 9, 1, 10, 7, 3, 8, 6, 5 };	/* 1..10 shuffled */
	struct stats st;

	tap_eq_int(stats_compute(x, N(x), &st), 0, "stats of 1..10: returns 0");
	tap_eq_int((long long)st.n, 10, "stats of 1..10: n");
	tap_eq_dbl(st.mean, 5.5, 1e-12, "stats of 1..10: mean");
	tap_eq_dbl(st.median, 5.5, 1e-12, "stats of 1..10: median is the mean of the middle two");
	tap_eq_dbl(st.stddev, 3.0276503540974917, 1e-12, "stats of 1..10: sample stddev (n - 1)");
	tap_eq_dbl(st.min, 1, 0, "stats of 1..10: min");
	tap_eq_dbl(st.max, 10, 0, "stats of 1..10: max");
	tap_eq_dbl(st.p99, 9.91, 1e-12, "stats of 1..10: p99 interpolated between ranks 9 and 10");
	tap_eq_dbl(st.cv, 3.0276503540974917 / 5.5, 1e-12, "stats of 1..10: cv = stddev / mean");
	tap_eq_dbl(x[0], 4, 0, "stats_compute leaves the samples unsorted");
}

LAB_TEST(edges)
{
	const double odd[] = { 3, 1, 2 }, same[] = { 5, 5, 5, 5 }, one[] = { 42 };
	const double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 }, zero[] = { -1, 1 };
	const double bad[] = { 1, NAN, 3 }, inf[] = { 1, INFINITY };
	const double sorted[] = { 10, 20, 30, 40 };
	struct stats st;

	stats_compute(odd, N(odd), &st);
	tap_eq_dbl(st.median, 2, 0, "median of an odd count is the middle sample");
	stats_compute(same, N(same), &st);
	tap_ok(st.stddev == 0 && st.cv == 0 && st.p99 == 5,
	       "zero variance: stddev 0, cv 0, p99 the value");
	stats_compute(one, N(one), &st);
	tap_ok(st.n == 1 && st.stddev == 0 && st.median == 42 && st.p99 == 42 &&
	       st.min == 42 && st.max == 42, "one sample: stddev 0, every statistic the sample");
	stats_compute(big, N(big), &st);
	tap_eq_dbl(st.stddev, 1, 1e-9, "stddev of 1e9+1..3 keeps its precision");
	stats_compute(zero, N(zero), &st);
	tap_ok(isinf(st.cv), "cv is +inf when the mean is 0 and stddev is not");
	tap_eq_int(stats_compute(odd, 0, &st), -EINVAL, "no samples: -EINVAL");
	tap_eq_int(stats_compute(bad, N(bad), &st), -EINVAL, "a NaN sample: -EINVAL");
	tap_eq_int(stats_compute(inf, N(inf), &st), -EINVAL, "an infinite sample: -EINVAL");
	tap_eq_dbl(stats_percentile_sorted(sorted, 4, 0), 10, 0, "percentile 0 is the min");
	tap_eq_dbl(stats_percentile_sorted(sorted, 4, 1), 40, 0, "percentile 1 is the max");
	tap_eq_dbl(stats_percentile_sorted(sorted, 4, 0.25), 17.5, 1e-12,
		   "percentile 0.25 of 10,20,30,40 is 17.5 (type 7)");
}

LAB_TEST(warmup)
{
	const double x[] = { 100, 90, 1, 2, 3 };
	const double *k;
	size_t n = N(x);

	k = stats_drop_warmup(x, &n, 2);
	tap_ok(n == 3 && k[0] == 1, "drop 2 warm-up samples of 5: 3 left, starting at the third");
	n = N(x);
	k = stats_drop_warmup(x, &n, 9);
	tap_ok(n == 0 && k == x + N(x), "drop more warm-up samples than there are: none left");
}

LAB_TEST(t_distribution)
{
	/* two-sided 95 % critical values, and two other quantiles, from t tables */
	static const struct { double p, df, t; } tab[] = {
		{ 0.975, 1, 12.706204736174698 },
		{ 0.975, 2, 4.302652729749464 },
		{ 0.975, 5, 2.570581835636314 },
		{ 0.975, 10, 2.228138851986273 },
		{ 0.975, 30, 2.042272456301238 },
		{ 0.975, 120, 1.979930405052777 },
		{ 0.975, 1e7, 1.959964 },
		{ 0.995, 3, 5.840909309733355 },
		{ 0.95, 4, 2.131846786326649 },
		{ 0.025, 5, -2.570581835636314 },
	};
	char what[96];
	size_t i;

	for (i = 0; i < N(tab); i++) {
		snprintf(what, sizeof(what), "t quantile(%g, df %g) = %.6f", tab[i].p, tab[i].df,
			 tab[i].t);
		tap_eq_dbl(stats_t_quantile(tab[i].p, tab[i].df), tab[i].t, 1e-6, what);
	}
	tap_eq_dbl(stats_t_quantile(0.5, 7), 0, 0, "t quantile(0.5) is 0");
	tap_ok(isnan(stats_t_quantile(1, 7)) && isnan(stats_t_quantile(0.9, 0)),
	       "t quantile of p = 1 or df = 0 is NaN");
	/* closed forms: df 1 is Cauchy, df 2 has cdf 1/2 + t / (2 sqrt(2 + t^2)) */
	tap_eq_dbl(stats_t_cdf(1, 1), 0.75, 1e-12, "t cdf(1, df 1) = 1/2 + atan(1)/pi");
	tap_eq_dbl(stats_t_cdf(-3, 1), 0.5 + atan(-3) / M_PI, 1e-12, "t cdf(-3, df 1), Cauchy");
	tap_eq_dbl(stats_t_cdf(1.5, 2), 0.5 + 1.5 / (2 * sqrt(2 + 2.25)), 1e-12,
		   "t cdf(1.5, df 2), closed form");
	tap_eq_dbl(stats_t_cdf(0, 3.5), 0.5, 1e-15, "t cdf(0) is 1/2 for fractional df");
	tap_eq_dbl(stats_betainc(3.7, 3.7, 0.5), 0.5, 1e-12, "I_0.5(a, a) = 1/2");
	tap_eq_dbl(stats_betainc(2.5, 1, 0.3), pow(0.3, 2.5), 1e-12, "I_x(a, 1) = x^a");
	tap_eq_dbl(stats_betainc(1, 1, 0.37), 0.37, 1e-12, "I_x(1, 1) = x");
}

LAB_TEST_MAIN()
