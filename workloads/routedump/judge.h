/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets routedump states and how one is judged: pure functions of
 * numbers (an estimate and its 95 % interval), so that tests/unit can give
 * each target the numbers where it is met and where it is not.
 */
#ifndef ROUTEDUMP_JUDGE_H
#define ROUTEDUMP_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "verdict.h"

enum {
	RT_STRICT_TABLE,	/* strict_table wall / legacy_userfilter wall at 1 %: at most 0.1 */
	RT_USER_SHARE,		/* user share of strict_all's CPU time: at most 0.15 */
	RT_IPROUTE2,		/* a strict dump's wall / ip route show's, same filter: at most 1 */
	RT_SINGLE_VS_IP,	/* ours one route a request / ip -batch, routes/s: at least 1 */
	RT_KERNEL_LIMIT,	/* batched insert rate / the kernel's own insert rate: at least 0.8 */
	RT_N
};

struct rd_target {
	double limit;
	bool at_most;		/* the estimate must be at most the limit (else at least) */
	const char *unit;
};

extern const struct rd_target rd_targets[RT_N];

/*
 * rd_judge - target @id against an estimate @est with its 95 % interval
 * @ci (verdict_range): met when the whole interval is on the right side of
 * the limit, NOT MET when the whole interval is on the wrong side,
 * undecided when it straddles the limit; not judged when there is no
 * estimate or interval, and for RT_KERNEL_LIMIT when the estimate is above
 * 1 (the kernel's own time as measured is longer than the whole insert: no
 * limit). Writes into @why how the verdict came about.
 */
enum target_verdict rd_judge(int id, double est, const struct ci *ci, char *why, size_t len);

#endif
