// SPDX-License-Identifier: GPL-2.0
/* The taprio workload's targets from numbers; see taprio_judge.h. */
#include <math.h>
#include <stdio.h>

#include "taprio_judge.h"
#include "verdict.h"

enum target_verdict taprio_judge_window(const struct taprio_class_counts *c, double *measured,
					char *why, size_t len)
{
	*measured = NAN;
	if (c->sent == 0 || c->inside + c->outside + c->notx != c->sent) {
		snprintf(why, len, "no packet sent, or counts that do not add up (%zu sent, %zu "
			 "inside, %zu outside, %zu no timestamp)", c->sent, c->inside, c->outside,
			 c->notx);
		return TARGET_NOT_JUDGED;
	}
	*measured = (double)(c->sent - c->inside);
	snprintf(why, len, "%zu of %zu packets sent shown inside their window by the driver's TX "
		 "timestamp; %zu outside, %zu with no TX timestamp (no timestamp: not shown "
		 "inside)", c->inside, c->sent, c->outside, c->notx);
	return c->inside == c->sent ? TARGET_MET : TARGET_NOT_MET;
}

enum target_verdict taprio_judge_ratio(double ratio, const struct ci *ci, size_t n_ours,
				       size_t n_theirs, double tol_pct, double *measured,
				       char *why, size_t len)
{
	enum target_verdict v;
	char words[300];

	*measured = NAN;
	if (!isfinite(ratio) || !ci || !isfinite(ci->lo) || !isfinite(ci->hi)) {
		snprintf(why, len, "no ratio with a 95%% interval (ours n %zu, isochron's n %zu): "
			 "too few samples on a side", n_ours, n_theirs);
		return TARGET_NOT_JUDGED;
	}
	*measured = fmax(fabs(ci->lo - 1), fabs(ci->hi - 1)) * 100;
	v = verdict_range(ci, 1 - tol_pct / 100, 1 + tol_pct / 100, words, sizeof(words));
	snprintf(why, len, "ours / isochron's median sender latency %.3f (ours n %zu, isochron's n %zu); %s",
		 ratio, n_ours, n_theirs, words);
	return v;
}
