// SPDX-License-Identifier: GPL-2.0
/*
 * noise report --out DIR [--failed REASON]...: a pure function of what
 * `noise run` left in DIR (timerlat-LOAD.csv, osnoise-LOAD.csv,
 * run-LOAD.json). Writes
 *
 *   summary.json         timerlat_latency_{p50,p99,max}_us {cpu, load,
 *                        context}, noise_us_per_s {cpu, load, cause},
 *                        noise_max_single_us {cpu, load},
 *                        osnoise_periods_left_out {load}
 *   targets.json         the platform's timer IRQ and thread latency p99 on
 *                        the idle guest against taprio's default p99
 *                        lateness bound (TARGET_US)
 *   latency-cdf.csv      load,context,fraction_below,exceed,latency_us: the
 *                        CCDF over all CPUs (the figure noise/latency)
 *   platform-latency.csv load,context,cpu,quantile,latency_us,lo_us,hi_us,
 *                        n,clusters,method: the quantiles of each CPU and
 *                        of all (cpu "all") with their intervals (quantile
 *                        1: the max; the figure noise/percpu), which the
 *                        timing workloads of the same boot read
 *   causes.csv           load,cpu,cause,cause_index,median_us_per_s,
 *                        lo_us_per_s,hi_us_per_s,mean_us_per_s,max_us_per_s,
 *                        n: noise per second of each cause, the median of
 *                        the periods with its interval (cause_index: the
 *                        cause's place on the figure noise/causes)
 *
 * The status is "failed" with the driver's reasons (--failed) and the
 * report's own; exit 1 then, and when a file cannot be written.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "noise.h"

#define MAX_LOADS 8
/*
 * The limit of the targets: taprio's default p99 bound of gate lateness
 * (tune-taprio --bound-us, taprio.tune_bound_us): a platform whose own timer
 * latency exceeds it leaves no schedule a chance to meet it
 */
#define TARGET_US 1000.0

void report_fail(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_vfail(&r->failed, fmt, ap);
	va_end(ap);
}

void report_metric(struct report *r, const char *name, const char *const *params,
		   const char *unit, const double *x, size_t n)
{
	if (out_metric(r->sum, name, params, unit, x, n))
		report_fail(r, "cannot add metric %s to %s/summary.json", name, r->dir);
}

void report_estimate(struct report *r, const char *name, const char *const *params,
		     const char *unit, double v, size_t n, const struct ci *ci)
{
	if (isnan(v))
		return;	/* the reason is recorded where it was computed */
	if (out_estimate(r->sum, name, params, unit, v, n, ci))
		report_fail(r, "cannot add metric %s to %s/summary.json", name, r->dir);
}

/* The figures' CSV files; -1 (recorded) when one cannot be made */
static int open_outputs(struct report *r)
{
	static const char *const names[] = { "latency-cdf.csv", "platform-latency.csv", "causes.csv" };
	static const char *const headers[] = {
		"load,context,fraction_below,exceed,latency_us",
		"load,context,cpu,quantile,latency_us,lo_us,hi_us,n,clusters,method",
		"load,cpu,cause,cause_index,median_us_per_s,lo_us_per_s,hi_us_per_s,mean_us_per_s,"
		"max_us_per_s,n",
	};
	struct atomic_file *const af[] = { &r->cdf, &r->platform, &r->causes };
	size_t bad;

	if (!csv_open_all(af, r->dir, names, headers, 3, &bad))
		return 0;
	report_fail(r, "cannot write %s/%s", r->dir, names[bad]);
	return -1;
}

/*
 * The verdict on the interval: met when it lies at or below the limit, not
 * met when above it, not judged when it straddles it or there is none
 */
static enum target_verdict below(const struct platform_p99 *p, double limit)
{
	if (!p->have || isnan(p->lo) || isnan(p->hi))
		return TARGET_NOT_JUDGED;
	if (p->hi <= limit)
		return TARGET_MET;
	return p->lo > limit ? TARGET_NOT_MET : TARGET_NOT_JUDGED;
}

static void target(struct report *r, const char *name, const char *what,
		   const struct platform_p99 *p)
{
	enum target_verdict v = below(p, TARGET_US);
	char why[512];

	if (!p->have)
		snprintf(why, sizeof(why), "no idle timerlat %s samples with n >= 100 over all CPUs",
			 what);
	else if (isnan(p->lo))
		snprintf(why, sizeof(why), "the idle guest's timer %s latency p99 %.0f us (n=%zu, "
			 "%zu half-second blocks) has no interval (fewer than 5 blocks)", what, p->v,
			 p->n, p->clusters);
	else
		snprintf(why, sizeof(why), "the idle guest's timer %s latency p99 over all vCPUs "
			 "%.0f us (95%% CI %.0f..%.0f by a bootstrap of %zu half-second blocks, "
			 "n=%zu) %s taprio's default p99 lateness bound, %.0f us%s", what, p->v,
			 p->lo, p->hi, p->clusters, p->n,
			 v == TARGET_MET ? "lies within" : v == TARGET_NOT_MET ? "lies above" :
			 "straddles", TARGET_US, v == TARGET_NOT_MET ?
			 ": the platform alone is later than a schedule may be" : "");
	printf("%s: %s: %s\n", v == TARGET_MET ? "MET" : v == TARGET_NOT_MET ? "NOT MET" :
	       "not judged", name, why);
	if (out_target(r->sum, name, p->have ? p->v : NAN, TARGET_US, "us", v, why))
		report_fail(r, "cannot write %s/targets.json (target %s)", r->dir, name);
}

static void report(struct report *r)
{
	char tl[MAX_LOADS][32], on[MAX_LOADS][32];
	struct platform_p99 irq = { .have = false }, thread = { .have = false };
	size_t ntl = find_loads(r->dir, "timerlat", tl, MAX_LOADS);
	size_t non = find_loads(r->dir, "osnoise", on, MAX_LOADS);
	struct tl_set t;
	struct osn_set o;
	size_t i;

	if (!ntl && !non) {
		report_fail(r, "no timerlat-*.csv or osnoise-*.csv in %s: nothing ran", r->dir);
		return;
	}
	load_accel(r->dir, ntl ? tl[0] : on[0], r->accel, sizeof(r->accel));
	if (open_outputs(r))
		return;
	for (i = 0; i < ntl; i++) {
		if (load_timerlat(r->dir, tl[i], &t))
			report_fail(r, "cannot read %s/timerlat-%s.csv", r->dir, tl[i]);
		else if (!t.n)
			report_fail(r, "%s/timerlat-%s.csv has no sample", r->dir, tl[i]);
		else
			latency_figures(r, &t, &irq, &thread);
		free(t.s);
	}
	for (i = 0; i < non; i++) {
		if (load_osnoise(r->dir, on[i], &o))
			report_fail(r, "cannot read %s/osnoise-%s.csv", r->dir, on[i]);
		else if (!o.n)
			report_fail(r, "%s/osnoise-%s.csv has no period", r->dir, on[i]);
		else
			osnoise_figures(r, &o);
		free(o.r);
	}
	csv_commit_all((struct atomic_file *const[]){ &r->cdf, &r->platform, &r->causes }, 3,
		       &r->failed);
	target(r, "platform_irq_latency_p99", "IRQ", &irq);
	target(r, "platform_thread_latency_p99", "thread", &thread);
}

int cmd_report(int argc, char **argv)
{
	const char *dir = NULL;
	struct lab_list failed = { 0 };
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &dir, "DIR", "the results folder: the run's CSV files in, "
			    "the summary, targets and CSV files out", true),
		LAB_OPT_LIST("failed", &failed, "REASON", "a failure of the run, for the status "
			     "(repeatable)"),
		LAB_OPT_END
	};
	struct report r = { 0 };
	char *driver, *reason;
	int rc;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "nothing");
	r.dir = dir;
	r.sum = out_open(dir, WORKLOAD);
	if (!r.sum)
		lab_die("cannot write %s/summary.json", dir);
	report(&r);
	driver = lab_list_join(&failed, "; ");
	reason = out_reason(driver, r.failed);
	free(driver);
	rc = out_close(r.sum, reason);
	if (rc)
		fprintf(stderr, "%s: cannot write %s/summary.json\n", lab_prog, dir);
	rc = rc || r.failed ? 1 : 0;
	free(reason);
	free(r.failed);
	lab_list_free(&failed);
	return rc;
}
