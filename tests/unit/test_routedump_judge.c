// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of routedump's targets (workloads/routedump/judge.c): each
 * target is given the numbers of a fixture where it is NOT MET, where it
 * is MET, and where its interval straddles the limit (undecided), on
 * either side of the limit alike; the verdict's words name the interval.
 */
#include <math.h>
#include <string.h>

#include "tap.h"

#include "../../workloads/routedump/judge.c"

static void expect(int id, const char *what, double est, double lo, double hi, enum target_verdict want)
{
	struct ci ci = { lo, hi, "ratio", "bootstrap" };
	char why[300];

	tap_eq_str(verdict_name(rd_judge(id, est, &ci, why, sizeof(why))), verdict_name(want), what);
	tap_diag("why: %s", why);
}

LAB_TEST(verdicts)
{
	/* strict_table / legacy at 1 %: at most 0.1 */
	expect(RT_STRICT_TABLE, "strict_table ratio 0.25 [0.2, 0.3]: not met", 0.25, 0.2, 0.3, TARGET_NOT_MET);
	expect(RT_STRICT_TABLE, "strict_table ratio 0.012 [0.01, 0.015]: met", 0.012, 0.01, 0.015, TARGET_MET);
	expect(RT_STRICT_TABLE, "strict_table ratio 0.09 [0.05, 0.12]: undecided", 0.09, 0.05, 0.12,
	       TARGET_UNDECIDED);
	expect(RT_STRICT_TABLE, "strict_table ratio 0.11 [0.05, 0.12]: undecided (the estimate above is no verdict)",
	       0.11, 0.05, 0.12, TARGET_UNDECIDED);
	/* user share of strict_all: at most 0.15 */
	expect(RT_USER_SHARE, "user share 0.3 [0.25, 0.36]: not met", 0.3, 0.25, 0.36, TARGET_NOT_MET);
	expect(RT_USER_SHARE, "user share 0.01 [0.0, 0.05]: met", 0.01, 0.0, 0.05, TARGET_MET);
	expect(RT_USER_SHARE, "user share 0.14 [0.1, 0.2]: undecided", 0.14, 0.1, 0.2, TARGET_UNDECIDED);
	expect(RT_USER_SHARE, "user share 0.1 with no interval (too few ticks): not judged", 0.1, NAN, NAN,
	       TARGET_NOT_JUDGED);
	/* our dump / ip route show: at most 1, the same verdict either side of the limit */
	expect(RT_IPROUTE2, "ours / ip 1.4 [1.2, 1.6]: not met", 1.4, 1.2, 1.6, TARGET_NOT_MET);
	expect(RT_IPROUTE2, "ours / ip 0.04 [0.03, 0.05]: met", 0.04, 0.03, 0.05, TARGET_MET);
	expect(RT_IPROUTE2, "ours / ip 1.02 [0.7, 1.4]: undecided", 1.02, 0.7, 1.4, TARGET_UNDECIDED);
	expect(RT_IPROUTE2, "ours / ip 0.98 [0.7, 1.4]: undecided", 0.98, 0.7, 1.4, TARGET_UNDECIDED);
	/* ours one route a request / ip -batch: at least 1 */
	expect(RT_SINGLE_VS_IP, "single / ip 0.7 [0.6, 0.8]: not met", 0.7, 0.6, 0.8, TARGET_NOT_MET);
	expect(RT_SINGLE_VS_IP, "single / ip 1.5 [1.3, 1.7]: met", 1.5, 1.3, 1.7, TARGET_MET);
	expect(RT_SINGLE_VS_IP, "single / ip 1.1 [0.9, 1.3]: undecided", 1.1, 0.9, 1.3, TARGET_UNDECIDED);
	expect(RT_SINGLE_VS_IP, "single / ip 0.95 [0.9, 1.3]: undecided", 0.95, 0.9, 1.3, TARGET_UNDECIDED);
	expect(RT_SINGLE_VS_IP, "single / ip with no estimate (no anchor run): not judged", NAN, NAN, NAN,
	       TARGET_NOT_JUDGED);
	/* batched insert / the kernel's own insert rate: at least 0.8 */
	expect(RT_KERNEL_LIMIT, "batched / kernel limit 0.35 [0.3, 0.4]: not met", 0.35, 0.3, 0.4, TARGET_NOT_MET);
	expect(RT_KERNEL_LIMIT, "batched / kernel limit 0.9 [0.85, 0.95]: met", 0.9, 0.85, 0.95, TARGET_MET);
	expect(RT_KERNEL_LIMIT, "batched / kernel limit exactly 0.8 [0.8, 0.9]: met (at least)", 0.8, 0.8, 0.9,
	       TARGET_MET);
	expect(RT_KERNEL_LIMIT, "batched / kernel limit 0.78 [0.7, 0.9]: undecided", 0.78, 0.7, 0.9,
	       TARGET_UNDECIDED);
	expect(RT_KERNEL_LIMIT, "batched / kernel limit 1.5 [1.3, 1.7]: not judged (the limit is no limit)", 1.5, 1.3,
	       1.7, TARGET_NOT_JUDGED);
}

LAB_TEST(words)
{
	struct ci ci = { 0.3, 0.4, "ratio", "bootstrap" };
	char buf[300];

	rd_judge(RT_KERNEL_LIMIT, 0.35, &ci, buf, sizeof(buf));
	tap_ok(!strncmp(buf, "NOT MET", 7) && strstr(buf, "[0.3, 0.4]") && strstr(buf, "at least 0.8"),
	       "a NOT MET verdict names the limit and the interval: got \"%s\"", buf);
	ci = (struct ci){ 1.3, 1.7, "ratio", "bootstrap" };
	rd_judge(RT_KERNEL_LIMIT, 1.5, &ci, buf, sizeof(buf));
	tap_ok(strstr(buf, "above 1") && strstr(buf, "no limit"), "a share of the limit above 1 says why: got \"%s\"",
	       buf);
	ci = (struct ci){ 0.05, 0.12, "ratio", "bootstrap" };
	rd_judge(RT_STRICT_TABLE, 0.09, &ci, buf, sizeof(buf));
	tap_ok(!strncmp(buf, "undecided", 9) && strstr(buf, "[0.05, 0.12]"),
	       "a straddling interval is undecided, and says so: got \"%s\"", buf);
}

/* every target has a limit and a unit */
LAB_TEST(targets)
{
	for (int i = 0; i < RT_N; i++)
		tap_ok(rd_targets[i].limit > 0 && rd_targets[i].unit, "target %d has a limit (%g) and a unit", i,
		       rd_targets[i].limit);
}

LAB_TEST_MAIN()
