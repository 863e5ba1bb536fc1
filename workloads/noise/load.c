// SPDX-License-Identifier: GPL-2.0
/*
 * Reading back what `noise run` left in a folder: the loads it ran under
 * (the LOAD of timerlat-LOAD.csv and osnoise-LOAD.csv), their rows, and the
 * accelerator its record names.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csv.h"
#include "noise.h"

static int cmp_load(const void *a, const void *b)
{
	const char *x = a, *y = b;

	if (strcmp(x, y) && (!strcmp(x, "idle") || !strcmp(y, "idle")))
		return strcmp(x, "idle") ? 1 : -1;
	return strcmp(x, y);
}

size_t find_loads(const char *dir, const char *prefix, char loads[][32], size_t max)
{
	char pattern[PATH_MAX];
	size_t i, n = 0, plen;
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/%s-*.csv", dir, prefix);
	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc && n < max; i++) {
		const char *base = strrchr(g.gl_pathv[i], '/') + 1;
		size_t len;

		plen = strlen(prefix) + 1;
		len = strlen(base) - plen - 4;
		if (len == 0 || len >= 32)
			continue;
		memcpy(loads[n], base + plen, len);
		loads[n++][len] = 0;
	}
	globfree(&g);
	qsort(loads, n, sizeof(*loads), cmp_load);
	return n;
}

/* The columns @names of @c, or -1 (printed) when one is missing */
static int columns(const struct csv *c, const char *const *names, int *col, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		col[i] = csv_col(c, names[i]);
		if (col[i] < 0) {
			fprintf(stderr, "%s: %s has no column %s\n", lab_prog, c->path, names[i]);
			return -1;
		}
	}
	return 0;
}

static unsigned long long num(const struct csv *c, int col)
{
	return strtoull(csv_field(c, col), NULL, 10);
}

/* The index of context @name in @t, added when new; -1 past 4 */
static int ctx_index(struct tl_set *t, const char *name)
{
	int i;

	for (i = 0; i < t->nctx; i++)
		if (!strcmp(t->ctx_names[i], name))
			return i;
	if (t->nctx == 4)
		return -1;
	snprintf(t->ctx_names[t->nctx], sizeof(t->ctx_names[0]), "%s", name);
	return t->nctx++;
}

int load_timerlat(const char *dir, const char *load, struct tl_set *t)
{
	static const char *const names[] = { "cpu", "chunk", "context", "latency_ns", "t_ns" };
	char path[PATH_MAX];
	int col[5], ctx;
	struct csv c;

	memset(t, 0, sizeof(*t));
	snprintf(t->load, sizeof(t->load), "%s", load);
	snprintf(path, sizeof(path), "%s/timerlat-%s.csv", dir, load);
	if (csv_read_open(&c, path))
		return -1;
	if (columns(&c, names, col, 5)) {
		csv_read_close(&c);
		return -1;
	}
	while (csv_next(&c) > 0) {
		struct tl_sample *s;
		int cpu = atoi(csv_field(&c, col[0]));

		ctx = ctx_index(t, csv_field(&c, col[2]));
		if (cpu < 0 || cpu >= MAX_CPUS || ctx < 0)
			continue;
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 65536;
			t->s = lab_realloc(t->s, t->cap, sizeof(*t->s), "timerlat samples");
		}
		s = &t->s[t->n++];
		s->cpu = cpu;
		s->ctx = ctx;
		s->chunk = (unsigned long)num(&c, col[1]);
		s->lat_us = (double)num(&c, col[3]) / 1000.0;
		s->t_ns = strtoll(csv_field(&c, col[4]), NULL, 10);
		if (cpu + 1 > t->ncpu)
			t->ncpu = cpu + 1;
	}
	csv_read_close(&c);
	return 0;
}

int load_osnoise(const char *dir, const char *load, struct osn_set *o)
{
	static const char *const names[] = {
		"cpu", "chunk", "period", "t_ns", "runtime_us", "noise_us", "max_single_us",
		"hw_count", "nmi_count", "irq_count", "softirq_count", "thread_count", "irq_ns",
		"softirq_ns", "thread_ns", "nmi_ns", "unexplained_ns", "samples", "sample_ns", "lost"
	};
	char path[PATH_MAX];
	int col[20], k;
	struct csv c;

	memset(o, 0, sizeof(*o));
	snprintf(o->load, sizeof(o->load), "%s", load);
	snprintf(path, sizeof(path), "%s/osnoise-%s.csv", dir, load);
	if (csv_read_open(&c, path))
		return -1;
	if (columns(&c, names, col, 20)) {
		csv_read_close(&c);
		return -1;
	}
	while (csv_next(&c) > 0) {
		struct osn_row *r;
		int cpu = atoi(csv_field(&c, col[0]));

		if (cpu < 0 || cpu >= MAX_CPUS)
			continue;
		if (o->n == o->cap) {
			o->cap = o->cap ? 2 * o->cap : 1024;
			o->r = lab_realloc(o->r, o->cap, sizeof(*o->r), "osnoise periods");
		}
		r = &o->r[o->n++];
		memset(r, 0, sizeof(*r));
		r->cpu = cpu;
		r->chunk = (unsigned long)num(&c, col[1]);
		r->period = (unsigned long)num(&c, col[2]);
		r->t_ns = strtoll(csv_field(&c, col[3]), NULL, 10);
		r->p.s.runtime_us = num(&c, col[4]);
		r->p.s.noise_us = num(&c, col[5]);
		r->p.s.max_single_us = num(&c, col[6]);
		r->p.s.hw = (unsigned long)num(&c, col[7]);
		r->p.s.nmi = (unsigned long)num(&c, col[8]);
		r->p.s.irq = (unsigned long)num(&c, col[9]);
		r->p.s.softirq = (unsigned long)num(&c, col[10]);
		r->p.s.thread = (unsigned long)num(&c, col[11]);
		for (k = 0; k < NCAUSES; k++)
			r->p.cause_ns[k] = num(&c, col[12 + k]);
		r->p.samples = (unsigned long)num(&c, col[17]);
		r->p.sample_ns = num(&c, col[18]);
		r->lost = strtol(csv_field(&c, col[19]), NULL, 10);
		if (cpu + 1 > o->ncpu)
			o->ncpu = cpu + 1;
	}
	csv_read_close(&c);
	return 0;
}

void load_accel(const char *dir, const char *load, char *buf, size_t len)
{
	char path[PATH_MAX];
	const char *a;
	json_t *j;

	snprintf(path, sizeof(path), "%s/run-%s.json", dir, load);
	j = json_load_file(path, 0, NULL);
	a = json_string_value(json_object_get(j, "accel"));
	snprintf(buf, len, "%s", a && *a ? a : "unknown");
	json_decref(j);
}
