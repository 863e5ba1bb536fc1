// SPDX-License-Identifier: GPL-2.0
/*
 * report: summary.json and targets.json of a run directory from its CSV
 * files, the one place taprio's results are made. The packets of the
 * measurement (report_packets.c), the probe's advance lateness, the clock
 * sync records, isochron's packets, the sender of the runs beside the
 * measurement (like-isochron*), the variants of a tuning sweep (--variants),
 * and the workload's targets judged against them.
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

char *run_info(const char *dir, const char *key)
{
	struct csv c;
	char *v = NULL;

	if (csv_open_in(&c, dir, "run-info.csv"))
		return NULL;
	while (csv_next(&c) > 0)
		if (!strcmp(csv_field(&c, 0), key)) {
			free(v);
			v = strdup(csv_field(&c, 1));
		}
	csv_read_close(&c);
	return v;
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

/* One column of a CSV as samples, scaled; rows filtered by @kind in column 0 */
static void report_column(struct out *o, const char *dir, const char *file, const char *kind,
			  const char *col, double scale, const char *name,
			  const char *const *params, const char *unit, double skip_s)
{
	struct vec v = { 0 };
	struct csv c;
	int ci, ct;

	if (csv_open_in(&c, dir, file))
		return;
	ci = csv_col(&c, col);
	ct = csv_col(&c, "t_s");
	while (csv_next(&c) > 0) {
		if (kind && strcmp(csv_field(&c, 0), kind))
			continue;
		if (skip_s > 0 && fnum(&c, ct) < skip_s)
			continue;
		vpush(&v, fnum(&c, ci) * scale);
	}
	csv_read_close(&c);
	if (v.n)
		report_metric(o, name, params, unit, v.x, v.n);
	free(v.x);
}

/* isochron's samples, by what they measure */
struct iso {
	struct vec sl, pd, late, hpd, wq, qt;
	char tc[8];
};

static void iso_row(struct iso *s, const struct csv *c, const int *col)
{
	int64_t S = fint(c, col[0]), w = fint(c, col[1]), t = fint(c, col[2]);
	int64_t r = fint(c, col[3]), T = fint(c, col[4]), R = fint(c, col[5]);
	int64_t q = fint(c, col[6]);

	if (T > 0 && R > 0)
		vpush(&s->hpd, (double)(R - T) / 1e3);
	if (!*s->tc && col[7] >= 0)
		snprintf(s->tc, sizeof(s->tc), "%s", csv_field(c, col[7]));
	if (t <= 0)
		return;
	if (w > 0)
		vpush(&s->sl, (double)(t - w) / 1e3);
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
	char line[4096], rounds[16];
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
	snprintf(rounds, sizeof(rounds), "%d", k);
	if (k)
		report_metric(o, "isochron_deadline_misses", (const char *[]){ "tc", tcs,
				      "schedule", sname, "rounds", rounds, NULL }, "packets",
			      &misses, 1);
}

/*
 * isochron.csv: isochron report's per-packet timestamps (S scheduled, w
 * wake-up, s qdisc, t driver TX, r RX, all CLOCK_TAI ns). Sender latency
 * t - w as isochron defines it; path delay r - t (software); lateness t - S.
 * Differences in 64-bit integers: doubles lose 256 ns at these magnitudes.
 * *@lat: its sender latency samples (the caller frees them), for the
 * comparison target.
 */
static void report_isochron(struct out *o, const char *dir, const char *sname, struct vec *lat)
{
	static const char *const names[] = { "scheduled_ns", "wake_ns", "tx_ns", "rx_ns",
					      "hw_tx_ns", "hw_rx_ns", "sched_ns", "tc" };
	struct iso s = { 0 };
	struct csv c;
	int col[8], i;
	const char *tcs = s.tc;

	if (csv_open_in(&c, dir, "isochron.csv"))
		return;
	for (i = 0; i < 8; i++)
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
	free(s.pd.x);
	free(s.late.x);
}

/*
 * The advance lateness of probe @probe from the kernel's histograms in
 * @dir/probe-@probe-maps.csv (@advance_late_us_*: every advance, none
 * lost), each advance at its bucket's middle (the overflow bucket's at its
 * lower bound); and how many of them the printf timeline lost: the advances
 * the kernel counted (@advances) less the advance lines printed, and
 * bpftrace's own lost-event count (the driver's lost_events row).
 */
static void report_advances(struct out *o, const char *dir, const char *probe, const char *kind,
			    const char *sname)
{
	double total = NAN, early = 0, lost_bpf = NAN, v;
	char name[256], printed_s[24], total_s[24], lost_s[24];
	struct vec x = { 0 };
	size_t printed = 0;
	struct csv c;
	int cl, ch, cv;

	snprintf(name, sizeof(name), "probe-%s-maps.csv", probe);
	if (csv_open_in(&c, dir, name))
		return;
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
		else if (!strcmp(map, "lost_events"))
			lost_bpf = k;
		if (strncmp(map, "@advance_late_us_", 17) || isnan(k) || isnan(lo))
			continue;
		at = isnan(hi) ? lo : (lo + hi) / 2;
		for (; k > 0; k--)
			vpush(&x, at);
	}
	csv_read_close(&c);
	if (!x.n)
		return;
	report_metric(o, "advance_lateness_us", (const char *[]){ "schedule", sname, "probe", kind,
			      "source", "in-kernel histogram", NULL }, "us", x.x, x.n);
	report_p99(o, "advance_lateness_p99_us", (const char *[]){ "schedule", sname, "probe",
			   kind, "source", "in-kernel histogram", NULL }, "us", x.x, x.n);
	report_metric(o, "advances_early", (const char *[]){ "schedule", sname, "probe", kind,
			      NULL }, "advances", &early, 1);
	/* The timeline's losses */
	snprintf(name, sizeof(name), "probe-%s.csv", probe);
	if (!csv_open_in(&c, dir, name)) {
		while (csv_next(&c) > 0)
			printed += !strcmp(csv_field(&c, 0), "advance");
		csv_read_close(&c);
	}
	if (isnan(total))
		total = (double)x.n + early;
	v = total - (double)printed;
	snprintf(printed_s, sizeof(printed_s), "%zu", printed);
	snprintf(total_s, sizeof(total_s), "%.0f", total);
	if (isnan(lost_bpf))
		snprintf(lost_s, sizeof(lost_s), "not reported");
	else
		snprintf(lost_s, sizeof(lost_s), "%.0f", lost_bpf);
	report_metric(o, "advance_timeline_lost", (const char *[]){ "schedule", sname, "probe",
			      kind, "advances", total_s, "printed", printed_s,
			      "bpftrace_lost_events", lost_s, NULL }, "advances", &v, 1);
	free(x.x);
}

/*
 * The probe's advance lateness and the clock records. The emulated PHC and
 * CLOCK_TAI run on the guest's one oscillator: the offsets of phc2sys,
 * ptp4l and the workload's PHC - CLOCK_TAI readings show how consistently
 * the servo follows an error the lab gave the PHC, not how well two
 * independent clocks are synchronized: servo_self_consistency_ns.
 */
static void report_columns(struct out *o, const char *dir, const char *sname)
{
	/* Advance lateness: the tracepoint (lab kernel) or the kprobe (stock) */
	report_advances(o, dir, "taprio_gate", "tracepoint", sname);
	report_advances(o, dir, "taprio_gate_kprobe", "kprobe", sname);
	report_column(o, dir, "sync-workload.csv", NULL, "offset_ns", 1,
		      "servo_self_consistency_ns", (const char *[]){ "source", "workload",
								    "clocks", "PHC-CLOCK_TAI",
								    "oscillators", "one", NULL },
		      "ns", 0);
	report_column(o, dir, "sync-phc2sys.csv", NULL, "offset_ns", 1,
		      "servo_self_consistency_ns", (const char *[]){ "source", "phc2sys",
								    "clocks", "CLOCK_REALTIME-PHC",
								    "oscillators", "one", NULL },
		      "ns", 5);
	report_column(o, dir, "sync-ptp4l.csv", NULL, "offset_ns", 1,
		      "servo_self_consistency_ns", (const char *[]){ "source", "ptp4l",
								    "clocks", "eth1-eth0 (software)",
								    "oscillators", "one", NULL },
		      "ns", 5);
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

/*
 * Our sender (TX timestamps read as isochron reads them) against isochron:
 * the ratio of median sender latencies with its bootstrap interval
 * (ci_ratio), met only when the interval lies inside [0.8, 1.2]
 * (taprio_judge_ratio). Also written as the estimate isochron_latency_ratio.
 */
static void target_isochron(struct out *o, const struct vec *ours, const struct vec *theirs,
			    bool ran, const char *sname)
{
	const char *target = "class 0 sender latency (median, TX timestamps read as isochron "
			     "reads them) within 20% of isochron's: the ratio's 95% interval "
			     "inside [0.8, 1.2]";
	enum target_verdict v;
	char why[512], n_ours[24], n_theirs[24];
	struct ci ci = { NAN, NAN, NULL, NULL };
	double ratio = NAN, m;

	if (!ran) {
		report_target(o, target, NAN, 20, "%", TARGET_NOT_JUDGED,
			      "no isochron figures in this run (no PTP clock on eth0, which "
			      "isochron refuses, or isochron failed: see the run's status)");
		return;
	}
	snprintf(n_ours, sizeof(n_ours), "%zu", ours->n);
	snprintf(n_theirs, sizeof(n_theirs), "%zu", theirs->n);
	if (ours->n && theirs->n &&
	    !ci_ratio(ours->x, ours->n, theirs->x, theirs->n, 1, &ratio, &ci))
		report_estimate(o, "isochron_latency_ratio", (const char *[]){ "tc", "0",
				"schedule", sname, "of", "like-isochron-errq / isochron",
				"n_ours", n_ours, "n_isochron", n_theirs, NULL }, "ratio", ratio,
				ours->n + theirs->n, &ci);
	v = taprio_judge_ratio(ratio, &ci, ours->n, theirs->n, 20, &m, why, sizeof(why));
	report_target(o, target, m, 20, "% (interval end farthest from 1)", v, why);
}

/* The variants of a tuning sweep: each subfolder of @dir with a packets.csv */
static void report_variants(struct out *o, const char *dir)
{
	struct dirent **names;
	char sub[4096];
	int n, i;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "%s: --variants %s: %s\n", lab_prog, dir, strerror(errno));
		write_failed = true;
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s/packets.csv", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !access(sub, R_OK)) {
			snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]->d_name);
			report_variant(o, sub, names[i]->d_name);
		}
		free(names[i]);
	}
	free(names);
}

/* The figures of the measurement folder @dir and the targets */
static void report_run(struct out *o, const char *dir, const char *sname)
{
	struct vec ours = { 0 }, theirs = { 0 };
	struct pkt_counts pc;
	char sub[4096];
	bool iso;

	report_packets(o, dir, sname, &pc);
	report_columns(o, dir, sname);
	report_isochron(o, dir, sname, &theirs);
	/* Our sender as isochron sends, beside the measurement, in alternating rounds */
	snprintf(sub, sizeof(sub), "%s/like-isochron", dir);
	report_sender(o, sub, sname, "like-isochron", NULL);
	snprintf(sub, sizeof(sub), "%s/like-isochron-errq", dir);
	report_sender(o, sub, sname, "like-isochron-errq", &ours);
	target_windows(o, &pc);
	snprintf(sub, sizeof(sub), "%s/isochron.csv", dir);
	iso = !access(sub, F_OK);
	snprintf(sub, sizeof(sub), "%s/packets.csv", dir);
	if (!access(sub, F_OK))
		target_isochron(o, &ours, &theirs, iso, sname);
	free(ours.x);
	free(theirs.x);
}

int cmd_report(int argc, char **argv)
{
	const char *out = NULL, *variants = NULL, *sname;
	struct lab_list failed = { 0 };
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &out, "DIR", "the run directory: its CSV files in, "
			    "summary.json and targets.json out", true),
		LAB_OPT_STR("variants", &variants, "DIR",
			    "a tuning sweep's variants, one subfolder each", false),
		LAB_OPT_LIST("failed", &failed, "REASON", "the run failed so (repeatable)"),
		LAB_OPT_END
	};
	char *reason, *schedule;
	struct out *o;
	int rc;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	o = out_open(out, "taprio");
	if (!o)
		return 1;
	reason = lab_list_join(&failed, "; ");
	lab_list_free(&failed);
	schedule = run_info(out, "schedule");
	sname = schedule ? strrchr(schedule, '/') ? strrchr(schedule, '/') + 1 : schedule : "none";
	report_run(o, out, sname);
	if (variants)
		report_variants(o, variants);
	rc = out_close(o, reason);
	free(reason);
	free(schedule);
	if (rc || write_failed) {
		fprintf(stderr, "%s: report of %s: the results could not be written\n", lab_prog,
			out);
		return 1;
	}
	return 0;
}
