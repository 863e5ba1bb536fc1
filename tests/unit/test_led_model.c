// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/led_model.c, the expected timeline of an LED pattern:
 * parsing like the sysfs files, the ABI document's two examples, the
 * workload's square waves, dimming arithmetic, repeat and the final
 * brightness, and the tick rounding of the 6.1 software pattern.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"
#include "led_model.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct led_tuple t[LED_MODEL_MAX_TUPLES];
static struct led_step s[4096];

static int parse(const char *p)
{
	return led_pattern_parse(p, 255, t, LED_MODEL_MAX_TUPLES, NULL);
}

LAB_TEST(parse)
{
	const char *bad = NULL;
	char *big;
	size_t i;

	tap_eq_int(parse("0 1000 255 2000"), 2, "parse: the ABI's dimming example has 2 tuples");
	tap_ok(t[0].brightness == 0 && t[0].duration_ms == 1000 &&
	       t[1].brightness == 255 && t[1].duration_ms == 2000,
	       "parse: tuples are (brightness, duration) in order");
	tap_eq_int(parse("  0\t10\n0 0\n"), 2, "parse: any whitespace separates, trailing newline ok");
	tap_eq_int(led_pattern_parse("0 1000 255", 255, t, 8, &bad), -EINVAL,
		   "parse: an odd count of numbers is -EINVAL");
	tap_eq_str(bad, "", "parse: the odd count is reported at the end of the string");
	tap_eq_int(led_pattern_parse("0 10 abc 10", 255, t, 8, &bad), -EINVAL,
		   "parse: a word is -EINVAL");
	tap_eq_str(bad, "abc 10", "parse: the error points at the word");
	tap_eq_int(led_pattern_parse("0 10 256 10", 255, t, 8, &bad), -EINVAL,
		   "parse: a brightness above max_brightness is -EINVAL");
	tap_eq_str(bad, "256 10", "parse: the error points at the brightness");
	tap_eq_int(parse("-1 10 0 10"), -EINVAL, "parse: a negative number is -EINVAL");
	tap_eq_int(parse("0 4294967296 0 10"), -EINVAL, "parse: a number above UINT_MAX is -EINVAL");
	tap_eq_int(parse("0 4294967295 0 10"), 2, "parse: UINT_MAX is a valid duration");
	tap_eq_int(parse("10x 10 0 10"), -EINVAL, "parse: digits followed by letters are -EINVAL");
	tap_eq_int(parse(""), -EINVAL, "parse: an empty pattern is -EINVAL");
	tap_eq_int(parse(" \n"), -EINVAL, "parse: a blank pattern is -EINVAL");

	big = malloc(4 * 1025 + 1);
	if (!big)
		tap_bail("out of memory");
	for (i = 0; i < 1025; i++)
		memcpy(big + 4 * i, "1 1 ", 4);
	big[4 * 1025] = '\0';
	tap_eq_int(parse(big), -E2BIG, "parse: 1025 tuples are -E2BIG (the kernel keeps 1024)");
	big[4 * 1024] = '\0';
	tap_eq_int(parse(big), 1024, "parse: 1024 tuples fit");
	free(big);
}

LAB_TEST(check)
{
	const struct led_tuple one[] = { { 100, 50 } };
	const struct led_tuple zero[] = { { 0, 0 }, { 0, 0 } };
	const struct led_tuple ok[] = { { 0, 10 }, { 255, 10 } };

	tap_eq_int(led_model_check(one, 1, -1), -EINVAL, "check: a single tuple is -EINVAL");
	tap_eq_int(led_model_check(zero, 2, -1), -EINVAL, "check: all durations zero is -EINVAL");
	tap_eq_int(led_model_check(ok, 2, 0), -EINVAL, "check: repeat 0 is -EINVAL");
	tap_eq_int(led_model_check(ok, 2, -2), -EINVAL, "check: repeat -2 is -EINVAL");
	tap_eq_int(led_model_check(ok, 2, -1), 0, "check: repeat -1 is valid");
	tap_eq_int(led_model_check(ok, 2, 7), 0, "check: repeat 7 is valid");
	tap_eq_int((long long)led_model_cycle_ms(ok, 2), 20, "cycle: the sum of the durations");
}

LAB_TEST(dimming_example)
{
	unsigned int b;
	uint64_t end;
	long n;
	size_t c;
	int bad = 0;
	long k;

	parse("0 1000 255 2000");
	n = led_model_steps(t, 2, 1, s, N(s));
	tap_eq_int(n, 20 + 40 + 1, "dimming example: 20 steps up, 40 down, the final end");
	tap_ok(s[0].t_ms == 0 && s[0].brightness == 0, "dimming example: starts at 0 at time 0");
	tap_ok(s[1].t_ms == 50 && s[1].brightness == 12,
	       "dimming example: 50 ms later 50 * 255 / 1000 = 12 (rounded down)");
	tap_ok(s[19].t_ms == 950 && s[19].brightness == 242, "dimming example: 950 ms: 242");
	tap_ok(s[20].t_ms == 1000 && s[20].brightness == 255 && s[20].tuple == 1,
	       "dimming example: the second tuple starts at 1000 ms at 255");
	tap_ok(s[21].t_ms == 1050 && s[21].brightness == 249,
	       "dimming example: 1050 ms: 255 - 50 * 255 / 2000 = 249");
	tap_ok(s[59].t_ms == 2950 && s[59].brightness == 7, "dimming example: 2950 ms: 7");
	tap_ok(s[60].t_ms == 3000 && s[60].brightness == 0,
	       "dimming example: a finite pattern ends at the dimming target, 0 at 3000 ms");
	for (k = 1; k < n; k++)
		if (s[k].t_ms - s[k - 1].t_ms != 50)
			bad++;
	tap_eq_int(bad, 0, "dimming example: every step is 50 ms after the previous one");
	tap_eq_int(led_model_final(t, 2, 1, &b, &end), 0, "dimming example: final state exists");
	tap_ok(b == 0 && end == 3000, "dimming example: final brightness 0 at 3000 ms (got %u at %llu)",
	       b, (unsigned long long)end);
	c = led_model_changes(s, (size_t)n, 0);
	tap_eq_int((long long)c, 60, "dimming example: 60 changes seen from an LED at 0");

	n = led_model_steps(t, 2, 3, NULL, 0);
	tap_eq_int(n, 3 * 60 + 1, "dimming example, repeat 3: 60 steps a cycle plus the end");
}

LAB_TEST(step_example)
{
	unsigned int b;
	uint64_t end;
	long n;

	parse("0 1000 0 0 255 2000 255 0");
	n = led_model_steps(t, 4, 2, s, N(s));
	tap_eq_int(n, 4, "step example, repeat 2: 4 steps");
	tap_ok(s[0].t_ms == 0 && s[0].brightness == 0 && s[1].t_ms == 1000 &&
	       s[1].brightness == 255 && s[2].t_ms == 3000 && s[2].brightness == 0 &&
	       s[3].t_ms == 4000 && s[3].brightness == 255,
	       "step example: off for 1 s, on for 2 s: 0@0 255@1000 0@3000 255@4000");
	led_model_final(t, 4, 2, &b, &end);
	tap_ok(b == 255 && end == 6000, "step example: ends on at 6000 ms (got %u at %llu)", b,
	       (unsigned long long)end);
	tap_eq_int((long long)led_model_changes(s, 4, 0), 3,
		   "step example: from an LED at 0 the first step is no change");
}

LAB_TEST(square_wave)
{
	long n, k;
	int bad = 0;
	unsigned int b;
	uint64_t end;

	parse("255 10 255 0 0 10 0 0");
	n = led_model_steps(t, 4, 500, s, N(s));
	tap_eq_int(n, 1000, "square wave 10 ms, repeat 500: 1000 steps");
	for (k = 0; k < n; k++)
		if (s[k].t_ms != (uint64_t)k * 10 || s[k].brightness != (k % 2 ? 0u : 255u) ||
		    s[k].cycle != (uint64_t)k / 2)
			bad++;
	tap_eq_int(bad, 0, "square wave: step k at 10 k ms, 255 and 0 in turn, cycle k / 2");
	led_model_final(t, 4, 500, &b, &end);
	tap_ok(b == 0 && end == 10000, "square wave: ends off at 10 s");
	tap_eq_int((long long)led_model_changes(s, 1000, 0), 1000,
		   "square wave starting at 255: every step is a change");

	parse("0 10 255 10");
	n = led_model_steps(t, 2, 2, s, N(s));
	tap_ok(n == 4 && s[1].t_ms == 10 && s[1].brightness == 255 && s[3].t_ms == 30,
	       "tuples shorter than 50 ms are step changes of their own duration");
}

LAB_TEST(dimming_arithmetic)
{
	unsigned int b;
	uint64_t end;
	long n;

	parse("0 120 255 0");
	n = led_model_steps(t, 2, 1, s, N(s));
	tap_ok(n == 4 && s[1].t_ms == 50 && s[1].brightness == 106 && s[2].t_ms == 100 &&
	       s[2].brightness == 212 && s[3].t_ms == 120 && s[3].brightness == 255,
	       "a 120 ms ramp: 0, 106, 212, then its target 255 at 120 ms");
	led_model_final(t, 2, 1, &b, &end);
	tap_ok(b == 255 && end == 120, "a finite pattern ending in a zero tuple ends where the ramp before it ends");

	parse("200 100 100 100");
	n = led_model_steps(t, 2, 1, s, N(s));
	tap_ok(n == 5 && s[1].brightness == 150 && s[2].brightness == 100 && s[3].brightness == 150 &&
	       s[4].brightness == 200 && s[4].t_ms == 200,
	       "downward and upward ramps: 200, 150, 100, 150, end 200");
}

LAB_TEST(indefinite)
{
	long n;

	parse("255 10 255 0 0 10 0 0");
	n = led_model_steps(t, 4, -1, s, 7);
	tap_eq_int(n, 7, "repeat -1: as many steps as asked for");
	tap_ok(s[6].t_ms == 60 && s[6].cycle == 3, "repeat -1: times keep counting across cycles");
}

LAB_TEST(jiffies)
{
	tap_eq_dbl(led_model_jiffies_ms(10, 250), 16, 1e-9,
		   "jiffies: 10 ms at HZ=250 is 3 ticks, plus the wheel's 1: 16 ms");
	tap_eq_dbl(led_model_jiffies_ms(1, 250), 8, 1e-9, "jiffies: 1 ms at HZ=250 is 1 + 1 ticks, 8 ms");
	tap_eq_dbl(led_model_jiffies_ms(50, 250), 56, 1e-9, "jiffies: 50 ms at HZ=250 is 13 + 1 ticks");
	tap_eq_dbl(led_model_jiffies_ms(100, 250), 104, 1e-9, "jiffies: 100 ms at HZ=250 is 25 + 1 ticks");
	tap_eq_dbl(led_model_jiffies_ms(10, 1000), 11, 1e-9, "jiffies: 10 ms at HZ=1000 is 10 + 1 ticks");
	tap_eq_dbl(led_model_jiffies_ms(10, 0), 0, 0, "jiffies: unknown HZ gives 0");
}

static void verdict_is(enum target_verdict got, enum target_verdict want, const char *what)
{
	tap_eq_str(verdict_name(got), verdict_name(want), what);
}

/* The mean interval target on a mean's interval [@lo, @hi] (ms) */
static enum target_verdict mean_is(double lo, double hi, double model)
{
	struct ci ci = { lo, hi, "mean", "t" };
	char why[300];
	enum target_verdict v = led_target_mean_interval(&ci, model, why, sizeof(why));

	tap_diag("why: %s", why);
	return v;
}

/*
 * Target fixtures. pattern at 10 ms steps, HZ=250: the model says 16 ms,
 * within 2 %: [15.68, 16.32]. A kernel at HZ=1000 (11 ms) or a pattern
 * late by a tick in three steps out of four (19 ms) is NOT MET; a mean of
 * 16.2 ms with an interval [16.1, 16.3] is MET; one of 16.2 whose interval
 * reaches 16.4 is undecided, as is one of 15.6 whose interval reaches 15.7.
 */
LAB_TEST(target_mean_interval)
{
	double model = led_model_jiffies_ms(10, 250);

	verdict_is(mean_is(16.1, 16.3, model), TARGET_MET,
		   "target mean interval: [16.1, 16.3] ms against the 16 ms model is within 2 %");
	verdict_is(mean_is(18.8, 19.2, model), TARGET_NOT_MET,
		   "target mean interval: [18.8, 19.2] ms against the 16 ms model is 19 % off");
	verdict_is(mean_is(9.9, 10.1, model), TARGET_NOT_MET,
		   "target mean interval: the asked 10 ms (no tick rounding) is NOT MET");
	verdict_is(mean_is(15.9, 16.1, led_model_jiffies_ms(10, 1000)), TARGET_NOT_MET,
		   "target mean interval: 16 ms against HZ=1000's 11 ms model is NOT MET");
	verdict_is(mean_is(16.0, 16.4, model), TARGET_UNDECIDED,
		   "target mean interval: 16.2 ms whose interval reaches 16.4 (2.5 % over) is undecided");
	verdict_is(mean_is(15.5, 15.7, model), TARGET_UNDECIDED,
		   "target mean interval: 15.6 ms whose interval reaches 15.7 (inside) is undecided");
	verdict_is(mean_is(NAN, NAN, model), TARGET_NOT_JUDGED,
		   "target mean interval: no interval is not judged");
	verdict_is(mean_is(15.9, 16.1, led_model_jiffies_ms(10, 0)), TARGET_NOT_JUDGED,
		   "target mean interval: HZ unknown is not judged");
}

/*
 * abs_pattern's interval-error p99 (us) against cyclictest's p99 (us): two
 * separate samples, judged by the overlap of their p99 intervals
 * (verdict_below), as targets.c does
 */
static enum target_verdict p99_is(double lo, double hi, double ct_lo, double ct_hi)
{
	struct ci a = { lo, hi, "p99", "order statistics" }, b = { ct_lo, ct_hi, "p99", "order statistics" };
	char why[500];
	enum target_verdict v = verdict_below(&a, &b, why, sizeof(why));

	tap_diag("why: %s", why);
	return v;
}

LAB_TEST(target_within)
{
	verdict_is(p99_is(400, 440, 360, 390), TARGET_NOT_MET,
		   "target p99 within cyclictest: [400, 440] us against [360, 390] us is NOT MET");
	verdict_is(p99_is(110, 130, 360, 390), TARGET_MET,
		   "target p99 within cyclictest: [110, 130] us against [360, 390] us is MET");
	verdict_is(p99_is(7038, 8192, 7048, 8423), TARGET_UNDECIDED,
		   "target p99 within cyclictest: 7810 [7038, 8192] against 7682 [7048, 8423] overlap: undecided");
	verdict_is(p99_is(120, 130, NAN, NAN), TARGET_NOT_JUDGED,
		   "target p99 within cyclictest: no cyclictest interval is not judged");
}

LAB_TEST(target_drift)
{
	enum { NS = 400 };
	double x[NS], ramp[NS], creep[NS], flat[NS], edge[NS], slope;
	char why[300];
	struct ci ci;
	int i;

	for (i = 0; i < NS; i++) {
		double noise = ((i * 37) % 11) / 100.0 + (i % 50 == 7 ? 3.0 : 0);

		x[i] = i / 1000.0;
		ramp[i] = 6.0 * i + noise;
		creep[i] = 0.002 * i + noise;
		flat[i] = 0.3 + noise;
		edge[i] = 0.0008 * i + 4 * noise;
	}
	ci_slope(x, ramp, NS, &slope, &ci);
	verdict_is(led_target_drift(&ci, LED_DRIFT_LIMIT_MS, why, sizeof(why)), TARGET_NOT_MET,
		   "target drift: pattern's 6000 ms per 1000 steps ramp is NOT MET");
	ci_slope(x, creep, NS, &slope, &ci);
	verdict_is(led_target_drift(&ci, LED_DRIFT_LIMIT_MS, why, sizeof(why)), TARGET_NOT_MET,
		   "target drift: a creep of 2 ms per 1000 steps is NOT MET");
	ci_slope(x, flat, NS, &slope, &ci);
	verdict_is(led_target_drift(&ci, LED_DRIFT_LIMIT_MS, why, sizeof(why)), TARGET_MET,
		   "target drift: a flat error with lateness spikes is MET");
	ci_slope(x, edge, NS, &slope, &ci);
	tap_ok(slope < LED_DRIFT_LIMIT_MS && ci.hi > LED_DRIFT_LIMIT_MS,
	       "target drift fixture: slope %.2f below 1, interval to %.2f above", slope, ci.hi);
	verdict_is(led_target_drift(&ci, LED_DRIFT_LIMIT_MS, why, sizeof(why)), TARGET_UNDECIDED,
		   "target drift: a slope under 1 whose interval reaches past 1 is undecided");
	ci = (struct ci){ -1.2, 0.4, "slope", "t" };
	verdict_is(led_target_drift(&ci, LED_DRIFT_LIMIT_MS, why, sizeof(why)), TARGET_UNDECIDED,
		   "target drift: an interval reaching below -1 is undecided");
	ci = (struct ci){ -1.65, 1.58, "slope", "t" };
	verdict_is(led_target_drift(&ci, LED_DRIFT_LIMIT_MS, why, sizeof(why)), TARGET_UNDECIDED,
		   "target drift: -0.035 [-1.65, 1.58] against +-1 is undecided");
	tap_ok(strstr(why, "[-1.65, 1.58]") != NULL, "target drift: the why names the interval: \"%s\"", why);
	ci = (struct ci){ NAN, NAN, "slope", "too few points" };
	verdict_is(led_target_drift(&ci, LED_DRIFT_LIMIT_MS, why, sizeof(why)), TARGET_NOT_JUDGED,
		   "target drift: no interval (too few steps) is not judged");
}

/* abs_pattern's changes of the dimming example, with skipped steps */
LAB_TEST(match_skipping)
{
	int b[128];
	uint64_t tt[128];
	size_t c, i, n, bad = 0, skipped = 0;
	long ns;
	bool ok;

	parse("0 1000 255 2000");
	ns = led_model_steps(t, 2, 1, s, N(s));
	c = led_model_changes(s, (size_t)ns, 0);
	for (i = 0; i < c; i++) {
		b[i] = (int)s[i].brightness;
		tt[i] = s[i].t_ms * 1000000 + 1000000;
	}
	/* (the call before the check: the figures printed are the call's) */
	ok = led_model_match_skipping(b, tt, c, s, c, &bad, &skipped);
	tap_ok(ok && skipped == 0,
	       "match skipping: every change 1 ms late fits, none skipped (got bad %zu, skipped %zu)",
	       bad, skipped);
	/* a stall: changes 7 and 8 skipped, 9 set 1 ms after its time */
	for (i = 7; i + 2 < c; i++) {
		b[i] = b[i + 2];
		tt[i] = tt[i + 2];
	}
	n = c - 2;
	ok = led_model_match_skipping(b, tt, n, s, c, &bad, &skipped);
	tap_ok(ok && skipped == 2,
	       "match skipping: two steps skipped after a stall fit, and are counted (got bad %zu, "
	       "skipped %zu)", bad, skipped);
	/* change 9's value set while step 7 still runs: early, not a skip */
	tt[7] = s[7].t_ms * 1000000 + 1000000;
	ok = led_model_match_skipping(b, tt, n, s, c, &bad, &skipped);
	tap_ok(!ok && bad == 7,
	       "match skipping: a step's value set before the steps passed over ended is refused "
	       "at that change (got bad %zu)", bad);
	tt[7] = s[9].t_ms * 1000000 + 1000000;
	b[10] = 3;
	ok = led_model_match_skipping(b, tt, n, s, c, &bad, &skipped);
	tap_ok(!ok && bad == 10,
	       "match skipping: a value not in the ramp is refused (got bad %zu)", bad);
	b[10] = (int)s[12].brightness;
	tap_ok(!led_model_match_skipping(b, tt, n - 1, s, c, &bad, &skipped),
	       "match skipping: changes that stop before the model's last are refused");
}

LAB_TEST_MAIN()
