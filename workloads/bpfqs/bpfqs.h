/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpfqs - the BPF queue and stack map lab: what its files share.
 *
 *   main.c         the verb table
 *   common.c       map kinds, value patterns, the test packet, a run's failure
 *   skel.c         the BPF object: benchmark skeletons and test runs
 *   conform.c      `conform`: the maps' semantics as TAP
 *   conform_input.c  `conform`'s bad-input cases (this program run again)
 *   run.c          `run`: options, the measurement's parts, setup.csv
 *   rounds.c       the single-thread figures: units measured in rounds,
 *                  the batches CSV files
 *   user.c         a unit from user space (bpf syscalls)
 *   prog.c         a unit from BPF programs (bpf_loop, BPF_PROG_TEST_RUN),
 *                  the test run's fixed cost and the repeat calibration
 *   contention.c   1..P pinned threads on shared or per-thread maps
 *   report.c       `report`: the batches CSV files into summary.json
 *   series.c       the figures report reads back, and their order
 *   figures.c      the per-figure CSV files the plots read, the ratios
 *   targets.c      the targets into targets.json, notes.md
 *   probe_load.c   `probe-load`: a known load for probes/bpf_map.bt
 *
 * Everything but `report` creates maps or loads programs: run it in the
 * lab's guest, never on the host.
 */
#ifndef BPFQS_H
#define BPFQS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>

#include "output.h"
#include "stats.h"

struct bpfqs_bpf;
struct out;
struct bpf_program;

/*
 * The kernel's value size limit: queue, stack and array maps refuse
 * value_size > KMALLOC_MAX_SIZE with E2BIG (1 << (MAX_ORDER + PAGE_SHIFT - 1),
 * 4 MiB on x86-64 with 6.1's MAX_ORDER 11); the hash map needs room for its
 * element header and the BPF stack below that (htab_map_alloc_check:
 * value_size >= KMALLOC_MAX_SIZE - MAX_BPF_STACK - sizeof(struct htab_elem)).
 */
#define KMALLOC_MAX_SIZE (4u << 20)
#define HTAB_ELEM_SIZE 48u
#define MAX_BPF_STACK 512u

/* Memory one benchmark map may take (capacity x value size) */
#define MAP_BUDGET (64u << 20)
/* the most operations of one program run: the loop bound of bpfqs.bpf.c */
#define BPFQS_LOOP_MAX 64u

/*
 * The targets (targets.c; workloads/bpfqs/notes.md says why these):
 * the kernel's timer cost per BPF_PROG_TEST_RUN call, spread over the
 * repeat, under 1 % of every in-program figure; the in-program push+pop
 * pair within 20 % of push + pop measured apart; queue and stack push
 * (one kernel function) within 10 % of each other; per-thread maps at P
 * threads at least 80 % of P x one thread.
 */
#define CLOCK_LIMIT_PCT 1.0
#define PAIR_LIMIT_PCT 20.0
#define PARITY_LIMIT_PCT 10.0
#define SCALING_MIN_PCT 80.0
/* The repeat calibration aims at half the limit: the pilot figure is noisy */
#define CLOCK_AIM_PCT 0.5

#define MAX_LIST 32

enum kind { QUEUE, STACK, ARRAY, HASH, NKINDS };
extern const char *const kind_name[NKINDS];
extern const enum bpf_map_type kind_type[NKINDS];

unsigned int max_value_size(enum kind k);
/* The kind named @s, -1 when there is none */
int kind_of(const char *s);
/* The CPUs this process may run on */
unsigned int allowed_cpus(void);
/* Fill @n bytes with a pattern that depends on @seed and the offset */
void fill_pattern(unsigned char *b, size_t n, unsigned int seed);
unsigned int pow2_floor(unsigned int x);

/* An Ethernet + IPv4 packet for the SCHED_CLS programs */
struct pkt {
	struct ethhdr eth;
	struct iphdr ip;
	unsigned char payload[20];
} __attribute__((packed));

__u16 ip_csum(const void *hdr);
void make_pkt(struct pkt *p, __u32 saddr, __u32 daddr);

/*
 * The first failure of a measurement, printed when recorded; later ones are
 * dropped (they follow from it). run_failed() is true once one is recorded.
 */
void run_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool run_failed(void);
const char *run_failure(void);

/* A value into a CSV file, exactly (it reads back as the same double) */
void csv_put_num(FILE *f, double x);

/* ---- skel.c ------------------------------------------------------------- */

/*
 * A skeleton for @k, value size @vsize, @kops operations per program run
 * and capacity @cap, loading only the programs it needs. @share: the fd of
 * an existing queue or stack map to use instead of a new one (-1: none).
 * NULL on failure (recorded with run_fail()).
 */
struct bpfqs_bpf *bench_skel(enum kind k, unsigned int vsize, unsigned int kops, unsigned int cap,
			     int share);
/* One BPF_PROG_TEST_RUN of @prog with @repeat runs: the mean ns per run into @ns. */
int test_run(struct bpfqs_bpf *skel, struct bpf_program *prog, unsigned int repeat, double *ns);

/* ---- run.c: the measurement's configuration ------------------------------ */

struct cfg {
	const char *profile;
	const char *out;
	bool kinds[NKINDS];
	unsigned int vsizes[MAX_LIST];
	size_t n_vsizes;
	unsigned int threads[MAX_LIST];
	size_t n_threads;
	size_t rounds, warmup;		/* single-thread: measured and warm-up rounds */
	size_t windows, window_warmup;	/* contention: measured and warm-up windows */
	bool part_user, part_prog, part_cont;
	int cpu;
	/* from the profile */
	unsigned int user_batch;	/* operations per user-space batch (at most) */
	unsigned int prog_k;		/* operations per program run (power of 2) */
	unsigned int repeat_max;	/* runs per BPF_PROG_TEST_RUN call, at most */
	unsigned int cont_repeat;	/* runs per call in the contention test */
	double window_s;		/* contention: seconds per window */
	unsigned int cont_vsize;	/* contention: value size */
	unsigned int ncpus;		/* the guest's vCPUs this process may use */
	unsigned int host_cpus;		/* the host's CPUs (--host-cpus), 0: unknown */
	unsigned int max_threads;	/* min(ncpus, host_cpus) */
};

/*
 * A part of the measurement, after the kernel's selftests/bpf/bench.c: set
 * up, measure, write its CSV files, clean up. Each returns 0 or -1 with the
 * reason recorded through run_fail().
 */
struct part {
	const char *name;
	bool (*wanted)(const struct cfg *c);
	int (*setup)(const struct cfg *c);
	int (*measure)(const struct cfg *c);
	int (*write)(const struct cfg *c);
	void (*cleanup)(void);
};

extern const struct part single_part;		/* rounds.c */
extern const struct part contention_part;	/* contention.c */

/* ---- rounds.c, user.c, prog.c: the single-thread units ------------------ */

#define MAX_OPS 4

/* One map of one value size, from user space or from programs */
struct unit {
	bool prog;
	enum kind kind;
	unsigned int vsize;
	size_t nops;
	const char *op[MAX_OPS];
	double *v[MAX_OPS];		/* per round: ns per operation (user) or per run (prog) */
	double *empty;			/* prog: per round, the empty loop's ns per run */
	/* user space */
	int fd;
	unsigned int b;			/* operations per batch */
	unsigned char *buf, *got;
	/* in-program */
	struct bpfqs_bpf *skel;
	struct bpf_program *progs[MAX_OPS];
	unsigned int kops, repeat;
	/* the repeat calibration: the pilot's smallest resolved figure, the repeat it asked for */
	double pilot_ns_per_op;
	unsigned int repeat_needed;
	const char *repeat_limit;	/* what capped the repeat, or "none" */
};

/* What a unit of one path does: set up, one round r, (its own) clean-up */
struct unit_ops {
	int (*setup)(const struct cfg *c, struct unit *u);
	int (*round)(struct unit *u, size_t r);
};

extern const struct unit_ops user_ops, prog_ops;

/* The cost of a clock read pair, subtracted from every user-space batch (rounds.c) */
extern double clock_cost_ns;
void measure_clock_cost(void);

/*
 * The kernel's fixed cost inside the BPF_PROG_TEST_RUN timer per call (its
 * clock reads), measured by prog_timer_cost() (prog.c): the estimate of
 * every pair of calls, and their median.
 */
#define TIMER_PAIRS 101
#define TIMER_REPEAT 64
extern double timer_pair_ns[TIMER_PAIRS];
extern double timer_call_ns;
int prog_timer_cost(void);

/* ---- conform.c, conform_input.c ---------------------------------------- */

void conf_bad_input(void);
void conf_bad_output(void);

/* ---- series.c: the figures of a run, read back by report ----------------- */

struct series {
	const char *metric;
	const char *unit;
	enum kind kind;
	char op[16];
	unsigned int vsize;		/* 0: none */
	unsigned int threads;		/* 0: none */
	bool shared;
	unsigned int k;			/* prog: operations per run */
	unsigned int repeat;		/* prog: runs per BPF_PROG_TEST_RUN call */
	double min_run;			/* prog: the fastest batch's ns per run (no empty loop subtracted) */
	size_t n, cap;
	double *x;			/* the batches (windows) after warm-up */
	struct stats st;
	bool have_st;
};

extern struct series **all_series;
extern size_t n_series;

struct series *series_new(const char *metric, const char *unit, enum kind kind, const char *op,
			  unsigned int vsize, unsigned int threads, bool shared);
/* The series with these parameters, made when there is none */
struct series *series_get(const char *metric, const char *unit, enum kind kind, const char *op,
			  unsigned int vsize, unsigned int threads, bool shared);
void series_add(struct series *s, double x);
struct series *find_series(const char *metric, enum kind k, const char *op, unsigned int vsize);
/* Whether any series of @metric was read */
bool find_series_metric(const char *metric);
/* The indexes of the first @n series by metric, map, op, value size, shared, threads */
size_t *series_sorted(size_t n);
/*
 * The series' metric into summary.json (and for ns per operation its
 * fastest batch as METRIC_best), its statistics into ->st
 */
int series_publish(struct out *o, struct series *s);
void series_free_all(void);
/* Whether an in-program figure is below what the empty-loop subtraction resolves */
bool below_resolution(const struct series *s, const struct series **empty);

/* ---- figures.c, targets.c ---------------------------------------------- */

/* Each writes DIR/FILE and returns 0, or -1 naming the file in @why. */
int write_ratios(struct out *o, const char *dir, char *why, size_t len);
int write_ns_per_op(const char *dir, char *why, size_t len);
int write_contention(const char *dir, char *why, size_t len);
/*
 * probe_check - probe-check.csv: what probes/bpf_map.bt counted against
 * what the known load did. 0: they agree (or no load ran), 1: they do not
 * (the reason in @why), -1: a file could not be written (@why).
 */
int probe_check(const char *dir, char *why, size_t len);
/* The series of @metric with the contention parameters (map, threads, shared) of @s */
const struct series *cont_sibling(const struct series *s, const char *metric);

/* What report read besides the series, for the targets and notes.md */
struct run_facts {
	unsigned int vcpus, host_cpus;	/* host_cpus 0: unknown */
	double timer_call_ns;		/* NAN: not measured */
	size_t timer_n;
	/* per in-program unit: what capped its repeat */
	struct {
		enum kind kind;
		unsigned int vsize, repeat, needed;
		char limit[32];
	} units[64];
	size_t n_units;
};

/* The pure judgements of targets.c, on numbers */
double clock_overhead_pct(double timer_call_ns, unsigned int repeat, unsigned int k, double ns_per_op);
enum target_verdict judge_at_most(double measured, double limit);
enum target_verdict judge_at_least(double measured, double limit);
/* 100 x |ratio - 1| */
double deviation_pct(double ratio);

int write_targets(struct out *o, const char *dir, const struct run_facts *f, char *why, size_t len);

#endif
