// SPDX-License-Identifier: GPL-2.0
/*
 * trace_stamp(): the time stamp of a line of tracefs's text trace, by which
 * taprio conform-trace judges a dequeue decision whose clock read was stale.
 * Lines as 6.1 prints them with trace_clock tai/mono/boot, and the forms
 * that have no stamp in ns (counter clocks, other text). trace_line_split()
 * and trace_lost_events(): the lines of the osnoise and timerlat tracers and
 * of a ring buffer that lost events, as the noise workload reads them.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "tracefs.h"

/* The stamp of @line, whose event is the first "taprio_dequeue" in it */
static void stamp(const char *line, int64_t want, const char *what)
{
	const char *ev = strstr(line, "taprio_dequeue");
	int64_t got = ev ? trace_stamp(line, ev) : -1;

	tap_ok(got == want, "%s: expected %lld, got %lld", what, (long long)want, (long long)got);
}

LAB_TEST(stamps)
{
	stamp("          <idle>-0       [001] d.s2. 1796509659.004346: taprio_dequeue: dev=eth0 "
	      "skbaddr=0000 len=64", 1796509659004346000LL,
	      "a TAI stamp (seconds since 1970) to the microsecond");
	stamp("   lab-taprio-207     [000] ..... 42.000001: taprio_dequeue: dev=eth0",
	      42000001000LL, "a small mono stamp, its leading zeros kept");
	stamp("   lab-taprio-207     [000] ..... 0.000000: taprio_dequeue: dev=eth0", 0,
	      "stamp zero");
}

/* the forms that have no stamp in ns */
LAB_TEST(no_stamp)
{
	stamp("   lab-taprio-207     [000] ..... 123456789: taprio_dequeue: dev=eth0", INT64_MIN,
	      "a counter clock (no decimal point) has no stamp in ns");
	stamp("   lab-taprio-207     [000] ..... 42.0001: taprio_dequeue: dev=eth0", INT64_MIN,
	      "four decimals are not microseconds: no stamp");
	stamp("   lab-taprio-207     [000] ..... 4x.000001: taprio_dequeue: dev=eth0", INT64_MIN,
	      "a stamp that is not a number: none");
	stamp("taprio_dequeue: dev=eth0", INT64_MIN, "the event at the line's start: no stamp");
	stamp("# tracer: nop taprio_dequeue", INT64_MIN, "a header line naming the event: no stamp");
}

LAB_TEST(split)
{
	struct trace_line tl;
	int cpu = -1;

	tap_ok(!trace_line_split("          <idle>-0       [001] d.h1.    54.029328: #1     context"
				 "    irq timer_latency       932 ns", &tl) && tl.cpu == 1 &&
	       tl.t_ns == 54029328000LL && !strcmp(tl.text, "#1     context    irq timer_latency"
						    "       932 ns"),
	       "a timerlat sample: CPU 1, its stamp, the text after it");
	tap_ok(!trace_line_split("           <...>-859     [012] ....    81.637220: 1000000        "
				 "190  99.98100       9", &tl) && tl.cpu == 12 &&
	       !strncmp(tl.text, "1000000 ", 8), "osnoise's summary: its numbers after the stamp");
	tap_ok(!trace_line_split(" kworker/0:1H-[3]-77 [000] d.h.. 5789.857532: irq_noise: local_timer:236 "
				 "start 5789.857529929 duration 1845 ns", &tl) && tl.cpu == 0 &&
	       !strncmp(tl.text, "irq_noise: ", 11), "a task name with brackets and a colon: CPU 0, "
	       "the event after the stamp");
	tap_ok(trace_line_split("# tracer: timerlat", &tl) == -1, "a header line: none");
	tap_ok(trace_line_split("CPU:3 [LOST 120 EVENTS]", &tl) == -1, "a lost-events line: none");
	tap_ok(trace_line_split("   osnoise/0-80 [000] .... 123456789: 1000000 190", &tl) == -1,
	       "a counter clock's stamp: none");
	tap_eq_int(trace_lost_events("CPU:3 [LOST 120 EVENTS]", &cpu), 120,
		   "trace_lost_events: the count of a lost-events line");
	tap_eq_int(cpu, 3, "and its CPU");
	tap_eq_int(trace_lost_events("   <idle>-0 [003] .... 1.000000: LOST", &cpu), -1,
		   "trace_lost_events of another line: -1");
}

LAB_TEST_MAIN()
