// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs report: the per-figure CSV files the plots read (ns-per-op.csv,
 * contention.csv, ratio.csv) and the user space over in-program ratios.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

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

/* The ratio of user series @u over its in-program figure, sample by sample */
static int ratio_of(struct out *o, FILE *f, const struct series *u)
{
	const struct series *p = find_series("prog_ns_per_op", u->kind, u->op, u->vsize), *e;
	struct series *r;
	size_t j, n;

	if (!p || !u->have_st || !p->have_st)
		return 0;
	r = series_new("syscall_prog_ratio", "ratio", u->kind, u->op, u->vsize, 0, false);
	if (below_resolution(p, &e)) {
		/* published with n 0, so that every run has the same metrics */
		fprintf(f, "%s,%s,%u,0,%.3f,%.3f,,,,in-program cost below the resolution: no ratio\n",
			kind_name[u->kind], u->op, u->vsize, u->st.median, p->st.median);
		return series_publish(o, r) ? -1 : 0;
	}
	n = u->n < p->n ? u->n : p->n;
	for (j = 0; j < n; j++)
		if (p->x[j] > 0)
			series_add(r, u->x[j] / p->x[j]);
	if (series_publish(o, r))
		return -1;
	if (r->have_st)
		fprintf(f, "%s,%s,%u,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,\n", kind_name[u->kind], u->op, u->vsize,
			r->st.n, u->st.median, p->st.median, r->st.median, r->st.min, r->st.max);
	return 0;
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
		     "map,op,value_size,n,user_median,prog_median,ratio_median,ratio_min,ratio_max,note", why, len))
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

/* ns-per-op.csv: per figure, median and spread, what the plots read */
int write_ns_per_op(const char *dir, char *why, size_t len)
{
	struct atomic_file f;
	size_t i, *ix;

	if (open_csv(&f, dir, "ns-per-op.csv", "path,map,op,value_size,n,median,mean,stddev,min,max,cv_pct",
		     why, len))
		return -1;
	ix = series_sorted(n_series);
	for (i = 0; i < n_series; i++) {
		struct series *s = all_series[ix[i]];
		const char *path = !strcmp(s->metric, "user_ns_per_op") ? "user"
				 : !strcmp(s->metric, "prog_ns_per_op") ? "prog" : NULL;

		if (!path || !s->have_st)
			continue;
		fprintf(f.f, "%s,%s,%s,%u,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f\n", path, kind_name[s->kind],
			s->op, s->vsize, s->st.n, s->st.median, s->st.mean, s->st.stddev, s->st.min,
			s->st.max, s->st.cv * 100);
	}
	free(ix);
	return commit_csv(&f, dir, "ns-per-op.csv", why, len);
}

/* The series of @metric with the contention parameters of @s */
static const struct series *cont_sibling(const struct series *s, const char *metric)
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

/* contention.csv: per configuration, the aggregate, thread and running figures */
int write_contention(const char *dir, char *why, size_t len)
{
	struct atomic_file f;
	size_t i;

	if (open_csv(&f, dir, "contention.csv",
		     "map,threads,shared,n,median,stddev,min,max,thread_n,thread_median,thread_stddev,thread_min,"
		     "thread_max,running_median,running_stddev,running_min,running_max", why, len))
		return -1;
	for (i = 0; i < n_series; i++) {
		const struct series *s = all_series[i], *t, *w;

		if (strcmp(s->metric, "contended_mops") || !s->have_st)
			continue;
		t = cont_sibling(s, "contended_thread_mops");
		w = cont_sibling(s, "contended_running_mops");
		if (!t || !t->have_st || !w || !w->have_st)
			continue;
		fprintf(f.f, "%s,%u,%s,%zu,%.4f,%.4f,%.4f,%.4f,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
			kind_name[s->kind], s->threads, s->shared ? "yes" : "no", s->st.n, s->st.median,
			s->st.stddev, s->st.min, s->st.max, t->st.n, t->st.median, t->st.stddev, t->st.min,
			t->st.max, w->st.median, w->st.stddev, w->st.min, w->st.max);
	}
	return commit_csv(&f, dir, "contention.csv", why, len);
}
