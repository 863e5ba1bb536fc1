// SPDX-License-Identifier: GPL-2.0
/*
 * The taprio suite's regression cases, and what the kernel refuses, probed
 * with schedules whose timer never runs (a base-time an hour ahead, deleted
 * at once) so that a kernel without a fix is not hung by the probe:
 *
 * - skip-ahead: advance_sched() skips the entries that ended while its
 *   timer was late (the taprio_advance event has a skipped field). Without
 *   it, a schedule whose intervals are shorter than the callback takes
 *   re-arms the timer into the past for ever (RCU stall, the guest hangs):
 *   at creation 6.1 took any interval of 1 ns or more (the link speed was
 *   read only after parsing), and the lab's earlier fix was a fixed floor of
 *   10 us. With it, every interval the link minimum allows must be taken and
 *   must keep the guest running, tracepoints on: 10 us, 1 us and the minimum.
 * - a zero interval at creation with a base-time in the future: advance_sched
 *   takes the first entry, which ends where it starts, for a first run again
 *   and again (a hard lockup at the base-time); in the past, a WARN.
 * - a negative base-time, and one within an interval of KTIME_MAX: the start
 *   time and the first end overflow.
 * The bugs of a kernel without the fix are SKIPs naming them, unless
 * --known-bugs replays them (the guest is then expected to hang).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tap.h"
#include "taprio_fuzz.h"
#include "tracefs.h"

/* The shortest interval taprio allows at the link speed, as it computes it */
static uint32_t link_min_ns(void)
{
	char path[128], line[32] = "";
	long speed = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", TZ_DEV);
	f = fopen(path, "r");
	if (f) {
		if (fgets(line, sizeof(line), f))
			speed = atol(line);
		fclose(f);
	}
	if (speed <= 0)
		speed = 10;	/* SPEED_10, taprio's default */
	return (uint32_t)(TZ_ETH_ZLEN * (8000000 / speed) / 1000);
}

/* @s sent for a new qdisc, which is then deleted: 0 or -errno */
static int try_sched(struct tz_ctx *t, const struct tz_sched *s, char *extack, size_t len)
{
	int err = tz_send(t, tz_build(t, s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack, len);

	tz_delete(t);
	return err;
}

void tz_probe_kernel(struct tz_ctx *t)
{
	char fmt[4096] = "";
	struct tz_sched *s = lab_calloc(1, sizeof(*s), "a schedule");
	FILE *f = fopen(TRACEFS "/events/taprio/taprio_advance/format", "r");
	size_t n = 0;

	if (f) {
		n = fread(fmt, 1, sizeof(fmt) - 1, f);
		fclose(f);
	}
	fmt[n] = '\0';
	t->skip_ahead = strstr(fmt, " skipped;") != NULL;
	t->min_ns = link_min_ns();
	tz_sane(s, -1, 1000000);
	n = (size_t)-try_sched(t, s, NULL, 0);
	t->negbase_refused = n == EINVAL || n == ERANGE;
	tz_sane(s, tz_tai_now() + TZ_HOUR_NS, 0);
	t->zero_refused = try_sched(t, s, NULL, 0) == -EINVAL;
	free(s);
}

/* Every CPU answers 2 s after @what was sent: one TAP result */
static void alive_case(const char *what)
{
	char stuck[256];
	int bad;

	usleep(2000000);
	bad = fz_cpus_answer(20, stuck, sizeof(stuck));
	tap_ok(!bad, "taprio: regression: %s, and every CPU answers 2 s later%s%s", what,
	       bad ? ": stuck " : "", bad ? stuck : "");
}

/* The link minimum applies when the qdisc is created, not only when it is changed */
static void link_min_case(struct fz *f, struct tz_ctx *t, struct tz_sched *s)
{
	char extack[256];
	int err;

	(void)f;
	if (!t->skip_ahead) {
		tap_skip("known bug, not fixed in this kernel: taprio reads the link speed only "
			 "after parsing a new qdisc's schedule, so at creation any interval of 1 ns or "
			 "more is taken", "taprio: an interval under the link minimum (%u ns) is "
			 "refused when the qdisc is created", t->min_ns);
		return;
	}
	tz_sane(s, tz_tai_now() + TZ_HOUR_NS, t->min_ns - 1);
	err = try_sched(t, s, extack, sizeof(extack));
	tap_ok(err == -EINVAL, "taprio: an interval of %u ns, under the link minimum of %s "
	       "(%u ns), is refused when the qdisc is created: %s (\"%s\")", t->min_ns - 1,
	       TZ_DEV, t->min_ns, err ? lab_errname(err) : "taken", extack);
	tz_sane(s, tz_tai_now() + TZ_HOUR_NS, t->min_ns);
	s->has_cycle = true;
	s->cycle = 3LL * t->min_ns - 1;
	err = try_sched(t, s, extack, sizeof(extack));
	tap_ok(err == -EINVAL, "taprio: a cycle time under the link minimum per entry (3 x %u - "
	       "1 ns) is refused when the qdisc is created: %s (\"%s\")", t->min_ns,
	       err ? lab_errname(err) : "taken", extack);
}

/*
 * Schedules of @iv ns, which the gate timer cannot keep under TCG: taken,
 * run for a second with the tracepoints on, and the guest runs on
 */
static void short_case(struct fz *f, struct tz_ctx *t, struct tz_sched *s, uint32_t iv)
{
	char extack[256], stuck[256], what[128];
	long advances;
	long long skipped;
	int err, bad;

	snprintf(what, sizeof(what), "a schedule of 3 entries of %u ns%s", iv,
		 iv == t->min_ns ? " (the link minimum)" : "");
	if (!t->skip_ahead) {
		tz_sane(s, tz_tai_now() + TZ_HOUR_NS, iv);
		err = try_sched(t, s, extack, sizeof(extack));
		if (err && !f->known_bugs) {
			tap_fail(what, "refused (%s, \"%s\"): this kernel keeps a floor of its own "
				 "above the link minimum (%u ns) instead of skipping the entries its "
				 "late timer missed", lab_errname(err), extack, t->min_ns);
			return;
		}
		if (!f->known_bugs) {
			tap_skip("known bug, not fixed in this kernel: the gate timer re-arms for "
				 "each entry in turn and never catches up with intervals shorter than "
				 "its callback (RCU stall, the guest hangs); replay with --known-bugs",
				 "taprio: regression: %s is taken and the guest runs on", what);
			return;
		}
	}
	if (t->tracing)
		tracefs_write("trace", "");
	tz_sane(s, tz_tai_now() - 1000000, iv);
	err = tz_send(t, tz_build(t, s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		      sizeof(extack));
	usleep(1000000);
	bad = fz_cpus_answer(20, stuck, sizeof(stuck));
	advances = t->tracing ? tz_trace_count("taprio_advance:") : -1;
	skipped = t->tracing ? tz_trace_skipped() : -1;
	tz_delete(t);
	tap_ok(!err, "taprio: regression: %s is taken%s%s", what, err ? ": " : "",
	       err ? lab_errname(err) : "");
	tap_ok(!bad, "taprio: regression: ... and every CPU answers after a second of it, "
	       "tracepoints on%s%s", bad ? ": stuck " : "", bad ? stuck : "");
	tap_diag("taprio: %s: %ld taprio_advance events left in the trace buffer, %lld entries "
		 "skipped in them", what, advances, skipped);
	if (t->tracing && !err && iv == t->min_ns)
		tap_ok(advances > 0 && skipped > 0, "taprio: regression: ... and its advance "
		       "events count the entries skipped (%lld in %ld events)", skipped, advances);
}

/* A zero interval at creation with a base-time 2 s ahead */
static void zero_future_case(struct fz *f, struct tz_ctx *t, struct tz_sched *s)
{
	char extack[256], what[128];
	int err;

	snprintf(what, sizeof(what), "zero intervals at creation with a base-time 2 s ahead");
	if (!t->zero_refused && !f->known_bugs) {
		tap_skip("known bug, not fixed in this kernel: a new qdisc takes zero intervals; "
			 "with a base-time in the future, advance_sched() takes the first entry, "
			 "which ends at the base-time, for a first run again and again (the CPU "
			 "never leaves the timer interrupt); replay with --known-bugs",
			 "taprio: regression: %s is refused", what);
		return;
	}
	tz_sane(s, tz_tai_now() + 2000000000LL, 0);
	err = tz_send(t, tz_build(t, s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		      sizeof(extack));
	if (t->zero_refused)
		tap_ok(err == -EINVAL, "taprio: regression: %s is refused: %s (\"%s\")", what,
		       err ? lab_errname(err) : "taken", extack);
	else
		tap_diag("taprio: --known-bugs: %s was %s", what, err ? lab_errname(err) : "taken");
	alive_case(what);
	tz_delete(t);
}

/* base-time INT64_MIN: the start time's overflow */
static void negbase_case(struct fz *f, struct tz_ctx *t, struct tz_sched *s)
{
	char extack[256];
	int err;

	if (!t->negbase_refused && !f->known_bugs) {
		tap_skip("known bug, not fixed in this kernel: with a base-time before now - "
			 "KTIME_MAX, now - base overflows in taprio_get_start_time(), the start lands "
			 "near KTIME_MIN and advance_sched re-arms into the past for ever (RCU stall, "
			 "the guest hangs; seen with base-time INT64_MIN); replay with --known-bugs",
			 "taprio: regression: base-time INT64_MIN with 3 entries of 1 ms is refused or "
			 "keeps the guest alive");
		return;
	}
	tz_sane(s, INT64_MIN, 1000000);
	err = tz_send(t, tz_build(t, s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		      sizeof(extack));
	if (t->negbase_refused)
		tap_ok(err == -EINVAL || err == -ERANGE, "taprio: regression: base-time INT64_MIN "
		       "with 3 entries of 1 ms is refused: %s (\"%s\")", err ? lab_errname(err) : "taken",
		       extack);
	else
		tap_diag("taprio: --known-bugs: base-time INT64_MIN was %s", err ? lab_errname(err) : "taken");
	alive_case("base-time INT64_MIN");
	tz_delete(t);
}

/* The first livelock the fuzz found: a 1 ns entry in a 329 ns cycle */
static void livelock_case(struct fz *f, struct tz_ctx *t, struct tz_sched *s)
{
	char extack[256];
	int err;

	tz_sane(s, TZ_LIVELOCK_BASE, TZ_LIVELOCK_INTERVAL);
	s->n = 1;
	s->e[0].mask = 1;
	s->has_cycle = true;
	s->cycle = TZ_LIVELOCK_CYCLE;
	if (!t->skip_ahead && !f->known_bugs) {
		tap_skip("known bug, not fixed in this kernel: at creation taprio takes intervals "
			 "the gate timer cannot keep (advance_sched re-arms into the past: RCU "
			 "stall, the guest hangs); replay with --known-bugs",
			 "taprio: regression: cycle-time 329 ns, one entry of 1 ns, base-time "
			 "5487796268147979 is refused or keeps the guest alive");
		return;
	}
	err = tz_send(t, tz_build(t, s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		      sizeof(extack));
	if (t->skip_ahead && TZ_LIVELOCK_INTERVAL < t->min_ns)
		tap_ok(err == -EINVAL, "taprio: regression: cycle-time 329 ns, one entry of 1 ns "
		       "(under the link minimum), base-time 5487796268147979 is refused: %s (\"%s\")",
		       err ? lab_errname(err) : "taken", extack);
	else
		tap_diag("taprio: the livelock schedule was %s", err ? lab_errname(err) : "taken");
	alive_case("the 1 ns schedule");
	tz_delete(t);
}

void tz_regression_cases(struct fz *f, struct tz_ctx *t)
{
	struct tz_sched *s = lab_calloc(1, sizeof(*s), "a schedule");

	link_min_case(f, t, s);
	short_case(f, t, s, 10000);
	short_case(f, t, s, 1000);
	if (t->min_ns < 1000)
		short_case(f, t, s, t->min_ns);
	zero_future_case(f, t, s);
	livelock_case(f, t, s);
	negbase_case(f, t, s);
	free(s);
}
