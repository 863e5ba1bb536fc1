// SPDX-License-Identifier: GPL-2.0
/*
 * The figures' inputs, ordered family, buffer size, mode, table size (so
 * gnuplot draws each mode as one line): dump-stats.csv (medians per group),
 * speedup.csv (each kernel filter over legacy_userfilter) and
 * iproute2-compare.csv (our dumps against ip route show with the same
 * filter, at the first buffer size).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "cli.h"
#include "report.h"

enum { D_STATS, D_SPEEDUP, D_COMPARE, ND };

static const struct {
	const char *name, *header;
} derived[ND] = {
	{ "dump-stats.csv",
	  "family,routes,bufsize,mode,mode_index,selectivity,n,wall_ms,wall_ms_min,wall_ms_max,wall_ms_stddev,"
	  "user_ms,sys_ms,bytes,answer,returned,recvmsgs,msgs,routes_per_s,bytes_per_answer_route,"
	  "filtered,done_filtered" },
	{ "speedup.csv",
	  "family,routes,bufsize,mode,mode_index,selectivity,legacy_ms,mode_ms,speedup,speedup_min,speedup_max" },
	{ "iproute2-compare.csv",
	  "family,routes,mode,mode_index,ours_ms,ours_min,ours_max,ip_ms,ip_min,ip_max,n_ours,n_ip,"
	  "ratio,ip_startup_ms,ip_minus_startup_ms,ratio_minus_startup,ip_lines,answer" },
};

/* One group: family @f, @n routes, buffer @bs, mode @m, with its statistics @a */
struct point {
	int f, m;
	uint64_t n;
	size_t bs;
	const struct agg *a;
};

static void stats_row(FILE *out, const struct point *p)
{
	const struct agg *a = p->a;

	fprintf(out, "%s,%" PRIu64 ",%zu,%s,%d,%.6f,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%" PRIu64 ",%" PRIu64
		",%.1f,%.1f,%.1f,%.2f,%s,%d\n",
		family_name(p->f), p->n, p->bs, modes[p->m].name, p->m, (double)a->expected / p->n, a->n,
		a->wall.median, a->wall.min, a->wall.max, a->wall.stddev, a->user.median, a->sys.median,
		a->bytes.median, a->answer, a->returned, a->recvmsgs.median, a->msgs.median,
		a->returned / (a->wall.median / 1e3), a->answer ? a->bytes.median / a->answer : 0.0,
		flag_str(a->filtered), a->done_filtered);
}

static void speedup_row(FILE *out, const struct report *r, const struct point *p)
{
	const struct agg *a = p->a;
	struct agg l;

	if (p->m == MODE_LEGACY || collect(r, p->f, p->n, p->bs, MODE_LEGACY, &l))
		return;
	fprintf(out, "%s,%" PRIu64 ",%zu,%s,%d,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f\n", family_name(p->f), p->n, p->bs,
		modes[p->m].name, p->m, (double)a->expected / p->n, l.wall.median, a->wall.median,
		l.wall.median / a->wall.median, l.wall.min / a->wall.max, l.wall.max / a->wall.min);
}

static void compare_row(FILE *out, const struct report *r, const struct point *p)
{
	const struct agg *a = p->a;
	uint64_t lines = 0, sl;
	struct stats w, su;

	if (p->bs != r->buf0 || collect_ip(r, p->f, p->n, p->m, &w, &lines))
		return;
	if (collect_ip(r, p->f, p->n, IP_STARTUP, &su, &sl))
		su.median = NAN;
	fprintf(out, "%s,%" PRIu64 ",%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%zu,%.3f,%.3f,%.3f,%.3f,%" PRIu64
		",%" PRIu64 "\n",
		family_name(p->f), p->n, modes[p->m].name, p->m, a->wall.median, a->wall.min, a->wall.max,
		w.median, w.min, w.max, a->n, w.n, a->wall.median / w.median, su.median, w.median - su.median,
		a->wall.median / (w.median - su.median), lines, a->answer);
}

static void write_rows(const struct report *r, struct atomic_file *af)
{
	int fi, bi, mi, si;
	struct agg a;

	for (fi = 0; fi < r->nfam; fi++)
		for (bi = 0; bi < r->nbufs; bi++)
			for (mi = 0; mi < r->nmodes; mi++)
				for (si = 0; si < r->nsizes; si++) {
					struct point p = { r->fam[fi], r->mode[mi], r->sizes[si], r->bufs[bi], &a };

					if (collect(r, p.f, p.n, p.bs, p.m, &a))
						continue;
					stats_row(af[D_STATS].f, &p);
					speedup_row(af[D_SPEEDUP].f, r, &p);
					compare_row(af[D_COMPARE].f, r, &p);
				}
}

int write_derived(struct report *r)
{
	struct atomic_file af[ND];
	int k, err, rc = 0;

	for (k = 0; k < ND; k++) {
		err = csv_open(&af[k], r->out, derived[k].name, derived[k].header);
		if (err) {
			report_fail(r, "cannot write %s/%s: %s", r->out, derived[k].name, lab_errname(err));
			while (k--)
				atomic_abort(&af[k]);
			return err;
		}
	}
	write_rows(r, af);
	for (k = 0; k < ND; k++) {
		err = atomic_commit(&af[k]);
		if (err) {
			report_fail(r, "cannot write %s/%s: %s", r->out, derived[k].name, lab_errname(err));
			rc = err;
		}
	}
	return rc;
}
