// SPDX-License-Identifier: GPL-2.0
/*
 * The figures' inputs, ordered family, buffer size, mode, selectivity
 * point, table size (so gnuplot draws each mode as one line):
 * dump-stats.csv (medians per group, with the 95 % intervals of the ns per
 * returned and per walked route), speedup.csv (each mode's wall time over
 * legacy_userfilter's at the same point, bootstrap interval),
 * iproute2-compare.csv (our dumps against ip route show with the same
 * filter, at the 1 % point (strict_all at 100 %, strict_oif at its one
 * point) and the first buffer size) and cpu-share.csv
 * (the CPU pass: user share of each mode's CPU time, Wilson interval).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "report.h"

enum { D_STATS, D_SPEEDUP, D_COMPARE, D_CPU, ND };

static const struct {
	const char *name, *header;
} derived[ND] = {
	{ "dump-stats.csv",
	  "family,routes,bufsize,mode,mode_index,point,selectivity,n,wall_ms,wall_ms_lo,wall_ms_hi,wall_ms_min,"
	  "wall_ms_max,bytes,answer,returned,walked,recvmsgs,msgs,routes_per_s,bytes_per_answer_route,"
	  "ns_per_returned,ns_per_returned_lo,ns_per_returned_hi,ns_per_walked,ns_per_walked_lo,ns_per_walked_hi,"
	  "filtered,done_filtered" },
	{ "speedup.csv",
	  "family,routes,bufsize,mode,mode_index,point,selectivity,n,legacy_ms,mode_ms,ratio,ratio_lo,ratio_hi,"
	  "speedup,speedup_lo,speedup_hi" },
	{ "iproute2-compare.csv",
	  "family,routes,mode,mode_index,ours_ms,ours_min,ours_max,ip_ms,ip_min,ip_max,n_ours,n_ip,"
	  "ratio,ip_startup_ms,ip_minus_startup_ms,ratio_minus_startup,ip_lines,answer" },
	{ "cpu-share.csv",
	  "family,routes,mode,mode_index,point,dumps,ticks,hz,user_share,user_share_lo,user_share_hi,"
	  "user_ms_per_dump,sys_ms_per_dump" },
};

/* The 95 % interval of the median of column @k of group @g */
static void median_ci(const struct report *r, const struct group *g, int k, double *x, struct ci *ci)
{
	size_t n = group_values(r, g, k, x);

	*ci = (struct ci){ NAN, NAN, "median", "no samples" };
	if (n)
		ci_quantile(x, n, 0.5, ci);
}

static void stats_row(FILE *out, const struct report *r, const struct group *g, const struct agg *a, double *x)
{
	struct ci cw, cr, ck;

	median_ci(r, g, V_WALL_MS, x, &cw);
	median_ci(r, g, V_NS_RET, x, &cr);
	median_ci(r, g, V_NS_WALK, x, &ck);
	fprintf(out, "%s,%" PRIu64 ",%zu,%s,%d,%d,%.6f,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%.1f,%.1f,%.1f,%.2f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%s,%d\n",
		family_name(g->family), g->routes, g->bufsize, modes[g->mode].name, g->mode, points[g->point].pct,
		(double)a->expected / g->routes, a->n, a->wall.median, cw.lo, cw.hi, a->wall.min, a->wall.max,
		a->bytes.median, a->answer, a->returned, a->walked, a->recvmsgs.median, a->msgs.median,
		a->returned / (a->wall.median / 1e3), a->answer ? a->bytes.median / a->answer : 0.0,
		a->ns_ret.median, cr.lo, cr.hi, a->ns_walk.median, ck.lo, ck.hi, flag_str(a->filtered),
		a->done_filtered);
}

static void speedup_row(FILE *out, const struct report *r, const struct group *g, const struct agg *a)
{
	struct group lg = *g;
	double ratio;
	struct agg l;
	struct ci ci;
	size_t n;

	lg.mode = MODE_LEGACY;
	if (g->mode == MODE_LEGACY || collect(r, &lg, &l) || wall_ratio(r, g, &lg, &ratio, &ci, &n))
		return;
	fprintf(out, "%s,%" PRIu64 ",%zu,%s,%d,%d,%.6f,%zu,%.3f,%.3f,%.5f,%.5f,%.5f,%.3f,%.3f,%.3f\n",
		family_name(g->family), g->routes, g->bufsize, modes[g->mode].name, g->mode, points[g->point].pct,
		(double)a->expected / g->routes, n, l.wall.median, a->wall.median, ratio, ci.lo, ci.hi, 1 / ratio,
		1 / ci.hi, 1 / ci.lo);
}

static void compare_row(FILE *out, const struct report *r, const struct group *g, const struct agg *a)
{
	uint64_t lines = 0, sl;
	struct stats w, su;

	if (g->bufsize != r->buf0 || g->point != ip_point(g->mode) || collect_ip(r, g->family, g->routes, g->mode, &w, &lines))
		return;
	if (collect_ip(r, g->family, g->routes, IP_STARTUP, &su, &sl))
		su.median = NAN;
	fprintf(out, "%s,%" PRIu64 ",%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%zu,%.3f,%.3f,%.3f,%.3f,%" PRIu64
		",%" PRIu64 "\n",
		family_name(g->family), g->routes, modes[g->mode].name, g->mode, a->wall.median, a->wall.min,
		a->wall.max, w.median, w.min, w.max, a->n, w.n, a->wall.median / w.median, su.median,
		w.median - su.median, a->wall.median / (w.median - su.median), lines, a->answer);
}

static void cpu_rows(FILE *out, const struct report *r)
{
	size_t i, ticks;
	struct ci ci;
	double v;

	for (i = 0; i < r->ncpus; i++) {
		const struct cpu_row *c = &r->cpus[i];

		v = cpu_share(c, &ticks, &ci);
		fprintf(out, "%s,%" PRIu64 ",%s,%d,%d,%" PRIu64 ",%zu,%d,%.4f,%.4f,%.4f,%.4f,%.4f\n",
			family_name(c->family), c->routes, modes[c->mode].name, c->mode, points[c->point].pct,
			c->dumps, ticks, c->hz, v, ci.lo, ci.hi, c->dumps ? c->user_us / 1e3 / c->dumps : NAN,
			c->dumps ? c->sys_us / 1e3 / c->dumps : NAN);
	}
}

static void write_rows(const struct report *r, struct atomic_file *af)
{
	double *x = lab_calloc(r->ndumps + 1, sizeof(*x), "the dumps' samples");
	int fi, bi, mi, si, p;
	struct agg a;

	for (fi = 0; fi < r->nfam; fi++)
		for (bi = 0; bi < r->nbufs; bi++)
			for (mi = 0; mi < r->nmodes; mi++)
				for (p = 0; p < NPOINTS; p++)
					for (si = 0; si < r->nsizes; si++) {
						struct group g = { r->fam[fi], r->sizes[si], r->bufs[bi], p,
								   r->mode[mi] };

						if (collect(r, &g, &a))
							continue;
						stats_row(af[D_STATS].f, r, &g, &a, x);
						speedup_row(af[D_SPEEDUP].f, r, &g, &a);
						compare_row(af[D_COMPARE].f, r, &g, &a);
					}
	cpu_rows(af[D_CPU].f, r);
	free(x);
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
