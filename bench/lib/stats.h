/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics of benchmark samples and Student's t distribution.
 *
 * Percentiles (median, p99) use linear interpolation between the closest
 * ranks of the sorted samples (Hyndman & Fan type 7, the default of R and
 * numpy): with h = (n - 1) * p, the value is x[floor(h)] plus
 * (h - floor(h)) * (x[floor(h) + 1] - x[floor(h)]).  The median is the
 * 0.5 percentile, so for an even n it is the mean of the two middle values.
 *
 * The standard deviation is the sample one (divisor n - 1); it is 0 for a
 * single sample.  The coefficient of variation is stddev / |mean|: 0 when the
 * stddev is 0, +inf when the mean is 0 and the stddev is not.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Below this many samples p99 is not written to summary.json (see output.h). */
#define STATS_P99_MIN_N 100

struct stats {
	size_t n;
	double mean;
	double median;
	double stddev;	/* sample standard deviation, n - 1 */
	double min;
	double max;
	double p99;
	double cv;	/* coefficient of variation, stddev / |mean| */
};

/*
 * stats_compute - summary of @n samples into @st.
 * Returns 0, -EINVAL when n is 0 or a sample is NaN or infinite,
 * -ENOMEM when the sorted copy cannot be allocated.  @x is not modified.
 */
int stats_compute(const double *x, size_t n, struct stats *st);

/*
 * stats_median, stats_percentile - of @n unsorted samples (not modified);
 * NAN when n is 0 or a copy cannot be allocated.
 */
double stats_median(const double *x, size_t n);
double stats_percentile(const double *x, size_t n, double p);
/* qsort comparison of doubles, ascending */
int stats_cmp_double(const void *a, const void *b);

/* Percentile @p in [0, 1] of @n > 0 sorted samples, type 7 (see above). */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

/*
 * stats_drop_warmup - the samples left after the first @warmup ones.
 * Sets *n to the remaining count (0 when warmup >= *n) and returns x + the
 * number dropped.
 */
const double *stats_drop_warmup(const double *x, size_t *n, size_t warmup);

/* Student's t distribution with @df > 0 degrees of freedom (df may be fractional). */
double stats_t_cdf(double t, double df);
/* The @p quantile (0 < p < 1) of Student's t with @df degrees of freedom. */
double stats_t_quantile(double p, double df);
/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double stats_betainc(double a, double b, double x);

#endif
