// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs report: the CV target (stddev / mean over the samples after
 * warm-up at most 5 %) judged for every ns/op and Mops/s figure into
 * targets.json, with why a figure missed it; notes.md says in prose what
 * the numbers do not (anomalies left out, how many figures met it).
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "output.h"
#include "bpfqs.h"

/* Why a figure missed the CV target, from its own samples */
static void cv_reason(unsigned int ncpus, const struct series *s, char *buf, size_t len)
{
	const struct series *e = NULL;
	size_t i, out = 0;

	if (below_resolution(s, &e)) {
		snprintf(buf, len, "below the resolution: %.1f ns per operation against an empty loop of %.1f ns "
			 "per iteration (sd %.1f), whose code differs from the measured loop's by more than that%s",
			 s->st.median, e->st.median / s->k, e->st.stddev / s->k,
			 s->kind == ARRAY && !strcmp(s->op, "lookup") ?
			 "; the verifier inlines array lookups into a few instructions" : "");
		return;
	}
	if (!strcmp(s->metric, "contended_mops")) {
		snprintf(buf, len, "wall-clock throughput: it includes the time the host takes the vCPUs away "
			 "(%u vCPUs under TCG; see meta.json for the host)", ncpus);
		return;
	}
	for (i = 0; i < s->n; i++)
		out += fabs(s->x[i] - s->st.median) > 0.1 * fabs(s->st.median);
	snprintf(buf, len, "host noise: %zu of %zu samples lie more than 10%% from the median (min %.4g, max %.4g)%s",
		 out, s->n, s->st.min, s->st.max,
		 strcmp(s->metric, "contended_running_mops") ?
		 ": no batch of the slow samples ran in a fast host period (see the *-batches.csv files)" :
		 ": the windows' median calls ran in different host periods");
}

/* "CV of METRIC map=.. op=.. value_size=.. threads=.. shared=.." */
static void target_name(const struct series *s, char *buf, size_t len)
{
	int n = snprintf(buf, len, "CV of %s map=%s", s->metric, kind_name[s->kind]);

	if (s->op[0])
		n += snprintf(buf + n, len - n, " op=%s", s->op);
	if (s->vsize)
		n += snprintf(buf + n, len - n, " value_size=%u", s->vsize);
	if (s->threads)
		snprintf(buf + n, len - n, " threads=%u shared=%s", s->threads, s->shared ? "yes" : "no");
}

/* One figure against the target; 1 when it met it, -1 when targets.json cannot be written */
static int cv_target(struct out *o, unsigned int ncpus, const struct series *s)
{
	char name[160], why[400];
	bool met = s->st.cv <= CV_TARGET;

	target_name(s, name, sizeof(name));
	if (met)
		snprintf(why, sizeof(why), "CV %.2f %% over %zu samples after warm-up", s->st.cv * 100, s->st.n);
	else
		cv_reason(ncpus, s, why, sizeof(why));
	if (!met)
		fprintf(stderr, "bpfqs: CV target missed: %s: cv %.1f%%: %s\n", name, s->st.cv * 100, why);
	if (out_target(o, name, s->st.cv * 100, CV_TARGET * 100, "%", met ? TARGET_MET : TARGET_NOT_MET, why))
		return -1;
	return met;
}

static int write_notes(const char *dir, size_t met, size_t all, size_t anomalies, char *why, size_t len)
{
	struct atomic_file md;
	char path[4096];

	snprintf(path, sizeof(path), "%s/notes.md", dir);
	if (atomic_open(&md, path))
		goto fail;
	fprintf(md.f, "## bpfqs\n\n%zu of %zu figures met the CV target of %.0f %% (CV = stddev / mean over the "
		"samples after warm-up; each figure, and why one missed, in targets.json).\n", met, all,
		CV_TARGET * 100);
	fprintf(md.f, "\n%zu batches were left out as anomalies (faster than a third of their figure's median "
		"batch; the anomaly column of the *-batches.csv files).\n", anomalies);
	if (!atomic_commit(&md))
		return 0;
fail:
	snprintf(why, len, "cannot write %s", path);
	return -1;
}

/* The CV target of every ns/op and Mops/s figure (not the ratios, not the per-thread ones) */
int write_targets(struct out *o, const char *dir, unsigned int ncpus, size_t anomalies, char *why, size_t len)
{
	size_t i, met = 0, all = 0;
	int rc;

	for (i = 0; i < n_series; i++) {
		const struct series *s = all_series[i];

		if (!s->have_st || !strcmp(s->metric, "syscall_prog_ratio") ||
		    !strcmp(s->metric, "contended_thread_mops"))
			continue;
		rc = cv_target(o, ncpus, s);
		if (rc < 0) {
			snprintf(why, len, "cannot write %s/targets.json", dir);
			return -1;
		}
		met += rc;
		all++;
	}
	fprintf(stderr, "bpfqs: CV <= %.0f%%: %zu of %zu figures met the target\n", CV_TARGET * 100, met, all);
	return write_notes(dir, met, all, anomalies, why, len);
}
