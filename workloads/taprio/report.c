// SPDX-License-Identifier: GPL-2.0
/*
 * report: summary.json, targets.json and the figures' CSV files of a run
 * directory, a function of what the directory holds and nothing else, the
 * one place taprio's results are made. The measurement's record (run.json)
 * says what its raw files were taken against: the packets
 * (report_packets.c), the probe's advance lateness, the clock records
 * (report_sync.c), isochron's packets, the senders of the rounds beside the
 * measurement (like-isochron*); a tuning sweep's record (tune.json) its
 * variants, with tune.csv and the recommendation; and the workload's targets
 * judged against them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "output.h"
#include "stats.h"
#include "taprio.h"

void vpush(struct vec *v, double x)
{
	if (isnan(x))
		return;
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 256;
		v->x = lab_realloc(v->x, v->cap, sizeof(*v->x), "samples");
	}
	v->x[v->n++] = x;
}

double fnum(const struct csv *c, int col)
{
	const char *f = csv_field(c, col);
	char *end;
	double v;

	if (!*f)
		return NAN;
	v = strtod(f, &end);
	return *end ? NAN : v;
}

int64_t fint(const struct csv *c, int col)
{
	return strtoll(csv_field(c, col), NULL, 10);
}

int csv_open_in(struct csv *c, const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK))
		return -ENOENT;
	return csv_read_open(c, path);
}

void write_cdf(FILE *f, const char *prefix, const double *x, size_t n, double denom)
{
	double *v = lab_calloc(n, sizeof(*v), "a CDF");
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (x[i] > 0)
			v[k++] = x[i];
	qsort(v, k, sizeof(*v), stats_cmp_double);
	for (i = 0; i < k; i++)
		fprintf(f, "%s,%.3f,%.6f\n", prefix, v[i], (double)(i + 1) / denom);
	free(v);
}

static bool write_failed;

int report_metric(struct out *o, const char *name, const char *const *params, const char *unit,
		  const double *x, size_t n)
{
	int rc = out_metric(o, name, params, unit, x, n);

	if (rc)
		write_failed = true;
	return rc;
}

int report_estimate(struct out *o, const char *name, const char *const *params, const char *unit,
		    double value, size_t n, const struct ci *ci)
{
	int rc = out_estimate(o, name, params, unit, value, n, ci);

	if (rc)
		write_failed = true;
	return rc;
}

int report_counts(struct out *o, const char *const *keys, const double *values)
{
	int rc = out_counts(o, keys, values);

	if (rc)
		write_failed = true;
	return rc;
}

/* isochron's samples, by what they measure */
struct iso {
	struct vec sl, slr, pd, late, hpd, wq, qt;	/* slr: the round of each sl */
	char tc[8];
};

static void iso_row(struct iso *s, const struct csv *c, const int *col)
{
	int64_t S = fint(c, col[0]), w = fint(c, col[1]), t = fint(c, col[2]);
	int64_t r = fint(c, col[3]), T = fint(c, col[4]), R = fint(c, col[5]);
	int64_t q = fint(c, col[6]), k = col[8] >= 0 ? fint(c, col[8]) : 0;

	if (T > 0 && R > 0)
		vpush(&s->hpd, (double)(R - T) / 1e3);
	if (!*s->tc && col[7] >= 0)
		snprintf(s->tc, sizeof(s->tc), "%s", csv_field(c, col[7]));
	if (t <= 0)
		return;
	if (w > 0) {
		vpush(&s->sl, (double)(t - w) / 1e3);
		vpush(&s->slr, (double)k);
	}
	if (w > 0 && q > 0) {
		vpush(&s->wq, (double)(q - w) / 1e3);
		vpush(&s->qt, (double)(t - q) / 1e3);
	}
	if (r > 0)
		vpush(&s->pd, (double)(r - t) / 1e3);
	if (S > 0)
		vpush(&s->late, (double)(t - S) / 1e3);
}

/*
 * "HW TX deadline misses: N (p%)" of isochron report --summary, one a
 * round (isochron-summary.txt): their sum
 */
static void iso_misses(struct out *o, const char *dir, const char *tcs, const char *sname)
{
	double misses = 0, m;
	char line[4096];
	int k = 0;
	FILE *f;

	snprintf(line, sizeof(line), "%s/isochron-summary.txt", dir);
	f = fopen(line, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "HW TX deadline misses: %lf", &m) == 1) {
			misses += m;
			k++;
		}
	if (f)
		fclose(f);
	if (k && !report_metric(o, "isochron_deadline_misses", (const char *[]){ "tc", tcs,
					"schedule", sname, NULL }, "packets", &misses, 1))
		report_counts(o, (const char *[]){ "rounds", NULL }, (double[]){ k });
}

/*
 * isochron.csv: isochron report's per-packet timestamps (S scheduled, w
 * wake-up, s qdisc, t driver TX, r RX, all CLOCK_TAI ns). Sender latency
 * t - w as isochron defines it; path delay r - t (software); lateness t - S.
 * Differences in 64-bit integers: doubles lose 256 ns at these magnitudes.
 * *@lat: its sender latency samples and *@rounds the round of each (the
 * caller frees them), for the comparison target.
 */
static void report_isochron(struct out *o, const char *dir, const char *sname, struct vec *lat,
			    struct vec *rounds)
{
	static const char *const names[] = { "scheduled_ns", "wake_ns", "tx_ns", "rx_ns",
					      "hw_tx_ns", "hw_rx_ns", "sched_ns", "tc", "round" };
	struct iso s = { 0 };
	struct csv c;
	int col[9], i;
	const char *tcs = s.tc;

	if (csv_open_in(&c, dir, "isochron.csv"))
		return;
	for (i = 0; i < 9; i++)
		col[i] = csv_col(&c, names[i]);
	while (csv_next(&c) > 0)
		iso_row(&s, &c, col);
	csv_read_close(&c);
	report_metric(o, "isochron_sender_latency_us", (const char *[]){ "tc", tcs, "schedule",
			      sname, NULL }, "us", s.sl.x, s.sl.n);
	/* The sender latency in two: wake-up to the qdisc, the qdisc to the driver */
	report_metric(o, "isochron_wake_to_enqueue_us", (const char *[]){ "tc", tcs, "schedule",
			      sname, NULL }, "us", s.wq.x, s.wq.n);
	report_metric(o, "isochron_enqueue_to_tx_us", (const char *[]){ "tc", tcs, "schedule",
			      sname, NULL }, "us", s.qt.x, s.qt.n);
	report_metric(o, "isochron_path_delay_us", (const char *[]){ "tc", tcs, "schedule", sname,
			      "timestamps", "software", NULL }, "us", s.pd.x, s.pd.n);
	report_metric(o, "isochron_tx_after_scheduled_us", (const char *[]){ "tc", tcs,
			      "schedule", sname, NULL }, "us", s.late.x, s.late.n);
	if (s.hpd.n)
		report_metric(o, "isochron_path_delay_us", (const char *[]){ "tc", tcs, "schedule",
				      sname, "timestamps", "emulated-hardware", NULL }, "us",
			      s.hpd.x, s.hpd.n);
	iso_misses(o, dir, tcs, sname);
	free(s.hpd.x);
	free(s.wq.x);
	free(s.qt.x);
	*lat = s.sl;
	*rounds = s.slr;
	free(s.pd.x);
	free(s.late.x);
}

/* A histogram bucket of the advances: at @at (us), @count of them */
struct bucket {
	double at, count;
};

static int bucket_cmp(const void *a, const void *b)
{
	const struct bucket *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

/*
 * advance.csv: late_us,fraction,advances: the cumulative distribution of
 * every advance from the kernel's histograms, each bucket at its upper end
 * (the overflow bucket at its lower bound), and the advances counted
 */
static int advance_figure(const char *dir, struct bucket *b, size_t n, double total)
{
	struct atomic_file af;
	double sum = 0, all = 0;
	size_t i;
	int rc = csv_open(&af, dir, "advance.csv", "late_us,fraction,advances");

	if (rc)
		return rc;
	qsort(b, n, sizeof(*b), bucket_cmp);
	for (i = 0; i < n; i++)
		all += b[i].count;
	for (i = 0; i < n && all > 0; i++) {
		sum += b[i].count;
		fprintf(af.f, "%g,%.6f,%.0f\n", b[i].at, sum / all, total);
	}
	return atomic_commit(&af);
}

/*
 * @dir/advance-timeline.csv: t_s,late_us,printed,advances,lost: each
 * advance printed in @tdir later than its start, from the start of the run
 * it watched (@rec), and the counts the figure's title gives (lost:
 * bpftrace's own count, empty when it gave none)
 */
static int timeline_figure(const char *dir, const char *tdir, const char *probe,
			   const struct run_record *rec, size_t printed, double total, double lost_bpf)
{
	struct atomic_file af;
	char name[256], lost[32] = "";
	struct csv c;
	int ct, cl, rc;

	snprintf(name, sizeof(name), "probe-%s.csv", probe);
	if (csv_open_in(&c, tdir, name))
		return 0;
	if (!isnan(lost_bpf))
		snprintf(lost, sizeof(lost), "%.0f", lost_bpf);
	ct = csv_col(&c, "time_ns");
	cl = csv_col(&c, "late_ns");
	rc = csv_open(&af, dir, "advance-timeline.csv", "t_s,late_us,printed,advances,lost");
	while (!rc && csv_next(&c) > 0) {
		int64_t late = fint(&c, cl);

		if (!strcmp(csv_field(&c, 0), "advance") && late > 0)
			fprintf(af.f, "%.6f,%.3f,%zu,%.0f,%s\n",
				(double)(fint(&c, ct) - rec->start) / 1e9, (double)late / 1e3, printed,
				total, lost);
	}
	csv_read_close(&c);
	return rc ? rc : atomic_commit(&af);
}

/*
 * The advance lateness of probe @probe from the kernel's histograms in
 * @dir/probe-@probe-maps.csv (@advance_late_us_*: every advance that ran
 * at or after its start, none lost; @advance_early: those that ran before
 * it), each advance at its bucket's middle (the overflow bucket's at its
 * lower bound, an early one at 0 us, the upper bound of its lateness, so a
 * percentile is never below the true one). With @figures, advance.csv too.
 * 1 when @dir has no such maps.
 */
static int report_advances(struct out *o, const char *dir, const char *probe,
			   const struct run_record *rec, bool figures)
{
	double total = NAN, early = 0, v;
	char name[256];
	const char *sname = rec->name;
	struct bucket *b = NULL;
	struct vec x = { 0 };
	size_t nb = 0;
	struct csv c;
	int cl, ch, cv, rc = 0;

	snprintf(name, sizeof(name), "probe-%s-maps.csv", probe);
	if (csv_open_in(&c, dir, name))
		return 1;
	cl = csv_col(&c, "low");
	ch = csv_col(&c, "high");
	cv = csv_col(&c, "value");
	while (csv_next(&c) > 0) {
		const char *map = csv_field(&c, 0);
		double lo = fnum(&c, cl), hi = fnum(&c, ch), k = fnum(&c, cv), at;

		if (!strcmp(map, "@advances"))
			total = k;
		else if (!strcmp(map, "@advance_early"))
			early = k;
		if (strncmp(map, "@advance_late_us_", 17) || isnan(k) || isnan(lo))
			continue;
		b = lab_realloc(b, nb + 1, sizeof(*b), "histogram buckets");
		b[nb++] = (struct bucket){ isnan(hi) ? lo : hi + 1, k };
		at = isnan(hi) ? lo : (lo + hi) / 2;
		for (; k > 0; k--)
			vpush(&x, at);
	}
	csv_read_close(&c);
	/* The early advances at 0 us, the upper bound of their lateness (< 0) */
	if (early > 0) {
		b = lab_realloc(b, nb + 1, sizeof(*b), "histogram buckets");
		b[nb++] = (struct bucket){ 0, early };
		for (v = early; v > 0; v--)
			vpush(&x, 0);
	}
	if (x.n) {
		report_metric(o, "advance_lateness_us", (const char *[]){ "schedule", sname,
				      "source", "in-kernel histogram", NULL }, "us", x.x, x.n);
		report_p99(o, "advance_lateness_p99_us", (const char *[]){ "schedule", sname,
				   "source", "in-kernel histogram", NULL }, "us", x.x, x.n);
		report_metric(o, "advances_early", (const char *[]){ "schedule", sname, NULL },
			      "advances", &early, 1);
		if (figures)
			rc = advance_figure(dir, b, nb, isnan(total) ? (double)x.n : total);
	}
	free(x.x);
	free(b);
	return rc;
}

/*
 * How many advances the printf timeline of probe @probe in @tdir (the run
 * @rec it watched) lost: the advances the kernel counted (@advances of its
 * maps) less the advance lines printed, and bpftrace's own lost-event
 * count (the lost_events row); with @figures, @dir/advance-timeline.csv.
 * Nothing when @tdir has no such probe.
 */
static int report_timeline(struct out *o, const char *dir, const char *tdir, const char *probe,
			   const char *kind, const struct run_record *rec, bool figures)
{
	double total = NAN, lost_bpf = NAN, v;
	size_t printed = 0;
	char name[256];
	struct csv c;
	int cv;

	snprintf(name, sizeof(name), "probe-%s-maps.csv", probe);
	if (csv_open_in(&c, tdir, name))
		return 0;
	cv = csv_col(&c, "value");
	while (csv_next(&c) > 0) {
		if (!strcmp(csv_field(&c, 0), "@advances"))
			total = fnum(&c, cv);
		else if (!strcmp(csv_field(&c, 0), "lost_events"))
			lost_bpf = fnum(&c, cv);
	}
	csv_read_close(&c);
	snprintf(name, sizeof(name), "probe-%s.csv", probe);
	if (!csv_open_in(&c, tdir, name)) {
		while (csv_next(&c) > 0)
			printed += !strcmp(csv_field(&c, 0), "advance");
		csv_read_close(&c);
	}
	if (isnan(total))
		return 0;
	v = total - (double)printed;
	if (!report_metric(o, "advance_timeline_lost", (const char *[]){ "schedule", rec->name, "probe",
				   kind, NULL }, "advances", &v, 1))
		report_counts(o, (const char *[]){ "advances", "printed", "bpftrace_lost_events", NULL },
			      (double[]){ total, (double)printed, lost_bpf });
	return figures ? timeline_figure(dir, tdir, probe, rec, printed, total, lost_bpf) : 0;
}

static int report_target(struct out *o, const char *target, double measured, double limit,
			 const char *unit, enum target_verdict met, const char *why)
{
	if (out_target(o, target, measured, limit, unit, met, why)) {
		write_failed = true;
		return -EIO;
	}
	return 0;
}

/* Every packet sent shown inside its window, per class (taprio_judge_window) */
static void target_windows(struct out *o, const struct pkt_counts *pc)
{
	char target[96], why[768];
	int tc;

	for (tc = 0; tc <= pc->maxtc; tc++) {
		enum target_verdict v;
		double m;
		int k;

		snprintf(target, sizeof(target), "class %d: every packet sent inside its window", tc);
		v = taprio_judge_window(&pc->cls[tc], &m, why, sizeof(why));
		k = (int)strlen(why);
		if (pc->probe && pc->seen[tc] >= 0)
			snprintf(why + k, sizeof(why) - (size_t)k, "; at taprio's gate decision "
				 "(%s): %lld of the %lld packets the probe saw; %lld passed the gate "
				 "inside their window and reached the driver after it closed",
				 pc->probe, pc->at_dequeue[tc], pc->seen[tc], pc->after_gate[tc]);
		report_target(o, target, m, 0, "packets not shown inside", v, why);
	}
}

/* The rounds of @r (round numbers) as clusters 0 .. k - 1 in @cl; k */
static size_t round_clusters(const struct vec *r, size_t *cl)
{
	double *u = lab_calloc(r->n + 1, sizeof(*u), "rounds");
	size_t i, k = 0;

	memcpy(u, r->x, r->n * sizeof(*u));
	qsort(u, r->n, sizeof(*u), stats_cmp_double);
	for (i = 0; i < r->n; i++)
		if (!k || u[i] != u[k - 1])
			u[k++] = u[i];
	for (i = 0; i < r->n; i++)
		cl[i] = (size_t)((double *)bsearch(&r->x[i], u, k, sizeof(*u), stats_cmp_double) - u);
	free(u);
	return k;
}

/*
 * Our sender (TX timestamps read as isochron reads them) against isochron:
 * the ratio of median sender latencies with its bootstrap interval, whole
 * rounds resampled on each side (the frames of one round share its host
 * load: ci_ratio_clusters), met only when the interval lies inside
 * [0.8, 1.2] (taprio_judge_ratio). Also written as the estimate
 * isochron_latency_ratio.
 */
static void target_isochron(struct out *o, const struct vec *ours, const struct vec *ours_r,
			    const struct vec *theirs, const struct vec *theirs_r, bool ran,
			    const char *sname)
{
	const char *target = "class 0 sender latency (median, TX timestamps read as isochron "
			     "reads them) within 20% of isochron's: the ratio's 95% interval "
			     "inside [0.8, 1.2]";
	size_t *co = lab_calloc(ours->n + 1, sizeof(*co), "rounds");
	size_t *ct = lab_calloc(theirs->n + 1, sizeof(*ct), "rounds");
	enum target_verdict v;
	char why[512];
	struct ci ci = { NAN, NAN, NULL, NULL };
	double ratio = NAN, m;
	size_t ko, kt;

	if (!ran) {
		report_target(o, target, NAN, 20, "%", TARGET_NOT_JUDGED,
			      "no isochron figures in this run (no PTP clock on eth0, which "
			      "isochron refuses, or isochron failed: see the run's status)");
		goto out;
	}
	ko = round_clusters(ours_r, co);
	kt = round_clusters(theirs_r, ct);
	if (ours->n && theirs->n &&
	    !ci_ratio_clusters(ours->x, co, ours->n, ko, theirs->x, ct, theirs->n, kt, 1, &ratio, &ci) &&
	    !report_estimate(o, "isochron_latency_ratio", (const char *[]){ "tc", "0",
			     "schedule", sname, "of", "like-isochron-errq / isochron", NULL }, "ratio",
			     ratio, ours->n + theirs->n, &ci))
		report_counts(o, (const char *[]){ "n_ours", "n_isochron", "rounds_ours", "rounds_isochron",
					NULL },
			      (double[]){ (double)ours->n, (double)theirs->n, (double)ko, (double)kt });
	v = taprio_judge_ratio(ratio, &ci, ours->n, theirs->n, 20, &m, why, sizeof(why));
	report_target(o, target, m, 20, "% (interval end farthest from 1)", v, why);
out:
	free(co);
	free(ct);
}

/*
 * isochron-latency.csv: sender,latency_us,fraction: class 0's sender
 * latency of the three senders that alternate in rounds, each as a CDF of
 * its frames with a latency above 0
 */
static int isochron_figure(const char *dir, const struct vec *iso, const struct vec *li,
			   const struct vec *le)
{
	const struct vec *v[] = { iso, li, le };
	const char *who[] = { "isochron", "like-isochron", "like-isochron-errq" };
	struct atomic_file af;
	size_t i, k, n;
	int rc = csv_open(&af, dir, "isochron-latency.csv", "sender,latency_us,fraction");

	for (i = 0; !rc && i < 3; i++) {
		for (k = n = 0; k < v[i]->n; k++)
			n += v[i]->x[k] > 0;
		write_cdf(af.f, who[i], v[i]->x, v[i]->n, (double)n);
	}
	return rc ? rc : atomic_commit(&af);
}

/* The rows of a tuning sweep's table from the figures of its measured variants */
static void tune_variant(struct out *o, const char *dir, json_t *v, struct tune_rows *rows)
{
	const char *name = json_string_value(json_object_get(v, "name"));
	const char *status = json_string_value(json_object_get(v, "status"));
	struct tune_figures f[TSCHED_MAX_TC];
	struct tsched *s = lab_calloc(1, sizeof(*s), "a variant");
	char err[256], sub[4096];
	bool have_s;

	if (!name)
		goto out;
	have_s = !tsched_from_json(json_object_get(v, "schedule"), s, err, sizeof(err));
	snprintf(sub, sizeof(sub), "%s/tune/%s", dir, name);
	if (status && !strcmp(status, "ok") &&
	    report_variant(o, sub, name, f, TSCHED_MAX_TC) == 0)
		tune_add(rows, name, have_s ? s : NULL, f, TSCHED_MAX_TC);
	else
		tune_add(rows, name, have_s ? s : NULL, NULL, 0);
out:
	free(s);
}

static int variant_cmp(const void *a, const void *b)
{
	const char *x = json_string_value(json_object_get(*(json_t *const *)a, "name"));
	const char *y = json_string_value(json_object_get(*(json_t *const *)b, "name"));

	return strcmp(x ? x : "", y ? y : "");
}

/*
 * A tuning sweep (@dir/tune.json, written by `taprio tune`): the figures of
 * each variant measured, by the variant's name, then tune.csv and
 * tune-recommendation.txt
 */
static void report_tune(struct out *o, const char *dir, const char *path)
{
	struct tune_rows rows = { 0 };
	json_t *t = json_load_file(path, 0, NULL), *vars, **v;
	struct tsched *s = lab_calloc(1, sizeof(*s), "the schedule");
	char err[256];
	size_t i, n;

	vars = json_object_get(t, "variants");
	if (!t || json_integer_value(json_object_get(t, "format_version")) != RECORD_FORMAT_VERSION ||
	    !json_is_array(vars) || tsched_from_json(json_object_get(t, "schedule"), s, err, sizeof(err))) {
		fprintf(stderr, "%s: %s is not a record of taprio tune\n", lab_prog, path);
		write_failed = true;
		goto out;
	}
	n = json_array_size(vars);
	v = lab_calloc(n, sizeof(*v), "the variants");
	for (i = 0; i < n; i++)
		v[i] = json_array_get(vars, i);
	qsort(v, n, sizeof(*v), variant_cmp);
	for (i = 0; i < n; i++)
		tune_variant(o, dir, v[i], &rows);
	free(v);
	if (tune_write(dir, &rows, json_string_value(json_object_get(t, "schedule_name")) ?: s->file,
		       json_number_value(json_object_get(t, "bound_us")), s->num_tc))
		write_failed = true;
out:
	json_decref(t);
	free(s);
}

/*
 * The conditions of the measurement in @dir, on each metric that follows:
 * the probe attached while it ran (the lab's tracepoints, the kprobe of a
 * kernel without them, or none) and the clock discipline (phc2sys steering
 * the system clock to the NIC's PHC, or no PHC and no sync). A comparison
 * of two runs calls a metric measured under other conditions not
 * comparable.
 */
static void measured_under(struct out *o, const char *dir)
{
	static const char *const probes[][2] = {
		{ "probe-taprio_gate-maps.csv", "tracepoint" },
		{ "probe-taprio_gate_kprobe-maps.csv", "kprobe" },
		{ "probe-taprio_advance-maps.csv", "tracepoint, maps only" },
		{ "probe-taprio_advance_kprobe-maps.csv", "kprobe, maps only" },
	};
	const char *probe = "none";
	char path[4096];
	size_t i;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, probes[i][0]);
		if (!access(path, F_OK))
			probe = probes[i][1];
	}
	snprintf(path, sizeof(path), "%s/sync-workload.csv", dir);
	if (out_conditions(o, (const char *[]){ "probe", probe, "clock_sync",
			   access(path, F_OK) ? "none" : "phc2sys", NULL }))
		write_failed = true;
}

/*
 * The advances: their lateness from the measurement's maps-only probe (or,
 * in a run made before the printing probe had a pass of its own, from the
 * printing one's maps), the timeline from the printing probe of the probe
 * pass (@dir/probe-pass, a run of its own) or of the measurement
 */
static int report_gate_advances(struct out *o, const char *dir, const struct run_record *rec)
{
	static const struct {
		const char *probe;
		bool figures;
	} maps[] = { { "taprio_advance", true }, { "taprio_advance_kprobe", false },
		     { "taprio_gate", true }, { "taprio_gate_kprobe", false } };
	struct run_record prec;
	const struct run_record *trec = rec;
	char tdir[4096];
	bool pass = false;
	size_t i;
	int rc = 1;

	for (i = 0; rc == 1 && i < sizeof(maps) / sizeof(maps[0]); i++)
		rc = report_advances(o, dir, maps[i].probe, rec, maps[i].figures);
	if (probe_pass_read(dir, tdir, sizeof(tdir), &prec)) {
		pass = true;
		trec = &prec;
	} else {
		snprintf(tdir, sizeof(tdir), "%s", dir);
	}
	if (rc == 1)
		rc = 0;
	if (!rc)
		rc = report_timeline(o, dir, tdir, "taprio_gate", "tracepoint", trec, true);
	if (!rc)
		rc = report_timeline(o, dir, tdir, "taprio_gate_kprobe", "kprobe", trec, false);
	if (pass)
		record_free(&prec);
	return rc;
}

/* The figures of the measurement folder @dir (its record @rec) and the targets */
static void report_run(struct out *o, const char *dir, const struct run_record *rec)
{
	struct vec ours = { 0 }, theirs = { 0 }, like = { 0 }, ours_r = { 0 }, theirs_r = { 0 };
	struct vec like_r = { 0 };
	const char *sname = rec->name;
	struct pkt_counts pc;
	char sub[4096];
	bool iso;

	measured_under(o, dir);
	if (report_packets(o, dir, rec, &pc) || report_gate_advances(o, dir, rec) || report_sync(o, dir))
		write_failed = true;
	report_isochron(o, dir, sname, &theirs, &theirs_r);
	/* Our sender as isochron sends, beside the measurement, in alternating rounds */
	snprintf(sub, sizeof(sub), "%s/like-isochron", dir);
	report_sender(o, sub, sname, "like-isochron", &like, &like_r);
	snprintf(sub, sizeof(sub), "%s/like-isochron-errq", dir);
	report_sender(o, sub, sname, "like-isochron-errq", &ours, &ours_r);
	target_windows(o, &pc);
	snprintf(sub, sizeof(sub), "%s/isochron.csv", dir);
	iso = !access(sub, F_OK);
	if (iso && isochron_figure(dir, &theirs, &like, &ours))
		write_failed = true;
	target_isochron(o, &ours, &ours_r, &theirs, &theirs_r, iso, sname);
	free(ours.x);
	free(theirs.x);
	free(like.x);
	free(ours_r.x);
	free(theirs_r.x);
	free(like_r.x);
}

int cmd_report(int argc, char **argv)
{
	const char *out = NULL;
	struct lab_list failed = { 0 };
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &out, "DIR", "the run directory: its record and raw files in, "
			    "summary.json, targets.json and the figures' CSV files out", true),
		LAB_OPT_LIST("failed", &failed, "REASON", "the run failed so (repeatable)"),
		LAB_OPT_END
	};
	struct run_record rec;
	char path[4096], *reason;
	struct out *o;
	int rc;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	o = out_open(out, "taprio");
	if (!o)
		return 1;
	reason = lab_list_join(&failed, "; ");
	lab_list_free(&failed);
	snprintf(path, sizeof(path), "%s/run.json", out);
	if (!access(path, F_OK)) {
		if (record_read(path, &rec)) {
			write_failed = true;
		} else {
			report_run(o, out, &rec);
			record_free(&rec);
		}
	}
	snprintf(path, sizeof(path), "%s/tune.json", out);
	if (!access(path, F_OK))
		report_tune(o, out, path);
	rc = out_close(o, reason);
	free(reason);
	if (rc || write_failed) {
		fprintf(stderr, "%s: report of %s: the results could not be read or written\n",
			lab_prog, out);
		return 1;
	}
	return 0;
}
