// SPDX-License-Identifier: GPL-2.0
/*
 * routedump report --out DIR [--failed REASON]...: the one place the JSON
 * of a run is made. Reads the raw CSV files `routedump run` left in DIR and
 * writes summary.json (the metrics: every dump mode's cost per family,
 * table size, buffer size and selectivity, with its ratio to the legacy
 * dump; the CPU pass's user shares; iproute2's; the insert rates, the
 * like-for-like pair and the kernel's own insert cost), the derived
 * CSV files of the figures, and targets.json. The status is "failed" with
 * the reasons given (the driver's: conformance, probes, the run) and any
 * of its own (a file that is missing or cannot be read); exit code 1 then,
 * and when a file cannot be written.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

void report_fail(struct report *r, const char *fmt, ...)
{
	size_t len = strlen(r->failure);
	va_list ap;

	va_start(ap, fmt);
	if (len && len + 2 < sizeof(r->failure)) {
		strcat(r->failure, "; ");
		len += 2;
	}
	if (len < sizeof(r->failure))
		vsnprintf(r->failure + len, sizeof(r->failure) - len, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	fprintf(stderr, "%s: report: ", lab_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* ------------------------------------------------------------ groups */

static bool in_group(const struct dump_row *d, int family, uint64_t routes, size_t bufsize)
{
	return d->family == family && d->routes == routes && d->bufsize == bufsize;
}

bool have_dumps(const struct report *r, int family, uint64_t routes, size_t bufsize)
{
	size_t i;

	for (i = 0; i < r->ndumps; i++)
		if (in_group(&r->dumps[i], family, routes, bufsize))
			return true;
	return false;
}

static bool of_group(const struct dump_row *d, const struct group *g)
{
	return in_group(d, g->family, g->routes, g->bufsize) && d->point == g->point && d->mode == g->mode &&
	       !d->warmup;
}

/* The value of column @k (V_*) of a dump; NAN when there is none (no route answered) */
static double dump_value(const struct dump_row *d, int k)
{
	switch (k) {
	case V_WALL_MS: return ms(d->wall_ns);
	case V_BYTES: return (double)d->bytes;
	case V_ANSWER: return (double)d->answer;
	case V_RECVMSGS: return (double)d->recvmsgs;
	case V_MSGS: return (double)d->msgs;
	case V_NS_RET: return d->answer ? (double)d->wall_ns / d->answer : NAN;
	case V_NS_WALK: return d->walked ? (double)d->wall_ns / d->walked : NAN;
	default: return (double)d->wall_ns;
	}
}

size_t group_values(const struct report *r, const struct group *g, int k, double *x)
{
	size_t i, n = 0;

	for (i = 0; i < r->ndumps; i++) {
		const struct dump_row *d = &r->dumps[i];
		double v;

		if (!of_group(d, g))
			continue;
		v = dump_value(d, k);
		if (isfinite(v))
			x[n++] = v;
	}
	return n;
}

int collect(const struct report *r, const struct group *g, struct agg *a)
{
	struct {
		struct stats *st;
		int k;
	} cols[] = { { &a->wall, V_WALL_MS }, { &a->bytes, V_BYTES }, { &a->recvmsgs, V_RECVMSGS },
		     { &a->msgs, V_MSGS }, { &a->ns_ret, V_NS_RET }, { &a->ns_walk, V_NS_WALK } };
	double *x = lab_calloc(r->ndumps + 1, sizeof(*x), "the dumps' samples");
	size_t i, n;
	int k;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < r->ndumps; i++) {
		const struct dump_row *d = &r->dumps[i];

		if (!of_group(d, g))
			continue;
		a->answer = d->answer;
		a->returned = d->returned;
		a->expected = d->expected;
		a->walked = d->walked;
		a->filtered = d->filtered;
		a->done_filtered = d->done_filtered;
		a->n++;
	}
	for (k = 0; a->n && k < ARRAY_LEN(cols); k++) {
		n = group_values(r, g, cols[k].k, x);
		if (n)
			stats_compute(x, n, cols[k].st);
		else
			cols[k].st->median = NAN;
	}
	free(x);
	return a->n ? 0 : -1;
}

/* a fixed seed per group, so that a rerun of report gives the same intervals */
static uint64_t group_seed(const struct group *g)
{
	return ((uint64_t)g->family << 48) ^ (g->routes << 16) ^ ((uint64_t)g->point << 8) ^ (uint64_t)g->mode ^
	       g->bufsize;
}

int wall_ratio(const struct report *r, const struct group *g, const struct group *den, double *ratio,
	       struct ci *ci, size_t *n)
{
	double *x = lab_calloc(r->ndumps + 1, sizeof(*x), "the dumps' samples");
	double *y = lab_calloc(r->ndumps + 1, sizeof(*y), "the dumps' samples");
	size_t nx = group_values(r, g, V_WALL_NS, x), ny = group_values(r, den, V_WALL_NS, y);
	int err = nx && ny ? ci_ratio(x, nx, y, ny, group_seed(g), ratio, ci) : -1;

	*n = nx < ny ? nx : ny;
	free(x);
	free(y);
	return err ? -1 : 0;
}

double cpu_share(const struct cpu_row *c, size_t *ticks, struct ci *ci)
{
	double tick = 1e6 / c->hz;
	size_t k = (size_t)llround(c->user_us / tick);

	*ticks = (size_t)llround((c->user_us + c->sys_us) / tick);
	if (!*ticks) {
		*ci = (struct ci){ NAN, NAN, "fraction", "no tick sampled" };
		return NAN;
	}
	ci_wilson(k < *ticks ? k : *ticks, *ticks, ci);
	return (double)c->user_us / (c->user_us + c->sys_us);
}

int ip_point(int m)
{
	return m == MODE_STRICT_ALL ? POINT_ALL : modes[m].kernel == F_OIF ? 2 : 0;
}

size_t ip_values(const struct report *r, int family, uint64_t routes, int mode, double *x)
{
	size_t i, n = 0;

	for (i = 0; i < r->nips; i++) {
		const struct ip_row *p = &r->ips[i];

		if (p->family == family && p->routes == routes && p->mode == mode && !p->warmup)
			x[n++] = ms(p->wall_ns);
	}
	return n;
}

int collect_ip(const struct report *r, int family, uint64_t routes, int mode, struct stats *wall,
	       uint64_t *lines)
{
	double *x = lab_calloc(r->nips + 1, sizeof(*x), "iproute2's samples");
	size_t i, n;
	int err;

	n = ip_values(r, family, routes, mode, x);
	for (i = 0; i < r->nips; i++)
		if (r->ips[i].family == family && r->ips[i].routes == routes && r->ips[i].mode == mode)
			*lines = r->ips[i].lines;
	err = n ? stats_compute(x, n, wall) : -1;
	free(x);
	return err;
}

size_t insert_rates(const struct report *r, const char *method, double *x)
{
	size_t i, n = 0;

	for (i = 0; i < r->ninserts; i++)
		if (!strcmp(r->inserts[i].run.method, method) && r->inserts[i].run.ok)
			x[n++] = r->inserts[i].rate;
	return n;
}

size_t batch_ns(const struct report *r, int family, double *x)
{
	size_t i, j, n = 0;

	for (i = 0; i < r->ninserts; i++) {
		const struct insert_run *run = &r->inserts[i].run;

		if (run->family != family || !run->ok || strcmp(run->method, "batch"))
			continue;
		for (j = 0; j < r->nbatches; j++) {
			const struct rbatch *b = &r->batches[j];

			if (b->family == family && b->to > run->from && b->to <= run->to && b->rate > 0)
				x[n++] = 1e9 / b->rate;
		}
	}
	return n;
}

size_t ip_net_rates(const struct report *r, double *x)
{
	size_t i, n = 0, ne;
	double startup;

	ne = 0;
	for (i = 0; i < r->ninserts; i++)
		if (!strcmp(r->inserts[i].run.method, "ip-batch-empty") && r->inserts[i].run.ok)
			x[ne++] = (double)r->inserts[i].run.ns;
	if (!ne)
		return 0;
	startup = stats_median(x, ne);
	for (i = 0; i < r->ninserts; i++) {
		const struct insert_run *run = &r->inserts[i].run;

		if (!strcmp(run->method, "ip-batch") && run->ok && run->ns > startup)
			x[n++] = (run->to - run->from) / ((run->ns - startup) / 1e9);
	}
	return n;
}

/* ----------------------------------------------------------- metrics */

static void metric(struct report *r, const char *name, const char *const *params, const char *unit,
		   const double *x, size_t n)
{
	if (out_metric(r->o, name, params, unit, x, n))
		r->json_err = 1;
}

static void estimate(struct report *r, const char *name, const char *const *params, const char *unit,
		     double value, size_t n, const struct ci *ci)
{
	if (out_estimate(r->o, name, params, unit, value, n, ci))
		r->json_err = 1;
}

/*
 * The dump metrics of one family, size and buffer size into summary.json,
 * per selectivity point and mode: the samples (wall time, ns per returned
 * and per walked route, bytes...) and each mode's wall time over
 * legacy_userfilter's at the same point
 */
static void dump_metrics(struct report *r, int family, uint64_t routes, size_t bufsize, double *x)
{
	static const struct {
		const char *name, *unit;
		int k;
	} mt[] = {
		{ "dump_wall_ms", "ms", V_WALL_MS },
		{ "dump_ns_per_returned_route", "ns/route", V_NS_RET },
		{ "dump_ns_per_walked_route", "ns/route", V_NS_WALK },
		{ "dump_bytes", "bytes", V_BYTES },
		{ "dump_routes", "routes", V_ANSWER },
		{ "dump_recvmsgs", "calls", V_RECVMSGS },
		{ "dump_messages", "messages", V_MSGS },
	};
	char rs[24], bs[24], ps[8];
	int mi, k, p;

	snprintf(rs, sizeof(rs), "%" PRIu64, routes);
	snprintf(bs, sizeof(bs), "%zu", bufsize);
	for (p = 0; p < NPOINTS; p++) {
		snprintf(ps, sizeof(ps), "%d", points[p].pct);
		for (mi = 0; mi < r->nmodes; mi++) {
			struct group g = { family, routes, bufsize, p, r->mode[mi] };
			struct group l = { family, routes, bufsize, p, MODE_LEGACY };
			const char *params[] = { "mode", modes[g.mode].name, "selectivity_pct", ps, "routes", rs,
						 "family", family_name(family), "bufsize", bs, NULL };
			double ratio;
			struct ci ci;
			size_t n;

			if (!group_values(r, &g, V_WALL_MS, x))
				continue;
			for (k = 0; k < ARRAY_LEN(mt); k++) {
				n = group_values(r, &g, mt[k].k, x);
				if (n)
					metric(r, mt[k].name, params, mt[k].unit, x, n);
			}
			if (g.mode != MODE_LEGACY && !wall_ratio(r, &g, &l, &ratio, &ci, &n))
				estimate(r, "dump_wall_ratio_to_legacy", params, "ratio", ratio, n, &ci);
		}
	}
}

/* The user share of each mode's CPU time in the CPU pass (Wilson, n = ticks sampled) */
static void cpu_metrics(struct report *r)
{
	char rs[24], ps[8];
	size_t i, ticks;
	struct ci ci;
	double v;

	for (i = 0; i < r->ncpus; i++) {
		const struct cpu_row *c = &r->cpus[i];
		const char *params[] = { "mode", modes[c->mode].name, "selectivity_pct", ps, "routes", rs, "family",
					 family_name(c->family), NULL };

		snprintf(rs, sizeof(rs), "%" PRIu64, c->routes);
		snprintf(ps, sizeof(ps), "%d", points[c->point].pct);
		v = cpu_share(c, &ticks, &ci);
		estimate(r, "dump_cpu_user_share", params, "fraction", v, ticks, &ci);
	}
}

/* iproute2_wall_ms (and its start-up baseline), with the params of the dumps of ours it is compared with */
static void ip_metrics(struct report *r, int family, uint64_t routes, double *x)
{
	char rs[24], bs[24], ps[8];
	size_t n;
	int mi;

	snprintf(rs, sizeof(rs), "%" PRIu64, routes);
	snprintf(bs, sizeof(bs), "%zu", r->buf0);
	for (mi = -1; mi < r->nmodes; mi++) {
		int m = mi < 0 ? IP_STARTUP : r->mode[mi];
		const char *params[] = { "mode", mode_name(m), "selectivity_pct", ps, "routes", rs, "family",
					 family_name(family), "bufsize", bs, NULL };

		snprintf(ps, sizeof(ps), "%d", m == IP_STARTUP ? 1 : points[ip_point(m)].pct);
		n = ip_values(r, family, routes, m, x);
		if (n)
			metric(r, m == IP_STARTUP ? "iproute2_startup_ms" : "iproute2_wall_ms", params, "ms", x, n);
	}
}

/*
 * The inserts: ours batched (routes/s, one sample per batch) per step; the
 * like-for-like pair (ours one route a request, ip -batch with and without
 * its start-up) and their ratio; the kernel's own insert cost from the
 * probe pass and the batched insert's share of that limit
 */
static void insert_metrics(struct report *r, double *x, double *y)
{
	char rs[24], bs[24];
	size_t i, j, n, ny;
	int fi;

	for (i = 0; i < r->ninserts; i++) {
		const struct insert_run *run = &r->inserts[i].run;
		const char *params[] = { "mode", run->method, "routes", rs, "family", family_name(run->family),
					 "bufsize", bs, NULL };

		if (!run->ok || strncmp(run->method, "batch", 5))
			continue;
		snprintf(rs, sizeof(rs), "%" PRIu64, run->to);
		snprintf(bs, sizeof(bs), "%zu", run->batch);
		for (j = n = 0; j < r->nbatches; j++) {
			const struct rbatch *b = &r->batches[j];

			if (b->family == run->family && b->to > run->from && b->to <= run->to)
				x[n++] = b->rate;
		}
		metric(r, "insert_routes_per_s", params, "routes/s", x, n);
	}
	{
		const char *params[] = { "family", "ipv4", NULL };
		struct ci ci;
		double ratio;

		n = insert_rates(r, "single_ack", x);
		if (n)
			metric(r, "insert_single_ack_routes_per_s", params, "routes/s", x, n);
		ny = insert_rates(r, "ip-batch", y);
		if (ny)
			metric(r, "iproute2_insert_routes_per_s", params, "routes/s", y, ny);
		for (i = j = 0; i < r->ninserts; i++)
			if (!strcmp(r->inserts[i].run.method, "ip-batch-empty") && r->inserts[i].run.ok)
				y[j++] = ms(r->inserts[i].run.ns);
		if (j)
			metric(r, "iproute2_batch_startup_ms", params, "ms", y, j);
		ny = ip_net_rates(r, y);
		if (ny)
			metric(r, "iproute2_insert_net_routes_per_s", params, "routes/s", y, ny);
		if (n && ny && !ci_ratio(x, n, y, ny, 1, &ratio, &ci))
			estimate(r, "insert_single_ack_to_ip_ratio", params, "ratio", ratio, n < ny ? n : ny, &ci);
	}
	for (fi = 0; fi < 2; fi++) {
		int family = fi ? AF_INET6 : AF_INET;
		const char *params[] = { "family", family_name(family), NULL };
		struct ci ci;
		double ratio;

		if (!r->nkins[fi])
			continue;
		metric(r, "kernel_insert_ns_per_route", params, "ns/route", r->kins[fi], r->nkins[fi]);
		metric(r, "kernel_insert_share_of_sendmsg", params, "fraction", r->kshare[fi], r->nkins[fi]);
		n = batch_ns(r, family, x);
		if (n)
			metric(r, "insert_ns_per_route", params, "ns/route", x, n);
		/* the share of the limit reached: kernel ns per route / ours */
		if (n && !ci_ratio(r->kins[fi], r->nkins[fi], x, n, 2 + fi, &ratio, &ci))
			estimate(r, "insert_share_of_kernel_limit", params, "ratio", ratio,
				 n < r->nkins[fi] ? n : r->nkins[fi], &ci);
	}
}

static void all_metrics(struct report *r)
{
	size_t cap = r->ndumps + r->nips + r->nbatches + r->ninserts + 1;
	double *x = lab_calloc(cap, sizeof(*x), "the samples");
	double *y = lab_calloc(cap, sizeof(*y), "the samples");
	int fi, si, bi;

	insert_metrics(r, x, y);
	for (si = 0; si < r->nsizes; si++) {
		for (fi = 0; fi < r->nfam; fi++) {
			for (bi = 0; bi < r->nbufs; bi++)
				if (have_dumps(r, r->fam[fi], r->sizes[si], r->bufs[bi]))
					dump_metrics(r, r->fam[fi], r->sizes[si], r->bufs[bi], x);
			ip_metrics(r, r->fam[fi], r->sizes[si], x);
		}
	}
	cpu_metrics(r);
	free(x);
	free(y);
}

/* ------------------------------------------------------------- verb */

static void add_reason(const char *reason, struct report *r)
{
	size_t len = strlen(r->failure);

	if (!*reason)
		lab_usage_error("--failed needs a reason");
	snprintf(r->failure + len, sizeof(r->failure) - len, "%s%s", len ? "; " : "", reason);
}

int cmd_report(int argc, char **argv)
{
	struct report *r = lab_calloc(1, sizeof(*r), "the report");
	struct lab_list failed = { 0 };
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &r->out, "DIR", "the run's results folder (routedump run --out)", true),
		LAB_OPT_LIST("failed", &failed, "REASON", "a failure found outside: status failed (repeatable)"),
		LAB_OPT_END
	};
	size_t i;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	for (i = 0; i < failed.n; i++)
		add_reason(failed.item[i], r);
	lab_list_free(&failed);
	r->o = out_open(r->out, "routedump");
	if (!r->o)
		return 1;
	if (!report_read(r))
		all_metrics(r);
	if (write_derived(r))
		r->write_err = 1;
	write_targets(r);
	/*
	 * summary.json is written before targets.json each time: when the
	 * summary can be written at all, the file that failed is targets.json.
	 */
	if (r->json_err)
		report_fail(r, "cannot write %s/targets.json", r->out);
	if (out_close(r->o, r->failure[0] ? r->failure : NULL))
		r->write_err = 1;
	if (r->write_err || r->json_err)
		fprintf(stderr, "%s: report: a file of %s could not be written (see above)\n", lab_prog, r->out);
	return r->write_err || r->json_err || r->failure[0] ? 1 : 0;
}
