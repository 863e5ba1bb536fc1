// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs report: the per-figure CSV files the plots read (ns-per-op.csv,
 * contention.csv, ratio.csv) and the user space over in-program ratios.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "interval.h"
#include "output.h"
#include "bpfqs.h"

/* Open <dir>/<name>; on failure the file is named in @why */
static int open_csv(struct atomic_file *f, const char *dir, const char *name, const char *header,
		    char *why, size_t len)
{
	if (!csv_open(f, dir, name, header))
		return 0;
	snprintf(why, len, "cannot write %s/%s", dir, name);
	return -1;
}

static int commit_csv(struct atomic_file *f, const char *dir, const char *name, char *why, size_t len)
{
	if (!atomic_commit(f))
		return 0;
	snprintf(why, len, "cannot write %s/%s", dir, name);
	return -1;
}

/* The interval of the median of @s (NAN bounds when it has too few batches) */
static struct ci median_ci(const struct series *s)
{
	struct ci ci = { 0 };

	if (ci_quantile(s->x, s->n, 0.5, &ci))
		ci.lo = ci.hi = 0.0 / 0.0;
	return ci;
}

/*
 * syscall_prog_ratio of user series @u: median user-space ns/op over median
 * in-program ns/op, 95 % bootstrap interval (ci_ratio)
 */
static int ratio_of(struct out *o, FILE *f, const struct series *u)
{
	const struct series *p = find_series("prog_ns_per_op", u->kind, u->op, u->vsize), *e;
	const char *params[8];
	char vs[16];
	struct ci ci;
	double ratio;

	if (!p || !u->have_st || !p->have_st)
		return 0;
	snprintf(vs, sizeof(vs), "%u", u->vsize);
	params[0] = "map", params[1] = kind_name[u->kind], params[2] = "op", params[3] = u->op;
	params[4] = "value_size", params[5] = vs, params[6] = NULL;
	if (below_resolution(p, &e) || ci_ratio(u->x, u->n, p->x, p->n, 1, &ratio, &ci)) {
		/* published with n 0, so that every run has the same metrics */
		fprintf(f, "%s,%s,%u,0,%.3f,%.3f,,,,in-program cost below the resolution: no ratio\n",
			kind_name[u->kind], u->op, u->vsize, u->st.median, p->st.median);
		return out_metric(o, "syscall_prog_ratio", params, "ratio", NULL, 0) ? -1 : 0;
	}
	fprintf(f, "%s,%s,%u,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,\n", kind_name[u->kind], u->op, u->vsize,
		u->n < p->n ? u->n : p->n, u->st.median, p->st.median, ratio, ci.lo, ci.hi);
	return out_estimate(o, "syscall_prog_ratio", params, "ratio", ratio, u->n < p->n ? u->n : p->n, &ci)
		       ? -1 : 0;
}

/* syscall_prog_ratio: user space ns/op over in-program ns/op, and ratio.csv */
int write_ratios(struct out *o, const char *dir, char *why, size_t len)
{
	size_t i, n_before = n_series, *ix;
	struct atomic_file f;
	int rc = 0;

	if (!find_series_metric("user_ns_per_op") || !find_series_metric("prog_ns_per_op"))
		return 0;
	if (open_csv(&f, dir, "ratio.csv",
		     "map,op,value_size,n,user_median,prog_median,ratio,ratio_lo,ratio_hi,note", why, len))
		return -1;
	ix = series_sorted(n_before);
	for (i = 0; i < n_before && !rc; i++)
		if (!strcmp(all_series[ix[i]]->metric, "user_ns_per_op"))
			rc = ratio_of(o, f.f, all_series[ix[i]]);
	free(ix);
	if (rc) {
		atomic_abort(&f);
		snprintf(why, len, "cannot write the ratios into %s/summary.json", dir);
		return -1;
	}
	return commit_csv(&f, dir, "ratio.csv", why, len);
}

/* ns-per-op.csv: per figure, the median of its batches, its interval, the fastest batch */
int write_ns_per_op(const char *dir, char *why, size_t len)
{
	struct atomic_file f;
	size_t i, *ix;

	if (open_csv(&f, dir, "ns-per-op.csv", "path,map,op,value_size,n,median,ci_lo,ci_hi,best,repeat",
		     why, len))
		return -1;
	ix = series_sorted(n_series);
	for (i = 0; i < n_series; i++) {
		struct series *s = all_series[ix[i]];
		const char *path = !strcmp(s->metric, "user_ns_per_op") ? "user"
				 : !strcmp(s->metric, "prog_ns_per_op") ? "prog" : NULL;
		struct ci ci;

		if (!path || !s->have_st)
			continue;
		ci = median_ci(s);
		fprintf(f.f, "%s,%s,%s,%u,%zu,%.3f,%.3f,%.3f,%.3f,%u\n", path, kind_name[s->kind], s->op, s->vsize,
			s->st.n, s->st.median, ci.lo, ci.hi, s->st.min, s->repeat);
	}
	free(ix);
	return commit_csv(&f, dir, "ns-per-op.csv", why, len);
}

/* The series of @metric with the contention parameters of @s */
const struct series *cont_sibling(const struct series *s, const char *metric)
{
	size_t j;

	for (j = 0; j < n_series; j++) {
		const struct series *o = all_series[j];

		if (o->kind == s->kind && o->threads == s->threads && o->shared == s->shared &&
		    !strcmp(o->metric, metric))
			return o;
	}
	return NULL;
}

/* contention.csv: per configuration, the aggregate figure with its interval, the median thread */
int write_contention(const char *dir, char *why, size_t len)
{
	struct atomic_file f;
	size_t i, *ix;

	if (open_csv(&f, dir, "contention.csv", "map,threads,shared,n,median,ci_lo,ci_hi,thread_n,thread_median",
		     why, len))
		return -1;
	ix = series_sorted(n_series);
	for (i = 0; i < n_series; i++) {
		const struct series *s = all_series[ix[i]], *t;
		struct ci ci;

		if (strcmp(s->metric, "contended_mops") || !s->have_st)
			continue;
		t = cont_sibling(s, "contended_thread_mops");
		if (!t || !t->have_st)
			continue;
		ci = median_ci(s);
		fprintf(f.f, "%s,%u,%s,%zu,%.4f,%.4f,%.4f,%zu,%.4f\n", kind_name[s->kind], s->threads,
			s->shared ? "yes" : "no", s->st.n, s->st.median, ci.lo, ci.hi, t->st.n, t->st.median);
	}
	free(ix);
	return commit_csv(&f, dir, "contention.csv", why, len);
}
