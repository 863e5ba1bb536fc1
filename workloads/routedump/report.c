// SPDX-License-Identifier: GPL-2.0
/*
 * routedump report --out DIR [--failed REASON]...: the one place the JSON
 * of a run is made. Reads the raw CSV files `routedump run` left in DIR and
 * writes summary.json (the metrics: every dump mode's cost per family,
 * table size and buffer size; iproute2's; the insert rates), the derived
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

/* The values of dump column @k (0 wall ... 6 messages, see dump_metrics) */
static double dump_value(const struct dump_row *d, int k)
{
	switch (k) {
	case 0: return ms(d->wall_ns);
	case 1: return d->user_us / 1e3;
	case 2: return d->sys_us / 1e3;
	case 3: return (double)d->bytes;
	case 4: return (double)d->answer;
	case 5: return (double)d->recvmsgs;
	default: return (double)d->msgs;
	}
}

/* Values of column @k of the measured dumps of one group and mode; returns how many */
static size_t group_values(const struct report *r, int family, uint64_t routes, size_t bufsize, int mode,
			   int k, double *x)
{
	size_t i, n = 0;

	for (i = 0; i < r->ndumps; i++) {
		const struct dump_row *d = &r->dumps[i];

		if (in_group(d, family, routes, bufsize) && d->mode == mode && !d->warmup)
			x[n++] = dump_value(d, k);
	}
	return n;
}

int collect(const struct report *r, int family, uint64_t routes, size_t bufsize, int mode, struct agg *a)
{
	struct stats *st[] = { &a->wall, &a->user, &a->sys, &a->bytes, NULL, &a->recvmsgs, &a->msgs };
	double *x = lab_calloc(r->ndumps + 1, sizeof(*x), "the dumps' samples");
	size_t i;
	int k;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < r->ndumps; i++) {
		const struct dump_row *d = &r->dumps[i];

		if (!in_group(d, family, routes, bufsize) || d->mode != mode || d->warmup)
			continue;
		a->answer = d->answer;
		a->returned = d->returned;
		a->expected = d->expected;
		a->filtered = d->filtered;
		a->done_filtered = d->done_filtered;
		a->n++;
	}
	for (k = 0; a->n && k < ARRAY_LEN(st); k++)
		if (st[k])
			stats_compute(x, group_values(r, family, routes, bufsize, mode, k, x), st[k]);
	free(x);
	return a->n ? 0 : -1;
}

int collect_ip(const struct report *r, int family, uint64_t routes, int mode, struct stats *wall,
	       uint64_t *lines)
{
	double *x = lab_calloc(r->nips + 1, sizeof(*x), "iproute2's samples");
	size_t i, n = 0;
	int err;

	for (i = 0; i < r->nips; i++) {
		const struct ip_row *p = &r->ips[i];

		if (p->family != family || p->routes != routes || p->mode != mode || p->warmup)
			continue;
		x[n++] = ms(p->wall_ns);
		*lines = p->lines;
	}
	err = n ? stats_compute(x, n, wall) : -1;
	free(x);
	return err;
}

/* ----------------------------------------------------------- metrics */

static void metric(struct report *r, const char *name, const char *const *params, const char *unit,
		   const double *x, size_t n)
{
	if (out_metric(r->o, name, params, unit, x, n))
		r->json_err = 1;
}

/* The dump metrics of one group into summary.json */
static void dump_metrics(struct report *r, int family, uint64_t routes, size_t bufsize, double *x)
{
	static const struct {
		const char *name, *unit;
	} mt[] = {
		{ "dump_wall_ms", "ms" },    { "dump_cpu_user_ms", "ms" }, { "dump_cpu_sys_ms", "ms" },
		{ "dump_bytes", "bytes" },   { "dump_routes", "routes" },  { "dump_recvmsgs", "calls" },
		{ "dump_messages", "messages" },
	};
	char rs[24], bs[24];
	int mi, k;

	snprintf(rs, sizeof(rs), "%" PRIu64, routes);
	snprintf(bs, sizeof(bs), "%zu", bufsize);
	for (mi = 0; mi < r->nmodes; mi++) {
		int m = r->mode[mi];
		const char *params[] = { "mode", modes[m].name, "routes", rs, "family", family_name(family),
					 "bufsize", bs, NULL };

		for (k = 0; k < ARRAY_LEN(mt); k++)
			metric(r, mt[k].name, params, mt[k].unit, x,
			       group_values(r, family, routes, bufsize, m, k, x));
	}
}

/* iproute2_wall_ms (and its start-up baseline), with the params of our dumps at the first buffer size */
static void ip_metrics(struct report *r, int family, uint64_t routes, double *x)
{
	char rs[24], bs[24];
	size_t i, n;
	int mi;

	snprintf(rs, sizeof(rs), "%" PRIu64, routes);
	snprintf(bs, sizeof(bs), "%zu", r->buf0);
	for (mi = -1; mi < r->nmodes; mi++) {
		int m = mi < 0 ? IP_STARTUP : r->mode[mi];
		const char *params[] = { "mode", mode_name(m), "routes", rs, "family", family_name(family),
					 "bufsize", bs, NULL };

		for (i = n = 0; i < r->nips; i++) {
			const struct ip_row *p = &r->ips[i];

			if (p->family == family && p->routes == routes && p->mode == m && !p->warmup)
				x[n++] = ms(p->wall_ns);
		}
		if (n)
			metric(r, m == IP_STARTUP ? "iproute2_startup_ms" : "iproute2_wall_ms", params, "ms", x, n);
	}
}

/* insert_routes_per_s of each insert step (one sample per batch), iproute2_insert_routes_per_s */
static void insert_metrics(struct report *r, double *x)
{
	char rs[24], bs[24];
	size_t i, j, n;

	for (i = 0; i < r->ninserts; i++) {
		const struct insert_run *run = &r->inserts[i].run;
		const char *params[] = { "mode", run->method, "routes", rs, "family", family_name(run->family),
					 "bufsize", bs, NULL };

		if (!run->ok)
			continue;
		snprintf(rs, sizeof(rs), "%" PRIu64, run->to);
		snprintf(bs, sizeof(bs), "%zu", run->batch);
		if (!strcmp(run->method, "ip-batch")) {
			metric(r, "iproute2_insert_routes_per_s", params, "routes/s", &r->inserts[i].rate, 1);
			continue;
		}
		for (j = n = 0; j < r->nbatches; j++) {
			const struct rbatch *b = &r->batches[j];

			if (b->family == run->family && b->to > run->from && b->to <= run->to)
				x[n++] = b->rate;
		}
		metric(r, "insert_routes_per_s", params, "routes/s", x, n);
	}
}

static void all_metrics(struct report *r)
{
	size_t cap = r->ndumps + r->nips + r->nbatches + 1;
	double *x = lab_calloc(cap, sizeof(*x), "the samples");
	int fi, si, bi;

	insert_metrics(r, x);
	for (si = 0; si < r->nsizes; si++) {
		for (fi = 0; fi < r->nfam; fi++) {
			for (bi = 0; bi < r->nbufs; bi++)
				if (have_dumps(r, r->fam[fi], r->sizes[si], r->bufs[bi]))
					dump_metrics(r, r->fam[fi], r->sizes[si], r->bufs[bi], x);
			ip_metrics(r, r->fam[fi], r->sizes[si], x);
		}
	}
	free(x);
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
