// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/abstat.c, the statistics of replicated A/B
 * comparisons: the exact Mann-Whitney test against counted and published
 * answers (R's wilcox.test example), Benjamini-Hochberg against
 * p.adjust(method = "BH"), the bootstrap interval's edges, and two fixture
 * families of per-boot medians: an A/A one that must yield no discovery and
 * one with planted changes that must yield exactly those.
 */
#include <math.h>
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

LAB_TEST_MAIN()
