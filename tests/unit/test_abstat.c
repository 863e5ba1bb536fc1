// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/abstat.c, the statistics of replicated A/B
 * comparisons: the exact Mann-Whitney test against counted and published
 * answers (R's wilcox.test example), Benjamini-Hochberg against
 * p.adjust(method = "BH"), the bootstrap interval's edges, two fixture
 * families of per-boot medians: an A/A one that must yield no discovery and
 * one with planted changes that must yield exactly those; the coverage of
 * the %change's interval on simulated A/A pairs, the difference scale, the
 * normal approximation's tie correction and the smallest detectable change.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "abstat.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

LAB_TEST(mann_whitney)
{
	const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	const double a4[] = { 1, 2, 3, 4 }, b4[] = { 5, 6, 7, 8 };
	/* R: wilcox.test(x, y, alternative = "greater") gives W = 35, p = 0.1272 */
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double u;

	tap_eq_dbl(ab_mann_whitney(a3, 3, b3, 3, &u), 2.0 / 20, 1e-12,
		   "Mann-Whitney 3 vs 3 fully separated: p = 2/C(6,3), its least value");
	tap_eq_dbl(u, 0, 0, "Mann-Whitney 3 vs 3: U of A is 0 when every A is below every B");
	tap_eq_dbl(ab_mann_whitney(a4, 4, b4, 4, NULL), 2.0 / 70, 1e-12,
		   "Mann-Whitney 4 vs 4 fully separated: p = 2/C(8,4)");
	tap_eq_dbl(ab_mann_whitney(x, N(x), y, N(y), &u), 0.2544, 0.0001,
		   "Mann-Whitney on R's wilcox.test example: two-sided p 0.2544");
	tap_eq_dbl(u, 35, 0, "Mann-Whitney on R's example: U (R's W) = 35");
	tap_eq_dbl(ab_mann_whitney(a3, 3, a3, 3, NULL), 1, 1e-12,
		   "Mann-Whitney of a side against itself: p = 1");
	tap_ok(isnan(ab_mann_whitney(a3, 0, b3, 3, NULL)), "Mann-Whitney with an empty side: NAN");
}

LAB_TEST(bh)
{
	const double p5[] = { 0.01, 0.02, 0.03, 0.04, 0.05 };
	const double p4[] = { 0.01, 0.04, 0.03, 0.005 }, q4[] = { 0.02, 0.04, 0.04, 0.02 };
	const double pn[] = { 0.01, NAN, 0.04 };
	double q[5];
	size_t i;
	int bad = 0;

	ab_bh(p5, N(p5), q);
	for (i = 0; i < N(p5); i++)
		bad += fabs(q[i] - 0.05) > 1e-12;
	tap_eq_int(bad, 0, "BH of 0.01..0.05: every q is 0.05, as p.adjust gives");
	ab_bh(p4, N(p4), q);
	for (i = 0, bad = 0; i < N(p4); i++)
		bad += fabs(q[i] - q4[i]) > 1e-12;
	tap_eq_int(bad, 0, "BH of {0.01, 0.04, 0.03, 0.005}: q = {0.02, 0.04, 0.04, 0.02}");
	ab_bh(pn, N(pn), q);
	tap_ok(isnan(q[1]) && fabs(q[0] - 0.02) < 1e-12 && fabs(q[2] - 0.04) < 1e-12,
	       "BH: a NAN p gets no q and leaves the family (m = 2): got %g %g %g", q[0], q[1], q[2]);
}

LAB_TEST(bootstrap)
{
	const double a[] = { 10, 10, 10 }, b[] = { 12, 12, 12 }, c[] = { 1, 2, 3 };
	double ch, lo, hi, lo2, hi2;

	tap_eq_int(ab_bootstrap(a, 3, b, 3, 1000, 1, &ch, &lo, &hi), 0, "bootstrap: returns 0");
	tap_ok(fabs(ch - 20) < 1e-9 && fabs(lo - 20) < 1e-9 && fabs(hi - 20) < 1e-9,
	       "bootstrap of constant sides 10 -> 12: +20 %% in [20, 20], got %g in [%g, %g]",
	       ch, lo, hi);
	ab_bootstrap(c, 3, c, 3, 1000, 1, &ch, &lo, &hi);
	tap_ok(ch == 0 && lo < 0 && hi > 0, "bootstrap of a side against itself: 0 in [lo < 0, hi > 0], got %g in [%g, %g]",
	       ch, lo, hi);
	ab_bootstrap(c, 3, c, 3, 1000, 1, &ch, &lo2, &hi2);
	tap_ok(lo2 == lo && hi2 == hi, "bootstrap: the same seed gives the same interval");
	tap_eq_int(ab_bootstrap(c, 3, c, 3, 10, 1, &ch, &lo, &hi), -22,
		   "bootstrap: fewer than 100 resamples is -EINVAL");
}

/* splitmix64 and a normal deviate (Box-Muller) for the fixture families */
static double fixture_rand(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return ((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

static double fixture_normal(unsigned long long *s)
{
	double u = fixture_rand(s), v = fixture_rand(s);

	return sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

/*
 * A family of @n metrics, 3 boots a side, per-boot CV 3 %; metrics whose
 * index is below @planted get B = 1.5 x A. Counts in *hits the planted ones
 * judged changed and in *false_hits the others judged changed.
 */
static void family(size_t n, size_t planted, unsigned long long seed,
		   size_t *hits, size_t *false_hits)
{
	struct ab_metric m[200];
	size_t i, j;

	for (i = 0; i < n; i++) {
		double a[3], b[3], base = 100 * (1 + i);

		for (j = 0; j < 3; j++) {
			a[j] = base * (1 + 0.03 * fixture_normal(&seed));
			b[j] = base * (i < planted ? 1.5 : 1) * (1 + 0.03 * fixture_normal(&seed));
		}
		ab_metric_compute(a, 3, b, 3, false, &m[i]);
	}
	ab_judge(m, n);
	*hits = *false_hits = 0;
	for (i = 0; i < n; i++) {
		*hits += m[i].changed && i < planted;
		*false_hits += m[i].changed && i >= planted;
	}
}

LAB_TEST(families)
{
	const double one[] = { 5 };
	size_t hits, false_hits;
	struct ab_metric m;

	family(200, 0, 42, &hits, &false_hits);
	tap_eq_int((long long)false_hits, 0, "A/A fixture family of 200 metrics, 3 boots a side: no discovery");
	family(200, 10, 43, &hits, &false_hits);
	tap_eq_int((long long)hits, 10, "planted fixture family: the 10 planted changes (x1.5) are found");
	/* BH bounds the expected share of false ones among the discoveries at 5 % */
	tap_ok(false_hits <= 1, "planted fixture family: at most 1 false discovery, got %zu", false_hits);
	ab_metric_compute(one, 1, one, 1, false, &m);
	ab_judge(&m, 1);
	tap_ok(!m.changed && !strcmp(m.why, "one boot a side gives no significance"),
	       "one boot a side: not judged, and says why (got '%s')", m.why);
}

/* a log-normal per-boot value of median @m and log-sd @s */
static double fixture_boot(unsigned long long *seed, double m, double s)
{
	return m * exp(s * fixture_normal(seed));
}

/*
 * The share of @pairs simulated A/A comparisons (@n boots a side, CV about
 * 20 %) whose 95 % interval of the %change holds 0: the metric's interval
 * (ab_metric_compute) or, @bootstrap, the percentile bootstrap of the
 * medians that the A/B used before
 */
static double aa_coverage(size_t n, int pairs, bool bootstrap)
{
	unsigned long long seed = 1000 + n;
	double a[8], b[8], ch, lo, hi;
	int k, held = 0;
	size_t i;

	for (k = 0; k < pairs; k++) {
		struct ab_metric m;

		for (i = 0; i < n; i++) {
			a[i] = fixture_boot(&seed, 1000, 0.2);
			b[i] = fixture_boot(&seed, 1000, 0.2);
		}
		if (bootstrap) {
			ab_bootstrap(a, n, b, n, 1000, seed, &ch, &lo, &hi);
		} else {
			ab_metric_compute(a, n, b, n, false, &m);
			lo = m.lo;
			hi = m.hi;
		}
		held += lo <= 0 && hi >= 0;
	}
	return (double)held / pairs;
}

LAB_TEST(interval_coverage)
{
	double c3 = aa_coverage(3, 4000, false), c2 = aa_coverage(2, 4000, false);
	double b3 = aa_coverage(3, 1000, true);

	tap_ok(c3 >= 0.94, "A/A at 3 boots a side: the %%change's interval holds 0 in %.3f of 4000 pairs (>= 0.94)", c3);
	tap_ok(c2 >= 0.94, "A/A at 2 boots a side: the interval holds 0 in %.3f of 4000 pairs (>= 0.94)", c2);
	tap_ok(b3 < 0.93, "the bootstrap of the medians it replaces held 0 in only %.3f of 1000 pairs at 3 boots", b3);
}

LAB_TEST(difference_scale)
{
	const double a[] = { -20, -21, -19 }, b[] = { -40, -41, -39 };
	const double pct[] = { 5, 5.2, 4.8 }, zero[] = { 0, 0, 0 }, pos[] = { 1, 2, 3 };
	struct ab_metric m[2];

	ab_metric_compute(a, 3, b, 3, false, &m[0]);
	ab_metric_compute(pct, 3, zero, 3, true, &m[1]);
	ab_judge(m, 2);
	tap_ok(m[0].diff_scale, "negative per-boot values: compared on the difference scale");
	tap_eq_dbl(m[0].change, -100, 1e-9, "-20 -> -40: %change (B - A)/|A| = -100 % (not mb/ma - 1 = +100 %)");
	tap_eq_dbl(m[0].diff, -20, 1e-9, "-20 -> -40: the difference B - A = -20");
	tap_ok(m[0].diff_lo < -20 && m[0].diff_hi > -20 && m[0].diff_hi < 0,
	       "its 95 %% interval holds -20 and excludes 0: [%g, %g]", m[0].diff_lo, m[0].diff_hi);
	tap_ok(m[1].changed, "a percentage dropping from 5 %% to 0 %% is found changed (q %g): %s", m[1].q, m[1].why);
	tap_eq_dbl(m[1].change, -100, 1e-9, "5 % -> 0 %: %change -100 %");
	ab_metric_compute(pos, 3, pos, 3, false, &m[0]);
	tap_ok(!m[0].diff_scale, "positive values of a scaling metric: the log scale");
}

/*
 * 15 against 15 with ties (C(30, 15) splits: the normal approximation).
 * R, wilcox.test(a, b, exact = FALSE, correct = TRUE), corrects the
 * variance by the sum of t^3 - t over the tie groups (sizes 5, 10, 10, 5):
 * z = 2.6845, p = 0.007264; summing t^2 - 1 instead gave p = 0.136
 */
LAB_TEST(tie_correction)
{
	double a[15], b[15];
	int i;

	for (i = 0; i < 15; i++) {
		a[i] = 1 + i / 5;
		b[i] = 2 + i / 5;
	}
	tap_eq_dbl(ab_mann_whitney(a, 15, b, 15, NULL), 0.007264, 2e-6,
		   "Mann-Whitney 15 vs 15 with four tie groups: p 0.007264 (tie correction t^3 - t)");
}

/*
 * The smallest change detectable at 80 % power and alpha 0.05: 3 boots a
 * side whose logarithms are -s, 0, s (sd s): se = s sqrt(2/3), df 4,
 * (t(0.975, 4) + t(0.8, 4)) se = (2.776445 + 0.940965) 0.1 0.816497
 */
LAB_TEST(detectable_change)
{
	const double s = 0.1, a[] = { exp(-s), 1, exp(s) }, b[] = { exp(-s), 1, exp(s) };
	struct ab_metric m;

	ab_metric_compute(a, 3, b, 3, false, &m);
	tap_eq_dbl(m.detectable, 100 * (exp((2.776445 + 0.940965) * s * sqrt(2.0 / 3)) - 1), 0.01,
		   "3 boots a side, log-sd 0.1: the smallest detectable change is 35.5 %");
	ab_metric_compute(a, 1, b, 1, false, &m);
	tap_ok(isnan(m.detectable), "one boot a side: no detectable change can be said");
}

LAB_TEST_MAIN()
