// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs report: the targets into targets.json (workloads/bpfqs/notes.md
 * says why these) and the run's notes.md.
 *
 *   clock reads     the BPF_PROG_TEST_RUN timer's fixed cost per call,
 *                   spread over repeat x K operations, at most 1 % of
 *                   every resolved in-program figure
 *   pair            in-program push+pop pair within 20 % of push + pop
 *                   measured apart (the empty-loop subtraction adds up)
 *   parity          in-program queue push within 10 % of stack push (one
 *                   kernel function, queue_stack_map_push_elem)
 *   scaling         per-thread maps at the most threads at least 80 % of
 *                   that many times one thread (the host gives each vCPU
 *                   a CPU; otherwise the shared-map figures measure the host)
 *
 * pair, parity and scaling are judged on their ratio's 95 % interval
 * (verdict_range: MET inside the limit, NOT MET wholly outside, undecided
 * straddling it); clock reads, a figure with no interval, on its value
 * (judge_at_most). The fixtures of tests/unit/test_bpfqs_report.c make
 * each target met, not met and undecided.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"
#include "output.h"
#include "verdict.h"
#include "bpfqs.h"

double clock_overhead_pct(double timer_call_ns, unsigned int repeat, unsigned int k, double ns_per_op)
{
	return 100 * timer_call_ns / ((double)repeat * k * ns_per_op);
}

enum target_verdict judge_at_most(double measured, double limit)
{
	if (!isfinite(measured))
		return TARGET_NOT_JUDGED;
	return measured <= limit ? TARGET_MET : TARGET_NOT_MET;
}

double deviation_pct(double ratio)
{
	return 100 * fabs(ratio - 1);
}

static size_t n_met, n_not_met, n_undecided, n_not_judged;
static double max_clock_pct;

/* One target; 0 or -1 when targets.json cannot be written */
static int target(struct out *o, const char *name, double measured, double limit, const char *unit,
		  enum target_verdict v, const char *why)
{
	if (v == TARGET_MET)
		n_met++;
	else if (v == TARGET_NOT_MET)
		n_not_met++;
	else if (v == TARGET_UNDECIDED)
		n_undecided++;
	else
		n_not_judged++;
	if (v == TARGET_NOT_MET)
		fprintf(stderr, "bpfqs: target NOT MET: %s: %s\n", name, why);
	return out_target(o, name, measured, limit, unit, v, why);
}

/* What capped the repeat of the unit of @s, from prog-repeat.csv */
static void repeat_note(const struct run_facts *f, const struct series *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < f->n_units; i++)
		if (f->units[i].kind == s->kind && f->units[i].vsize == s->vsize) {
			if (!strcmp(f->units[i].limit, "none"))
				snprintf(buf, len, "the repeat %u was what the pilot asked for: the pilot's smallest "
					 "figure was above this one", f->units[i].repeat);
			else
				snprintf(buf, len, "the repeat %u was capped by %s (the pilot asked for %u)",
					 f->units[i].repeat, f->units[i].limit, f->units[i].needed);
			return;
		}
	snprintf(buf, len, "no calibration row for this map and value size in prog-repeat.csv");
}

/* The clock-read target of one in-program figure */
static int clock_target(struct out *o, const struct run_facts *f, const struct series *s)
{
	const struct series *e;
	char name[160], why[400], note[160];
	enum target_verdict v;
	double pct = NAN;

	snprintf(name, sizeof(name), "clock reads of BPF_PROG_TEST_RUN under %.0f %% of prog_ns_per_op map=%s op=%s "
		 "value_size=%u", CLOCK_LIMIT_PCT, kind_name[s->kind], s->op, s->vsize);
	if (!isfinite(f->timer_call_ns)) {
		v = TARGET_NOT_JUDGED;
		snprintf(why, sizeof(why), "the timer's cost was not measured (no prog-timer.csv rows)");
	} else if (below_resolution(s, &e)) {
		v = TARGET_NOT_JUDGED;
		snprintf(why, sizeof(why), "the figure (%.2f ns) is below the resolution of the empty-loop "
			 "subtraction: no fraction of it means anything", s->st.median);
	} else {
		pct = clock_overhead_pct(f->timer_call_ns, s->repeat, s->k, s->st.median);
		v = judge_at_most(pct, CLOCK_LIMIT_PCT);
		if (pct > max_clock_pct)
			max_clock_pct = pct;
		repeat_note(f, s, note, sizeof(note));
		snprintf(why, sizeof(why), "%.0f ns per call (median of %zu) over repeat %u x K %u = %.3f ns per "
			 "operation against the figure's %.2f ns%s%s", f->timer_call_ns, f->timer_n, s->repeat,
			 s->k, f->timer_call_ns / ((double)s->repeat * s->k), s->st.median,
			 v == TARGET_NOT_MET ? ": " : "", v == TARGET_NOT_MET ? note : "");
	}
	return target(o, name, pct, CLOCK_LIMIT_PCT, "%", v, why);
}

/* A ratio of two series' medians as a metric (out_estimate with ci_ratio); NAN when it cannot be made */
static double ratio_metric(struct out *o, const char *metric, const struct series *num, const double *den,
			   size_t nden, const char *const *params, struct ci *ci)
{
	double r;

	if (ci_ratio(num->x, num->n, den, nden, 1, &r, ci))
		return NAN;
	if (out_estimate(o, metric, params, "ratio", r, num->n < nden ? num->n : nden, ci))
		return -INFINITY;
	return r;
}

/*
 * The pair target of one queue or stack value size: push+pop per pair
 * over push + pop, round by round (prog_pair_over_push_plus_pop)
 */
static int pair_target(struct out *o, enum kind k, unsigned int vsize)
{
	const struct series *pp = find_series("prog_ns_per_op", k, "push_pop", vsize), *push, *pop, *e;
	char name[160], why[600], words[300], vs[16];
	double *den, r = NAN;
	struct ci ci = { NAN, NAN, NULL, NULL };
	enum target_verdict v;
	size_t i, n;

	push = find_series("prog_ns_per_op", k, "push", vsize);
	pop = find_series("prog_ns_per_op", k, "pop", vsize);
	if (!pp || !push || !pop || !pp->have_st || !push->have_st || !pop->have_st)
		return 0;
	snprintf(name, sizeof(name), "in-program push+pop within %.0f %% of push + pop map=%s value_size=%u",
		 PAIR_LIMIT_PCT, kind_name[k], vsize);
	snprintf(vs, sizeof(vs), "%u", vsize);
	if (below_resolution(push, &e) || below_resolution(pop, &e)) {
		snprintf(why, sizeof(why), "push or pop is below the resolution of the empty-loop subtraction");
		return target(o, name, NAN, PAIR_LIMIT_PCT, "%", TARGET_NOT_JUDGED, why);
	}
	n = push->n < pop->n ? push->n : pop->n;
	den = calloc(n ? n : 1, sizeof(double));
	if (!den)
		return -1;
	for (i = 0; i < n; i++)
		den[i] = push->x[i] + pop->x[i];
	r = ratio_metric(o, "prog_pair_over_push_plus_pop",
			 pp, den, n, (const char *[]){ "map", kind_name[k], "value_size", vs, NULL }, &ci);
	free(den);
	if (r == -INFINITY)
		return -1;
	v = verdict_range(&ci, 1 - PAIR_LIMIT_PCT / 100, 1 + PAIR_LIMIT_PCT / 100, words, sizeof(words));
	snprintf(why, sizeof(why), "push+pop %.2f ns per pair against push %.2f + pop %.2f ns: ratio of the medians "
		 "%.3f; %s%s", pp->st.median, push->st.median, pop->st.median, r, words,
		 v == TARGET_NOT_MET ? ": the empty-loop subtraction does not add up at this size" : "");
	return target(o, name, deviation_pct(r), PAIR_LIMIT_PCT, "%", v, why);
}

/* The parity target of one value size: queue push over stack push (prog_push_queue_over_stack) */
static int parity_target(struct out *o, unsigned int vsize)
{
	const struct series *q = find_series("prog_ns_per_op", QUEUE, "push", vsize);
	const struct series *st = find_series("prog_ns_per_op", STACK, "push", vsize);
	char name[160], why[700], words[300], vs[16];
	struct ci ci = { NAN, NAN, NULL, NULL };
	enum target_verdict v;
	double r;

	if (!q || !st || !q->have_st || !st->have_st)
		return 0;
	snprintf(name, sizeof(name), "in-program queue push within %.0f %% of stack push value_size=%u",
		 PARITY_LIMIT_PCT, vsize);
	snprintf(vs, sizeof(vs), "%u", vsize);
	r = ratio_metric(o, "prog_push_queue_over_stack", q, st->x, st->n,
			 (const char *[]){ "value_size", vs, NULL }, &ci);
	if (r == -INFINITY)
		return -1;
	v = verdict_range(&ci, 1 - PARITY_LIMIT_PCT / 100, 1 + PARITY_LIMIT_PCT / 100, words, sizeof(words));
	snprintf(why, sizeof(why), "queue %.2f ns, stack %.2f ns: ratio %.3f; %s%s", q->st.median, st->st.median, r,
		 words,
		 v == TARGET_NOT_MET ? ": one kernel function (queue_stack_map_push_elem) measured twice "
				       "disagrees, so differences of this size between figures are the measurement's" : "");
	return target(o, name, deviation_pct(r), PARITY_LIMIT_PCT, "%", v, why);
}

/* The scaling target of one map kind: per-thread maps at the most threads against one (contended_scaling) */
static int scaling_target(struct out *o, const struct run_facts *f, enum kind k)
{
	const struct series *one = NULL, *most = NULL;
	char name[160], why[800], words[300], th[16];
	struct ci ci = { NAN, NAN, NULL, NULL };
	enum target_verdict v;
	double r, eff;
	size_t i;

	for (i = 0; i < n_series; i++) {
		const struct series *s = all_series[i];

		if (strcmp(s->metric, "contended_mops") || s->kind != k || s->shared || !s->have_st)
			continue;
		if (s->threads == 1)
			one = s;
		if (!most || s->threads > most->threads)
			most = s;
	}
	if (!one || !most)
		return 0;
	snprintf(name, sizeof(name), "per-thread %s maps scale: at the most threads at least %.0f %% of linear",
		 kind_name[k], SCALING_MIN_PCT);
	if (most->threads == 1) {
		snprintf(why, sizeof(why), "one thread only (vCPUs %u, host CPUs %u%s): nothing to scale", f->vcpus,
			 f->host_cpus, f->host_cpus ? "" : " = unknown");
		return target(o, name, NAN, SCALING_MIN_PCT, "%", TARGET_NOT_JUDGED, why);
	}
	snprintf(th, sizeof(th), "%u", most->threads);
	if (ci_ratio(most->x, most->n, one->x, one->n, 1, &r, &ci))
		return target(o, name, NAN, SCALING_MIN_PCT, "%", TARGET_NOT_JUDGED, "no ratio: a side is empty");
	eff = 100 * r / most->threads;
	ci.lo *= 100.0 / most->threads;
	ci.hi *= 100.0 / most->threads;
	if (out_estimate(o, "contended_scaling", (const char *[]){ "map", kind_name[k], "threads", th, NULL }, "%",
			 eff, most->n < one->n ? most->n : one->n, &ci))
		return -1;
	v = verdict_range(&ci, SCALING_MIN_PCT, INFINITY, words, sizeof(words));
	snprintf(why, sizeof(why), "%u threads on their own maps %.3f Mops/s against one thread's %.3f: %.0f %% of "
		 "linear; %s%s", most->threads, most->st.median, one->st.median, eff, words,
		 v == TARGET_NOT_MET ? ": threads that share nothing did not scale, so the vCPUs did not each get a "
				       "host CPU (TCG on a shared host); the shared-map figures then measure the "
				       "host, not the map's lock" : "");
	return target(o, name, eff, SCALING_MIN_PCT, "%", v, why);
}

static int write_notes(const char *dir, const struct run_facts *f, char *why, size_t len)
{
	unsigned int rmin = 0, rmax = 0;
	struct atomic_file md;
	char path[4096];
	size_t i, capped = 0;

	for (i = 0; i < f->n_units; i++) {
		if (!rmin || f->units[i].repeat < rmin)
			rmin = f->units[i].repeat;
		if (f->units[i].repeat > rmax)
			rmax = f->units[i].repeat;
		capped += strcmp(f->units[i].limit, "none") != 0;
	}
	snprintf(path, sizeof(path), "%s/notes.md", dir);
	if (atomic_open(&md, path))
		goto fail;
	fprintf(md.f, "## bpfqs\n\nTargets: %zu met, %zu not met, %zu undecided, %zu not judged (each, and why, "
		"in targets.json; what they mean in workloads/bpfqs/notes.md).\n\n", n_met, n_not_met, n_undecided,
		n_not_judged);
	fprintf(md.f, "Every ns-per-operation figure is the median over all its batches after warm-up, none left "
		"out, with the 95 %% interval of the median (order statistics) in summary.json; *_best is the "
		"fastest batch, a secondary figure. The interval is within this boot: how far the figures move "
		"between boots is for `./run-lab.sh ab`.\n\n");
	if (isfinite(f->timer_call_ns))
		fprintf(md.f, "BPF_PROG_TEST_RUN: the kernel's fixed cost per call inside its timer (clock reads) "
			"was %.0f ns (median of %zu pairs of calls); the repeat per unit was calibrated to bring it "
			"under %.1f %% of the unit's smallest figure: repeat %u to %u (%zu of %zu units capped by "
			"the map budget or the profile's maximum, see prog-repeat.csv); the largest share of a "
			"resolved figure was %.2f %%.\n\n", f->timer_call_ns, f->timer_n, CLOCK_AIM_PCT, rmin, rmax,
			capped, f->n_units, max_clock_pct);
	if (!f->host_cpus)
		fprintf(md.f, "Contention: the host's CPU count was not given (--host-cpus): threads ran up to "
			"the %u vCPUs, which may outnumber the host's CPUs.\n", f->vcpus);
	else
		fprintf(md.f, "Contention: the guest had %u vCPUs on a host of %u CPUs%s; threads ran up to %u. "
			"contended_mops is all completed operations over the phase's wall time, which includes "
			"the time the host took the vCPUs away.\n", f->vcpus, f->host_cpus,
			f->vcpus > f->host_cpus ? ": the vCPUs outnumber the host's CPUs" : "",
			f->vcpus < f->host_cpus ? f->vcpus : f->host_cpus);
	if (!atomic_commit(&md))
		return 0;
fail:
	snprintf(why, len, "cannot write %s", path);
	return -1;
}

int write_targets(struct out *o, const char *dir, const struct run_facts *f, char *why, size_t len)
{
	unsigned int vsizes[MAX_LIST];
	size_t i, j, nv = 0;
	int rc = 0;

	n_met = n_not_met = n_undecided = n_not_judged = 0;
	max_clock_pct = 0;
	for (i = 0; i < n_series && !rc; i++) {
		const struct series *s = all_series[i];

		if (strcmp(s->metric, "prog_ns_per_op") || !s->have_st)
			continue;
		rc = clock_target(o, f, s);
		for (j = 0; j < nv && vsizes[j] != s->vsize; j++)
			;
		if (j == nv && nv < MAX_LIST)
			vsizes[nv++] = s->vsize;
	}
	for (i = 0; i < nv && !rc; i++)
		rc = pair_target(o, QUEUE, vsizes[i]) || pair_target(o, STACK, vsizes[i]) ||
		     parity_target(o, vsizes[i]);
	for (i = QUEUE; i <= STACK && !rc; i++)
		rc = scaling_target(o, f, i);
	if (rc) {
		snprintf(why, len, "cannot write %s/targets.json", dir);
		return -1;
	}
	fprintf(stderr, "bpfqs: targets: %zu met, %zu not met, %zu undecided, %zu not judged\n", n_met, n_not_met,
		n_undecided, n_not_judged);
	return write_notes(dir, f, why, len);
}
