// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/interval.c, the lab's one source of 95 %
 * intervals, against answers worked out independently: order-statistic
 * ranks from the binomial distribution (R: qbinom), Wilson intervals
 * (R: prop.test(correct = FALSE)), t intervals of a mean (R: t.test) and of
 * a regression slope (R: confint(lm)), and the bootstrap ratio's edge cases.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

LAB_TEST_MAIN()
