// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs run: a single-thread unit from BPF programs, K operations per run
 * through bpf_loop, runs repeated by BPF_PROG_TEST_RUN; the kernel's fixed
 * cost per test-run call and the repeat that makes it small.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "stats.h"
#include "bpfqs.h"
#include "bpfqs.skel.h"

/*
 * BPF_PROG_TEST_RUN times a call's runs with the kernel's clock
 * (bpf_test_timer: ktime_get_ns() before the first run and after the
 * last, again around every reschedule) and reports the time over @repeat:
 * the clock reads and the first run's cold start are in every run's
 * figure, divided by the repeat. Measured here with the empty program at
 * one operation per run: calls of repeat 1 (d1) and TIMER_REPEAT (dR)
 * alternated, each pair's estimate of the fixed cost per call
 * (d1 - dR) x R / (R - 1), since d(R) = run + fixed / R.
 */
double timer_pair_ns[TIMER_PAIRS];
double timer_call_ns;

int prog_timer_cost(void)
{
	struct bpfqs_bpf *skel = bench_skel(QUEUE, 4, 1, 1, -1);
	double d1, dr;
	size_t i;
	int rc = 0;

	if (!skel)
		return -1;
	for (i = 0; i < TIMER_PAIRS && !rc; i++) {
		rc = test_run(skel, skel->progs.bench_empty, 1, &d1);
		if (!rc)
			rc = test_run(skel, skel->progs.bench_empty, TIMER_REPEAT, &dr);
		timer_pair_ns[i] = (d1 - dr) * TIMER_REPEAT / (TIMER_REPEAT - 1);
	}
	bpfqs_bpf__destroy(skel);
	if (rc) {
		run_fail("BPF_PROG_TEST_RUN of the empty program (the timer's cost) failed: %s", lab_errname(rc));
		return -1;
	}
	timer_call_ns = stats_median(timer_pair_ns, TIMER_PAIRS);
	fprintf(stderr, "bpfqs: BPF_PROG_TEST_RUN's fixed cost per call: %.0f ns (median of %d pairs of calls)\n",
		timer_call_ns, TIMER_PAIRS);
	return 0;
}

/* The programs of the unit's map kind, in the order of its ops */
static void unit_progs(struct unit *u)
{
	if (u->kind == ARRAY) {
		u->progs[0] = u->skel->progs.bench_arr_update;
		u->progs[1] = u->skel->progs.bench_arr_lookup;
	} else if (u->kind == HASH) {
		u->progs[0] = u->skel->progs.bench_hash_update;
		u->progs[1] = u->skel->progs.bench_hash_lookup_delete;
	} else {
		u->progs[0] = u->skel->progs.bench_push;
		u->progs[1] = u->skel->progs.bench_peek;
		u->progs[2] = u->skel->progs.bench_pop;
		u->progs[3] = u->skel->progs.bench_push_pop;
	}
}

/* One call of the empty loop into *@empty, then one of each operation into v[j] */
static int calls(struct unit *u, double *empty, double *v[MAX_OPS], size_t r)
{
	size_t j;
	int rc;

	rc = test_run(u->skel, u->skel->progs.bench_empty, u->repeat, empty);
	for (j = 0; j < u->nops && !rc; j++) {
		u->skel->bss->next_key = 0;
		rc = test_run(u->skel, u->progs[j], u->repeat, &v[j][r]);
	}
	if (rc)
		run_fail("in-program %s, value size %u: BPF_PROG_TEST_RUN of %s in round %zu failed: %s",
			 kind_name[u->kind], u->vsize, j ? u->op[j - 1] : "the empty loop", r, lab_errname(rc));
	return rc;
}

#define PILOT_REPEAT 4
#define PILOT_CALLS 7
#define PILOT_FLOOR_NS 1.0

/*
 * The pilot: PILOT_CALLS rounds at PILOT_REPEAT; the unit's smallest
 * figure (median over the rounds of (op - empty) / K) into
 * pilot_ns_per_op, at least PILOT_FLOOR_NS: every figure report may judge
 * counts, also one the pilot cannot resolve (a run had an array lookup at
 * 4096 bytes resolved at 24 ns, its repeat set by the update's 9.6 us). 0
 * or -1.
 */
static int pilot(struct unit *u)
{
	double e[PILOT_CALLS], x[MAX_OPS][PILOT_CALLS], *v[MAX_OPS], d[PILOT_CALLS], f;
	size_t j, r;

	for (j = 0; j < MAX_OPS; j++)
		v[j] = x[j];
	for (r = 0; r < PILOT_CALLS; r++)
		if (calls(u, &e[r], v, r))
			return -1;
	u->pilot_ns_per_op = INFINITY;
	for (j = 0; j < u->nops; j++) {
		for (r = 0; r < PILOT_CALLS; r++)
			d[r] = (x[j][r] - e[r]) / u->kops;
		f = stats_median(d, PILOT_CALLS);
		if (f < u->pilot_ns_per_op)
			u->pilot_ns_per_op = f;
	}
	if (!(u->pilot_ns_per_op >= PILOT_FLOOR_NS))
		u->pilot_ns_per_op = PILOT_FLOOR_NS;
	return 0;
}

/*
 * An in-program unit: the programs of one map and value size, K operations
 * per run, the repeat calibrated, the map holding K x repeat values. One
 * round: one call of the empty loop, then one of each operation: the
 * pushes fill the map, the peeks read it full, the pops empty it, the
 * push+pop pairs leave it empty (hash: updates insert keys 0..cap-1,
 * lookup-deletes remove them). A batch's figure is (its ns per run - the
 * same round's empty loop) / K.
 *
 * The repeat: the timer's fixed cost per call spread over R runs of K
 * operations is timer / (R x K) per operation; R is the smallest making it
 * CLOCK_AIM_PCT of the pilot's smallest figure, at most repeat_max and
 * what keeps the map within MAP_BUDGET.
 */
static int prog_setup(const struct cfg *c, struct unit *u)
{
	unsigned int kops = c->prog_k, budget;
	double need;

	/* keep the map within the memory budget: fewer operations per call */
	if ((unsigned long long)kops * u->vsize > MAP_BUDGET)
		kops = pow2_floor(MAP_BUDGET / u->vsize ? MAP_BUDGET / u->vsize : 1);
	u->kops = kops;
	u->repeat = PILOT_REPEAT;
	if ((unsigned long long)kops * u->repeat * u->vsize > MAP_BUDGET)
		u->repeat = 1;
	u->skel = bench_skel(u->kind, u->vsize, kops, kops * u->repeat, -1);
	if (!u->skel)
		return -1;
	unit_progs(u);
	if (pilot(u))
		return -1;
	bpfqs_bpf__destroy(u->skel);
	u->skel = NULL;

	need = ceil(timer_call_ns * 100 / CLOCK_AIM_PCT / (kops * u->pilot_ns_per_op));
	u->repeat_needed = need < 1 ? 1 : need > 1e9 ? 1000000000u : (unsigned int)need;
	u->repeat = u->repeat_needed;
	u->repeat_limit = "none";
	if (u->repeat > c->repeat_max) {
		u->repeat = c->repeat_max;
		u->repeat_limit = "repeat_max";
	}
	budget = u->kind == ARRAY ? UINT32_MAX : MAP_BUDGET / ((unsigned long long)kops * u->vsize);
	if (u->repeat > budget) {
		u->repeat = budget ? budget : 1;
		u->repeat_limit = "map_budget";
	}
	u->skel = bench_skel(u->kind, u->vsize, kops, kops * (u->kind == ARRAY ? 1 : u->repeat), -1);
	if (!u->skel)
		return -1;
	unit_progs(u);
	return 0;
}

static int prog_round(struct unit *u, size_t r)
{
	return calls(u, &u->empty[r], u->v, r);
}

const struct unit_ops prog_ops = {
	.setup = prog_setup,
	.round = prog_round,
};
