// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs run: a single-thread unit from BPF programs, K operations per run
 * through bpf_loop, runs repeated by BPF_PROG_TEST_RUN.
 */
#define _GNU_SOURCE
#include <bpf/libbpf.h>

#include "cli.h"
#include "bpfqs.h"
#include "bpfqs.skel.h"

/*
 * An in-program unit: the programs of one map and value size, K operations
 * per run, @repeat runs per BPF_PROG_TEST_RUN call, the map holding
 * K x repeat values. One round: one call of the empty loop, then one of
 * each operation: the pushes fill the map, the peeks read it full, the pops
 * empty it, the push+pop pairs leave it empty (hash: updates insert keys
 * 0..cap-1, lookup-deletes remove them). A figure is (the sample's ns per
 * run - the median of the empty loop's samples) / K.
 */
static int prog_setup(const struct cfg *c, struct unit *u)
{
	unsigned int kops = c->prog_k, repeat = c->prog_repeat;

	/* keep the map within the memory budget: fewer operations per call */
	if ((unsigned long long)kops * u->vsize > MAP_BUDGET)
		kops = pow2_floor(MAP_BUDGET / u->vsize ? MAP_BUDGET / u->vsize : 1);
	if ((unsigned long long)kops * repeat * u->vsize > MAP_BUDGET)
		repeat = MAP_BUDGET / ((unsigned long long)kops * u->vsize) ?: 1;
	u->kops = kops;
	u->repeat = repeat;
	u->skel = bench_skel(u->kind, u->vsize, kops, kops * repeat, -1);
	if (!u->skel)
		return -1;
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
	return 0;
}

static int prog_round(struct unit *u, size_t r)
{
	size_t j;
	int rc;

	rc = test_run(u->skel, u->skel->progs.bench_empty, u->repeat, &u->empty[r]);
	for (j = 0; j < u->nops && !rc; j++) {
		u->skel->bss->next_key = 0;
		rc = test_run(u->skel, u->progs[j], u->repeat, &u->v[j][r]);
	}
	if (rc)
		run_fail("in-program %s, value size %u: BPF_PROG_TEST_RUN of %s in round %zu failed: %s",
		     kind_name[u->kind], u->vsize, j ? u->op[j - 1] : "the empty loop", r, lab_errname(rc));
	return rc;
}

const struct unit_ops prog_ops = {
	.setup = prog_setup,
	.round = prog_round,
};
