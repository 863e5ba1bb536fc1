/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics of a replicated A/B comparison, where the unit of replication
 * is the boot: each side is a handful of per-boot values (one metric's
 * per-boot medians), never the samples inside one boot, which are serially
 * correlated.
 *
 *   ab_mann_whitney  exact two-sided Mann-Whitney U test (all splits are
 *                    enumerated while C(na + nb, na) <= AB_MW_EXACT_MAX;
 *                    ties get mid-ranks; above, the normal approximation
 *                    with tie correction). With 3 boots a side its
 *                    smallest possible p is 0.1: it can never reject.
 *   ab_ttest_log     Student's t-test on the logarithms of the values, the
 *                    test that decides: a multiplicative effect is what a
 *                    kernel change has, and it can reject at 3 boots a side
 *                    when the boots separate clearly. The pooled variance
 *                    (both sides boot the same machine the same way) keeps
 *                    its df at na + nb - 2; Welch's df falls towards 2 at
 *                    3 boots a side whenever the two spreads differ.
 *   ab_bootstrap     %change of the median of B against the median of A,
 *                    with a percentile bootstrap interval: each side is
 *                    resampled (with replacement) on its own, seeded (the
 *                    ratio figures of the workloads, bench/lib/interval.c).
 *   ab_metric_compute  the effect of B against A with the 95 % interval of
 *                    that same test: on the log scale exp(d +- t se) - 1,
 *                    d the difference of the mean logarithms (a ratio of
 *                    geometric means); on the difference scale, for metrics
 *                    that can be 0 or negative (offsets, drifts,
 *                    percentages), mean B - mean A +- t se, as a %change of
 *                    |mean A|. Beside it the smallest change the comparison
 *                    could have detected (80 % power, two-sided alpha 0.05
 *                    per metric, at the boots' own spread).
 *   ab_bh            Benjamini-Hochberg q-values over a family of p-values.
 */
#ifndef LAB_ABSTAT_H
#define LAB_ABSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AB_MW_EXACT_MAX 200000

/*
 * Two-sided p of the Mann-Whitney U test of @a against @b; *u (may be NULL)
 * gets U of A (the number of pairs with a > b, ties counted 1/2).
 * NAN when a side is empty.
 */
double ab_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u);

/*
 * Two-sided p of Student's t-test (pooled variance, df = na + nb - 2) on
 * log(values); NAN when a side has fewer than 2 values or a value is not > 0.
 */
double ab_ttest_log(const double *a, size_t na, const double *b, size_t nb);

/*
 * The same test on the values themselves (the difference scale); NAN when a
 * side has fewer than 2 values or a value is not finite.
 */
double ab_ttest(const double *a, size_t na, const double *b, size_t nb);

/*
 * %change of median(B) against median(A) in *change (the workloads' ratio
 * intervals, bench/lib/interval.c), with the 2.5 and 97.5
 * percentiles of @reps bootstrap resamples in *lo and *hi. Returns 0, or
 * -EINVAL when a side is empty, the median of A is 0, or reps < 100.
 */
int ab_bootstrap(const double *a, size_t na, const double *b, size_t nb,
		 unsigned int reps, uint64_t seed, double *change, double *lo, double *hi);

/*
 * Benjamini-Hochberg q-values of @n p-values; a NAN p (not tested) gets a
 * NAN q and does not count in the family.
 */
void ab_bh(const double *p, size_t n, double *q);

/* One metric of a comparison: per-boot values of each side in, verdict out */
struct ab_metric {
	size_t na, nb;
	bool diff_scale;	/* compared on the difference scale (B - A) */
	double med_a, med_b;	/* medians of the per-boot values */
	/*
	 * %change of B against A and its 95 % interval: on the log scale
	 * 100 (exp(d) - 1), d = mean log B - mean log A, the interval exp(d +-
	 * t se); on the difference scale 100 (mean B - mean A) / |mean A|. With
	 * one boot a side: the change of the one value, no interval.
	 */
	double change, lo, hi;
	double diff, diff_lo, diff_hi;	/* difference scale: mean B - mean A, in the unit */
	double detectable;	/* smallest |%change| detectable (80 % power, alpha 0.05) */
	double cv_a, cv_b;	/* repeatability: stddev / mean across boots */
	double p;		/* the deciding t-test of its scale; NAN: not tested */
	double p_mw;		/* ab_mann_whitney, for the record */
	double q;		/* Benjamini-Hochberg over the comparison */
	bool changed;
	const char *why;	/* why it is or is not judged changed */
};

#define AB_FDR 0.05
#define AB_ALPHA 0.05	/* the per-metric alpha of the detectable change */
#define AB_POWER 0.80

/*
 * Everything but q, changed and why, on the log scale, or on the
 * difference scale when @diff_scale or when a value is not > 0. Returns 0
 * or -EINVAL (an empty side).
 */
int ab_metric_compute(const double *a, size_t na, const double *b, size_t nb,
		      bool diff_scale, struct ab_metric *m);

/*
 * ab_judge - q-values over the @n metrics (Benjamini-Hochberg at AB_FDR),
 * then: changed when q < AB_FDR and the interval excludes 0; ->why says
 * which condition failed, or that one boot a side gives no significance.
 */
void ab_judge(struct ab_metric *m, size_t n);

#endif
