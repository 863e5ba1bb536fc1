// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/taprio_sched.c: the schedule file in tc's syntax, the
 * errors of malformed schedules (file, line and reason), and the gate model
 * the taprio workload measures packets against.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "taprio_sched.h"
#include "tap.h"

#define MS 1000000LL

static const char good[] =
	"# the kernel selftests' conservative 3-class schedule\n"
	"num_tc 3\n"
	"map 2 2 1 0 2 2 2 2 2 2 2 2 2 2 2 2\n"
	"queues 1@0 1@1 2@2\n"
	"base-time 0\n"
	"sched-entry S 01 3000000   # class 0\n"
	"sched-entry S 02 3000000\n"
	"sched-entry S 04 4000000\n"
	"clockid CLOCK_TAI\n";

static struct tsched s;

LAB_TEST(good)
{
	char err[512] = "", buf[512];

	tap_eq_int(tsched_parse_string("good.sched", good, &s, err, sizeof(err)), 0,
		   "the 3-class schedule parses");
	tap_eq_int(tsched_check(&s, err, sizeof(err)), 0, "the 3-class schedule passes the checks");
	tap_eq_int(s.num_tc, 3, "num_tc");
	tap_eq_int(s.n_map, 16, "map has 16 priorities");
	tap_eq_int(s.map[3], 0, "map: priority 3 goes to class 0");
	tap_eq_int(s.n_queues, 3, "queues: 3 ranges");
	tap_eq_int(s.count[2] * 100 + s.offset[2], 202, "queues: class 2 is 2@2");
	tap_eq_int((long long)s.n_entries, 3, "3 sched-entry lines");
	tap_eq_int(s.entries[2].gate_mask, 4, "entry 2 opens gate mask 0x04");
	tap_eq_int(s.entries[0].line, 6, "entry 0 is on line 6 (comments counted)");
	tap_eq_int(s.clockid, CLOCK_TAI, "clockid CLOCK_TAI");
	tap_eq_int(tsched_cycle(&s), 10 * MS, "the cycle is the sum of the intervals, 10 ms");
	tap_eq_int(tsched_tc_of_prio(&s, 3), 0, "priority 3 is class 0");
	tap_eq_int(tsched_tc_of_prio(&s, 2), 1, "priority 2 is class 1");
	tap_eq_int(tsched_prio_of_tc(&s, 2), 0, "class 2's first priority is 0");
	tsched_format(&s, 5, buf, sizeof(buf));
	tap_eq_str(buf, "num_tc 3 map 2 2 1 0 2 2 2 2 2 2 2 2 2 2 2 2 queues 1@0 1@1 2@2 "
		   "base-time 5 sched-entry S 01 3000000 sched-entry S 02 3000000 "
		   "sched-entry S 04 4000000 clockid CLOCK_TAI",
		   "the schedule as tc arguments");
	tap_eq_int(tsched_parse_string("x", "clockid tai num_tc 1 map 0 queues 1@0 "
				       "sched-entry H 0x1 0x10", &s, err, sizeof(err)), 0,
		   "one line, clockid 'tai', 0x masks and intervals parse as tc does");
	tap_eq_int(s.entries[0].interval, 16, "interval 0x10 is 16 ns");
	tap_eq_int(s.entries[0].command, 1, "command H is TC_TAPRIO_CMD_SET_AND_HOLD");
}

/* A malformed schedule: parse (or check) fails with this exact message */
static void bad(const char *what, const char *text, const char *want)
{
	char err[512] = "";
	int rc = tsched_parse_string("bad.sched", text, &s, err, sizeof(err));

	if (!rc)
		rc = tsched_check(&s, err, sizeof(err));
	if (rc)
		tap_eq_str(err, want, what);
	else
		tap_fail(what, "expected the error '%s', got none", want);
}

#define HEAD "num_tc 3\nmap 2 2 1 0\nqueues 1@0 1@1 2@2\nclockid CLOCK_TAI\n"

LAB_TEST(bad)
{
	bad("unknown command letter", HEAD "sched-entry S 01 300\nsched-entry X 02 300\n",
	    "bad.sched:6: sched-entry: unknown command 'X' (expected S, H or R)");
	bad("interval 0", HEAD "sched-entry S 01 300\nsched-entry S 02 0\n",
	    "bad.sched:6: sched-entry: interval 0");
	bad("gate mask beyond num_tc", HEAD "sched-entry S 09 300\n",
	    "bad.sched:5: sched-entry: gate mask 0x9 opens traffic class 3, beyond num_tc 3");
	bad("overlapping queues", "num_tc 3\nmap 0 1 2\nqueues 2@0 1@1 1@3\nclockid TAI\n"
	    "sched-entry S 1 300\n",
	    "bad.sched:3: queues: the ranges of traffic classes 0 (2@0) and 1 (1@1) overlap");
	bad("an empty queue range", "num_tc 2\nmap 0 1\nqueues 0@0 1@1\nclockid TAI\n"
	    "sched-entry S 1 300\n",
	    "bad.sched:3: queues: the range of traffic class 0 is empty (0@0)");
	bad("more classes than queue ranges", "num_tc 4\nmap 0 1 2 3\nqueues 1@0 1@1 2@2\n"
	    "clockid TAI\nsched-entry S 1 300\n",
	    "bad.sched:3: queues: 3 ranges for num_tc 4 traffic classes (one per class)");
	bad("a queue range that is not COUNT@OFFSET", "num_tc 1\nmap 0\nqueues 1@x\n",
	    "bad.sched:3: queues: '1@x' is not COUNT@OFFSET");
	bad("garbage base-time", HEAD "base-time 12abc\nsched-entry S 01 300\n",
	    "bad.sched:5: base-time '12abc' is not a time in ns (a signed 64-bit integer)");
	bad("base-time beyond 64 bits", HEAD "base-time 99999999999999999999\n",
	    "bad.sched:5: base-time '99999999999999999999' is not a time in ns (a signed 64-bit integer)");
	bad("an empty schedule", HEAD, "bad.sched: empty schedule: no sched-entry");
	bad("an empty file", "# nothing\n\n", "bad.sched: num_tc is missing (the schedule needs "
	    "num_tc, map and queues)");
	bad("an unknown keyword", HEAD "sched-entri S 01 300\n",
	    "bad.sched:5: unknown keyword 'sched-entri' (expected num_tc, map, queues, base-time, "
	    "sched-entry, cycle-time, cycle-time-extension, clockid, flags or txtime-delay)");
	bad("num_tc 0", "num_tc 0\n",
	    "bad.sched:1: num_tc '0' is not a number of traffic classes 1..16");
	bad("num_tc 17", "num_tc 17\n",
	    "bad.sched:1: num_tc '17' is not a number of traffic classes 1..16");
	bad("a priority mapped beyond num_tc", "num_tc 2\nmap 0 1 2\nqueues 1@0 1@1\nclockid TAI\n"
	    "sched-entry S 1 300\n",
	    "bad.sched:2: map: priority 2 goes to traffic class 2, beyond num_tc 2");
	bad("a map of 17 priorities", "num_tc 1\nmap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
	    "bad.sched:2: map: more than 16 priorities ('0')");
	bad("a gate mask that is not hexadecimal", HEAD "sched-entry S 0g 300\n",
	    "bad.sched:5: sched-entry: gate mask '0g' is not a hexadecimal 32-bit mask");
	bad("a negative interval", HEAD "sched-entry S 01 -300\n",
	    "bad.sched:5: sched-entry: interval '-300' is not a 32-bit number of ns");
	bad("a sched-entry cut short at the end", HEAD "sched-entry S 01\n",
	    "bad.sched:5: sched-entry: expected COMMAND GATE_MASK INTERVAL");
	bad("num_tc given twice", "num_tc 2\nnum_tc 3\n",
	    "bad.sched:2: num_tc given twice (first on line 1)");
	bad("a value missing at the end", "num_tc\n", "bad.sched:1: num_tc: its value is missing");
	bad("an unknown clock", "clockid CLOCK_FOO\n",
	    "bad.sched:1: clockid 'CLOCK_FOO' is not a clock (CLOCK_TAI, CLOCK_REALTIME, "
	    "CLOCK_MONOTONIC, CLOCK_BOOTTIME or a number)");
	bad("no clockid", "num_tc 1\nmap 0\nqueues 1@0\nsched-entry S 1 300\n",
	    "bad.sched: clockid is missing (taprio in software mode needs it, e.g. clockid CLOCK_TAI)");
	bad("a cycle-time longer than the intervals", HEAD "cycle-time 1000\nsched-entry S 1 300\n",
	    "bad.sched:5: cycle-time 1000 is longer than the sum of the intervals (300): "
	    "Linux 6.1 then restarts the list early, which the lab does not model");
}

LAB_TEST(gates)
{
	char err[512];
	const int64_t base = 1000 * MS;
	int64_t st, en;
	int e;

	tsched_parse_string("good.sched", good, &s, err, sizeof(err));
	tap_ok(tsched_gate(&s, base, 0, base, &e, &st, &en) && e == 0 && st == base &&
	       en == base + 3 * MS, "class 0 is open at the base time, in entry 0 (0..3 ms)");
	tap_ok(!tsched_gate(&s, base, 0, base + 3 * MS, &e, NULL, NULL) && e == 1,
	       "class 0 is closed at 3 ms (entry 1 starts; the window is half open)");
	tap_ok(tsched_gate(&s, base, 1, base + 3 * MS, NULL, NULL, NULL), "class 1 is open at 3 ms");
	tap_ok(tsched_gate(&s, base, 2, base + 37 * MS, &e, NULL, NULL) && e == 2,
	       "class 2 is open in entry 2 of a later cycle (37 ms)");
	tap_ok(tsched_gate(&s, base, 0, base - 1, &e, NULL, NULL) && e == -1,
	       "every gate is open before the base time");
	tap_eq_int(tsched_next_open(&s, base, 0, base + 3 * MS), base + 10 * MS,
		   "class 0 next opens at the next cycle (10 ms) after 3 ms");
	tap_eq_int(tsched_next_open(&s, base, 2, base + 1 * MS), base + 6 * MS,
		   "class 2 next opens at 6 ms after 1 ms");
	tap_eq_int(tsched_next_open(&s, base, 1, base + 4 * MS), base + 4 * MS,
		   "an open gate is open now: next_open(t) = t");
	tap_eq_int(tsched_next_open(&s, base, 3, base + 1 * MS), INT64_MAX,
		   "a class no entry opens never opens");
	tap_eq_int(tsched_next_cycle_start(&s, base, base + 1), base + 10 * MS,
		   "the next cycle start after base + 1 ns is base + 10 ms");
	tap_eq_int(tsched_next_cycle_start(&s, base, base + 20 * MS), base + 20 * MS,
		   "a cycle start is its own next cycle start");
	tap_eq_int(tsched_next_cycle_start(&s, 0, 12345 * MS + 1), 12350 * MS,
		   "base-time 0: cycles start at multiples of the cycle");

	tsched_parse_string("cut.sched", HEAD "sched-entry S 01 3000000\nsched-entry S 02 3000000\n"
			    "sched-entry S 04 4000000\ncycle-time 8000000\n", &s, err, sizeof(err));
	tap_eq_int(tsched_check(&s, err, sizeof(err)), 0, "a cycle-time shorter than the intervals passes");
	tap_ok(tsched_gate(&s, 0, 2, 7 * MS, NULL, NULL, &en) && en == 8 * MS,
	       "the last entry is cut at the end of the 8 ms cycle");
	tap_ok(tsched_gate(&s, 0, 0, 9 * MS, &e, NULL, NULL) && e == 0,
	       "1 ms into the second 8 ms cycle is entry 0 again");
}

/* One taprio_dequeue event judged: the bits and the stale flag as expected */
static void dequeue(int tc, int64_t now, int64_t tx_end, int64_t end, int64_t recorded,
		    int want, bool want_stale, const char *what)
{
	struct tsched_dequeue d = { tc, now, tx_end, end, recorded };
	bool stale = !want_stale;
	int got = tsched_check_dequeue(&s, 1000 * MS, &d, &stale);

	tap_ok(got == want && stale == want_stale, "%s: expected bits %d stale %d, got %d %d",
	       what, want, want_stale, got, stale);
}

LAB_TEST(dequeue_check)
{
	const int64_t b = 1000 * MS, us = 1000;
	char err[512];

	tsched_parse_string("good.sched", good, &s, err, sizeof(err));
	dequeue(0, b + 1 * MS, b + 1 * MS + us, b + 3 * MS, b + 1 * MS + 5 * us, 0, false,
		"class 0 at 1 ms, its entry ending at 3 ms, passes");
	dequeue(0, b + 4 * MS, b + 4 * MS + us, b + 6 * MS, b + 4 * MS, TSCHED_DEQ_CLOSED, false,
		"class 0 let through at 4 ms (entry 1 open) is a closed gate");
	dequeue(0, b + 3 * MS - 500, b + 3 * MS + 100, b + 3 * MS, b + 3 * MS, TSCHED_DEQ_LATE,
		false, "class 0 ending 100 ns after its entry's end is late (guard band)");
	/* Seen in CI on the debug kernel: the clock read at 4.35 ms, the entry's
	 * end read after the next cycle's entry 0 began (13 ms) */
	dequeue(0, b + 4350 * us, b + 4350 * us + 912, b + 13 * MS, b + 10200 * us, 0, true,
		"a clock read before a stall, recorded at 10.2 ms inside entry 0's next window, "
		"is judged at 10.2 ms and passes");
	dequeue(0, b + 4350 * us, b + 4350 * us + 912, b + 13 * MS, b + 13500 * us,
		TSCHED_DEQ_CLOSED | TSCHED_DEQ_LATE, true,
		"the same recorded at 13.5 ms (window over) is a closed gate and late");
	dequeue(0, b + 4350 * us, b + 4350 * us + 912, b + 13 * MS, INT64_MIN, TSCHED_DEQ_CLOSED,
		true, "the same with no record time is judged at its clock read: a closed gate");
	dequeue(0, b + 4350 * us, b + 4350 * us + 912, b + 13 * MS, b + 13 * MS - 500,
		TSCHED_DEQ_LATE, true, "a stale decision recorded 500 ns before the end, 912 ns "
		"to send, is late");
	dequeue(2, b - 1 * MS, b - 1 * MS + us, b, b - 1 * MS, 0, false,
		"before the base time every gate is open");
}

/* Occurrences of @word in @text */
static int count_words(const char *text, const char *word)
{
	int n = 0;

	for (; (text = strstr(text, word)); text += strlen(word))
		n++;
	return n;
}

/* A long schedule as text: every entry, however many; a short buffer: -ENOSPC */
LAB_TEST(long_text)
{
	static char text[64 * 1024];
	char err[512] = "", small[8192];
	size_t k = 0;
	char *t;
	int i;

	k += (size_t)snprintf(text + k, sizeof(text) - k, HEAD);
	for (i = 0; i < 1000; i++)
		k += (size_t)snprintf(text + k, sizeof(text) - k, "sched-entry S 0%d 1000000\n",
				      1 << (i % 3));
	tap_eq_int(tsched_parse_string("long.sched", text, &s, err, sizeof(err)), 0,
		   "a schedule of 1000 entries parses");
	t = tsched_text(&s, 0, " ");
	tap_eq_int(t ? count_words(t, "sched-entry") : -1, 1000,
		   "tsched_text gives all 1000 entries as tc arguments");
	free(t);
	tap_eq_int(tsched_format(&s, 0, small, sizeof(small)), -ENOSPC,
		   "tsched_format into 8 KiB refuses a schedule that does not fit (-ENOSPC)");
}

/* The schedule file tsched_text writes parses back to the same schedule */
LAB_TEST(round_trip)
{
	static struct tsched back;
	char err[512] = "";
	char *t;

	tap_eq_int(tsched_parse_string("full.sched", HEAD "sched-entry S 01 3000000\n"
				       "sched-entry H 06 4000000\ncycle-time 6000000\n"
				       "cycle-time-extension 250000\nflags 0x1\ntxtime-delay 300000\n",
				       &s, err, sizeof(err)), 0, "a schedule with every keyword parses");
	t = tsched_text(&s, 77, "\n");
	tap_ok(t && !tsched_parse_string("back.sched", t, &back, err, sizeof(err)),
	       "tsched_text's schedule file parses back: %s", t ? err : "out of memory");
	tap_eq_int(back.cycle_time, 6000000, "round trip keeps cycle-time");
	tap_eq_int(back.cycle_time_ext, 250000, "round trip keeps cycle-time-extension");
	tap_eq_int(back.flags, 1, "round trip keeps flags");
	tap_eq_int(back.txtime_delay, 300000, "round trip keeps txtime-delay");
	tap_eq_int(back.base_time, 77, "round trip gives the base time asked for");
	tap_eq_int(back.entries[1].command, 1, "round trip keeps the command of an entry (H)");
	tap_eq_int((long long)back.n_entries, 2, "round trip keeps the entries");
	free(t);
}

LAB_TEST_MAIN()
