// SPDX-License-Identifier: GPL-2.0
/* Verdicts on 95 % intervals; see verdict.h. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "verdict.h"

static bool has_ci(const struct ci *ci)
{
	return ci && isfinite(ci->lo) && isfinite(ci->hi);
}

/* Why there is no interval: its method says, when it was tried */
static const char *no_ci_words(const struct ci *ci)
{
	return ci && ci->method ? ci->method : "none computed";
}

static const char *interval_words(const struct ci *ci, char *buf, size_t len)
{
	int k = snprintf(buf, len, "the 95%% interval [%.4g, %.4g]", ci->lo, ci->hi);

	if (ci->of && ci->method && k >= 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, " (%s, %s)", ci->of, ci->method);
	return buf;
}

static const char *range_words(double min, double max, char *buf, size_t len)
{
	if (isinf(min) && isinf(max))
		snprintf(buf, len, "any value");
	else if (isinf(min))
		snprintf(buf, len, "at most %.4g", max);
	else if (isinf(max))
		snprintf(buf, len, "at least %.4g", min);
	else
		snprintf(buf, len, "within [%.4g, %.4g]", min, max);
	return buf;
}

enum target_verdict verdict_range(const struct ci *ci, double min, double max, char *why, size_t len)
{
	char iw[160], rw[80];
	enum target_verdict v;

	if (!has_ci(ci)) {
		snprintf(why, len, "not judged: no 95%% interval (%s)", no_ci_words(ci));
		return TARGET_NOT_JUDGED;
	}
	interval_words(ci, iw, sizeof(iw));
	range_words(min, max, rw, sizeof(rw));
	if (ci->lo >= min && ci->hi <= max)
		v = TARGET_MET;
	else if (ci->hi < min || ci->lo > max)
		v = TARGET_NOT_MET;
	else
		v = TARGET_UNDECIDED;
	snprintf(why, len, "%s: %s %s %s", verdict_name(v), iw,
		 v == TARGET_MET ? "lies inside" : v == TARGET_NOT_MET ? "lies wholly outside" : "straddles", rw);
	return v;
}

enum target_verdict verdict_below(const struct ci *a, const struct ci *b, char *why, size_t len)
{
	char iw[160], bw[160];
	enum target_verdict v;

	if (!has_ci(a) || !has_ci(b)) {
		snprintf(why, len, "not judged: %s has no 95%% interval (%s)", has_ci(a) ? "the limit" : "the figure",
			 no_ci_words(has_ci(a) ? b : a));
		return TARGET_NOT_JUDGED;
	}
	if (a->hi <= b->lo)
		v = TARGET_MET;
	else if (a->lo > b->hi)
		v = TARGET_NOT_MET;
	else
		v = TARGET_UNDECIDED;
	snprintf(why, len, "%s: %s %s the limit's %s (no interval of their difference: judged by the overlap "
		 "of the two)", verdict_name(v), interval_words(a, iw, sizeof(iw)),
		 v == TARGET_MET ? "lies at or below" : v == TARGET_NOT_MET ? "lies wholly above" : "overlaps",
		 interval_words(b, bw, sizeof(bw)));
	return v;
}

const char *verdict_name(enum target_verdict v)
{
	switch (v) {
	case TARGET_MET:
		return "MET";
	case TARGET_NOT_MET:
		return "NOT MET";
	case TARGET_UNDECIDED:
		return "undecided";
	default:
		return "not judged";
	}
}
