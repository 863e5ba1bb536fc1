/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 95 % confidence intervals: the one place the lab computes them, so every
 * figure's interval is computed, named and written the same way.
 *
 *   ci_quantile     distribution-free interval of a quantile (the median,
 *                   p99) from order statistics: [x(l), x(u)] with the ranks
 *                   chosen from Binomial(n, p) so that the coverage is at
 *                   least 95 %. Needs no assumption about the distribution,
 *                   which for latencies is skewed; it does assume the
 *                   samples are independent (samples inside one boot are
 *                   not quite: across-boot repeatability is ab's job).
 *                   Not computable when n is too small for the quantile
 *                   (the median needs n >= 6, p99 n >= 368: ci_quantile_min_n).
 *   ci_wilson       a fraction k / n (Wilson score interval): behaves at 0
 *                   and at n, where the normal interval collapses.
 *   ci_wilson_clusters  the same for trials that fail together (packets or
 *                   LED steps of one stall): Wilson on the effective n.
 *   ci_mean         mean, Student's t.
 *   ci_slope        least-squares slope of y on x, Student's t on n - 2.
 *   ci_ratio        median(num) / median(den), percentile bootstrap over
 *                   the samples of each side (seeded, so reruns agree).
 *   ci_ratio_clusters  ci_ratio resampling whole clusters (rounds) a side.
 *   ci_quantile_clusters  interval of a quantile of samples that come in
 *                   clusters (a time block of one CPU's samples, a boot):
 *                   percentile bootstrap that resamples whole clusters, so
 *                   that samples correlated inside a cluster count as the
 *                   one observation they nearly are (seeded).
 *
 * An interval that cannot be computed is { NAN, NAN } with ->method saying
 * why; summary.json then has "ci95": null.
 */
#ifndef BENCH_INTERVAL_H
#define BENCH_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

struct ci {
	double lo, hi;		/* NAN when not computable */
	const char *of;		/* what the interval is of: "median", "p99", "fraction"... */
	const char *method;	/* how: "order statistics", "Wilson", "t", "bootstrap"; or why none */
};

/* Bootstrap resamples of ci_ratio */
#define CI_BOOTSTRAP_REPS 2000

/*
 * ci_quantile - interval of the @p quantile (0 < p < 1) of @n unsorted
 * samples (not modified). Returns 0 (the interval may still be NAN when n is
 * too small), -EINVAL for a bad p or a sample that is not finite, -ENOMEM.
 */
int ci_quantile(const double *x, size_t n, double p, struct ci *ci);
/* The same on samples already sorted ascending. */
void ci_quantile_sorted(const double *sorted, size_t n, double p, struct ci *ci);
/* The smallest n for which ci_quantile can give an interval of the @p quantile. */
size_t ci_quantile_min_n(double p);

/* ci_wilson - interval of the fraction @k / @n (n > 0), as a fraction. */
void ci_wilson(size_t k, size_t n, struct ci *ci);

/*
 * ci_wilson_clusters - interval of the fraction sum(@k) / sum(@m) of trials
 * that come in @nclusters clusters (@k[c] of @m[c] in cluster c: a time
 * block, where one stall fails many trials at once): a Wilson interval on
 * the effective number of trials, sum(m) / deff, with deff the design
 * effect (the clusters' variance of the fraction over the binomial one,
 * at least 1; 1 when the fraction is 0 or 1, where the clusters say
 * nothing about it). NAN below CI_CLUSTERS_MIN clusters with trials.
 */
void ci_wilson_clusters(const size_t *k, const size_t *m, size_t nclusters, struct ci *ci);

/* ci_mean - t interval of the mean of @n samples (n >= 2). */
void ci_mean(const double *x, size_t n, struct ci *ci);

/*
 * ci_slope - least-squares slope of @y on @x (@n points, n >= 3, x not all
 * equal) in *slope, with its t interval. Returns 0 or -EINVAL.
 */
int ci_slope(const double *x, const double *y, size_t n, double *slope, struct ci *ci);

/*
 * ci_ratio - median(@num) / median(@den) in *ratio with a percentile
 * bootstrap interval (CI_BOOTSTRAP_REPS resamples, seeded by @seed).
 * Returns 0, or -EINVAL when a side is empty or median(den) is 0.
 * The interval is NAN when a side has fewer than 2 samples.
 */
int ci_ratio(const double *num, size_t nnum, const double *den, size_t nden,
	     uint64_t seed, double *ratio, struct ci *ci);

/* The fewest clusters ci_quantile_clusters makes an interval from */
#define CI_CLUSTERS_MIN 5

/*
 * ci_quantile_clusters - the @p quantile (0 < p < 1; type 7, as stats.h) of
 * @n samples in *@q and its interval: a percentile bootstrap
 * (CI_BOOTSTRAP_REPS resamples, seeded by @seed) in which each resample
 * draws @nclusters clusters with replacement and takes all their samples.
 * @cluster[i] is sample i's cluster, 0 .. @nclusters - 1 (every cluster
 * must have a sample). The interval is NAN below CI_CLUSTERS_MIN clusters.
 * Returns 0, -EINVAL for a bad p, an empty input, a sample that is not
 * finite or a cluster out of range or empty, -ENOMEM.
 */
int ci_quantile_clusters(const double *x, const size_t *cluster, size_t n, size_t nclusters,
			 double p, uint64_t seed, double *q, struct ci *ci);

/*
 * ci_ratio_clusters - median(@num) / median(@den) in *ratio with a
 * percentile bootstrap interval that resamples whole clusters on each side
 * (@cnum[i]: sample i's cluster, 0 .. @knum - 1, every cluster with a
 * sample; the same for @den): samples of one round of a sender count as the
 * one observation they nearly are. CI_BOOTSTRAP_REPS resamples, seeded by
 * @seed; the interval is NAN below CI_CLUSTERS_MIN clusters a side.
 * Returns 0, -EINVAL (an empty side, a sample not finite, a cluster out of
 * range or empty, median(den) 0), -ENOMEM.
 */
int ci_ratio_clusters(const double *num, const size_t *cnum, size_t nnum, size_t knum,
		      const double *den, const size_t *cden, size_t nden, size_t kden,
		      uint64_t seed, double *ratio, struct ci *ci);

#endif
