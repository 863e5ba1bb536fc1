// SPDX-License-Identifier: GPL-2.0
/*
 * cyclictest's histogram, the reference for timer wake-up latency in the
 * same boot: cyclictest-LOAD.hist (--histfile) into the metric
 * cyclictest_latency_us and cyclictest-LOAD.csv (the non-empty buckets).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cli.h"
#include "ledjitter.h"
#include "stats.h"

#define CT_MAX_THREADS 64

struct ct_hist {
	long long maxlat[CT_MAX_THREADS], over[CT_MAX_THREADS];
	int nth;		/* threads seen in the rows */
	double *x;		/* one sample per count */
	size_t n, cap;
};

static void ct_add(struct ct_hist *h, double lat, long long count)
{
	while (count-- > 0) {
		if (h->n == h->cap) {
			h->cap = h->cap ? 2 * h->cap : 65536;
			h->x = lab_realloc(h->x, h->cap, sizeof(*h->x), "cyclictest samples");
		}
		h->x[h->n++] = lat;
	}
}

/* "# Max Latencies: ..." and "# Histogram Overflows: ...", one number per thread */
static void ct_comment(struct ct_hist *h, const char *line)
{
	long long *dst = NULL;
	const char *p = NULL;
	char *end;
	int th;

	if (!strncmp(line, "# Max Latencies:", 16))
		dst = h->maxlat, p = line + 16;
	else if (!strncmp(line, "# Histogram Overflows:", 22))
		dst = h->over, p = line + 22;
	for (th = 0; dst && th < CT_MAX_THREADS; th++) {
		dst[th] = strtoll(p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
}

/* A row "latency count count ...": the sum of the counts, or -1 for no row */
static long long ct_row(struct ct_hist *h, const char *line, long long *lat)
{
	const char *p;
	char *end;
	long long sum = 0, cnt;
	int th;

	*lat = strtoll(line, &end, 10);
	if (end == line)
		return -1;
	for (p = end, th = 0; th < CT_MAX_THREADS; th++, p = end) {
		cnt = strtoll(p, &end, 10);
		if (end == p)
			break;
		sum += cnt;
	}
	if (th > h->nth)
		h->nth = th;
	return sum;
}

/* Read the histogram, writing its non-empty buckets to @f */
static void ct_read(struct ct_hist *h, gzFile in, FILE *f)
{
	char line[4096];
	long long lat, sum, cnt;
	int th;

	while (gzgets(in, line, sizeof(line))) {
		if (line[0] == '#') {
			ct_comment(h, line);
			continue;
		}
		sum = ct_row(h, line, &lat);
		if (sum > 0)
			fprintf(f, "%lld,%lld\n", lat, sum);
		ct_add(h, (double)lat, sum);
	}
	/* overflows are counted at their thread's max latency */
	for (th = 0; th < h->nth; th++)
		for (cnt = 0; cnt < h->over[th]; cnt++)
			ct_add(h, (double)h->maxlat[th], 1);
}

/*
 * cyclictest --histfile: "latency count count ..." per line (one count per
 * thread), comments with '#': "# Max Latencies: ..." and "# Histogram
 * Overflows: ...", as cyclictest-LOAD.hist or compressed, .hist.gz. No
 * histogram: no metric, and @ct all NAN.
 */
void analyze_cyclictest(struct outputs *o, const char *load, struct ct_stats *ct)
{
	const char *params[] = { "load", load, NULL };
	struct ct_hist h = { .nth = 0 };
	char path[PATH_MAX], name[64];
	struct atomic_file af;
	struct stats st;
	gzFile in;

	ct->p99 = ct->max = ct->median = NAN;
	ct->n = 0;
	ct->p99_ci = (struct ci){ NAN, NAN, "p99", "no histogram" };
	snprintf(path, sizeof(path), "%s/cyclictest-%s.hist", o->dir, load);
	if (access(path, F_OK))
		snprintf(path, sizeof(path), "%s/cyclictest-%s.hist.gz", o->dir, load);
	in = gzopen(path, "r");
	if (!in)
		return;
	snprintf(name, sizeof(name), "cyclictest-%s.csv", load);
	if (csv_open(&af, o->dir, name, "latency_us,count")) {
		report_fail(o, "cannot write %s/%s", o->dir, name);
		gzclose(in);
		return;
	}
	ct_read(&h, in, af.f);
	gzclose(in);
	if (atomic_commit(&af))
		report_fail(o, "cannot write %s/%s", o->dir, name);
	report_metric(o, "cyclictest_latency_us", params, "us", h.x, h.n);
	if (h.n && !stats_compute(h.x, h.n, &st)) {
		ct->p99 = h.n >= STATS_P99_MIN_N ? st.p99 : NAN;
		ct->max = st.max;
		ct->median = st.median;
		ct->n = h.n;
		ci_quantile(h.x, h.n, 0.99, &ct->p99_ci);
	}
	free(h.x);
}
