// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs run, contention: 1..P threads (P at most min(vCPUs, host CPUs)),
 * thread i pinned to vCPU i, each running the in-program push+pop loop on
 * one shared map or on its own; every window's throughput into
 * contention-windows.csv.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "output.h"
#include "progress.h"
#include "stats.h"
#include "timing.h"
#include "bpfqs.h"
#include "bpfqs.skel.h"

struct worker {
	pthread_t tid;
	int cpu;
	struct bpfqs_bpf *skel;
	unsigned int repeat;
	double window_s;
	pthread_barrier_t *start;
	/* results of one window */
	unsigned int calls;
	unsigned long long ops;		/* operations of the calls completed */
	double seconds;
	int rc;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int per_call = 2 * w->skel->data->loop_k * w->repeat;
	uint64_t t0, t1, end;
	double ns;

	w->ops = 0;
	w->calls = 0;
	w->seconds = 0;
	w->rc = pin_to_cpu(w->cpu);
	pthread_barrier_wait(w->start);
	if (w->rc)
		return NULL;
	t0 = t1 = mono_ns();
	end = t0 + (uint64_t)(w->window_s * 1e9);
	do {
		w->rc = test_run(w->skel, w->skel->progs.bench_push_pop, w->repeat, &ns);
		if (w->rc)
			break;
		w->calls++;
		w->ops += per_call;
		t1 = mono_ns();
	} while (t1 < end);
	w->seconds = (double)(t1 - t0) / 1e9;
	return NULL;
}

/*
 * One contention configuration: a map type, P threads, shared map or not;
 * its windows, warm-up ones first: agg one per window, per one per thread
 * and window (with the thread's vCPU in per_cpu).
 */
struct cont {
	enum kind kind;
	unsigned int nthreads;
	bool shared;
	unsigned int k;
	struct worker w[MAX_LIST];
	unsigned int made;
	double *agg, *per, *per_cpu;
	size_t n;			/* windows measured */
};

static struct cont *conts;
static size_t n_conts;
static bool measured;		/* every window ran */

static int cont_setup(const struct cfg *c, struct cont *x)
{
	size_t total = c->window_warmup + c->windows;
	int share = -1;
	unsigned int i;

	x->k = c->prog_k;
	x->agg = lab_calloc(total, sizeof(double), "the samples");
	x->per = lab_calloc(total * x->nthreads, sizeof(double), "the samples");
	x->per_cpu = lab_calloc(total * x->nthreads, sizeof(double), "the samples");
	for (i = 0; i < x->nthreads; i++) {
		struct worker *w = &x->w[i];

		w->skel = bench_skel(x->kind, c->cont_vsize, c->prog_k, 64, x->shared ? share : -1);
		if (!w->skel)
			return -1;
		x->made++;
		if (x->shared && share < 0)
			share = bpf_map__fd(w->skel->maps.qs);
		w->cpu = (int)i;
		w->repeat = c->cont_repeat;
		w->window_s = c->window_s;
	}
	return 0;
}

/* Start the workers of @x and wait for them; the wall time from the start to the last join into *@wall */
static int cont_threads(struct cont *x, double *wall)
{
	uint64_t t0;
	pthread_barrier_t start;
	unsigned int i;
	int rc;

	if (pthread_barrier_init(&start, NULL, x->nthreads + 1)) {
		run_fail("pthread_barrier_init failed");
		return -1;
	}
	for (i = 0; i < x->nthreads; i++) {
		x->w[i].start = &start;
		if ((rc = pthread_create(&x->w[i].tid, NULL, worker_main, &x->w[i])))
			lab_die("pthread_create: %s", lab_errname(rc));
	}
	pthread_barrier_wait(&start);
	t0 = mono_ns();
	for (i = 0; i < x->nthreads; i++)
		pthread_join(x->w[i].tid, NULL);
	*wall = (double)(mono_ns() - t0) / 1e9;
	pthread_barrier_destroy(&start);
	return 0;
}

/*
 * One window: P threads, thread i pinned to vCPU i, each running the
 * in-program push+pop loop (push and pop count as one operation each).
 * contended_mops: the operations of all calls completed over the phase's
 * wall time (from the threads' start to the last one's end, measured by
 * the main thread); contended_thread_mops: each thread's operations over
 * its own time.
 */
static int cont_window(struct cont *x)
{
	double wall, sum = 0;
	unsigned int i;

	if (cont_threads(x, &wall))
		return -1;
	for (i = 0; i < x->nthreads; i++) {
		struct worker *w = &x->w[i];
		size_t at = x->n * x->nthreads + i;

		if (w->rc || !w->calls) {
			run_fail("contention, %s, %u threads, %s: thread %u: %s", kind_name[x->kind], x->nthreads,
				 x->shared ? "shared map" : "per-thread maps", i,
				 w->rc ? lab_errname(w->rc) : "no call finished");
			return -1;
		}
		sum += (double)w->ops;
		x->per[at] = (double)w->ops / w->seconds / 1e6;
		x->per_cpu[at] = w->cpu;
	}
	x->agg[x->n] = sum / wall / 1e6;
	x->n++;
	return 0;
}

static bool cont_wanted(const struct cfg *c)
{
	return c->part_cont;
}

/* Every configuration: queue then stack, per-thread maps then shared, P ascending */
static int contention_setup(const struct cfg *c)
{
	uint64_t t0 = mono_ns();
	size_t i;
	int k, sh;

	conts = lab_calloc(2 * 2 * c->n_threads, sizeof(*conts), "the contention configurations");
	for (k = QUEUE; k <= STACK; k++)
		for (sh = 0; sh < 2 && c->kinds[k]; sh++)
			for (i = 0; i < c->n_threads; i++) {
				struct cont *x = &conts[n_conts++];

				x->kind = k;
				x->nthreads = c->threads[i];
				x->shared = sh;
				if (cont_setup(c, x))
					return -1;
			}
	fprintf(stderr, "bpfqs: %zu contention configurations set up in %.1f s\n", n_conts,
		(mono_ns() - t0) / 1e9);
	return 0;
}

/*
 * Every contention configuration, measured round-robin: sample s of every
 * configuration, then sample s + 1, so that all see the same host.
 */
static int contention_measure(const struct cfg *c)
{
	size_t total = c->window_warmup + c->windows, s, i;

	progress_part(total, "windows", "contention, %zu configurations", n_conts);
	for (s = 0; s < total; s++) {
		for (i = 0; i < n_conts; i++)
			if (cont_window(&conts[i]))
				return -1;
		progress_set(s + 1);
	}
	measured = true;
	return 0;
}

static void cont_row(FILE *f, const struct cont *x, size_t sample, bool warmup, const char *what, double cpu,
		     double mops)
{
	fprintf(f, "%s,%u,%s,%zu,%d,%s,%.0f,", kind_name[x->kind], x->nthreads, x->shared ? "yes" : "no", sample,
		warmup, what, cpu);
	csv_put_num(f, mops);
	fputc('\n', f);
}

/* Per configuration: the aggregate windows, then the threads' */
static void cont_rows(FILE *f, const struct cont *x, size_t warmup)
{
	size_t j;

	for (j = 0; j < x->n; j++)
		cont_row(f, x, j, j < warmup, "aggregate", -1, x->agg[j]);
	for (j = 0; j < x->n * x->nthreads; j++)
		cont_row(f, x, j / x->nthreads, j / x->nthreads < warmup, "thread", x->per_cpu[j], x->per[j]);
}

/* contention-windows.csv; the header only when the measurement did not finish */
static int contention_write(const struct cfg *c)
{
	struct atomic_file f;
	size_t i;

	if (csv_open(&f, c->out, "contention-windows.csv", "map,threads,shared,window,warmup,what,cpu,mops")) {
		run_fail("cannot write %s/contention-windows.csv", c->out);
		return -1;
	}
	for (i = 0; measured && i < n_conts; i++)
		cont_rows(f.f, &conts[i], c->window_warmup);
	if (atomic_commit(&f)) {
		run_fail("cannot write %s/contention-windows.csv", c->out);
		return -1;
	}
	return 0;
}

static void contention_cleanup(void)
{
	size_t i;
	unsigned int t;

	for (i = 0; i < n_conts; i++) {
		for (t = 0; t < conts[i].made; t++)
			bpfqs_bpf__destroy(conts[i].w[t].skel);
		free(conts[i].agg);
		free(conts[i].per);
		free(conts[i].per_cpu);
	}
	free(conts);
	conts = NULL;
	n_conts = 0;
}

const struct part contention_part = {
	.name = "contention",
	.wanted = cont_wanted,
	.setup = contention_setup,
	.measure = contention_measure,
	.write = contention_write,
	.cleanup = contention_cleanup,
};
