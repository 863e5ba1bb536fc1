// SPDX-License-Identifier: GPL-2.0
/*
 * The table and the recommendation of a tuning sweep: from the figures
 * `taprio report` makes of the sweep's records (tune_add, tune_write), or
 * with tune-report from the summary.json of each variant
 * (DIR/tune/KIND-tcN-xSCALE/, the cells of a matrix) and its
 * schedule.sched. Writes DIR/tune.csv, one line a variant and class:
 *   kind,tc,scale,window_us,cycle_us,packets,violations,in_window_pct,
 *   in_window_lo,in_window_hi,outside_max_pct,p99_lateness_us,p99_lo,p99_hi,
 *   median_lateness_us,rounds,rounds_outside
 * (a figure the variant does not have is an empty field; outside_max_pct
 * is the 95 % upper bound of the share outside, 100 - in_window_lo), and
 * DIR/tune-recommendation.txt: per class, the shortest window that passes,
 * every longer window of the sweep passing too, where a window passes with
 * every packet sent inside it (none outside, none without a TX timestamp)
 * and, when it has a p99 (with its interval: n >= 368), the interval's
 * upper end within the bound; with too few packets for a p99 it passes on
 * its violations alone, and says so. Each line gives the violations' upper
 * bound, and names the shorter windows whose intervals overlap the
 * recommended one's: those the sweep cannot tell apart from it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "taprio.h"

struct tune_row {
	char kind[16], scale[16];
	int tc;
	double scale_v;
	long long window_us, cycle_us;	/* -1: no schedule */
	/* NAN: the variant does not have the figure */
	double packets, violations, in_window, p99, median;
	double in_lo, in_hi, p99_lo, p99_hi;
	double rounds, bad_rounds;
};

/* Metric @name of class @tc in @root, or NULL */
static json_t *metric_of(json_t *root, const char *name, int tc)
{
	json_t *m;
	size_t i;
	char tcs[8];

	snprintf(tcs, sizeof(tcs), "%d", tc);
	json_array_foreach(json_object_get(root, "metrics"), i, m) {
		const char *n = json_string_value(json_object_get(m, "name"));
		const char *t = json_string_value(json_object_get(json_object_get(m, "params"), "tc"));

		if (n && t && !strcmp(n, name) && !strcmp(t, tcs))
			return m;
	}
	return NULL;
}

/* The number @key of @o, NAN when absent or null */
static double num_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The statistic @field of metric @name of class @tc in @root, NAN when absent or null */
static double figure(json_t *root, const char *name, int tc, const char *field)
{
	return num_of(metric_of(root, name, tc), field);
}

/* The windows of class @tc in the variant's schedule, in whole us */
static void row_windows(struct tune_row *r, const struct tsched *s)
{
	struct class_windows w;

	class_windows(s, r->tc, &w);
	r->window_us = w.open / 1000;
	r->cycle_us = w.cycle / 1000;
}

/* The end @end ("lo" or "hi") of the ci95 of metric @name of class @tc in @root, or NAN */
static double ci_end(json_t *root, const char *name, int tc, const char *end)
{
	return num_of(json_object_get(metric_of(root, name, tc), "ci95"), end);
}

/* The figures of class @tc in a variant's summary.json */
static struct tune_figures summary_figures(json_t *root, int tc)
{
	/* in_window_pct is an estimate: "median" the % of packets sent, "n" those sent */
	struct tune_figures f = {
		.rounds = NAN,
		.bad_rounds = NAN,
		.packets = figure(root, "in_window_pct", tc, "n"),
		.violations = figure(root, "violations", tc, "median"),
		.in_window = figure(root, "in_window_pct", tc, "median"),
		.in_lo = ci_end(root, "in_window_pct", tc, "lo"),
		.in_hi = ci_end(root, "in_window_pct", tc, "hi"),
		.p99_lo = ci_end(root, "gate_lateness_p99_us", tc, "lo"),
		.p99_hi = ci_end(root, "gate_lateness_p99_us", tc, "hi"),
		.median = figure(root, "gate_lateness_us", tc, "median"),
	};

	/* a p99 only with its interval */
	f.p99 = isnan(f.p99_lo) ? NAN : figure(root, "gate_lateness_p99_us", tc, "median");
	return f;
}

void tune_add(struct tune_rows *rows, const char *name, const struct tsched *s,
	      const struct tune_figures *f, int nf)
{
	char kind[16], tcs[8], scale[16];
	struct tune_row base = { 0 };
	int tc, first, last;

	if (sscanf(name, "%15[a-z]-tc%7[0-9a-z]-x%15[0-9.]", kind, tcs, scale) != 3)
		return;
	snprintf(base.kind, sizeof(base.kind), "%s", kind);
	snprintf(base.scale, sizeof(base.scale), "%s", scale);
	base.scale_v = strtod(scale, NULL);
	first = last = (int)strtol(tcs, NULL, 10);
	if (!strcmp(tcs, "all")) {
		first = 0;
		last = s ? s->num_tc - 1 : -1;
	}
	for (tc = first; tc <= last; tc++) {
		struct tune_row *r;

		rows->r = lab_realloc(rows->r, rows->n + 1, sizeof(*rows->r), "tune rows");
		r = &rows->r[rows->n++];
		*r = base;
		r->tc = tc;
		r->packets = r->violations = r->in_window = r->p99 = r->median = NAN;
		r->in_lo = r->in_hi = r->p99_lo = r->p99_hi = r->rounds = r->bad_rounds = NAN;
		if (s)
			row_windows(r, s);
		else
			r->window_us = r->cycle_us = -1;
		if (f && tc < nf) {
			r->packets = f[tc].packets;
			r->violations = f[tc].violations;
			r->in_window = f[tc].in_window;
			r->p99 = f[tc].p99;
			r->median = f[tc].median;
			r->in_lo = f[tc].in_lo;
			r->in_hi = f[tc].in_hi;
			r->p99_lo = f[tc].p99_lo;
			r->p99_hi = f[tc].p99_hi;
			r->rounds = f[tc].rounds;
			r->bad_rounds = f[tc].bad_rounds;
		}
	}
}

/* The rows of variant @name (KIND-tcN-xSCALE) in folder @dir: its summary.json and schedule */
static void add_variant(struct tune_rows *rows, const char *dir, const char *name)
{
	struct tune_figures f[TSCHED_MAX_TC];
	char path[4096 + 512];
	struct tsched *s;
	json_t *root;
	int tc;
	char kind[16], tcs[8], scale[16];

	if (sscanf(name, "%15[a-z]-tc%7[0-9a-z]-x%15[0-9.]", kind, tcs, scale) != 3)
		return;
	snprintf(path, sizeof(path), "%s/%s/schedule.sched", dir, name);
	s = schedule_load(path, true, NULL);
	snprintf(path, sizeof(path), "%s/%s/summary.json", dir, name);
	root = json_load_file(path, 0, NULL);
	for (tc = 0; tc < TSCHED_MAX_TC; tc++)
		f[tc] = root ? summary_figures(root, tc) : (struct tune_figures)TUNE_NONE;
	tune_add(rows, name, s, f, TSCHED_MAX_TC);
	json_decref(root);
	free(s);
}

/* The sweep's order: the window variants first, by class, then by scale */
static int row_cmp(const void *a, const void *b)
{
	const struct tune_row *x = a, *y = b;
	int k = strcmp(y->kind, x->kind);

	if (k)
		return k;
	if (x->tc != y->tc)
		return x->tc - y->tc;
	return (x->scale_v > y->scale_v) - (x->scale_v < y->scale_v);
}

static void put_num(FILE *f, double v, const char *fmt)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, fmt, v);
}

static int write_table(const char *dir, const struct tune_rows *rows)
{
	struct atomic_file af;
	size_t i;
	int rc = csv_open(&af, dir, "tune.csv", "kind,tc,scale,window_us,cycle_us,packets,"
			  "violations,in_window_pct,in_window_lo,in_window_hi,outside_max_pct,"
			  "p99_lateness_us,p99_lo,p99_hi,median_lateness_us,rounds,rounds_outside");

	if (rc)
		return rc;
	for (i = 0; i < rows->n; i++) {
		const struct tune_row *r = &rows->r[i];

		fprintf(af.f, "%s,%d,%s,", r->kind, r->tc, r->scale);
		if (r->window_us >= 0)
			fprintf(af.f, "%lld,%lld", r->window_us, r->cycle_us);
		else
			fputc(',', af.f);
		put_num(af.f, r->packets, "%.0f");
		put_num(af.f, r->violations, "%.0f");
		put_num(af.f, r->in_window, "%.3f");
		put_num(af.f, r->in_lo, "%.3f");
		put_num(af.f, r->in_hi, "%.3f");
		put_num(af.f, 100 - r->in_lo, "%.3f");
		put_num(af.f, r->p99, "%.3f");
		put_num(af.f, r->p99_lo, "%.3f");
		put_num(af.f, r->p99_hi, "%.3f");
		put_num(af.f, r->median, "%.3f");
		put_num(af.f, r->rounds, "%.0f");
		put_num(af.f, r->bad_rounds, "%.0f");
		fputc('\n', af.f);
	}
	return atomic_commit(&af);
}

/* A window variant of class @tc that was measured */
static bool judged(const struct tune_row *r, int tc)
{
	return !strcmp(r->kind, "window") && r->tc == tc && !isnan(r->violations) &&
	       !isnan(r->in_window) && r->window_us >= 0;
}

/*
 * A window passes: every packet sent inside it, and a p99 (when it has one
 * with its interval) whose interval lies within the bound
 */
static bool passes(const struct tune_row *r, double bound)
{
	return r->violations == 0 && r->in_window == 100 && (isnan(r->p99) || r->p99_hi <= bound);
}

/* Two intervals [a, b] and [c, d] overlap (a NAN end overlaps everything) */
static bool overlap(double a, double b, double c, double d)
{
	return !(b < c || d < a);
}

/* What a variant measured, with its intervals, into @buf */
static const char *describe(const struct tune_row *r, char *buf, size_t len)
{
	int k;

	if (isnan(r->in_lo))
		k = snprintf(buf, len, "%.0f of %.0f packets outside (no interval)", r->violations, r->packets);
	else
		k = snprintf(buf, len, "%.0f of %.0f packets outside (at most %.1f%%, 95%%)", r->violations,
			     r->packets, 100 - r->in_lo);
	if (r->rounds > 1)
		k += snprintf(buf + k, len - (size_t)k, " in %.0f rounds, %.0f of them with a packet not "
			      "shown inside", r->rounds, r->bad_rounds);
	if (!isnan(r->p99))
		snprintf(buf + k, len - (size_t)k, ", p99 gate lateness %.0f us [%.0f, %.0f]", r->p99,
			 r->p99_lo, r->p99_hi);
	else
		snprintf(buf + k, len - (size_t)k, ", too few packets for a p99 with its interval "
			 "(368 needed): judged on its violations alone");
	return buf;
}

static void recommend_class(FILE *f, const struct tune_rows *rows, int tc, double bound)
{
	const struct tune_row *best = NULL, *near = NULL;
	char d[256];
	size_t i, j;
	int k = 0;

	/* the shortest passing window with every longer window passing too */
	for (i = 0; i < rows->n; i++) {
		const struct tune_row *r = &rows->r[i];
		bool longer_pass = true;

		if (!judged(r, tc) || !passes(r, bound))
			continue;
		for (j = 0; j < rows->n; j++)
			if (judged(&rows->r[j], tc) && rows->r[j].window_us > r->window_us &&
			    !passes(&rows->r[j], bound))
				longer_pass = false;
		if (longer_pass && (!best || r->window_us < best->window_us))
			best = r;
	}
	for (i = 0; i < rows->n; i++) {
		const struct tune_row *r = &rows->r[i];

		if (judged(r, tc) && (!near || r->in_window > near->in_window ||
				      (r->in_window == near->in_window && r->p99 < near->p99)))
			near = r;
	}
	if (!best) {
		if (near)
			fprintf(f, "class %d: no window of the sweep passed with every longer one passing; "
				"nearest: window %lld us (scale %s): %s\n", tc, near->window_us, near->scale,
				describe(near, d, sizeof(d)));
		else
			fprintf(f, "class %d: no window of the sweep was measured\n", tc);
		return;
	}
	fprintf(f, "class %d: shortest window that passes, every longer one passing too: %lld us "
		"(scale %s): %s\n", tc, best->window_us, best->scale, describe(best, d, sizeof(d)));
	/* the shorter windows the sweep cannot tell apart from it */
	for (i = 0; i < rows->n; i++) {
		const struct tune_row *r = &rows->r[i];

		if (!judged(r, tc) || r->window_us >= best->window_us ||
		    !overlap(r->in_lo, r->in_hi, best->in_lo, best->in_hi) ||
		    (!isnan(r->p99) && !isnan(best->p99) &&
		     !overlap(r->p99_lo, r->p99_hi, best->p99_lo, best->p99_hi)))
			continue;
		fprintf(f, "%s window %lld us (scale %s): %s\n",
			k++ ? "  and" : "  cannot be told apart (their 95% intervals overlap) from", r->window_us,
			r->scale, describe(r, d, sizeof(d)));
	}
}

static int write_recommendation(const char *dir, const struct tune_rows *rows, const char *name,
				double bound, int num_tc)
{
	struct atomic_file af;
	char path[4096];
	int tc, rc;

	snprintf(path, sizeof(path), "%s/tune-recommendation.txt", dir);
	rc = atomic_open(&af, path);
	if (rc)
		return rc;
	fprintf(af.f, "schedule: %s; bound: p99 gate lateness <= %g us and every packet sent "
		"inside its window\n",
		name, bound);
	for (tc = 0; tc < num_tc; tc++)
		recommend_class(af.f, rows, tc, bound);
	return atomic_commit(&af);
}

int tune_write(const char *dir, struct tune_rows *rows, const char *name, double bound, int num_tc)
{
	int rc;

	qsort(rows->r, rows->n, sizeof(*rows->r), row_cmp);
	rc = write_table(dir, rows);
	if (!rc)
		rc = write_recommendation(dir, rows, name, bound, num_tc);
	if (rc)
		fprintf(stderr, "%s: the tuning table in %s: %s\n", lab_prog, dir, strerror(-rc));
	free(rows->r);
	rows->r = NULL;
	rows->n = 0;
	return rc;
}

int cmd_tune_report(int argc, char **argv)
{
	const char *dir = NULL, *name = NULL;
	double bound = 1000;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &dir, "DIR", "the sweep's folder (its variants in DIR/tune/)",
			    true),
		LAB_OPT_DBL("bound-us", &bound, 0, 1e9, "the p99 gate lateness bound (1000)"),
		LAB_OPT_STR("name", &name, "NAME", "the schedule's name in the text", false),
		LAB_OPT_END
	};
	const char *file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	struct tsched *s = schedule_load(file, true, name);
	struct tune_rows rows = { 0 };
	struct dirent **names;
	char tune[4096];
	int n, i, rc;

	if (!s)
		return 1;
	snprintf(tune, sizeof(tune), "%s/tune", dir);
	n = scandir(tune, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			add_variant(&rows, tune, names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	rc = tune_write(dir, &rows, s->file, bound, s->num_tc);
	free(s);
	return rc ? 1 : 0;
}
