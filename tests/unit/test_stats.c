// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/stats.c: summary statistics, percentile definition,
 * Student's t distribution against table values, Welch's t-test against the
 * three worked examples of Welch's test on Wikipedia (reference values
 * computed independently by numeric integration of the t density).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "stats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_summary(void)
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

static void test_edges(void)
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

static void test_warmup(void)
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

static void test_t_distribution(void)
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

static void welch_example(const char *name, const double *a, size_t na, const double *b,
			  size_t nb, double t, double df, double p, int sig)
{
	struct stats sa, sb;
	struct welch w;
	char what[128];

	stats_compute(a, na, &sa);
	stats_compute(b, nb, &sb);
	stats_welch(sa.mean, sa.stddev, sa.n, sb.mean, sb.stddev, sb.n, &w);
	snprintf(what, sizeof(what), "Welch %s: t", name);
	tap_eq_dbl(w.t, t, 1e-9, what);
	snprintf(what, sizeof(what), "Welch %s: Welch-Satterthwaite df", name);
	tap_eq_dbl(w.df, df, 1e-9, what);
	snprintf(what, sizeof(what), "Welch %s: two-sided p", name);
	tap_eq_dbl(w.p, p, 1e-6, what);
	snprintf(what, sizeof(what), "Welch %s: significant at 95 %%", name);
	tap_eq_int(w.significant, sig, what);
}

static void test_welch(void)
{
	static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
				     23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double b1[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
				     21.9, 22.1, 22.9, 20.5, 24.4 };
	static const double a2[] = { 17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8 };
	static const double b2[] = { 21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8,
				     20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5, 23.5, 21.5, 21.8 };
	static const double a3[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 };
	static const double b3[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
				     23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };
	struct welch w;

	welch_example("example 1", a1, N(a1), b1, N(b1),
		      2.455356398286006, 24.98852929023142, 0.02137800146286195, 1);
	welch_example("example 2", a2, N(a2), b2, N(b2),
		      1.5654335235985073, 9.904741248650831, 0.14884169660532565, 0);
	welch_example("example 3", a3, N(a3), b3, N(b3),
		      2.225512039969852, 24.524634944257343, 0.03548453083001313, 1);

	stats_welch(100, 1, 10, 90, 1, 10, &w);
	tap_ok(w.significant && w.t < 0, "Welch: 10 %% lower, 1 %% noise, n 10: significant, t < 0");
	stats_welch(100, 10, 5, 101, 10, 5, &w);
	tap_ok(!w.significant, "Welch: 1 %% apart, 10 %% noise, n 5: not significant");
	stats_welch(5, 0, 4, 5, 0, 6, &w);
	tap_ok(!w.significant && w.t == 0 && w.p == 1 && w.df == 8,
	       "Welch: zero variance, equal means: not significant, p 1, df n_a + n_b - 2");
	stats_welch(5, 0, 4, 6, 0, 6, &w);
	tap_ok(w.significant && isinf(w.t) && w.p == 0,
	       "Welch: zero variance, different means: significant, p 0");
	stats_welch(5, 0, 4, 6, 2, 6, &w);
	tap_eq_dbl(w.df, 5, 1e-12, "Welch: one side without variance: df = other n - 1");
	tap_eq_int(stats_welch(1, 1, 1, 2, 1, 5, &w), -EINVAL, "Welch: n 1 is rejected");
	tap_eq_int(stats_welch(1, -1, 3, 2, 1, 5, &w), -EINVAL, "Welch: negative stddev rejected");
}

int main(void)
{
	test_summary();
	test_edges();
	test_warmup();
	test_t_distribution();
	test_welch();
	return tap_finish();
}
