// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs report --out DIR [--failed REASON]...: the one place summary.json
 * and targets.json are made. Reads what `bpfqs run` wrote into DIR
 * (setup.csv, the batches, prog-repeat.csv, prog-timer.csv,
 * contention-windows.csv), publishes every figure as a metric (the median
 * over all batches after warm-up, with its 95 % interval), writes the
 * per-figure CSV files the plots read, judges the targets and closes the
 * summary: status "ok", or "failed" with the reasons given by --failed and
 * any file that could not be read or written. Exit code 1 when a file
 * could not be read or written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csv.h"
#include "output.h"
#include "bpfqs.h"

#define MAX_COLS 8

/* A row of a samples file into its series; 0, or -1 with @why set */
typedef int (*row_fn)(const struct csv *c, const int *col, char *why, size_t len);

/* The reasons of a failed report, "; "-separated */
static char *reasons;

static void __attribute__((format(printf, 1, 2))) add_reason(const char *fmt, ...)
{
	char *r, *joined;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&r, fmt, ap);
	va_end(ap);
	if (n < 0)
		lab_die("out of memory for the failure reasons");
	if (reasons) {
		if (asprintf(&joined, "%s; %s", reasons, r) < 0)
			lab_die("out of memory for the failure reasons");
		free(reasons);
		free(r);
		r = joined;
	}
	reasons = r;
}

/* Field @i of the row as a number: the whole field, or -1 with @why set */
static int num(const struct csv *c, int i, double *x, char *why, size_t len)
{
	const char *s = csv_field(c, i);
	char *end;

	errno = 0;
	*x = strtod(s, &end);
	if (!*s || *end || errno == ERANGE) {
		snprintf(why, len, "%s:%zu: %s '%s' is not a number", c->path, c->lineno, c->header[i], s);
		return -1;
	}
	return 0;
}

/* The map kind of field @i, or -1 with @why set */
static int kind_field(const struct csv *c, int i, char *why, size_t len)
{
	int k = kind_of(csv_field(c, i));

	if (k < 0)
		snprintf(why, len, "%s:%zu: unknown map '%s'", c->path, c->lineno, csv_field(c, i));
	return k;
}

/* Read <dir>/<name>, whose header must have @cols, row by row into @fn */
static int read_csv(const char *dir, const char *name, const char *const *cols, row_fn fn, char *why, size_t len)
{
	int col[MAX_COLS], rc = 0, i;
	struct csv c;
	char *path;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		lab_die("out of memory");
	if (csv_read_open(&c, path)) {
		snprintf(why, len, "cannot read %s", path);
		free(path);
		return -1;
	}
	for (i = 0; cols[i] && !rc; i++) {
		col[i] = csv_col(&c, cols[i]);
		if (col[i] < 0) {
			snprintf(why, len, "%s: no column '%s'", path, cols[i]);
			rc = -1;
		}
	}
	while (!rc && (i = csv_next(&c)) > 0)
		rc = fn(&c, col, why, len);
	if (!rc && i < 0) {
		snprintf(why, len, "cannot read %s", path);
		rc = -1;
	}
	csv_read_close(&c);
	free(path);
	return rc;
}

static int user_row(const struct csv *c, const int *col, char *why, size_t len)
{
	double vsize, warm, x;
	struct series *s;
	int k = kind_field(c, col[0], why, len);

	if (k < 0 || num(c, col[2], &vsize, why, len) || num(c, col[3], &warm, why, len) ||
	    num(c, col[4], &x, why, len))
		return -1;
	s = series_get("user_ns_per_op", "ns", k, csv_field(c, col[1]), (unsigned int)vsize, 0, false);
	if (!warm)
		series_add(s, x);
	return 0;
}

/* The empty loop's rows are its ns per run, the operations' their ns per operation */
static int prog_row(const struct csv *c, const int *col, char *why, size_t len)
{
	double vsize, warm, k, repeat, run_ns, x;
	const char *op = csv_field(c, col[1]);
	bool empty = !strcmp(op, "empty");
	struct series *s;
	int kind = kind_field(c, col[0], why, len);

	if (kind < 0 || num(c, col[2], &vsize, why, len) || num(c, col[3], &warm, why, len) ||
	    num(c, col[4], &k, why, len) || num(c, col[5], &repeat, why, len) ||
	    num(c, col[6], &run_ns, why, len) || num(c, col[7], &x, why, len))
		return -1;
	if (k < 1 || repeat < 1) {
		snprintf(why, len, "%s:%zu: k %g and repeat %g must be at least 1", c->path, c->lineno, k, repeat);
		return -1;
	}
	s = series_get(empty ? "prog_empty_ns_per_run" : "prog_ns_per_op", "ns", kind, empty ? NULL : op,
		       (unsigned int)vsize, 0, false);
	s->k = (unsigned int)k;
	s->repeat = (unsigned int)repeat;
	if (!warm && (!s->n || run_ns < s->min_run))
		s->min_run = run_ns;
	if (!warm)
		series_add(s, empty ? run_ns : x);
	return 0;
}

static int cont_row(const struct csv *c, const int *col, char *why, size_t len)
{
	static const char *const metric[][2] = {
		{ "aggregate", "contended_mops" },
		{ "thread", "contended_thread_mops" },
	};
	const char *what = csv_field(c, col[4]);
	double threads, warm, x;
	struct series *s;
	size_t m;
	int k = kind_field(c, col[0], why, len);

	if (k < 0 || num(c, col[1], &threads, why, len) || num(c, col[3], &warm, why, len) ||
	    num(c, col[5], &x, why, len))
		return -1;
	for (m = 0; m < 2 && strcmp(what, metric[m][0]); m++)
		;
	if (m == 2) {
		snprintf(why, len, "%s:%zu: unknown figure '%s'", c->path, c->lineno, what);
		return -1;
	}
	s = series_get(metric[m][1], "Mops/s", k, NULL, 0, (unsigned int)threads,
		       !strcmp(csv_field(c, col[2]), "yes"));
	if (!warm)
		series_add(s, x);
	return 0;
}

static struct run_facts facts;
static double *timer_ns;
static size_t n_timer;

static int setup_row(const struct csv *c, const int *col, char *why, size_t len)
{
	const char *name = csv_field(c, col[0]);
	double x;

	if (strcmp(name, "vcpus") && strcmp(name, "host_cpus"))
		return 0;
	if (num(c, col[1], &x, why, len))
		return -1;
	*(!strcmp(name, "vcpus") ? &facts.vcpus : &facts.host_cpus) = (unsigned int)x;
	return 0;
}

/* prog-timer.csv: the fixed cost per test-run call, one estimate per pair of calls */
static int timer_row(const struct csv *c, const int *col, char *why, size_t len)
{
	double x;

	if (num(c, col[0], &x, why, len))
		return -1;
	timer_ns = lab_realloc(timer_ns, n_timer + 1, sizeof(double), "the timer's cost");
	timer_ns[n_timer++] = x;
	return 0;
}

/* prog-repeat.csv: per in-program unit, its repeat and what capped it */
static int repeat_row(const struct csv *c, const int *col, char *why, size_t len)
{
	double vsize, needed, repeat;
	int k = kind_field(c, col[0], why, len);

	if (k < 0 || num(c, col[1], &vsize, why, len) || num(c, col[2], &needed, why, len) ||
	    num(c, col[3], &repeat, why, len))
		return -1;
	if (facts.n_units == sizeof(facts.units) / sizeof(facts.units[0])) {
		snprintf(why, len, "%s:%zu: more than %zu units", c->path, c->lineno, facts.n_units);
		return -1;
	}
	facts.units[facts.n_units].kind = k;
	facts.units[facts.n_units].vsize = (unsigned int)vsize;
	facts.units[facts.n_units].needed = (unsigned int)needed;
	facts.units[facts.n_units].repeat = (unsigned int)repeat;
	snprintf(facts.units[facts.n_units].limit, sizeof(facts.units[0].limit), "%s", csv_field(c, col[4]));
	facts.n_units++;
	return 0;
}

/* One input file; a failure to read it is a reason of the report's */
static int input(const char *dir, const char *name, const char *const *cols, row_fn fn)
{
	char why[512];

	if (!read_csv(dir, name, cols, fn, why, sizeof(why)))
		return 0;
	fprintf(stderr, "bpfqs: %s\n", why);
	add_reason("%s", why);
	return -1;
}

/* Publish the series from @first on; -1 when summary.json cannot be written */
static int publish_from(struct out *o, const char *dir, size_t first)
{
	size_t i;

	for (i = first; i < n_series; i++)
		if (series_publish(o, all_series[i])) {
			add_reason("cannot add metric %s to %s/summary.json (the reason is in the log)",
				   all_series[i]->metric, dir);
			return -1;
		}
	return 0;
}

/*
 * The test run's fixed cost per call (prog_testrun_fixed_ns_per_call, its
 * median into facts), the single-thread figures, their ratios, then the
 * contention figures
 */
static int read_and_publish(struct out *o, const char *dir)
{
	static const char *const user_cols[] = { "map", "op", "value_size", "warmup", "ns_per_op", NULL };
	static const char *const prog_cols[] = { "map", "op", "value_size", "warmup", "k", "repeat",
						 "ns_per_run", "ns_per_op", NULL };
	static const char *const cont_cols[] = { "map", "threads", "shared", "warmup", "what", "mops", NULL };
	static const char *const setup_cols[] = { "name", "value", NULL };
	static const char *const timer_cols[] = { "fixed_ns_per_call", NULL };
	static const char *const repeat_cols[] = { "map", "value_size", "repeat_needed", "repeat", "limited_by",
						   NULL };
	char why[512];
	size_t first;
	int rc = 0;

	rc |= input(dir, "setup.csv", setup_cols, setup_row);
	rc |= input(dir, "prog-timer.csv", timer_cols, timer_row);
	rc |= input(dir, "prog-repeat.csv", repeat_cols, repeat_row);
	facts.timer_n = n_timer;
	facts.timer_call_ns = n_timer ? stats_median(timer_ns, n_timer) : NAN;
	if (out_metric(o, "prog_testrun_fixed_ns_per_call", NULL, "ns", timer_ns, n_timer)) {
		add_reason("cannot add metric prog_testrun_fixed_ns_per_call to %s/summary.json", dir);
		return -1;
	}
	rc |= input(dir, "user-batches.csv", user_cols, user_row);
	rc |= input(dir, "prog-batches.csv", prog_cols, prog_row);
	if (publish_from(o, dir, 0))
		return -1;
	if (write_ratios(o, dir, why, sizeof(why))) {
		add_reason("%s", why);
		rc = -1;
	}
	first = n_series;
	rc |= input(dir, "contention-windows.csv", cont_cols, cont_row);
	if (publish_from(o, dir, first))
		return -1;
	return rc;
}

/*
 * The files made from the figures: the plots' CSV files, targets.json,
 * notes.md; and the probe's counts against the known load (probe-check.csv)
 */
static int write_derived(struct out *o, const char *dir)
{
	char why[512];
	int rc = 0;

	if (write_ns_per_op(dir, why, sizeof(why))) {
		add_reason("%s", why);
		rc = -1;
	}
	if (write_contention(dir, why, sizeof(why))) {
		add_reason("%s", why);
		rc = -1;
	}
	if (write_targets(o, dir, &facts, why, sizeof(why))) {
		add_reason("%s", why);
		rc = -1;
	}
	switch (probe_check(dir, why, sizeof(why))) {
	case 0:
		break;
	case 1:
		add_reason("%s", why);
		break;
	default:
		add_reason("%s", why);
		rc = -1;
	}
	return rc;
}

int cmd_report(int argc, char **argv)
{
	const char *out = NULL;
	struct lab_list failed = { 0 };
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &out, "DIR", "the folder bpfqs run wrote into; the summary goes there", true),
		LAB_OPT_LIST("failed", &failed, "REASON", "the workload failed for REASON (repeatable)"),
		LAB_OPT_END
	};
	size_t i;
	struct out *o;
	int rc = 0;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "nothing");
	for (i = 0; i < failed.n; i++)
		add_reason("%s", failed.item[i]);
	lab_list_free(&failed);
	o = out_open(out, "bpfqs");
	if (!o) {
		fprintf(stderr, "bpfqs: cannot write %s/summary.json\n", out);
		return 1;
	}
	if (read_and_publish(o, out))
		rc = 1;
	if (write_derived(o, out))
		rc = 1;
	if (out_close(o, reasons)) {
		fprintf(stderr, "bpfqs: cannot write %s/summary.json\n", out);
		rc = 1;
	}
	if (reasons)
		fprintf(stderr, "bpfqs: report: status failed: %s\n", reasons);
	series_free_all();
	free(reasons);
	reasons = NULL;
	free(timer_ns);
	timer_ns = NULL;
	n_timer = 0;
	return rc;
}
