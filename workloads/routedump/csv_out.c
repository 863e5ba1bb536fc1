// SPDX-License-Identifier: GPL-2.0
/*
 * The raw CSV files of a run, each written atomically: insert.csv (one row
 * per batch), insert-summary.csv (one per insert step and the ip -batch
 * anchor), dump.csv (one per dump, warm-up included), iproute2.csv (one per
 * run of ip). A file that cannot be written fails the run, naming it.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "routedump.h"

#define DUMP_HEADER "family,routes,bufsize,mode,point,rep,warmup,selectivity,wall_ms,user_ms,sys_ms,bytes,recvmsgs," \
		    "msgs,returned,answer,expected,walked,filtered,done_filtered,ok"
#define INSERT_SUMMARY_HEADER "family,method,rep,routes_from,routes_to,seconds,routes_per_s,user_s,sys_s," \
			      "batch_bytes,acks,sendmsgs,recvmsgs,ok"

static int write_insert(const struct bench *b, struct atomic_file *af)
{
	size_t i;

	for (i = 0; i < b->batches.n; i++) {
		const struct batch_sample *s = &b->batches.v[i];

		fprintf(af->f, "%s,%" PRIu64 ",%u,%.6f,%.1f\n", family_name(s->family), s->to, s->msgs,
			s->ns / 1e9, s->msgs / (s->ns / 1e9));
	}
	return 0;
}

static int write_insert_summary(const struct bench *b, struct atomic_file *af)
{
	size_t i;

	for (i = 0; i < b->ninserts; i++) {
		const struct insert_run *r = &b->inserts[i];
		bool ipb = !strncmp(r->method, "ip-batch", 8);

		fprintf(af->f, "%s,%s,%d,%" PRIu64 ",%" PRIu64 ",%.6f,%.1f,%.3f,%.3f,%zu,%s,%" PRIu64 ",%" PRIu64 ",%d\n",
			family_name(r->family), r->method, r->rep, r->from, r->to, r->ns / 1e9,
			(r->to - r->from) / (r->ns / 1e9), r->user_us / 1e6, r->sys_us / 1e6, r->batch,
			ipb || !strcmp(r->method, "single_ack") ? "every" : b->ins.all_acks ? "every" : "errors",
			r->sendmsgs, r->recvmsgs, r->ok);
	}
	return 0;
}

static int write_dump(const struct bench *b, struct atomic_file *af)
{
	size_t i;

	for (i = 0; i < b->ndumps; i++) {
		const struct dump_row *d = &b->dumps[i];

		fprintf(af->f, "%s,%" PRIu64 ",%zu,%s,%d,%d,%d,%.6f,%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%d,%d\n",
			family_name(d->family), d->routes, d->bufsize, modes[d->mode].name, points[d->point].pct,
			d->rep, d->warmup, (double)d->expected / d->routes, ms(d->wall_ns), d->user_us / 1e3,
			d->sys_us / 1e3, d->bytes, d->recvmsgs, d->msgs, d->returned, d->answer, d->expected,
			d->walked, flag_str(d->filtered), d->done_filtered, d->ok);
	}
	return 0;
}

static int write_iproute2(const struct bench *b, struct atomic_file *af)
{
	size_t i;

	for (i = 0; i < b->nips; i++) {
		const struct ip_row *r = &b->ips[i];

		fprintf(af->f, "%s,%" PRIu64 ",%s,%d,%d,%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%d\n",
			family_name(r->family), r->routes, mode_name(r->mode), r->rep, r->warmup,
			ms(r->wall_ns), r->user_us / 1e3, r->sys_us / 1e3, r->lines, r->expected, r->ok);
	}
	return 0;
}

static int write_cpu(const struct bench *b, struct atomic_file *af)
{
	size_t i;

	for (i = 0; i < b->ncpus; i++) {
		const struct cpu_row *c = &b->cpus[i];

		fprintf(af->f, "%s,%" PRIu64 ",%s,%d,%" PRIu64 ",%.3f,%.3f,%.3f,%d\n", family_name(c->family), c->routes,
			modes[c->mode].name, points[c->point].pct, c->dumps, ms(c->wall_ns), c->user_us / 1e3,
			c->sys_us / 1e3, c->hz);
	}
	return 0;
}

static const struct {
	const char *name, *header;
	int (*rows)(const struct bench *b, struct atomic_file *af);
} files[] = {
	{ "insert.csv", "family,routes_to,msgs,seconds,routes_per_s", write_insert },
	{ "insert-summary.csv", INSERT_SUMMARY_HEADER, write_insert_summary },
	{ "dump.csv", DUMP_HEADER, write_dump },
	{ "iproute2.csv", "family,routes,mode,rep,warmup,wall_ms,user_ms,sys_ms,lines,expected,ok", write_iproute2 },
	{ "cpu.csv", "family,routes,mode,point,dumps,wall_ms,user_ms,sys_ms,hz", write_cpu },
};

int write_csvs(struct bench *b)
{
	struct atomic_file af;
	int i, err, rc = 0;

	for (i = 0; i < ARRAY_LEN(files); i++) {
		err = csv_open(&af, b->out, files[i].name, files[i].header);
		if (!err) {
			files[i].rows(b, &af);
			err = atomic_commit(&af);
		}
		if (err) {
			bench_fail(b, "cannot write %s/%s: %s", b->out, files[i].name, lab_errname(err));
			rc = err;
		}
	}
	return rc;
}
