// SPDX-License-Identifier: GPL-2.0
/*
 * trace_stamp(): the time stamp of a line of tracefs's text trace, by which
 * taprio conform-trace judges a dequeue decision whose clock read was stale.
 * Lines as 6.1 prints them with trace_clock tai/mono/boot, and the forms
 * that have no stamp in ns (counter clocks, other text).
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

LAB_TEST_MAIN()
