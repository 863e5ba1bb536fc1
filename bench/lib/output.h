/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results in the lab's contract: <dir>/summary.json, <dir>/targets.json and CSV files,
 * every file written atomically (temporary file in the same directory, fsync,
 * rename), so a reader never sees half a file.
 *
 * targets.json: [{"target", "measured", "limit", "unit", "met", "verdict", "why"}], the
 * workload's targets judged against what it measured (see out_target).
 *
 * summary.json:
 *   {"format_version": 2, "workload": NAME, "status": "ok"|"failed", ["reason": STR,]
 *    "metrics": [{"name", "params": {KEY: "VALUE"...}, "unit", "n",
 *                 "median", "mean", "stddev", "min", "max", "p99",
 *                 "ci95": {"lo", "hi", "of", "method"} | null,
 *                 ["conditions": {KEY: "VALUE"...},]
 *                 ["counts": {KEY: NUMBER | null...}]}]}
 * params are what a metric is measured at (a queue count, a value size):
 * with its name they are the metric's key, the same on every boot. What
 * only counts what happened (the samples of each side of a ratio, the
 * events lost) goes into "counts" (out_counts), so that one frame lost
 * does not make a metric of its own.
 * format_version 1 had no "counts": taprio's counts were params
 * (OUT_V1_COUNT_PARAMS, which bench/rereport.sh and labcompare move into
 * counts when they read a format 1 summary).
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

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* The format of summary.json this library writes (its "format_version") */
#define OUT_FORMAT_VERSION 2
/* The params of format 1 that were counts, NULL-terminated (in counts since 2) */
#define OUT_V1_COUNT_PARAMS \
	{ "n_ours", "n_isochron", "advances", "printed", "bpftrace_lost_events", "packets_seen_by_probe", "rounds", \
	  NULL }

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
/*
 * csv_open_all - csv_open() of @n files, DIR/@names[i] with header
 * @headers[i], into *@af[i]: all or none. When one cannot be made the ones
 * opened are aborted and its index is in *@failed. Returns 0 or -errno.
 */
int csv_open_all(struct atomic_file *const *af, const char *dir, const char *const *names,
		 const char *const *headers, size_t n, size_t *failed);
/*
 * csv_commit_all - atomic_commit() of the @n files *@af[i], every one; each
 * that fails is a failure "cannot write PATH" (out_fail into *@first).
 * Returns 0, or -1 when one failed.
 */
int csv_commit_all(struct atomic_file *const *af, size_t n, char **first);
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

/*
 * A target's verdict (verdict.h judges one on a 95 % interval): met, not
 * met, undecided (the interval straddles the limit) or not judged
 * (nothing, or no interval, to judge)
 */
/*
 * out_counts - counts of the metric added last (out_metric, out_estimate):
 * @keys "key", ..., NULL and their @values (NAN: written null, not
 * reported), written as its "counts" object, never into its params.
 * Returns 0, -EINVAL (no metric yet, a key empty or given twice), -ENOMEM.
 */
int out_counts(struct out *o, const char *const *keys, const double *values);

enum target_verdict { TARGET_NOT_MET = 0, TARGET_MET = 1, TARGET_NOT_JUDGED = -1, TARGET_UNDECIDED = -2 };

/*
 * out_target - add a target to <dir>/targets.json and rewrite it:
 * {"target", "measured", "limit", "unit", "met": true|false|null,
 *  "verdict": "met"|"not met"|"undecided"|"not judged", "why"}.
 * "met" is null when undecided or not judged; "verdict" tells those apart
 * (a targets.json without it is read as met: null = not judged).
 * @measured and @limit may be NAN (written null: nothing measured, or a
 * target with no number); @why says how the verdict came about, or why the
 * target was not decided.
 */
int out_target(struct out *o, const char *target, double measured, double limit,
	       const char *unit, enum target_verdict met, const char *why);

/*
 * out_vfail - a failure a report meets: "PROG: MESSAGE" on stderr, and the
 * message kept in *@first (malloc'd) unless it holds an earlier one, for
 * the summary's reason. Exits when out of memory.
 */
void out_vfail(char **first, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void out_fail(char **first, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* out_reason - @a and @b joined with "; " (either may be NULL); NULL when both are */
char *out_reason(const char *a, const char *b);
/*
 * out_close - write the final summary.json and free @o. @failure NULL means
 * status "ok"; otherwise status "failed" with @failure as the reason.
 */
int out_close(struct out *o, const char *failure);

#endif
