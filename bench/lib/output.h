/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results in the lab's contract: <dir>/summary.json, <dir>/targets.json and CSV files,
 * every file written atomically (temporary file in the same directory, fsync,
 * rename), so a reader never sees half a file.
 *
 * targets.json: [{"target", "measured", "limit", "unit", "met", "why"}], the
 * workload's targets judged against what it measured (see out_target).
 *
 * summary.json:
 *   {"format_version": 1, "workload": NAME, "status": "ok"|"failed", ["reason": STR,]
 *    "metrics": [{"name", "params": {KEY: "VALUE"...}, "unit", "n",
 *                 "median", "mean", "stddev", "min", "max", "p99",
 *                 "ci95": {"lo", "hi", "of", "method"} | null,
 *                 ["conditions": {KEY: "VALUE"...}]}]}
 * p99 is null when n < STATS_P99_MIN_N (too few samples to mean anything).
 * ci95 is the 95 % interval (interval.h): of the median for a metric made
 * of samples (out_metric), of the estimate for one made by out_estimate
 * (a fraction, a ratio, a slope: "median" holds the estimate, the spread
 * fields are null); null when it cannot be computed (too few samples).
 *
 * Crash safety: out_open() already writes a summary with status "failed"
 * (reason "incomplete: the workload did not finish"), every out_metric()
 * rewrites it with the metrics so far, and only out_close(o, NULL) marks it
 * "ok". A workload that dies half-way leaves what it measured, marked failed.
 *
 * Errors: functions return 0 or -errno and print the reason on stderr,
 * naming the file or value at fault.
 */
#ifndef BENCH_OUTPUT_H
#define BENCH_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* The format of summary.json this library writes (its "format_version") */
#define OUT_FORMAT_VERSION 1

/* A file being written atomically: write to ->f, then commit or abort. */
struct atomic_file {
	FILE *f;
	char *path;
	char *tmp;
};

/* Open a temporary file beside @path; nothing appears at @path until commit. */
int atomic_open(struct atomic_file *af, const char *path);
/* Flush, fsync and rename into place; on error the temporary file is removed. */
int atomic_commit(struct atomic_file *af);
/* Drop the temporary file. */
void atomic_abort(struct atomic_file *af);

/*
 * csv_open - start <dir>/<name> with the header line @header (comma-separated
 * column names, no newline). Write rows with fprintf(af->f, ...), one line
 * each, then atomic_commit().
 */
int csv_open(struct atomic_file *af, const char *dir, const char *name, const char *header);
/* <dir>/<name> with header "sample,<column>" and one line per sample. */
int csv_write_samples(const char *dir, const char *name, const char *column,
		      const double *x, size_t n);

struct out;

/* Start the summary of @workload in @dir (created if missing, parent must exist). */
struct out *out_open(const char *dir, const char *workload);
/*
 * out_metric - add a metric computed from @n samples and rewrite summary.json.
 * @params: NULL, or "key", "value", ..., NULL (compound literals work:
 * (const char *[]){"queues", "4", NULL}). Keys must be unique and non-empty.
 * n = 0 is accepted and written with n 0 and null statistics.
 */
int out_metric(struct out *o, const char *name, const char *const *params,
	       const char *unit, const double *x, size_t n);
struct ci;
/*
 * out_estimate - add a metric that is one estimate (@value, from @n
 * observations) with its interval @ci (NULL or NAN bounds: none), e.g. a
 * Wilson fraction, a bootstrap ratio, a fitted slope.
 */
int out_estimate(struct out *o, const char *name, const char *const *params,
		 const char *unit, double value, size_t n, const struct ci *ci);
/*
 * out_conditions - the conditions the metrics added from now on are measured
 * under: "key", "value", ..., NULL as params (NULL or empty: none), written
 * as each metric's "conditions" object. What a comparison must hold equal
 * beside the kernel: the probe attached, the clock's discipline, the daemons
 * running. labcompare calls a metric whose conditions differ between the
 * runs "not comparable" and gives no change for it.
 */
int out_conditions(struct out *o, const char *const *conditions);

enum target_verdict { TARGET_NOT_MET = 0, TARGET_MET = 1, TARGET_NOT_JUDGED = -1 };

/*
 * out_target - add a target to <dir>/targets.json and rewrite it:
 * {"target", "measured", "limit", "unit", "met": true|false|null, "why"}.
 * @measured and @limit may be NAN (written null: nothing measured, or a
 * target with no number); @why says how the verdict came about, or why the
 * target was not judged (TARGET_NOT_JUDGED).
 */
int out_target(struct out *o, const char *target, double measured, double limit,
	       const char *unit, enum target_verdict met, const char *why);

/*
 * out_close - write the final summary.json and free @o. @failure NULL means
 * status "ok"; otherwise status "failed" with @failure as the reason.
 */
int out_close(struct out *o, const char *failure);

#endif
