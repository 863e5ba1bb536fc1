// SPDX-License-Identifier: GPL-2.0
/*
 * The raw CSV files of a run read back for the report: dump.csv,
 * iproute2.csv, insert.csv, insert-summary.csv and cpu.csv (csv_out.c
 * writes them), and the probe pass's probe-route_insert.csv.
 * A file that is missing or a field that is not what its column holds is a
 * failure naming the file, the line and the column.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "report.h"

/* One file being read: its columns looked up once */
struct rd {
	struct report *r;
	struct csv c;
	const char *file;
	const char *const *names;
	int idx[24];
	bool bad;
};

static int rd_open(struct rd *d, struct report *r, const char *file, const char *const *names)
{
	char path[4096];
	int k;

	memset(d, 0, sizeof(*d));
	d->r = r;
	d->file = file;
	d->names = names;
	snprintf(path, sizeof(path), "%s/%s", r->out, file);
	if (csv_read_open(&d->c, path)) {
		report_fail(r, "%s cannot be read: the run did not finish", path);
		return -1;
	}
	for (k = 0; names[k]; k++) {
		d->idx[k] = csv_col(&d->c, names[k]);
		if (d->idx[k] < 0) {
			report_fail(r, "%s has no column %s", path, names[k]);
			csv_read_close(&d->c);
			return -1;
		}
	}
	return 0;
}

static const char *rd_str(struct rd *d, int k)
{
	return csv_field(&d->c, d->idx[k]);
}

static void rd_bad(struct rd *d, int k, const char *why)
{
	if (!d->bad)
		report_fail(d->r, "%s/%s line %zu: %s '%s' %s", d->r->out, d->file, d->c.lineno, d->names[k],
			    rd_str(d, k), why);
	d->bad = true;
}

static double rd_dbl(struct rd *d, int k)
{
	const char *s = rd_str(d, k);
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v))
		rd_bad(d, k, "is not a number");
	return v;
}

static uint64_t rd_u64(struct rd *d, int k)
{
	const char *s = rd_str(d, k);
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *s == '-' || *end || errno)
		rd_bad(d, k, "is not a count");
	return v;
}

static int rd_family(struct rd *d, int k)
{
	int f = family_by_name(rd_str(d, k));

	if (f < 0)
		rd_bad(d, k, "is not a family");
	return f;
}

static int rd_close(struct rd *d, int err)
{
	csv_read_close(&d->c);
	if (err < 0 && !d->bad)
		report_fail(d->r, "%s/%s: read error: %s", d->r->out, d->file, lab_errname(err));
	return err < 0 || d->bad ? -1 : 0;
}

/* ---------------------------------------------------------- dump.csv */

static const char *const dump_cols[] = { "family", "routes", "bufsize", "mode", "rep", "warmup", "wall_ms",
					 "user_ms", "sys_ms", "bytes", "recvmsgs", "msgs", "returned", "answer",
					 "expected", "filtered", "done_filtered", "ok", "point", "walked", NULL };

static void dump_of(struct rd *d, struct dump_row *x)
{
	const char *fl = rd_str(d, 15);

	x->family = rd_family(d, 0);
	x->routes = rd_u64(d, 1);
	x->bufsize = rd_u64(d, 2);
	x->mode = mode_by_name(rd_str(d, 3));
	if (x->mode < 0)
		rd_bad(d, 3, "is not a mode");
	x->rep = (int)rd_u64(d, 4);
	x->warmup = rd_u64(d, 5);
	x->wall_ns = llround(rd_dbl(d, 6) * 1e6);
	x->user_us = llround(rd_dbl(d, 7) * 1e3);
	x->sys_us = llround(rd_dbl(d, 8) * 1e3);
	x->bytes = rd_u64(d, 9);
	x->recvmsgs = rd_u64(d, 10);
	x->msgs = rd_u64(d, 11);
	x->returned = rd_u64(d, 12);
	x->answer = rd_u64(d, 13);
	x->expected = rd_u64(d, 14);
	x->filtered = !strcmp(fl, "all") ? 'a' : !strcmp(fl, "some") ? 'm' : 'n';
	x->done_filtered = rd_u64(d, 16);
	x->ok = rd_u64(d, 17);
	x->point = point_by_pct((int)rd_u64(d, 18));
	if (x->point < 0)
		rd_bad(d, 18, "is not a selectivity point (1, 10, 50 or 100)");
	x->walked = rd_u64(d, 19);
}

static void add_u64_sorted(uint64_t *v, int *n, int max, uint64_t x)
{
	int i, j;

	for (i = 0; i < *n && v[i] < x; i++)
		;
	if ((i < *n && v[i] == x) || *n == max)
		return;
	for (j = *n; j > i; j--)
		v[j] = v[j - 1];
	v[i] = x;
	(*n)++;
}

/* The run's make-up from the dumps: families and modes as they came, sizes and buffers sorted */
static void note_makeup(struct report *r, const struct dump_row *x)
{
	int i;

	if (!r->ndumps)
		r->buf0 = x->bufsize;
	for (i = 0; i < r->nfam && r->fam[i] != x->family; i++)
		;
	if (i == r->nfam && r->nfam < 2)
		r->fam[r->nfam++] = x->family;
	for (i = 0; i < r->nmodes && r->mode[i] != x->mode; i++)
		;
	if (i == r->nmodes && r->nmodes < NMODES)
		r->mode[r->nmodes++] = x->mode;
	add_u64_sorted(r->sizes, &r->nsizes, ARRAY_LEN(r->sizes), x->routes);
	add_u64_sorted(r->bufs, &r->nbufs, ARRAY_LEN(r->bufs), x->bufsize);
}

static int read_dumps(struct report *r)
{
	struct dump_row x;
	struct rd d;
	int err;

	if (rd_open(&d, r, "dump.csv", dump_cols))
		return -1;
	while ((err = csv_next(&d.c)) > 0) {
		memset(&x, 0, sizeof(x));
		dump_of(&d, &x);
		if (d.bad)
			break;
		note_makeup(r, &x);
		r->dumps = grow(r->dumps, &r->cap_dumps, r->ndumps, sizeof(*r->dumps));
		r->dumps[r->ndumps++] = x;
	}
	return rd_close(&d, err);
}

/* ------------------------------------------------------ iproute2.csv */

static const char *const ip_cols[] = { "family", "routes", "mode", "rep", "warmup", "wall_ms", "user_ms",
				       "sys_ms", "lines", "expected", "ok", NULL };

static int read_ips(struct report *r)
{
	struct ip_row x;
	struct rd d;
	int err;

	if (rd_open(&d, r, "iproute2.csv", ip_cols))
		return -1;
	while ((err = csv_next(&d.c)) > 0) {
		x = (struct ip_row){ .family = rd_family(&d, 0), .routes = rd_u64(&d, 1),
				     .mode = ip_mode_by_name(rd_str(&d, 2)), .rep = (int)rd_u64(&d, 3),
				     .warmup = rd_u64(&d, 4), .wall_ns = llround(rd_dbl(&d, 5) * 1e6),
				     .user_us = llround(rd_dbl(&d, 6) * 1e3), .sys_us = llround(rd_dbl(&d, 7) * 1e3),
				     .lines = rd_u64(&d, 8), .expected = rd_u64(&d, 9), .ok = rd_u64(&d, 10) };
		if (x.mode == -2)
			rd_bad(&d, 2, "is not a mode");
		if (d.bad)
			break;
		r->ips = grow(r->ips, &r->cap_ips, r->nips, sizeof(*r->ips));
		r->ips[r->nips++] = x;
	}
	return rd_close(&d, err);
}

/* ----------------------------------------- insert.csv, insert-summary.csv */

static const char *const batch_cols[] = { "family", "routes_to", "routes_per_s", NULL };
static const char *const insert_cols[] = { "family", "method", "rep", "routes_from", "routes_to", "seconds",
					   "routes_per_s", "user_s", "sys_s", "batch_bytes", "sendmsgs",
					   "recvmsgs", "ok", NULL };

static int read_batches(struct report *r)
{
	struct rbatch x;
	struct rd d;
	int err;

	if (rd_open(&d, r, "insert.csv", batch_cols))
		return -1;
	while ((err = csv_next(&d.c)) > 0) {
		x = (struct rbatch){ rd_family(&d, 0), rd_u64(&d, 1), rd_dbl(&d, 2) };
		if (d.bad)
			break;
		r->batches = grow(r->batches, &r->cap_batches, r->nbatches, sizeof(*r->batches));
		r->batches[r->nbatches++] = x;
	}
	return rd_close(&d, err);
}

static const char *method_of(struct rd *d, int k)
{
	static const char *const methods[] = { "batch", "batch_ack_all", "ip-batch", "ip-batch-empty", "single_ack" };
	int i;

	for (i = 0; i < ARRAY_LEN(methods); i++)
		if (!strcmp(rd_str(d, k), methods[i]))
			return methods[i];
	rd_bad(d, k, "is not an insert method");
	return methods[0];
}

static int read_inserts(struct report *r)
{
	struct rinsert x;
	struct rd d;
	int err;

	if (rd_open(&d, r, "insert-summary.csv", insert_cols))
		return -1;
	while ((err = csv_next(&d.c)) > 0) {
		x.run = (struct insert_run){ .family = rd_family(&d, 0), .method = method_of(&d, 1),
					     .rep = (int)rd_u64(&d, 2), .from = rd_u64(&d, 3), .to = rd_u64(&d, 4),
					     .ns = llround(rd_dbl(&d, 5) * 1e9), .user_us = llround(rd_dbl(&d, 7) * 1e6),
					     .sys_us = llround(rd_dbl(&d, 8) * 1e6), .batch = rd_u64(&d, 9),
					     .sendmsgs = rd_u64(&d, 10), .recvmsgs = rd_u64(&d, 11), .ok = rd_u64(&d, 12) };
		x.rate = x.run.to > x.run.from ? rd_dbl(&d, 6) : 0;
		if (d.bad)
			break;
		r->inserts = grow(r->inserts, &r->cap_inserts, r->ninserts, sizeof(*r->inserts));
		r->inserts[r->ninserts++] = x;
	}
	return rd_close(&d, err);
}

/* ----------------------------------------------------------- cpu.csv */

static const char *const cpu_cols[] = { "family", "routes", "mode", "point", "dumps", "wall_ms", "user_ms",
					"sys_ms", "hz", NULL };

static int read_cpus(struct report *r)
{
	struct cpu_row x;
	struct rd d;
	int err;

	if (rd_open(&d, r, "cpu.csv", cpu_cols))
		return -1;
	while ((err = csv_next(&d.c)) > 0) {
		x = (struct cpu_row){ .family = rd_family(&d, 0), .routes = rd_u64(&d, 1),
				      .mode = mode_by_name(rd_str(&d, 2)), .point = point_by_pct((int)rd_u64(&d, 3)),
				      .dumps = rd_u64(&d, 4), .wall_ns = llround(rd_dbl(&d, 5) * 1e6),
				      .user_us = llround(rd_dbl(&d, 6) * 1e3), .sys_us = llround(rd_dbl(&d, 7) * 1e3),
				      .hz = (int)rd_u64(&d, 8) };
		if (x.mode < 0)
			rd_bad(&d, 2, "is not a mode");
		if (x.point < 0)
			rd_bad(&d, 3, "is not a selectivity point (1, 10, 50 or 100)");
		if (x.hz <= 0)
			rd_bad(&d, 8, "is not a tick rate");
		if (d.bad)
			break;
		r->cpus = grow(r->cpus, &r->cap_cpus, r->ncpus, sizeof(*r->cpus));
		r->cpus[r->ncpus++] = x;
	}
	return rd_close(&d, err);
}

/* ------------------------------------------- probe-route_insert.csv */

static const char *const kins_cols[] = { "family", "calls", "kernel_ns", "sendmsg_ns", NULL };

/* The probe pass's kernel insert cost; a run without it (no probe pass) is not a failure here */
static int read_kins(struct report *r)
{
	char path[4096];
	struct rd d;
	int err;

	snprintf(path, sizeof(path), "%s/probe-route_insert.csv", r->out);
	if (access(path, F_OK))
		return 0;
	if (rd_open(&d, r, "probe-route_insert.csv", kins_cols))
		return -1;
	r->have_probe = true;
	while ((err = csv_next(&d.c)) > 0) {
		uint64_t fam = rd_u64(&d, 0), calls = rd_u64(&d, 1);
		double ns = rd_dbl(&d, 2), whole = rd_dbl(&d, 3);
		int k = fam == 6;

		if (fam != 4 && fam != 6)
			rd_bad(&d, 0, "is not 4 or 6");
		if (!calls)
			rd_bad(&d, 1, "is not a count above 0");
		if (whole <= 0)
			rd_bad(&d, 3, "is not a duration above 0");
		if (d.bad)
			break;
		r->kins[k] = grow(r->kins[k], &r->cap_kins[k], r->nkins[k], sizeof(double));
		r->kshare[k] = grow(r->kshare[k], &r->cap_kshare[k], r->nkins[k], sizeof(double));
		r->kshare[k][r->nkins[k]] = ns / whole;
		r->kins[k][r->nkins[k]++] = ns / calls;
	}
	return rd_close(&d, err);
}

int report_read(struct report *r)
{
	int rc = 0;

	rc |= read_dumps(r);
	rc |= read_ips(r);
	rc |= read_batches(r);
	rc |= read_inserts(r);
	rc |= read_cpus(r);
	rc |= read_kins(r);
	return rc;
}
