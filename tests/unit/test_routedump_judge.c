// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of routedump's targets (workloads/routedump/judge.c): each
 * target is given the numbers of a fixture where it is NOT MET, where it
 * is MET, and where its interval straddles the limit (not judged); the
 * verdict's words name the interval.
 */
#include <math.h>
#include <string.h>

#include "tap.h"

#include "../../workloads/routedump/judge.c"

static const char *const verdicts[] = { "MET", "NOT MET", "NOT JUDGED" };

static const char *vname(enum target_verdict v)
{
	return v == TARGET_MET ? verdicts[0] : v == TARGET_NOT_MET ? verdicts[1] : verdicts[2];
}

static void expect(int id, const char *what, double est, double lo, double hi, enum target_verdict want)
{
	enum target_verdict got = rd_judge(id, est, lo, hi);

	tap_eq_str(vname(got), vname(want), what);
}

LAB_TEST(verdicts)
{
	/* strict_table / legacy at 1 %: at most 0.1 */
	expect(RT_STRICT_TABLE, "strict_table ratio 0.25 [0.2, 0.3]: not met", 0.25, 0.2, 0.3, TARGET_NOT_MET);
	expect(RT_STRICT_TABLE, "strict_table ratio 0.012 [0.01, 0.015]: met", 0.012, 0.01, 0.015, TARGET_MET);
	expect(RT_STRICT_TABLE, "strict_table ratio 0.09 [0.05, 0.12]: not judged", 0.09, 0.05, 0.12,
	       TARGET_NOT_JUDGED);
	/* user share of strict_all: at most 0.15 */
	expect(RT_USER_SHARE, "user share 0.3 [0.25, 0.36]: not met", 0.3, 0.25, 0.36, TARGET_NOT_MET);
	expect(RT_USER_SHARE, "user share 0.01 [0.0, 0.05]: met", 0.01, 0.0, 0.05, TARGET_MET);
	expect(RT_USER_SHARE, "user share 0.1 with no interval (too few ticks): not judged", 0.1, NAN, NAN,
	       TARGET_NOT_JUDGED);
	/* our dump / ip route show: at most 1 */
	expect(RT_IPROUTE2, "ours / ip 1.4 [1.2, 1.6]: not met", 1.4, 1.2, 1.6, TARGET_NOT_MET);
	expect(RT_IPROUTE2, "ours / ip 0.04 [0.03, 0.05]: met", 0.04, 0.03, 0.05, TARGET_MET);
	/* ours one route a request / ip -batch: at least 1 */
	expect(RT_SINGLE_VS_IP, "single / ip 0.7 [0.6, 0.8]: not met", 0.7, 0.6, 0.8, TARGET_NOT_MET);
	expect(RT_SINGLE_VS_IP, "single / ip 1.5 [1.3, 1.7]: met", 1.5, 1.3, 1.7, TARGET_MET);
	expect(RT_SINGLE_VS_IP, "single / ip 1.1 [0.9, 1.3]: not judged", 1.1, 0.9, 1.3, TARGET_NOT_JUDGED);
	expect(RT_SINGLE_VS_IP, "single / ip with no estimate (no anchor run): not judged", NAN, NAN, NAN,
	       TARGET_NOT_JUDGED);
	/* batched insert / the kernel's own insert rate: at least 0.8 */
	expect(RT_KERNEL_LIMIT, "batched / kernel limit 0.35 [0.3, 0.4]: not met", 0.35, 0.3, 0.4, TARGET_NOT_MET);
	expect(RT_KERNEL_LIMIT, "batched / kernel limit 0.9 [0.85, 0.95]: met", 0.9, 0.85, 0.95, TARGET_MET);
	expect(RT_KERNEL_LIMIT, "batched / kernel limit exactly 0.8 [0.8, 0.9]: met (at least)", 0.8, 0.8, 0.9,
	       TARGET_MET);
	expect(RT_KERNEL_LIMIT, "batched / kernel limit 1.5 [1.3, 1.7]: not judged (the limit is no limit)", 1.5, 1.3,
	       1.7, TARGET_NOT_JUDGED);
}

LAB_TEST(words)
{
	char buf[200];

	rd_verdict_words(RT_KERNEL_LIMIT, 0.35, 0.3, 0.4, buf, sizeof(buf));
	tap_ok(!strncmp(buf, "NOT MET", 7) && strstr(buf, "[0.3, 0.4]") && strstr(buf, "at least 0.8"),
	       "a NOT MET verdict names the estimate, the limit and the interval: got \"%s\"", buf);
	rd_verdict_words(RT_KERNEL_LIMIT, 1.5, 1.3, 1.7, buf, sizeof(buf));
	tap_ok(strstr(buf, "above 1") && strstr(buf, "no limit"), "a share of the limit above 1 says why: got \"%s\"",
	       buf);
	rd_verdict_words(RT_STRICT_TABLE, 0.09, 0.05, 0.12, buf, sizeof(buf));
	tap_ok(!strncmp(buf, "not judged", 10) && strstr(buf, "[0.05, 0.12]"),
	       "a straddling interval is not judged, and says so: got \"%s\"", buf);
}

/* every target has a limit and a unit */
LAB_TEST(targets)
{
	for (int i = 0; i < RT_N; i++)
		tap_ok(rd_targets[i].limit > 0 && rd_targets[i].unit, "target %d has a limit (%g) and a unit", i,
		       rd_targets[i].limit);
}

LAB_TEST_MAIN()
