// SPDX-License-Identifier: GPL-2.0
/*
 * The targets of routedump and their judging (judge.h): numbers in, a
 * verdict out; tests/unit/test_routedump_judge.c gives every target numbers
 * where it is NOT MET and where it is MET.
 */
#include <math.h>
#include <stdio.h>

#include "judge.h"

const struct rd_target rd_targets[RT_N] = {
	[RT_STRICT_TABLE] = { 0.1, true, "ratio" },
	[RT_USER_SHARE] = { 0.15, true, "fraction" },
	[RT_IPROUTE2] = { 1.0, true, "ratio" },
	[RT_SINGLE_VS_IP] = { 1.0, false, "ratio" },
	[RT_KERNEL_LIMIT] = { 0.8, false, "ratio" },
};

enum target_verdict rd_judge(int id, double est, double lo, double hi)
{
	const struct rd_target *t = &rd_targets[id];

	if (!isfinite(est))
		return TARGET_NOT_JUDGED;
	/* a share of a limit above 1: the limit as measured is no limit (the probe's own cost in it) */
	if (id == RT_KERNEL_LIMIT && est > 1)
		return TARGET_NOT_JUDGED;
	if (t->at_most ? est > t->limit : est < t->limit)
		return TARGET_NOT_MET;
	if (t->at_most ? isfinite(hi) && hi <= t->limit : isfinite(lo) && lo >= t->limit)
		return TARGET_MET;
	return TARGET_NOT_JUDGED;
}

const char *rd_verdict_words(int id, double est, double lo, double hi, char *buf, int len)
{
	const struct rd_target *t = &rd_targets[id];
	const char *side = t->at_most ? "at most" : "at least";

	switch (rd_judge(id, est, lo, hi)) {
	case TARGET_MET:
		snprintf(buf, len, "met: the 95%% interval [%.4g, %.4g] is %s %g", lo, hi, side, t->limit);
		break;
	case TARGET_NOT_MET:
		snprintf(buf, len, "NOT MET: the estimate %.4g is not %s %g (95%% interval [%.4g, %.4g])", est, side,
			 t->limit, lo, hi);
		break;
	default:
		if (!isfinite(est))
			snprintf(buf, len, "not judged: no estimate");
		else if (id == RT_KERNEL_LIMIT && est > 1)
			snprintf(buf, len, "not judged: the estimate %.4g is above 1: the kernel's own time as measured "
				 "exceeds the whole insert, so it is no limit (the probe's own cost dominates it)", est);
		else
			snprintf(buf, len, "not judged: the estimate %.4g is %s %g but its 95%% interval [%.4g, %.4g] "
				 "is not", est, side, t->limit, lo, hi);
	}
	return buf;
}
