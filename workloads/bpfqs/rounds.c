// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs run, the single-thread figures: every unit (one map, one value
 * size, from user space or from programs) measured in interleaved rounds;
 * every batch into user-batches.csv and prog-batches.csv, the samples into
 * user-samples.csv and prog-samples.csv.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
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
 * switches between regimes for tens of milliseconds at a time (measured
 * here: an in-program 4-byte push at 130 ns or 210-250 ns); a figure
 * measured in one stretch would land in one regime by chance.
 *
 * The first warmup x batches rounds are the warm-up samples (consecutive
 * batches each). Then samples x batches rounds: round r belongs to sample
 * r mod samples, so each sample's batches are spread over the whole
 * measurement; a sample is its fastest batch (the cost when the host let
 * the vCPU run at full speed), anomalies left out (see ANOMALY_FRACTION).
 * Offline, on one run's batches, this gave the smallest CVs of the
 * estimators tried (fastest, 2nd and 3rd fastest, 10th percentile,
 * median). The batches themselves are in the *-batches.csv files.
 */
struct plan {
	size_t warmup, samples, batches;
	size_t rounds;		/* (warmup + samples) x batches */
};

/*
 * A batch faster than a third of the figure's median batch is taken for a
 * measurement anomaly and left out: the host's fast and slow periods differ
 * by a factor of about 2, but one run had a 4096-byte in-program push+pop
 * batch at an eighth of the median, which no host period explains.
 */
#define ANOMALY_FRACTION (1.0 / 3)

/* The floor below which a batch of the per-round values @v is an anomaly */
static double plan_floor(const struct plan *p, const double *v)
{
	return stats_median(v, p->rounds) * ANOMALY_FRACTION;
}

/*
 * Sample @s (warm-up ones first) of the per-round values @v: the fastest
 * batch at or above @floor.
 */
static double plan_sample(const struct plan *p, const double *v, size_t s, double floor)
{
	double m = INFINITY;
	size_t b, r;

	for (b = 0; b < p->batches; b++) {
		if (s < p->warmup)
			r = s * p->batches + b;
		else
			r = p->warmup * p->batches + (s - p->warmup) + b * p->samples;
		if (v[r] >= floor && v[r] < m)
			m = v[r];
	}
	return m;
}


/* The sample a round belongs to, for the batches CSV */
static size_t plan_sample_of(const struct plan *p, size_t r)
{
	size_t w = p->warmup * p->batches;

	return r < w ? r / p->batches : p->warmup + (r - w) % p->samples;
}

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
		u->v[j] = lab_calloc(p->rounds, sizeof(double), "the batches");
	}
	if (prog)
		u->empty = lab_calloc(p->rounds, sizeof(double), "the batches");
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

	plan = (struct plan){ c->warmup, c->samples, c->batches, (c->warmup + c->samples) * c->batches };
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

/* The anomaly floors of every figure, and how many batches are below */
static void single_floors(void)
{
	size_t i, j, r, n_anomalies = 0;

	for (i = 0; i < n_units; i++) {
		struct unit *u = &units[i];

		if (u->prog) {
			u->floor_empty = plan_floor(&plan, u->empty);
			for (r = 0; r < plan.rounds; r++)
				n_anomalies += u->empty[r] < u->floor_empty;
		}
		for (j = 0; j < u->nops; j++) {
			u->floor[j] = plan_floor(&plan, u->v[j]);
			for (r = 0; r < plan.rounds; r++)
				n_anomalies += u->v[j][r] < u->floor[j];
		}
	}
	if (n_anomalies)
		fprintf(stderr, "bpfqs: %zu batches faster than a third of their figure's median batch left out "
			"(anomalies; marked in the *-batches.csv files)\n", n_anomalies);
}

/* Every round: one batch of every operation of every unit. Progress every tenth. */
static int single_measure(const struct cfg *c)
{
	uint64_t t0 = mono_ns();
	size_t i, r;

	(void)c;
	fprintf(stderr, "bpfqs: %zu units set up; %zu rounds\n", n_units, plan.rounds);
	for (r = 0; r < plan.rounds; r++) {
		for (i = 0; i < n_units; i++)
			if ((units[i].prog ? &prog_ops : &user_ops)->round(&units[i], r))
				return -1;
		if ((r + 1) % (plan.rounds / 10 ? plan.rounds / 10 : 1) == 0)
			fprintf(stderr, "bpfqs: round %zu of %zu after %.1f s\n", r + 1, plan.rounds,
				(mono_ns() - t0) / 1e9);
	}
	single_floors();
	measured = true;
	return 0;
}

/* One path's batches: every round of every operation, anomalies marked */
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
			double floor = j < u->nops ? u->floor[j] : u->floor_empty;

			if (!v)
				continue;
			for (r = 0; r < plan.rounds; r++) {
				size_t s = plan_sample_of(&plan, r);

				if (prog)
					fprintf(f, "%s,%s,%u,%zu,%zu,%d,%u,%u,%.0f,%d\n", kind_name[u->kind], op,
						u->vsize, r, s, s < plan.warmup, u->kops, u->repeat, v[r],
						v[r] < floor);
				else
					fprintf(f, "%s,%s,%u,%zu,%zu,%d,%u,%.3f,%d\n", kind_name[u->kind], op,
						u->vsize, r, s, s < plan.warmup, u->b, v[r], v[r] < floor);
			}
		}
	}
}

/* The samples of a user-space unit: each the fastest batch above the floor */
static void user_rows(FILE *f, const struct unit *u)
{
	size_t j, s, total = plan.warmup + plan.samples;

	for (j = 0; j < u->nops; j++)
		for (s = 0; s < total; s++) {
			fprintf(f, "%s,%s,%u,%zu,%d,%u,", kind_name[u->kind], u->op[j], u->vsize, s,
				s < plan.warmup, u->b);
			csv_put_num(f, plan_sample(&plan, u->v[j], s, u->floor[j]));
			fputc('\n', f);
		}
}

static void prog_row(FILE *f, const struct unit *u, const char *op, size_t s, double run_ns, double empty,
		     double ns_per_op)
{
	fprintf(f, "%s,%s,%u,%zu,%d,%u,%u,", kind_name[u->kind], op, u->vsize, s, s < plan.warmup, u->kops,
		u->repeat);
	csv_put_num(f, run_ns);
	fputc(',', f);
	csv_put_num(f, empty);
	fputc(',', f);
	csv_put_num(f, ns_per_op);
	fputc('\n', f);
}

/*
 * The samples of an in-program unit: the empty loop's (ns per run), then
 * each operation's, (the sample's ns per run - the median of the empty
 * loop's samples after warm-up) / K.
 */
static void prog_rows(FILE *f, const struct unit *u)
{
	size_t j, s, total = plan.warmup + plan.samples;
	double *e = lab_calloc(total, sizeof(double), "the samples"), empty;

	for (s = 0; s < total; s++)
		e[s] = plan_sample(&plan, u->empty, s, u->floor_empty);
	empty = stats_median(e + plan.warmup, plan.samples);
	for (s = 0; s < total; s++)
		prog_row(f, u, "empty", s, e[s], empty, e[s] / u->kops);
	for (j = 0; j < u->nops; j++)
		for (s = 0; s < total; s++) {
			double v = plan_sample(&plan, u->v[j], s, u->floor[j]);

			prog_row(f, u, u->op[j], s, v, empty, (v - empty) / u->kops);
		}
	free(e);
}

/* <dir>/<name> with @header and one path's rows; 0 or -1 with the file named */
static int write_path(const struct cfg *c, const char *name, const char *header, bool prog, bool batches)
{
	struct atomic_file f;
	size_t i;

	if (csv_open(&f, c->out, name, header)) {
		run_fail("cannot write %s/%s", c->out, name);
		return -1;
	}
	if (measured && batches) {
		batches_rows(f.f, prog);
	} else if (measured) {
		for (i = 0; i < n_units; i++)
			if (units[i].prog == prog)
				(prog ? prog_rows : user_rows)(f.f, &units[i]);
	}
	if (atomic_commit(&f)) {
		run_fail("cannot write %s/%s", c->out, name);
		return -1;
	}
	return 0;
}

/*
 * The batches and the samples; a measurement that did not finish leaves the
 * files with their header only.
 */
static int single_write(const struct cfg *c)
{
	int rc = 0;

	rc |= write_path(c, "user-batches.csv",
			 "map,op,value_size,round,sample,warmup,batch_ops,ns_per_op,anomaly", false, true);
	rc |= write_path(c, "prog-batches.csv",
			 "map,op,value_size,round,sample,warmup,k,repeat,ns_per_run,anomaly", true, true);
	rc |= write_path(c, "user-samples.csv", "map,op,value_size,sample,warmup,batch_ops,ns_per_op",
			 false, false);
	rc |= write_path(c, "prog-samples.csv",
			 "map,op,value_size,sample,warmup,k,repeat,run_ns,empty_median_ns,ns_per_op", true, false);
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
