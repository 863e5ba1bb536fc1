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
 *                    resampled (with replacement) on its own, seeded.
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
 * %change of median(B) against median(A) in *change, with the 2.5 and 97.5
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
	double med_a, med_b;	/* medians of the per-boot values */
	double change, lo, hi;	/* %change of med_b against med_a, 95 % bootstrap interval */
	double cv_a, cv_b;	/* repeatability: stddev / mean across boots */
	double p;		/* ab_ttest_log, the deciding test; NAN: not tested */
	double p_mw;		/* ab_mann_whitney, for the record */
	double q;		/* Benjamini-Hochberg over the comparison */
	bool changed;
	const char *why;	/* why it is or is not judged changed */
};

#define AB_FDR 0.05
#define AB_BOOTSTRAP_REPS 10000

/* Everything but q, changed and why. Returns 0 or -EINVAL (an empty side). */
int ab_metric_compute(const double *a, size_t na, const double *b, size_t nb,
		      uint64_t seed, struct ab_metric *m);

/*
 * ab_judge - q-values over the @n metrics (Benjamini-Hochberg at AB_FDR),
 * then: changed when q < AB_FDR and the interval excludes 0; ->why says
 * which condition failed, or that one boot a side gives no significance.
 */
void ab_judge(struct ab_metric *m, size_t n);

#endif
