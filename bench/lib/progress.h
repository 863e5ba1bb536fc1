/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a long verb (each workload's run) tells its driver while it works,
 * and why it failed when it does.
 *
 * Progress: the verb is made of parts (a table size to insert, a cell to
 * measure, a variant of a schedule), each of a number of units (routes,
 * steps, packets). progress_part() starts the next part, progress_add() and
 * progress_set() count its units done. A line says where the verb is, at
 * most one every PROGRESS_INTERVAL_S seconds:
 *
 *	run: inserting ipv4 routes: 400000/1000000 routes (40%), about 95 s
 *	left of this part; part 3 of 8, 260 s in all
 *
 * on stderr, and with --progress FILE appended to FILE as "note PROG TEXT"
 * (the lab's progress channel, $LAB_OUT/guest/progress, which the host
 * prints: bench/progress.sh). Not thread-safe: one thread reports.
 *
 * Failure: with --fail-file FILE, the first lab_fail() of the process (and
 * lab_die(), kind "error") writes the reason into FILE as
 *	{"format_version": 1, "program": PROG, "verb": VERB, "kind": KIND,
 *	 "reason": TEXT}
 * which the driver reads instead of the verb's messages or exit code.
 */
#ifndef BENCH_PROGRESS_H
#define BENCH_PROGRESS_H

#include <stdarg.h>
#include <stdint.h>

#define PROGRESS_INTERVAL_S 5
#define FAIL_FORMAT_VERSION 1

/* Set by the options below; NULL: none */
extern const char *progress_path, *lab_fail_path;

#define LAB_OPT_PROGRESS \
	LAB_OPT_STR("progress", &progress_path, "FILE", \
		    "append a progress line (note PROG TEXT) to FILE at most every 5 s", false)
#define LAB_OPT_FAIL_FILE \
	LAB_OPT_STR("fail-file", &lab_fail_path, "FILE", \
		    "on failure, write the reason into FILE (JSON)", false)

/* A verb of @parts parts (0: not known ahead) starts; opens --progress FILE */
void progress_start(int parts);
/* The next part: @total units (0: not known ahead) named @unit, then what it is */
void progress_part(uint64_t total, const char *unit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* What the part is at now, its units as they are (no line) */
void progress_what(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* @n more units of the part done / @done of them done */
void progress_add(uint64_t n);
void progress_set(uint64_t done);

/*
 * lab_fail - the verb failed because of @fmt: the first call writes it to
 * --fail-file (when given) with @kind, a word the driver may act on
 * ("refused", "unsynced", "error"); later calls are ignored. Prints nothing.
 */
void lab_fail(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lab_fail_v(const char *kind, const char *fmt, va_list ap);

#endif
