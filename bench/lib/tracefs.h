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

#endif
