// SPDX-License-Identifier: GPL-2.0
/*
 * ledjitter report: both observers against the model. Reads what `run`
 * and the probe left in --out DIR and writes DIR/summary.json,
 * targets.json, steps-CELL.csv, errors.csv, error-hist.csv, drift.csv,
 * table.csv and cyclictest-LOAD.csv. --failed REASON (repeatable): the
 * driver's failures, which make the status "failed" with them as the
 * reason. A file that cannot be written fails the report (exit 1), named
 * in the summary's reason when the summary itself can be written.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ledjitter.h"

void report_fail(struct outputs *o, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (rc < 0)
		lab_die("out of memory");
	fprintf(stderr, "%s: %s\n", lab_prog, msg);
	if (o->failed)
		free(msg);
	else
		o->failed = msg;
}

void report_metric(struct outputs *o, const char *name, const char *const *params,
		   const char *unit, const double *x, size_t n)
{
	if (out_metric(o->sum, name, params, unit, x, n))
		report_fail(o, "cannot add metric %s to %s/summary.json", name, o->dir);
}

/* The CSV files all cells write into; -1 (recorded) when one cannot be made */
static int open_outputs(struct outputs *o)
{
	static const struct {
		size_t off;
		const char *name, *header;
	} files[] = {
		{ offsetof(struct outputs, errors), "errors.csv",
		  "mode,step_ms,load,observer,step,t_ideal_s,err_ms,interval_err_ms" },
		{ offsetof(struct outputs, hist), "error-hist.csv",
		  "mode,step_ms,load,observer,low_us,high_us,count" },
		{ offsetof(struct outputs, drift), "drift.csv",
		  "mode,step_ms,load,observer,cycle,err_ms" },
		{ offsetof(struct outputs, table), "table.csv",
		  "mode,step_ms,load,observer,n_intervals,interval_err_p50_us,p50_lo,p50_hi,"
		  "interval_err_p99_us,p99_lo,p99_hi,interval_err_max_us,mean_interval_ms,mean_lo,"
		  "mean_hi,jiffies_model_ms,drift_ms_per_1000_steps,drift_lo,drift_hi,n_steps,"
		  "median_step_err_us,lost_events,model_changes,kernel_changes" },
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(*files); i++) {
		struct atomic_file *af = (struct atomic_file *)((char *)o + files[i].off);

		if (csv_open(af, o->dir, files[i].name, files[i].header)) {
			report_fail(o, "cannot write %s/%s", o->dir, files[i].name);
			while (i-- > 0)
				atomic_abort((struct atomic_file *)((char *)o + files[i].off));
			return -1;
		}
	}
	return 0;
}

static void commit_outputs(struct outputs *o)
{
	struct atomic_file *af[] = { &o->errors, &o->hist, &o->drift, &o->table };
	size_t i;

	for (i = 0; i < sizeof(af) / sizeof(*af); i++) {
		char *path = strdup(af[i]->path);

		if (atomic_commit(af[i]))
			report_fail(o, "cannot write %s", path ? path : "a CSV file");
		free(path);
	}
}

/* Every cell that ran, against the model; HZ of the kernel they ran on (0: unknown) */
static unsigned int analyze_cells(struct outputs *o, const struct cell *cells, size_t n,
				  const struct kevents *k, struct cell_stats *cs)
{
	unsigned int hz = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!hz && cells[i].hz)
			hz = cells[i].hz;
		if (!strcmp(cells[i].status, "skipped")) {
			fprintf(stderr, "%s: %s: skipped when it ran, not analyzed\n", lab_prog,
				cells[i].cell);
			continue;
		}
		if (strcmp(cells[i].status, "ok"))
			fprintf(stderr, "%s: %s: %s: analyzing what was read\n", lab_prog,
				cells[i].cell, cells[i].status);
		analyze_cell(o, &cells[i], k, &cs[i]);
	}
	return hz;
}

/* The summary's status: the driver's failures, then the report's own */
static char *status_reason(const struct lab_list *failed, const char *own)
{
	char *driver = lab_list_join(failed, "; "), *s;

	if (!own)
		return driver;
	if (!driver)
		return strdup(own);
	if (asprintf(&s, "%s; %s", driver, own) < 0)
		s = NULL;
	free(driver);
	return s;
}

/*
 * abs_pattern's start against the user's references, over its cells: the
 * kernel's hr_start (the first expiry of its hrtimer) minus the time taken
 * before the write(2) (t_start, the timeline's reference) and before the
 * open(2) (t_open, the reference before this fix)
 */
static void start_lags(struct outputs *o, const struct cell_stats *cs, size_t n)
{
	double *w = lab_calloc(n + 1, sizeof(*w), "start lags");
	double *op = lab_calloc(n + 1, sizeof(*op), "start lags");
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(cs[i].start_lag_us)) {
			w[k] = cs[i].start_lag_us;
			op[k++] = cs[i].open_lag_us;
		}
	if (k) {
		report_metric(o, "hr_start_lag_us", (const char *[]){ "reference", "write", NULL },
			      "us", w, k);
		report_metric(o, "hr_start_lag_us", (const char *[]){ "reference", "open", NULL },
			      "us", op, k);
	}
	free(w);
	free(op);
}

static void report(struct outputs *o, const char *probe)
{
	struct kevents k = { 0 };
	struct ct_stats ct_idle, ct_busy;
	struct cell_stats *cs;
	struct cell *cells;
	size_t n;
	long probe_lost;
	unsigned int hz;

	n = load_cells(o->dir, &cells);
	if (!n) {
		report_fail(o, "no cells-*.csv in %s: nothing ran", o->dir);
		return;
	}
	probe_lost = load_probe_lost(o->dir);
	load_probe(probe, &k);
	if (open_outputs(o)) {
		free_cells(cells, n);
		free_probe(&k);
		return;
	}
	cs = lab_calloc(n, sizeof(*cs), "cell figures");
	hz = analyze_cells(o, cells, n, &k, cs);
	if (hz) {
		double v = hz;

		report_metric(o, "kernel_hz", NULL, "Hz", &v, 1);
	}
	start_lags(o, cs, n);
	if (probe_lost >= 0) {
		double v = (double)probe_lost;

		report_metric(o, "probe_lost_events", NULL, "events", &v, 1);
	}
	analyze_cyclictest(o, "busy", &ct_busy);
	analyze_cyclictest(o, "idle", &ct_idle);
	commit_outputs(o);
	write_targets(o, cells, cs, n, &ct_idle);
	free(cs);
	free_cells(cells, n);
	free_probe(&k);
}

int cmd_report(int argc, char **argv)
{
	const char *dir = NULL, *probe = NULL;
	struct lab_list failed = { 0 };
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &dir, "DIR", "the results folder: the run's CSV files in, "
			    "the summary, targets and CSV files out", true),
		LAB_OPT_STR("probe", &probe, "FILE", "the kernel observer's events "
			    "(DIR/probe-led_timer.csv)", false),
		LAB_OPT_LIST("failed", &failed, "REASON", "a failure of the run, for the status "
			     "(repeatable)"),
		LAB_OPT_END
	};
	struct outputs o = { 0 };
	char *probe_path = NULL, *reason;
	int rc;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "nothing");
	if (!probe && asprintf(&probe_path, "%s/probe-led_timer.csv", dir) < 0)
		lab_die("out of memory");
	o.dir = dir;
	o.sum = out_open(dir, WORKLOAD);
	if (!o.sum)
		lab_die("cannot write %s/summary.json", dir);
	report(&o, probe ? probe : probe_path);
	reason = status_reason(&failed, o.failed);
	rc = out_close(o.sum, reason);
	if (rc)
		fprintf(stderr, "%s: cannot write %s/summary.json\n", lab_prog, dir);
	rc = rc || o.failed ? 1 : 0;
	free(reason);
	free(o.failed);
	free(probe_path);
	lab_list_free(&failed);
	return rc;
}
