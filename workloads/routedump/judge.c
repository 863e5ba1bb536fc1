// SPDX-License-Identifier: GPL-2.0
/*
 * The targets of routedump and their judging (judge.h): numbers in, a
 * verdict out, on the estimate's 95 % interval (verdict.h);
 * tests/unit/test_routedump_judge.c gives every target numbers where it is
 * NOT MET, where it is MET and where it is undecided.
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

enum target_verdict rd_judge(int id, double est, const struct ci *ci, char *why, size_t len)
{
	const struct rd_target *t = &rd_targets[id];

	if (!isfinite(est)) {
		snprintf(why, len, "not judged: no estimate");
		return TARGET_NOT_JUDGED;
	}
	/* a share of a limit above 1: the limit as measured is no limit (the probe's own cost in it) */
	if (id == RT_KERNEL_LIMIT && est > 1) {
		snprintf(why, len, "not judged: the estimate %.4g is above 1: the kernel's own time as measured "
			 "exceeds the whole insert, so it is no limit (the probe's own cost dominates it)", est);
		return TARGET_NOT_JUDGED;
	}
	return verdict_range(ci, t->at_most ? -INFINITY : t->limit, t->at_most ? t->limit : INFINITY, why, len);
}
