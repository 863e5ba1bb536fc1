// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs run, the single-thread figures: every unit (one map, one value
 * size, from user space or from programs) measured in interleaved rounds;
 * every batch into user-batches.csv and prog-batches.csv, the in-program
 * repeat calibration into prog-repeat.csv, the test run's fixed cost per
 * call into prog-timer.csv.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "progress.h"
#include "stats.h"
#include "timing.h"
#include "bpfqs.h"
#include "bpfqs.skel.h"

/*
 * The cost of one clock read pair (mono_ns(); mono_ns()), subtracted from
 * every user-space batch: the guest's clocksource may be one that traps
 * (hpet under TCG), where a read costs microseconds.
 */
double clock_cost_ns;

void measure_clock_cost(void)
{
	double d[101];
	size_t i;

	for (i = 0; i < 101; i++) {
		uint64_t a = mono_ns(), b = mono_ns();

		d[i] = (double)(b - a);
	}
	clock_cost_ns = stats_median(d, 101);
}

/*
 * The measurement plan. Every single-thread figure is a "unit" (one map,
 * one value size, user space or in-program) measured in rounds: each round
 * runs one timed batch of every operation of every unit, so all figures see
 * the same host conditions. Under TCG on a shared host the vCPU's speed
 * switches between regimes for tens of milliseconds at a time; a figure
 * measured in one stretch would land in one regime by chance, interleaved
 * it sees them all. The first @warmup rounds are dropped; a figure is the
 * median over all the batches of the @rounds measured rounds, none left
 * out (report also gives the fastest batch, as *_best).
 */
struct plan {
	size_t warmup, rounds;
	size_t total;		/* warmup + rounds */
};

static struct plan plan;
static struct unit *units;
static size_t n_units;
static bool measured;		/* every round ran */

static struct unit *unit_new(bool prog, enum kind k, unsigned int vsize, const struct plan *p)
{
	static const char *const user_op_names[NKINDS][MAX_OPS] = {
		[QUEUE] = { "push", "peek", "pop" },
		[STACK] = { "push", "peek", "pop" },
		[ARRAY] = { "update", "lookup" },
		[HASH] = { "update", "lookup_delete" },
	};
	static const char *const prog_op_names[NKINDS][MAX_OPS] = {
		[QUEUE] = { "push", "peek", "pop", "push_pop" },
		[STACK] = { "push", "peek", "pop", "push_pop" },
		[ARRAY] = { "update", "lookup" },
		[HASH] = { "update", "lookup_delete" },
	};
	struct unit *u;
	size_t j;

	units = lab_realloc(units, n_units + 1, sizeof(*units), "the units");
	u = &units[n_units++];
	memset(u, 0, sizeof(*u));
	u->prog = prog;
	u->kind = k;
	u->vsize = vsize;
	u->fd = -1;
	for (j = 0; j < MAX_OPS; j++) {
		u->op[j] = prog ? prog_op_names[k][j] : user_op_names[k][j];
		if (!u->op[j])
			break;
		u->nops++;
		u->v[j] = lab_calloc(p->total, sizeof(double), "the batches");
	}
	if (prog)
		u->empty = lab_calloc(p->total, sizeof(double), "the batches");
	return u;
}

static void unit_free(struct unit *u)
{
	size_t j;

	if (u->fd >= 0)
		close(u->fd);
	bpfqs_bpf__destroy(u->skel);
	free(u->buf);
	free(u->got);
	for (j = 0; j < u->nops; j++)
		free(u->v[j]);
	free(u->empty);
}

static bool single_wanted(const struct cfg *c)
{
	return c->part_user || c->part_prog;
}

/* Every unit: user space first, then in-program; map kinds, value sizes */
static int single_setup(const struct cfg *c)
{
	size_t i;
	int k, path;

	plan = (struct plan){ c->warmup, c->rounds, c->warmup + c->rounds };
	if (c->part_prog && prog_timer_cost())
		return -1;
	for (path = 0; path < 2; path++) {
		if (!(path ? c->part_prog : c->part_user))
			continue;
		for (k = 0; k < NKINDS; k++)
			for (i = 0; i < c->n_vsizes && c->kinds[k]; i++) {
				struct unit *u = unit_new(path == 1, k, c->vsizes[i], &plan);

				if ((path ? &prog_ops : &user_ops)->setup(c, u))
					return -1;
			}
	}
	return 0;
}

/* Every round: one batch of every operation of every unit */
static int single_measure(const struct cfg *c)
{
	size_t i, r;

	(void)c;
	progress_part(plan.total, "rounds", "single-thread figures, %zu units", n_units);
	for (r = 0; r < plan.total; r++) {
		for (i = 0; i < n_units; i++)
			if ((units[i].prog ? &prog_ops : &user_ops)->round(&units[i], r))
				return -1;
		progress_set(r + 1);
	}
	measured = true;
	return 0;
}

/*
 * One path's batches: every round of every operation. In-program: the
 * empty loop's rows first (ns per op: its ns per run / K), then each
 * operation's, ns per op = (ns per run - the same round's empty loop) / K.
 */
static void batches_rows(FILE *f, bool prog)
{
	size_t i, j, r;

	for (i = 0; i < n_units; i++) {
		struct unit *u = &units[i];

		if (u->prog != prog)
			continue;
		for (j = 0; j <= u->nops; j++) {
			const double *v = j < u->nops ? u->v[j] : u->empty;
			const char *op = j < u->nops ? u->op[j] : "empty";

			if (!v)
				continue;
			for (r = 0; r < plan.total; r++) {
				fprintf(f, "%s,%s,%u,%zu,%d,", kind_name[u->kind], op, u->vsize, r, r < plan.warmup);
				if (prog) {
					fprintf(f, "%u,%u,", u->kops, u->repeat);
					csv_put_num(f, v[r]);
					fputc(',', f);
					csv_put_num(f, u->empty[r]);
					fputc(',', f);
					csv_put_num(f, j < u->nops ? (v[r] - u->empty[r]) / u->kops : v[r] / u->kops);
				} else {
					fprintf(f, "%u,", u->b);
					csv_put_num(f, v[r]);
				}
				fputc('\n', f);
			}
		}
	}
}

/* The repeat calibration of the in-program units */
static void calibration_rows(FILE *f)
{
	size_t i;

	for (i = 0; i < n_units; i++) {
		const struct unit *u = &units[i];

		if (!u->prog)
			continue;
		fprintf(f, "%s,%u,%u,", kind_name[u->kind], u->vsize, u->kops);
		csv_put_num(f, u->pilot_ns_per_op);
		fprintf(f, ",%u,%u,%s\n", u->repeat_needed, u->repeat, u->repeat_limit);
	}
}

enum rows { BATCHES_USER, BATCHES_PROG, CALIBRATION, TIMER };

/* <dir>/<name> with @header and its rows; 0 or -1 with the file named */
static int write_file(const struct cfg *c, const char *name, const char *header, enum rows rows)
{
	struct atomic_file f;
	size_t i;

	if (csv_open(&f, c->out, name, header)) {
		run_fail("cannot write %s/%s", c->out, name);
		return -1;
	}
	if (measured && rows == BATCHES_USER)
		batches_rows(f.f, false);
	else if (measured && rows == BATCHES_PROG)
		batches_rows(f.f, true);
	else if (measured && rows == CALIBRATION)
		calibration_rows(f.f);
	else if (measured && rows == TIMER && c->part_prog)
		for (i = 0; i < TIMER_PAIRS; i++) {
			fprintf(f.f, "%zu,%u,", i, TIMER_REPEAT);
			csv_put_num(f.f, timer_pair_ns[i]);
			fputc('\n', f.f);
		}
	if (atomic_commit(&f)) {
		run_fail("cannot write %s/%s", c->out, name);
		return -1;
	}
	return 0;
}

/*
 * The batches, the repeat calibration and the timer's cost; a measurement
 * that did not finish leaves the files with their header only.
 */
static int single_write(const struct cfg *c)
{
	int rc = 0;

	rc |= write_file(c, "user-batches.csv", "map,op,value_size,round,warmup,batch_ops,ns_per_op",
			 BATCHES_USER);
	rc |= write_file(c, "prog-batches.csv",
			 "map,op,value_size,round,warmup,k,repeat,ns_per_run,empty_ns_per_run,ns_per_op",
			 BATCHES_PROG);
	rc |= write_file(c, "prog-repeat.csv", "map,value_size,k,pilot_ns_per_op,repeat_needed,repeat,limited_by",
			 CALIBRATION);
	rc |= write_file(c, "prog-timer.csv", "pair,repeat,fixed_ns_per_call", TIMER);
	return rc;
}

static void single_cleanup(void)
{
	size_t i;

	for (i = 0; i < n_units; i++)
		unit_free(&units[i]);
	free(units);
	units = NULL;
	n_units = 0;
}

const struct part single_part = {
	.name = "single-thread",
	.wanted = single_wanted,
	.setup = single_setup,
	.measure = single_measure,
	.write = single_write,
	.cleanup = single_cleanup,
};
