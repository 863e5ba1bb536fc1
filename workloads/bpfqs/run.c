// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs run --profile quick|full --out DIR [options]: ns per operation from
 * user space (bpf syscalls) and from BPF programs (bpf_loop of K operations
 * per run, BPF_PROG_TEST_RUN with a calibrated repeat, an empty loop
 * subtracted), and the throughput of 1..P pinned threads (P at most the
 * host's CPUs) on one shared map against per-thread maps. Writes the raw
 * CSV files into DIR (setup.csv, *-batches.csv, prog-repeat.csv,
 * prog-timer.csv, contention-windows.csv); `bpfqs report` makes
 * summary.json from them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "output.h"
#include "progress.h"
#include "timing.h"
#include "bpfqs.h"

static void add_kind(const char *s, void *arg)
{
	struct cfg *c = arg;
	int k = kind_of(s);

	if (k < 0)
		lab_usage_error("unknown map type '%s' (expected queue, stack, array or hash)", s);
	c->kinds[k] = true;
}

static void add_vsize(const char *s, void *arg)
{
	struct cfg *c = arg;
	unsigned int v;
	int k;

	if (c->n_vsizes == MAX_LIST)
		lab_usage_error("more than %d value sizes", MAX_LIST);
	v = (unsigned int)lab_parse_uint("value size", s, 0, UINT_MAX);
	if (v == 0)
		lab_usage_error("value size '0' is not allowed: the maps need at least 1 byte");
	c->vsizes[c->n_vsizes++] = v;
	for (k = 0; k < NKINDS; k++)
		if (c->kinds[k] && v > max_value_size(k))
			lab_usage_error("value size '%u' is beyond the kernel's limit of %u bytes for %s maps",
					v, max_value_size(k), kind_name[k]);
}

static void add_threads(const char *s, void *arg)
{
	struct cfg *c = arg;
	unsigned int t;

	if (c->n_threads == MAX_LIST)
		lab_usage_error("more than %d thread counts", MAX_LIST);
	t = (unsigned int)lab_parse_uint("threads", s, 0, UINT_MAX);
	if (t == 0)
		lab_usage_error("threads '0': at least one thread is needed");
	if (t > c->ncpus)
		lab_usage_error("threads '%u' is beyond the %u vCPUs here (one pinned thread per vCPU)",
				t, c->ncpus);
	if (c->host_cpus && t > c->host_cpus)
		lab_usage_error("threads '%u' is beyond the host's %u CPUs (--host-cpus): more threads than "
				"host CPUs measure the host's oversubscription, not the map", t, c->host_cpus);
	c->threads[c->n_threads++] = t;
}

static void add_part(const char *s, void *arg)
{
	struct cfg *c = arg;

	if (!strcmp(s, "user"))
		c->part_user = true;
	else if (!strcmp(s, "prog"))
		c->part_prog = true;
	else if (!strcmp(s, "contention"))
		c->part_cont = true;
	else
		lab_usage_error("unknown part '%s' (expected user, prog or contention)", s);
}

/* The profile's figures; --rounds, --warmup and --windows override its counts */
static void set_profile(struct cfg *c)
{
	if (!strcmp(c->profile, "quick")) {
		/* about 1 min under TCG: an A/B's boots run it, and its spread lies between boots */
		c->rounds = 40;
		c->warmup = 5;
		c->windows = 6;
		c->window_warmup = 1;
		c->window_s = 0.2;
		c->repeat_max = 512;
	} else if (!strcmp(c->profile, "full")) {
		c->rounds = 600;
		c->warmup = 30;
		c->windows = 30;
		c->window_warmup = 5;
		c->window_s = 1.0;
		c->repeat_max = 4096;
	} else {
		lab_usage_error("unknown profile '%s' (expected quick or full)", c->profile);
	}
	c->user_batch = 64;
	c->prog_k = 64;
	c->cont_repeat = 16;
	c->cont_vsize = 4;
}

/* 1, 2, 4, ... up to @max, and @max itself */
static void default_threads(struct cfg *c)
{
	unsigned int t;

	for (t = 1; t < c->max_threads && c->n_threads < MAX_LIST - 1; t *= 2)
		c->threads[c->n_threads++] = t;
	c->threads[c->n_threads++] = c->max_threads;
}

static void parse_run(int argc, char **argv, struct cfg *c)
{
	const char *maps = "queue,stack,array,hash", *vs = "4,64,256,1024,4096";
	const char *threads = NULL, *parts = "user,prog,contention";
	unsigned long long rounds = 0, windows = 0, warmup = 0, cpu = 0, host_cpus = 0;
	bool warmup_given = false, cpu_given = false;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("profile", &c->profile, "quick|full", "how long and wide", true),
		LAB_OPT_STR("out", &c->out, "DIR", "results folder (created; its parent must exist)", true),
		LAB_OPT_STR("maps", &maps, "LIST", "queue,stack,array,hash (default all; contention: queue, stack)",
			    false),
		LAB_OPT_STR("value-sizes", &vs, "LIST", "bytes, 1 to the kernel's limit (default 4,64,256,1024,4096)",
			    false),
		LAB_OPT_STR("threads", &threads, "LIST",
			    "contention threads, one per vCPU, at most the host's CPUs (default 1, 2, 4.. up to that)",
			    false),
		LAB_OPT_U64("host-cpus", &host_cpus, 1, 4096,
			    "the host's CPUs (the lab passes the run spec's host_cpus; default: unknown, threads up to the vCPUs)"),
		LAB_OPT_U64("rounds", &rounds, 6, 1000000, "measured rounds (batches per figure) after warm-up"),
		{ .name = "warmup", .type = LAB_OPT_UINT, .value = &warmup, .arg = "N",
		  .help = "warm-up rounds dropped first", .min = 0, .max = 100000, .given = &warmup_given },
		LAB_OPT_U64("windows", &windows, 6, 100000, "measured contention windows after warm-up"),
		LAB_OPT_STR("parts", &parts, "LIST", "user,prog,contention (default all)", false),
		{ .name = "cpu", .type = LAB_OPT_UINT, .value = &cpu, .arg = "N",
		  .help = "vCPU of the single-thread measurements (default: the last)", .min = 0, .max = 4095,
		  .given = &cpu_given },
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};
	int k;
	bool any = false;

	memset(c, 0, sizeof(*c));
	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "nothing");
	set_profile(c);
	if (rounds)
		c->rounds = rounds;
	if (warmup_given)
		c->warmup = warmup;
	if (windows)
		c->windows = windows;
	c->ncpus = allowed_cpus();
	c->host_cpus = (unsigned int)host_cpus;
	c->max_threads = c->host_cpus && c->host_cpus < c->ncpus ? c->host_cpus : c->ncpus;
	lab_each_item("--maps", maps, add_kind, c);
	lab_each_item("--value-sizes", vs, add_vsize, c);
	if (threads)
		lab_each_item("--threads", threads, add_threads, c);
	else
		default_threads(c);
	lab_each_item("--parts", parts, add_part, c);
	if (!cpu_given)
		cpu = c->ncpus - 1;
	if (cpu >= c->ncpus)
		lab_usage_error("--cpu '%llu' is beyond the %u vCPUs here", cpu, c->ncpus);
	c->cpu = (int)cpu;
	for (k = 0; k < NKINDS; k++)
		any |= c->kinds[k];
	if (!any)
		lab_usage_error("--maps names no map");
}

/* The run's parameters, for the record (report reads vcpus from it) */
static int write_setup(const struct cfg *c)
{
	struct atomic_file f;

	if (csv_open(&f, c->out, "setup.csv", "name,value"))
		goto fail;
	fprintf(f.f, "profile,%s\nrounds,%zu\nwarmup_rounds,%zu\nwindows,%zu\nwarmup_windows,%zu\n", c->profile,
		c->rounds, c->warmup, c->windows, c->window_warmup);
	fprintf(f.f, "user_ops_per_batch_max,%u\nprog_ops_per_run,%u\nprog_repeat_max,%u\n", c->user_batch,
		c->prog_k, c->repeat_max);
	fprintf(f.f, "contention_runs_per_call,%u\ncontention_window_s,%.3f\ncontention_value_size,%u\n",
		c->cont_repeat, c->window_s, c->cont_vsize);
	fprintf(f.f, "figure,median over all batches after warm-up (none left out); *_best: the fastest batch\n");
	fprintf(f.f, "vcpus,%u\nhost_cpus,%u\nmax_threads,%u\nsingle_thread_vcpu,%d\nclock_pair_ns,%.1f\n",
		c->ncpus, c->host_cpus, c->max_threads, c->cpu, clock_cost_ns);
	if (!atomic_commit(&f))
		return 0;
fail:
	run_fail("cannot write %s/setup.csv", c->out);
	return -1;
}

static const struct part *const parts[] = { &single_part, &contention_part };

/*
 * Each part in turn: set up, measure, write, clean up. Every part writes
 * its files even when it was not wanted or an earlier one failed (the
 * header only then), so that report finds them all.
 */
static void run_parts(const struct cfg *c)
{
	uint64_t t0 = mono_ns();
	int wanted = 0;
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		wanted += parts[i]->wanted(c);
	progress_start(wanted);
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const struct part *p = parts[i];

		bool wanted = p->wanted(c);

		if (wanted && !run_failed() && !p->setup(c))
			p->measure(c);
		p->write(c);
		p->cleanup();
		if (wanted)
			fprintf(stderr, "bpfqs: %s figures done after %.1f s\n", p->name, (mono_ns() - t0) / 1e9);
	}
}

int cmd_run(int argc, char **argv)
{
	struct cfg c;
	int rc;

	parse_run(argc, argv, &c);
	if (mkdir(c.out, 0755) && errno != EEXIST)
		lab_die("cannot create --out '%s': %s", c.out, strerror(errno));
	fprintf(stderr, "bpfqs: profile %s: %zu rounds after %zu warm-up, %u vCPUs, %u host CPUs%s, "
		"single-thread work on vCPU %d\n", c.profile, c.rounds, c.warmup, c.ncpus, c.host_cpus,
		c.host_cpus ? "" : " (unknown)", c.cpu);
	if ((c.part_user || c.part_prog) && (rc = pin_to_cpu(c.cpu)))
		run_fail("cannot pin to vCPU %d: %s", c.cpu, strerror(-rc));
	measure_clock_cost();
	fprintf(stderr, "bpfqs: a clock read pair costs %.0f ns (subtracted from user-space batches)\n",
		clock_cost_ns);
	write_setup(&c);
	run_parts(&c);
	if (run_failed()) {
		fprintf(stderr, "bpfqs: run failed: %s\n", run_failure());
		return 1;
	}
	return 0;
}
