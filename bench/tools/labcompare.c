// SPDX-License-Identifier: GPL-2.0
/*
 * labcompare - compare two groups of runs metric by metric, the boot being
 * the unit of replication (bench/lib/abstat.h has the statistics).
 *
 * labcompare --a RUN[,RUN...] --b RUN[,RUN...] --out DIR [--asked KEY,...]
 *
 * Each RUN is a run folder (meta.json, <workload>/summary.json). A metric is
 * a workload, a name and its params (never its counts, which move from
 * boot to boot; of a format 1 summary, its params less those that were
 * counts); its per-boot value is the median the run's summary gives it.
 * Writes DIR/compare.json (one object per metric) and DIR/compare.txt (also printed): the warnings, the metrics found
 * changed ranked by effect, then the rest, then the metrics one side lacks.
 * --asked names the meta.json keys the comparison is meant to change (for
 * example kernel_flavour); any other difference between or within the
 * sides in the keys below is a warning.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abstat.h"
#include "cli.h"
#include "output.h"

#define MAX_RUNS 64

/* meta.json keys two sides must share unless asked otherwise */
static const char *const meta_keys[] = {
	"accel", "hz", "vcpus", "qemu_version", "clocksource", "trace", "profile",
	"host_cpu", "lab_commit", "kernel_flavour", "kernel_key", "kernel_version",
	"kernel_source_version", "series_hash", "config_hash", "cmdline_extra", "sysctls",
	"mem_mb", NULL,
};
/* units of counts: a difference is reported, never tested */
static const char *const count_units[] = {
	"events", "packets", "routes", "messages", "calls", "bytes", "steps", NULL,
};

/*
 * Units of quantities that can be 0 or negative, or that add rather than
 * scale (percentages, slopes): compared on the difference scale
 */
static bool additive_unit(const char *u)
{
	return u && (u[0] == '%' || strstr(u, "/1000 steps"));
}

struct metric {
	char *key;		/* workload \t name \t params as sorted compact JSON */
	json_t *desc;		/* {workload, name, params, unit} */
	double v[2][MAX_RUNS];	/* per-boot medians of side A (0) and B (1) */
	size_t n[2];
	bool count;		/* a count or a single figure: no p-value */
	bool additive;		/* additive_unit: the difference scale */
	bool cond_seen;		/* cond holds the conditions of its first run */
	json_t *cond;		/* the conditions it was measured under (NULL: none) */
	char *incomparable;	/* the conditions that differ between its runs */
	char *why;		/* "not comparable: ..." */
	struct ab_metric ab;
};

struct cmp {
	struct metric *m;
	size_t nm, cap;
	char *runs[2][MAX_RUNS];
	size_t nruns[2];
	json_t *meta[2][MAX_RUNS];
	json_t *loadwarn;	/* what could not be read, as warnings */
};

/* A warning found while loading: kept for compare.txt and compare.json */
static void load_warning(struct cmp *c, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		lab_die("out of memory");
	va_end(ap);
	if (!c->loadwarn)
		c->loadwarn = json_array();
	json_array_append_new(c->loadwarn, json_string(s));
	free(s);
}

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static struct metric *find_metric(struct cmp *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nm; i++)
		if (!strcmp(c->m[i].key, key))
			return &c->m[i];
	if (c->nm == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->m = lab_realloc(c->m, c->cap, sizeof(*c->m), "metrics");
	}
	memset(&c->m[c->nm], 0, sizeof(c->m[0]));
	c->m[c->nm].key = strdup(key);
	return &c->m[c->nm++];
}

/* json_equal, with two absent values equal */
static bool same(json_t *x, json_t *y)
{
	return (!x && !y) || json_equal(x, y);
}

/*
 * The conditions of one more run of @m: when they differ from its first
 * run's, the metric is not comparable, and ->incomparable says which
 * condition differs and how ("probe: kprobe and tracepoint")
 */
static void note_conditions(struct metric *m, json_t *cond)
{
	const char *k;
	json_t *v, *all;
	char *s;

	if (!m->cond_seen) {
		m->cond_seen = true;
		m->cond = json_incref(cond);
		return;
	}
	if (same(m->cond, cond) || m->incomparable)
		return;
	all = json_object();
	if (m->cond)
		json_object_update(all, m->cond);
	if (cond)
		json_object_update(all, cond);
	json_object_foreach(all, k, v) {
		const char *x = json_string_value(json_object_get(m->cond, k));
		const char *y = json_string_value(json_object_get(cond, k));

		if (x && y && !strcmp(x, y))
			continue;
		if (asprintf(&s, "%s%s%s: %s and %s", m->incomparable ? m->incomparable : "",
			     m->incomparable ? "; " : "", k, x ? x : "none", y ? y : "none") < 0)
			lab_die("out of memory");
		free(m->incomparable);
		m->incomparable = s;
	}
	json_decref(all);
}

/*
 * The params that key a metric of a summary of format @version (a new
 * reference): those of a format 1 summary without its count params, which
 * format 2 writes as counts, so that runs of both formats compare
 */
static json_t *key_params(json_t *jm, json_int_t version)
{
	static const char *const v1_counts[] = OUT_V1_COUNT_PARAMS;
	json_t *params = json_object_get(jm, "params");
	size_t i;

	params = params ? json_copy(params) : json_object();
	for (i = 0; params && version < 2 && v1_counts[i]; i++)
		json_object_del(params, v1_counts[i]);
	if (!params)
		lab_die("out of memory");
	return params;
}

/* One metric object of a summary of format @version, into side @s */
static void add_metric(struct cmp *c, int s, const char *wl, json_t *jm, json_int_t version)
{
	const char *name = json_string_value(json_object_get(jm, "name"));
	json_t *median = json_object_get(jm, "median");
	json_t *params;
	char *p, *key;
	struct metric *m;

	if (!name || !json_is_number(median))
		return;
	params = key_params(jm, version);
	p = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	if (!p || asprintf(&key, "%s\t%s\t%s", wl, name, p) < 0)
		lab_die("out of memory");
	m = find_metric(c, key);
	if (!m->desc) {
		m->desc = json_pack("{s:s, s:s, s:O, s:O}", "workload", wl, "name", name, "params", params,
				    "unit", json_object_get(jm, "unit"));
		m->count = in_list(count_units, json_string_value(json_object_get(jm, "unit")) ?: "");
		m->additive = additive_unit(json_string_value(json_object_get(jm, "unit")));
	}
	if (json_integer_value(json_object_get(jm, "n")) <= 1)
		m->count = true;
	note_conditions(m, json_object_get(jm, "conditions"));
	if (m->n[s] < MAX_RUNS)
		m->v[s][m->n[s]++] = json_number_value(median);
	json_decref(params);
	free(key);
	free(p);
}

static void load_run(struct cmp *c, int s, const char *dir)
{
	json_t *meta, *wls, *w;
	json_error_t err;
	size_t i;
	char *path;

	if (asprintf(&path, "%s/meta.json", dir) < 0)
		lab_die("out of memory");
	meta = json_load_file(path, 0, &err);
	if (!meta)
		lab_usage_error("run '%s' has no readable meta.json: %s", dir, err.text);
	free(path);
	c->meta[s][c->nruns[s]] = meta;
	c->runs[s][c->nruns[s]++] = strdup(dir);
	wls = json_object_get(meta, "workloads");
	json_array_foreach(wls, i, w) {
		json_t *sum, *jm;
		size_t k;

		if (asprintf(&path, "%s/%s/summary.json", dir, json_string_value(w)) < 0)
			lab_die("out of memory");
		sum = json_load_file(path, 0, &err);
		if (!sum) {
			load_warning(c, "workload %s has no readable summary.json in %s (%s): its metrics are missing",
				     json_string_value(w), dir, err.text);
			free(path);
			continue;
		}
		if (strcmp(json_string_value(json_object_get(sum, "status")) ?: "none", "ok"))
			load_warning(c, "workload %s did not finish ok in %s (%s%s%s)", json_string_value(w),
				     dir, json_string_value(json_object_get(sum, "status")) ?: "no status",
				     json_is_string(json_object_get(sum, "reason")) ? ": " : "",
				     json_string_value(json_object_get(sum, "reason")) ?: "");
		json_array_foreach(json_object_get(sum, "metrics"), k, jm)
			add_metric(c, s, json_string_value(w), jm,
				   json_integer_value(json_object_get(sum, "format_version")) ?: 1);
		json_decref(sum);
		free(path);
	}
}

static void load_side(struct cmp *c, int s, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (c->nruns[s] == MAX_RUNS)
			lab_usage_error("more than %d runs on side %c", MAX_RUNS, 'A' + s);
		load_run(c, s, tok);
	}
	if (!c->nruns[s])
		lab_usage_error("side %c names no run ('%s')", 'A' + s, list);
	free(copy);
}

/*
 * The host's load (meta.json host_load: the share of the host's CPU others
 * used while the workloads ran): a warning when the sides' ranges over their
 * boots do not overlap, the host's noise then differing between them
 */
static size_t host_load_warning(const struct cmp *c, FILE *out, json_t *jw)
{
	double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
	size_t s, r, n[2] = { 0, 0 };
	char *msg;

	for (s = 0; s < 2; s++)
		for (r = 0; r < c->nruns[s]; r++) {
			json_t *v = json_object_get(json_object_get(json_object_get(c->meta[s][r], "host_load"),
								    "workloads"), "others_pct_median");

			if (!json_is_number(v))
				continue;
			lo[s] = fmin(lo[s], json_number_value(v));
			hi[s] = fmax(hi[s], json_number_value(v));
			n[s]++;
		}
	if (!n[0] || !n[1] || (lo[1] <= hi[0] && lo[0] <= hi[1]))
		return 0;
	if (asprintf(&msg, "the host's load differs between the sides beyond their spread: others used %.0f-%.0f %% of the host's CPU during A's boots, %.0f-%.0f %% during B's (meta.json host_load): under TCG that noise is in every timing figure",
		     lo[0], hi[0], lo[1], hi[1]) < 0)
		lab_die("out of memory");
	fprintf(out, "warning: %s\n", msg);
	json_array_append_new(jw, json_string(msg));
	free(msg);
	return 1;
}

/* The warnings: meta keys that differ, across or within the sides */
static size_t warnings(const struct cmp *c, const char *asked, FILE *out, json_t *jw)
{
	size_t k, s, r, nw = 0;
	json_t *w;

	for (k = 0; meta_keys[k]; k++) {
		json_t *first = json_object_get(c->meta[0][0], meta_keys[k]);
		char *fa = NULL, *fb = NULL;
		bool differ = false;

		if (asked && strstr(asked, meta_keys[k]))
			continue;
		for (s = 0; s < 2; s++)
			for (r = 0; r < c->nruns[s]; r++)
				if (!same(first, json_object_get(c->meta[s][r], meta_keys[k])))
					differ = true;
		if (!differ)
			continue;
		fa = json_dumps(first, JSON_ENCODE_ANY);
		for (s = 0; s < 2 && !fb; s++)
			for (r = 0; r < c->nruns[s] && !fb; r++)
				if (!same(first, json_object_get(c->meta[s][r], meta_keys[k])))
					fb = json_dumps(json_object_get(c->meta[s][r], meta_keys[k]),
							JSON_ENCODE_ANY);
		fprintf(out, "warning: the runs differ in %s (%s and %s), which was not asked\n",
			meta_keys[k], fa ? fa : "null", fb ? fb : "null");
		json_array_append_new(jw, json_sprintf("the runs differ in %s (%s and %s), which was not asked",
						       meta_keys[k], fa ? fa : "null", fb ? fb : "null"));
		free(fa);
		free(fb);
		nw++;
	}
	nw += host_load_warning(c, out, jw);
	json_array_foreach(c->loadwarn, k, w) {
		fprintf(out, "warning: %s\n", json_string_value(w));
		json_array_append(jw, w);
		nw++;
	}
	return nw;
}

/*
 * Where the comparison's time went, from each run's meta.json (boot_seconds,
 * vm_seconds, started, ended, report_seconds) and progress.log (the guest's steps and
 * phases, in seconds since QEMU started): boot (QEMU to the first command),
 * set-up (the steps that are no workload's), conformance (phases conform),
 * measurement, probe passes (phases probe*), the guest's reports (phases
 * report), the rest of the workloads' steps (between phases), the host (the
 * kernel from its cache, the report, the plots) and the waiting between the
 * boots (a Slurm queue, a guest slot)
 */
enum { T_BOOT, T_SETUP, T_CONFORM, T_MEASURE, T_PROBES, T_REPORT, T_BETWEEN, T_HOST, T_WAIT, T_N };
static const char *const t_names[T_N] = {
	"boot", "set-up", "conformance", "measurement", "probes", "report in the guest",
	"between phases", "host (kernel, reports, plots)", "waiting between boots",
};

static double iso_time(json_t *meta, const char *key)
{
	struct tm tm = { 0 };
	const char *v = json_string_value(json_object_get(meta, key));

	if (!v || !strptime(v, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NAN;
	return (double)timegm(&tm);
}

/* the guest's seconds of one run into @t */
static void run_time(const char *dir, double *t)
{
	char *path, line[512], step[128] = "", kind[16], a[128], b[128];
	double ts, step_t = 0, phase_t = 0, in_phases = 0;
	FILE *f;

	if (asprintf(&path, "%s/progress.log", dir) < 0)
		lab_die("out of memory");
	f = fopen(path, "r");
	free(path);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		a[0] = b[0] = 0;
		if (line[0] == '#' || sscanf(line, "%lf %15s %127s %127s", &ts, kind, a, b) < 2)
			continue;
		if (!strcmp(kind, "start")) {
			snprintf(step, sizeof(step), "%s", a);
			step_t = ts;
			in_phases = 0;
		} else if (!strcmp(kind, "end") && step[0]) {
			if (strncmp(step, "wl-", 3))
				t[T_SETUP] += ts - step_t;
			else
				t[T_BETWEEN] += ts - step_t - in_phases;
			step[0] = 0;
		} else if (!strcmp(kind, "phase")) {
			phase_t = ts;
		} else if (!strcmp(kind, "phase-end")) {
			int k = !strcmp(b, "conform") ? T_CONFORM :
				!strncmp(b, "probe", 5) ? T_PROBES :
				!strcmp(b, "report") ? T_REPORT : T_MEASURE;

			t[k] += ts - phase_t;
			in_phases += ts - phase_t;
		}
	}
	fclose(f);
}

static json_t *time_split(const struct cmp *c, FILE *out)
{
	double t[T_N] = { 0 }, first = INFINITY, last = -INFINITY, runs = 0, total;
	json_t *o = json_object();
	size_t s, r, k, n = 0;

	for (s = 0; s < 2; s++)
		for (r = 0; r < c->nruns[s]; r++) {
			json_t *m = c->meta[s][r];
			double st = iso_time(m, "started"), en = iso_time(m, "ended");
			double vm = json_number_value(json_object_get(m, "vm_seconds"));
			double rep = json_number_value(json_object_get(m, "report_seconds"));

			t[T_BOOT] += json_number_value(json_object_get(m, "boot_seconds"));
			run_time(c->runs[s][r], t);
			if (isfinite(st) && isfinite(en)) {
				first = fmin(first, st);
				last = fmax(last, en + rep);
				runs += en - st + rep;
				t[T_HOST] += en - st - vm + rep;
			}
			n++;
		}
	if (isfinite(first))
		t[T_WAIT] = fmax(0, last - first - runs);
	for (k = 0, total = 0; k < T_N; k++)
		total += t[k];
	fprintf(out, "time: %zu boots, %.0f s in all:", n, total);
	for (k = 0; k < T_N; k++) {
		fprintf(out, "%s %s %.0f s (%.0f %%)", k ? "," : "", t_names[k], t[k],
			total > 0 ? 100 * t[k] / total : 0);
		json_object_set_new(o, t_names[k], json_real(t[k]));
	}
	fprintf(out, "\n");
	json_object_set_new(o, "total", json_real(total));
	return o;
}

static void judge_all(struct cmp *c)
{
	struct ab_metric *fam = lab_calloc(c->nm, sizeof(*fam), "metrics");
	size_t i, nf = 0, *idx = lab_calloc(c->nm, sizeof(*idx), "metrics");

	for (i = 0; i < c->nm; i++) {
		struct metric *m = &c->m[i];

		if (!m->n[0] || !m->n[1])
			continue;
		ab_metric_compute(m->v[0], m->n[0], m->v[1], m->n[1], m->additive, &m->ab);
		if (m->incomparable) {
			m->ab.p = m->ab.p_mw = m->ab.change = m->ab.lo = m->ab.hi = NAN;
			m->ab.diff = m->ab.diff_lo = m->ab.diff_hi = m->ab.detectable = NAN;
			continue;
		}
		if (m->count) {
			m->ab.p = m->ab.p_mw = NAN;
			continue;
		}
		idx[nf] = i;
		fam[nf++] = m->ab;
	}
	ab_judge(fam, nf);
	for (i = 0; i < nf; i++)
		c->m[idx[i]].ab = fam[i];
	for (i = 0; i < c->nm; i++)
		if (c->m[i].count && c->m[i].n[0] && c->m[i].n[1] && !c->m[i].incomparable)
			c->m[i].ab.why = "a count or a single figure: no p-value";
	for (i = 0; i < c->nm; i++) {
		struct metric *m = &c->m[i];

		if (!m->incomparable || !m->n[0] || !m->n[1])
			continue;
		if (asprintf(&m->why, "not comparable: %s", m->incomparable) < 0)
			lab_die("out of memory");
		m->ab.why = m->why;
		m->ab.changed = false;
	}
	free(fam);
	free(idx);
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *metric_json(const struct metric *m)
{
	json_t *o = json_deep_copy(m->desc);
	const struct ab_metric *a = &m->ab;

	json_object_set_new(o, "boots_a", json_integer((json_int_t)m->n[0]));
	json_object_set_new(o, "boots_b", json_integer((json_int_t)m->n[1]));
	if (!m->n[0] || !m->n[1]) {
		json_object_set_new(o, "changed", json_null());
		json_object_set_new(o, "why", json_string(m->n[0] ? "missing in B" : "missing in A"));
		return o;
	}
	json_object_set_new(o, "comparable", json_boolean(!m->incomparable));
	if (m->cond)
		json_object_set(o, "conditions", m->cond);
	json_object_set_new(o, "scale", json_string(a->diff_scale ? "difference" : "log"));
	json_object_set_new(o, "median_a", num(a->med_a));
	json_object_set_new(o, "median_b", num(a->med_b));
	json_object_set_new(o, "change_pct", num(a->change));
	json_object_set_new(o, "change_lo", num(a->lo));
	json_object_set_new(o, "change_hi", num(a->hi));
	json_object_set_new(o, "diff", num(a->diff));
	json_object_set_new(o, "diff_lo", num(a->diff_lo));
	json_object_set_new(o, "diff_hi", num(a->diff_hi));
	json_object_set_new(o, "detectable_pct", num(a->changed ? NAN : a->detectable));
	json_object_set_new(o, "cv_a", num(a->cv_a));
	json_object_set_new(o, "cv_b", num(a->cv_b));
	json_object_set_new(o, "p", num(a->p));
	json_object_set_new(o, "p_mann_whitney", num(a->p_mw));
	json_object_set_new(o, "q", num(a->q));
	json_object_set_new(o, "changed", json_boolean(a->changed));
	json_object_set_new(o, "why", json_string(a->why ? a->why : ""));
	return o;
}

static const struct metric *sort_base;

/* changed first, by |change| descending; then by key */
static int cmp_rank(const void *x, const void *y)
{
	const struct metric *a = &sort_base[*(const size_t *)x], *b = &sort_base[*(const size_t *)y];
	double ea = fabs(a->ab.change), eb = fabs(b->ab.change);

	if (a->ab.changed != b->ab.changed)
		return a->ab.changed ? -1 : 1;
	if (a->ab.changed && ea != eb)
		return ea > eb ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* @x with @fmt into @buf, or "-" when it is not a number */
static const char *fmt_num(char *buf, size_t len, const char *fmt, double x)
{
	if (isfinite(x))
		snprintf(buf, len, fmt, x);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void text_line(FILE *f, const struct metric *m)
{
	const struct ab_metric *a = &m->ab;
	char *p = json_dumps(json_object_get(m->desc, "params"), JSON_COMPACT | JSON_SORT_KEYS);
	char ci[64] = "", q[32], cva[32], cvb[32], seen[48] = "", ch[32];

	if (isfinite(a->lo) && isfinite(a->hi))
		snprintf(ci, sizeof(ci), "[%+.1f, %+.1f]", a->lo, a->hi);
	if (!a->changed && isfinite(a->detectable))
		snprintf(seen, sizeof(seen), "; none > %.1f%% seen", a->detectable);
	fprintf(f, "%-9s %-28s %-40s %12.4g %12.4g %9s %-16s q=%-8s cv %s/%s n %zu/%zu %s %s%s\n",
		json_string_value(json_object_get(m->desc, "workload")),
		json_string_value(json_object_get(m->desc, "name")), p ? p : "{}",
		a->med_a, a->med_b, fmt_num(ch, sizeof(ch), "%+.1f%%", a->change), ci,
		fmt_num(q, sizeof(q), "%.3g", a->q),
		fmt_num(cva, sizeof(cva), "%.1f%%", 100 * a->cv_a),
		fmt_num(cvb, sizeof(cvb), "%.1f%%", 100 * a->cv_b), m->n[0], m->n[1],
		a->diff_scale ? "diff" : "log", a->why ? a->why : "", seen);
	free(p);
}

static int write_outputs(struct cmp *c, const char *dir, const char *asked)
{
	struct atomic_file txt;
	json_t *arr = json_array(), *root, *jw = json_array(), *times;
	size_t *order = lab_calloc(c->nm, sizeof(*order), "metrics"), i, changed = 0, tested = 0;
	size_t fewer = 0, untestable = 0, counts = 0, both = 0, incomparable = 0;
	char *path;
	int err;

	for (i = 0; i < c->nm; i++)
		order[i] = i;
	sort_base = c->m;
	qsort(order, c->nm, sizeof(*order), cmp_rank);
	if (asprintf(&path, "%s/compare.txt", dir) < 0 || atomic_open(&txt, path))
		lab_die("cannot write %s", path);
	warnings(c, asked, txt.f, jw);
	times = time_split(c, txt.f);
	for (i = 0; i < c->nm; i++) {
		const struct metric *m = &c->m[order[i]];

		json_array_append_new(arr, metric_json(m));
		changed += m->ab.changed;
		if (!m->n[0] || !m->n[1])
			continue;
		both++;
		if (m->incomparable)
			incomparable++;
		else if (m->count)
			counts++;
		else if (isfinite(m->ab.p))
			tested++;
		else if (m->n[0] >= 2 && m->n[1] >= 2)
			untestable++;
		fewer += m->n[0] < c->nruns[0] || m->n[1] < c->nruns[1];
	}
	fprintf(txt.f, "%zu boot(s) in A, %zu in B; %zu metrics in both: %zu tested, %zu counts or single figures (not tested), %zu not testable, %zu not comparable (measured under different conditions); %zu changed (Benjamini-Hochberg at 5 %% FDR, and a 95 %% interval of the same t-test that excludes 0)\n",
		c->nruns[0], c->nruns[1], both, tested, counts, untestable, incomparable, changed);
	if (fewer)
		fprintf(txt.f, "%zu metrics are missing from some boots (a run that failed or skipped them): "
			"each line's n A/B is its boots a side\n", fewer);
	if (c->nruns[0] < 2 || c->nruns[1] < 2)
		fprintf(txt.f, "one boot a side gives no significance: %%change only\n");
	else if (!changed)
		fprintf(txt.f, "no change found\n");
	if (tested)
		fprintf(txt.f, "\"none > X%% seen\": the smallest change the comparison could have detected, with 80 %% power at alpha 0.05 per metric (before the false-discovery correction, which asks for more), at its boots' spread\n");
	fprintf(txt.f, "%-9s %-28s %-40s %12s %12s %9s %s\n", "workload", "metric", "params",
		"median A", "median B", "%change", "[95% interval] q, CV across boots A/B, boots A/B, scale, verdict");
	for (i = 0; i < c->nm; i++) {
		const struct metric *m = &c->m[order[i]];

		if (m->n[0] && m->n[1])
			text_line(txt.f, m);
	}
	for (i = 0; i < c->nm; i++) {
		const struct metric *m = &c->m[order[i]];

		if (!m->n[0] || !m->n[1])
			fprintf(txt.f, "only in %c: %s\n", m->n[0] ? 'A' : 'B', m->key);
	}
	err = atomic_commit(&txt);
	free(path);
	root = json_pack("{s:o, s:o, s:I, s:I, s:o}", "warnings", jw, "metrics", arr,
			 "boots_a", (json_int_t)c->nruns[0], "boots_b", (json_int_t)c->nruns[1],
			 "time_seconds", times);
	if (asprintf(&path, "%s/compare.json", dir) < 0)
		lab_die("out of memory");
	if (!err && json_dump_file(root, path, JSON_INDENT(1) | JSON_REAL_PRECISION(10))) {
		fprintf(stderr, "labcompare: cannot write %s\n", path);
		err = -EIO;
	}
	free(path);
	json_decref(root);
	free(order);
	return err;
}

int main(int argc, char **argv)
{
	const char *a = NULL, *b = NULL, *out = NULL, *asked = NULL;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("a", &a, "RUN[,RUN...]", "the runs of side A, one per boot", true),
		LAB_OPT_STR("b", &b, "RUN[,RUN...]", "the runs of side B", true),
		LAB_OPT_STR("out", &out, "DIR", "where compare.json and compare.txt go", true),
		LAB_OPT_STR("asked", &asked, "KEY,...", "meta.json keys meant to differ", false),
		LAB_OPT_END
	};
	struct cmp c = { 0 };
	int first;

	lab_prog = "labcompare";
	first = lab_parse(argc, argv, opts);
	lab_positionals(argc, argv, first, 0, "");
	load_side(&c, 0, a);
	load_side(&c, 1, b);
	judge_all(&c);
	return write_outputs(&c, out, asked) ? 1 : 0;
}
