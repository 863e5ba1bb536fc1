/* SPDX-License-Identifier: GPL-2.0 */
/*
 * taprio schedules: a file in tc's own syntax, its checks, and the gate
 * model the taprio workload measures packets against.
 *
 * The file holds the arguments of `tc qdisc replace dev DEV parent root
 * taprio ...`, one or more per line, with # comments:
 *
 *	num_tc 3
 *	map 2 2 1 0 2 2 2 2 2 2 2 2 2 2 2 2
 *	queues 1@0 1@1 2@2
 *	base-time 0
 *	sched-entry S 01 3000000
 *	sched-entry S 02 3000000
 *	sched-entry S 04 4000000
 *	clockid CLOCK_TAI
 *
 * so that tc configures the same schedule from the file with its comments
 * cut: tc qdisc replace dev eth0 parent root taprio $(cut -d'#' -f1 FILE). Keywords: num_tc, map, queues,
 * base-time, sched-entry (S, H or R, a hexadecimal gate mask, an interval in
 * ns), cycle-time, cycle-time-extension, clockid (CLOCK_TAI, TAI, ... or a
 * number), flags, txtime-delay; numbers are read as tc reads them.
 *
 * Gate model (Linux 6.1 software mode): cycle c = cycle-time, or the sum of
 * the intervals; cycle k starts at base + k * c; entry i is open from the
 * sum of the intervals before it to that plus its interval, cut at the end
 * of the cycle. Before base every gate is open (the schedule has not
 * started; IEEE 802.1Q AdminGateStates).
 *
 * Errors are written to @err as "FILE:LINE: reason" (or "FILE: reason" when
 * no line is at fault) and the functions return -EINVAL (-errno when the
 * file cannot be read).
 */
#ifndef BENCH_TAPRIO_SCHED_H
#define BENCH_TAPRIO_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define TSCHED_MAX_TC 16	/* TC_QOPT_MAX_QUEUE */
#define TSCHED_MAX_PRIO 16	/* TC_BITMASK + 1 */
#define TSCHED_MAX_ENTRIES 1024

enum tsched_key {
	TSCHED_NUM_TC,
	TSCHED_MAP,
	TSCHED_QUEUES,
	TSCHED_BASE_TIME,
	TSCHED_SCHED_ENTRY,	/* the first sched-entry */
	TSCHED_CYCLE_TIME,
	TSCHED_CYCLE_TIME_EXT,
	TSCHED_CLOCKID,
	TSCHED_FLAGS,
	TSCHED_TXTIME_DELAY,
	TSCHED_NKEYS,
};

struct tsched_entry {
	char cmd;		/* 'S', 'H' or 'R' */
	uint8_t command;	/* TC_TAPRIO_CMD_* */
	uint32_t gate_mask;
	uint32_t interval;	/* ns */
	int line;
};

struct tsched {
	char file[256];
	int num_tc;
	uint8_t map[TSCHED_MAX_PRIO];
	int n_map;
	uint16_t count[TSCHED_MAX_TC], offset[TSCHED_MAX_TC];
	int n_queues;
	int64_t base_time;
	int64_t cycle_time;	/* 0: the sum of the intervals */
	int64_t cycle_time_ext;
	int clockid;		/* -1 when not given */
	uint32_t flags;
	uint32_t txtime_delay;
	struct tsched_entry entries[TSCHED_MAX_ENTRIES];
	size_t n_entries;
	int line[TSCHED_NKEYS];	/* line of each keyword, 0 when absent */
};

/* Parse @path; @s is filled (no checks beyond syntax, see tsched_check). */
int tsched_parse_file(const char *path, struct tsched *s, char *err, size_t errlen);
/* Parse @text, naming it @name in errors. */
int tsched_parse_string(const char *name, const char *text, struct tsched *s,
			char *err, size_t errlen);

/*
 * tsched_check - what the file alone shows to be wrong: no num_tc, map or
 * queues, a priority mapped beyond num_tc, a queue range per class missing
 * or empty, overlapping queue ranges, no sched-entry, an interval of 0, a
 * gate mask opening a class beyond num_tc, a cycle-time longer than the
 * intervals (not modelled), no clockid. What depends on the device (its TX
 * queue count) is left to the kernel.
 */
int tsched_check(const struct tsched *s, char *err, size_t errlen);

/* The cycle: cycle-time, or the sum of the intervals */
int64_t tsched_cycle(const struct tsched *s);
/* Start of entry @i in the cycle, ns; its end is min(start + interval, cycle) */
int64_t tsched_entry_offset(const struct tsched *s, size_t i);
/* The traffic class of priority @prio (SO_PRIORITY), by the map */
int tsched_tc_of_prio(const struct tsched *s, int prio);
/* The first priority mapped to class @tc, or -1 */
int tsched_prio_of_tc(const struct tsched *s, int tc);
/* The first base time base + k * cycle at or after @t (base when t <= base) */
int64_t tsched_next_cycle_start(const struct tsched *s, int64_t base, int64_t t);

/*
 * tsched_gate - the gate of class @tc at time @t with the schedule running
 * from @base: returns true when it is open; *@entry gets the entry in
 * force (-1 before base), *@start and *@end its bounds (may be NULL).
 */
bool tsched_gate(const struct tsched *s, int64_t base, int tc, int64_t t,
		 int *entry, int64_t *start, int64_t *end);
/*
 * tsched_next_open - @t when the gate of @tc is open at @t, else the start
 * of its next window; INT64_MAX when no entry opens it.
 */
int64_t tsched_next_open(const struct tsched *s, int64_t base, int tc, int64_t t);

/*
 * A taprio_dequeue event of the lab kernel: class @tc passed its gate, the
 * decision read the qdisc's clock at @now, the packet ends transmitting at
 * @tx_end, its entry ends at @end; @recorded is when the event was written
 * to the trace buffer on the same clock (INT64_MIN: not known).
 */
struct tsched_dequeue {
	int tc;
	int64_t now, tx_end, end, recorded;
};

enum {
	TSCHED_DEQ_CLOSED = 1,	/* the class's gate was closed by the schedule */
	TSCHED_DEQ_LATE = 2,	/* it ends transmitting after its entry ends */
};

/*
 * tsched_check_dequeue - @d against the schedule from @base: 0 when the
 * packet passed an open gate and ends by its entry's end, else the
 * TSCHED_DEQ_* bits. Linux 6.1 reads the clock before it reads the entry's
 * end: when the CPU stalls between the two reads, the entry may already be
 * a later one, and @now lies before the window that ends at @end. Such a
 * decision is judged at @recorded instead (the packet passed at or before
 * it), and *@stale is set; with @recorded unknown it is judged at @now.
 */
int tsched_check_dequeue(const struct tsched *s, int64_t base, const struct tsched_dequeue *d,
			 bool *stale);

/*
 * tsched_text - the schedule in tc's syntax with base-time @base, every
 * keyword it holds (cycle-time, cycle-time-extension, flags and
 * txtime-delay when given), separated by @sep: " " gives tc's arguments on
 * one line, "\n" a schedule file. Returns a malloc'd string, NULL (errno
 * ENOMEM) when out of memory. The one writer of schedule text.
 */
char *tsched_text(const struct tsched *s, int64_t base, const char *sep);
/*
 * tsched_format - tsched_text(s, base, " ") into @buf of @len bytes:
 * 0, or -ENOSPC when it does not fit (nothing is written then).
 */
int tsched_format(const struct tsched *s, int64_t base, char *buf, size_t len);
/* tsched_write - the schedule as a file (one keyword a line) on @f: 0 or -errno */
int tsched_write(const struct tsched *s, int64_t base, FILE *f);
/* CLOCK_TAI -> "CLOCK_TAI" etc. */
const char *tsched_clock_name(int clockid);

#endif
