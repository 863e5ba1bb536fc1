// SPDX-License-Identifier: GPL-2.0
/*
 * The taprio workload's targets (bench/lib/taprio_judge.c) on fixture
 * numbers: each target NOT MET, and MET, and not judged where it cannot be.
 *   - class N: every packet sent shown inside its window: a packet outside,
 *     and a packet with no TX timestamp, each fail it (counted out of all
 *     packets sent, never dropped from the denominator);
 *   - our sender within 20 % of isochron's: met only when the ratio's
 *     whole 95 % interval lies inside [0.8, 1.2]; a ratio of 1.0 whose
 *     interval reaches past 1.2 is NOT MET.
 */
#include <math.h>
#include <string.h>

#include "interval.h"
#include "tap.h"
#include "taprio_judge.h"

static const char *verdict(enum target_verdict v)
{
	return v == TARGET_MET ? "MET" : v == TARGET_NOT_MET ? "NOT MET" : "not judged";
}

static void window(size_t sent, size_t in, size_t out, size_t notx, const char *want,
		   double want_measured, const char *what)
{
	struct taprio_class_counts c = { sent, in, out, notx };
	char why[512];
	double m;

	tap_eq_str(verdict(taprio_judge_window(&c, &m, why, sizeof(why))), want, what);
	if (isnan(want_measured))
		tap_ok(isnan(m), "%s: nothing measured (expected NAN, got %g)", what, m);
	else
		tap_eq_dbl(m, want_measured, 0, what);
	tap_diag("why: %s", why);
}

static void ratio(double r, double lo, double hi, const char *want, double want_measured,
		  const char *what)
{
	struct ci ci = { lo, hi, "ratio of medians", "bootstrap" };
	char why[512];
	double m;

	tap_eq_str(verdict(taprio_judge_ratio(r, &ci, 100, 100, 20, &m, why, sizeof(why))), want,
		   what);
	if (isnan(want_measured))
		tap_ok(isnan(m), "%s: nothing measured (expected NAN, got %g)", what, m);
	else
		tap_eq_dbl(m, want_measured, 1e-9, what);
	tap_diag("why: %s", why);
}

LAB_TEST(window)
{
	struct taprio_class_counts c = { 1000, 997, 1, 2 };
	char why[512];
	double m;

	window(1000, 1000, 0, 0, "MET", 0, "window target: every packet inside is MET");
	window(1000, 999, 1, 0, "NOT MET", 1, "window target: one packet outside is NOT MET");
	window(1000, 999, 0, 1, "NOT MET", 1,
	       "window target: one packet with no TX timestamp is NOT MET (not dropped)");
	window(1000, 0, 0, 1000, "NOT MET", 1000,
	       "window target: no packet timestamped at all is NOT MET, not a 100% of none");
	window(0, 0, 0, 0, "not judged", NAN, "window target: nothing sent is not judged");
	window(10, 5, 1, 1, "not judged", NAN, "window target: counts that do not add up");
	taprio_judge_window(&c, &m, why, sizeof(why));
	tap_ok(strstr(why, "1 outside, 2 with no TX timestamp") != NULL,
	       "window target: the why names the outside and no-timestamp counts (got '%s')", why);
}

LAB_TEST(ratio)
{
	ratio(1.05, 0.9, 1.15, "MET", 15, "isochron ratio: interval inside [0.8, 1.2] is MET");
	ratio(1.0, 0.85, 1.3, "NOT MET", 30,
	      "isochron ratio: ratio 1.0 but interval past 1.2 is NOT MET");
	ratio(0.5, 0.45, 0.55, "NOT MET", 55, "isochron ratio: interval entirely below 0.8");
	ratio(1.5, 1.4, 1.6, "NOT MET", 60, "isochron ratio: interval entirely above 1.2");
	ratio(0.81, 0.79, 0.83, "NOT MET", 21, "isochron ratio: lower end just below 0.8");
	ratio(1.0, NAN, NAN, "not judged", NAN, "isochron ratio: no interval is not judged");
	ratio(NAN, NAN, NAN, "not judged", NAN, "isochron ratio: no ratio is not judged");
}

LAB_TEST_MAIN()
