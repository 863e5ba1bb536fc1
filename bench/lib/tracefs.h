/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs: its control files read and written, and the time stamp of a line
 * of its text trace, for the workloads and fuzz suites that record kernel
 * tracepoints without bpftrace.
 */
#ifndef LAB_TRACEFS_H
#define LAB_TRACEFS_H

#include <stddef.h>
#include <stdint.h>

#define TRACEFS "/sys/kernel/tracing"

/* The first line of TRACEFS/@file into @buf, newline dropped: 0 or -errno */
int tracefs_read(const char *file, char *buf, size_t len);

/* @val written to TRACEFS/@file in one write(2): 0 or the kernel's -errno */
int tracefs_write(const char *file, const char *val);

/*
 * trace_stamp - the time stamp of a line of TRACEFS/trace whose event name
 * starts at @ev inside @line ("  <idle>-0  [001] d.s2. 1796509659.004346:
 * EVENT: ..."), in ns, to the microsecond the text shows; INT64_MIN when
 * the line has none in that form (a counter clock prints no decimal point).
 */
int64_t trace_stamp(const char *line, const char *ev);

/* A line of TRACEFS/trace (or an instance's) taken apart */
struct trace_line {
	int cpu;		/* the "[001]" field */
	int64_t t_ns;		/* its time stamp, as trace_stamp() */
	const char *text;	/* what follows "STAMP: ": an event's name and fields, or a
				 * tracer's own text (osnoise's summary, timerlat's samples) */
};

/*
 * trace_line_split - @line into @tl (->text points into @line). Returns 0,
 * or -1 for a line of another form: a header ("# ..."), a "CPU:N [LOST M
 * EVENTS]" line, a stamp of a counter clock.
 */
int trace_line_split(const char *line, struct trace_line *tl);

/*
 * trace_lost_events - the M of a line "CPU:N [LOST M EVENTS]" (the ring
 * buffer overwrote or dropped M events of CPU N before the reader came), N
 * into *@cpu; -1 for any other line.
 */
long trace_lost_events(const char *line, int *cpu);

#endif
