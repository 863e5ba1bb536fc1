// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/verdict.c, the one judge of a target on a 95 %
 * interval: an interval inside the limit is MET, one wholly outside NOT
 * MET, one straddling it undecided, none not judged; at most, at least
 * and a range alike; two figures' intervals compared by their overlap;
 * the why names the interval and the limit. And out_target writes the
 * undecided state as met null with "verdict": "undecided".
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "verdict.h"

static char dir[] = "/tmp/test_verdict.XXXXXX";

/* The verdict @got as wanted, and its why beside it */
static void expect(enum target_verdict got, const char *why, enum target_verdict want, const char *what)
{
	tap_eq_str(verdict_name(got), verdict_name(want), what);
	tap_diag("why: %s", why);
}

static void range(double lo, double hi, double min, double max, enum target_verdict want, const char *what)
{
	struct ci ci = { lo, hi, "ratio", "bootstrap" };
	char why[256];

	expect(verdict_range(&ci, min, max, why, sizeof(why)), why, want, what);
}

LAB_TEST(range)
{
	/* a parity ratio within [0.9, 1.1] */
	range(0.95, 1.05, 0.9, 1.1, TARGET_MET, "[0.95, 1.05] inside [0.9, 1.1]: MET");
	range(0.93, 1.25, 0.9, 1.1, TARGET_UNDECIDED, "[0.93, 1.25] against [0.9, 1.1]: undecided");
	range(1.15, 1.3, 0.9, 1.1, TARGET_NOT_MET, "[1.15, 1.3] above [0.9, 1.1]: NOT MET");
	range(0.5, 0.8, 0.9, 1.1, TARGET_NOT_MET, "[0.5, 0.8] below [0.9, 1.1]: NOT MET");
	range(0.8, 1.2, 0.9, 1.1, TARGET_UNDECIDED, "[0.8, 1.2] wider than [0.9, 1.1] on both sides: undecided");
	range(0.9, 1.1, 0.9, 1.1, TARGET_MET, "the ends count as inside");
	/* drift inside +-1 */
	range(-1.65, 1.58, -1, 1, TARGET_UNDECIDED, "drift [-1.65, 1.58] against +-1: undecided");
	/* at most 1 */
	range(0.7, 1.4, -INFINITY, 1, TARGET_UNDECIDED, "at most 1: [0.7, 1.4] undecided (estimate 1.02 or 0.98)");
	range(0.2, 0.9, -INFINITY, 1, TARGET_MET, "at most 1: [0.2, 0.9] MET");
	range(1.1, 1.4, -INFINITY, 1, TARGET_NOT_MET, "at most 1: [1.1, 1.4] NOT MET");
	/* at least 80 */
	range(85, 95, 80, INFINITY, TARGET_MET, "at least 80: [85, 95] MET");
	range(70, 90, 80, INFINITY, TARGET_UNDECIDED, "at least 80: [70, 90] undecided");
	range(40, 60, 80, INFINITY, TARGET_NOT_MET, "at least 80: [40, 60] NOT MET");
	range(NAN, NAN, 80, INFINITY, TARGET_NOT_JUDGED, "no interval: not judged");
}

LAB_TEST(range_words)
{
	struct ci ci = { 0.93, 1.25, "ratio", "bootstrap" };
	char why[256];

	verdict_range(&ci, 0.9, 1.1, why, sizeof(why));
	tap_ok(!strncmp(why, "undecided", 9) && strstr(why, "[0.93, 1.25]") && strstr(why, "within [0.9, 1.1]") &&
	       strstr(why, "bootstrap"), "an undecided why names the interval, its method and the range: \"%s\"", why);
	verdict_range(&ci, -INFINITY, 1.5, why, sizeof(why));
	tap_ok(!strncmp(why, "MET", 3) && strstr(why, "at most 1.5"), "a MET why says at most: \"%s\"", why);
	verdict_range(&ci, 1.3, INFINITY, why, sizeof(why));
	tap_ok(!strncmp(why, "NOT MET", 7) && strstr(why, "at least 1.3") && strstr(why, "wholly outside"),
	       "a NOT MET why says at least and wholly outside: \"%s\"", why);
	ci = (struct ci){ NAN, NAN, "p99", "too few samples" };
	verdict_range(&ci, 0, 1, why, sizeof(why));
	tap_ok(strstr(why, "no 95% interval (too few samples)") != NULL, "no interval: the why says why: \"%s\"",
	       why);
	verdict_range(NULL, 0, 1, why, sizeof(why));
	tap_ok(strstr(why, "no 95% interval") != NULL, "a NULL interval is not judged: \"%s\"", why);
}

static void below(double alo, double ahi, double blo, double bhi, enum target_verdict want, const char *what)
{
	struct ci a = { alo, ahi, "p99", "order statistics" }, b = { blo, bhi, "p99", "order statistics" };
	char why[400];

	expect(verdict_below(&a, &b, why, sizeof(why)), why, want, what);
}

LAB_TEST(below)
{
	below(7038, 8192, 7048, 8423, TARGET_UNDECIDED, "p99 [7038, 8192] against [7048, 8423]: overlap, undecided");
	below(100, 200, 300, 400, TARGET_MET, "[100, 200] wholly below [300, 400]: MET");
	below(100, 300, 300, 400, TARGET_MET, "[100, 300] touching [300, 400] from below: MET");
	below(500, 600, 300, 400, TARGET_NOT_MET, "[500, 600] wholly above [300, 400]: NOT MET");
	below(350, 600, 300, 400, TARGET_UNDECIDED, "[350, 600] overlapping [300, 400]: undecided");
	below(NAN, NAN, 300, 400, TARGET_NOT_JUDGED, "the figure without an interval: not judged");
	below(100, 200, NAN, NAN, TARGET_NOT_JUDGED, "the limit without an interval: not judged");
}

LAB_TEST(below_words)
{
	struct ci a = { 7038, 8192, "p99", "order statistics" }, b = { 7048, 8423, "p99", "order statistics" };
	char why[400];

	verdict_below(&a, &b, why, sizeof(why));
	tap_ok(strstr(why, "[7038, 8192]") && strstr(why, "[7048, 8423]") && strstr(why, "overlap"),
	       "the why names both intervals and that they were compared by overlap: \"%s\"", why);
	b.lo = b.hi = NAN;
	b.method = "no histogram";
	verdict_below(&a, &b, why, sizeof(why));
	tap_ok(strstr(why, "the limit has no 95% interval (no histogram)") != NULL,
	       "a limit without an interval says so: \"%s\"", why);
}

/* out_target: the four states in targets.json */
LAB_TEST(out_target_states)
{
	static const char *const want[][2] = { { "true", "met" }, { "false", "not met" }, { "null", "undecided" },
					       { "null", "not judged" } };
	enum target_verdict v[] = { TARGET_MET, TARGET_NOT_MET, TARGET_UNDECIDED, TARGET_NOT_JUDGED };
	char sub[96], path[128];
	json_error_t err;
	struct out *o;
	json_t *j;
	size_t i;

	snprintf(sub, sizeof(sub), "%s/out", dir);
	o = out_open(sub, "w");
	if (!tap_ok(o != NULL, "out_open"))
		return;
	for (i = 0; i < 4; i++)
		out_target(o, want[i][1], 1, 1, "x", v[i], "because");
	out_close(o, NULL);
	snprintf(path, sizeof(path), "%s/targets.json", sub);
	j = json_load_file(path, 0, &err);
	for (i = 0; i < 4; i++) {
		json_t *t = json_array_get(j, i);
		char *met = json_dumps(json_object_get(t, "met"), JSON_ENCODE_ANY);

		tap_ok(met && !strcmp(met, want[i][0]) &&
		       !strcmp(json_string_value(json_object_get(t, "verdict")), want[i][1]),
		       "%s: met %s, verdict \"%s\" (got %s, \"%s\")", verdict_name(v[i]), want[i][0], want[i][1], met,
		       json_string_value(json_object_get(t, "verdict")));
		free(met);
	}
	json_decref(j);
}

int main(int argc, char **argv)
{
	tap_tmpdir(dir);
	return tap_main(argc, argv);
}
