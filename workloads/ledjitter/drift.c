// SPDX-License-Identifier: GPL-2.0
/* The drift of a pattern's timeline, and the tail of its step errors. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>

#include "cli.h"
#include "ledjitter.h"
#include "stats.h"

/*
 * drift_slope - the drift of errors @err (us) at model steps @step over the
 * samples [from, to), in us per step, which is ms per 1000 steps.
 *
 * Timer lateness is one-sided and, under TCG on a shared host, heavy tailed
 * and unsteady: a least-squares line through the errors follows the host's
 * load more than the pattern's timeline. The drift of the timeline is the
 * slope of the errors' lower envelope instead: the smallest error of each
 * block of DRIFT_BLOCK samples, and the Theil-Sen slope (the median of the
 * pairwise slopes) through those points. An accumulating pattern lifts the
 * envelope with every step; lateness spikes do not. NAN for fewer than 2
 * blocks.
 */
double drift_slope(const double *err, const long *step, size_t from, size_t to)
{
	size_t nb = (to - from) / DRIFT_BLOCK, b, c, i, np = 0;
	double *x, *y, *sl, d;

	if (nb < 2)
		return NAN;
	x = lab_calloc(nb, sizeof(*x), "drift blocks");
	y = lab_calloc(nb, sizeof(*y), "drift blocks");
	sl = lab_calloc(nb * (nb - 1) / 2, sizeof(*sl), "drift slopes");
	for (b = 0; b < nb; b++) {
		size_t lo = from + b * DRIFT_BLOCK, best = lo;

		for (i = lo; i < lo + DRIFT_BLOCK; i++)
			if (err[i] < err[best])
				best = i;
		x[b] = (double)step[best];
		y[b] = err[best];
	}
	for (b = 0; b < nb; b++)
		for (c = b + 1; c < nb; c++)
			if (x[c] != x[b])
				sl[np++] = (y[c] - y[b]) / (x[c] - x[b]);
	d = np ? stats_median(sl, np) : NAN;
	free(x);
	free(y);
	free(sl);
	return d;
}

/*
 * Drift estimates of an observer: the whole run into *@whole, and
 * DRIFT_WINDOWS equal windows (fewer for short runs, at least 4 blocks
 * each) into @out, for the spread. Returns the number of windows.
 */
size_t drift_windows(const struct observer *ob, double *out, double *whole)
{
	size_t nw = DRIFT_WINDOWS, w, len, k = 0;
	double d;

	*whole = drift_slope(ob->err, ob->step, 0, ob->n);
	while (nw > 1 && ob->n / nw < 4 * DRIFT_BLOCK)
		nw--;
	len = ob->n / nw;
	for (w = 0; w < nw; w++) {
		d = drift_slope(ob->err, ob->step, w * len, (w + 1) * len);
		if (!isnan(d))
			out[k++] = d;
	}
	return k;
}

/* p99 of |x|; below STATS_P99_MIN_N samples the max, which bounds it; NAN for none */
double p99_abs(const double *x, size_t n)
{
	double *a = lab_calloc(n, sizeof(*a), "absolute errors");
	struct stats st;
	size_t i;

	for (i = 0; i < n; i++)
		a[i] = fabs(x[i]);
	if (stats_compute(a, n, &st))
		st.p99 = NAN;
	else if (n < STATS_P99_MIN_N)
		st.p99 = st.max;
	free(a);
	return st.p99;
}
