/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdicts on intervals: the one place a target is judged on a figure's
 * 95 % interval (interval.h), so that every workload decides the same way:
 *
 *   TARGET_MET        the whole interval lies inside the limit
 *   TARGET_NOT_MET    the whole interval lies outside it
 *   TARGET_UNDECIDED  the interval straddles the limit (met: null)
 *   TARGET_NOT_JUDGED there is no interval to judge (met: null)
 *
 * Each function writes into @why (@len bytes) the interval, the limit and
 * which of these it is, e.g. "undecided: the 95% interval [0.93, 1.25]
 * (ratio, bootstrap) straddles within [0.9, 1.1]".
 */
#ifndef BENCH_VERDICT_H
#define BENCH_VERDICT_H

#include <stddef.h>

#include "interval.h"
#include "output.h"

/*
 * verdict_range - a figure's interval @ci against the range [@min, @max]
 * (-INFINITY or INFINITY: no limit on that side; at most X is
 * [-INFINITY, X], at least X is [X, INFINITY]). The ends count as inside.
 * NULL or NAN bounds: TARGET_NOT_JUDGED.
 */
enum target_verdict verdict_range(const struct ci *ci, double min, double max, char *why, size_t len);

/*
 * verdict_below - a figure's interval @a against another figure's interval
 * @b as its upper limit, for two figures with no interval of their
 * difference or ratio (separate samples, each with its own quantile
 * interval): MET when @a lies wholly at or below @b's interval, NOT MET
 * when wholly above it, undecided when the two overlap. @why says that
 * the intervals were compared by their overlap.
 */
enum target_verdict verdict_below(const struct ci *a, const struct ci *b, char *why, size_t len);

/* "MET", "NOT MET", "undecided" or "not judged" */
const char *verdict_name(enum target_verdict v);

#endif
