// SPDX-License-Identifier: GPL-2.0
/* bpfqs run: a single-thread unit from user space, one bpf syscall per operation. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "cli.h"
#include "timing.h"
#include "bpfqs.h"

/*
 * A fresh map every MAP_ROUNDS rounds. One run measured a user-space 64-byte
 * queue push at twice its usual cost in every batch (CV 3 %) while the peek
 * on the same map was as usual; a value straddling a page boundary was
 * tested and ruled out, the cause is unknown. With a new map now and then
 * such a placement effect varies between the batches of a sample instead of
 * biasing a whole figure. Not every round: each closed map is freed later
 * by a kworker, work beside the measurement that fewer maps keep small.
 */
#define MAP_ROUNDS 30

static int user_map(struct unit *u)
{
	if (u->fd >= 0)
		close(u->fd);
	u->fd = bpf_map_create(kind_type[u->kind], "bpfqs_user", u->kind == QUEUE || u->kind == STACK ? 0 : 4,
			       u->vsize, u->b, NULL);
	if (u->fd < 0) {
		run_fail("creating a %s map (value size %u, %u entries): %s", kind_name[u->kind], u->vsize, u->b,
		     lab_errname(u->fd));
		return u->fd;
	}
	return 0;
}

/*
 * A user-space unit: a map of @b values, new every MAP_ROUNDS. One round: @b
 * pushes (updates), @b peeks (lookups) of the now non-empty map, @b pops
 * (lookup-and-deletes) that empty it again; each batch timed, minus a clock
 * read pair.
 */
static int user_setup(const struct cfg *c, struct unit *u)
{
	unsigned int b = c->user_batch;

	/* big values: fewer operations per batch */
	if (b > 131072 / u->vsize)
		b = 131072 / u->vsize;
	if ((unsigned long long)b * u->vsize > MAP_BUDGET)
		b = MAP_BUDGET / u->vsize;
	u->b = b ? b : 1;
	/* page-aligned values: the same placement within a page in every run */
	if (posix_memalign((void **)&u->buf, 4096, u->vsize))
		u->buf = NULL;
	if (posix_memalign((void **)&u->got, 4096, u->vsize))
		u->got = NULL;
	if (!u->buf || !u->got) {
		run_fail("out of memory for value size %u", u->vsize);
		return -ENOMEM;
	}
	fill_pattern(u->buf, u->vsize, 3);
	return user_map(u);
}

static int user_round(struct unit *u, size_t r)
{
	enum kind k = u->kind;
	bool qs = k == QUEUE || k == STACK;
	unsigned int i = 0;
	size_t j;
	int rc = 0;

	if (r > 0 && r % MAP_ROUNDS == 0 && user_map(u))
		return -1;

	for (j = 0; j < u->nops && !rc; j++) {
		uint64_t t0 = mono_ns(), t1;

		for (i = 0; i < u->b && !rc; i++) {
			if (j == 0)
				rc = bpf_map_update_elem(u->fd, qs ? NULL : &i, u->buf,
							 k == HASH ? BPF_NOEXIST : BPF_ANY);
			else if (qs && j == 1)
				rc = bpf_map_lookup_elem(u->fd, NULL, u->got);
			else if (qs)
				rc = bpf_map_lookup_and_delete_elem(u->fd, NULL, u->got);
			else if (k == ARRAY)
				rc = bpf_map_lookup_elem(u->fd, &i, u->got);
			else
				rc = bpf_map_lookup_and_delete_elem(u->fd, &i, u->got);
		}
		t1 = mono_ns();
		u->v[j][r] = ((double)(t1 - t0) - clock_cost_ns) / u->b;
	}
	if (rc)
		run_fail("user space %s map, value size %u: %s %u of round %zu failed: %s", kind_name[k], u->vsize,
		     u->op[j - 1], i, r, lab_errname(rc));
	return rc;
}

const struct unit_ops user_ops = {
	.setup = user_setup,
	.round = user_round,
};
