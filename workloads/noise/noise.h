/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise - how much of each timing figure is the platform's: the kernel's
 * own osnoise and timerlat tracers, per vCPU, in the same boot as the
 * timing workloads.
 *
 * timerlat: a SCHED_FIFO 95 kernel thread per CPU arms an absolute hrtimer
 * every --period-us and reports, per activation, the timer IRQ's latency
 * (irq context) and the thread's wake-up latency (thread context), as
 * cyclictest does but from inside the kernel. osnoise: a kernel thread per
 * CPU reads the time in a loop with interrupts and preemption on; a gap of
 * 5 us or more is noise, and the tracer's events say which interference it
 * was (IRQ, softirq, thread, NMI) or none at all: "hardware" noise, which in
 * a VM is the time the vCPU did not run (under TCG: the host not running
 * QEMU's vCPU thread).
 *
 * The files of the program:
 *   main.c       the verb table
 *   tracer.c     the tracers through a trace instance of our own: its set-up,
 *                chunks of tracing, the global knobs saved and restored
 *   parse.c      their text: timerlat samples, osnoise periods with their
 *                events summed by cause (trace_read)
 *   run.c        `run`: the measurement into CSV and a record
 *   conform.c    `conform`: the tracers give data, bad input is refused
 *   load.c       reading back what `run` left
 *   report.c     `report`: summary.json, targets.json and the figures' CSV
 *   latency.c    timerlat's figures: quantiles with cluster intervals
 *   osnoise.c    osnoise's figures: noise per second by cause
 */
#ifndef NOISE_H
#define NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "interval.h"
#include "output.h"

#define WORKLOAD	"noise"
#define MAX_CPUS	256
#define CHUNK_S		10	/* seconds of tracing between two reads of the buffer */

/*
 * The causes of osnoise's noise. CAUSE_HW: the time of the gaps no
 * interference explains (whole gaps with none, the rest of gaps with some);
 * its event count is osnoise's hardware counter, the gaps with none.
 */
enum cause { CAUSE_IRQ, CAUSE_SOFTIRQ, CAUSE_THREAD, CAUSE_NMI, CAUSE_HW, NCAUSES };
extern const char *const cause_names[NCAUSES];	/* irq, softirq, thread, nmi, hw */

/* ---- parse.c: the tracers' text ---- */

/* osnoise's summary of one period of one CPU (its own line in the trace) */
struct osn_summary {
	unsigned long long runtime_us, noise_us, max_single_us;
	unsigned long hw, nmi, irq, softirq, thread;	/* interference counters */
};

#define OSN_PENDING 16	/* interferences kept until the gap they fell in is traced */

/* A period with the events of its CPU since the period before, summed */
struct osn_period {
	struct osn_summary s;
	unsigned long long cause_ns[NCAUSES];	/* CAUSE_HW: see enum cause */
	unsigned long events[NCAUSES];
	unsigned long samples;			/* sample_threshold events: every gap */
	unsigned long long sample_ns;
	/* the interferences since the last gap: start (the tracer's clock), net ns */
	unsigned long long pend_start[OSN_PENDING], pend_ns[OSN_PENDING];
	unsigned int npend;
};

/* "#SEQ context irq|thread timer_latency N ns": 0, or -1 for other text */
int parse_timerlat(const char *text, unsigned long *seq, char *ctx, size_t len,
		   unsigned long long *lat_ns);
/* osnoise's summary "RUNTIME NOISE PCT MAX HW NMI IRQ SIRQ THREAD": 0 or -1 */
int parse_osnoise_summary(const char *text, struct osn_summary *s);
/*
 * An osnoise event: its cause, start (ns of the tracer's clock) and
 * duration, and for sample_threshold (*@cause NCAUSES) its interference
 * count. 0, or -1 for other text.
 */
int parse_osnoise_event(const char *text, enum cause *cause, unsigned long long *start_ns,
			unsigned long long *dur_ns, long *interference);

/* What trace_read hands on, line by line, in the trace's order */
struct trace_sink {
	void (*timerlat)(void *arg, int cpu, int64_t t_ns, unsigned long seq, const char *ctx,
			 unsigned long long lat_ns);
	void (*period)(void *arg, int cpu, int64_t t_ns, const struct osn_period *p);
	void *arg;
};

struct trace_counts {
	long lost[MAX_CPUS];	/* "CPU:N [LOST M EVENTS]" lines (an unknown M: 1) */
	long tail[MAX_CPUS];	/* osnoise events after a CPU's last summary */
	long lines, other;	/* every line; those of no known form */
	int max_cpu;		/* the highest CPU seen, -1 none */
};

/*
 * trace_read - a text trace (an instance's "trace" file) into @sink, the
 * counts into @c (zeroed first); every line copied to @raw unless NULL.
 * Returns 0, or -errno when @in cannot be read.
 */
int trace_read(FILE *in, const struct trace_sink *sink, struct trace_counts *c, gzFile raw);

/* ---- tracer.c: the tracers through a trace instance ---- */

struct tracer {
	char dir[64];		/* "instances/lab-noise-PID", relative to TRACEFS */
	const char *name;	/* timerlat or osnoise */
	bool made, started;
};

/* The osnoise/ knobs as they were, restored by knobs_restore (also at exit) */
void knobs_save(void);
void knobs_restore(void);
/* osnoise/timerlat_period_us, osnoise/period_us and runtime_us: 0 or -errno */
int knobs_set(unsigned long long timerlat_period_us, unsigned long long period_us,
	      unsigned long long runtime_us);

/*
 * tracer_open - a trace instance of our own for @name, with the mono clock
 * (CLOCK_MONOTONIC stamps), @buffer_kb per CPU and, for osnoise, its
 * events; the tracer not started yet. 0, or -errno with the reason on
 * stderr and nothing left behind.
 */
int tracer_open(struct tracer *t, const char *name, unsigned long buffer_kb);
/* Start (the first time: set current_tracer) / stop tracing: 0 or -errno */
int tracer_start(struct tracer *t);
int tracer_stop(struct tracer *t);
/* The instance's trace opened for reading; NULL with errno */
FILE *tracer_trace(struct tracer *t);
/* Events of @cpu the ring buffer overwrote or dropped since the last clear; -1 unknown */
long tracer_overrun(struct tracer *t, int cpu);
/* Empty the buffer (and its counts): 0 or -errno */
int tracer_clear(struct tracer *t);
/* current_tracer nop, the instance removed */
void tracer_close(struct tracer *t);
/* The path of TRACEFS/@dir/@file */
void tracer_path(const struct tracer *t, const char *file, char *buf, size_t len);

/* The online CPUs (sysconf), at most MAX_CPUS */
int online_cpus(void);

/* ---- load.c: what `run` left in the folder ---- */

struct tl_sample {
	int cpu, ctx;		/* ctx: index into tl_set.ctx_names */
	unsigned long chunk;
	double lat_us;
	int64_t t_ns;
};

struct tl_set {
	char load[32];
	struct tl_sample *s;
	size_t n, cap;
	char ctx_names[4][16];
	int nctx, ncpu;
};

struct osn_row {
	int cpu;
	unsigned long chunk, period;
	int64_t t_ns;
	struct osn_period p;
	long lost;
};

struct osn_set {
	char load[32];
	struct osn_row *r;
	size_t n, cap;
	int ncpu;
};

/* The loads of DIR/PREFIX-LOAD.csv, idle first then by name; the count */
size_t find_loads(const char *dir, const char *prefix, char loads[][32], size_t max);
/* DIR/timerlat-LOAD.csv, DIR/osnoise-LOAD.csv: 0 or -1 (printed) */
int load_timerlat(const char *dir, const char *load, struct tl_set *t);
int load_osnoise(const char *dir, const char *load, struct osn_set *o);
/* run-LOAD.json's "accel" into @buf ("unknown" when it says none) */
void load_accel(const char *dir, const char *load, char *buf, size_t len);

/* ---- report.c, latency.c, osnoise.c: the figures ---- */

struct report {
	struct out *sum;
	const char *dir;
	char *failed;		/* the first failure of the report */
	char accel[32];
	struct atomic_file cdf, platform, causes;
};

void report_fail(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void report_metric(struct report *r, const char *name, const char *const *params,
		   const char *unit, const double *x, size_t n);
void report_estimate(struct report *r, const char *name, const char *const *params,
		     const char *unit, double v, size_t n, const struct ci *ci);

/* The p99 of idle timerlat latency over every CPU, per context, for the targets */
struct platform_p99 {
	double v, lo, hi;
	size_t n, clusters;
	bool have;
};

/* timerlat's figures of one load; @irq, @thread: its all-CPU p99s */
void latency_figures(struct report *r, const struct tl_set *t, struct platform_p99 *irq,
		     struct platform_p99 *thread);
/* osnoise's figures of one load */
void osnoise_figures(struct report *r, const struct osn_set *o);
/* What "hardware" noise is under @accel: the cause's name in the figures */
const char *hw_cause_name(const char *accel);

/* ---- the verbs ---- */

int cmd_run(int argc, char **argv);
int cmd_conform(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
